/* Which style of the style library a request names (image_named.h). A
 * library name such as 敦煌, 剪纸 or "cozy" is also a place, a thing or an
 * adjective, so it names a style only where the words say so (敦煌风格,
 * "cozy style", "a fox, ukiyo-e"); a name that is a style by itself
 * (炭笔画, 印象派, "oil painting", art movements) needs nothing more. Words
 * are compared whole (image_bounds) and English without case. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/rules_int.h"
#include "wf/image/image_intent.h"
#include "wf/image/image_named.h"
#include "util/xmalloc.h"

/* The text being read: as written, lower-cased (ASCII), and its words. */
struct image_named_text {
	const char *s;
	char *low;
	size_t n;
	struct image_bounds b;
};

/* Ends of names that make them a style by themselves. */
static const char *const image_named_style_ends[] = {
	"画", "派", "主义", "艺术", "摄影", "风", "印刷", "运动", "渲染", "插画",
	" painting", " drawing", " photography", " photo", " art", " print", " render",
	" illustration", " animation", " mural", "ism", "punk", "wave", NULL,
};

/* Words after a name that say it is the style: longest first. */
static const char *const image_named_markers[] = {
	"的风格", "的画风", "风格", "画风", "风", "art style", "aesthetic", "style", "look", NULL,
};

static void image_named_lower(char *s)
{
	for (; *s; s++)
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
}

static int image_named_ends_with(const char *w, const char *end)
{
	size_t lw = strlen(w), le = strlen(end);

	return lw > le && memcmp(w + lw - le, end, le) == 0;
}

/* A name that says it is a style (lower-cased), or any name of an art
 * movement. */
static int image_named_bare(const json_t *doc, const char *low)
{
	const char *cat = json_string_value(json_object_get(doc, "category"));

	if (cat && strcmp(cat, "movement") == 0)
		return 1;
	for (size_t i = 0; image_named_style_ends[i]; i++)
		if (image_named_ends_with(low, image_named_style_ends[i]))
			return 1;
	return 0;
}

static size_t image_named_skip_spaces(const struct image_named_text *t, size_t at)
{
	while (at < t->n && (t->low[at] == ' ' || t->low[at] == '-' || t->low[at] == '\t'))
		at++;
	return at;
}

/* The end of a marker after at (and of the 的 after it), or 0. */
static size_t image_named_marker(const struct image_named_text *t, size_t at)
{
	size_t p = image_named_skip_spaces(t, at), l;

	for (size_t i = 0; image_named_markers[i]; i++) {
		l = strlen(image_named_markers[i]);
		if (p + l > t->n || memcmp(t->low + p, image_named_markers[i], l) != 0 ||
		    !image_bounds_ok(&t->b, p + l))
			continue;
		p += l;
		if (p + 3 <= t->n && memcmp(t->low + p, "的", 3) == 0)
			p += 3;
		return p;
	}
	return 0;
}

/* The start of "in the style of " / "in the style of the " just before a,
 * or a itself. */
static size_t image_named_style_of(const struct image_named_text *t, size_t a)
{
	static const char *const leads[] = { "in the style of ", "style of ", NULL };

	for (size_t i = 0; leads[i]; i++) {
		size_t l = strlen(leads[i]);

		if (a >= l && memcmp(t->low + a - l, leads[i], l) == 0)
			return a - l;
	}
	return a;
}

/* The start of ", " before a when the name is the text's last words (a
 * trailing period or spaces aside), or a itself. */
static size_t image_named_tail(const struct image_named_text *t, size_t a, size_t b)
{
	size_t p = a;

	for (size_t q = b; q < t->n; q++)
		if (!strchr(" .!。！", t->low[q]))
			return a;
	while (p > 0 && t->low[p - 1] == ' ')
		p--;
	if (p >= 1 && t->low[p - 1] == ',')
		return p - 1;
	if (p >= 3 && (memcmp(t->low + p - 3, "，", 3) == 0 || memcmp(t->low + p - 3, "、", 3) == 0))
		return p - 3;
	return a;
}

/* Whether the occurrence [a, b) of word w names doc's style: *start and
 * *end then span the words that name it. */
static int image_named_at(const struct image_named_text *t, const json_t *doc, const char *w,
			  int is_name, size_t a, size_t b, size_t *start, size_t *end)
{
	size_t m;

	if (!image_bounds_ok(&t->b, a))
		return 0;
	*start = a;
	if ((m = image_named_marker(t, b)) != 0) {
		*end = m;
		return 1;
	}
	if (!image_bounds_ok(&t->b, b))
		return 0;
	*end = b;
	if (is_name && image_named_bare(doc, w)) {
		if (b + 3 <= t->n && memcmp(t->low + b, "的", 3) == 0)
			*end = b + 3;
		return 1;
	}
	if ((*start = image_named_style_of(t, a)) != a)
		return 1;
	return (*start = image_named_tail(t, a, b)) != a;
}

