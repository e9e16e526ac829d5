/* Word segmentation (see seg.h): ICU's word break for "zh", joined by our
 * own word list. */
#include "config.h"
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unicode/ubrk.h>
#include <unicode/uchar.h>
#include <unicode/utext.h>
#include "text/script.h"
#include "text/seg.h"
#include "util/log.h"
#include "util/xmalloc.h"

#define SEG_LIST_FILE_MAX (1 << 20)   /* the largest word list read, in bytes */

/* One piece of a part: its offset and length in the part, and whether it
 * is a word (letters, digits, ideographs) or a separator. */
struct seg_piece {
	size_t off, len;
	int word;
};

struct seg_out {
	text_seg_fn fn;
	void *ctx;
	size_t count;
};

static UBreakIterator *seg_bi;   /* opened on first use */
static int seg_bi_failed;        /* ICU could not open it: per-character pieces */
static int seg_atexit_done;
static char **seg_list;          /* sorted, unique */
static size_t seg_nlist;

/* -- the word list --------------------------------------------------------- */

static void seg_list_free(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void text_seg_close(void)
{
	if (seg_bi)
		ubrk_close(seg_bi);
	seg_bi = NULL;
	seg_bi_failed = 0;
	seg_list_free(seg_list, seg_nlist);
	seg_list = NULL;
	seg_nlist = 0;
}

static void seg_atexit(void)
{
	if (!seg_atexit_done) {
		seg_atexit_done = 1;
		atexit(text_seg_close);
	}
}

static int seg_str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct seg_key {
	const char *w;
	size_t n;
};

static int seg_key_cmp(const void *key, const void *elem)
{
	const struct seg_key *k = key;
	const char *e = *(char *const *)elem;
	int c = strncmp(k->w, e, k->n);

	if (c != 0)
		return c;
	return e[k->n] == '\0' ? 0 : -1;
}

int text_seg_listed(const char *w, size_t n)
{
	struct seg_key k = { w, n };

	if (seg_nlist == 0 || n == 0 || n > TEXT_SEG_WORD_MAX || memchr(w, '\0', n))
		return 0;
	return bsearch(&k, seg_list, seg_nlist, sizeof *seg_list, seg_key_cmp) != NULL;
}

size_t text_seg_listed_count(void)
{
	return seg_nlist;
}

/* A line's word, trimmed, checked: its length (0 for none: blank or a
 * comment), or -1 with why. */
static long seg_line_word(char *line, char **word, const char **why)
{
	const unsigned char *p, *end;
	size_t n = strlen(line);

	while (n > 0 && strchr(" \t\r\n", line[n - 1]))
		line[--n] = '\0';
	while (*line == ' ' || *line == '\t')
		line++, n--;
	*word = line;
	if (n == 0 || *line == '#')
		return 0;
	if (n > TEXT_SEG_WORD_MAX) {
		*why = "longer than 64 bytes";
		return -1;
	}
	for (p = (const unsigned char *)line, end = p + n; p < end;) {
		uint32_t cp;

		p += text_utf8_next(p, end, &cp);
		if (cp == TEXT_CP_BAD || cp == ' ' || cp == '\t') {
			*why = cp == TEXT_CP_BAD ? "not UTF-8" : "more than one word";
			return -1;
		}
	}
	return (long)n;
}

/* Reads the words of f into a sorted, unique list. 0 or -1 with err. */
static int seg_list_read(FILE *f, const char *path, char ***out, size_t *nout, char *err,
			 size_t errlen)
{
	char line[256], **list = NULL, *w;
	size_t n = 0, alloc = 0, lineno = 0, bytes = 0, uniq = 0;
	const char *why = NULL;

	while (fgets(line, sizeof line, f)) {
		long len;

		lineno++;
		bytes += strlen(line);
		if (bytes > SEG_LIST_FILE_MAX) {
			snprintf(err, errlen, "%s: larger than %d bytes", path, SEG_LIST_FILE_MAX);
			goto fail;
		}
		if (strchr(line, '\n') == NULL && !feof(f)) {
			snprintf(err, errlen, "%s:%zu: line too long", path, lineno);
			goto fail;
		}
		len = seg_line_word(line, &w, &why);
		if (len < 0) {
			snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
			goto fail;
		}
		if (len == 0)
			continue;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 128;
			list = xrealloc(list, alloc * sizeof *list);
		}
		list[n++] = xstrdup(w);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
		goto fail;
	}
	if (n > 0)
		qsort(list, n, sizeof *list, seg_str_cmp);
	for (size_t i = 0; i < n; i++) {
		if (uniq > 0 && strcmp(list[i], list[uniq - 1]) == 0)
			free(list[i]);
		else
			list[uniq++] = list[i];
	}
	n = uniq;
	*out = list;
	*nout = n;
	return 0;
fail:
	seg_list_free(list, n);
	return -1;
}

