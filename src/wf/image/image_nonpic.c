/* Requests with nothing to picture (image_intent.h): work on a text (translate
 * this, summarise that, 润色这段文字, fix my code), a keyboard mash
 * ("asdfgh", "qwerty"), placeholder text ("lorem ipsum") and digits or
 * signs alone. The planner answers them with its friendly "describe the
 * picture" instead of drawing the words. */
#include "config.h"
#include <string.h>
#include "text/rules_int.h"
#include "wf/image/image_intent.h"

/* A verb of work on a text near what it works on, or the language a text
 * is to be put in. */
#define IMAGE_NONPIC_TEXT_TASK \
	"(?:翻译|译成|翻成|润色|校对|改写|缩写|扩写|续写|总结|概括|摘要|排版|纠错|改错|检查|" \
	"转换|转成|改成|变成|写成|修改|修复|调试|优化)\\s*(?:一下)?\\s*(?:这|那|我的|下面的|以下的?)?" \
	"(?:[一几]?[句段篇份个封首])?\\s*(?:话|文字|文本|文章|句子|段落|代码|程序|函数|文件|文档|" \
	"邮件|简历|作文|论文|稿子|报告|PDF|Word|Excel|表格)|" \
	"(?:翻译|译|翻|改|转|写)成(?:英文|中文|日文|韩文|法文|德文|西班牙文|俄文|英语|汉语|日语|" \
	"韩语|法语|德语|繁体|简体)|" \
	"\\b(?:translate|summari[sz]e|proofread|rewrite|paraphrase|convert|fix|debug|refactor|" \
	"format|spell-?check|correct|edit|shorten|expand)\\b.{0,40}?\\b(?:text|sentences?|" \
	"paragraphs?|code|files?|documents?|pdf|docx?|emails?|essays?|articles?|scripts?|" \
	"programs?|functions?|bugs?|english|chinese|french|spanish|japanese|german)\\b|" \
	"\\b(?:translate|summari[sz]e|proofread|paraphrase)\\b"

/* Text that is there to fill a space. */
#define IMAGE_NONPIC_PLACEHOLDER "\\blorem\\s+ipsum\\b|\\bfoo\\s*bar\\b|\\btest(?:ing)?\\s*\\d*\\s*\\z"

static pcre2_code *image_nonpic_task, *image_nonpic_filler;

void image_nonpic_free(void)
{
	pcre2_code_free(image_nonpic_task);
	pcre2_code_free(image_nonpic_filler);
	image_nonpic_task = image_nonpic_filler = NULL;
}

static const char *const image_nonpic_rows[] = {
	"qwertyuiop", "asdfghjkl", "zxcvbnm", "1234567890", NULL,
};

/* 1 when w has four letters in a row along a row of the keyboard, either
 * way (asdf, fdsa, qwer, hjkl). */
static int image_nonpic_row_run(const char *w, size_t n)
{
	for (size_t i = 0; i + 4 <= n; i++)
		for (size_t r = 0; image_nonpic_rows[r]; r++) {
			const char *row = image_nonpic_rows[r], *p = strchr(row, w[i]);
			int fwd = 1, back = 1;

			if (p == NULL || w[i] == '\0')
				continue;
			for (size_t k = 1; k < 4; k++) {
				size_t at = (size_t)(p - row);

				fwd &= at + k < strlen(row) && row[at + k] == w[i + k];
				back &= at >= k && row[at - k] == w[i + k];
			}
			if (fwd || back)
				return 1;
		}
	return 0;
}

static int image_nonpic_vowel(char ch)
{
	return strchr("aeiouy", ch) != NULL;
}

/* A Latin word (lower case, n letters) no language has: a keyboard run,
 * no vowel in four letters or more, or five consonants in a row. */
static int image_nonpic_gibberish_word(const char *w, size_t n)
{
	size_t run = 0, vowels = 0, most = 0;

	if (image_nonpic_row_run(w, n))
		return 1;
	for (size_t i = 0; i < n; i++) {
		run = image_nonpic_vowel(w[i]) ? 0 : run + 1;
		vowels += image_nonpic_vowel(w[i]);
		most = run > most ? run : most;
	}
	return (n >= 4 && vowels == 0) || most >= 5;
}

/* Counts the Latin words of text and those of them no language has; *han:
 * whether it has any letter that is not Latin (Chinese…). */
static void image_nonpic_words(const char *text, size_t len, size_t *words, size_t *bad, int *han)
{
	char w[64];
	size_t n = 0;

	*words = *bad = 0;
	*han = 0;
	for (size_t i = 0; i <= len; i++) {
		unsigned char ch = i < len ? (unsigned char)text[i] : ' ';

		if (ch >= 0x80)
			*han = 1;
		if ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z') {
			if (n < sizeof w)
				w[n] = (char)(ch | 0x20);
			n++;
			continue;
		}
		if (n > 0) {
			*words += 1;
			*bad += image_nonpic_gibberish_word(w, n < sizeof w ? n : sizeof w);
		}
		n = 0;
	}
}

/* 1 when text has no letter of any script (digits and signs alone). */
static int image_nonpic_no_letters(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];

		if (ch >= 0x80 || ((ch | 0x20) >= 'a' && (ch | 0x20) <= 'z'))
			return 0;
	}
	return 1;
}

struct rules_match image_not_picture(const char *text)
{
	struct rules_match m = { 0, "none", 0.0 };
	size_t len = rules_text_len(text), words, bad;
	int han;

	if (text == NULL)
		return m;
	if (image_nonpic_task == NULL) {
		image_nonpic_task = rules_compile("text_task", IMAGE_NONPIC_TEXT_TASK);
		image_nonpic_filler = rules_compile("placeholder", IMAGE_NONPIC_PLACEHOLDER);
	}
	image_nonpic_words(text, len, &words, &bad, &han);
	if (rules_any(image_nonpic_task, text))
		m.rule = "text_task";
	else if (rules_any(image_nonpic_filler, text))
		m.rule = "placeholder";
	else if (image_nonpic_no_letters(text, len))
		m.rule = "no_letters";
	else if (!han && words > 0 && bad * 2 >= words)
		m.rule = "gibberish";
	else
		return m;
	m.matched = 1;
	m.confidence = 0.2;
	return m;
}
