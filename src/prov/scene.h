/* The offline provider's scenes: what a prompt's words ask to be drawn.
 * Subjects and props are emoji chosen by their CLDR annotations in
 * Chinese and English (the table emoji_table.c, generated from the CLDR
 * and the Noto Color Emoji font by contrib/gen/emoji_table.py, holds each
 * glyph's names, keywords and colour bitmap); the words also choose a
 * background (sky, sea, snow, night, city, room, forest, lake), a style
 * drawn as an SVG filter (watercolour, oil, inkwash, pixel, sketch) and
 * the colours. Pure lookups on static tables: no allocation, no state,
 * the same answer on every machine.
 *
 * In the SVG (svg.c) each placed glyph is
 *   <g class="av-glyph" data-cp="1F431"><title>🐱 NAME</title><image …/></g>
 * (the title starts with the character, then its CLDR name in the
 * prompt's language), the style filter is applied with
 * filter="url(#av-style-NAME)" and the root group carries
 * data-background="NAME". */
#ifndef AV_SCENE_H
#define AV_SCENE_H
#include <stddef.h>

/* The most subjects a picture draws. */
#define SCENE_MAX_SUBJECTS 6

/* The glyph (the emoji character in UTF-8, static) the offline pictures
 * draw for a subject word in Chinese or English ("猫", "cats", "Cat"),
 * plurals and case folded; NULL when no glyph is known for it. */
const char *scene_emoji_for(const char *word);

/* The CLDR name of a glyph scene_emoji_for returned (or any glyph of the
 * table, given as its UTF-8) in lang ("zh"; anything else is English);
 * NULL for a glyph not in the table. Static. */
const char *scene_emoji_name(const char *glyph, const char *lang);

/* The glyph's code points as data-cp writes them ("1F431", "1F1E8-1F1F3"),
 * into out; 0, or -1 for a glyph not in the table. */
int scene_emoji_cp(const char *glyph, char *out, size_t outlen);

/* The subjects a text asks for: the glyphs of the words found in it, in
 * the order they appear, without repeats, at most max of them (static
 * strings, into out). Longest words first, so "雪人" is a snowman, not
 * snow. The number found. */
size_t scene_subjects(const char *text, const char **out, size_t max);

/* The background the words choose ("sky", "sea", "snow", "night", "city",
 * "room", "forest", "lake"); "sky" when none is named. Static. */
const char *scene_background_for(const char *text);

/* The style the words name ("watercolour", "oil", "inkwash", "pixel",
 * "sketch"), or NULL for none. Static. */
const char *scene_style_for(const char *text);

#endif
