/* One stage of an orchestrate run as its agent sees it and as later
 * stages get it: the facts of the call (the task, the stage, the
 * StageContexts of its inputs with their structured data as JSON, the
 * attachments, the workspace, this stage's tool results so far), the
 * messages a real model gets, and the StageContext of its answer (seed
 * §2.3, with §2.5's parseStructuredOutput). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "util/clock.h"
#include <sodium.h>
#include "util/xmalloc.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_ws.h"

/* Text attachments up to this size go to the agents whole. */
#define ORCH_INLINE_MAX (256 * 1024)

json_t *orch_structured(const char *text)
{
	const char *open, *body, *close;
	json_t *j;

	if (text == NULL)
		return NULL;
	open = strstr(text, "```json");
	if (open) {
		body = open + 7;
		body += strspn(body, " \t\r\n");
		close = strstr(body, "```");
		if (close) {
			j = json_loadb(body, (size_t)(close - body), JSON_REJECT_DUPLICATES, NULL);
			if (json_is_object(j) || json_is_array(j))
				return j;
			json_decref(j);
		}
	}
	j = json_loads(text, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, NULL);
	if (json_is_object(j) || json_is_array(j))
		return j;
	json_decref(j);
	return NULL;
}

static const json_t *orch_subtask(const json_t *state, const char *id)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(json_object_get(state, "plan"), "subtasks"), i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")) ?: "", id) == 0)
			return s;
	return NULL;
}

/* Why a stage that is not done has no result: its skip reason (a
 * condition not met) or its last error. Borrowed. */
static const json_t *orch_stage_why(const json_t *st)
{
	const json_t *r = json_object_get(st, "skipReason");

	return r ? r : json_object_get(st, "error");
}

/* The StageContexts of the stage's inputs; a skipped or failed input says
 * so, with why (code and words). New reference. */
static json_t *orch_stage_inputs(const json_t *state, const json_t *sub)
{
	json_t *out = json_object(), *in;
	const json_t *stages = json_object_get(state, "stages");
	size_t i;

	json_array_foreach(json_object_get(sub, "inputs"), i, in) {
		const char *id = json_string_value(in);
		const json_t *st = json_object_get(stages, id ? id : "");
		const char *status = json_string_value(json_object_get(st, "status")) ?: "missing";

		if (id == NULL)
			continue;
		if (strcmp(status, "done") == 0)
			json_object_set(out, id, json_object_get(st, "context"));
		else
			json_object_set_new(out, id, json_pack("{s:s, s:b, s:s, s:O?, s:O?}", "status", status,
				"skipped", 1, "reason",
				json_string_value(json_object_get(orch_stage_why(st), "message")) ?: status,
				"code", json_object_get(orch_stage_why(st), "code"), "agent",
				json_object_get(st, "agent")));
	}
	return out;
}

/* The run's attachments as the agents see them: {path, mimeType, size},
 * with the bytes in base64 ("data") for pictures and for text files under
 * ORCH_INLINE_MAX, so rules and vision models can read them. New
 * reference. */
static json_t *orch_stage_attachments(struct step_ctx *c)
{
	json_t *out = json_array(), *a;
	size_t i;

	json_array_foreach(json_object_get(c->state, "attachments"), i, a) {
		const char *path = json_string_value(json_object_get(a, "path"));
		json_t *e = json_deep_copy(a);
		char *mime = NULL, *b64;
		void *data = NULL;
		size_t len = 0, cap;

		if (path && orch_ws_get(c, path, &mime, &data, &len) == 0 && mime &&
		    (strncmp(mime, "image/", 6) == 0 || (strncmp(mime, "text/", 5) == 0 &&
							len < ORCH_INLINE_MAX))) {
			cap = sodium_base64_encoded_len(len, sodium_base64_VARIANT_ORIGINAL);
			b64 = malloc(cap);
			if (b64) {
				sodium_bin2base64(b64, cap, data, len, sodium_base64_VARIANT_ORIGINAL);
				json_object_set_new(e, "data", json_string(b64));
				free(b64);
			}
		}
		free(mime);
		free(data);
		json_array_append_new(out, e);
	}
	return out;
}