/* The first place word w (lower-cased) names doc's style, if before the
 * best so far (or as early and longer): *best updated. */
static void image_named_word(const struct image_named_text *t, const json_t *doc, const char *w,
			     int is_name, struct image_named *best)
{
	size_t lw = strlen(w), start, end;
	const char *p = t->low;

	if (lw == 0)
		return;
	while ((p = strstr(p, w)) != NULL) {
		size_t a = (size_t)(p - t->low);

		if (best->doc && a > best->start)
			return;
		if (image_named_at(t, doc, w, is_name, a, a + lw, &start, &end)) {
			if (best->doc == NULL || start < best->start ||
			    (start == best->start && end > best->end)) {
				best->doc = doc;
				best->start = start;
				best->end = end;
			}
			return;
		}
		p += 1;
	}
}

/* Calls image_named_word for each name and keyword of doc. */
static void image_named_doc_words(const struct image_named_text *t, const json_t *doc,
				  struct image_named *best)
{
	static const char *const names[] = { "name_zh", "name_en" };
	const json_t *kw = json_object_get(doc, "keywords"), *v;
	size_t i;
	char *w;

	for (i = 0; i < 2; i++) {
		w = xstrdup(json_string_value(json_object_get(doc, names[i])) ?: "");
		image_named_lower(w);
		image_named_word(t, doc, w, 1, best);
		free(w);
	}
	json_array_foreach(kw, i, v) {
		w = xstrdup(json_string_value(v) ?: "");
		image_named_lower(w);
		image_named_word(t, doc, w, 0, best);
		free(w);
	}
}

int image_named_find(const json_t *docs, const char *text, struct image_named *out)
{
	struct image_named_text t;
	const json_t *doc;
	size_t i;

	memset(out, 0, sizeof *out);
	if (text == NULL || !json_is_array(docs))
		return 0;
	t.s = text;
	t.n = rules_text_len(text);
	t.low = xstrndup(text, t.n);
	image_named_lower(t.low);
	image_bounds_init(&t.b, text, t.n);
	json_array_foreach(docs, i, doc)
		image_named_doc_words(&t, doc, out);
	image_bounds_free(&t.b);
	free(t.low);
	return out->doc != NULL;
}

/* 1 when a and b are the same words, English without case. */
static int image_named_same(const char *a, const char *b)
{
	return a && b && strcasecmp(a, b) == 0;
}

/* 1 when style contains s, English without case. */
static int image_named_has(const char *style, const char *s)
{
	char *a, *b;
	int in;

	if (s == NULL || *s == '\0')
		return 0;
	a = xstrdup(style);
	b = xstrdup(s);
	image_named_lower(a);
	image_named_lower(b);
	in = strstr(a, b) != NULL;
	free(a);
	free(b);
	return in;
}

const json_t *image_named_doc(const json_t *docs, const char *name)
{
	const json_t *doc, *v;
	size_t i, k;

	if (name == NULL || *name == '\0')
		return NULL;
	json_array_foreach(docs, i, doc)
		if (image_named_same(json_string_value(json_object_get(doc, "name_zh")), name) ||
		    image_named_same(json_string_value(json_object_get(doc, "name_en")), name))
			return doc;
	json_array_foreach(docs, i, doc)
		json_array_foreach(json_object_get(doc, "keywords"), k, v)
			if (image_named_same(json_string_value(v), name))
				return doc;
	return NULL;
}

int image_named_is(const json_t *doc, const char *style)
{
	const json_t *v;
	size_t k;

	if (doc == NULL || style == NULL || *style == '\0')
		return 0;
	if (image_named_has(style, json_string_value(json_object_get(doc, "name_zh"))) ||
	    image_named_has(style, json_string_value(json_object_get(doc, "name_en"))))
		return 1;
	json_array_foreach(json_object_get(doc, "keywords"), k, v)
		if (image_named_has(style, json_string_value(v)))
			return 1;
	return 0;
}

struct rules_match image_named_restyle(const json_t *named, const char *text)
{
	struct rules_match none = { 0, "none", 0.0 };

	if (!json_is_object(named) || json_string_value(json_object_get(named, "name")) == NULL)
		return none;
	return image_restyle_span(text, (size_t)json_integer_value(json_object_get(named, "start")),
				  (size_t)json_integer_value(json_object_get(named, "end")));
}
