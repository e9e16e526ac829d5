/* The note workflow's state (seed 001 §7), the events and records its
 * agents share (its input and node table: note_graph.c). The creative record
 * (state.creative) is the note as it stands: draft while the agents work,
 * complete when the review passes, aborted when the run stops for good
 * short of that (see note_abort); workflow_complete carries it with the
 * seed's field names (state.result). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "util/clock.h"
#include "util/xmalloc.h"
#include "text/msg.h"
#include "wf/note/note.h"

#define NOTE_MESSAGES_MAX 50
#define NOTE_PARAGRAPHS_MAX 40
#define NOTE_HEADING_MAX 24      /* characters */

char *note_cut(const char *s, size_t max)
{
	size_t n = strlen(s ? s : "");

	if (n > max) {
		n = max;
		while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
			n--;
	}
	return xstrndup(s ? s : "", n);
}

const char *note_str(const json_t *state, const char *key)
{
	return json_string_value(json_object_get(state, key));
}

json_int_t note_int(const json_t *state, const char *key)
{
	return json_integer_value(json_object_get(state, key));
}

void note_set_flag(json_t *state, const char *flag, int on)
{
	json_object_set_new(state, flag, json_boolean(on));
}

json_t *note_event(struct step_ctx *c, const char *type, const char *agent)
{
	json_t *ev = step_event(c, type);

	json_object_set_new(ev, "agent", json_string(agent ? agent : c->node));
	return ev;
}

static json_t *note_text_event(struct step_ctx *c, const char *type, const char *fmt, va_list ap)
{
	json_t *ev = note_event(c, type, NULL), *v = NULL;
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	if (s)
		v = json_string(s);  /* NULL for text that is not UTF-8 */
	json_object_set_new(ev, "content", v ? v : json_string(""));
	free(s);
	return ev;
}

void note_message(struct step_ctx *c, const char *fmt, ...)
{
	va_list ap;
	json_t *ev;

	va_start(ap, fmt);
	ev = note_text_event(c, "message", fmt, ap);
	va_end(ap);
	step_emit(c, ev);
}

void note_progress(struct step_ctx *c, const char *fmt, ...)
{
	va_list ap;
	json_t *ev;

	va_start(ap, fmt);
	ev = note_text_event(c, "progress", fmt, ap);
	va_end(ap);
	step_emit_live(c, ev);
}

/* The catalogue's formats are not literals; msg_get's table test checks
 * that both languages take the same arguments. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void note_say(struct step_ctx *c, const char *id, ...)
{
	va_list ap;
	json_t *ev;

	va_start(ap, id);
	ev = note_text_event(c, "message", msg_get(step_lang(c), id), ap);
	va_end(ap);
	step_emit(c, ev);
}

void note_tick(struct step_ctx *c, const char *id, ...)
{
	va_list ap;
	json_t *ev;

	va_start(ap, id);
	ev = note_text_event(c, "progress", msg_get(step_lang(c), id), ap);
	va_end(ap);
	step_emit_live(c, ev);
}
#pragma GCC diagnostic pop

void note_push_message(json_t *state, const char *role, const char *content)
{
	json_t *msgs = json_object_get(state, "messages");

	if (!json_is_array(msgs) || content == NULL)
		return;
	json_array_append_new(msgs, json_pack("{s:s, s:s, s:I}", "role", role, "content", content,
					      "timestamp", (json_int_t)clock_wall_ms()));
	while (json_array_size(msgs) > NOTE_MESSAGES_MAX)
		json_array_remove(msgs, 0);
}

json_t *note_user_replies(const json_t *state)
{
	json_t *out = json_array();
	const json_t *m;
	size_t i, users = 0;

	json_array_foreach(json_object_get(state, "messages"), i, m)
		if (strcmp(json_string_value(json_object_get(m, "role")) ?: "", "user") == 0 && users++ > 0)
			json_array_append(out, json_object_get(m, "content"));
	return out;
}

/* Characters (code points) of UTF-8 text. */
static size_t note_chars(const char *s, size_t n)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += ((unsigned char)s[i] & 0xC0) != 0x80;
	return c;
}

/* A first line that heads the paragraph: short, not a sentence. */
static char *note_heading(const char *p, size_t n)
{
	const char *nl = memchr(p, '\n', n);
	size_t len;

	if (nl == NULL)
		return xstrdup("");
	len = (size_t)(nl - p);
	if (len == 0 || note_chars(p, len) > NOTE_HEADING_MAX ||
	    (len >= 3 && (memcmp(p + len - 3, "。", 3) == 0 || memcmp(p + len - 3, "！", 3) == 0 ||
			  memcmp(p + len - 3, "？", 3) == 0)))
		return xstrdup("");
	return xstrndup(p, len);
}

static void note_paragraph_add(json_t *out, const char *p, size_t n)
{
	char id[16], *text, *head;

	while (n > 0 && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
		p++, n--;
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == '\t'))
		n--;
	if (n == 0 || json_array_size(out) >= NOTE_PARAGRAPHS_MAX)
		return;
	snprintf(id, sizeof id, "p%zu", json_array_size(out) + 1);
	text = xstrndup(p, n);
	head = note_heading(p, n);
	json_array_append_new(out, json_pack("{s:s, s:i, s:s, s:s}", "id", id, "index",
					     (int)json_array_size(out), "text", text, "heading", head));
	free(text);
	free(head);
}

