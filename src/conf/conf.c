/* Configuration loading and checking (see conf.h). One schema table drives
 * the defaults, the INI keys, the environment names and the range checks. */
#include "config.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <ini.h>
#include "util/buf.h"
#include "conf/conf.h"
#include "prov/vendors.h"
#include "store/backends.h"
#include "util/log.h"
#include "util/xmalloc.h"

#ifndef AV_SYSCONFDIR
#define AV_SYSCONFDIR "/etc"
#endif
#ifndef AV_LOCALSTATEDIR
#define AV_LOCALSTATEDIR "/var"
#endif
#ifndef AV_PKGDATADIR
#define AV_PKGDATADIR "/usr/share/aivista"
#endif

/* The types are in conf.h. CT_KIND: a vendor of prov_vendors[] that can
 * fill the role in min; CT_BACKEND: a backend of store_backends[]. Both
 * are strings like CT_ENUM, whose choices are the table's rows. */

#define K_LONG(s, n, f, d, lo, hi) { s, n, CT_LONG, offsetof(struct conf, f), d, lo, hi, NULL }
#define K_STR(s, n, f, d) { s, n, CT_STR, offsetof(struct conf, f), d, 0, 0, NULL }
#define K_BOOL(s, n, f, d) { s, n, CT_BOOL, offsetof(struct conf, f), d, 0, 1, NULL }
#define K_REAL(s, n, f, d, lo, hi) { s, n, CT_REAL, offsetof(struct conf, f), d, lo, hi, NULL }
#define K_ENUM(s, n, f, d, ch) { s, n, CT_ENUM, offsetof(struct conf, f), d, 0, 0, ch }
#define K_KIND(s, n, f, d, role) { s, n, CT_KIND, offsetof(struct conf, f), d, role, 0, NULL }
#define K_BACKEND(s, n, f, d) { s, n, CT_BACKEND, offsetof(struct conf, f), d, 0, 0, NULL }
#define K_PROV(sec, i, url_, model_, env_) \
	K_KIND(sec, "kind", prov[i].kind, "offline", i), \
	K_STR(sec, "base_url", prov[i].base_url, url_), \
	K_STR(sec, "model", prov[i].model, model_), \
	K_STR(sec, "api_key_env", prov[i].api_key_env, env_), \
	K_STR(sec, "api_key", prov[i].api_key, ""), \
	K_LONG(sec, "timeout_ms", prov[i].timeout_ms, "30000", 100, 600000), \
	K_LONG(sec, "connect_timeout_ms", prov[i].connect_timeout_ms, "5000", 100, 60000), \
	K_LONG(sec, "retries", prov[i].retries, "2", 0, 10), \
	K_LONG(sec, "max_response_bytes", prov[i].max_response_bytes, "33554432", 1024, 1L << 30)

