/* The local corpus of notes ([kb] notes, etc/notes.json) and what the
 * research tools compute from it: notes matching a query (BM25 over
 * titles, tags and bodies), the tags the matching notes use most, the
 * most liked titles and how titles are written, and notes and likes by
 * month. The aggregates are pure functions of the notes given, so they
 * are tested on tables; the corpus is kept on the worker's shelf, as the
 * style library is (kb/shelf.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/retrieve.h"
#include "kb/shelf.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xmalloc.h"
#include "wf/note/note.h"
#include "util/jnum.h"

#define NOTE_SEARCH_MIN 0.05

static const struct kb_field note_corpus_fields[] = {
	{ "title", 3, KB_SHOW | KB_REQUIRED },
	{ "tags", 2, KB_SHOW | KB_REQUIRED },
	{ "body", 1, KB_REQUIRED },
	{ NULL, 0, 0 },
};

static int note_date_ok(const char *d)
{
	int y, m, day;
	char tail;

	if (d == NULL || strlen(d) != 10 || d[4] != '-' || d[7] != '-' ||
	    sscanf(d, "%4d-%2d-%2d%c", &y, &m, &day, &tail) != 3)
		return 0;
	return y >= 1970 && m >= 1 && m <= 12 && day >= 1 && day <= 31;
}

int note_corpus_check(const json_t *docs, char *err, size_t errlen)
{
	size_t i;
	json_t *d;

	json_array_foreach(docs, i, d) {
		json_t *likes = json_object_get(d, "likes");
		const char *id = json_string_value(json_object_get(d, "id")) ?: "?";

		if (!json_is_integer(likes) || json_integer_value(likes) < 0)
			return snprintf(err, errlen, "note %zu (%s): \"likes\" must be a whole number >= 0",
					i + 1, id), -1;
		if (!note_date_ok(json_string_value(json_object_get(d, "date"))))
			return snprintf(err, errlen, "note %zu (%s): \"date\" must be YYYY-MM-DD", i + 1,
					id), -1;
	}
	return 0;
}

static const char *note_corpus_path(const struct conf *c)
{
	return c->kb_notes;
}

const struct kb_def note_corpus_def = {
	.name = "notes corpus",
	.file = "notes.json",
	.path = note_corpus_path,
	.fields = note_corpus_fields,
	.check = note_corpus_check,
};

json_t *note_corpus_search(struct app *app, struct kb *kb, const char *query, size_t limit,
			   struct kb_retrieve_info *info)
{
	json_t *hits = kb_retrieve(app, kb, query ? query : "", limit, NOTE_SEARCH_MIN, info);
	json_t *out = json_array();
	json_t *h;
	size_t i;

	json_array_foreach(hits, i, h) {
		json_t *doc = kb_find(kb, json_string_value(json_object_get(h, "id")));

		if (doc) {
			json_t *d = json_deep_copy(doc);

			json_object_set(d, "similarity", json_object_get(h, "similarity"));
			json_object_set(d, "method", json_object_get(h, "method"));
			json_object_set(d, "scores", json_object_get(h, "scores"));
			json_array_append_new(out, d);
		}
	}
	json_decref(hits);
	return out;
}

static int note_has_tag(const json_t *doc, const char *tag)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(doc, "tags"), i, t)
		if (json_is_string(t) && strcmp(json_string_value(t), tag) == 0)
			return 1;
	return 0;
}

json_t *note_corpus_by_tag(const struct kb *kb, const char *tag, size_t limit)
{
	json_t *out = json_array(), *d;
	size_t i;

	json_array_foreach(kb_items(kb), i, d)
		if (json_array_size(out) < limit && tag && note_has_tag(d, tag))
			json_array_append_new(out, json_deep_copy(d));
	return out;
}

/* ---- aggregates ---- */

struct note_tagc {
	const char *tag;
	json_int_t count, likes;
};

static int note_tagc_cmp(const void *a, const void *b)
{
	const struct note_tagc *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	if (x->likes != y->likes)
		return x->likes < y->likes ? 1 : -1;
	return strcmp(x->tag, y->tag);
}

