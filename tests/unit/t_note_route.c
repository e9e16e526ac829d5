/* The note workflow's routing decisions, as tables: the deterministic
 * route from the completion flags, what the router may choose instead
 * (only back or the same stage, only review_agent when review_agent is
 * the target, nothing past maxIterations or after a severe error), the
 * flags cleared when work goes back, the stage owning each review
 * dimension, the weakest dimension that decides a quality loop, and the
 * paragraphs a body is cut into. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/note/note.h"

static json_t *flags_state(int done, const char *extra)
{
	json_t *st = extra ? json_loads(extra, 0, NULL) : json_object();

	for (int i = 0; i < NOTE_NSTAGES; i++)
		json_object_set_new(st, note_stages[i].flag, json_boolean(i < done));
	return st;
}

static void test_next(void)
{
	static const char *const want[] = { "brief_compiler_agent", "research_evidence_agent",
		"reference_intelligence_agent", "writer_agent", "layout_planner_agent",
		"image_planner_agent", "image_agent", "review_agent", "END" };
	json_t *st;

	for (int done = 0; done <= NOTE_NSTAGES; done++) {
		st = flags_state(done, NULL);
		is_str(note_route_next(st), want[done], "%d stages complete: next is %s", done, want[done]);
		json_decref(st);
	}
	st = flags_state(8, NULL);
	json_object_set_new(st, "layoutComplete", json_false());
	is_str(note_route_next(st), "layout_planner_agent", "the first incomplete stage wins");
	json_decref(st);
	st = json_object();
	is_str(note_route_next(st), "brief_compiler_agent", "no flags at all: the first stage");
	json_decref(st);
	is_int(note_stage_index("END"), NOTE_NSTAGES, "END is after the last stage");
	is_int(note_stage_index("nope"), -1, "an unknown stage");
	is_int(note_stage_index(NULL), -1, "no stage");
}

struct check_case {
	const char *state;     /* JSON: iterationCount, maxIterations, lastError, routerForced */
	const char *target, *proposal, *want;
	int refused;
};

static const struct check_case check_cases[] = {
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "writer_agent",
	  "writer_agent", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "research_evidence_agent",
	  "research_evidence_agent", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "brief_compiler_agent",
	  "brief_compiler_agent", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "layout_planner_agent",
	  "writer_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "END", "writer_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", "nonsense", "writer_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "writer_agent", NULL, "writer_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "review_agent", "image_agent", "review_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "review_agent", "writer_agent", "review_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "review_agent", "review_agent", "review_agent", 0 },
	{ "{\"iterationCount\": 3, \"maxIterations\": 3}", "image_agent", "writer_agent", "image_agent", 1 },
	{ "{\"iterationCount\": 3, \"maxIterations\": 3}", "image_agent", "image_agent", "image_agent", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 0}", "image_agent", "writer_agent", "image_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3, \"lastError\": {\"severe\": true}}", "image_agent",
	  "writer_agent", "image_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3, \"lastError\": {\"severe\": false}}",
	  "image_agent", "writer_agent", "writer_agent", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3, \"routerForced\": true}", "image_agent",
	  "writer_agent", "image_agent", 1 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "END", "END", "END", 0 },
	{ "{\"iterationCount\": 0, \"maxIterations\": 3}", "END", "review_agent", "review_agent", 0 },
};

static void test_check(void)
{
	for (size_t i = 0; i < sizeof check_cases / sizeof check_cases[0]; i++) {
		const struct check_case *k = &check_cases[i];
		json_t *st = json_loads(k->state, 0, NULL);
		char why[256] = "x";
		const char *got = note_route_check(st, k->target, k->proposal, why, sizeof why);

		is_str(got, k->want, "target %s, proposal %s, %s: %s", k->target,
		       k->proposal ? k->proposal : "(none)", k->state, k->want);
		ok((*why != '\0') == k->refused, "  ... %s (%s)", k->refused ? "refused" : "taken", why);
		json_decref(st);
	}
}

static void test_reset(void)
{
	json_t *st = flags_state(8, NULL);

	note_route_reset_from(st, "image_planner_agent");
	is_str(note_route_next(st), "image_planner_agent", "back to image_planner_agent: it runs next");
	ok(json_is_true(json_object_get(st, "layoutComplete")) &&
	   !json_is_true(json_object_get(st, "imagesComplete")) &&
	   !json_is_true(json_object_get(st, "reviewComplete")),
	   "the stages before stay complete, those after are cleared");
	note_route_reset_from(st, "nonsense");
	is_str(note_route_next(st), "image_planner_agent", "an unknown stage clears nothing");
	json_decref(st);
}

