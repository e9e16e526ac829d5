/* The note workflow's corpus tools, as tables: the check of likes and
 * dates, the most used tags (by notes, then likes, then name; a tag
 * counted once per note), the most liked titles and how titles are
 * written, notes and likes by month with the peak, the season and the
 * trend, search and tag lookups on a small library, and the shipped
 * etc/notes.json itself (at least 200 notes, all valid, varied); which
 * notes are relevant to a topic's words. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "kb/kb.h"
#include "wf/note/note.h"

static const char fixture[] =
	"[{\"id\": \"a\", \"title\": \"春游路线｜一天逛完\", \"body\": \"玄武湖赏樱花。\", \"tags\": [\"春游\", \"赏花\"],"
	"  \"likes\": 900, \"date\": \"2024-03-20\"},"
	" {\"id\": \"b\", \"title\": \"3 天 2 晚成都攻略\", \"body\": \"火锅和熊猫。\", \"tags\": [\"旅行\", \"春游\"],"
	"  \"likes\": 300, \"date\": \"2023-04-02\"},"
	" {\"id\": \"c\", \"title\": \"周末去哪儿？\", \"body\": \"城市公园野餐。\", \"tags\": [\"周末去哪儿\", \"春游\", \"春游\"],"
	"  \"likes\": 50, \"date\": \"2024-03-02\"},"
	" {\"id\": \"d\", \"title\": \"减脂餐不重样！\", \"body\": \"鸡胸肉和杂粮饭。\", \"tags\": [\"减脂餐\", \"赏花\"],"
	"  \"likes\": 900, \"date\": \"2022-12-30\"}]";

static const struct kb_field fields[] = {
	{ "title", 3, KB_SHOW | KB_REQUIRED },
	{ "tags", 2, KB_SHOW | KB_REQUIRED },
	{ "body", 1, KB_REQUIRED },
	{ NULL, 0, 0 },
};

struct check_case {
	const char *docs;
	int rc;
	const char *why;   /* part of the message */
};

static const struct check_case check_cases[] = {
	{ "[{\"id\": \"x\", \"likes\": 0, \"date\": \"2024-01-31\"}]", 0, NULL },
	{ "[{\"id\": \"x\", \"likes\": -1, \"date\": \"2024-01-31\"}]", -1, "likes" },
	{ "[{\"id\": \"x\", \"likes\": 1.5, \"date\": \"2024-01-31\"}]", -1, "likes" },
	{ "[{\"id\": \"x\", \"likes\": \"9\", \"date\": \"2024-01-31\"}]", -1, "likes" },
	{ "[{\"id\": \"x\", \"date\": \"2024-01-31\"}]", -1, "likes" },
	{ "[{\"id\": \"x\", \"likes\": 3, \"date\": \"2024-13-01\"}]", -1, "date" },
	{ "[{\"id\": \"x\", \"likes\": 3, \"date\": \"2024-1-01\"}]", -1, "date" },
	{ "[{\"id\": \"x\", \"likes\": 3, \"date\": \"2024-01-01T00\"}]", -1, "date" },
	{ "[{\"id\": \"x\", \"likes\": 3}]", -1, "date" },
	{ "[{\"id\": \"x\", \"likes\": 3, \"date\": \"1969-12-31\"}]", -1, "date" },
	{ "[]", 0, NULL },
};

static void test_check(void)
{
	for (size_t i = 0; i < sizeof check_cases / sizeof check_cases[0]; i++) {
		json_t *d = json_loads(check_cases[i].docs, 0, NULL);
		char err[256] = "";
		int rc = note_corpus_check(d, err, sizeof err);

		is_int(rc, check_cases[i].rc, "check %s", check_cases[i].docs);
		if (check_cases[i].why)
			ok(strstr(err, check_cases[i].why) != NULL, "  ... says %s (%s)", check_cases[i].why, err);
		json_decref(d);
	}
}

