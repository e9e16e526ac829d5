/* A style of the style library (etc/styles.json) named in a request: the
 * planner takes it as the request's style and the retrieval applies it
 * whatever its similarity to the rest of the request (image_named.c). */
#ifndef AV_IMAGE_NAMED_H
#define AV_IMAGE_NAMED_H
#include <stddef.h>
#include <jansson.h>
#include "text/rules.h"

/* Where a style is named: the library's document, and the bytes of the
 * request that name it (with 风格 / style and 的 after it, or "in the style
 * of" before it), which are not part of the subject. */
struct image_named {
	const json_t *doc;     /* borrowed from the library; NULL: none named */
	size_t start, end;
};

/* The first style of the library (docs: an array of documents with
 * name_zh, name_en and keywords) that text names, at whole words:
 * - a name that says it is a style by itself (水彩画, 印象派, 人像摄影,
 *   "oil painting", "pop art"), anywhere;
 * - any name or keyword followed by 风格 / 画风 / 风 / style (梵高风格,
 *   "Monet style"), after "in the style of", or alone after the last comma
 *   ("a fox, ukiyo-e").
 * 1 with *out filled, or 0 with out->doc NULL. */
int image_named_find(const json_t *docs, const char *text, struct image_named *out);
/* The document whose name (either language, any case) or keyword is name,
 * or NULL. Borrowed. */
const json_t *image_named_doc(const json_t *docs, const char *name);
/* 1 when style (a style the intent holds) is doc's: one of its names or
 * keywords, any case, or contains one. */
int image_named_is(const json_t *doc, const char *style);

/* The text asks for the last picture in the style of the library it
 * names (named: {name, start, end} as the planner's facts hold it,
 * borrowed; NULL: none), as image_restyle does for the lexicon's. */
struct rules_match image_named_restyle(const json_t *named, const char *text);

#endif