struct dim_case {
	const char *scores;
	double overall;
	const char *weakest;   /* NULL: passes */
	const char *owner;
};

static const struct dim_case dim_cases[] = {
	{ "{\"infoDensity\": 0.9, \"readability\": 0.8, \"platformFit\": 0.9, \"textImageAlignment\": 0.9, "
	  "\"styleConsistency\": 0.9, \"imageCompleteness\": 1}", 0.9, NULL, NULL },
	{ "{\"infoDensity\": 0.9, \"readability\": 0.8, \"platformFit\": 0.9, \"textImageAlignment\": 0.9, "
	  "\"styleConsistency\": 0.35, \"imageCompleteness\": 1}", 0.8, "styleConsistency", "image_agent" },
	{ "{\"infoDensity\": 0.4, \"readability\": 0.8, \"platformFit\": 0.9, \"textImageAlignment\": 0.9, "
	  "\"styleConsistency\": 0.9, \"imageCompleteness\": 0.5}", 0.73, "infoDensity", "writer_agent" },
	{ "{\"infoDensity\": 0.65, \"readability\": 0.62, \"platformFit\": 0.7, \"textImageAlignment\": 0.61, "
	  "\"styleConsistency\": 0.7, \"imageCompleteness\": 0.7}", 0.66, "textImageAlignment",
	  "image_planner_agent" },
	{ "{\"readability\": 0.5, \"somethingElse\": 0.1}", 0.9, "readability", "writer_agent" },
	{ "{\"imageCompleteness\": 0.5, \"textImageAlignment\": 0.55}", 0.5, "imageCompleteness",
	  "image_agent" },
	{ "{}", 0.2, NULL, NULL },
};

static void test_dims(void)
{
	for (size_t i = 0; i < sizeof dim_cases / sizeof dim_cases[0]; i++) {
		const struct dim_case *k = &dim_cases[i];
		json_t *s = json_loads(k->scores, 0, NULL);
		const char *w = note_review_weakest(s, k->overall);

		is_str(w, k->weakest, "scores %s (overall %.2f): weakest %s", k->scores, k->overall,
		       k->weakest ? k->weakest : "none");
		is_str(w ? note_dim_owner(w) : NULL, k->owner, "  ... owned by %s",
		       k->owner ? k->owner : "nobody");
		json_decref(s);
	}
	is_str(note_dim_owner("platformFit"), "writer_agent", "platformFit belongs to the writer");
	ok(note_dim_owner("overall") == NULL, "overall is no dimension");
}

struct par_case {
	const char *body;
	int n;
	const char *first_heading, *last_text;
};

static const struct par_case par_cases[] = {
	{ "开头一句。\n\n一、准备\n带水。\n\n二、路线\n早点出门。\n\n评论区聊聊～", 4, "", "评论区聊聊～" },
	{ "一、准备\n带水。", 1, "一、准备", "一、准备\n带水。" },
	{ "只有一段，没有空行。\n第二行也算这一段。", 1, "", "只有一段，没有空行。\n第二行也算这一段。" },
	{ "\n\n  \n\n", 0, NULL, NULL },
	{ "", 0, NULL, NULL },
	{ "a\r\n\r\nb", 2, "", "b" },
	{ "这是一个完整的句子，不是小标题。\n下面的内容。", 1, "", NULL },
};

static void test_paragraphs(void)
{
	for (size_t i = 0; i < sizeof par_cases / sizeof par_cases[0]; i++) {
		const struct par_case *k = &par_cases[i];
		json_t *p = note_paragraphs(k->body);
		json_t *first = json_array_get(p, 0), *last = json_array_get(p, json_array_size(p) - 1);

		is_int(json_array_size(p), k->n, "paragraphs of case %zu: %d", i + 1, k->n);
		if (k->first_heading)
			is_str(json_string_value(json_object_get(first, "heading")), k->first_heading,
			       "  ... first heading '%s'", k->first_heading);
		if (k->last_text)
			is_str(json_string_value(json_object_get(last, "text")), k->last_text,
			       "  ... last text");
		if (k->n > 0)
			ok(strcmp(json_string_value(json_object_get(first, "id")), "p1") == 0 &&
			   json_integer_value(json_object_get(last, "index")) == k->n - 1,
			   "  ... ids p1.., indexes 0..");
		json_decref(p);
	}
	{
		char *cut = note_cut("春游攻略", 7);

		is_str(cut, "春游", "note_cut stops at a character boundary");
		free(cut);
	}
}

int main(void)
{
	test_next();
	test_check();
	test_reset();
	test_dims();
	test_paragraphs();
	return tap_done();
}
