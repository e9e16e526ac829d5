/* How a note reads, as a feedback asks (note_feedback.h): who it is for,
 * said in the opening; its points numbered as a list or as steps; its
 * tone, in the closing line and the headings, from a small table of
 * tones with their own wording; and the checks that tell whether a draft
 * does what each kind of item asks (note_feedback_true_edit). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/phrase.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/note/note_feedback_int.h"

#define NOTE_FEEDBACK_N(a) (sizeof(a) / sizeof((a)[0]))

/* The tones (note_feedback_tone_group's order): the closing line, the
 * mark the headings end with ("" for none), and the words a report uses. */
static const struct {
	const char *closing_zh, *closing_en, *mark, *name_zh, *name_en;
} note_feedback_tone_rows[] = {
	{ "姐妹们冲就完事了！有问题评论区见，看到都会回～",
	  "That's it: go try one this week and tell me how it went! 🙌", " ✨", "活泼", "lively" },
	{ "以上内容供参考，具体请结合自身情况判断。",
	  "The points above are for reference; adapt them to your own situation.", "", "正式", "formal" },
	{ "慢慢来，找到适合自己的节奏就好，祝你一切顺利 🌿",
	  "Take it slowly and find the pace that suits you. Wishing you well 🌿", " 🌿", "温柔", "warm" },
	{ "以上就是全部要点，建议收藏，用的时候对照着做。",
	  "That's all of it. Save this and check it off as you go.", "", "干脆", "direct" },
};

/* ---- audience ---- */

/* The opening with who it is for: its 特别适合… clause replaced, or one
 * added before its full stop. The caller frees it. */
static char *note_feedback_opening_for(const struct note_feedback_run *r, const char *text, const char *who)
{
	const char *at = strstr(text, r->zh ? "特别适合" : " — written for ");
	size_t n = strlen(text);

	if (at) {
		const char *end = strstr(at, r->zh ? "。" : ",");

		if (end == NULL)
			end = text + n;
		return xasprintf("%.*s%s%s%s", (int)(at - text), text, r->zh ? "特别适合" : " — written for ", who, end);
	}
	if (r->zh && n >= 3 && strcmp(text + n - 3, "。") == 0)
		return xasprintf("%.*s，特别适合%s。", (int)(n - 3), text, who);
	return r->zh ? xasprintf("%s，特别适合%s。", text, who) : xasprintf("%s Written for %s.", text, who);
}

json_t *note_feedback_do_audience(struct note_feedback_run *r, const json_t *item)
{
	const char *who = json_string_value(json_object_get(item, "arg")) ?: "";
	const struct note_feedback_par *first = r->body.n ? &r->body.p[0] : NULL;
	char *t;

	if (note_feedback_true_edit(r, item))
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.audience.already", who));
	if (first && !first->locked && !first->fresh && !note_feedback_is_section(first->text)) {
		t = note_feedback_opening_for(r, first->text, who);
		note_feedback_body_set(&r->body, 0, t);
	} else {
		/* The person's opening stays theirs: a line of its own above it. */
		t = r->zh ? xasprintf("这篇写给%s。", who) : xasprintf("Written for %s.", who);
		note_feedback_body_insert(&r->body, 0, t, 1);
	}
	free(t);
	return note_feedback_said(1, note_feedback_msg(r, "note.fb.audience.done", who));
}

/* ---- format ---- */

static const char *const note_feedback_circled[] = { "①", "②", "③", "④", "⑤", "⑥", "⑦", "⑧", "⑨", "⑩" };

/* The length of a list or step marker at the start of line (① • - 1. 1、
 * 1) 第1步： Step 1:), 0 for none; *step when it is a step's. */
size_t note_feedback_marker(const char *line, int *step)
{
	static const char *const bullets[] = { "• ", "· ", "- ", "* ", "•", "·" };
	const char *p = line;

	*step = 0;
	for (size_t i = 0; i < NOTE_FEEDBACK_N(note_feedback_circled); i++)
		if (strncmp(line, note_feedback_circled[i], strlen(note_feedback_circled[i])) == 0)
			return strlen(note_feedback_circled[i]) + (line[3] == ' ');
	for (size_t i = 0; i < NOTE_FEEDBACK_N(bullets); i++)
		if (strncmp(line, bullets[i], strlen(bullets[i])) == 0)
			return strlen(bullets[i]);
	if (strncmp(p, "第", 3) == 0 || strncmp(p, "Step ", 5) == 0) {
		p += *p == 'S' ? 5 : 3;
		while (*p >= '0' && *p <= '9')
			p++;
		if (p > line + 3 && strncmp(p, "步：", strlen("步：")) == 0)
			return *step = 1, (size_t)(p - line) + strlen("步：");
		if (p > line + 5 && *p == ':')
			return *step = 1, (size_t)(p - line) + 1 + (p[1] == ' ');
		return 0;
	}
	while (*p >= '0' && *p <= '9')
		p++;
	if (p == line || p - line > 2)
		return 0;
	if (strncmp(p, "、", 3) == 0 || strncmp(p, "）", 3) == 0)
		return (size_t)(p - line) + 3;
	if ((*p == '.' || *p == ')') && p[1] == ' ')
		return (size_t)(p - line) + 2;
	return 0;
}