static void test_aggregates(void)
{
	json_t *notes = json_loads(fixture, 0, NULL), *j;
	char *s;

	j = note_corpus_top_tags(notes, 3);
	s = json_dumps(j, JSON_COMPACT);
	is_str(s, "[{\"tag\":\"春游\",\"count\":3,\"likes\":1250},{\"tag\":\"赏花\",\"count\":2,\"likes\":1800},"
		  "{\"tag\":\"减脂餐\",\"count\":1,\"likes\":900}]",
	       "top tags: by notes, then likes, then name; a tag once per note; limit 3");
	free(s);
	json_decref(j);

	j = note_corpus_top_titles(notes, 2);
	s = json_dumps(json_object_get(j, "titles"), JSON_COMPACT);
	is_str(s, "[{\"id\":\"a\",\"title\":\"春游路线｜一天逛完\",\"likes\":900},"
		  "{\"id\":\"d\",\"title\":\"减脂餐不重样！\",\"likes\":900}]",
	       "top titles: by likes, ties by id");
	free(s);
	{
		const json_t *p = json_object_get(j, "patterns");
		static const char *const keys[] = { "withNumber", "withSeparator", "withExclamation",
						    "withQuestion" };

		is_int(json_integer_value(json_object_get(p, "count")), 4, "title patterns over four titles");
		ok(json_number_value(json_object_get(p, "avgChars")) > 8.29 &&
		   json_number_value(json_object_get(p, "avgChars")) < 8.31, "  ... 8.3 characters on average");
		for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
			ok(json_number_value(json_object_get(p, keys[i])) == 0.25, "  ... %s: one in four", keys[i]);
	}
	json_decref(j);

	j = note_corpus_trend(notes);
	s = json_dumps(json_object_get(j, "months"), JSON_COMPACT);
	is_str(s, "[{\"month\":\"2022-12\",\"notes\":1,\"likes\":900},{\"month\":\"2023-04\",\"notes\":1,"
		  "\"likes\":300},{\"month\":\"2024-03\",\"notes\":2,\"likes\":950}]", "months in order");
	free(s);
	is_str(json_string_value(json_object_get(j, "peakMonth")), "2024-03", "the peak month by likes");
	is_int(json_integer_value(json_object_get(json_object_get(j, "seasonPeak"), "month")), 3,
	       "the season: March");
	is_str(json_string_value(json_object_get(j, "trend")), "falling",
	       "the last twelve months' 417 likes a note against 900 before: falling");
	json_decref(j);
	json_decref(notes);
}

struct trend_case {
	const char *notes;
	const char *trend;
};

static const struct trend_case trend_cases[] = {
	{ "[{\"likes\": 100, \"date\": \"2023-01-05\"}, {\"likes\": 500, \"date\": \"2024-02-01\"}]", "rising" },
	{ "[{\"likes\": 500, \"date\": \"2023-01-05\"}, {\"likes\": 100, \"date\": \"2024-02-01\"}]", "falling" },
	{ "[{\"likes\": 100, \"date\": \"2023-01-05\"}, {\"likes\": 110, \"date\": \"2024-02-01\"}]", "steady" },
	{ "[{\"likes\": 100, \"date\": \"2024-01-05\"}, {\"likes\": 110, \"date\": \"2024-02-01\"}]",
	  "insufficient" },
	{ "[]", "insufficient" },
	{ "[{\"likes\": 100, \"date\": \"2023-02-01\"}, {\"likes\": 900, \"date\": \"2024-02-01\"}]", "rising" },
};

static void test_trends(void)
{
	for (size_t i = 0; i < sizeof trend_cases / sizeof trend_cases[0]; i++) {
		json_t *n = json_loads(trend_cases[i].notes, 0, NULL), *j = note_corpus_trend(n);

		is_str(json_string_value(json_object_get(j, "trend")), trend_cases[i].trend, "trend of %s",
		       trend_cases[i].notes);
		json_decref(j);
		json_decref(n);
	}
}

static void test_search(void)
{
	json_t *docs = json_loads(fixture, 0, NULL), *hits;
	char err[256];
	struct kb *kb = kb_from_json(docs, fields, "fixture", err, sizeof err);

	ok(kb != NULL, "the fixture loads as a library");
	hits = note_corpus_search(NULL, kb, "春游", 10, NULL);
	ok(json_array_size(hits) == 3 && json_integer_value(json_object_get(json_array_get(hits, 0), "likes")) > 0 &&
	   json_is_number(json_object_get(json_array_get(hits, 0), "similarity")),
	   "search 春游: the three notes about it, whole, with a similarity");
	json_decref(hits);
	hits = note_corpus_search(NULL, kb, "量子物理", 10, NULL);
	is_int(json_array_size(hits), 0, "search for what no note says: nothing");
	json_decref(hits);
	hits = note_corpus_by_tag(kb, "赏花", 10);
	ok(json_array_size(hits) == 2 && !strcmp(json_string_value(json_object_get(json_array_get(hits, 1), "id")), "d"),
	   "by tag 赏花: a and d");
	json_decref(hits);
	hits = note_corpus_by_tag(kb, "春游", 1);
	is_int(json_array_size(hits), 1, "by tag, limited");
	json_decref(hits);
	kb_free(kb);
	json_decref(docs);
}

