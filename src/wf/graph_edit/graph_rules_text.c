/* Text tools of the offline planner (graph_rules.h): case folding,
 * trimming, and finding words and separators in a request, English ones
 * at word boundaries so that "to" is not found inside "tokens". */
#include "config.h"
#include <ctype.h>
#include <string.h>
#include <strings.h>
#include "util/xmalloc.h"
#include "wf/graph_edit/graph_rules_int.h"

static const char *const gr_punct[] = {
	"，", "。", "！", "？", "；", "：", "、", "「", "」", "“", "”", "‘", "’", "（", "）",
	"《", "》", "…", NULL
};

char *gr_lower(const char *s, size_t n)
{
	char *r = xstrndup(s, n);

	for (char *c = r; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	return r;
}

/* The length of the punctuation or space at s (n bytes left), 0 when none. */
static size_t gr_punct_len(const char *s, size_t n)
{
	if (n && (isspace((unsigned char)*s) || (ispunct((unsigned char)*s) && *s != '_' &&
						      *s != '-' && *s != '.')))
		return 1;
	for (size_t i = 0; gr_punct[i]; i++) {
		size_t l = strlen(gr_punct[i]);

		if (l <= n && memcmp(s, gr_punct[i], l) == 0)
			return l;
	}
	return 0;
}

/* The length of the punctuation or space that ends [s, s+n), 0 when none. */
static size_t gr_punct_end(const char *s, size_t n)
{
	if (n && (isspace((unsigned char)s[n - 1]) || (ispunct((unsigned char)s[n - 1]) &&
							s[n - 1] != '_' && s[n - 1] != '-' &&
							s[n - 1] != '.' && s[n - 1] != ')')))
		return 1;
	for (size_t i = 0; gr_punct[i]; i++) {
		size_t l = strlen(gr_punct[i]);

		if (l <= n && memcmp(s + n - l, gr_punct[i], l) == 0)
			return l;
	}
	return 0;
}

void gr_trim(const char **s, size_t *n)
{
	size_t l;

	while (*n && (l = gr_punct_len(*s, *n)) > 0)
		*s += l, *n -= l;
	while (*n && (l = gr_punct_end(*s, *n)) > 0)
		*n -= l;
	if (*n && (*s)[*n - 1] == '.')  /* a full stop, not a decimal point */
		*n -= 1;
}

static int gr_word_char(unsigned char c)
{
	return isalnum(c) || c == '_' || c == '\'';
}

static int gr_ascii(const char *w)
{
	for (; *w; w++)
		if ((unsigned char)*w >= 0x80)
			return 0;
	return 1;
}

long gr_find(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);
	int ascii = gr_ascii(w), alnum_start = gr_word_char((unsigned char)w[0]) && w[0] != '\'',
	    alnum_end = l && gr_word_char((unsigned char)w[l - 1]);

	for (size_t i = 0; i + l <= n; i++) {
		if (ascii ? strncasecmp(s + i, w, l) != 0 : memcmp(s + i, w, l) != 0)
			continue;
		if (ascii && alnum_start && i > 0 && gr_word_char((unsigned char)s[i - 1]))
			continue;
		if (ascii && alnum_end && i + l < n && gr_word_char((unsigned char)s[i + l]))
			continue;
		return (long)i;
	}
	return -1;
}

/* The first (last: the last) separator of list in [s, s+n): its place and
 * length; -1 when none. */
static long gr_sep(const char *s, size_t n, const char *const *list, int last, size_t *len)
{
	long best = -1;

	for (size_t i = 0; list[i]; i++) {
		long at = gr_find(s, n, list[i]), p = at;

		while (last && p >= 0) {
			at = p;
			long q = gr_find(s + p + 1, n - (size_t)p - 1, list[i]);
			p = q < 0 ? -1 : p + 1 + q;
		}
		if (at < 0 || at == 0)
			continue;
		if (best < 0 || (last ? at > best : at < best) ||
		    (at == best && strlen(list[i]) > *len)) {
			best = at;
			*len = strlen(list[i]);
		}
	}
	return best;
}

static int gr_split_at(const char *s, size_t n, long at, size_t len, const char **l,
		       size_t *ln, const char **r, size_t *rn)
{
	if (at < 0)
		return 0;
	*l = s, *ln = (size_t)at;
	*r = s + at + len, *rn = n - (size_t)at - len;
	gr_trim(l, ln);
	gr_trim(r, rn);
	return *ln > 0 && *rn > 0;
}

int gr_split2(const char *s, size_t n, const char *const *list, const char **l, size_t *ln,
	      const char **r, size_t *rn)
{
	size_t len = 0;
	long at = gr_sep(s, n, list, 0, &len);

	return gr_split_at(s, n, at, len, l, ln, r, rn);
}

int gr_split2_last(const char *s, size_t n, const char *const *list, const char **l,
		   size_t *ln, const char **r, size_t *rn)
{
	size_t len = 0;
	long at = gr_sep(s, n, list, 1, &len);

	return gr_split_at(s, n, at, len, l, ln, r, rn);
}

void gr_trim_light(const char **s, size_t *n)
{
	static const char *const ends[] = { "，", "。", "！", "？", "；", "：", "、", ",", ";", "!", "?",
					    NULL };
	int again = 1;

	while (again) {
		again = 0;
		while (*n && isspace((unsigned char)**s))
			(*s)++, (*n)--;
		while (*n && isspace((unsigned char)(*s)[*n - 1]))
			(*n)--;
		for (size_t i = 0; ends[i]; i++) {
			size_t l = strlen(ends[i]);

			if (*n >= l && !memcmp(*s, ends[i], l))
				*s += l, *n -= l, again = 1;
			else if (*n >= l && !memcmp(*s + *n - l, ends[i], l))
				*n -= l, again = 1;
		}
	}
	if (*n > 1 && (*s)[*n - 1] == '.' && !isdigit((unsigned char)(*s)[*n - 2]))
		*n -= 1;
}

int gr_split2_last_raw(const char *s, size_t n, const char *const *list, const char **l,
		       size_t *ln, const char **r, size_t *rn)
{
	size_t len = 0;
	long at = gr_sep(s, n, list, 1, &len);

	if (at < 0)
		return 0;
	*l = s, *ln = (size_t)at;
	*r = s + at + len, *rn = n - (size_t)at - len;
	gr_trim(l, ln);
	gr_trim_light(r, rn);
	return *ln > 0 && *rn > 0;
}
