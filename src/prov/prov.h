/* The model providers: one interface for every model call a workflow
 * makes (chat, images, web search, embeddings), answered by the vendor
 * configured for that role: the embedded offline provider (offline.c),
 * OpenAI-compatible services (openai.c: DeepSeek, Qwen's compatible mode)
 * or DashScope (dashscope.c). Each vendor is one file exporting one
 * struct prov_ops, and one row in prov_vendors[] (vendors.h). Calls never crash and never exit: every failure comes
 * back as a typed status with a generic message for clients; what the
 * provider said, or where it could not be reached, goes to the log, with
 * the key scrubbed from it. */
#ifndef AV_PROV_H
#define AV_PROV_H
#include <stddef.h>
#include <jansson.h>
#include "conf/conf.h"

enum prov_status {
	PROV_OK = 0,
	PROV_TIMEOUT,       /* no (complete) answer within the time allowed */
	PROV_RATE_LIMITED,  /* 429, still after the retries */
	PROV_REFUSED,       /* 4xx other than 429: bad key, bad request, content refused */
	PROV_UNAVAILABLE,   /* cannot connect, 5xx after the retries, or the role is not
			     * offered (offline web search) */
	PROV_BAD_ANSWER,    /* answered, but not what was asked: JSON that does not
			     * parse, no image, a failed task */
	PROV_TOO_LARGE,     /* the answer passed the size cap */
	PROV_STOPPED,       /* the caller's stop hook ended the call (the run was cancelled) */
	PROV_NSTATUS
};

/* "ok", "timeout", "rate_limited", "refused", "unavailable", "bad_answer",
 * "too_large", "stopped": the codes error events carry. */
const char *prov_status_name(enum prov_status s);
/* The generic message clients get for a status. */
const char *prov_status_message(enum prov_status s);

/* What a call gives back. Everything in it is owned by it. */
struct prov_answer {
	enum prov_status status;
	char error[256];        /* when status != PROV_OK: a generic message for clients, by
				 * status only (events, state); never the provider's words */
	char detail[256];       /* what happened, for the log only: may quote the provider or
				 * name its address; keys scrubbed */
	int http_status;        /* last HTTP status seen, 0 for none */
	char *text;             /* chat: the whole reply; search: the facts. Kept on
				 * PROV_BAD_ANSWER too (the raw reply, for fallbacks). */
	json_t *json;           /* chat with json_mode: the object parsed from text */
	json_t *usage;          /* chat: the usage object the provider reported, or NULL */
	unsigned char *data;    /* image: the bytes (downloaded, never a link) */
	size_t len;
	char mime[64];          /* image: its media type */
	char *revised_prompt;   /* image: the prompt the provider used, when it says */
	int ref_used;           /* image: the call's reference image was sent or used */
	char ref_note[160];     /* image: why it was not, when it was given */
	json_t *vectors;        /* embeddings: [[float, ...], ...] in input order */
	int by_rules;           /* chat: answered by rules, not by a model */
	json_t *tool_calls;     /* chat with tools: the calls the model asked for,
				 * [{"id", "name", "arguments": object}] (text is then
				 * NULL or prose beside them), or NULL */
};

void prov_answer_init(struct prov_answer *a);
void prov_answer_free(struct prov_answer *a);
/* Sets status, the generic error for it and the detail (the message);
 * returns -1 (for "return prov_fail(...)"). */