int text_seg_load(const char *path, char *err, size_t errlen)
{
	char **list = NULL;
	size_t n = 0;
	FILE *f;
	int rc;

	seg_atexit();
	if (path != NULL) {
		f = fopen(path, "r");
		if (f == NULL) {
			snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
			return -1;
		}
		rc = seg_list_read(f, path, &list, &n, err, errlen);
		fclose(f);
		if (rc < 0)
			return -1;
	}
	seg_list_free(seg_list, seg_nlist);
	seg_list = list;
	seg_nlist = n;
	return 0;
}

/* -- ICU ------------------------------------------------------------------- */

static UBreakIterator *seg_iter(void)
{
	UErrorCode st = U_ZERO_ERROR;

	if (seg_bi || seg_bi_failed)
		return seg_bi;
	seg_atexit();
	seg_bi = ubrk_open(UBRK_WORD, "zh", NULL, 0, &st);
	if (U_FAILURE(st)) {
		log_error("text: ICU word break unavailable (%s): one piece per character",
			  u_errorName(st));
		if (seg_bi)
			ubrk_close(seg_bi);
		seg_bi = NULL;
		seg_bi_failed = 1;
	}
	return seg_bi;
}

static void seg_piece_add(struct seg_piece **pc, size_t *np, size_t *ap, size_t off, size_t len,
			  int word)
{
	if (*np == *ap) {
		*ap = *ap ? *ap * 2 : 64;
		*pc = xrealloc(*pc, *ap * sizeof **pc);
	}
	(*pc)[*np].off = off;
	(*pc)[*np].len = len;
	(*pc)[(*np)++].word = word;
}

/* ICU's pieces of a valid UTF-8 part. -1 when ICU failed on it. */
static int seg_icu(UBreakIterator *bi, const char *s, size_t n, struct seg_piece **pc, size_t *np,
		   size_t *ap)
{
	UErrorCode st = U_ZERO_ERROR;
	UText ut = UTEXT_INITIALIZER;
	int32_t a, b;

	utext_openUTF8(&ut, s, (int64_t)n, &st);
	ubrk_setUText(bi, &ut, &st);
	if (U_FAILURE(st)) {
		utext_close(&ut);
		return -1;
	}
	for (a = ubrk_first(bi), b = ubrk_next(bi); b != UBRK_DONE; a = b, b = ubrk_next(bi))
		seg_piece_add(pc, np, ap, (size_t)a, (size_t)(b - a),
			      ubrk_getRuleStatus(bi) >= UBRK_WORD_NONE_LIMIT);
	utext_close(&ut);
	return 0;
}

/* Without ICU: each character of a script without spaces is a piece, and
 * so is each run of other letters and digits. */
static void seg_plain(const char *s, size_t n, struct seg_piece **pc, size_t *np, size_t *ap)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		const unsigned char *start = p;
		uint32_t cp;
		size_t k = text_utf8_next(p, end, &cp);

		if (text_no_spaces(cp) || !u_isalnum((UChar32)cp)) {
			seg_piece_add(pc, np, ap, (size_t)(p - (const unsigned char *)s), k,
				      text_no_spaces(cp));
			p += k;
			continue;
		}
		while (p < end && (k = text_utf8_next(p, end, &cp), !text_no_spaces(cp)) &&
		       u_isalnum((UChar32)cp))
			p += k;
		seg_piece_add(pc, np, ap, (size_t)(start - (const unsigned char *)s),
			      (size_t)(p - start), 1);
	}
}