/* 1 when every point of the writer's sections has the marker of fmt
 * (and there is at least one); *sections counts them, *mine those the
 * person wrote. */
static int note_feedback_marked(const struct note_feedback_run *r, const char *fmt, size_t *sections,
				size_t *mine)
{
	int all = 1, step;

	*sections = *mine = 0;
	for (size_t i = 0; i < r->body.n; i++) {
		json_t *lines;
		const json_t *l;
		size_t j;

		if (!note_feedback_is_section(r->body.p[i].text))
			continue;
		if (r->body.p[i].locked) {
			(*mine)++;
			continue;
		}
		(*sections)++;
		lines = note_feedback_lines(r->body.p[i].text);
		json_array_foreach(lines, j, l) {
			const char *s = json_string_value(l);

			if (j == 0 || note_feedback_is_credit(s))
				continue;
			all &= note_feedback_marker(s, &step) > 0 && (strcmp(fmt, "steps") != 0 || step);
		}
		json_decref(lines);
	}
	return all && *sections > 0;
}

/* A section with its points numbered as fmt asks. The caller frees it. */
static char *note_feedback_numbered(const struct note_feedback_run *r, const char *text, const char *fmt)
{
	json_t *lines = note_feedback_lines(text), *out = json_array(), *l;
	size_t i, no = 0;
	int step;
	char *t;

	json_array_foreach(lines, i, l) {
		const char *s = json_string_value(l);

		if (i == 0 || note_feedback_is_credit(s) || *s == '\0') {
			json_array_append(out, l);
			continue;
		}
		s += note_feedback_marker(s, &step);
		no++;
		if (strcmp(fmt, "steps") == 0)
			t = r->zh ? xasprintf("第%zu步：%s", no, s) : xasprintf("Step %zu: %s", no, s);
		else if (no <= NOTE_FEEDBACK_N(note_feedback_circled))
			t = xasprintf("%s %s", note_feedback_circled[no - 1], s);
		else
			t = xasprintf("• %s", s);
		json_array_append_new(out, json_string(t));
		free(t);
	}
	t = note_feedback_join(out);
	json_decref(lines);
	json_decref(out);
	return t;
}

/* 1 when the body has a table: two lines or more with two | or more. */
static int note_feedback_has_table(const struct note_feedback_run *r)
{
	size_t rows = 0;

	for (size_t i = 0; i < r->body.n; i++) {
		json_t *lines = note_feedback_lines(r->body.p[i].text), *l;
		size_t j;

		json_array_foreach(lines, j, l) {
			const char *s = json_string_value(l), *a = strchr(s, '|');

			rows += a && strchr(a + 1, '|');
		}
		json_decref(lines);
	}
	return rows >= 2;
}

json_t *note_feedback_do_format(struct note_feedback_run *r, const json_t *item)
{
	const char *fmt = json_string_value(json_object_get(item, "arg")) ?: "list";
	size_t sections, mine;

	if (strcmp(fmt, "table") == 0)
		return note_feedback_has_table(r) ? note_feedback_said(1, note_feedback_msg(r, "note.fb.format.already"))
			: note_feedback_said(0, note_feedback_msg(r, "note.fb.format.table"));
	if (note_feedback_marked(r, fmt, &sections, &mine))
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.format.already"));
	if (sections == 0)
		return note_feedback_said(0, note_feedback_msg(r, mine ? "note.fb.format.locked" : "note.fb.format.none"));
	for (size_t i = 0; i < r->body.n; i++)
		if (!r->body.p[i].locked && note_feedback_is_section(r->body.p[i].text)) {
			char *t = note_feedback_numbered(r, r->body.p[i].text, fmt);

			note_feedback_body_set(&r->body, i, t);
			free(t);
		}
	return note_feedback_said(1, note_feedback_msg(r, strcmp(fmt, "steps") == 0 ? "note.fb.format.steps"
						       : "note.fb.format.list", mine ? msg_get(r->lang, "note.fb.format.kept") : ""));
}

/* ---- tone ---- */

static const char *note_feedback_closing_of(const struct note_feedback_run *r, int g)
{
	return r->zh ? note_feedback_tone_rows[g].closing_zh : note_feedback_tone_rows[g].closing_en;
}

