/* The offline agents that work on the results of other stages: the
 * documenter (a summary of the inputs in the run's language), the
 * coordinator (the inputs' states), the evaluator (how complete each
 * input is), the debugger (error messages in the inputs' text and the
 * attached text files) and the architect (modules from the files' folders
 * and functions). */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/jnum.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

static int orch_skipped(const json_t *ctx)
{
	const char *st = json_string_value(json_object_get(ctx, "status"));

	return json_is_true(json_object_get(ctx, "skipped")) || (st && strcmp(st, "skipped") == 0);
}

static const char *orch_agent_of(const json_t *ctx)
{
	const char *a = json_string_value(json_object_get(json_object_get(ctx, "metadata"), "agentId"));

	if (a == NULL)   /* a skipped input names its agent beside its status */
		a = json_string_value(json_object_get(ctx, "agent"));
	return a ? a : "?";
}

/* The first sentence of text (a line, or up to 。 or ". ") without its
 * full stop, at most about 200 bytes, cut on a character boundary:
 * caller frees. */
static char *orch_first_sentence(const char *text)
{
	size_t n, cut;

	/* A heading or a blank line is not the sentence that says what was done. */
	while (*text == '#' || *text == '\n') {
		text += strcspn(text, "\n");
		text += *text == '\n';
	}
	n = strcspn(text, "\n");
	const char *stop = strstr(text, "。"), *dot = strstr(text, ". ");

	if (stop && (size_t)(stop - text) + 3 < n)
		n = (size_t)(stop - text) + 3;
	if (dot && (size_t)(dot - text) + 1 < n)
		n = (size_t)(dot - text) + 1;
	cut = n > 200 ? 200 : n;
	while (cut > 0 && cut < n && ((unsigned char)text[cut] & 0xc0) == 0x80)
		cut--;
	if (cut > 0 && text[cut - 1] == '.')
		cut--;
	else if (cut >= 3 && memcmp(text + cut - 3, "。", 3) == 0)
		cut -= 3;
	return xstrndup(text, cut);
}

static int orch_all_skipped(const json_t *inputs)
{
	const char *id;
	json_t *ctx;

	json_object_foreach((json_t *)inputs, id, ctx)
		if (!orch_skipped(ctx))
			return 0;
	return 1;
}

/* Whether the sentence already says the number n (a count not to repeat). */
static int orch_says_number(const char *said, size_t n)
{
	char num[32];
	const char *p;

	snprintf(num, sizeof num, "%zu", n);
	for (p = strstr(said, num); p; p = strstr(p + 1, num))
		if ((p == said || !isdigit((unsigned char)p[-1])) && !isdigit((unsigned char)p[strlen(num)]))
			return 1;
	return 0;
}

/* Whether the sentence already names every file. */
static int orch_says_files(const char *said, const json_t *files)
{
	size_t i;
	json_t *f;

	json_array_foreach(files, i, f)
		if (!strstr(said, orch_fact_str(f, "path")))
			return 0;
	return 1;
}

static void orch_doc_counts(struct buf *b, const char *lang, const json_t *ctx, const char *said)
{
	const json_t *sd = json_object_get(ctx, "structuredData");
	static const struct { const char *key, *id; } counts[] = {
		{ "issues", "doc_issues" }, { "textRegions", "doc_regions" }, { "elements", "doc_elements" },
	};
	json_t *files = json_object_get(ctx, "generatedFiles"), *f;
	size_t i;

	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		json_t *arr = json_object_get(sd, counts[i].key);
		char *w;

		if (!json_is_array(arr) || orch_says_number(said, json_array_size(arr)))
			continue;
		w = orch_sayf(lang, counts[i].id, (int)json_array_size(arr));
		buf_printf(b, "%s%s", orch_say(lang, "doc_sep"), w);
		free(w);
	}
	if (json_array_size(files) > 0 && !orch_says_files(said, files)) {
		struct buf names;
		char *w;

		buf_init(&names, 1 << 16);
		json_array_foreach(files, i, f)
			buf_printf(&names, "%s%s", i ? ", " : "", orch_fact_str(f, "path"));
		w = orch_sayf(lang, "doc_files", names.data);
		buf_printf(b, "%s%s", orch_say(lang, "doc_sep"), w);
		free(w);
		buf_free(&names);
	}
}

json_t *orch_rules_documenter(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *id;
	json_t *inputs = json_object_get(facts, "inputs"), *ctx, *a;
	struct buf b;
	char *line, *note;

	if (json_object_size(inputs) == 0)
		return orch_decline(lang, orch_say(lang, "doc_none"));
	if (orch_all_skipped(inputs))
		return orch_decline(lang, orch_say(lang, "doc_all_skipped"));
	buf_init(&b, 1 << 20);
	line = orch_sayf(lang, "doc_task", orch_fact_str(facts, "task"));
	buf_printf(&b, "%s\n\n%s\n\n", orch_say(lang, "doc_title"), line);
	free(line);
	json_object_foreach(inputs, id, ctx) {
		const char *why = json_string_value(json_object_get(ctx, "reason"));
		char *first = !orch_skipped(ctx) ? orch_first_sentence(orch_fact_str(ctx, "textOutput"))
			      : why && *why ? orch_sayf(lang, "doc_skipped_why", why)
			      : xstrdup(orch_say(lang, "doc_skipped"));

		line = orch_sayf(lang, "doc_stage", id, orch_agent_of(ctx), first);
		buf_adds(&b, line);
		if (!orch_skipped(ctx))
			orch_doc_counts(&b, lang, ctx, first);
		buf_adds(&b, "\n");
		free(line);
		free(first);
	}
	note = orch_sayf(lang, "offline", orch_say(lang, "doc_cannot"));
	a = orch_answer_data(b.data, NULL, note);
	free(note);
	buf_free(&b);
	return a;
}

