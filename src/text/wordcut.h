/* Cutting and joining short texts at word boundaries (titles, cover
 * lines, tags, captions): words are ICU's plus our list's (text/seg.h),
 * so a cut never splits 莫干山 into 莫 and 干山, 快手菜 into 快手 and 菜,
 * nor an English word in half. */
#ifndef AV_TEXT_WORDCUT_H
#define AV_TEXT_WORDCUT_H
#include <stddef.h>

/* The longest start of s of at most max characters (code points) that
 * ends at the end of a word (trailing spaces and separators trimmed); s
 * itself when it fits. When the first word alone is longer than max, ""
 * (a caller picks something shorter rather than half a word). With
 * ellipsis, a cut text ends in "…" (counted in max). The caller frees it. */
char *wordcut_prefix(const char *s, size_t max, int ellipsis);
/* 1 when byte offset off of s is at a word boundary: the start or end of
 * s, or between two words or a word and a separator, never inside a word. */
int wordcut_at_boundary(const char *s, size_t off);
/* a followed by b, without saying a word twice: the longest end of a that
 * is also a start of b, made of whole words of both, is written once
 * (装备清单 + 清单推荐 → 装备清单推荐). The caller frees it. */
char *wordcut_join(const char *a, const char *b);
/* 1 when s says the same word twice in a row (装备清单清单, "a guide to a
 * guide"); the words compared case-folded. */
int wordcut_repeats(const char *s);

#endif
