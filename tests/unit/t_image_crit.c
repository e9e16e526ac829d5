/* The image critic's look at an offline picture (wf/image/image_crit.h):
 * hand-made SVGs in the shape the offline pictures have (av-glyph groups
 * with data-cp and a <title>, the av-style filter, data-background) read
 * back, set against the request, and the critic's verdict from them: a
 * picture with none of the subject is not 100/100 and says what is
 * missing in the thread's language; a picture that has it all is; a
 * review without a picture to read keeps to the prompt. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "prov/scene.h"
#include "text/rules.h"
#include "wf/image/image_crit.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_rules.h"

#define SVG_HEAD "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64\" height=\"64\">"

/* The SVG group of the glyph the offline pictures draw for word (its code
 * points, its character and name in the title), as the pictures have it. */
static void glyph(char *out, size_t n, const char *word)
{
	const char *g = scene_emoji_for(word);
	char cp[64] = "";

	scene_emoji_cp(g, cp, sizeof cp);
	snprintf(out, n, "<g class=\"av-glyph\" data-cp=\"%s\"><title>%s %s</title>"
		 "<image href=\"data:image/png;base64,AAAA\" x=\"1\" y=\"1\" width=\"8\" "
		 "height=\"8\"/></g>", cp, g, scene_emoji_name(g, "en"));
}

/* A cat and a dog in watercolour over the sea; a cat alone in a room, no
 * filter; a tree in oil in a forest (none of a cat). */
static char svg_cat_dog[2048], svg_cat[2048], svg_tree[2048];

static void make_svgs(void)
{
	char cat[512], dog[512], tree[512];

	glyph(cat, sizeof cat, "cat");
	glyph(dog, sizeof dog, "dog");
	glyph(tree, sizeof tree, "tree");
	snprintf(svg_cat_dog, sizeof svg_cat_dog, SVG_HEAD "<g data-background=\"sea\" "
		 "filter=\"url(#av-style-watercolour)\"><rect width=\"64\" height=\"64\" "
		 "fill=\"#39f\"/>%s%s</g></svg>", cat, dog);
	snprintf(svg_cat, sizeof svg_cat, SVG_HEAD "<g data-background=\"room\">%s</g></svg>", cat);
	snprintf(svg_tree, sizeof svg_tree, SVG_HEAD "<g data-background=\"forest\" "
		 "filter=\"url(#av-style-oil)\">%s</g></svg>", tree);
}

static void check_read(void)
{
	json_t *c = image_svg_composition(svg_cat_dog, strlen(svg_cat_dog));
	const json_t *g = json_object_get(c, "glyphs");

	ok(c && json_array_size(g) == 2, "two glyphs read back");
	ok(strlen(json_string_value(json_object_get(json_array_get(g, 0), "cp")) ?: "") >= 4,
	   "the first one's code points");
	is_str(json_string_value(json_object_get(json_array_get(g, 0), "glyph")), scene_emoji_for("cat"),
	       "its character, from its title");
	is_str(json_string_value(json_object_get(json_array_get(g, 1), "name")),
	       scene_emoji_name(scene_emoji_for("dog"), "en"), "the second one's name");
	is_str(json_string_value(json_object_get(c, "style")), "watercolour", "the style filter");
	is_str(json_string_value(json_object_get(c, "background")), "sea", "the background");
	json_decref(c);
	c = image_svg_composition(svg_cat, strlen(svg_cat));
	ok(c && json_object_get(c, "style") == NULL, "no filter: no style");
	json_decref(c);
	ok(image_svg_composition("<svg><g class=\"av-glyph\">", 25) == NULL, "a cut SVG is not read");
	ok(image_svg_composition("\x89PNG\r\n\x1a\n", 8) == NULL, "a PNG is not an SVG");
	ok(image_svg_composition(NULL, 0) == NULL, "nothing is nothing");
	c = image_svg_composition("<!DOCTYPE svg [<!ENTITY a \"b\">]><svg>&a;</svg>", 46);
	ok(c == NULL, "an SVG that declares entities is not read");
	json_decref(c);
}

