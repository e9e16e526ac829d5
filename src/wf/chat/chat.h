/* The chat assistant (seed 004): every user turn is routed (the model
 * first, the intent rules when the model fails or is unsure) to one of
 * four routes, each a node, each with its fallback chain:
 *   router      the route, its gates, intent_detected       (chat_route.c)
 *   image_gen   prompt rewrite, the image provider;          (chat_tools.c)
 *               failure: the search check, then chat
 *   web_search  facts (search, then the search-chat          (chat_tools.c)
 *               fallback; offline the notes corpus) into the
 *               system message; failure: chat
 *   time_query  the local clock, no model                    (chat_time.c)
 *   chat        the chat model, streamed                     (chat_reply.c)
 *   vision      a turn's pictures described, then search     (chat_vision.c)
 *               when the text asks for it, then chat
 * The thread is the conversation: state.messages holds the turns, bounded
 * by [workflow.chat] history_turns (chat.c). */
#ifndef AV_WF_CHAT_H
#define AV_WF_CHAT_H
#include <stddef.h>
#include <time.h>
#include <jansson.h>
#include "engine/graph.h"

extern const struct workflow wf_chat;

#define CHAT_TEXT_MAX 8000          /* bytes of one user turn */

/* ---- routing (chat_route.c; chat_route_pick is pure) ---- */

struct chat_gates {
	int image;     /* [workflow.chat] image_gen on and the image provider usable */
	int search;    /* [workflow.chat] web_search on and the search provider usable */
};

struct chat_route {
	const char *route;      /* "image_gen", "web_search", "time_query", "chat" (static) */
	double confidence;
	const char *source;     /* "model" or "rules" */
	const char *why;        /* the rules' reason: a catalogue id (static), or NULL when the
				 * model's own reason stands */
	const char *rule;       /* the deciding rule's name when source is rules */
	const char *fallback;   /* why the model's route was not taken: a catalogue id
				 * (static), NULL when it was or there was none */
};

/* The route of a turn. model: the model's parsed answer (borrowed, NULL
 * when the call failed or its reply did not parse); it is taken when its
 * route is one of the four, its confidence is a number in [min_conf, 1]
 * and its route is not gated off; else the rules decide in seed 004 §6.1's
 * order (image, time, search), each behind its gate. */
struct chat_route chat_route_pick(const json_t *model, const char *text, double min_conf,
				  const struct chat_gates *g);
/* The rules alone, behind the gates (the fallback chains use it too:
 * an image that failed asks it with the image gate closed); a plain
 * conversation is as sure as floor, the bar a route must clear
 * ([workflow.chat] route_min_confidence). */
struct chat_route chat_route_rules(const char *text, const struct chat_gates *g, double floor);
/* The gates from the configuration. */
struct chat_gates chat_gates_of(struct step_ctx *c);
/* The offline rules of the "image_prompt" task: {prompt}. New reference. */
json_t *chat_rules_image_prompt(const json_t *facts, const char *text, char *err, size_t errlen);

enum node_rc chat_router(struct step_ctx *c);

/* ---- the routes ---- */
enum node_rc chat_image_gen(struct step_ctx *c);
enum node_rc chat_web_search(struct step_ctx *c);
enum node_rc chat_time_query(struct step_ctx *c);
enum node_rc chat_reply(struct step_ctx *c);
enum node_rc chat_vision(struct step_ctx *c);

/* ---- picture turns (chat_vision.c) ---- */

/* Checks input.attachments (borrowed) and keeps each image as an asset:
 * user.images = [{assetId, mime, name}]. 0, or -1 with err. */
int chat_attachments_in(struct step_ctx *c, json_t *user, const json_t *att, char *err, size_t n);
/* The text asks about the picture made just before (描述一下刚才生成的图片). */
int chat_refers_last_image(const char *text);
/* The offline rules of the "vision" task: what the image reader found in
 * facts.images, and that it cannot see more: {description}. New reference. */
json_t *chat_rules_vision(const json_t *facts, const char *text, char *err, size_t errlen);

/* ---- the clock (chat_time.c; pure) ---- */

/* The time at now in tz (an IANA name; "" or NULL: the server's), as
 * {iso, date, time, weekday, timezone, utcOffset, unix}, the date and the
 * weekday in lang. New reference. */
json_t *chat_time_facts(time_t now, const char *tz, const char *lang);
/* The answer for people, from the catalogue. The caller frees it. */
char *chat_time_text(const json_t *facts, const char *lang);

/* ---- the turn and its answer (chat.c) ---- */

/* The user's text of this turn. Borrowed. */
const char *chat_text(const json_t *state);
/* The model's messages: a system message (NULL: none), the history
 * bounded by [workflow.chat] history_turns, the current user turn. New
 * reference. */
json_t *chat_messages(struct step_ctx *c, const char *system);
/* A durable progress event {content} from the catalogue. */
void chat_progress(struct step_ctx *c, const char *id);
/* A thought_log from the catalogue, formatted. */
void chat_thought(struct step_ctx *c, const char *id, ...);
/* Records a tool call of this turn ({tool, input, ok}); input stolen. */
void chat_tool_record(struct step_ctx *c, const char *tool, json_t *input, int ok);
/* Ends the turn: the durable message {role: assistant, content}, the
 * assistant turn in the history, state.result (workflow_complete's
 * fields). image_url may be NULL. */
enum node_rc chat_finish(struct step_ctx *c, const char *content, const char *image_url);

/* A streamed chat call whose pieces go out as message_delta events and are
 * kept, so that a reply cut short keeps what was said. said: the valid
 * UTF-8 text streamed so far (the caller frees it). 0 or -1 as prov_chat. */
struct prov_answer;
int chat_stream(struct step_ctx *c, const json_t *messages, const json_t *facts,
		struct prov_answer *a, char **said);

#endif