static void test_shipped(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096], err[512] = "";
	struct kb *kb;
	json_t *tags;

	snprintf(path, sizeof path, "%s/etc/notes.json", top && *top ? top : ".");
	kb = kb_load(path, fields, err, sizeof err);
	ok(kb != NULL, "etc/notes.json loads (%s)", err);
	if (kb == NULL)
		return;
	ok(kb_count(kb) >= 200, "at least 200 notes (%zu)", kb_count(kb));
	is_int(note_corpus_check(kb_items(kb), err, sizeof err), 0, "every note has likes and a date (%s)", err);
	tags = note_corpus_top_tags(kb_items(kb), 1000);
	ok(json_array_size(tags) >= 60, "varied: %zu different tags", json_array_size(tags));
	json_decref(tags);
	tags = note_corpus_search(NULL, kb, "春游", 50, NULL);
	ok(json_array_size(tags) >= 5, "spring outings are there (%zu)", json_array_size(tags));
	json_decref(tags);
	kb_free(kb);
}

/* Relevance on a corpus of its own: which notes are kept for the
 * topic's words (ids in order, most relevant first). */
static const char relevance_corpus[] =
	"[{\"id\": \"cq-walk\", \"title\": \"重庆citywalk路线\", \"body\": \"解放碑出发。\", \"tags\": [], \"likes\": 5},"
	" {\"id\": \"hz-walk\", \"title\": \"杭州citywalk路线\", \"body\": \"断桥出发。\", \"tags\": [], \"likes\": 9},"
	" {\"id\": \"sh-walk\", \"title\": \"上海citywalk\", \"body\": \"武康路。\", \"tags\": [], \"likes\": 7},"
	" {\"id\": \"cq-stay\", \"title\": \"重庆住哪里\", \"body\": \"解放碑附近。\", \"tags\": [], \"likes\": 3},"
	" {\"id\": \"sakura\", \"title\": \"东湖赏樱花\", \"body\": \"早上去。\", \"tags\": [\"樱花\"], \"likes\": 4}]";

static const struct {
	const char *words, *kept;
} relevance_cases[] = {
	/* 重庆 is rarer than citywalk: the other cities' walks are left out. */
	{ "[\"重庆\", \"citywalk\"]", "cq-walk cq-stay" },
	/* No note has 火锅: a note with only 重庆 has less than half. */
	{ "[\"重庆\", \"火锅\"]", "" },
	/* 武汉 is not in the corpus; 东湖 and 樱花 still carry the note. */
	{ "[\"武汉\", \"东湖\", \"樱花\"]", "sakura" },
	{ "[\"CityWalk\"]", "hz-walk sh-walk cq-walk" },
	{ "[]", "" },
};

static void test_relevance(void)
{
	json_t *corpus = json_loads(relevance_corpus, 0, NULL);

	for (size_t i = 0; i < sizeof relevance_cases / sizeof relevance_cases[0]; i++) {
		json_t *words = json_loads(relevance_cases[i].words, 0, NULL);
		json_t *kept = note_corpus_relevant(corpus, corpus, words, 0.5), *d;
		char ids[256] = "";
		size_t j;

		json_array_foreach(kept, j, d)
			snprintf(ids + strlen(ids), sizeof ids - strlen(ids), "%s%s", j ? " " : "",
				 json_string_value(json_object_get(d, "id")));
		is_str(ids, relevance_cases[i].kept, "relevance %s: %s", relevance_cases[i].words,
		       relevance_cases[i].kept);
		json_decref(kept);
		json_decref(words);
	}
	json_decref(corpus);
}

int main(void)
{
	test_relevance();
	test_check();
	test_aggregates();
	test_trends();
	test_search();
	test_shipped();
	return tap_done();
}