json_t *note_corpus_top_tags(const json_t *notes, size_t limit)
{
	json_t *acc = json_object(), *d, *t, *v, *out = json_array();
	struct note_tagc *arr;
	size_t i, j, n = 0;
	const char *k;

	json_array_foreach(notes, i, d) {
		json_t *seen = json_object();

		json_array_foreach(json_object_get(d, "tags"), j, t) {
			if (!json_is_string(t) || json_object_get(seen, json_string_value(t)))
				continue;
			json_object_set_new(seen, json_string_value(t), json_true());
			v = json_object_get(acc, json_string_value(t));
			if (v == NULL)
				json_object_set_new(acc, json_string_value(t), v = json_pack("{s:I, s:I}",
							"count", (json_int_t)0, "likes", (json_int_t)0));
			json_object_set_new(v, "count", json_integer(json_integer_value(json_object_get(v,
									"count")) + 1));
			json_object_set_new(v, "likes", json_integer(json_integer_value(json_object_get(v,
				"likes")) + json_integer_value(json_object_get(d, "likes"))));
		}
		json_decref(seen);
	}
	arr = xcalloc(json_object_size(acc) + 1, sizeof *arr);
	json_object_foreach(acc, k, v)
		arr[n++] = (struct note_tagc){ k, json_integer_value(json_object_get(v, "count")),
					       json_integer_value(json_object_get(v, "likes")) };
	qsort(arr, n, sizeof *arr, note_tagc_cmp);
	for (i = 0; i < n && i < limit; i++)
		json_array_append_new(out, json_pack("{s:s, s:I, s:I}", "tag", arr[i].tag, "count",
						     arr[i].count, "likes", arr[i].likes));
	free(arr);
	json_decref(acc);
	return out;
}

static double note_share(size_t part, size_t whole)
{
	return whole ? jnum_round((double)part / (double)whole, JNUM_SCORE) : 0;
}

static int note_by_likes(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t lx = json_integer_value(json_object_get(x, "likes"));
	json_int_t ly = json_integer_value(json_object_get(y, "likes"));

	if (lx != ly)
		return lx < ly ? 1 : -1;
	return strcmp(json_string_value(json_object_get(x, "id")) ?: "",
		      json_string_value(json_object_get(y, "id")) ?: "");
}

static int note_has_any(const char *s, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (strstr(s, words[i]))
			return 1;
	return 0;
}

static json_t *note_title_patterns(const json_t *notes)
{
	static const char *const digits[] = { "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", NULL };
	static const char *const seps[] = { "｜", "|", "：", ":", NULL };
	static const char *const excl[] = { "！", "!", NULL };
	static const char *const ques[] = { "？", "?", NULL };
	size_t n = json_array_size(notes), i, chars = 0, num = 0, sep = 0, ex = 0, q = 0;
	json_t *d;

	json_array_foreach(notes, i, d) {
		const char *t = json_string_value(json_object_get(d, "title")) ?: "";

		for (const char *p = t; *p; p++)
			chars += ((unsigned char)*p & 0xC0) != 0x80;
		num += note_has_any(t, digits);
		sep += note_has_any(t, seps);
		ex += note_has_any(t, excl);
		q += note_has_any(t, ques);
	}
	return json_pack("{s:I, s:f, s:f, s:f, s:f, s:f}", "count", (json_int_t)n, "avgChars",
			 n ? jnum_round((double)chars / (double)n, 1) : 0.0,
			 "withNumber", note_share(num, n), "withSeparator", note_share(sep, n),
			 "withExclamation", note_share(ex, n), "withQuestion", note_share(q, n));
}

json_t *note_corpus_top_titles(const json_t *notes, size_t limit)
{
	size_t n = json_array_size(notes), i;
	json_t **arr = xcalloc(n + 1, sizeof *arr), *titles = json_array();

	for (i = 0; i < n; i++)
		arr[i] = json_array_get(notes, i);
	qsort(arr, n, sizeof *arr, note_by_likes);
	for (i = 0; i < n && i < limit; i++)
		json_array_append_new(titles, json_pack("{s:O, s:O, s:O}", "id", json_object_get(arr[i],
			"id"), "title", json_object_get(arr[i], "title"), "likes",
			json_object_get(arr[i], "likes")));
	free(arr);
	return json_pack("{s:o, s:o}", "titles", titles, "patterns", note_title_patterns(notes));
}

