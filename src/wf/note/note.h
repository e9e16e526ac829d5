/* The creative note workflow (seed 001): a supervisor and eight agents
 * write a social-media note (title, body, tags, images) with two human
 * pauses. Shared between its files:
 *   note.c           the input, the state, events, the creative record, the node table
 *   note_route.c     the supervisor: intake, clarity, routing, the quality loop
 *   note_llm.c       model calls with the offline rules as fallback
 *   note_research.c  brief_compiler_agent, research_evidence_agent (tools)
 *   note_corpus.c    the local corpus of notes and the tools' aggregates
 *   note_ref.c       reference_intelligence_agent
 *   note_img.c       what image bytes tell without a vision model
 *   note_write.c     writer_agent, layout_planner_agent
 *   note_images.c    image_planner_agent, image_agent
 *   note_review.c    review_agent
 *   note_tool.c      tool_call / tool_result pairs
 *   note_tools.c     the supervisor's tools (managePrompt, recommendTemplates,
 *                    askUser)
 * The supervisor decides at the end of every agent's step (so a pass costs
 * one step per agent, and the engine's per-node visit limit is not spent
 * on it) and runs as a node of its own at the start, after a clarification
 * and when work goes back (quality loop, fallback after a severe error). */
#ifndef AV_WF_NOTE_H
#define AV_WF_NOTE_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"
#include "text/msg.h"

extern const struct workflow wf_note;
/* Its words (note_msg.c). The descriptor needs their number as a
 * constant: NOTE_NMSGS, checked against the rows where they are written. */
#define NOTE_NMSGS 225
extern const struct msg_def note_msgs[];
extern const size_t note_nmsgs;

/* Limits. */
#define NOTE_MAX_ITERATIONS 3        /* default of input.maxIterations (quality loops) */
#define NOTE_MAX_ITERATIONS_CAP 5
#define NOTE_MAX_REGENERATIONS 3     /* rejects per pause kind */
#define NOTE_MAX_REFERENCES 4
#define NOTE_MAX_PLANS 6
#define NOTE_PASS_OVERALL 0.7        /* the review's gate */
#define NOTE_PASS_DIM 0.6
#define NOTE_TOPIC_MAX 2000          /* bytes */
#define NOTE_CLARITY_ASK 0.4         /* the supervisor asks below this */
#define NOTE_CLARITY_AGENT 0.6       /* an agent asks about its key below this */

/* ---- the stages (note_route.c) ---- */

struct note_stage {
	const char *agent;   /* node name */
	const char *flag;    /* its completion flag in the state */
	const char *phase;   /* workflow_progress.phase */
	double progress;     /* workflow_progress.progress when it starts */
	const char *label;
};
#define NOTE_NSTAGES 8
extern const struct note_stage note_stages[NOTE_NSTAGES];

/* The stage's index in the chain; NOTE_NSTAGES for "END"; -1 unknown. */
int note_stage_index(const char *agent);
/* The deterministic route: the first stage whose flag is not true, or
 * "END". Static storage. */
const char *note_route_next(const json_t *state);
/* Whether the router's proposal may be taken instead of the
 * deterministic target (seed 001 §4): only going back or rerunning a
 * stage, only review_agent when the target is review_agent, never past
 * maxIterations or after a severe error. Returns the stage to run (static
 * storage); why says why a proposal was refused ("" when taken). */
const char *note_route_check(const json_t *state, const char *target, const char *proposal,
			     char *why, size_t whylen);
/* Clears the completion flags of agent and of every stage after it. */
void note_route_reset_from(json_t *state, const char *agent);
/* note_dims.c: the review's dimensions, each with the stage that owns it
 * (where the quality loop sends a draft that fails it). */
struct note_dim {
	const char *dim;
	const char *agent;
};
#define NOTE_NDIMS 6
extern const struct note_dim note_dims[NOTE_NDIMS];
/* The stage that owns a review dimension, or NULL. Static. */
const char *note_dim_owner(const char *dim);
/* The failing dimension to fix first (the lowest under NOTE_PASS_DIM; with
 * none, the lowest when the overall is under NOTE_PASS_OVERALL), or NULL
 * when the scores pass. Borrowed from scores' keys. */
