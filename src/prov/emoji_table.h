/* The emoji table the offline pictures draw from (emoji_table.c, written
 * by contrib/gen/emoji_table.py): each glyph's character, CLDR names and
 * colour bitmap, and the words that choose it. Read through scene.h. */
#ifndef AV_EMOJI_TABLE_H
#define AV_EMOJI_TABLE_H
#include <stddef.h>

struct emoji_glyph {
	const char *chars;          /* the character, UTF-8 */
	const char *cp;             /* its code point in hex, as data-cp writes it */
	const char *name_zh, *name_en;  /* CLDR short names */
	unsigned char rgb[3];       /* the mean colour of its opaque pixels */
	int w, h;                   /* the bitmap's size in pixels */
	const char *png64;          /* the bitmap, a PNG in base64 */
};

struct emoji_word {
	const char *word;           /* lower case */
	int glyph;                  /* index in emoji_glyphs */
};

extern const struct emoji_glyph emoji_glyphs[];
extern const size_t emoji_nglyphs;
extern const struct emoji_word emoji_words[];   /* sorted by strcmp */
extern const size_t emoji_nwords;

#endif