static const struct conf_key conf_keys[] = {
	K_LONG("server", "max_body_bytes", max_body_bytes, "16777216", 1024, 1L << 30),
	K_LONG("server", "mask_max_bytes", mask_max_bytes, "8388608", 1024, 1L << 30),
	K_LONG("server", "reference_max_side", reference_max_side, "8192", 16, 1000000),
	K_LONG("server", "reference_max_pixel_bytes", reference_max_pixel_bytes, "67108864", 1024, 1L << 34),
	K_LONG("server", "inpaint_max_side", inpaint_max_side, "4096", 16, 1000000),
	K_LONG("server", "inpaint_max_pixel_bytes", inpaint_max_pixel_bytes, "134217728", 1024, 1L << 34),
	K_LONG("server", "json_max_depth", json_max_depth, "64", 2, 1000),
	K_LONG("server", "keepalive_ms", keepalive_ms, "15000", 10, 300000),
	K_LONG("server", "stream_max_ms", stream_max_ms, "240000", 1000, 86400000),
	K_LONG("server", "max_followers", max_followers, "4", 1, 1000),
	K_LONG("server", "write_timeout_ms", write_timeout_ms, "10000", 100, 600000),
	K_LONG("server", "max_replays", max_replays, "2", 1, 1000),
	K_STR("server", "allowed_hosts", allowed_hosts, ""),
	K_ENUM("server", "log_level", log_level, "info", "error|warn|info|debug"),
	K_STR("store", "dir", store_dir, AV_LOCALSTATEDIR "/lib/aivista"),
	K_STR("store", "key_file", key_file, ""),
	K_ENUM("store", "durability", durability, "write_nosync", "sync|write_nosync"),
	K_ENUM("store", "umask", store_umask, "0077", "0077|0007"),
	K_LONG("store", "thread_ttl", thread_ttl, "1800", 1, 31536000),
	K_LONG("store", "done_ttl", done_ttl, "604800", 1, 315360000),
	K_LONG("store", "history", history, "20", 1, 100000),
	K_LONG("store", "tombstone_ttl", tombstone_ttl, "604800", 1, 315360000),
	K_LONG("store", "max_events", max_events, "20000", 100, 100000000),
	K_LONG("store", "max_asset_bytes", max_asset_bytes, "268435456", 1024, 1L << 40),
	K_LONG("store", "max_request_bytes", max_request_bytes, "67108864", 65536, 1L << 40),
	K_BACKEND("store", "backend", store_backend, "bdb"),
	K_STR("store", "dsn", store_dsn, ""),
	K_STR("store", "host_id", store_host_id, ""),
	K_LONG("store", "statement_timeout_ms", store_statement_timeout_ms, "10000", 100, 3600000),
	K_LONG("store", "cache_kb", store_cache_kb, "512", 64, 4194304),
	K_LONG("engine", "steps_per_request", steps_per_request, "0", 0, 100000),
	K_LONG("engine", "request_budget_ms", request_budget_ms, "25000", 10, 3600000),
	K_LONG("engine", "max_iterations", max_iterations, "12", 1, 10000),
	K_LONG("engine", "max_step_crashes", max_step_crashes, "2", 0, 1000),
	K_LONG("engine", "node_timeout_ms", node_timeout_ms, "120000", 100, 3600000),
	K_LONG("engine", "hitl_timeout_ms", hitl_timeout_ms, "0", 0, 31536000000L),
	K_ENUM("engine", "hitl_default", hitl_default, "approve", "approve|reject"),
	K_LONG("cache", "retrieval_ttl", cache_retrieval_ttl, "300", 0, 31536000),
	K_LONG("cache", "model_ttl", cache_model_ttl, "3600", 0, 31536000),
	K_LONG("media", "cpu_ms", media_cpu_ms, "10000", 1000, 600000),
	K_LONG("media", "memory_bytes", media_memory_bytes, "536870912", 16777216, 1L << 36),
	K_LONG("media", "time_ms", media_time_ms, "20000", 100, 600000),
	K_LONG("media", "svg_max_bytes", media_svg_max_bytes, "1048576", 1024, 1L << 30),
	K_LONG("media", "svg_max_elements", media_svg_max_elements, "10000", 10, 10000000),
	K_LONG("media", "svg_max_filters", media_svg_max_filters, "16", 0, 100000),
	K_LONG("media", "svg_max_text_bytes", media_svg_max_text_bytes, "16384", 0, 1L << 30),
	K_BOOL("fetch", "allow_private", fetch_allow_private, "no"),
	K_STR("fetch", "allow_hosts", fetch_allow_hosts, ""),
	K_LONG("fetch", "max_bytes", fetch_max_bytes, "16777216", 1024, 1L << 30),
	K_LONG("fetch", "timeout_ms", fetch_timeout_ms, "15000", 100, 600000),
	K_LONG("fetch", "max_redirects", fetch_max_redirects, "3", 0, 20),
	K_STR("kb", "styles", kb_styles, AV_PKGDATADIR "/styles.json"),
	K_STR("kb", "notes", kb_notes, AV_PKGDATADIR "/notes.json"),
	K_STR("kb", "words", kb_words, AV_PKGDATADIR "/words.txt"),
	K_STR("kb", "nodes", kb_nodes, AV_PKGDATADIR "/nodes.json"),
	K_STR("kb", "agents", kb_agents, AV_PKGDATADIR "/agents.json"),
	K_STR("kb", "templates", kb_templates, AV_PKGDATADIR "/templates.json"),
	K_LONG("provider.image", "poll_interval_ms", prov[PROV_IMAGE].poll_interval_ms, "2000", 10,
	       60000),
	K_LONG("provider.image", "poll_max", prov[PROV_IMAGE].poll_max, "60", 1, 10000),
	K_PROV("provider.chat", PROV_CHAT, "https://api.deepseek.com", "deepseek-chat",
	       "DEEPSEEK_API_KEY"),
	K_PROV("provider.image", PROV_IMAGE, "https://dashscope.aliyuncs.com", "qwen-image",
	       "DASHSCOPE_API_KEY"),
	K_PROV("provider.search", PROV_SEARCH,
	       "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus", "DASHSCOPE_API_KEY"),
	K_PROV("provider.embeddings", PROV_EMBEDDINGS,
	       "https://dashscope.aliyuncs.com/compatible-mode/v1", "text-embedding-v3",
	       "DASHSCOPE_API_KEY"),
	K_PROV("provider.vision", PROV_VISION,
	       "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-vl-plus", "DASHSCOPE_API_KEY"),
};
#define CONF_NKEYS (sizeof conf_keys / sizeof conf_keys[0])

