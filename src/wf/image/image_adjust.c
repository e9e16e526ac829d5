/* A turn's adjustment sent as data (see image_adjust.h): checked field by
 * field against the table of kinds, a style looked up in the style
 * library by its id, and said back in the thread's language for the
 * conversation the planner reads on later turns. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kb/kb.h"
#include "text/msg.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/image/image_adjust.h"

#define IMAGE_ADJUST_SIDE_MIN 64      /* the pixels a side may have, as input.width */
#define IMAGE_ADJUST_SIDE_MAX 4096
#define IMAGE_ADJUST_ID_MAX 64        /* the longest style id looked up */

/* What each kind takes besides "kind": a style (which it needs), and the
 * parameters (of which params needs one). */
static const struct image_adjust_def {
	const char *kind;
	int style;
	int params;
	const char *fields;    /* said in the error when another field comes */
} image_adjust_defs[] = {
	{ "regenerate", 0, 0, "kind" },
	{ "restyle", 1, 1, "kind, style, styleStrength, width, height, light" },
	{ "params", 0, 1, "kind, styleStrength, width, height, light" },
};

static const char *const image_adjust_param_keys[] = { "styleStrength", "width", "height", "light" };

static const struct image_adjust_def *image_adjust_def(const char *kind)
{
	for (size_t i = 0; kind && i < sizeof image_adjust_defs / sizeof image_adjust_defs[0]; i++)
		if (strcmp(image_adjust_defs[i].kind, kind) == 0)
			return &image_adjust_defs[i];
	return NULL;
}

static int image_adjust_is_param(const char *key)
{
	for (size_t i = 0; i < sizeof image_adjust_param_keys / sizeof image_adjust_param_keys[0]; i++)
		if (strcmp(image_adjust_param_keys[i], key) == 0)
			return 1;
	return 0;
}

/* Every field is one the kind takes. */
static int image_adjust_fields(const json_t *adj, const struct image_adjust_def *d, char *err, size_t n)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)adj, key, v) {
		if (strcmp(key, "kind") == 0 || (d->style && strcmp(key, "style") == 0) ||
		    (d->params && image_adjust_is_param(key)))
			continue;
		return snprintf(err, n, "adjust: a \"%s\" adjustment takes only %s", d->kind, d->fields), -1;
	}
	return 0;
}

/* A whole number in [lo, hi] copied into out, when the field is there. */
static int image_adjust_int(const json_t *adj, const char *key, long lo, long hi, json_t *out,
			    char *err, size_t n)
{
	const json_t *v = json_object_get(adj, key);

	if (v == NULL)
		return 0;
	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return snprintf(err, n, "adjust.%s must be a whole number from %ld to %ld", key, lo, hi), -1;
	json_object_set_new(out, key, json_integer(json_integer_value(v)));
	return 0;
}

static int image_adjust_params_in(const json_t *adj, json_t *out, char *err, size_t n)
{
	const json_t *light = json_object_get(adj, "light");
	const char *l = json_string_value(light);

	if (image_adjust_int(adj, "styleStrength", 0, 100, out, err, n) < 0)
		return -1;
	if (!json_object_get(adj, "width") != !json_object_get(adj, "height"))
		return snprintf(err, n, "adjust.width and adjust.height come together"), -1;
	if (image_adjust_int(adj, "width", IMAGE_ADJUST_SIDE_MIN, IMAGE_ADJUST_SIDE_MAX, out, err, n) < 0 ||
	    image_adjust_int(adj, "height", IMAGE_ADJUST_SIDE_MIN, IMAGE_ADJUST_SIDE_MAX, out, err, n) < 0)
		return -1;
	if (light && (l == NULL || (strcmp(l, "brighter") != 0 && strcmp(l, "darker") != 0)))
		return snprintf(err, n, "adjust.light must be \"brighter\" or \"darker\""), -1;
	if (l)
		json_object_set_new(out, "light", json_string(l));
	return 0;
}

/* A style id as the library writes them: short, lower-case ASCII. */
static int image_adjust_id_ok(const char *id)
{
	size_t len = id ? strlen(id) : 0;

	if (len == 0 || len > IMAGE_ADJUST_ID_MAX)
		return 0;
	return strspn(id, "abcdefghijklmnopqrstuvwxyz0123456789_-") == len;
}

/* The style of a restyle: a style of the library by its id, kept with its
 * name in the thread's language. */
