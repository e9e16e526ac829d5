/* Workflows as graphs: a workflow is a table of nodes and a start node; a
 * node gets the state, may emit events, and returns where to go. One node
 * run is one step; the engine (engine.c) checkpoints after every step.
 * Each workflow lives in its own folder under src/wf/ and exports one
 * struct workflow, its descriptor: what the engine and the shared code
 * know of it. src/wf/builtin.c lists them. */
#ifndef AV_GRAPH_H
#define AV_GRAPH_H
#include <stddef.h>
#include <jansson.h>

struct run;

/* What a node returns (the shape of lighttpd's handler_t). */
enum node_rc {
	NODE_NEXT,       /* go to step_ctx.next */
	NODE_INTERRUPT,  /* ask the human: step_ctx.interrupt; the thread pauses */
	NODE_END,        /* the workflow is complete */
	NODE_ERROR,      /* failed: step_ctx.err_code / err_msg */
	NODE_ABORT,      /* the workflow gave up short of its goal (its own
			  * decision, not a failure): err_code / err_msg as for
			  * NODE_ERROR; the thread's status is aborted */
};

struct step_ctx {
	struct run *run;
	const char *node;        /* the node being run */
	json_t *state;           /* the thread's state; the node changes it in place */
	const json_t *resume;    /* after a pause: {interruptId, kind, action, payload}; else NULL */
	const json_t *input;     /* the user's turn that started this request, or NULL */
	long long deadline_ms;   /* monotonic time by which the node should be done */
	/* Results, set by the node: */
	const char *next;        /* NODE_NEXT: a node name (static storage) */
	json_t *interrupt;       /* NODE_INTERRUPT: new reference, see step_interrupt_new */
	char err_code[48];
	char err_msg[256];
};

struct wf_node {
	const char *name;
	enum node_rc (*run)(struct step_ctx *c);
	long timeout_ms;         /* 0: [engine] node_timeout_ms */
};

/* Which node may follow which. from WF_START: the start of a run or of a
 * turn; to WF_END: NODE_END or NODE_ABORT; an interrupt's resume node is
 * an edge from the node that paused. */
#define WF_START "__start__"
#define WF_END "__end__"
struct wf_edge {
	const char *from;
	const char *to;
};

struct conf_section;
struct msg_def;

struct workflow {
	const char *name;
	const struct wf_node *nodes;
	size_t nnodes;
	const char *start;
	/* Every step the workflow may take (the engine refuses any other:
	 * error bad_route). */
	const struct wf_edge *edges;
	size_t nedges;
	/* The input fields that carry the user's text, the first that is a
	 * string wins (NULL-terminated): the thread's language is read from
	 * it when the input names none. NULL: none. */
	const char *const *text_fields;
	/* Its [workflow.NAME] keys (conf/conf.h), read with the rest of the
	 * configuration; step_wf_conf() gives the values. NULL: none. */
	const struct conf_section *conf;
	/* Its words, in both languages (text/msg.h), added to the catalogue
	 * when it is registered. */
	const struct msg_def *msgs;
	size_t nmsgs;
	/* JSON Schemas (draft 2020-12) of its input and of its state, as
	 * JSON text, or NULL; served with the workflow (GET /api/workflows). */
	const char *input_schema;
	const char *state_schema;
	/* The initial state for a new thread from the request's input (borrowed).
	 * New reference, or NULL with err filled (the client's mistake). Large
	 * input (a mask, a base image) goes into assets with step_asset_put(c),
	 * so the state carries only its id; c->state is NULL here. The answer
	 * is 400 bad_request, or the problem whose code the hook put in
	 * c->err_code (e.g. "image_too_large": 413). */
	json_t *(*init)(struct step_ctx *c, const json_t *input, char *err, size_t errlen);
	/* A new user turn on a finished thread: updates state (c->state is the
	 * same), returns the node to run (static), or NULL with err filled
	 * (and c->err_code, as for init). NULL hook: one turn only. */
	const char *(*turn)(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			    size_t errlen);
};

/* Durable event (committed with the step, then streamed with its id);
 * the event is stolen. */
void step_emit(struct step_ctx *c, json_t *ev);
/* Ephemeral event (token deltas, progress ticks): streamed now, never
 * stored, never replayed. Stolen. */
void step_emit_live(struct step_ctx *c, json_t *ev);
/* A keep-alive when due. -1 once the client is gone (the work may go on:
 * it is checkpointed and can be streamed later). */
int step_keepalive(struct step_ctx *c);
/* A new event {"type", "timestamp", "node"}: new reference. */
json_t *step_event(struct step_ctx *c, const char *type);
/* A durable thought_log of the node: the catalogue's message id
 * (text/msg.h) in the thread's language, formatted with the arguments. */
