/* The supervisor's tools (seed 001 §8), each a tool_call / tool_result
 * pair. managePrompt keeps the thread's working prompt: what the request
 * says and what clarification and feedback changed (set), and the brief
 * the writer is about to use (get). recommendTemplates ranks the kinds of
 * note for the topic once it is clear, and again when it changes (the
 * model's answer, else the offline rules, which are the writer's own),
 * and records the one chosen. askUser is the
 * clarification pause: its call carries the question and options, its
 * result, one step later, the person's answer. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wf/note/note.h"

#define NOTE_SUPERVISOR "supervisor"

static json_t *note_working_prompt(json_t *state)
{
	json_t *wp = json_object_get(state, "workingPrompt");

	if (!json_is_object(wp)) {
		wp = json_pack("{s:I}", "version", (json_int_t)0);
		json_object_set_new(state, "workingPrompt", wp);
	}
	return wp;
}

void note_prompt_set(struct step_ctx *c, const char *why, json_t *changes)
{
	struct note_tool t = { c, 0, "" };
	json_t *wp = note_working_prompt(c->state), *shown;
	json_int_t v = json_integer_value(json_object_get(wp, "version")) + 1;

	note_tool_call(&t, NOTE_SUPERVISOR, "managePrompt", json_pack("{s:s, s:s, s:O}", "action", "set",
		"reason", why, "changes", changes));
	json_object_update(wp, changes);
	json_object_set_new(wp, "version", json_integer(v));
	shown = json_deep_copy(wp);
	json_object_del(shown, "version");
	note_tool_result(&t, NOTE_SUPERVISOR, "managePrompt", json_pack("{s:s, s:I, s:o}", "action", "set",
		"version", v, "prompt", shown));
	json_decref(changes);
}

static void note_copy_key(json_t *to, const json_t *from, const char *key)
{
	json_t *v = json_object_get(from, key);

	if (v && !json_is_null(v))
		json_object_set(to, key, v);
}

void note_prompt_get(struct step_ctx *c)
{
	struct note_tool t = { c, 0, "" };
	const json_t *brief = json_object_get(c->state, "creativeBrief");
	const json_t *tpl = json_object_get(c->state, "noteTemplate");
	json_t *wp = note_working_prompt(c->state), *p = json_pack("{s:s}", "topic",
		note_str(c->state, "topic") ?: "");
	char *hint = note_review_hint(c->state, "writer_agent");
	static const char *const keys[] = { "audience", "goal", "tone", "keywords", "constraints" };

	note_tool_call(&t, NOTE_SUPERVISOR, "managePrompt", json_pack("{s:s, s:s}", "action", "get",
		"for", "writer_agent"));
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		note_copy_key(p, brief, keys[i]);
	if (json_is_object(tpl))
		json_object_set_new(p, "template", json_pack("{s:O, s:O}", "template",
			json_object_get(tpl, "template"), "headings", json_object_get(tpl, "headings")));
	json_object_set_new(p, "replies", note_user_replies(c->state));
	if (hint)
		json_object_set_new(p, "reviewHint", json_string(hint));
	note_tool_result(&t, NOTE_SUPERVISOR, "managePrompt", json_pack("{s:s, s:O, s:o}", "action", "get",
		"version", json_object_get(wp, "version"), "prompt", p));
	free(hint);
}

/* The candidates as given, each with a name and a score in [0, 1]. */
static json_t *note_templates_clean(const json_t *list)
{
	json_t *out = json_array(), *v;
	size_t i;

	json_array_foreach(list, i, v) {
		double s = json_number_value(json_object_get(v, "score"));

		if (json_array_size(out) >= 8 || !json_is_string(json_object_get(v, "template")))
			continue;
		v = json_deep_copy(v);
		json_object_set_new(v, "score", json_real(s < 0 ? 0 : s > 1 ? 1 : s));
		json_array_append_new(out, v);
	}
	return out;
}

void note_templates(struct step_ctx *c)
{
	static const char *const need[] = { "templates", "chosen", NULL };
	struct note_tool t = { c, 0, "" };
	json_t *facts = json_pack("{s:s}", "topic", note_str(c->state, "topic") ?: ""), *j, *list, *v;
	const char *chosen;
	int rules = 0;
	size_t i;

	note_tool_call(&t, NOTE_SUPERVISOR, "recommendTemplates", json_deep_copy(facts));
	j = note_ask_soft(c, "templates", facts, need, &rules);
	json_decref(facts);
	list = note_templates_clean(json_object_get(j, "templates"));
	chosen = json_string_value(json_object_get(j, "chosen"));
	json_object_set_new(c->state, "noteTemplate", json_null());
	json_array_foreach(list, i, v)
		if (chosen && strcmp(json_string_value(json_object_get(v, "template")), chosen) == 0)
			json_object_set(c->state, "noteTemplate", v);
	if (json_is_null(json_object_get(c->state, "noteTemplate")) && json_array_size(list))
		json_object_set(c->state, "noteTemplate", json_array_get(list, 0));
	json_object_set_new(c->state, "templatesTopic", json_string(note_str(c->state, "topic") ?: ""));
	note_tool_result(&t, NOTE_SUPERVISOR, "recommendTemplates", json_pack("{s:o, s:O, s:s}",
		"templates", list, "chosen", json_object_get(json_object_get(c->state, "noteTemplate"),
		"template") ?: json_null(), "source", j == NULL ? "none" : rules ? "rules" : "model"));
	json_decref(j);
}

void note_ask_user_call(struct step_ctx *c, const char *key, const char *question,
			const json_t *options)
{
	struct note_tool t = { c, 0, "" };

	note_tool_call(&t, NULL, "askUser", json_pack("{s:s, s:s, s:O, s:s, s:b}", "key", key, "question",
		question, "options", options, "selectionType", "single", "allowCustomInput", 1));
	json_object_set_new(json_object_get(c->state, "pendingConfirmation"), "toolCallId",
			    json_string(t.id));
}

void note_ask_user_result(struct step_ctx *c, const json_t *pending, const char *answer)
{
	const char *id = json_string_value(json_object_get(pending, "toolCallId"));

	if (id == NULL)
		return;
	note_tool_result_id(c, NULL, "askUser", id, json_pack("{s:O, s:s?, s:s?}", "key",
		json_object_get(pending, "key") ?: json_null(), "action", note_decision(c, "clarification"),
		"answer", answer));
}