static int image_adjust_style_in(struct step_ctx *c, const json_t *adj, json_t *out, char *err,
				 size_t n)
{
	const char *id = json_string_value(json_object_get(adj, "style"));
	struct kb *kb;
	json_t *doc;
	const char *name;

	if (!image_adjust_id_ok(id))
		return snprintf(err, n, "adjust.style must be the id of a style of the library "
				"(GET /api/styles), such as \"watercolor\""), -1;
	kb = kb_styles(step_app(c));
	if (kb == NULL) {
		step_fail(c, "internal", "the style library cannot be read");
		return snprintf(err, n, "the style library cannot be read, so adjust.style cannot be "
				"checked"), -1;
	}
	doc = kb_find(kb, id);
	if (doc == NULL)
		return snprintf(err, n, "adjust.style: the style library has no style \"%s\" "
				"(GET /api/styles lists them)", id), -1;
	name = json_string_value(json_object_get(doc, strcmp(step_lang(c), "zh") == 0 ? "name_zh"
										      : "name_en"));
	json_object_set_new(out, "style", json_string(id));
	json_object_set_new(out, "styleName", json_string(name && *name ? name : id));
	return 0;
}

int image_adjust_take(struct step_ctx *c, const json_t *adj, json_t *user, char *err, size_t n)
{
	const struct image_adjust_def *d;
	json_t *out;

	if (adj == NULL || json_is_null(adj))
		return 0;
	if (!json_is_object(adj))
		return snprintf(err, n, "adjust must be an object such as {\"kind\": \"restyle\", "
				"\"style\": \"watercolor\"}"), -1;
	d = image_adjust_def(json_string_value(json_object_get(adj, "kind")));
	if (d == NULL)
		return snprintf(err, n, "adjust.kind must be \"regenerate\", \"restyle\" or \"params\""), -1;
	if (image_adjust_fields(adj, d, err, n) < 0)
		return -1;
	out = json_pack("{s:s}", "kind", d->kind);
	if ((d->style && image_adjust_style_in(c, adj, out, err, n) < 0) ||
	    (d->params && image_adjust_params_in(adj, out, err, n) < 0)) {
		json_decref(out);
		return -1;
	}
	if (strcmp(d->kind, "params") == 0 && json_object_size(out) == 1) {
		json_decref(out);
		return snprintf(err, n, "adjust: a \"params\" adjustment names styleStrength, width and "
				"height, or light"), -1;
	}
	json_object_set_new(user, "adjust", out);
	return 0;
}

const json_t *image_adjust_of(const json_t *state)
{
	const json_t *a = json_object_get(json_object_get(state, "userInput"), "adjust");

	return json_is_object(a) ? a : NULL;
}

const char *image_adjust_kind(const json_t *state)
{
	return json_string_value(json_object_get(image_adjust_of(state), "kind"));
}

/* The parameters, said: 风格强度 70，1280×720，更亮. */
static void image_adjust_say_params(struct buf *b, const json_t *adj, const char *lang)
{
	const char *sep = strcmp(lang, "zh") == 0 ? "，" : ", ";
	const char *light = json_string_value(json_object_get(adj, "light"));
	const json_t *s = json_object_get(adj, "styleStrength"), *w = json_object_get(adj, "width");
	size_t start = b->len;

	if (s) {
		char *t = msg_fmt(lang, "image.said.strength", (int)json_integer_value(s));

		buf_adds(b, t);
		free(t);
	}
	if (w)
		buf_printf(b, "%s%lld×%lld", b->len > start ? sep : "", (long long)json_integer_value(w),
			   (long long)json_integer_value(json_object_get(adj, "height")));
	if (light)
		buf_printf(b, "%s%s", b->len > start ? sep : "",
			   msg_get(lang, strcmp(light, "brighter") == 0 ? "image.said.brighter"
									  : "image.said.darker"));
}

char *image_adjust_said(const json_t *adj, const char *lang)
{
	const char *kind = json_string_value(json_object_get(adj, "kind")) ?: "";
	struct buf b, p;
	char *t;

	if (strcmp(kind, "regenerate") == 0)
		return xstrdup(msg_get(lang, "image.said.regenerate"));
	buf_init(&b, 1024);
	buf_init(&p, 512);
	image_adjust_say_params(&p, adj, lang);
	if (strcmp(kind, "restyle") == 0) {
		t = msg_fmt(lang, "image.said.restyle",
			    json_string_value(json_object_get(adj, "styleName")) ?: "");
		buf_adds(&b, t);
		free(t);
		if (p.len)
			buf_printf(&b, "%s%s", strcmp(lang, "zh") == 0 ? "，" : ", ", p.data);
	} else {
		t = msg_fmt(lang, "image.said.params", p.len ? p.data : "");
		buf_adds(&b, t);
		free(t);
	}
	buf_free(&p);
	return buf_steal(&b);
}

void image_adjust_params(const json_t *state, json_t *params)
{
	static const char *const keys[] = { "styleStrength", "width", "height" };
	const json_t *adj = image_adjust_of(state), *v;

	for (size_t i = 0; adj && i < sizeof keys / sizeof keys[0]; i++)
		if ((v = json_object_get(adj, keys[i])) != NULL)
			json_object_set_new(params, keys[i], json_integer(json_integer_value(v)));
}

const char *image_adjust_light_of(const json_t *state)
{
	return json_string_value(json_object_get(image_adjust_of(state), "light"));
}
