/* The style a request names, from the planner to the prompt: a style of
 * the library named in the request (image_named.h) is the intent's style
 * whatever the planner (model or rules) made of it, and retrieval applies
 * a named style whatever its similarity to the rest of the request. A
 * repaint gets only the style its words name: nothing is added to the
 * masked area that was not asked for. */
#include "config.h"
#include <string.h>
#include "app.h"
#include "kb/kb.h"
#include "wf/image/image.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_named.h"

/* The library's document for a style of the lexicon, or NULL. Borrowed. */
static const json_t *image_plan_lexicon_doc(const json_t *docs, const struct image_style *st)
{
	const json_t *doc;

	if (st == NULL)
		return NULL;
	doc = image_named_doc(docs, st->zh);
	return doc ? doc : image_named_doc(docs, st->en);
}

json_t *image_named_fact(struct step_ctx *c, const char *text)
{
	struct kb *kb = kb_styles(step_app(c));
	struct image_named nm;
	const struct image_style *st;
	size_t at;

	if (kb == NULL || !image_named_find(kb_items(kb), text, &nm))
		return NULL;
	st = image_style_at(text, &at);
	if (st && (at <= nm.start || image_plan_lexicon_doc(kb_items(kb), st) == nm.doc))
		return NULL;
	return json_pack("{s:s, s:s, s:I, s:I}", "id", json_string_value(json_object_get(nm.doc, "id")),
			 "name", json_string_value(json_object_get(nm.doc, image_zh(c->state) ? "name_zh"
								   : "name_en")) ?: "",
			 "start", (json_int_t)nm.start, "end", (json_int_t)nm.end);
}

void image_named_keep(struct step_ctx *c, json_t *intent, const json_t *named, const char *text)
{
	const char *action = json_string_value(json_object_get(intent, "action")) ?: "";
	const char *style = json_string_value(json_object_get(intent, "style")) ?: "";
	struct kb *kb = kb_styles(step_app(c));
	const json_t *doc;
	const struct image_style *st;

	/* A model's own reading of the style stands; the prompt still gets
	 * the style named (image_named_apply). */
	if ((strcmp(action, "generate_image") != 0 && strcmp(action, "inpainting") != 0) || *style)
		return;
	if (named) {
		doc = kb ? kb_find(kb, json_string_value(json_object_get(named, "id"))) : NULL;
		if (doc)
			json_object_set(intent, "style", json_object_get(named, "name"));
		return;
	}
	st = image_style(text);
	if (st)
		json_object_set_new(intent, "style", json_string(image_zh(c->state) ? st->zh : st->en));
}

/* The document the request's words name, by the library's names or the
 * lexicon's; else (when the intent may say) the one the style names. */
static const json_t *image_named_asked(const json_t *docs, const char *text, const char *style,
				       int text_only)
{
	struct image_named nm;
	const struct image_style *st;
	size_t at;
	const json_t *doc;

	image_named_find(docs, text, &nm);
	st = image_style_at(text, &at);
	if (nm.doc && (st == NULL || nm.start < at))
		return nm.doc;
	/* A style of the lexicon named first (or the same style). */
	if ((doc = image_plan_lexicon_doc(docs, st)) != NULL)
		return doc;
	if (text_only)
		return NULL;
	if ((doc = image_named_doc(docs, style)) != NULL)
		return doc;
	return image_plan_lexicon_doc(docs, image_style(style));
}

/* A retrieval result for doc, with its similarity to query (0 when the
 * search does not find it). New reference. */
static json_t *image_named_hit(const struct kb *kb, const json_t *doc, const char *query)
{
	json_t *all = kb_search(kb, query, kb_count(kb), 0.0), *h;
	const char *id = json_string_value(json_object_get(doc, "id"));
	double sim = 0.0;
	size_t i;

	json_array_foreach(all, i, h)
		if (strcmp(json_string_value(json_object_get(h, "id")) ?: "", id) == 0)
			sim = json_number_value(json_object_get(h, "similarity"));
	json_decref(all);
	return json_pack("{s:s, s:O, s:O, s:O, s:f, s:s}", "id", id, "name_zh",
			 json_object_get(doc, "name_zh"), "name_en", json_object_get(doc, "name_en"),
			 "prompt", json_object_get(doc, "prompt"), "similarity", sim, "method", "named");
}

/* The result of hits for doc id, or NULL. Borrowed. */
static json_t *image_named_in(const json_t *hits, const char *id)
{
	json_t *h;
	size_t i;

	json_array_foreach(hits, i, h)
		if (id && strcmp(json_string_value(json_object_get(h, "id")) ?: "", id) == 0)
			return h;
	return NULL;
}

json_t *image_named_apply(struct step_ctx *c, json_t *hits, const char *text, const char *style,
			  const char *query, int inpaint, size_t limit)
{
	struct kb *kb = kb_styles(step_app(c));
	const json_t *doc = kb ? image_named_asked(kb_items(kb), text, style, inpaint) : NULL;
	const char *id = json_string_value(json_object_get(doc, "id"));
	json_t *out, *h, *found = image_named_in(hits, id);
	size_t i;

	if (doc == NULL && (hits == NULL || !inpaint))
		return hits;
	out = json_array();
	if (doc)
		json_array_append_new(out, found ? json_incref(found) : image_named_hit(kb, doc, query));
	/* A repaint takes no style it was not asked for. */
	json_array_foreach(hits, i, h)
		if (!inpaint && h != found && json_array_size(out) < limit)
			json_array_append(out, h);
	json_decref(hits);
	return out;
}