static int note_strcmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Notes and likes per "YYYY-MM", in order. */
static json_t *note_months(const json_t *notes)
{
	json_t *acc = json_object(), *d, *v, *out = json_array();
	const char **keys;
	size_t i, n = 0;
	const char *k;

	json_array_foreach(notes, i, d) {
		char month[8];

		snprintf(month, sizeof month, "%.7s", json_string_value(json_object_get(d, "date")) ?: "");
		if (strlen(month) != 7)
			continue;
		v = json_object_get(acc, month);
		if (v == NULL)
			json_object_set_new(acc, month, v = json_pack("{s:s, s:I, s:I}", "month", month,
							"notes", (json_int_t)0, "likes", (json_int_t)0));
		json_object_set_new(v, "notes", json_integer(json_integer_value(json_object_get(v,
								"notes")) + 1));
		json_object_set_new(v, "likes", json_integer(json_integer_value(json_object_get(v,
			"likes")) + json_integer_value(json_object_get(d, "likes"))));
	}
	keys = xcalloc(json_object_size(acc) + 1, sizeof *keys);
	json_object_foreach(acc, k, v)
		keys[n++] = k;
	qsort(keys, n, sizeof *keys, note_strcmp);
	for (i = 0; i < n; i++)
		json_array_append(out, json_object_get(acc, keys[i]));
	free(keys);
	json_decref(acc);
	return out;
}

/* The month of the year most notes fall in. */
static json_t *note_season(const json_t *notes)
{
	size_t by[13] = { 0 }, i, best = 0, n = 0;
	json_t *d;

	json_array_foreach(notes, i, d) {
		const char *date = json_string_value(json_object_get(d, "date"));
		int m = date && strlen(date) >= 7 ? atoi(date + 5) : 0;

		if (m >= 1 && m <= 12)
			by[m]++, n++;
	}
	for (int m = 1; m <= 12; m++)
		if (by[m] > by[best])
			best = (size_t)m;
	if (best == 0)
		return json_null();
	return json_pack("{s:i, s:I, s:f}", "month", (int)best, "notes", (json_int_t)by[best], "share",
			 note_share(by[best], n));
}

/* Average likes of the notes of the last twelve months (from the newest
 * note's month) against those before. */
static const char *note_trend_word(const json_t *months, double *recent, double *earlier)
{
	size_t n = json_array_size(months), i, rn = 0, en = 0;
	const char *last = n ? json_string_value(json_object_get(json_array_get(months, n - 1),
								  "month")) : NULL;
	char cut[24];
	double rl = 0, el = 0;
	json_t *m;

	*recent = *earlier = 0;
	if (last == NULL)
		return "insufficient";
	snprintf(cut, sizeof cut, "%04d-%.2s", atoi(last) - 1, last + 5);
	json_array_foreach(months, i, m) {
		const char *k = json_string_value(json_object_get(m, "month"));
		size_t cnt = (size_t)json_integer_value(json_object_get(m, "notes"));
		double likes = (double)json_integer_value(json_object_get(m, "likes"));

		if (strcmp(k, cut) > 0)
			rn += cnt, rl += likes;
		else
			en += cnt, el += likes;
	}
	if (rn == 0 || en == 0)
		return "insufficient";
	*recent = (double)(long)(rl / (double)rn + 0.5);
	*earlier = (double)(long)(el / (double)en + 0.5);
	return *recent > *earlier * 1.2 ? "rising" : *recent < *earlier * 0.8 ? "falling" : "steady";
}

json_t *note_corpus_trend(const json_t *notes)
{
	json_t *months = note_months(notes), *m, *peak = json_null();
	json_int_t best = -1;
	double recent, earlier;
	const char *word = note_trend_word(months, &recent, &earlier);
	size_t i;

	json_array_foreach(months, i, m)
		if (json_integer_value(json_object_get(m, "likes")) > best) {
			best = json_integer_value(json_object_get(m, "likes"));
			peak = json_object_get(m, "month");
		}
	return json_pack("{s:I, s:O, s:o, s:s, s:f, s:f, s:o}", "sampleSize",
			 (json_int_t)json_array_size(notes), "peakMonth", peak, "seasonPeak",
			 note_season(notes), "trend", word, "recentAvgLikes", recent, "earlierAvgLikes",
			 earlier, "months", months);
}

/* ---- relevance ---- */

/* Whether the note's title, tags or body has the word (ASCII case
 * ignored). */