static const char *const conf_role_names[PROV_NROLES] = { "chat", "image", "search", "embeddings",
							   "vision" };

const char *conf_role_name(enum conf_prov_role r)
{
	return conf_role_names[r];
}

#define K_NAMED(n, t, f, d, lo, hi, ch) \
	{ "provider.*", n, t, offsetof(struct conf_provider, f), d, lo, hi, ch }
/* The keys of a named provider section: a chat provider's. */
static const struct conf_key conf_named_keys[] = {
	K_NAMED("kind", CT_KIND, kind, "offline", PROV_CHAT, 0, NULL),
	K_NAMED("base_url", CT_STR, base_url, "", 0, 0, NULL),
	K_NAMED("model", CT_STR, model, "", 0, 0, NULL),
	K_NAMED("api_key_env", CT_STR, api_key_env, "", 0, 0, NULL),
	K_NAMED("api_key", CT_STR, api_key, "", 0, 0, NULL),
	K_NAMED("timeout_ms", CT_LONG, timeout_ms, "30000", 100, 600000, NULL),
	K_NAMED("connect_timeout_ms", CT_LONG, connect_timeout_ms, "5000", 100, 60000, NULL),
	K_NAMED("retries", CT_LONG, retries, "2", 0, 10, NULL),
	K_NAMED("max_response_bytes", CT_LONG, max_response_bytes, "33554432", 1024, 1L << 30, NULL),
};
#define CONF_NNAMED_KEYS (sizeof conf_named_keys / sizeof conf_named_keys[0])

const struct conf_provider *conf_provider_named(const struct conf *c, const char *name)
{
	for (int r = 0; name && r < PROV_NROLES; r++)
		if (strcmp(conf_role_names[r], name) == 0)
			return &c->prov[r];
	for (size_t i = 0; name && i < c->nnamed; i++)
		if (strcmp(c->named[i].name, name) == 0)
			return &c->named[i].p;
	return NULL;
}

/* The field of a key in the struct it belongs to (struct conf, or a
 * named section's struct conf_provider). */
static void *conf_field(void *base, const struct conf_key *k)
{
	return (char *)base + k->off;
}

static int conf_enum_ok(const char *choices, const char *v)
{
	size_t n = strlen(v);

	for (const char *p = choices; p && *p;) {
		const char *bar = strchr(p, '|');
		size_t len = bar ? (size_t)(bar - p) : strlen(p);

		if (len == n && strncmp(p, v, n) == 0)
			return 1;
		p = bar ? bar + 1 : NULL;
	}
	return 0;
}

static int conf_is_choice(const struct conf_key *k)
{
	return k->type == CT_ENUM || k->type == CT_KIND || k->type == CT_BACKEND;
}

/* Whether v is one of a key's choices: for a vendor or a backend, its row
 * is asked. */
static int conf_choice_ok(const struct conf_key *k, const char *v)
{
	const struct prov_vendor *pv;

	switch (k->type) {
	case CT_KIND:
		pv = prov_vendor_find(v);
		return pv && prov_vendor_can(pv, (enum conf_prov_role)k->min);
	case CT_BACKEND:
		return store_backend_find(v) != NULL;
	default:
		return conf_enum_ok(k->choices, v);
	}
}

