/* Word segmentation (src/text/seg.c), as tables: sentences and their
 * words with the shipped word list (etc/words.txt); every listed word kept
 * whole inside a sentence, and split by ICU alone (so the list is what
 * keeps it whole); broken input, long input, and the list file's errors. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "text/script.h"
#include "text/seg.h"
#include "tap.h"

static const struct {
	const char *text, *words, *what;
} sentences[] = {
	{ "杭州西湖一日游", "杭州|西湖|一日游", "a place, a lake, a listed word" },
	{ "周末去杭州春游的攻略", "周末|去|杭州|春游|的|攻略", "春游 joined" },
	{ "一只在海边奔跑的金毛犬", "一只|在|海边|奔跑|的|金毛犬", "金毛犬 joined" },
	{ "小红书测评：重庆火锅", "小红书|测评|重庆|火锅", "two listed words, punctuation dropped" },
	{ "赛博朋克风格的城市夜景", "赛博朋克|风格|的|城市|夜景", "a style name" },
	{ "武汉东湖看樱花", "武汉|东湖|看|樱花", "东湖 joined" },
	{ "自驾318国道", "自驾|318|国道", "digits are a word" },
	{ "用iPhone拍小红书封面", "用|iPhone|拍|小红书|封面", "mixed Chinese and English" },
	{ "a lighthouse at dawn, in watercolor", "a|lighthouse|at|dawn|in|watercolor",
	  "English: ICU's words, case kept" },
	{ "🐱猫咪🌊挑食✨", "猫咪|挑食", "emoji are not words" },
	{ "杭州\xff西湖", "杭州|西湖", "an invalid byte separates" },
	{ "\xe4\xb8杭州", "杭州", "a cut character is dropped" },
	{ "春\xe4\xb8游", "春|游", "a cut character between two halves: no word joined across it" },
	{ "  ，。！？…  ", "", "punctuation and spaces only" },
	{ "", "", "empty" },
};

struct seg_got {
	char out[2048];
	size_t len;
	int bad;            /* a word that is not valid UTF-8, or a separator */
	int han_wrong;      /* the han flag disagrees with the first character */
};

static void seg_got_word(void *ctx, const char *w, size_t n, int han)
{
	struct seg_got *g = ctx;
	const unsigned char *p = (const unsigned char *)w, *end = p + n;
	uint32_t first = TEXT_CP_BAD;
	int k;

	for (int i = 0; p < end; i++) {
		uint32_t cp;

		p += text_utf8_next(p, end, &cp);
		if (i == 0)
			first = cp;
		if (cp == TEXT_CP_BAD || cp == ' ' || cp == 0x3002)
			g->bad = 1;
	}
	g->han_wrong |= han != text_is_han(first);
	k = snprintf(g->out + g->len, sizeof g->out - g->len, "%s%.*s", g->len ? "|" : "",
		     (int)n, w);
	if (k > 0 && (size_t)k < sizeof g->out - g->len)
		g->len += (size_t)k;
}

static void seg_of(const char *text, struct seg_got *g)
{
	memset(g, 0, sizeof *g);
	text_seg(text, strlen(text), seg_got_word, g);
}

/* The listed words of the shipped file, read here on their own. */
static size_t read_listed(const char *path, char words[][128], size_t max)
{
	FILE *f = fopen(path, "r");
	char line[128];
	size_t n = 0;

	if (f == NULL)
		return 0;
	while (n < max && fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (*line && *line != '#')
			memcpy(words[n++], line, strlen(line) + 1);
	}
	fclose(f);
	return n;
}

static void test_sentences(void)
{
	struct seg_got g;

	for (size_t i = 0; i < sizeof sentences / sizeof sentences[0]; i++) {
		seg_of(sentences[i].text, &g);
		is_str(g.out, sentences[i].words, "%s", sentences[i].what);
		ok(!g.bad && !g.han_wrong, "%s: valid words, han flag right", sentences[i].what);
	}
	is_int(text_seg(NULL, 0, seg_got_word, &g), 0, "NULL: no words");
}

