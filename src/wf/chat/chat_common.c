/* What the chat workflow's nodes share (chat_common.h): the user's text
 * of the turn, the conversation kept in the state (bounded by
 * [workflow.chat] history_turns, oldest turns dropped), the model's
 * messages built from it, the events every route says (progress,
 * thought_log, the final message), the tool calls of a turn and the
 * workflow's configuration. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include "conf/conf.h"
#include "text/msg.h"
#include "util/clock.h"
#include "wf/chat/chat_common.h"
#include "wf/chat/chat_rules.h"

const char *chat_text(const json_t *state)
{
	return json_string_value(json_object_get(json_object_get(state, "userInput"), "text")) ?: "";
}

static size_t chat_history_max(struct step_ctx *c)
{
	return (size_t)chat_conf(c)->history_turns * 2;
}

void chat_push(struct step_ctx *c, json_t *state, json_t *m)
{
	json_t *msgs = json_object_get(state, "messages");

	json_object_set_new(m, "timestamp", json_integer(clock_wall_ms()));
	chat_msg_number(state, m);
	json_array_append_new(msgs, m);
	while (json_array_size(msgs) > chat_history_max(c) + 2)
		json_array_remove(msgs, 0);
}

json_t *chat_messages(struct step_ctx *c, const char *system)
{
	json_t *out = json_array(), *hist = json_object_get(c->state, "messages"), *m;
	size_t n = json_array_size(hist), keep = chat_history_max(c), i;

	if (system)
		json_array_append_new(out, json_pack("{s:s, s:s}", "role", "system", "content", system));
	/* The last message is the current turn: the earlier ones still in the
	 * conversation (not replaced by an edit) are context. */
	n = n > 0 ? n - 1 : 0;
	for (i = n > keep ? n - keep : 0; i < n; i++) {
		m = json_array_get(hist, i);
		if (!chat_msg_live(m))
			continue;
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


void chat_tool_record(struct step_ctx *c, const char *tool, json_t *input, int ok)
{
	json_array_append_new(json_object_get(c->state, "toolCalls"),
			      json_pack("{s:s, s:o, s:b}", "tool", tool, "input", input, "ok", ok));
}

/* What the page may offer beside the answer, as a code it words itself:
 * "note" when the turn asks for a Xiaohongshu note, which the note
 * workflow writes. NULL: nothing. */
static const char *chat_suggest(const json_t *state)
{
	return chat_rules_note_request(chat_text(state)) ? "note" : NULL;
}

enum node_rc chat_finish(struct step_ctx *c, const char *content, const char *image_url)
{
	return chat_finish_with(c, content, image_url, NULL);
}

enum node_rc chat_finish_with(struct step_ctx *c, const char *content, const char *image_url,
			      const json_t *examples)
{
	json_t *route = json_object_get(c->state, "route");
	json_t *ev = step_event(c, "message"), *res, *m;
	const char *suggest = chat_suggest(c->state), *asked = chat_msg_last_user(c->state);

	json_object_set_new(ev, "role", json_string("assistant"));
	if (asked)
		json_object_set_new(ev, "replyTo", json_string(asked));
	json_object_set_new(ev, "content", json_string(content));
	if (suggest)
		json_object_set_new(ev, "suggest", json_string(suggest));
	if (json_array_size(examples))
		json_object_set_new(ev, "examples", json_deep_copy(examples));
	m = json_pack("{s:s, s:s, s:O}", "role", "assistant", "content", content, "route",
		      json_object_get(route, "route"));
	res = json_pack("{s:s, s:O, s:O, s:O}", "content", content, "toolCalls",
			json_object_get(c->state, "toolCalls"), "route",
			json_object_get(route, "route"), "routeSource",
			json_object_get(route, "source"));
	if (suggest)
		json_object_set_new(res, "suggest", json_string(suggest));
	if (json_array_size(examples))
		json_object_set_new(res, "examples", json_deep_copy(examples));
	if (image_url) {
		json_object_set_new(res, "generatedImageUrl", json_string(image_url));
		json_object_set_new(m, "generatedImageUrl", json_string(image_url));
		json_object_set_new(c->state, "lastImageUrl", json_string(image_url));
	}
	chat_push(c, c->state, m);
	json_object_set(ev, "messageId", json_object_get(m, "id"));
	step_emit(c, ev);
	json_object_set_new(c->state, "result", res);
	return NODE_END;
}

static const struct conf_key chat_conf_keys[] = {
	CONF_KEY_REAL(struct chat_conf, "route_min_confidence", route_min_confidence, "0.6", 0, 1),
	CONF_KEY_BOOL(struct chat_conf, "image_gen", image_gen, "on"),
	CONF_KEY_BOOL(struct chat_conf, "web_search", web_search, "on"),
	CONF_KEY_LONG(struct chat_conf, "history_turns", history_turns, "20", 0, 1000),
	CONF_KEY_STR(struct chat_conf, "timezone", timezone, ""),
};

const struct conf_section chat_conf_section = {
	.name = "workflow.chat",
	.keys = chat_conf_keys,
	.nkeys = sizeof chat_conf_keys / sizeof chat_conf_keys[0],
	.size = sizeof(struct chat_conf),
};

const struct chat_conf *chat_conf(struct step_ctx *c)
{
	return step_wf_conf(c);
}