/* A key's choices as an error message lists them: "a|b|c". */
static void conf_choices(const struct conf_key *k, char *out, size_t n)
{
	if (k->type == CT_KIND)
		prov_vendor_names((enum conf_prov_role)k->min, out, n);
	else if (k->type == CT_BACKEND)
		store_backend_names(out, n, "|", "|");
	else
		snprintf(out, n, "%s", k->choices);
}

/* A number with a fraction, within [min, max]. */
static int conf_set_real(void *c, const struct conf_key *k, const char *v, char *why,
			 size_t whylen)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(v, &end);
	while (end != v && isspace((unsigned char)*end))
		end++;
	if (errno || end == v || *end != '\0' || d != d) {
		snprintf(why, whylen, "'%s' is not a number", v);
		return -1;
	}
	if (d < (double)k->min || d > (double)k->max) {
		snprintf(why, whylen, "%s is out of range [%ld, %ld]", v, k->min, k->max);
		return -1;
	}
	*(double *)conf_field(c, k) = d;
	return 0;
}

/* Sets one key from its text; on a bad value, writes why to why[]. */
static int conf_set(void *c, const struct conf_key *k, const char *v, char *why, size_t whylen)
{
	if (k->type == CT_BOOL) {
		static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no", "false", "off", "0" };

		for (int i = 0; i < 4; i++) {
			if (strcasecmp(v, yes[i]) == 0 || strcasecmp(v, no[i]) == 0) {
				*(long *)conf_field(c, k) = strcasecmp(v, yes[i]) == 0;
				return 0;
			}
		}
		snprintf(why, whylen, "'%s' is not yes or no", v);
		return -1;
	}
	if (k->type == CT_LONG) {
		char *end;
		long n;

		errno = 0;
		n = strtol(v, &end, 10);
		while (end != v && isspace((unsigned char)*end))
			end++;
		if (errno || end == v || *end != '\0') {
			snprintf(why, whylen, "'%s' is not a whole number", v);
			return -1;
		}
		if (n < k->min || n > k->max) {
			snprintf(why, whylen, "%ld is out of range [%ld, %ld]", n, k->min, k->max);
			return -1;
		}
		*(long *)conf_field(c, k) = n;
		return 0;
	}
	if (k->type == CT_REAL)
		return conf_set_real(c, k, v, why, whylen);
	if (conf_is_choice(k) && !conf_choice_ok(k, v)) {
		char choices[128];

		conf_choices(k, choices, sizeof choices);
		snprintf(why, whylen, "'%s' is not one of %s", v, choices);
		return -1;
	}
	free(*(char **)conf_field(c, k));
	*(char **)conf_field(c, k) = xstrdup(v);
	return 0;
}

static const struct conf_key *conf_find(const char *section, const char *name)
{
	for (size_t i = 0; i < CONF_NKEYS; i++)
		if (strcmp(conf_keys[i].section, section) == 0 && strcmp(conf_keys[i].name, name) == 0)
			return &conf_keys[i];
	return NULL;
}

static int conf_section_known(const char *section)
{
	for (size_t i = 0; i < CONF_NKEYS; i++)
		if (strcmp(conf_keys[i].section, section) == 0)
			return 1;
	return 0;
}

/* The sections parts of the program declare (conf_section_add), and the
 * values of each one's defaults. */
static const struct conf_section *conf_sections[CONF_SECTIONS_MAX];
static void *conf_section_defaults[CONF_SECTIONS_MAX];
static size_t conf_nsections;

/* A declared section's values, made with its defaults. New block. */
static void *conf_section_new(const struct conf_section *s)
{
	void *v = xcalloc(1, s->size);
	char why[160];

	for (size_t i = 0; i < s->nkeys; i++)
		if (conf_set(v, &s->keys[i], s->keys[i].def, why, sizeof why) < 0)
			abort(); /* a bad default is a bug in the table */
	return v;
}

static void conf_section_free(const struct conf_section *s, void *v)
{
	for (size_t i = 0; v && i < s->nkeys; i++)
		if (s->keys[i].type == CT_STR || conf_is_choice(&s->keys[i]))
			free(*(char **)conf_field(v, &s->keys[i]));
	free(v);
}

static size_t conf_section_index(const char *name)
{
	for (size_t i = 0; i < conf_nsections; i++)
		if (strcmp(conf_sections[i]->name, name) == 0)
			return i;
	return (size_t)-1;
}

