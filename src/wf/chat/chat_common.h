/* What the chat workflow's nodes share (see chat.h): the bound of a
 * turn's text, the turn and its answer, the conversation and the
 * configuration (chat_common.c), and the nodes themselves with what each
 * lends (chat_route.c, chat_tools.c, chat_time.c, chat_reply.c,
 * chat_vision.c). The workflow's descriptor (chat.c) stands above them
 * all; the offline rules (chat_rules.h) below. */
#ifndef AV_WF_CHAT_COMMON_H
#define AV_WF_CHAT_COMMON_H
#include <stddef.h>
#include <time.h>
#include <jansson.h>
#include "engine/graph.h"
#include "wf/chat/chat_rules.h"

#define CHAT_TEXT_MAX 8000          /* bytes of one user turn */

/* ---- editing and regenerating (chat_branch.c) ---- */

/* A message still in the conversation (not replaced by an edit or a
 * regeneration). */
int chat_msg_live(const json_t *m);
/* Gives m the conversation's next id ("m1", "m2", …; state.msgSeq). */
void chat_msg_number(json_t *state, json_t *m);
/* The id of the last live user message, or NULL (borrowed). */
const char *chat_msg_last_user(const json_t *state);
/* input.editOf (a user message's id) or input.regenerate (an answer's):
 * the messages from that one on are marked superseded; for regenerate,
 * *text becomes its question (borrowed from state). 0 (also when the
 * input names neither), or -1 with err when the id is not a live message
 * of that role or the fields do not go together. */
int chat_branch(json_t *state, const json_t *input, const char **text, char *err, size_t n);

/* ---- routing (chat_route.c; chat_route_pick is pure) ---- */

/* The route of a turn. model: the model's parsed answer (borrowed, NULL
 * when the call failed or its reply did not parse); it is taken when its
 * route is one of the four, its confidence is a number in [min_conf, 1]
 * and its route is not gated off; else the rules decide in seed 004 §6.1's
 * order (image, time, search), each behind its gate (chat_route_rules). */
struct chat_route chat_route_pick(const json_t *model, const char *text, double min_conf,
				  const struct chat_gates *g);
/* The gates from the configuration. */
struct chat_gates chat_gates_of(struct step_ctx *c);

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

/* ---- the clock (chat_time.c; pure) ---- */

/* The time at now in tz (an IANA name; "" or NULL: the server's), as
 * {iso, date, time, weekday, timezone, zoneName, utcOffset, unix}, the
 * date, the weekday and the zone's name in lang. New reference, NULL when
 * ICU cannot make a calendar. */
json_t *chat_time_facts(time_t now, const char *tz, const char *lang);
/* The answer for people, from the catalogue. The caller frees it. */
char *chat_time_text(const json_t *facts, const char *lang);
/* The places text names (chat_zones.h), each as chat_time_facts in its
 * zone plus {place: as written, city: its zone's exemplar city in lang,
 * severalZones}; NULL when it names none. New reference. */
json_t *chat_time_places(time_t now, const char *text, const char *lang);
/* The answer for those places, one line each. The caller frees it. */
char *chat_time_places_text(const json_t *places, const char *lang);

/* ---- the turn and its answer (chat_common.c) ---- */

/* The user's text of this turn. Borrowed. */
const char *chat_text(const json_t *state);
/* Appends a message (stolen) to state.messages; the history keeps its
 * bound plus the current turn. */
void chat_push(struct step_ctx *c, json_t *state, json_t *m);
/* The model's messages: a system message (NULL: none), the history
 * bounded by [workflow.chat] history_turns, the current user turn. New
 * reference. */
json_t *chat_messages(struct step_ctx *c, const char *system);
/* A durable progress event {content} from the catalogue. */
void chat_progress(struct step_ctx *c, const char *id);
/* Records a tool call of this turn ({tool, input, ok}); input stolen. */
void chat_tool_record(struct step_ctx *c, const char *tool, json_t *input, int ok);
/* Ends the turn: the durable message {role: assistant, content,
 * suggest?}, the assistant turn in the history, state.result
 * (workflow_complete's fields, suggest too: "note" when the turn asks for
 * a Xiaohongshu note). image_url may be NULL. */
enum node_rc chat_finish(struct step_ctx *c, const char *content, const char *image_url);
/* The same with requests the page offers to click (examples: an array of
 * strings, borrowed, NULL or empty: none), in the message and in
 * state.result. */
enum node_rc chat_finish_with(struct step_ctx *c, const char *content, const char *image_url,
			      const json_t *examples);

/* A streamed chat call whose pieces go out as message_delta events and are
 * kept, so that a reply cut short keeps what was said. said: the valid
 * UTF-8 text streamed so far (the caller frees it). 0 or -1 as prov_chat
 * (chat_reply.c). */
struct prov_answer;
int chat_stream(struct step_ctx *c, const json_t *messages, const json_t *facts,
		struct prov_answer *a, char **said);

/* [workflow.chat]: the keys this workflow declares (its descriptor's conf). */
struct chat_conf {
	double route_min_confidence;
	long image_gen;
	long web_search;
	long history_turns;
	char *timezone;
};
extern const struct conf_section chat_conf_section;
const struct chat_conf *chat_conf(struct step_ctx *c);

#endif
