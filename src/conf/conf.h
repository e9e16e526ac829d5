/* The configuration: an INI file (inih) plus AIVISTA_<SECTION>_<KEY>
 * environment overrides, checked against one schema table for the shared
 * sections, whose keys are fields here, and against the tables the
 * workflows declare for their own [workflow.NAME] sections. */
#ifndef AV_CONF_H
#define AV_CONF_H
#include <stddef.h>
#include "util/buf.h"

enum conf_prov_role { PROV_CHAT, PROV_IMAGE, PROV_SEARCH, PROV_EMBEDDINGS, PROV_VISION,
		      PROV_NROLES };

struct conf_provider {
	char *kind;        /* a vendor: a row of prov_vendors[] (prov/vendors.h) */
	char *base_url;
	char *model;
	char *api_key_env; /* name of the environment variable holding the key */
	char *api_key;     /* resolved key (from the file or that variable); never logged */
	long timeout_ms;
	long connect_timeout_ms;
	long retries;
	long max_response_bytes;
	long poll_interval_ms;  /* image: between polls of an asynchronous task */
	long poll_max;          /* image: polls before giving up */
};

/* A key of a section: its type, where its value goes (an offset in the
 * struct the section fills), its default as the file would write it, and
 * its range or choices. */
enum conf_type { CT_LONG, CT_STR, CT_ENUM, CT_BOOL, CT_REAL, CT_KIND, CT_BACKEND };
struct conf_key {
	const char *section;
	const char *name;
	enum conf_type type;
	size_t off;            /* offset in the struct the section fills */
	const char *def;       /* default, as it would be written in the file */
	long min, max;         /* CT_LONG, CT_REAL; min: CT_KIND's role */
	const char *choices;   /* CT_ENUM: '|'-separated */
};

/* The keys of a section that a part of the program declares for itself
 * (a workflow's [workflow.NAME], as a lighttpd module declares its own):
 * the keys fill a struct of the declarer's, of size bytes (CT_LONG and
 * CT_BOOL: long; CT_REAL: double; CT_STR and CT_ENUM: char *, freed by
 * conf_free). The keys' section field is not read. */
struct conf_section {
	const char *name;
	const struct conf_key *keys;
	size_t nkeys;
	size_t size;
};
#define CONF_KEY_LONG(type, n, f, d, lo, hi) { NULL, n, CT_LONG, offsetof(type, f), d, lo, hi, NULL }
#define CONF_KEY_BOOL(type, n, f, d) { NULL, n, CT_BOOL, offsetof(type, f), d, 0, 1, NULL }
#define CONF_KEY_REAL(type, n, f, d, lo, hi) { NULL, n, CT_REAL, offsetof(type, f), d, lo, hi, NULL }
#define CONF_KEY_STR(type, n, f, d) { NULL, n, CT_STR, offsetof(type, f), d, 0, 0, NULL }
#define CONF_SECTIONS_MAX 16

/* A [provider.NAME] section of any other name (an agent's modelOverride
 * names it): the keys of a chat provider. */
#define CONF_NAMED_MAX 8
#define CONF_NAME_MAX 32
struct conf_named {
	char *name;                /* NAME, [A-Za-z0-9_-], 1 to CONF_NAME_MAX bytes */
	struct conf_provider p;
};

