/* Text tools of the rules that stand in for a model: hashing for varied
 * but stable wording, UTF-8 safe truncation, sentences and keywords.
 * Keywords: Chinese runs are cut into words by the segmenter (seg.c),
 * then at function words and at common topic suffixes; English words lose
 * stop words. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sodium.h>
#include "text/phrase.h"
#include "text/script.h"
#include "text/seg.h"
#include "util/xmalloc.h"

const char *phrase_str(const json_t *facts, const char *key)
{
	const char *s = json_string_value(json_object_get(facts, key));

	return s && *s ? s : NULL;
}

/* The code point at s and its length (1 for a byte that starts nothing). */
static size_t phrase_cp(const char *s, uint32_t *cp)
{
	const unsigned char *u = (const unsigned char *)s;

	return text_utf8_next(u, u + strnlen(s, 4), cp);
}

static int phrase_is_alnum(uint32_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

uint64_t phrase_hash(const char *s, const char *salt)
{
	unsigned char h[16];
	crypto_generichash_state st;
	uint64_t v = 0;

	crypto_generichash_init(&st, NULL, 0, sizeof h);
	crypto_generichash_update(&st, (const unsigned char *)(salt ? salt : ""), salt ? strlen(salt) : 0);
	crypto_generichash_update(&st, (const unsigned char *)"\0", 1);
	crypto_generichash_update(&st, (const unsigned char *)(s ? s : ""), s ? strlen(s) : 0);
	crypto_generichash_final(&st, h, sizeof h);
	for (int i = 0; i < 8; i++)
		v = v << 8 | h[i];
	return v;
}

const char *phrase_pick(const char *const *list, size_t n, uint64_t h, unsigned which)
{
	return list[((h >> (8 * (which % 8))) & 0xFF) % n];
}

size_t phrase_chars(const char *s)
{
	size_t n = 0;

	for (; s && *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

/* The bigrams of s (two code points each) counted in a new object. */
static json_t *phrase_bigrams(const char *s, size_t *total)
{
	json_t *out = json_object();
	const char *a = s, *b, *c;

	*total = 0;
	for (; *a; a = b) {
		char key[16];
		json_t *v;

		for (b = a + 1; *b && ((unsigned char)*b & 0xC0) == 0x80; b++)
			;
		if (*b == '\0')
			break;
		for (c = b + 1; *c && ((unsigned char)*c & 0xC0) == 0x80; c++)
			;
		if ((size_t)(c - a) >= sizeof key)
			continue;
		memcpy(key, a, (size_t)(c - a));
		key[c - a] = '\0';
		v = json_object_get(out, key);
		json_object_set_new(out, key, json_integer(json_integer_value(v) + 1));
		(*total)++;
	}
	return out;
}

double phrase_alike(const char *a, const char *b)
{
	size_t na, nb, shared = 0;
	json_t *ga = phrase_bigrams(a ? a : "", &na), *gb = phrase_bigrams(b ? b : "", &nb), *v;
	const char *k;

	json_object_foreach(ga, k, v) {
		json_int_t x = json_integer_value(v), y = json_integer_value(json_object_get(gb, k));

		shared += (size_t)(x < y ? x : y);
	}
	json_decref(ga);
	json_decref(gb);
	if (na + nb == 0)
		return a && b && strcmp(a, b) == 0 ? 1.0 : 0.0;
	return 2.0 * (double)shared / (double)(na + nb);
}

char *phrase_truncate(const char *s, size_t max)
{
	size_t i = 0, chars = 0;

	if (s == NULL)
		return xstrdup("");
	while (s[i] && chars < max) {
		i++;
		while (((unsigned char)s[i] & 0xC0) == 0x80)
			i++;
		chars++;
	}
	if (s[i] == '\0')
		return xstrdup(s);
	return xasprintf("%.*s…", (int)i, s);
}

int phrase_has(const char *hay, const char *needle)
{
	return hay && needle && *needle && strcasestr(hay, needle) != NULL;
}

int phrase_has_any(const char *hay, const json_t *needles)
{
	size_t i;
	json_t *w;

	json_array_foreach(needles, i, w)
		if (phrase_has(hay, json_string_value(w)))
			return 1;
	return 0;
}

void phrase_join(struct buf *b, const json_t *arr, const char *sep, size_t max)
{
	size_t i, k = 0;
	json_t *v;

	json_array_foreach(arr, i, v) {
		if (!json_is_string(v) || k == max)
			continue;
		buf_printf(b, "%s%s", k++ ? sep : "", json_string_value(v));
	}
}

void phrase_add_unique(json_t *arr, const char *s)
{
	size_t i;
	json_t *v;

	if (s == NULL || *s == '\0')
		return;
	json_array_foreach(arr, i, v)
		if (strcasecmp(json_string_value(v), s) == 0)
			return;
	json_array_append_new(arr, json_string(s));
}

void phrase_say(struct buf *b, int zh, const char *zh_fmt, const char *en_fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, en_fmt);
	if (vasprintf(&s, zh ? zh_fmt : en_fmt, ap) >= 0) {
		buf_adds(b, s);
		free(s);
	}
	va_end(ap);
}

int phrase_present(const json_t *v)
{
	if (v == NULL || json_is_null(v) || json_is_false(v))
		return 0;
	if (json_is_string(v))
		return json_string_length(v) > 0;
	if (json_is_object(v))
		return json_object_size(v) > 0;
	if (json_is_array(v))
		return json_array_size(v) > 0;
	return 1;
}

static const char *const phrase_question_starts[] = {
	"什么", "为什么", "为啥", "怎么", "如何", "哪", "谁", "多少", "是不是", "能不能", "可不可以",
	"有没有", "请问", "what", "why", "how", "who", "when", "where", "which", "is ", "are ",
	"can ", "could ", "do ", "does ", "should ", "will ",
};
static const char *const phrase_question_ends[] = {
	"？", "?", "吗", "呢", "么", "没有", "怎么样", "如何", "多少", "几点", "哪里", "哪儿", "为什么",
};

int phrase_question(const char *text)
{
	size_t n;

	while (text && (*text == ' ' || *text == '\n'))
		text++;
	if (text == NULL || *text == '\0')
		return 0;
	for (size_t i = 0; i < sizeof phrase_question_starts / sizeof phrase_question_starts[0]; i++)
		if (strncasecmp(text, phrase_question_starts[i], strlen(phrase_question_starts[i])) == 0)
			return 1;
	n = strlen(text);
	while (n > 0 && strchr(" \n\r\t", text[n - 1]))
		n--;
	for (size_t i = 0; i < sizeof phrase_question_ends / sizeof phrase_question_ends[0]; i++) {
		size_t l = strlen(phrase_question_ends[i]);

		if (n >= l && memcmp(text + n - l, phrase_question_ends[i], l) == 0)
			return 1;
	}
	/* A question mark inside: "这个多少钱？谢谢" */
	return strstr(text, "？") != NULL || strchr(text, '?') != NULL;
}

/* ---- sentences ---- */

static size_t phrase_sentence_end(const char *p)
{
	static const char *const ends[] = { "。", "！", "？", "；", "…" };

	if (*p == '\n' || *p == '!' || *p == '?' || *p == ';')
		return 1;
	if (*p == '.' && (p[1] == ' ' || p[1] == '\n' || p[1] == '\0'))
		return 1;
	for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++)
		if (strncmp(p, ends[i], strlen(ends[i])) == 0)
			return strlen(ends[i]);
	return 0;
}

static void phrase_add_sentence(json_t *out, const char *a, const char *b)
{
	while (a < b && (*a == ' ' || *a == '\t' || *a == '-' || *a == '*' || *a == '#'))
		a++;
	while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\r'))
		b--;
	if (b > a)
		json_array_append_new(out, json_stringn(a, (size_t)(b - a)));
}

json_t *phrase_sentences(const char *text, size_t max)
{
	json_t *out = json_array();
	const char *p = text ? text : "", *start = p;
	size_t n;

	while (*p && json_array_size(out) < max) {
		n = phrase_sentence_end(p);
		if (n == 0) {
			p++;
			continue;
		}
		/* Keep the sentence's own mark, not a line break. */
		phrase_add_sentence(out, start, *p == '\n' ? p : p + n);
		p += n;
		start = p;
	}
	if (json_array_size(out) < max)
		phrase_add_sentence(out, start, p);
	return out;
}

json_t *phrase_best(const json_t *sentences, const json_t *kw, size_t keep)
{
	size_t n = json_array_size(sentences), i, k;
	int *score = xcalloc(n ? n : 1, sizeof *score);
	json_t *out = json_array(), *v, *w;

	json_array_foreach(sentences, i, v)
		json_array_foreach(kw, k, w)
			score[i] += phrase_has(json_string_value(v), json_string_value(w));
	/* A sentence stays if fewer than keep beat it (ties: the earlier wins). */
	json_array_foreach(sentences, i, v) {
		size_t better = 0;

		for (k = 0; k < n; k++)
			better += score[k] > score[i] || (score[k] == score[i] && k < i);
		if (better < keep)
			json_array_append(out, v);
	}
	free(score);
	return out;
}

/* ---- keywords ---- */

static const char *const phrase_zh_stop_words[] = {
	"为什么", "怎么样", "什么", "怎么", "如何", "可以", "能不能", "一下", "一个", "一些",
	"我们", "你们", "他们", "这个", "那个", "这些", "那些", "还是", "或者", "以及", "然后",
	"因为", "所以", "但是", "如果", "就是", "还有", "没有", "不是", "关于", "帮我", "请问",
	"告诉我", "知道", "觉得", "现在", "今天", "有关", "需要", "想要", "一杯", "一份", "一篇",
	"一次", "一天", "一种", "一款", "一本", "一套", "一点", "几本", "几个", "几种", "几款",
	"几家", "几条",
};
static const char phrase_zh_stop_chars[] =
	"的了和与及或在是我你他她它也都就很还要把被让给对从到这那吗呢吧啊呀么请个些再又有得着";
static const char *const phrase_zh_suffixes[] = {
	"攻略", "指南", "推荐", "清单", "教程", "测评", "合集", "技巧", "方法", "心得", "经验",
	"日记", "分享", "好物", "避坑",
};
static const char *const phrase_en_stop[] = {
	"the", "and", "for", "with", "are", "was", "were", "this", "that", "what", "how", "why",
	"who", "when", "where", "which", "can", "could", "you", "your", "please", "does", "about",
	"tell", "give", "some", "any", "from", "will", "would", "should", "have", "has", "our",
	"their", "they", "them", "there", "here", "just", "more", "most", "very", "not", "but",
	"then", "than", "also", "into", "out", "all", "its", "it's", "i'm", "let", "get", "make",
	"want", "need", "know", "like", "is", "it", "me", "my", "we", "do", "to", "of", "in", "on",
	"an", "or", "be", "as", "at", "by", "if", "so", "no", "a", "i",
};

int phrase_generic(const char *word)
{
	for (size_t i = 0; word && i < sizeof phrase_zh_suffixes / sizeof phrase_zh_suffixes[0]; i++)
		if (strcmp(word, phrase_zh_suffixes[i]) == 0)
			return 1;
	return 0;
}

#define OFFLINE_KW_SCAN (16 * 1024)

struct phrase_kw {
	json_t *words;    /* in order of first appearance */
	json_t *counts;   /* word -> count */
};

static void phrase_kw_add(struct phrase_kw *k, const char *s, size_t n)
{
	char *w = xstrndup(s, n);
	json_t *c = json_object_get(k->counts, w);

	if (c == NULL) {
		json_array_append_new(k->words, json_string(w));
		json_object_set_new(k->counts, w, json_integer(1));
	} else {
		json_integer_set(c, json_integer_value(c) + 1);
	}
	free(w);
}

/* Characters (code points) of n bytes. */
static size_t phrase_kw_chars(const char *s, size_t n)
{
	size_t chars = 0;

	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			chars++;
	return chars;
}

/* The text from word a to word b as a keyword, when it has two
 * characters or more. */
static void phrase_kw_part(struct phrase_kw *k, const char *s, const struct text_word *a,
			    const struct text_word *b)
{
	size_t n = b->off + b->len - a->off;

	if (phrase_kw_chars(s + a->off, n) >= 2)
		phrase_kw_add(k, s + a->off, n);
}

/* A Chinese phrase without function words, words w[0..nw) of s: kept
 * whole up to six characters, else cut between words into parts of at
 * most four characters (a longer word is a part of its own); parts of one
 * character are left out. */
static void phrase_kw_han_plain(struct phrase_kw *k, const char *s, const struct text_word *w,
				 size_t nw)
{
	size_t start = 0;

	if (nw > 0 && phrase_kw_chars(s + w[0].off, w[nw - 1].off + w[nw - 1].len - w[0].off) <= 6) {
		phrase_kw_part(k, s, &w[0], &w[nw - 1]);
		return;
	}
	while (start < nw) {
		size_t end = start, chars = phrase_kw_chars(s + w[start].off, w[start].len);

		while (end + 1 < nw) {
			size_t c = phrase_kw_chars(s + w[end + 1].off, w[end + 1].len);

			if (chars + c > 4)
				break;
			chars += c;
			end++;
		}
		phrase_kw_part(k, s, &w[start], &w[end]);
		start = end + 1;
	}
}

/* Splits off a known suffix first: 春游攻略 is 春游 and 攻略. */
static void phrase_kw_han_piece(struct phrase_kw *k, const char *s, const struct text_word *w,
				 size_t nw)
{
	if (nw >= 2) {
		const struct text_word *last = &w[nw - 1];

		for (size_t j = 0; j < sizeof phrase_zh_suffixes / sizeof phrase_zh_suffixes[0]; j++) {
			size_t sl = strlen(phrase_zh_suffixes[j]);

			if (last->len == sl && memcmp(s + last->off, phrase_zh_suffixes[j], sl) == 0 &&
			    phrase_kw_chars(s + w[0].off, last->off - w[0].off) >= 2) {
				phrase_kw_han_plain(k, s, w, nw - 1);
				phrase_kw_add(k, s + last->off, sl);
				return;
			}
		}
	}
	phrase_kw_han_plain(k, s, w, nw);
}

/* The number of words from w[i] that make a function word (一下, 怎么…
 * or one of the single characters 的, 了…), 0 for none. */
static size_t phrase_zh_stop_at(const char *s, const struct text_word *w, size_t nw, size_t i)
{
	for (size_t j = 0; j < sizeof phrase_zh_stop_words / sizeof phrase_zh_stop_words[0]; j++) {
		size_t sl = strlen(phrase_zh_stop_words[j]);

		if (strncmp(s + w[i].off, phrase_zh_stop_words[j], sl) != 0)
			continue;
		for (size_t e = i; e < nw && w[e].off + w[e].len - w[i].off <= sl; e++)
			if (w[e].off + w[e].len - w[i].off == sl)
				return e - i + 1;
	}
	if (phrase_kw_chars(s + w[i].off, w[i].len) == 1) {
		for (const char *q = phrase_zh_stop_chars; *q;) {
			uint32_t d;
			size_t dn = phrase_cp(q, &d);

			if (dn == w[i].len && memcmp(q, s + w[i].off, dn) == 0)
				return 1;
			q += dn;
		}
	}
	return 0;
}

/* A Han run cut into words by the segmenter, then into phrases at
 * function words: a keyword is never part of a word. */
static void phrase_kw_han_run(struct phrase_kw *k, const char *s, size_t n)
{
	size_t nw, start = 0, i = 0, stop;
	struct text_word *w = text_seg_split(s, n, &nw);

	while (i < nw) {
		stop = phrase_zh_stop_at(s, w, nw, i);
		if (stop) {
			phrase_kw_han_piece(k, s, w + start, i - start);
			i += stop;
			start = i;
		} else {
			i++;
		}
	}
	phrase_kw_han_piece(k, s, w + start, nw - start);
	free(w);
}

static void phrase_kw_word(struct phrase_kw *k, const char *s, size_t n)
{
	char w[64];
	int digit = 0;

	if (n >= sizeof w)
		return;
	for (size_t i = 0; i < n; i++) {
		w[i] = (char)(s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]);
		digit |= s[i] >= '0' && s[i] <= '9';
	}
	w[n] = '\0';
	if (n < (digit ? 2u : 3u))
		return;
	for (size_t i = 0; i < sizeof phrase_en_stop / sizeof phrase_en_stop[0]; i++)
		if (strcmp(w, phrase_en_stop[i]) == 0)
			return;
	phrase_kw_add(k, w, n);
}