static void check_scene(void)
{
	json_t *comp = image_svg_composition(svg_cat, strlen(svg_cat));
	json_t *r = image_crit_scene(comp, "一只猫和一只狗", "水彩", "zh");

	ok(json_array_size(json_object_get(r, "asked")) == 2, "猫和狗: two glyphs asked");
	ok(json_array_size(json_object_get(r, "shown")) == 1 &&
	   json_array_size(json_object_get(r, "missing")) == 1 && !json_is_true(json_object_get(r, "none")),
	   "one shown, one missing");
	is_str(json_string_value(json_object_get(r, "styleAsked")), "watercolour", "水彩 asks for the watercolour filter");
	ok(!json_is_string(json_object_get(r, "styleApplied")), "which the picture does not have");
	json_decref(r);
	r = image_crit_scene(comp, "", NULL, "en");
	ok(!json_is_true(json_object_get(r, "none")) && json_array_size(json_object_get(r, "missing")) == 0,
	   "no subject asked: nothing missing");
	json_decref(r);
	json_decref(comp);
}

/* The critic's verdict on facts with the composition of svg (NULL: none). */
static json_t *critique(const char *svg, const char *subject, const char *style, const char *lang)
{
	json_t *f = json_pack("{s:s, s:s, s:s?, s:s, s:[], s:i, s:i, s:i, s:s}", "prompt", subject,
			      "subject", subject, "style", style, "lang", lang, "retrievedStyles",
			      "width", 1024, "height", 1024, "styleStrength", 70, "action", "generate_image");
	json_t *j;
	char err[64];

	if (style)
		json_object_set_new(f, "prompt", json_sprintf("%s, %s", subject, style));
	if (svg)
		json_object_set_new(f, "composition", image_svg_composition(svg, strlen(svg)));
	j = image_rules_task_critique(f, "", err, sizeof err);
	json_decref(f);
	return j;
}

struct verdict_case {
	const char *svg;
	const char *subject, *style, *lang;
	double max, min;         /* the score's bounds */
	int passed;
	const char *says;        /* in the feedback */
};

static const struct verdict_case verdict_cases[] = {
	/* None of the subject: not 100, not passed, and says so. */
	{ svg_tree, "猫", NULL, "zh", 0.5, 0.0, 0, "画面里没有要求的主体" },
	{ svg_tree, "a cat", NULL, "en", 0.5, 0.0, 0, "the picture shows none of the subject" },
	/* Part of it: below full marks, what is missing named. */
	{ svg_cat, "a cat and a dog", NULL, "en", 0.8, 0.6, 1, "the picture lacks: " },
	/* The style asked for and not applied: below full marks. */
	{ svg_cat, "猫", "水彩", "zh", 0.8, 0.6, 1, "画面没有应用「watercolour」滤镜" },
	/* All of it (no style was retrieved: 10 of that check's 20). */
	{ svg_cat_dog, "一只猫和一只狗", "水彩", "zh", 0.9, 0.9, 1, "画面应用了「watercolour」滤镜" },
	/* No picture to read: the prompt alone, as before. */
	{ NULL, "猫", "水彩", "zh", 0.9, 0.9, 1, "风格已体现" },
};

static void check_verdicts(void)
{
	for (size_t i = 0; i < sizeof verdict_cases / sizeof verdict_cases[0]; i++) {
		const struct verdict_case *c = &verdict_cases[i];
		json_t *j = critique(c->svg, c->subject, c->style, c->lang);
		double score = json_number_value(json_object_get(j, "score"));
		const char *fb = json_string_value(json_object_get(j, "feedback")) ?: "";

		ok(score <= c->max + 1e-9 && score >= c->min - 1e-9 &&
		   json_is_true(json_object_get(j, "passed")) == c->passed && strstr(fb, c->says),
		   "%s / %s: %.2f, %s", c->subject, c->style ? c->style : "-", score, fb);
		json_decref(j);
	}
}

int main(void)
{
	make_svgs();
	check_read();
	check_scene();
	check_verdicts();
	image_intent_free();
	rules_free();
	return tap_done();
}