static int note_doc_has(const json_t *doc, const char *word)
{
	size_t i;
	json_t *t;

	if (word == NULL || *word == '\0')
		return 0;
	if (strcasestr(json_string_value(json_object_get(doc, "title")) ?: "", word) ||
	    strcasestr(json_string_value(json_object_get(doc, "body")) ?: "", word))
		return 1;
	json_array_foreach(json_object_get(doc, "tags"), i, t)
		if (json_is_string(t) && strcasestr(json_string_value(t), word))
			return 1;
	return 0;
}

json_t *note_corpus_having(const struct kb *kb, const char *word, size_t limit)
{
	json_t *out = json_array(), *d;
	size_t i;

	json_array_foreach(kb_items(kb), i, d)
		if (json_array_size(out) < limit && note_doc_has(d, word))
			json_array_append_new(out, json_deep_copy(d));
	return out;
}

/* A word weighs 1 / (1 + the notes of the corpus that have it): a word
 * most notes share (周末) says little, a rare one (杭州) says much. One no
 * note has (火锅 in a corpus without hot pot) weighs as one a single note
 * has: the corpus cannot tell it rarer. */
static double *note_word_weights(const json_t *corpus, const json_t *words, double *total)
{
	size_t n = json_array_size(words), i, j;
	double *w = xcalloc(n + 1, sizeof *w);
	json_t *d;

	*total = 0;
	for (i = 0; i < n; i++) {
		size_t df = 0;

		json_array_foreach(corpus, j, d)
			df += note_doc_has(d, json_string_value(json_array_get(words, i)));
		w[i] = 1.0 / (1.0 + (double)(df ? df : 1));
		*total += w[i];
	}
	return w;
}

static int note_by_relevance(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	double rx = json_number_value(json_object_get(x, "relevance"));
	double ry = json_number_value(json_object_get(y, "relevance"));

	if (rx != ry)
		return rx < ry ? 1 : -1;
	return note_by_likes(a, b);
}

json_t *note_corpus_relevant(const json_t *corpus, const json_t *notes, const json_t *words,
			     double floor)
{
	double total, *w = note_word_weights(corpus, words, &total);
	size_t n = json_array_size(notes), i, j, kept = 0;
	json_t **arr = xcalloc(n + 1, sizeof *arr), *out = json_array(), *d;

	json_array_foreach(notes, i, d) {
		double got = 0;

		for (j = 0; j < json_array_size(words); j++)
			if (note_doc_has(d, json_string_value(json_array_get(words, j))))
				got += w[j];
		if (total > 0 && got / total > floor) {
			json_object_set_new(d, "relevance",
					    jnum_real(got / total, JNUM_SCORE));
			arr[kept++] = d;
		}
	}
	qsort(arr, kept, sizeof *arr, note_by_relevance);
	for (i = 0; i < kept; i++)
		json_array_append(out, arr[i]);
	free(arr);
	free(w);
	return out;
}

/* The sentences of a body, each ended by its mark. */
static void note_body_points(json_t *out, const json_t *doc, size_t max)
{
	const char *p = json_string_value(json_object_get(doc, "body")) ?: "", *start = p;
	static const char *const ends[] = { "。", "！", "？", "\n" };

	while (*p && json_array_size(out) < max) {
		size_t n = 0;

		for (size_t k = 0; k < sizeof ends / sizeof ends[0] && n == 0; k++)
			if (strncmp(p, ends[k], strlen(ends[k])) == 0)
				n = strlen(ends[k]);
		if (n == 0) {
			p++;
			continue;
		}
		p += n;
		if (p - start > 6) {
			char *s = xstrndup(start, (size_t)(p - start));
			int dup = 0;
			size_t i;
			json_t *e;

			json_array_foreach(out, i, e)
				dup |= strcmp(json_string_value(json_object_get(e, "text")), s) == 0;
			if (!dup)
				json_array_append_new(out, json_pack("{s:s, s:O, s:O, s:O, s:O*}", "text", s,
					"source", json_object_get(doc, "title"), "id",
					json_object_get(doc, "id"), "likes", json_object_get(doc, "likes"),
					"tags", json_object_get(doc, "tags")));
			free(s);
		}
		start = p;
	}
}

json_t *note_corpus_points(const json_t *notes, size_t max)
{
	json_t *out = json_array(), *d;
	size_t i;

	json_array_foreach(notes, i, d)
		if (i < 4)
			note_body_points(out, d, max);
	return out;
}