const char *note_review_weakest(const json_t *scores, double overall);
/* lastError is severe (a provider failure): the fallback path applies. */
int note_severe(const json_t *state);

/* The supervisor's decision at the end of an agent's step: the next stage
 * (deterministic, or the router's proposal when allowed), with
 * supervisor_decision and workflow_progress events. NODE_END when
 * everything is done. */
enum node_rc note_supervise(struct step_ctx *c, const char *reason);
enum node_rc note_supervisor(struct step_ctx *c);
/* An agent's clarification (seed 001 §5.1): asks about key when the
 * request's clarity is under NOTE_CLARITY_AGENT and the key was never
 * asked. 1 when it paused (c->interrupt set), else 0. */
int note_clarify(struct step_ctx *c, const char *key);
/* Applies the answer of a clarification pause in c->resume. */
void note_clarify_answer(struct step_ctx *c);

/* ---- note.c: state, events, records ---- */

/* An event of this workflow with "agent": new reference. */
json_t *note_event(struct step_ctx *c, const char *type, const char *agent);
/* A durable "message" of the node's agent. */
void note_message(struct step_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A live "progress" tick of the node's agent. */
void note_progress(struct step_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same two with the catalogue's message id (text/msg.h) in the
 * thread's language, formatted with the arguments. */
void note_say(struct step_ctx *c, const char *id, ...);
void note_tick(struct step_ctx *c, const char *id, ...);
/* At most max bytes of s, cut at a character boundary. The caller frees it. */
char *note_cut(const char *s, size_t max);
/* Small state accessors. */
const char *note_str(const json_t *state, const char *key);
json_int_t note_int(const json_t *state, const char *key);
void note_set_flag(json_t *state, const char *flag, int on);
/* Appends a message to state.messages (at most 50 kept). */
void note_push_message(json_t *state, const char *role, const char *content);
/* What the person said after the request (a reject's feedback, an
 * answer), oldest first: the user's messages but the first. New reference. */
json_t *note_user_replies(const json_t *state);
/* The paragraphs of a body: blank-line separated, each {id, index, text,
 * heading} (heading: a short first line above more text). New reference. */
json_t *note_paragraphs(const char *body);
/* The length of the paragraph that starts at p: up to a blank line ("\n\n",
 * or with "\r" or spaces between) or the end of the string. *next is where
 * the next paragraph starts (the blank line's last "\n"), NULL after the
 * last one. */
size_t note_paragraph_len(const char *p, const char **next);
/* Copies the current content and images into state.creative. */
void note_creative_sync(json_t *state);
/* A new creative record: a fresh creativeId, status draft, empty. New
 * reference. */
json_t *note_creative_new(void);
/* Sets the creative's status ("draft", "complete", "aborted") and, for
 * aborted, why. */
void note_creative_status(json_t *state, const char *status, const char *reason);
/* state.result: the fields workflow_complete carries (seed 001 §6.1). */
void note_result(json_t *state);
/* The review's suggestions when the quality loop sent the work to agent,
 * joined, or NULL. The caller frees it. */
char *note_review_hint(const json_t *state, const char *agent);
/* The user's feedback of a decision (payload.feedback), or NULL. Borrowed. */
const char *note_feedback(const struct step_ctx *c);
/* The decision's action when c->resume is an answer of kind, else NULL. */
const char *note_decision(const struct step_ctx *c, const char *kind);
/* Stops the run for good: the creative is aborted with reason, lastError
 * is set, and the engine reports code (an error event) and marks the
 * thread aborted (NODE_ABORT). */
enum node_rc note_abort(struct step_ctx *c, const char *code, const char *reason);

/* ---- note_tool.c: tool_call / tool_result pairs (seed 001 §6.1) ---- */

struct note_tool {
	struct step_ctx *c;
	int seq;              /* calls made through it */
	char id[96];          /* the last call's toolCallId: tool_<ms>_<n>, n counting the
			       * thread's calls (state.toolCalls) */
};

/* tool_call of agent (NULL: the node's); input is stolen. The id stays in
 * t->id for the result. */
void note_tool_call(struct note_tool *t, const char *agent, const char *tool, json_t *input);
/* tool_result of the last call; output is stolen. */
void note_tool_result(struct note_tool *t, const char *agent, const char *tool, json_t *output);
/* tool_result of a call made in an earlier step (its id kept in the
 * state); output is stolen. */
void note_tool_result_id(struct step_ctx *c, const char *agent, const char *tool, const char *id,
			 json_t *output);

/* ---- note_tools.c: the supervisor's tools (seed 001 §8) ---- */

/* managePrompt set: records what changed (changes, stolen) in
 * state.workingPrompt and emits the pair; why says what changed it. */
void note_prompt_set(struct step_ctx *c, const char *why, json_t *changes);
/* managePrompt get: the brief the writer will use, as the pair's result. */
void note_prompt_get(struct step_ctx *c);
/* recommendTemplates: the note templates for the topic, ranked, and the
 * one chosen (state.noteTemplate; state.templatesTopic, the topic they
 * were ranked for). */
void note_templates(struct step_ctx *c);
/* askUser: the tool_call of a clarification pause (its id kept in
 * pendingConfirmation.toolCallId) and, after /confirm, its tool_result
 * with the answer (text NULL: none given). */
void note_ask_user_call(struct step_ctx *c, const char *key, const char *question,
			const json_t *options);
void note_ask_user_result(struct step_ctx *c, const json_t *pending, const char *answer);

/* ---- note_llm.c ---- */

/* A model call for an agent: the task's system prompt and the facts as
 * the user message, JSON mode. An answer without every member of need
 * (a NULL-terminated list) is replaced by the offline rules' answer to
 * the same facts; *from_rules says so. NULL when the provider failed (a
 * severe error: lastError is set, the caller goes to the supervisor). New
 * reference. */
json_t *note_ask(struct step_ctx *c, const char *task, const json_t *facts,
		 const char *const *need, int *from_rules);
/* The same for the supervisor's own calls (clarity, the router): a
 * provider failure is not an agent's error, the rules answer. */
json_t *note_ask_soft(struct step_ctx *c, const char *task, const json_t *facts,
		      const char *const *need, int *from_rules);
/* The offline rules' answer to a task. New reference, or NULL with the
 * reason in err. */
json_t *note_rules(struct step_ctx *c, const char *task, const json_t *facts, char *err,
		   size_t errlen);
/* After note_ask failed: to the supervisor, which takes the fallback path. */
enum node_rc note_to_supervisor(struct step_ctx *c);

/* ---- note_ref.c ---- */

/* The reference images of the input (referenceImageUrl, referenceImages:
 * strings or {url, type}), at most NOTE_MAX_REFERENCES: data URLs and
 * base64 are stored as assets now (the state keeps "api/assets/<id>"),
 * asset ids and http(s) URLs are kept to be read by the agent. Sets
 * referenceImageUrl, referenceImages and referenceInputs. 0, or -1 with
 * err (the client's mistake). */
int note_ref_inputs(struct step_ctx *c, const json_t *input, json_t *state, char *err, size_t errlen);

/* ---- the agents ---- */
enum node_rc note_brief_compiler(struct step_ctx *c);
enum node_rc note_research(struct step_ctx *c);
enum node_rc note_reference(struct step_ctx *c);
enum node_rc note_writer(struct step_ctx *c);
enum node_rc note_layout_planner(struct step_ctx *c);
enum node_rc note_image_planner(struct step_ctx *c);
enum node_rc note_image(struct step_ctx *c);
enum node_rc note_review(struct step_ctx *c);

/* ---- note_quality.c: how a run that does not pass ends ---- */

/* The current draft (generatedContent) is refused: the writer will not
 * offer it again. */
void note_quality_refuse(json_t *state);
/* 1 when content is a draft already refused. */
int note_quality_refused(const json_t *state, const json_t *content);
/* After a review (qualityScores set): the draft, its images and scores
 * become state.bestDraft when they score at least as high as it. */
void note_quality_track(json_t *state);
/* The last pause, kind quality (code: "max_iterations" or
 * "regeneration_limit"): the best draft back in the state, the review's
 * reasons, publish (approve) or stop (reject). Answered at review_agent.
 * A run with no draft at all stops (note_abort) instead. */
enum node_rc note_quality_pause(struct step_ctx *c, const char *code);
/* The answer to it: approve publishes the draft as it is (result.quality
 * {passed: false, reasons, publishedBy: "person"}); reject, or a
 * deadline's default, stops the run with the draft kept. */
enum node_rc note_quality_decide(struct step_ctx *c);

/* ---- note_corpus.c: the notes corpus and its tools (pure but the load) ---- */

struct kb;
struct conf;
/* The corpus named by [kb] notes, as the worker's shelf keeps it
 * (kb/shelf.h): kb_shelf_get(app, &note_corpus_def, ...). */
extern const struct kb_def note_corpus_def;
/* Checks the documents' likes (whole numbers >= 0) and dates (YYYY-MM-DD).
 * 0, or -1 with err. */
int note_corpus_check(const json_t *docs, char *err, size_t errlen);
/* Notes matching query, whole documents plus "similarity", "method" and
 * "scores", best first, as kb_retrieve finds them (kb/retrieve.h: BM25,
 * fused with cosine when embeddings are configured; app NULL: BM25). info
 * (may be NULL) says how. New reference. */
struct app;
struct kb_retrieve_info;
json_t *note_corpus_search(struct app *app, struct kb *kb, const char *query, size_t limit,
			   struct kb_retrieve_info *info);
/* Notes carrying a tag. New reference. */
json_t *note_corpus_by_tag(const struct kb *kb, const char *tag, size_t limit);
/* Tags of the notes, by number of notes then likes: [{tag, count,
 * likes}], at most limit. New reference. */
json_t *note_corpus_top_tags(const json_t *notes, size_t limit);
/* The most liked titles and how titles are written: {titles: [{id,
 * title, likes}], patterns: {count, avgChars, withNumber, withSeparator,
 * withExclamation, withQuestion}}. New reference. */
json_t *note_corpus_top_titles(const json_t *notes, size_t limit);
/* Notes and likes by month, the peak month, the month of the year most
 * notes fall in, and the trend of likes (recent year against the year
 * before). New reference. */
json_t *note_corpus_trend(const json_t *notes);
/* The notes (of those given) about the topic's words: each word weighs
 * by how rare it is in the corpus, and a note is kept when the words it
 * has carry more than floor of the whole weight; each kept note gets its
 * "relevance", most relevant first. New reference. */
/* The notes whose title, tags or body have the word (ASCII case
 * ignored), at most limit, copies. New reference. */
json_t *note_corpus_having(const struct kb *kb, const char *word, size_t limit);
json_t *note_corpus_relevant(const json_t *corpus, const json_t *notes, const json_t *words,
			     double floor);
/* The concrete points of the first four notes: the sentences of their
 * bodies, each once, as {text, source (the note's title), id, likes,
 * tags (the note's)}, at most max. New reference. */
json_t *note_corpus_points(const json_t *notes, size_t max);

/* ---- note_img.c: image bytes without a vision model (pure) ---- */

#define NOTE_IMG_PALETTE 5

struct note_img_info {
	char mime[32];
	size_t bytes;
	int width, height;          /* 0 when unknown */
	int npalette;               /* dominant colours found */
	struct { unsigned char r, g, b; double share; } palette[NOTE_IMG_PALETTE];
	double brightness;          /* mean luma in [0, 1]; -1 unknown */
	double saturation;          /* mean in [0, 1]; -1 unknown */
	double warmth;              /* mean red minus blue in [-1, 1] */
	char method[32];            /* "png-pixels", "svg-source", "header" */
	char why[128];              /* why there are no colours */
};

/* Width and height from the header (PNG IHDR, JPEG SOF, GIF, WebP VP8,
 * VP8L, VP8X, SVG width/height or viewBox). 0, or -1 when unknown. */
int note_img_size(const unsigned char *p, size_t n, int *w, int *h);
/* Everything that can be read: size, and for PNG (inflated within lim)
 * and SVG the dominant colours. Never fails; out says what it could not
 * read. */
struct pngio_limits;
void note_img_read(const unsigned char *p, size_t n, const char *mime, const struct pngio_limits *lim,
		   struct note_img_info *out);
/* The analysis as JSON, labelled as metadata-only. New reference. */
json_t *note_img_analysis(const struct note_img_info *in);

#endif