/* Split the text into Han runs and Latin words. */
static void phrase_kw_scan(struct phrase_kw *k, const char *text)
{
	const char *p = text;
	uint32_t c;
	size_t n;

	/* The start of a long text says what it is about. */
	while (*p && (size_t)(p - text) < OFFLINE_KW_SCAN) {
		const char *start = p;

		n = phrase_cp(p, &c);
		if (text_is_han(c)) {
			while (*p && (n = phrase_cp(p, &c), text_is_han(c)))
				p += n;
			phrase_kw_han_run(k, start, (size_t)(p - start));
		} else if (phrase_is_alnum(c)) {
			while (*p && (phrase_is_alnum((unsigned char)*p) || *p == '\'' || *p == '-'))
				p++;
			phrase_kw_word(k, start, (size_t)(p - start));
		} else {
			p += n;
		}
	}
}

json_t *phrase_keywords(const char *text, size_t max)
{
	struct phrase_kw k = { json_array(), json_object() };
	json_t *out = json_array();
	long best;
	size_t i;
	json_t *w;

	phrase_kw_scan(&k, text ? text : "");
	/* Most frequent first; ties keep their order of appearance. */
	while (json_array_size(out) < max) {
		const char *pick = NULL;

		best = 0;
		json_array_foreach(k.words, i, w) {
			long c = 2 * (long)json_integer_value(json_object_get(k.counts, json_string_value(w)));

			/* Words that only say what kind of text it is come after
			 * the words of its subject. */
			if (c > 0 && phrase_generic(json_string_value(w)))
				c--;

			if (c > best) {
				best = c;
				pick = json_string_value(w);
			}
		}
		if (pick == NULL)
			break;
		json_array_append_new(out, json_string(pick));
		json_object_set_new(k.counts, pick, json_integer(0));
	}
	json_decref(k.words);
	json_decref(k.counts);
	return out;
}