json_t *orch_stage_facts(struct step_ctx *c, const json_t *agent, const char *stage_id)
{
	const json_t *sub = orch_subtask(c->state, stage_id);
	const json_t *st = json_object_get(json_object_get(c->state, "stages"), stage_id);
	json_t *ws = json_array(), *w;
	const char *path;

	json_object_foreach(json_object_get(c->state, "workspace"), path, w)
		json_array_append_new(ws, json_pack("{s:s, s:O?, s:O?}", "path", path, "mimeType",
						    json_object_get(w, "mimeType"), "size",
						    json_object_get(w, "size")));
	return json_pack("{s:O, s:O?, s:{s:s, s:O?}, s:o, s:o, s:o, s:O, s:I, s:O, s:s, s:O?}",
			 "agent", json_object_get(agent, "id"), "task",
			 json_object_get(c->state, "task"), "stage", "id", stage_id, "description",
			 json_object_get(sub, "description"), "inputs",
			 orch_stage_inputs(c->state, sub), "attachments",
			 orch_stage_attachments(c), "workspace", ws, "toolResults",
			 json_object_get(st, "toolResults"), "iteration",
			 json_integer_value(json_object_get(st, "iteration")) + 1, "maxIterations",
			 json_object_get(agent, "maxIterations"), "lang", step_lang(c), "repair",
			 json_object_get(st, "repair"));
}

json_t *orch_stage_messages(const json_t *agent, const json_t *facts)
{
	json_t *user = json_deep_copy(facts), *parts, *a;
	int vision = strcmp(json_string_value(json_object_get(agent, "layer")) ?: "", "vision") == 0;
	char *text;
	json_t *m;
	size_t i;

	/* The tool results travel as tool messages, not in the user turn; the
	 * bytes of attachments as image parts (vision agents), not as text. */
	json_object_del(user, "toolResults");
	parts = json_array();
	json_array_foreach(json_object_get(user, "attachments"), i, a) {
		const char *mime = json_string_value(json_object_get(a, "mimeType")) ?: "";
		const char *data = json_string_value(json_object_get(a, "data"));

		if (vision && data && strncmp(mime, "image/", 6) == 0) {
			char *url = xasprintf("data:%s;base64,%s", mime, data);

			json_array_append_new(parts, json_pack("{s:s, s:{s:s}}", "type", "image_url",
							       "image_url", "url", url));
			free(url);
		}
		json_object_del(a, "data");
	}
	text = jtext(user, JSON_INDENT(1));
	json_array_insert_new(parts, 0, json_pack("{s:s, s:s}", "type", "text", "text",
						  text ? text : "{}"));
	m = json_pack("[{s:s, s:O}, {s:s, s:o}]", "role", "system", "content",
		      json_object_get(agent, "systemPrompt"), "role", "user", "content",
		      json_array_size(parts) > 1 ? parts : json_string(text ? text : "{}"));
	if (json_array_size(parts) <= 1)
		json_decref(parts);
	free(text);
	json_decref(user);
	return m;
}

/* The files this stage wrote, from the workspace. New reference. */
static json_t *orch_stage_files(const json_t *state, const char *stage_id)
{
	json_t *out = json_array(), *w;
	const char *path;

	json_object_foreach(json_object_get(state, "workspace"), path, w) {
		const char *m = json_string_value(json_object_get(w, "mimeType")) ?: "";

		if (strcmp(json_string_value(json_object_get(w, "stage")) ?: "", stage_id) != 0)
			continue;
		json_array_append_new(out, json_pack("{s:s, s:s, s:O?}", "path", path, "type",
			strncmp(m, "image/", 6) == 0 ? "image" : strncmp(m, "text/", 5) == 0 ? "text" : "data",
			"assetId", json_object_get(w, "assetId")));
	}
	return out;
}

json_t *orch_stage_context(struct step_ctx *c, const char *stage_id, const json_t *st,
			   const char *text)
{
	json_t *ctx = json_pack("{s:s, s:o, s:O, s:{s:I, s:O, s:O}}", "textOutput", text ? text : "",
				"generatedFiles", orch_stage_files(c->state, stage_id), "attachments",
				json_object_get(c->state, "attachments"), "metadata", "duration",
				(json_int_t)(clock_wall_ms() -
					     json_integer_value(json_object_get(st, "startedAt"))),
				"toolsUsed", json_object_get(st, "toolsUsed"), "agentId",
				json_object_get(st, "agent"));
	json_t *sd = orch_structured(text);

	if (sd)
		json_object_set_new(ctx, "structuredData", sd);
	return ctx;
}