struct conf {
	char *path;          /* the file read, or NULL when only defaults apply */
	/* [server] */
	long max_body_bytes;
	long mask_max_bytes;
	/* PNG pixels, checked from the header before any row is inflated:
	 * reference images (all of one request together) and inpainting (the
	 * base image and the mask together) */
	long reference_max_side;
	long reference_max_pixel_bytes;
	long inpaint_max_side;
	long inpaint_max_pixel_bytes;
	long json_max_depth;
	long keepalive_ms;
	long stream_max_ms;
	long max_followers;  /* streams following one thread another worker runs */
	long write_timeout_ms;  /* a write to the web server making no progress this long ends it */
	long max_replays;    /* streams replaying stored events at once, on one host */
	char *allowed_hosts; /* Host names served, comma-separated; "": SERVER_NAME + loopback, "*": any */
	char *log_level;
	/* [store] */
	char *store_dir;
	char *key_file;
	char *durability;    /* sync | write_nosync */
	char *store_umask;   /* 0077 | 0007: the umask of whoever creates store files */
	long thread_ttl;
	long done_ttl;
	long history;
	long tombstone_ttl;
	long max_events;
	long max_asset_bytes;
	long max_request_bytes; /* bytes one request may add to the store (events, checkpoints, assets) */
	char *store_backend; /* a row of store_backends[] (store/backends.h) */
	char *store_dsn;     /* postgresql: a libpq connection string (no password in it) */
	char *store_host_id; /* this host's id in leases: /etc/machine-id or the host name by default */
	long store_statement_timeout_ms;  /* postgresql */
	long store_cache_kb; /* bdb: the shared cache, KiB */
	/* [engine] */
	long steps_per_request;
	long request_budget_ms;
	long max_iterations;
	long max_step_crashes;  /* takeovers from a dead worker at one step before the thread fails */
	long node_timeout_ms;
	long hitl_timeout_ms;   /* 0: a pause waits until the thread expires */
	char *hitl_default;     /* approve | reject: the decision taken at the timeout */
	/* [cache] (seconds; 0 = off) */
	long cache_retrieval_ttl;
	long cache_model_ttl;
	/* [media]: rendering SVG and reading text (OCR) from pictures users send,
	 * each in a child process under these budgets */
	long media_cpu_ms;
	long media_memory_bytes;
	long media_time_ms;
	long media_svg_max_bytes;      /* an SVG from a user: checked before it is stored */
	long media_svg_max_elements;
	long media_svg_max_filters;    /* filter primitives */
	long media_svg_max_text_bytes; /* character data of text elements */
	/* [fetch]: images fetched from URLs that users give */
	long fetch_allow_private;
	char *fetch_allow_hosts;  /* names allowed even when not public, comma-separated */
	long fetch_max_bytes;
	long fetch_timeout_ms;
	long fetch_max_redirects;
	/* [kb]: the knowledge bases */
	char *kb_styles;          /* the style library (JSON) */
	char *kb_notes;           /* the note workflow's corpus of notes (JSON) */
	char *kb_words;           /* the words the segmenter keeps whole (text) */
	char *kb_nodes;           /* graph_edit's node definitions (JSON) */
	char *kb_agents;          /* orchestrate's agent registry (JSON) */
	char *kb_templates;       /* orchestrate's plan templates (JSON) */
	/* [provider.*] */
	struct conf_provider prov[PROV_NROLES];
	/* [provider.NAME] of other names, in the order of the file */
	struct conf_named named[CONF_NAMED_MAX];
	size_t nnamed;
	/* The declared sections' values, in the order of conf_section_add. */
	void *sect[CONF_SECTIONS_MAX];
	size_t nsect;
};

/* Declares a section and its keys, before conf_init (a workflow's, when
 * it is registered). 0, or -1 when the name is taken or the table full;
 * a section declared twice is one. */
int conf_section_add(const struct conf_section *s);
/* The values of a declared section in c: its defaults when c was made
 * before the section was declared (a section not declared yet is declared
 * by the call). Borrowed; NULL only when the section cannot be declared. */
const void *conf_section_values(const struct conf *c, const struct conf_section *s);
/* Fills defaults. */
void conf_init(struct conf *c);
void conf_free(struct conf *c);
/* Reads path (NULL: $AIVISTA_CONF, else the installed default if it exists),
 * then the environment overrides. Every problem is appended to errs, one
 * "file:line: what" per line. Returns 0, or -1 when there was any. */
int conf_load(struct conf *c, const char *path, struct buf *errs);
/* Same, from a string (tests); name is used in messages. */
int conf_load_string(struct conf *c, const char *text, const char *name, struct buf *errs);
const char *conf_role_name(enum conf_prov_role r);
/* The provider section [provider.NAME]: a role's ("chat", "vision", ...)
 * or a named one; NULL when there is none. Borrowed from c. */
const struct conf_provider *conf_provider_named(const struct conf *c, const char *name);

#endif