/* The end (exclusive) of the longest run of word pieces from i whose
 * concatenation is listed; i + 1 when none is. */
static size_t seg_join(const char *s, const struct seg_piece *pc, size_t np, size_t i)
{
	size_t last = i + 1;

	for (size_t j = i + 1; j < np && j < i + TEXT_SEG_JOIN_MAX && pc[j].word; j++)
		if (text_seg_listed(s + pc[i].off, pc[j].off + pc[j].len - pc[i].off))
			last = j + 1;
	return last;
}

static void seg_emit(struct seg_out *o, const char *s, size_t n)
{
	uint32_t cp;

	text_utf8_next((const unsigned char *)s, (const unsigned char *)s + n, &cp);
	o->fn(o->ctx, s, n, text_is_han(cp));
	o->count++;
}

/* Segments one valid UTF-8 part of at most TEXT_SEG_CHUNK bytes. */
static void seg_part(struct seg_out *o, const char *s, size_t n)
{
	UBreakIterator *bi = seg_iter();
	struct seg_piece *pc = NULL;
	size_t np = 0, ap = 0, i = 0;

	if (bi == NULL || seg_icu(bi, s, n, &pc, &np, &ap) < 0) {
		np = 0;
		seg_plain(s, n, &pc, &np, &ap);
	}
	while (i < np) {
		size_t j;

		if (!pc[i].word) {
			i++;
			continue;
		}
		j = seg_join(s, pc, np, i);
		seg_emit(o, s + pc[i].off, pc[j - 1].off + pc[j - 1].len - pc[i].off);
		i = j;
	}
	free(pc);
}

/* The end of the next part from p: valid UTF-8 only, at most
 * TEXT_SEG_CHUNK bytes, cut after the last space or punctuation when
 * the cap cuts it (between two characters when there is none). */
static const char *seg_part_end(const char *p, const char *end)
{
	const unsigned char *q = (const unsigned char *)p, *e = (const unsigned char *)end;
	const unsigned char *sep = NULL;

	while (q < e) {
		uint32_t cp;
		size_t k = text_utf8_next(q, e, &cp);

		if (cp == TEXT_CP_BAD)
			return (const char *)q;
		if ((size_t)(q - (const unsigned char *)p) + k > TEXT_SEG_CHUNK)
			return sep ? (const char *)sep : (const char *)q;
		q += k;
		if (!text_no_spaces(cp) && !u_isalnum((UChar32)cp))
			sep = q;
	}
	return (const char *)q;
}

size_t text_seg(const char *text, size_t len, text_seg_fn fn, void *ctx)
{
	struct seg_out o = { fn, ctx, 0 };
	const char *p = text, *end = text ? text + len : NULL;

	while (p && p < end) {
		const char *q = seg_part_end(p, end);

		if (q == p) {
			p++;   /* an invalid byte separates words */
			continue;
		}
		seg_part(&o, p, (size_t)(q - p));
		p = q;
	}
	return o.count;
}

static void seg_words_add(void *ctx, const char *w, size_t n, int han)
{
	json_array_append_new(ctx, json_stringn(w, n));
}

json_t *text_seg_words(const char *text)
{
	json_t *a = json_array();

	if (text)
		text_seg(text, strlen(text), seg_words_add, a);
	return a;
}

struct seg_split {
	const char *base;
	struct text_word *w;
	size_t n, alloc;
};

static void seg_split_add(void *ctx, const char *w, size_t n, int han)
{
	struct seg_split *sp = ctx;

	if (sp->n == sp->alloc) {
		sp->alloc = sp->alloc ? sp->alloc * 2 : 16;
		sp->w = xrealloc(sp->w, sp->alloc * sizeof *sp->w);
	}
	sp->w[sp->n].off = (size_t)(w - sp->base);
	sp->w[sp->n++].len = n;
}

struct text_word *text_seg_split(const char *s, size_t n, size_t *count)
{
	struct seg_split sp = { s, NULL, 0, 0 };

	text_seg(s, n, seg_split_add, &sp);
	*count = sp.n;
	return sp.w;
}