size_t note_paragraph_len(const char *p, const char **next)
{
	const char *start = p;

	for (; *p; p++) {
		/* A blank line ends a paragraph ("\n\n", or with "\r" or spaces). */
		if (*p == '\n') {
			const char *q = p + 1;

			while (*q == ' ' || *q == '\t' || *q == '\r')
				q++;
			if (*q == '\n') {
				*next = q;
				return (size_t)(p - start);
			}
		}
	}
	*next = NULL;
	return (size_t)(p - start);
}

json_t *note_paragraphs(const char *body)
{
	json_t *out = json_array();
	const char *p = body ? body : "", *next;

	for (; p; p = next)
		note_paragraph_add(out, p, note_paragraph_len(p, &next));
	return out;
}

/* ---- the creative record ---- */

json_t *note_creative_new(void)
{
	uint64_t id = 0;
	long long now = clock_wall_ms();

	/* A number, as the seed's example has it, within JSON's exact range. */
	while (id == 0) {
		randombytes_buf(&id, sizeof id);
		id &= (1ULL << 53) - 1;
	}
	return json_pack("{s:I, s:s, s:s, s:s, s:[], s:[], s:I, s:I}", "creativeId", (json_int_t)id,
			 "status", "draft", "title", "", "body", "", "tags", "imageAssetIds",
			 "createdAt", (json_int_t)now, "updatedAt", (json_int_t)now);
}

void note_creative_sync(json_t *state)
{
	json_t *cr = json_object_get(state, "creative"), *content = json_object_get(state,
										   "generatedContent");
	json_t *ids = json_object_get(state, "generatedImageAssetIds");

	if (!json_is_object(cr))
		return;
	if (json_is_object(content)) {
		json_object_set(cr, "title", json_object_get(content, "title"));
		json_object_set(cr, "body", json_object_get(content, "body"));
		json_object_set(cr, "tags", json_object_get(content, "tags"));
	}
	json_object_set_new(cr, "imageAssetIds", json_is_array(ids) ? json_deep_copy(ids) : json_array());
	json_object_set_new(cr, "updatedAt", json_integer(clock_wall_ms()));
}

void note_creative_status(json_t *state, const char *status, const char *reason)
{
	json_t *cr = json_object_get(state, "creative");

	if (!json_is_object(cr))
		return;
	note_creative_sync(state);
	json_object_set_new(cr, "status", json_string(status));
	if (reason)
		json_object_set_new(cr, "abortReason", json_string(reason));
}

void note_result(json_t *state)
{
	json_t *cr = json_object_get(state, "creative");

	json_object_set_new(state, "result", json_pack("{s:O, s:O, s:O, s:O, s:O}", "title",
		json_object_get(cr, "title"), "body", json_object_get(cr, "body"), "tags",
		json_object_get(cr, "tags"), "imageAssetIds", json_object_get(cr, "imageAssetIds"),
		"creativeId", json_object_get(cr, "creativeId")));
}

char *note_review_hint(const json_t *state, const char *agent)
{
	const json_t *fb = json_object_get(state, "reviewFeedback"), *s;
	char *out = NULL, *next;
	size_t i;

	if (strcmp(json_string_value(json_object_get(fb, "rerouteTarget")) ?: "", agent) != 0)
		return NULL;
	json_array_foreach(json_object_get(fb, "suggestions"), i, s) {
		next = xasprintf("%s%s%s", out ? out : "", out ? "；" : "", json_string_value(s) ?: "");
		free(out);
		out = next;
	}
	if (out == NULL)
		out = xasprintf("审核认为 %s 未达标", json_string_value(json_object_get(fb, "dimension")) ?: "");
	return out;
}

const char *note_feedback(const struct step_ctx *c)
{
	const char *f = json_string_value(json_object_get(json_object_get(c->resume, "payload"),
							  "feedback"));

	return f && *f ? f : NULL;
}

const char *note_decision(const struct step_ctx *c, const char *kind)
{
	const char *k = json_string_value(json_object_get(c->resume, "kind"));

	if (c->resume == NULL || k == NULL || strcmp(k, kind) != 0)
		return NULL;
	return json_string_value(json_object_get(c->resume, "action"));
}

enum node_rc note_abort(struct step_ctx *c, const char *code, const char *reason)
{
	json_t *ev = note_event(c, "supervisor_decision", "supervisor");

	note_creative_status(c->state, "aborted", code);
	json_object_set_new(c->state, "lastError", json_pack("{s:s, s:s, s:s, s:b}", "code", code,
							     "message", reason, "agent", c->node,
							     "severe", 1));
	json_object_set_new(ev, "decision", json_string("END"));
	json_object_set_new(ev, "reason", json_string(reason));
	json_object_set_new(ev, "source", json_string("rules"));
	step_emit(c, ev);
	step_fail(c, code, "%s", reason);
	return NODE_ABORT;
}