int prov_fail(struct prov_answer *a, enum prov_status s, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Called while a call is in flight. Any of them may be NULL. */
struct prov_hooks {
	void (*delta)(void *ctx, const char *text);   /* a piece of a streamed reply */
	/* image tasks: status ("submitted", "queued", "generating", "downloading",
	 * "done", "failed") and progress in [0, 1] */
	void (*progress)(void *ctx, int task, const char *status, double progress);
	void (*tick)(void *ctx);                      /* at least every 200 ms: keep-alives */
	void *ctx;
	/* asked with each tick: nonzero stops the calls in flight (PROV_STOPPED);
	 * what a stream said so far has gone to delta. Last, so that
	 * initialisers without it stay valid. */
	int (*stop)(void *ctx);
};

/* One chat completion. A real model gets messages; the offline provider
 * answers by task, from facts, with the same JSON shapes. */
/* The rules that stand in for a model on one task: facts borrowed (may be
 * NULL); text is facts.text or, without it, the last user message ("" when
 * neither). New reference, or NULL with a reason in err. A workflow keeps
 * them beside the prompt they stand in for. */
typedef json_t *(*prov_rules_fn)(const json_t *facts, const char *text, char *err,
				 size_t errlen);

struct chat_call {
	const char *task;          /* the task's name: "chat", "summarize" (generic), or a
				    * workflow's ("route", "intent", "critique", "brief", ...) */
	prov_rules_fn rules;       /* the task's rules: the offline provider answers with them
				    * (a call that is not json_mode gets their "reply" string
				    * as its text, when they give one); NULL for the generic
				    * tasks */
	const json_t *messages;    /* [{"role", "content"}], borrowed */
	const json_t *facts;       /* the task's structured input, borrowed (may be NULL) */
	double temperature;
	int json_mode;             /* ask for a JSON object (response_format) and parse it */
	int stream;                /* stream the reply: hooks->delta gets the pieces */
	long timeout_ms;           /* 0: the role's timeout_ms */
	/* Functions the model may call (OpenAI function calling), borrowed:
	 * [{"type": "function", "function": {name, description, parameters}}]
	 * or NULL. With tools a reply is not streamed. The offline provider
	 * reads its rules' {"toolCalls": [{name, arguments}]} as calls and
	 * {"answer": text} as the reply. The messages may carry the turns of
	 * the loop as the API has them: an assistant message with
	 * "tool_calls" (arguments as JSON strings) and "tool" messages with
	 * "tool_call_id". */
	const json_t *tools;
	/* The provider that answers this call instead of the role's (an
	 * agent's modelOverride: a [provider.NAME] section, its model
	 * possibly replaced), borrowed; NULL: the role's. Calls of one batch
	 * may name different providers; each kind gets its calls at once. */
	const struct conf_provider *provider;
};

/* One image. With base and mask it is an inpainting: the new content goes
 * inside the mask (white = repaint), over the base image. With ref (and
 * no mask) it is a picture guided by a reference image: sent to services
 * that take one (OpenAI-compatible images/edits, DashScope's image input),
 * its colours used offline. */
struct image_call {
	const char *prompt;
	int width, height;         /* 0: 1024 x 1024 */
	const unsigned char *base;
	size_t base_len;
	const char *base_mime;
	const unsigned char *mask;
	size_t mask_len;
	const char *mask_mime;
	const unsigned char *ref;
	size_t ref_len;
	const char *ref_mime;
	long timeout_ms;
	unsigned seed;             /* 0: the prompt's picture; another: another composition */
	/* The request's own words when the prompt adds more (retrieved
	 * styles, adjustments), for a provider that draws what they name and
	 * composes from them (offline); NULL: the prompt. */
	const char *subject;
};

struct prov;

/* A vendor's calls: those of the roles its row in prov_vendors[] says it
 * can fill (NULL for the others; asked for one, PROV_UNAVAILABLE). */
struct prov_ops {
	/* Several calls at once: out[i] answers calls[i]. Returns the number of
	 * calls that succeeded. */
	int (*chat)(struct prov *p, const struct conf_provider *cf, const struct chat_call *calls,
		    size_t n, const struct prov_hooks *h, struct prov_answer *out);
	int (*image)(struct prov *p, const struct conf_provider *cf, const struct image_call *calls,
		     size_t n, const struct prov_hooks *h, struct prov_answer *out);
	int (*search)(struct prov *p, const struct conf_provider *cf, const char *query,
		      long timeout_ms, const struct prov_hooks *h, struct prov_answer *out);
	int (*embed)(struct prov *p, const struct conf_provider *cf, const json_t *texts,
		     const struct prov_hooks *h, struct prov_answer *out);
};

extern const struct prov_ops prov_offline_ops;
extern const struct prov_ops prov_openai_ops;
extern const struct prov_ops prov_dashscope_ops;

/* The provider set of a worker, from its configuration (borrowed; it must
 * outlive the set). */
struct prov *prov_new(const struct conf *c);
void prov_free(struct prov *p);
const struct conf *prov_conf(const struct prov *p);
/* The kind configured for a role ("offline", "openai", "dashscope"). */
const char *prov_kind(const struct prov *p, enum conf_prov_role r);

/* The calls. Each returns 0 when every answer is PROV_OK, else -1; the
 * answers say what happened to each. out must be prov_answer_init'ed. */
int prov_chat(struct prov *p, const struct chat_call *c, const struct prov_hooks *h,
	      struct prov_answer *out);
int prov_chat_many(struct prov *p, const struct chat_call *calls, size_t n,
		   const struct prov_hooks *h, struct prov_answer *out);
/* A chat call about images, answered by [provider.vision]: messages whose
 * user content is OpenAI-compatible parts ({type: text} and {type:
 * image_url, image_url: {url}}, a data URL); offline, by the call's rules
 * from its facts. */
int prov_vision(struct prov *p, const struct chat_call *c, const struct prov_hooks *h,
		struct prov_answer *out);
int prov_image_many(struct prov *p, const struct image_call *calls, size_t n,
		    const struct prov_hooks *h, struct prov_answer *out);
int prov_search(struct prov *p, const char *query, long timeout_ms, const struct prov_hooks *h,
		struct prov_answer *out);
int prov_embed(struct prov *p, const json_t *texts, const struct prov_hooks *h,
	       struct prov_answer *out);

/* The first JSON object in a model's reply: the whole text, or inside a
 * ```json fence, or the outermost {...} in prose. New reference or NULL. */
json_t *prov_json_from_text(const char *text);

#endif
