/* The tokenizer of the knowledge bases: the same for documents and
 * queries, so whatever a query says matches what a document says the same
 * way. Chinese has no spaces, so CJK text is cut into overlapping
 * character bigrams ("赛博朋克" -> 赛博 博朋 朋克), which find words without
 * a dictionary; its words of three characters or more as the segmenter
 * finds them (text/seg.h: 小红书, 金毛犬) are tokens too, so a document
 * with the query's word ranks before one that only has its bigrams (小红
 * of 小红帽, 红书 of 红书包);
 * ASCII text is cut into lower-cased words. Text comes from
 * users: every byte sequence is decoded with bounds checks, and anything
 * that is not valid UTF-8 is a separator. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kb/kb.h"
#include "text/script.h"
#include "text/seg.h"

#define KB_WORD_MAX 40       /* longer "words" are noise (hashes, base64): dropped */

/* English words that say nothing about a document: function words and the
 * filler of requests ("in the style of", "please make me"). Sorted. */
static const char *const kb_stopwords[] = {
	"about", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could",
	"do", "for", "from", "get", "has", "have", "how", "in", "into", "is", "it", "its", "just",
	"let", "like", "make", "me", "my", "need", "of", "on", "onto", "or", "our", "please", "so",
	"some", "style", "than", "that", "the", "their", "them", "then", "there", "these", "they",
	"this", "those", "to", "too", "up", "us", "very", "want", "was", "we", "were", "what",
	"when", "which", "while", "who", "will", "with", "without", "would", "you", "your",
};

struct kb_tok {
	void (*fn)(void *ctx, const char *tok, size_t n);
	void *ctx;
	char word[KB_WORD_MAX + 1];
	size_t wlen;
	int wlong;             /* the current word passed KB_WORD_MAX */
	unsigned char prev[4]; /* the previous CJK character of the run, as UTF-8 */
	size_t prevlen;
	int run;               /* CJK characters in the current run */
};

/* A letter or digit as lower-case ASCII (full-width forms folded), else 0. */
static char kb_ascii_alnum(uint32_t c)
{
	if (c >= 0xff10 && c <= 0xff5a)
		c -= 0xfee0;
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'))
		return (char)c;
	if (c >= 'A' && c <= 'Z')
		return (char)(c - 'A' + 'a');
	return 0;
}

static int kb_stop_cmp(const void *key, const void *elem)
{
	return strcmp(key, *(const char *const *)elem);
}

static int kb_is_stopword(const char *w)
{
	return bsearch(w, kb_stopwords, sizeof kb_stopwords / sizeof kb_stopwords[0],
		       sizeof kb_stopwords[0], kb_stop_cmp) != NULL;
}

/* "skies" -> "sky", "colors" -> "color"; "glass", "surreal" stay. Both
 * sides go through it, so a wrong cut still matches itself. */
static void kb_stem(char *w, size_t *n)
{
	if (*n <= 3 || w[*n - 1] != 's')
		return;
	if (*n > 4 && strcmp(w + *n - 3, "ies") == 0) {
		strcpy(w + *n - 3, "y");
		*n -= 2;
	} else if (w[*n - 2] != 's' && w[*n - 2] != 'u' && w[*n - 2] != 'i') {
		w[--*n] = '\0';
	}
}

static void kb_word_end(struct kb_tok *t)
{
	size_t n = t->wlen;
	int digits;

	t->word[n] = '\0';
	digits = strspn(t->word, "0123456789") == n;
	if (n > 0 && !t->wlong && (n >= 2 || digits) && !kb_is_stopword(t->word)) {
		kb_stem(t->word, &n);
		if (!kb_is_stopword(t->word))
			t->fn(t->ctx, t->word, n);
	}
	t->wlen = 0;
	t->wlong = 0;
}

static void kb_run_end(struct kb_tok *t)
{
	char one[5];

	if (t->run == 1) {
		memcpy(one, t->prev, t->prevlen);
		one[t->prevlen] = '\0';
		t->fn(t->ctx, one, t->prevlen);
	}
	t->run = 0;
	t->prevlen = 0;
}

static void kb_run_add(struct kb_tok *t, const unsigned char *p, size_t n)
{
	char pair[9];

	if (t->run > 0) {
		memcpy(pair, t->prev, t->prevlen);
		memcpy(pair + t->prevlen, p, n);
		pair[t->prevlen + n] = '\0';
		t->fn(t->ctx, pair, t->prevlen + n);
	}
	memcpy(t->prev, p, n);
	t->prevlen = n;
	t->run++;
}

struct kb_seg {
	void (*fn)(void *ctx, const char *tok, size_t n);
	void *ctx;
};

/* A segmented word of three characters or more with a character of a
 * script without spaces, lower-cased: shorter ones are bigrams or single
 * characters already, and the ASCII words are the loop's. */
static void kb_seg_word(void *ctx, const char *w, size_t n, int han)
{
	const unsigned char *p = (const unsigned char *)w, *end = p + n;
	struct kb_seg *s = ctx;
	char tok[TEXT_SEG_WORD_MAX + 1];
	size_t chars = 0;
	int cjk = 0;

	if (n > TEXT_SEG_WORD_MAX)
		return;
	while (p < end) {
		uint32_t cp;
		size_t k = text_utf8_next(p, end, &cp);

		cjk |= text_no_spaces(cp);
		memcpy(tok + (p - (const unsigned char *)w), p, k);
		if (k == 1 && cp >= 'A' && cp <= 'Z')
			tok[p - (const unsigned char *)w] = (char)(cp - 'A' + 'a');
		chars++;
		p += k;
	}
	tok[n] = '\0';
	if (cjk && chars >= 3)
		s->fn(s->ctx, tok, n);
}

void kb_tokenize(const char *text, size_t len, void (*fn)(void *ctx, const char *tok, size_t n),
		 void *ctx)
{
	const unsigned char *p = (const unsigned char *)text, *end;
	struct kb_tok t = { .fn = fn, .ctx = ctx };
	struct kb_seg seg = { fn, ctx };
	int cjk = 0;

	if (text == NULL)
		return;
	end = p + len;
	while (p < end) {
		uint32_t cp;
		size_t n = text_utf8_next(p, end, &cp);
		char c = cp == TEXT_CP_BAD ? 0 : kb_ascii_alnum(cp);

		if (c) {
			kb_run_end(&t);
			if (t.wlen < KB_WORD_MAX)
				t.word[t.wlen++] = c;
			else
				t.wlong = 1;
		} else if (cp != TEXT_CP_BAD && text_no_spaces(cp)) {
			cjk = 1;
			kb_word_end(&t);
			kb_run_add(&t, p, n);
		} else {
			kb_word_end(&t);
			kb_run_end(&t);
		}
		p += n;
	}
	kb_word_end(&t);
	kb_run_end(&t);
	/* The segmenter's tokens are words with a character of a script
	 * without spaces: text with none has none to give. */
	if (cjk)
		text_seg(text, len, kb_seg_word, &seg);
}

static void kb_tokens_add(void *ctx, const char *tok, size_t n)
{
	json_array_append_new(ctx, json_stringn(tok, n));
}

json_t *kb_tokens(const char *text, size_t len)
{
	json_t *a = json_array();

	kb_tokenize(text, len, kb_tokens_add, a);
	return a;
}
