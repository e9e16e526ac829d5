/* The chat workflow (seed 004): its input, the conversation kept in the
 * state (bounded by [workflow.chat] history_turns, oldest turns dropped),
 * the model's messages built from it, the events every route shares
 * (progress, thought_log, the final message) and the node table. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "text/msg.h"
#include "util/clock.h"
#include "util/jnum.h"
#include "wf/chat/chat.h"

const char *chat_text(const json_t *state)
{
	return json_string_value(json_object_get(json_object_get(state, "userInput"), "text")) ?: "";
}

static size_t chat_history_max(const struct conf *cf)
{
	return (size_t)cf->chat_history_turns * 2;
}

/* Appends a message; the history keeps its bound plus the current turn. */
static void chat_push(struct step_ctx *c, json_t *state, json_t *m)
{
	json_t *msgs = json_object_get(state, "messages");

	json_object_set_new(m, "timestamp", json_integer(clock_wall_ms()));
	json_array_append_new(msgs, m);
	while (json_array_size(msgs) > chat_history_max(step_conf(c)) + 2)
		json_array_remove(msgs, 0);
}

json_t *chat_messages(struct step_ctx *c, const char *system)
{
	json_t *out = json_array(), *hist = json_object_get(c->state, "messages"), *m;
	size_t n = json_array_size(hist), keep = chat_history_max(step_conf(c)), i;

	if (system)
		json_array_append_new(out, json_pack("{s:s, s:s}", "role", "system", "content", system));
	/* The last message is the current turn: the earlier ones are context. */
	n = n > 0 ? n - 1 : 0;
	for (i = n > keep ? n - keep : 0; i < n; i++) {
		m = json_array_get(hist, i);
		json_array_append_new(out, json_pack("{s:O, s:O}", "role", json_object_get(m, "role"),
						     "content", json_object_get(m, "content")));
	}
	json_array_append_new(out, json_pack("{s:s, s:s}", "role", "user", "content",
					     chat_text(c->state)));
	return out;
}

void chat_progress(struct step_ctx *c, const char *id)
{
	json_t *ev = step_event(c, "progress");

	json_object_set_new(ev, "content", json_string(msg_get(step_lang(c), id)));
	step_emit(c, ev);
}

void chat_thought(struct step_ctx *c, const char *id, ...)
{
	char msg[512];
	json_t *ev = step_event(c, "thought_log");
	va_list ap;

	va_start(ap, id);
	vsnprintf(msg, sizeof msg, msg_get(step_lang(c), id), ap);
	va_end(ap);
	json_object_set_new(ev, "message", json_string(msg));
	step_emit(c, ev);
}

void chat_tool_record(struct step_ctx *c, const char *tool, json_t *input, int ok)
{
	json_array_append_new(json_object_get(c->state, "toolCalls"),
			      json_pack("{s:s, s:o, s:b}", "tool", tool, "input", input, "ok", ok));
}

enum node_rc chat_finish(struct step_ctx *c, const char *content, const char *image_url)
{
	json_t *route = json_object_get(c->state, "route");
	json_t *ev = step_event(c, "message"), *res, *m;

	json_object_set_new(ev, "role", json_string("assistant"));
	json_object_set_new(ev, "content", json_string(content));
	step_emit(c, ev);
	m = json_pack("{s:s, s:s, s:O}", "role", "assistant", "content", content, "route",
		      json_object_get(route, "route"));
	res = json_pack("{s:s, s:O, s:O, s:O}", "content", content, "toolCalls",
			json_object_get(c->state, "toolCalls"), "route",
			json_object_get(route, "route"), "routeSource",
			json_object_get(route, "source"));
	if (image_url) {
		json_object_set_new(res, "generatedImageUrl", json_string(image_url));
		json_object_set_new(m, "generatedImageUrl", json_string(image_url));
		json_object_set_new(c->state, "lastImageUrl", json_string(image_url));
	}
	chat_push(c, c->state, m);
	json_object_set_new(c->state, "result", res);
	return NODE_END;
}

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

/* Checks a turn's input and makes it the current turn. */
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

const struct workflow wf_chat = {
	.name = "chat",
	.nodes = chat_nodes,
	.nnodes = sizeof chat_nodes / sizeof chat_nodes[0],
	.start = "router",
	.init = chat_init,
	.turn = chat_turn,
};