/* The line of one input in a merge: its first sentence, or why it has no
 * result. Caller frees. */
static char *orch_merge_line(const char *lang, const char *id, const json_t *ctx)
{
	const char *why = json_string_value(json_object_get(ctx, "reason"));
	char *first = !orch_skipped(ctx) ? orch_first_sentence(orch_fact_str(ctx, "textOutput"))
		      : why && *why ? orch_sayf(lang, "doc_skipped_why", why)
		      : xstrdup(orch_say(lang, "doc_skipped"));
	char *line = orch_sayf(lang, "coord_line", id, orch_agent_of(ctx), first);

	free(first);
	return line;
}

/* Without inputs the coordinator is the only step: the task is outside
 * every agent's field, and it says so. */
static json_t *orch_coord_alone(const json_t *facts, const char *lang)
{
	const char *task = orch_fact_str(facts, "task");
	size_t n = strcspn(task, "\n");
	char *head, *why;
	json_t *a;

	if (n > 120) {
		n = 120;
		while (n > 0 && ((unsigned char)task[n] & 0xc0) == 0x80)
			n--;
	}
	head = xstrndup(task, n);
	why = orch_sayf(lang, "coord_none", head);
	a = orch_decline(lang, why);
	free(why);
	free(head);
	return a;
}

json_t *orch_rules_coordinator(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *id;
	json_t *inputs = json_object_get(facts, "inputs"), *ctx, *list = json_array(), *data, *a;
	struct buf b, why;
	int missing = 0;
	char *lead, *note, *line;

	if (json_object_size(inputs) == 0) {
		json_decref(list);
		return orch_coord_alone(facts, lang);
	}
	buf_init(&b, 1 << 20);
	buf_init(&why, 1 << 16);
	lead = orch_sayf(lang, "coord_merged", (int)json_object_size(inputs));
	buf_printf(&b, "%s\n\n", lead);
	free(lead);
	json_object_foreach(inputs, id, ctx) {
		json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:b, s:i}", "stageId", id,
			"agent", orch_agent_of(ctx), "status", orch_skipped(ctx) ? "skipped" : "done",
			"structured", json_object_get(ctx, "structuredData") != NULL,
			"files", (int)json_array_size(json_object_get(ctx, "generatedFiles"))));
		line = orch_merge_line(lang, id, ctx);
		buf_printf(&b, "%s\n", line);
		if (orch_skipped(ctx))
			buf_printf(&why, "%s%s", missing++ ? orch_say(lang, "list_sep") : "", id);
		free(line);
	}
	if (missing == (int)json_object_size(inputs)) {
		char *w = orch_sayf(lang, "coord_all_skipped", why.data);

		a = orch_decline(lang, w);
		free(w);
	} else {
		if (missing) {
			line = orch_sayf(lang, "coord_missing", missing);
			buf_printf(&b, "\n%s", line);
			free(line);
		}
		data = json_pack("{s:O}", "inputs", list);
		note = orch_sayf(lang, "offline", orch_say(lang, "coord_cannot"));
		a = orch_answer_data(b.data, data, note);
		json_decref(data);
		free(note);
	}
	json_decref(list);
	buf_free(&b);
	buf_free(&why);
	return a;
}

/* A score as people write it: 0 and 1 whole, others to two places. New
 * reference. */
static json_t *orch_jscore(double v)
{
	v = jnum_round(v, JNUM_SCORE);
	return v == (double)(long long)v ? json_integer((json_int_t)v) : json_real(v);
}

/* How complete one input is: text 0.4, structured data 0.4, metadata 0.2. */
static json_t *orch_eval_one(const char *id, const json_t *ctx, double *score)
{
	json_t *missing = json_array();
	const char *t = json_string_value(json_object_get(ctx, "textOutput"));

	*score = 0;
	if (orch_skipped(ctx)) {
		json_array_append_new(missing, json_string("skipped"));
	} else {
		if (t && *t)
			*score += 0.4;
		else
			json_array_append_new(missing, json_string("textOutput"));
		if (json_object_get(ctx, "structuredData"))
			*score += 0.4;
		else
			json_array_append_new(missing, json_string("structuredData"));
		if (json_object_get(ctx, "metadata"))
			*score += 0.2;
		else
			json_array_append_new(missing, json_string("metadata"));
	}
	return json_pack("{s:s, s:o, s:o}", "stageId", id, "score", orch_jscore(*score),
			 "missing", missing);
}

json_t *orch_rules_evaluator(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *id;
	json_t *ctx, *scores = json_array(), *data, *a;
	double sum = 0, s, overall;
	char *lead, *note, num[32];

	if (json_object_size(json_object_get(facts, "inputs")) == 0) {
		json_decref(scores);
		return orch_decline(lang, orch_say(lang, "eval_none"));
	}
	json_object_foreach(json_object_get(facts, "inputs"), id, ctx) {
		json_array_append_new(scores, orch_eval_one(id, ctx, &s));
		sum += s;
	}
	overall = json_array_size(scores) ? sum / (double)json_array_size(scores) : 0;
	overall = jnum_round(overall, JNUM_SCORE);
	data = json_pack("{s:o, s:o}", "scores", scores, "overall", orch_jscore(overall));
	lead = orch_sayf(lang, "eval_done", (int)json_array_size(scores),
			 orch_num(num, sizeof num, overall));
	note = orch_sayf(lang, "offline", orch_say(lang, "eval_cannot"));
	a = orch_answer_data(lead, data, note);
	json_decref(data);
	free(lead);
	free(note);
	return a;
}
