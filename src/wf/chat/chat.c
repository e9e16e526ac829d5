/* The chat workflow (seed 004): its descriptor (the node table, which
 * node may follow which, what its input may hold) and its init and turn
 * hooks, which check a turn's input (text, pictures, the thread's last
 * picture when the text asks about it) and make it the current turn. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "wf/chat/chat.h"

/* "描述一下刚才生成的图片": the thread's last picture comes with the turn. */
static void chat_last_image(const json_t *state, json_t *user, const char *text)
{
	const char *url = json_string_value(json_object_get(state, "lastImageUrl"));
	const char *id = url ? strstr(url, "api/assets/") : NULL;

	if (id == NULL || json_array_size(json_object_get(user, "images")) > 0 ||
	    !chat_refers_last_image(text))
		return;
	json_object_set_new(user, "images", json_pack("[{s:s, s:s, s:s, s:b}]", "assetId",
			    id + strlen("api/assets/"), "mime", "", "name", "", "generated", 1));
}

/* Checks a turn's input (an edit or a regeneration too) and makes it the
 * current turn. */
static int chat_take_input(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			   size_t n)
{
	json_t *text = json_object_get(input, "text"), *att = json_object_get(input, "attachments");
	json_t *user;
	const char *t;

	if (text && !json_is_string(text))
		return snprintf(err, n, "text must be a string"), -1;
	t = text ? json_string_value(text) : "";
	if (strlen(t) > CHAT_TEXT_MAX)
		return snprintf(err, n, "text is longer than %d bytes", CHAT_TEXT_MAX), -1;
	user = json_pack("{s:s, s:[]}", "text", t, "images");
	if (att && !json_is_null(att) && chat_attachments_in(c, user, att, err, n) < 0) {
		json_decref(user);
		return -1;
	}
	/* An edit or a regeneration: the conversation goes on from before the
	 * message it names (a regeneration asks that message's question again). */
	if (chat_branch(state, input, &t, err, n) < 0) {
		json_decref(user);
		return -1;
	}
	json_object_set_new(user, "text", json_string(t));
	if (t[strspn(t, " \t\r\n")] == '\0' && json_array_size(json_object_get(user, "images")) == 0) {
		json_decref(user);
		return snprintf(err, n, "send a message (text), or pictures (attachments)"), -1;
	}
	chat_last_image(state, user, t);
	json_object_set_new(state, "userInput", user);
	json_object_set_new(state, "visionNotes", json_null());
	json_object_set_new(state, "route", json_null());
	json_object_set_new(state, "result", json_null());
	json_object_set_new(state, "toolCalls", json_array());
	json_object_set_new(state, "searchFacts", json_null());
	json_object_del(state, "searchNotes");
	chat_push(c, state, json_pack("{s:s, s:s}", "role", "user", "content", t));
	return 0;
}

static json_t *chat_init(struct step_ctx *c, const json_t *input, char *err, size_t errlen)
{
	json_t *state = json_pack("{s:[], s:n}", "messages", "lastImageUrl");

	if (chat_take_input(c, state, input, err, errlen) < 0) {
		json_decref(state);
		return NULL;
	}
	return state;
}

static const char *chat_turn(struct step_ctx *c, json_t *state, const json_t *input, char *err,
			     size_t errlen)
{
	return chat_take_input(c, state, input, err, errlen) < 0 ? NULL : "router";
}

static const struct wf_node chat_nodes[] = {
	{ "router", chat_router, 0 },
	{ "image_gen", chat_image_gen, 0 },
	{ "web_search", chat_web_search, 0 },
	{ "time_query", chat_time_query, 0 },
	{ "chat", chat_reply, 0 },
	{ "vision", chat_vision, 0 },
};

/* Which node may follow which (a pause names the node its answer goes
 * to: an edge from the node that paused). */
static const struct wf_edge chat_edges[] = {
	{ WF_START, "router" }, { "router", "vision" }, { "router", "image_gen" },
	{ "router", "web_search" }, { "router", "time_query" }, { "router", "chat" },
	{ "vision", "web_search" }, { "vision", "chat" }, { "image_gen", "web_search" },
	{ "image_gen", "chat" }, { "image_gen", WF_END }, { "web_search", "chat" },
	{ "web_search", WF_END }, { "time_query", WF_END }, { "chat", WF_END },
};

static const char *const chat_text_fields[] = { "text", NULL };

/* What the input may hold (the init and turn hooks check it). */
static const char chat_input_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"chat input\", \"type\": \"object\", "
	"\"properties\": {\"text\": {\"type\": \"string\"}, \"lang\": {\"enum\": [\"zh\", "
	"\"en\", null]}, \"attachments\": {\"type\": \"array\", "
	"\"items\": {\"type\": \"object\"}}, \"editOf\": {\"type\": \"string\"}, "
	"\"regenerate\": {\"type\": \"string\"}}, \"anyOf\": [{\"required\": [\"text\"]}, "
	"{\"required\": [\"attachments\"]}, {\"required\": [\"regenerate\"]}]}";

/* What its state holds between steps (the fields every checkpoint has are
 * required; a node may add others). */
static const char chat_state_schema[] =
	"{\"$schema\": \"https://json-schema.org/draft/2020-12/schema\", "
	"\"title\": \"chat state\", \"type\": \"object\", "
	"\"properties\": {\"lastImageUrl\": {\"type\": [\"null\", \"string\"]}, "
	"\"messages\": {\"type\": \"array\"}, \"result\": {\"type\": [\"null\", \"object\"]}, "
	"\"route\": {\"type\": [\"null\", \"object\"]}, \"searchFacts\": {\"type\": [\"null\", "
	"\"string\", \"object\", \"array\"]}, \"time\": {\"type\": \"object\"}, "
	"\"toolCalls\": {\"type\": \"array\"}, \"userInput\": {\"type\": \"object\"}, "
	"\"msgSeq\": {\"type\": \"integer\"}, "
	"\"visionNotes\": {\"type\": [\"null\", \"string\"]}}, "
	"\"required\": [\"lastImageUrl\", \"messages\", \"result\", \"route\", "
	"\"searchFacts\", \"toolCalls\", \"userInput\", \"visionNotes\"]}";

const struct workflow wf_chat = {
	.name = "chat",
	.nodes = chat_nodes,
	.nnodes = sizeof chat_nodes / sizeof chat_nodes[0],
	.start = "router",
	.edges = chat_edges,
	.nedges = sizeof chat_edges / sizeof chat_edges[0],
	.text_fields = chat_text_fields,
	.input_schema = chat_input_schema,
	.state_schema = chat_state_schema,
	.conf = &chat_conf_section,
	.msgs = chat_msgs,
	.nmsgs = CHAT_NMSGS,
	.init = chat_init,
	.turn = chat_turn,
};
