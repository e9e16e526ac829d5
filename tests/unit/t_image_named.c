/* Which style of the style library a request names (wf/image/image_named.h),
 * over a small library in the shape of etc/styles.json: a name that is a
 * style by itself anywhere, any name or keyword with 风格 / style after it,
 * after "in the style of" or alone after the last comma; a library word
 * used as a place, a thing or an adjective is not a style; whole words
 * only; and the words that name it, which the subject leaves out. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "text/rules.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_named.h"

static const char docs_json[] =
	"[{\"id\": \"cozy\", \"name_zh\": \"温馨治愈\", \"name_en\": \"Cozy\", \"category\": \"mood\","
	"  \"keywords\": [\"温馨\", \"治愈\", \"cozy\", \"cosy\"]},"
	" {\"id\": \"dunhuang\", \"name_zh\": \"敦煌\", \"name_en\": \"Dunhuang mural\", \"category\": \"chinese\","
	"  \"keywords\": [\"敦煌\", \"飞天\", \"dunhuang\"]},"
	" {\"id\": \"charcoal\", \"name_zh\": \"炭笔画\", \"name_en\": \"Charcoal drawing\", \"category\": \"painting\","
	"  \"keywords\": [\"炭笔\", \"charcoal\"]},"
	" {\"id\": \"impressionism\", \"name_zh\": \"印象派\", \"name_en\": \"Impressionism\", \"category\": \"movement\","
	"  \"keywords\": [\"莫奈\", \"monet\"]},"
	" {\"id\": \"post_impressionism\", \"name_zh\": \"后印象派\", \"name_en\": \"Post-impressionism\","
	"  \"category\": \"movement\", \"keywords\": [\"梵高\", \"van gogh\"]},"
	" {\"id\": \"bauhaus\", \"name_zh\": \"包豪斯\", \"name_en\": \"Bauhaus\", \"category\": \"movement\","
	"  \"keywords\": [\"bauhaus\"]}]";

struct named_case {
	const char *text;
	const char *id;        /* NULL: no style named */
	const char *words;     /* the bytes that name it */
	const char *subject;   /* the subject without them */
};

static const struct named_case cases[] = {
	{ "敦煌风格的飞天仙女", "dunhuang", "敦煌风格的", "飞天仙女" },
	{ "梵高风格的星空下的麦田", "post_impressionism", "梵高风格的", "星空下的麦田" },
	{ "一幅炭笔画的老人", "charcoal", "炭笔画的", "老人" },
	{ "后印象派的向日葵", "post_impressionism", "后印象派的", "向日葵" },
	{ "a bedroom in cozy style", "cozy", "cozy style", "bedroom in" },
	{ "in the style of Monet, a garden", "impressionism", "in the style of Monet", "garden" },
	{ "a fox in the snow, Dunhuang", "dunhuang", ", Dunhuang", "fox in the snow" },
	{ "a lighthouse, charcoal drawing", "charcoal", "charcoal drawing", "lighthouse" },
	{ "BAUHAUS poster of a chair", "bauhaus", "BAUHAUS", "chair" },
	/* A library word as a place, a thing or an adjective. */
	{ "敦煌的月牙泉", NULL, NULL, NULL },
	{ "a cozy cabin in the woods", NULL, NULL, NULL },
	{ "温馨的客厅", NULL, NULL, NULL },
	/* Not a whole word. */
	{ "a bauhausian chair", NULL, NULL, NULL },
	{ "", NULL, NULL, NULL },
};

static void check_find(const json_t *docs)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const struct named_case *c = &cases[i];
		struct image_named nm;
		int found = image_named_find(docs, c->text, &nm);
		const char *id = found ? json_string_value(json_object_get(nm.doc, "id")) : NULL;
		char *subject;

		if (c->id == NULL) {
			ok(!found && nm.doc == NULL, "\"%s\" names no style (%s)", c->text, id ? id : "none");
			continue;
		}
		ok(found && strcmp(id, c->id) == 0 && nm.end - nm.start == strlen(c->words) &&
		   memcmp(c->text + nm.start, c->words, nm.end - nm.start) == 0,
		   "\"%s\" names %s by \"%.*s\"", c->text, id ? id : "none",
		   found ? (int)(nm.end - nm.start) : 0, found ? c->text + nm.start : "");
		subject = image_subject_cut(c->text, nm.start, nm.end);
		is_str(subject, c->subject, "the subject of \"%s\"", c->text);
		free(subject);
	}
}

static void check_lookup(const json_t *docs)
{
	const json_t *d = image_named_doc(docs, "charcoal drawing");

	ok(d && strcmp(json_string_value(json_object_get(d, "id")), "charcoal") == 0,
	   "a style by its English name, any case");
	d = image_named_doc(docs, "梵高");
	ok(d && strcmp(json_string_value(json_object_get(d, "id")), "post_impressionism") == 0,
	   "a style by a keyword");
	ok(image_named_doc(docs, "水彩") == NULL && image_named_doc(docs, NULL) == NULL,
	   "a style the library does not have");
	ok(image_named_is(d, "Post-impressionism painting") && !image_named_is(d, "Cubism"),
	   "an intent's style is the document's when it holds one of its names");
	ok(!image_named_find(NULL, "敦煌风格", &(struct image_named){ 0 }), "no library, no style");
}

int main(void)
{
	json_error_t e;
	json_t *docs = json_loads(docs_json, 0, &e);

	if (docs == NULL)
		tap_bail("the library does not parse: %s", e.text);
	check_find(docs);
	check_lookup(docs);
	json_decref(docs);
	image_intent_free();
	rules_free();
	return tap_done();
}