/* Every listed word stays whole inside a sentence; ICU alone splits it. */
static void test_listed(const char *path)
{
	static char words[1024][128];
	size_t n = read_listed(path, words, 1024), whole = 0, split = 0;
	char text[256], want[256], err[512] = "";
	struct seg_got g;

	ok(n >= 40, "at least 40 listed words (%zu)", n);
	ok(text_seg_listed_count() == n, "the list in use has them all (%zu)",
	   text_seg_listed_count());
	for (size_t i = 0; i < n; i++) {
		snprintf(text, sizeof text, "关于%.100s，写一篇笔记", words[i]);
		snprintf(want, sizeof want, "|%.100s|", words[i]);
		seg_of(text, &g);
		memmove(g.out + 1, g.out, g.len + 1);
		g.out[0] = '|';
		strcat(g.out, "|");
		if (strstr(g.out, want))
			whole++;
		else
			printf("# split: %s -> %s\n", words[i], g.out);
	}
	is_int(whole, n, "every listed word whole inside a sentence");
	text_seg_load(NULL, err, sizeof err);
	for (size_t i = 0; i < n; i++) {
		seg_of(words[i], &g);
		if (strchr(g.out, '|'))
			split++;
		else
			printf("# ICU keeps it whole, the list need not: %s\n", words[i]);
	}
	is_int(split, n, "ICU alone splits every listed word");
	seg_of("杭州西湖一日游，小红书测评", &g);
	is_str(g.out, "杭州|西湖|一日|游|小|红|书|测|评", "without the list, ICU's pieces");
	ok(text_seg_load(path, err, sizeof err) == 0, "the list loads again (%s)", err);
}

static void test_long(void)
{
	static const char unit[] = "杭州西湖一日游，";
	size_t reps = 100 * 1024 / (sizeof unit - 1), n;
	char *big = malloc(reps * (sizeof unit - 1) + 1), *solid;
	struct seg_got g;
	json_t *w;

	for (size_t i = 0; i < reps; i++)
		memcpy(big + i * (sizeof unit - 1), unit, sizeof unit - 1);
	big[reps * (sizeof unit - 1)] = '\0';
	w = text_seg_words(big);
	n = 0;
	for (size_t i = 0; i < json_array_size(w); i++) {
		const char *s = json_string_value(json_array_get(w, i));

		n += strcmp(s, "杭州") == 0 || strcmp(s, "西湖") == 0 || strcmp(s, "一日游") == 0;
	}
	is_int(json_array_size(w), 3 * reps, "100 KB: three words a sentence, in %zu parts",
	       reps * (sizeof unit - 1) / TEXT_SEG_CHUNK + 1);
	is_int(n, 3 * reps, "100 KB: no word cut at a part's end");
	json_decref(w);
	/* No separator at all: parts cut between characters, still words. */
	solid = malloc(100 * 1024 + 1);
	for (size_t i = 0; i + 3 <= 100 * 1024; i += 3)
		memcpy(solid + i, "游", 3), solid[i + 3] = '\0';
	memset(&g, 0, sizeof g);
	n = text_seg(solid, strlen(solid), seg_got_word, &g);
	ok(n > 0 && !g.bad, "100 KB without a separator: %zu valid words", n);
	free(solid);
	free(big);
}

static const struct {
	const char *content, *err, *what;
} bad_lists[] = {
	{ "小红书\n金毛\xff犬\n", ":2: not UTF-8", "invalid UTF-8" },
	{ "# c\n小红 书\n", ":2: more than one word", "two words on a line" },
	{ "12345678901234567890123456789012345678901234567890123456789012345\n",
	  ":1: longer than 64 bytes", "too long" },
};

static void test_list_file(const char *tmp)
{
	char path[4096], err[512];
	FILE *f;

	ok(text_seg_load("/nonexistent/words.txt", err, sizeof err) < 0 &&
	   strstr(err, "/nonexistent/words.txt: cannot open") != NULL, "a missing list: %s", err);
	for (size_t i = 0; i < sizeof bad_lists / sizeof bad_lists[0]; i++) {
		snprintf(path, sizeof path, "%s/t_seg_words.txt", tmp);
		f = fopen(path, "w");
		fputs(bad_lists[i].content, f);
		fclose(f);
		err[0] = '\0';
		ok(text_seg_load(path, err, sizeof err) < 0 && strstr(err, bad_lists[i].err),
		   "%s: %s", bad_lists[i].what, err);
		remove(path);
	}
	ok(text_seg_listed("小红书", strlen("小红书")), "a bad file keeps the list in use");
	snprintf(path, sizeof path, "%s/t_seg_words.txt", tmp);
	f = fopen(path, "w");
	fputs("# words\n\n  金毛犬  \n金毛犬\n小红书\n", f);
	fclose(f);
	ok(text_seg_load(path, err, sizeof err) == 0 && text_seg_listed_count() == 2 &&
	   text_seg_listed("金毛犬", strlen("金毛犬")) && !text_seg_listed("小红", strlen("小红")),
	   "comments, blank lines, spaces and duplicates: 2 words (%s)", err);
	remove(path);
}

int main(void)
{
	const char *top = getenv("top_srcdir"), *tmp = getenv("TMPDIR");
	char path[4096], err[512] = "";

	snprintf(path, sizeof path, "%s/etc/words.txt", top && *top ? top : ".");
	ok(text_seg_load(path, err, sizeof err) == 0, "etc/words.txt loads (%s)", err);
	test_sentences();
	test_listed(path);
	test_long();
	test_list_file(tmp && *tmp ? tmp : "/tmp");
	text_seg_close();
	return tap_done();
}
