/* Cutting and joining short texts at word boundaries (see wordcut.h).
 * The words are text_seg_split's: ICU's dictionary break joined by our
 * word list; every other byte (spaces, punctuation, emoji) separates. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/seg.h"
#include "text/wordcut.h"
#include "util/xmalloc.h"

/* The words of s, *n of them (NULL when none). */
static struct text_word *wordcut_words(const char *s, size_t *n)
{
	return text_seg_split(s, strlen(s), n);
}

/* 1 when off lies strictly inside one of the n words. */
static int wordcut_inside(const struct text_word *w, size_t n, size_t off)
{
	for (size_t i = 0; i < n; i++)
		if (w[i].off < off && off < w[i].off + w[i].len)
			return 1;
	return 0;
}

int wordcut_at_boundary(const char *s, size_t off)
{
	struct text_word *w;
	size_t n;
	int in;

	if (s == NULL || off == 0 || off >= strlen(s))
		return 1;
	w = wordcut_words(s, &n);
	in = wordcut_inside(w, n, off);
	free(w);
	return !in;
}

/* 1 when the character at p (UTF-8) is a space or a separator a cut
 * should not end with. */
static size_t wordcut_trail(const char *s, size_t end)
{
	static const char *const seps[] = { "，", "、", "。", "；", "：", "｜", "（", "「", "《", "—", "…",
					    "！", "？", "·" };
	int again = 1;

	while (again && end > 0) {
		again = 0;
		if (strchr(" \t\n,.;:|-(/&+", s[end - 1])) {
			end--, again = 1;
			continue;
		}
		for (size_t i = 0; i < sizeof(seps) / sizeof(seps[0]); i++) {
			size_t l = strlen(seps[i]);

			if (end >= l && memcmp(s + end - l, seps[i], l) == 0) {
				end -= l, again = 1;
				break;
			}
		}
	}
	return end;
}

char *wordcut_prefix(const char *s, size_t max, int ellipsis)
{
	struct text_word *w;
	size_t n, off = 0, chars = 0, best = 0, limit;
	char *out;

	if (s == NULL)
		return xstrdup("");
	for (const char *p = s; *p; p++)
		chars += ((unsigned char)*p & 0xC0) != 0x80;
	if (chars <= max)
		return xstrdup(s);
	limit = ellipsis && max > 0 ? max - 1 : max;
	w = wordcut_words(s, &n);
	/* The last character boundary within the limit not inside a word. */
	for (chars = 0; s[off] && chars <= limit; chars++) {
		if (!wordcut_inside(w, n, off))
			best = off;
		off++;
		while (((unsigned char)s[off] & 0xC0) == 0x80)
			off++;
	}
	if (chars <= limit && !wordcut_inside(w, n, off))
		best = off;
	free(w);
	best = wordcut_trail(s, best);
	if (best == 0)
		return xstrdup("");
	out = xmalloc(best + 4);
	memcpy(out, s, best);
	strcpy(out + best, ellipsis ? "…" : "");
	return out;
}

/* The same word: bytes equal, ASCII case ignored. */
static int wordcut_same(const char *a, size_t na, const char *b, size_t nb)
{
	return na == nb && strncasecmp(a, b, na) == 0;
}

char *wordcut_join(const char *a, const char *b)
{
	size_t la = strlen(a ? a : ""), lb = strlen(b ? b : ""), keep = 0;

	a = a ? a : "", b = b ? b : "";
	/* The longest start of b that a ends with, whole words of b, and
	 * whole words of a too (or two characters or more of Chinese: a
	 * listed 装备清单 is one word, its 清单 still said twice). */
	for (size_t l = lb < la ? lb : la; l > 0 && keep == 0; l--) {
		int han = ((unsigned char)b[0] & 0x80) != 0;

		if (memcmp(a + la - l, b, l) != 0 || !wordcut_at_boundary(b, l))
			continue;
		if (wordcut_at_boundary(a, la - l) || (han && l >= 6))
			keep = l;
	}
	return xasprintf("%s%s", a, b + keep);
}

/* 1 for a repeat Chinese says on purpose: 一步一步, 一天一天. */
static int wordcut_redup(const char *w, size_t n)
{
	return n <= 6 && n >= 3 && memcmp(w, "一", 3) == 0;
}

/* 1 when only spaces lie between byte offsets from and to of s. */
static int wordcut_spaces(const char *s, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (s[i] != ' ')
			return 0;
	return 1;
}

int wordcut_repeats(const char *s)
{
	struct text_word *w;
	size_t n;
	int rep = 0;

	if (s == NULL)
		return 0;
	w = wordcut_words(s, &n);
	/* k words said again right after (k = 1 to 4), only spaces between. */
	for (size_t k = 1; !rep && k <= 4; k++)
		for (size_t i = 0; !rep && i + 2 * k <= n; i++) {
			int same = 1;

			for (size_t j = 0; same && j < k; j++)
				same = wordcut_same(s + w[i + j].off, w[i + j].len, s + w[i + k + j].off,
						    w[i + k + j].len);
			for (size_t j = i; same && j + 1 < i + 2 * k; j++)
				same = wordcut_spaces(s, w[j].off + w[j].len, w[j + 1].off);
			if (same && k == 1 && (w[i].len < 2 || wordcut_redup(s + w[i].off, w[i].len)))
				same = 0;   /* 好好 is one word to ICU; 一步一步 on purpose */
			rep = same;
		}
	free(w);
	return rep;
}