void step_thought(struct step_ctx *c, const char *id, ...);
/* An interrupt: kind ("content", "image_plans", ...), the question, the
 * node that receives the answer, and the fields a "modify" may change with
 * their current values (stolen; NULL for none). Its options (approve,
 * reject, modify) carry ids; the engine labels options without a label in
 * the thread's language when it pauses. New reference. */
json_t *step_interrupt_new(const char *kind, const char *question, const char *resume_node,
			   json_t *editable);
/* The thread's language, "zh" or "en": what the node writes for people
 * is in it (text/msg.h). */
const char *step_lang(const struct step_ctx *c);
/* Stores a blob as an asset of this thread; id gets its id. 0 or -1. A
 * failure of the store itself is recorded as step_store_failed() does; a
 * thread past [store] max_asset_bytes is not (that one is the input's). */
int step_asset_put(struct step_ctx *c, const char *ctype, const void *data, size_t len,
		   char *id, size_t idlen);
/* 1 when id is the id of an asset of this thread (by the thread part
 * every asset id starts with; whether it exists is not asked), else 0. */
int step_asset_ours(struct step_ctx *c, const char *id);
/* Records that the store failed under the node (rc: the store's error):
 * never the client's mistake, so the request answers 503
 * store_unavailable, from init and turn hooks too, and the step is not
 * committed: the thread resumes from its last checkpoint. */
void step_store_failed(struct step_ctx *c, int rc);
/* A PNG that came with the input, checked from its header against a side
 * limit and what is left of a byte budget (imgin_png_check). 0, or -1
 * with err ("what: why") and, when it is too large, c->err_code
 * "image_too_large". */
struct imgin;
int step_png_check(struct step_ctx *c, struct imgin *im, long max_side, long long *budget,
		   const char *what, char *err, size_t n);
enum node_rc step_fail(struct step_ctx *c, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* POST /api/threads/{id}/cancel asked this run to stop (the store is read
 * at most every quarter second). A node that sees it stops at a safe
 * point, keeping what it has (a streamed reply's text), and returns
 * step_cancelled_abort(c). Model calls made with step_hooks stop by
 * themselves (PROV_STOPPED). */
int step_cancelled(struct step_ctx *c);
/* NODE_ABORT with the code "cancelled": the thread's status is aborted. */
enum node_rc step_cancelled_abort(struct step_ctx *c);

/* Model calls from a node (step_prov.c). */
struct prov;
struct prov_answer;
struct prov_hooks;
struct chat_call;
struct image_call;
struct store;
struct conf;
struct app;
struct app *step_app(struct step_ctx *c);
struct prov *step_prov(struct step_ctx *c);
const struct conf *step_conf(struct step_ctx *c);
/* The values of the workflow's own [workflow.NAME] keys (its struct, of
 * its conf section), or NULL when it declares none. */
const void *step_wf_conf(struct step_ctx *c);
struct store *step_store(struct step_ctx *c);
/* Milliseconds left before the node's deadline (at least 1). */
long step_time_left(struct step_ctx *c);
/* Hooks that turn streamed pieces and image progress into live events. */
void step_hooks(struct step_ctx *c, struct prov_hooks *h);
/* A chat call limited by the node's deadline, through the model cache
 * (real providers only, [cache] model_ttl). 0 or -1, as prov_chat. */
int step_chat(struct step_ctx *c, const struct chat_call *call, struct prov_answer *out);
/* Several chat calls at once (their requests overlap on the curl multi
 * engine), each limited by the node's deadline; no streaming, no cache.
 * out[i] answers calls[i]; 0 when every answer is PROV_OK, else -1. */
int step_chat_many(struct step_ctx *c, const struct chat_call *calls, size_t n,
		   struct prov_answer *out);
/* Several images at once, with image_progress events. */
int step_images(struct step_ctx *c, const struct image_call *calls, size_t n,
		struct prov_answer *out);

/* The registry of workflows (registry.c). */
void wf_register(const struct workflow *wf);
const struct workflow *wf_find(const char *name);
const struct wf_node *wf_node(const struct workflow *wf, const char *name);
/* 1 when the workflow declares the step from -> to (WF_START, WF_END
 * included), or declares no edges at all. */
int wf_edge_ok(const struct workflow *wf, const char *from, const char *to);
/* Names, for error messages and /api/health: new reference. */
json_t *wf_names(void);
/* The descriptor as JSON (GET /api/workflows): name, start, nodes, edges
 * as [from, to] pairs, textFields, turns (whether a finished thread takes
 * another turn), configSection, inputSchema, stateSchema. New reference. */
json_t *wf_describe(const struct workflow *wf);

#endif