int conf_section_add(const struct conf_section *s)
{
	size_t i = conf_section_index(s->name);

	if (i != (size_t)-1)
		return conf_sections[i] == s ? 0 : -1;
	if (conf_nsections == CONF_SECTIONS_MAX || conf_section_known(s->name))
		return -1;
	conf_section_defaults[conf_nsections] = conf_section_new(s);
	conf_sections[conf_nsections++] = s;
	return 0;
}

const void *conf_section_values(const struct conf *c, const struct conf_section *s)
{
	size_t i = conf_section_index(s->name);

	/* Asked before it was declared (a test that runs a workflow's code
	 * without registering it): declared now, its defaults apply. */
	if (i == (size_t)-1 && (conf_section_add(s) < 0 || (i = conf_section_index(s->name)) ==
							  (size_t)-1))
		return NULL;
	return i < c->nsect ? c->sect[i] : conf_section_defaults[i];
}

/* The key name of a declared section, or NULL. */
static const struct conf_key *conf_section_key(const struct conf_section *s, const char *name)
{
	for (size_t i = 0; i < s->nkeys; i++)
		if (strcmp(s->keys[i].name, name) == 0)
			return &s->keys[i];
	return NULL;
}

void conf_init(struct conf *c)
{
	char why[160];

	memset(c, 0, sizeof *c);
	for (size_t i = 0; i < CONF_NKEYS; i++)
		if (conf_set(c, &conf_keys[i], conf_keys[i].def, why, sizeof why) < 0)
			abort(); /* a bad default is a bug in the table */
	for (size_t i = 0; i < conf_nsections; i++)
		c->sect[i] = conf_section_new(conf_sections[i]);
	c->nsect = conf_nsections;
}

void conf_free(struct conf *c)
{
	for (size_t i = 0; i < CONF_NKEYS; i++)
		if (conf_keys[i].type == CT_STR || conf_is_choice(&conf_keys[i]))
			free(*(char **)conf_field(c, &conf_keys[i]));
	for (size_t n = 0; n < c->nnamed; n++) {
		for (size_t i = 0; i < CONF_NNAMED_KEYS; i++)
			if (conf_named_keys[i].type == CT_STR || conf_is_choice(&conf_named_keys[i]))
				free(*(char **)conf_field(&c->named[n].p, &conf_named_keys[i]));
		free(c->named[n].name);
	}
	for (size_t i = 0; i < c->nsect; i++)
		conf_section_free(conf_sections[i], c->sect[i]);
	free(c->path);
	memset(c, 0, sizeof *c);
}

/* State of one parse: inih gives no line numbers to the handler, so the
 * reader counts them and the handler reads the count. */
struct conf_parse {
	struct conf *c;
	const char *name;
	struct buf *errs;
	int line;
	int nerr;
	const char *text; /* conf_load_string */
	FILE *fp;         /* conf_load */
};

static char *conf_reader(char *str, int num, void *stream)
{
	struct conf_parse *p = stream;
	char *r;

	if (p->fp) {
		r = fgets(str, num, p->fp);
	} else {
		size_t n = 0;

		if (*p->text == '\0')
			return NULL;
		while (p->text[n] && p->text[n] != '\n' && n + 2 < (size_t)num)
			n++;
		if (p->text[n] == '\n')
			n++;
		memcpy(str, p->text, n);
		str[n] = '\0';
		p->text += n;
		r = str;
	}
	if (r)
		p->line++;
	return r;
}

static void conf_error(struct conf_parse *p, const char *fmt, const char *a, const char *b)
{
	buf_printf(p->errs, "%s:%d: ", p->name, p->line);
	buf_printf(p->errs, fmt, a, b);
	buf_adds(p->errs, "\n");
	p->nerr++;
}