/* A heading without the marks of the tones, and with mark. The caller
 * frees it. */
static char *note_feedback_heading_marked(const char *head, const char *mark)
{
	char *h = xstrdup(head);
	size_t n = strlen(h);

	for (size_t g = 0; g < NOTE_FEEDBACK_N(note_feedback_tone_rows); g++) {
		size_t l = strlen(note_feedback_tone_rows[g].mark);

		if (l && n >= l && strcmp(h + n - l, note_feedback_tone_rows[g].mark) == 0)
			h[n -= l] = '\0';
	}
	{
		char *out = xasprintf("%s%s", h, mark);

		free(h);
		return out;
	}
}

/* Marks the writer's headings with the tone's mark; how many changed. */
static size_t note_feedback_mark_headings(struct note_feedback_run *r, const char *mark)
{
	size_t changed = 0;

	for (size_t i = 0; i < r->body.n; i++) {
		const char *text = r->body.p[i].text, *nl = strchr(text, '\n');
		char *head, *marked, *t;

		if (r->body.p[i].locked || !note_feedback_is_section(text))
			continue;
		head = xstrndup(text, (size_t)(nl - text));
		marked = note_feedback_heading_marked(head, mark);
		if (strcmp(marked, head) != 0) {
			t = xasprintf("%s%s", marked, nl);
			note_feedback_body_set(&r->body, i, t);
			free(t);
			changed++;
		}
		free(head);
		free(marked);
	}
	return changed;
}

json_t *note_feedback_do_tone(struct note_feedback_run *r, const json_t *item)
{
	int g = note_feedback_tone_group(json_string_value(json_object_get(item, "arg")));
	const char *closing, *name, *mark;
	size_t at, marked;
	char *how;
	json_t *e;

	if (g < 0)
		g = 0;
	closing = note_feedback_closing_of(r, g);
	name = r->zh ? note_feedback_tone_rows[g].name_zh : note_feedback_tone_rows[g].name_en;
	mark = note_feedback_tone_rows[g].mark;
	marked = note_feedback_mark_headings(r, mark);
	at = note_feedback_closing(r);
	if (at < r->body.n && strcmp(r->body.p[at].text, closing) == 0 && marked == 0)
		return note_feedback_said(1, note_feedback_msg(r, "note.fb.tone.already", name, closing));
	if (at < r->body.n)
		note_feedback_body_set(&r->body, at, closing);
	else
		note_feedback_body_insert(&r->body, r->body.n, closing, 1);
	how = marked == 0 ? xstrdup("") : *mark ? note_feedback_msg(r, "note.fb.tone.marked", mark)
		: note_feedback_msg(r, "note.fb.tone.unmarked");
	e = note_feedback_said(1, note_feedback_msg(r, "note.fb.tone.done", name, closing, how));
	free(how);
	return e;
}

/* ---- what a draft does ---- */

int note_feedback_true_edit(struct note_feedback_run *r, const json_t *item)
{
	const char *kind = json_string_value(json_object_get(item, "kind")) ?: "";
	const char *arg = json_string_value(json_object_get(item, "arg")) ?: "";
	const json_t *now = note_feedback_now(r);
	const char *body = json_string_value(json_object_get(now, "body")) ?: "";
	size_t before = note_feedback_before(r, item), sections, mine;
	int ok = 0;

	if (strcmp(kind, "shorter") == 0)
		return phrase_chars(body) < before;
	if (strcmp(kind, "longer") == 0)
		return phrase_chars(body) > before;
	if (strcmp(kind, "add") == 0)
		return phrase_has(body, arg) || phrase_has(json_string_value(json_object_get(now, "title")), arg);
	if (strcmp(kind, "more") == 0) {
		json_t *terms = note_feedback_terms(item);
		const char *was = json_string_value(json_object_get(r->prev ? r->prev : r->entry, "body")) ?: "";
		const json_t *base = json_object_get(item, "base");

		ok = note_feedback_lines_having(body, terms) > (json_is_integer(base) ? (size_t)json_integer_value(base)
								: note_feedback_lines_having(was, terms));
		json_decref(terms);
		return ok;
	}
	if (strcmp(kind, "audience") == 0)
		return r->body.n > 0 && phrase_has(r->body.p[0].text, arg);
	if (strcmp(kind, "format") == 0)
		return strcmp(arg, "table") == 0 ? note_feedback_has_table(r) : note_feedback_marked(r, arg, &sections, &mine);
	if (strcmp(kind, "tone") == 0) {
		int g = note_feedback_tone_group(arg);

		return g >= 0 && r->body.n > 0 && strcmp(r->body.p[r->body.n - 1].text, note_feedback_closing_of(r, g)) == 0;
	}
	return 0;
}
