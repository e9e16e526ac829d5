/* The critic's look at the picture itself, when it is an offline one: an
 * SVG whose placed glyphs, style filter and background can be read back
 * (image_svg_read.c), set against what the request asked for
 * (image_crit.c): which of the subject's words have their glyph in the
 * picture, and whether the style asked for was applied. A picture of
 * another kind (a provider's PNG) has no composition to read: the critic
 * reviews its prompt only. */
#ifndef AV_IMAGE_CRIT_H
#define AV_IMAGE_CRIT_H
#include <stddef.h>
#include <jansson.h>

/* The largest SVG read back, and the most glyphs kept from it. */
#define IMAGE_CRIT_SVG_MAX (4 << 20)
#define IMAGE_CRIT_GLYPHS_MAX 64

/* The composition of an SVG: {"glyphs": [{"cp", "glyph", "name"}], "style":
 * the av-style filter's NAME (absent: none), "background"}. NULL when the
 * bytes are not a readable SVG. New reference. */
json_t *image_svg_composition(const void *svg, size_t len);

/* What composition (borrowed) shows of a request for subject in style
 * (either may be NULL or ""), in lang ("zh" or English):
 * {"asked": the subject's glyphs, "shown": names of those in the picture,
 *  "missing": names of those not in it (the subject itself when none of
 *  its words has a glyph), "none": true when the picture has none of them,
 *  "styleAsked": the filter the style calls for (null: none asked, or the
 *  offline pictures have no filter for it), "styleApplied": the filter in
 *  the picture (or null)}. New reference. */
json_t *image_crit_scene(const json_t *composition, const char *subject, const char *style,
			 const char *lang);

#endif