/* A name a named provider section may have. */
static int conf_name_ok(const char *s)
{
	size_t n = strlen(s);

	return n >= 1 && n <= CONF_NAME_MAX && strspn(s, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* The named section NAME, made with its defaults the first time; NULL
 * when the table is full. */
static struct conf_named *conf_named_get(struct conf *c, const char *name)
{
	char why[160];
	struct conf_named *nd;

	for (size_t i = 0; i < c->nnamed; i++)
		if (strcmp(c->named[i].name, name) == 0)
			return &c->named[i];
	if (c->nnamed == CONF_NAMED_MAX)
		return NULL;
	nd = &c->named[c->nnamed++];
	nd->name = xstrdup(name);
	for (size_t i = 0; i < CONF_NNAMED_KEYS; i++)
		if (conf_set(&nd->p, &conf_named_keys[i], conf_named_keys[i].def, why, sizeof why) < 0)
			abort(); /* a bad default is a bug in the table */
	return nd;
}

/* A key of [provider.NAME] for a NAME that is no role. */
static int conf_named_key(struct conf_parse *p, const char *section, const char *name,
			  const char *value)
{
	const char *nm = section + strlen("provider.");
	struct conf_named *nd;
	char why[200];

	if (!conf_name_ok(nm)) {
		conf_error(p, "[%s]: a provider's name is 1 to 32 letters, digits, '_' or '-'%s",
			   section, "");
		return 1;
	}
	if ((nd = conf_named_get(p->c, nm)) == NULL) {
		conf_error(p, "[%s]: at most 8 named provider sections%s", section, "");
		return 1;
	}
	for (size_t i = 0; i < CONF_NNAMED_KEYS; i++)
		if (strcmp(conf_named_keys[i].name, name) == 0) {
			if (conf_set(&nd->p, &conf_named_keys[i], value, why, sizeof why) < 0)
				conf_error(p, "%s: %s", name, why);
			return 1;
		}
	conf_error(p, "unknown key '%s' in [%s]", name, section);
	return 1;
}

/* A key of a declared section. */
static int conf_declared_key(struct conf_parse *p, const char *section, const char *name,
			     const char *value)
{
	size_t i = conf_section_index(section);
	const struct conf_key *k = conf_section_key(conf_sections[i], name);
	char why[200];

	if (k == NULL)
		conf_error(p, "unknown key '%s' in [%s]", name, section);
	else if (conf_set(p->c->sect[i], k, value, why, sizeof why) < 0)
		conf_error(p, "%s: %s", name, why);
	return 1;
}

static int conf_handler(void *user, const char *section, const char *name, const char *value)
{
	struct conf_parse *p = user;
	const struct conf_key *k;
	char why[200];

	if (name == NULL)
		return 1; /* a section header alone */
	if (strncmp(section, "provider.", 9) == 0 && !conf_section_known(section))
		return conf_named_key(p, section, name, value);
	k = conf_find(section, name);
	if (k == NULL && conf_section_index(section) < p->c->nsect)
		return conf_declared_key(p, section, name, value);
	if (k == NULL) {
		if (conf_section_known(section))
			conf_error(p, "unknown key '%s' in [%s]", name, section);
		else
			conf_error(p, "key '%s' in unknown section [%s]", name, section);
		return 1;
	}
	if (conf_set(p->c, k, value, why, sizeof why) < 0)
		conf_error(p, "%s: %s", name, why);
	return 1;
}

static int conf_parse_run(struct conf_parse *p)
{
	int rc = ini_parse_stream(conf_reader, p, conf_handler, p);

	if (rc > 0 && p->nerr == 0) {
		/* A syntax error inih reports by itself (no '=' or ']'). */
		buf_printf(p->errs, "%s:%d: syntax error\n", p->name, rc);
		p->nerr++;
	}
	return p->nerr ? -1 : 0;
}

static void conf_env_name(const char *section, const struct conf_key *k, char *out, size_t n)
{
	size_t j = 0;

	j += (size_t)snprintf(out, n, "AIVISTA_%s_%s", section, k->name);
	for (size_t i = 0; i < j && i < n; i++)
		out[i] = (out[i] == '.') ? '_' : (char)toupper((unsigned char)out[i]);
}

/* AIVISTA_<SECTION>_<KEY> of one key, into the struct at base. -1 when
 * it is set and bad. */
static int conf_env_key(void *base, const char *section, const struct conf_key *k,
			struct buf *errs)
{
	char name[96], why[200];
	const char *v;

	conf_env_name(section, k, name, sizeof name);
	v = getenv(name);
	if (v == NULL || conf_set(base, k, v, why, sizeof why) == 0)
		return 0;
	buf_printf(errs, "environment %s: %s\n", name, why);
	return -1;
}

static int conf_apply_env(struct conf *c, struct buf *errs)
{
	int nerr = 0;

	for (size_t i = 0; i < CONF_NKEYS; i++)
		nerr += conf_env_key(c, conf_keys[i].section, &conf_keys[i], errs) < 0;
	for (size_t i = 0; i < c->nsect; i++)
		for (size_t k = 0; k < conf_sections[i]->nkeys; k++)
			nerr += conf_env_key(c->sect[i], conf_sections[i]->name,
					     &conf_sections[i]->keys[k], errs) < 0;
	return nerr ? -1 : 0;
}

/* A provider's key from the environment, masked in the log; a real
 * provider without one is an error. */
static int conf_finish_prov(struct conf_provider *pv, const char *name, struct buf *errs)
{
	if (pv->api_key[0] == '\0' && pv->api_key_env[0] != '\0') {
		const char *k = getenv(pv->api_key_env);

		if (k) {
			free(pv->api_key);
			pv->api_key = xstrdup(k);
		}
	}
	log_add_secret(pv->api_key);
	if ((prov_vendor_for(pv->kind)->flags & PROV_NEEDS_KEY) && pv->api_key[0] == '\0') {
		buf_printf(errs, "[provider.%s] kind = %s needs an API key: set api_key or the "
			   "variable named by api_key_env (%s)\n", name, pv->kind, pv->api_key_env);
		return -1;
	}
	return 0;
}

/* [store] host_id by default: /etc/machine-id, else the host name, else
 * "localhost". New string. */
static char *conf_host_default(void)
{
	char id[256] = "";
	FILE *fp = fopen("/etc/machine-id", "r");

	if (fp) {
		if (!fgets(id, sizeof id, fp))
			id[0] = '\0';
		fclose(fp);
		id[strcspn(id, " \t\r\n")] = '\0';
	}
	if (id[0] == '\0' && gethostname(id, sizeof id - 1) < 0)
		id[0] = '\0';
	id[sizeof id - 1] = '\0';
	return xstrdup(id[0] ? id : "localhost");
}

/* Derived values: the key file beside the store, provider keys from the
 * environment, and the keys registered with the log so they are masked. */
static int conf_finish(struct conf *c, struct buf *errs)
{
	if (c->store_host_id[0] == '\0') {
		free(c->store_host_id);
		c->store_host_id = conf_host_default();
	}
	if (strlen(c->store_host_id) > 64) {
		buf_printf(errs, "[store] host_id: longer than 64 bytes\n");
		return -1;
	}
	if (c->key_file[0] == '\0') {
		free(c->key_file);
		c->key_file = xasprintf("%s/thread.key", c->store_dir);
	}
	for (int r = 0; r < PROV_NROLES; r++)
		if (conf_finish_prov(&c->prov[r], conf_role_names[r], errs) < 0)
			return -1;
	for (size_t i = 0; i < c->nnamed; i++)
		if (conf_finish_prov(&c->named[i].p, c->named[i].name, errs) < 0)
			return -1;
	return 0;
}

int conf_load_string(struct conf *c, const char *text, const char *name, struct buf *errs)
{
	struct conf_parse p = { .c = c, .name = name, .errs = errs, .text = text };
	int rc = conf_parse_run(&p);

	if (conf_apply_env(c, errs) < 0)
		rc = -1;
	if (conf_finish(c, errs) < 0)
		rc = -1;
	return rc;
}

int conf_load(struct conf *c, const char *path, struct buf *errs)
{
	const char *def = AV_SYSCONFDIR "/aivista.conf";
	struct conf_parse p = { .c = c, .errs = errs };
	int rc = 0;

	if (path == NULL)
		path = getenv("AIVISTA_CONF");
	if (path == NULL && access(def, F_OK) == 0)
		path = def;
	if (path) {
		p.name = path;
		p.fp = fopen(path, "r");
		if (p.fp == NULL) {
			buf_printf(errs, "%s: cannot open: %s\n", path, strerror(errno));
			return -1;
		}
		rc = conf_parse_run(&p);
		fclose(p.fp);
		free(c->path);
		c->path = xstrdup(path);
	}
	if (conf_apply_env(c, errs) < 0)
		rc = -1;
	if (conf_finish(c, errs) < 0)
		rc = -1;
	return rc;
}
