/* The agents' tool calls as events (seed 001 §6.1): a tool_call with its
 * toolCallId and toolInput, then a tool_result with the same id and the
 * toolOutput. Research, the supervisor and the image agent call their
 * tools through these, so every pair looks the same. */
#include "config.h"
#include <stdio.h>
#include "text/msg.h"
#include "util/clock.h"
#include "wf/note/note.h"

/* What a tool does, in words people understand (the catalogue's
 * tool.<name>). */
static const char *note_tool_name(const char *lang, const char *tool)
{
	char id[96];
	const char *name;

	snprintf(id, sizeof id, "tool.%s", tool);
	name = msg_find(lang, id);
	return name ? name : msg_get(lang, "tool.other");
}

void note_tool_call(struct note_tool *t, const char *agent, const char *tool, json_t *input)
{
	json_t *ev = note_event(t->c, "tool_call", agent);
	json_int_t n = note_int(t->c->state, "toolCalls") + 1;

	/* The thread's count of calls keeps ids apart across steps. */
	json_object_set_new(t->c->state, "toolCalls", json_integer(n));
	t->seq++;
	snprintf(t->id, sizeof t->id, "%s_%lld_%lld", tool, clock_wall_ms(), (long long)n);
	json_object_set_new(ev, "tool", json_string(tool));
	json_object_set_new(ev, "toolCallId", json_string(t->id));
	json_object_set_new(ev, "toolInput", input);
	step_emit(t->c, ev);
	note_tick(t->c, "note.tool", note_tool_name(step_lang(t->c), tool));
}

void note_tool_result_id(struct step_ctx *c, const char *agent, const char *tool, const char *id,
			 json_t *output)
{
	json_t *ev = note_event(c, "tool_result", agent);

	json_object_set_new(ev, "tool", json_string(tool));
	json_object_set_new(ev, "toolCallId", json_string(id));
	json_object_set_new(ev, "toolOutput", output);
	step_emit(c, ev);
}

void note_tool_result(struct note_tool *t, const char *agent, const char *tool, json_t *output)
{
	note_tool_result_id(t->c, agent, tool, t->id, output);
}
