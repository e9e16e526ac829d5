/* What an offline picture shows of the request (image_crit.h): the
 * subject's words looked up in the offline pictures' glyph table
 * (prov/scene.h, the same table the pictures are drawn from) and found,
 * or not, among the glyphs the SVG holds; the style's filter likewise. */
#include "config.h"
#include <string.h>
#include <strings.h>
#include "prov/scene.h"
#include "wf/image/image_crit.h"

/* 1 when composition holds the glyph g (by its code points, else by the
 * character its title starts with). */
static int image_crit_has(const json_t *composition, const char *g)
{
	const json_t *v;
	char cp[64];
	size_t i;
	int known = scene_emoji_cp(g, cp, sizeof cp) == 0;

	json_array_foreach(json_object_get(composition, "glyphs"), i, v) {
		const char *vcp = json_string_value(json_object_get(v, "cp")) ?: "";
		const char *vg = json_string_value(json_object_get(v, "glyph")) ?: "";

		if ((known && strcasecmp(vcp, cp) == 0) || strcmp(vg, g) == 0)
			return 1;
	}
	return 0;
}

/* The name of glyph g for a reader of lang: the table's, else g. */
static const char *image_crit_name(const char *g, const char *lang)
{
	const char *n = scene_emoji_name(g, lang);

	return n && *n ? n : g;
}

json_t *image_crit_scene(const json_t *composition, const char *subject, const char *style,
			 const char *lang)
{
	const char *asked[SCENE_MAX_SUBJECTS];
	size_t n = subject && *subject ? scene_subjects(subject, asked, SCENE_MAX_SUBJECTS) : 0;
	const char *want = style && *style ? scene_style_for(style) : NULL;
	const char *got = json_string_value(json_object_get(composition, "style"));
	json_t *r = json_pack("{s:[], s:[], s:[], s:s?, s:s?}", "asked", "shown", "missing",
			      "styleAsked", want, "styleApplied", got);
	size_t shown = 0;

	for (size_t i = 0; i < n; i++) {
		int in = image_crit_has(composition, asked[i]);

		json_array_append_new(json_object_get(r, "asked"), json_string(asked[i]));
		json_array_append_new(json_object_get(r, in ? "shown" : "missing"),
				      json_string(image_crit_name(asked[i], lang)));
		shown += in;
	}
	if (n == 0 && subject && *subject)
		json_array_append_new(json_object_get(r, "missing"), json_string(subject));
	json_object_set_new(r, "none", json_boolean(subject && *subject && shown == 0));
	return r;
}
