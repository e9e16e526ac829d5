/* Scripts and languages of text (src/text/script.c), as tables: the
 * language of whole texts, the script of single code points, and the UTF-8
 * decoder on valid and broken sequences. */
#include "config.h"
#include <stdint.h>
#include <string.h>
#include "text/script.h"
#include "tap.h"

static const struct {
	const char *text, *lang, *what;
} langs[] = {
	{ "一只在海边奔跑的金毛犬", "zh", "Han" },
	{ "a lighthouse at dawn", "en", "English" },
	{ "a lighthouse at dawn。", "en", "English with a Chinese full stop" },
	{ "「a lighthouse at dawn」，", "en", "English in CJK punctuation" },
	{ "画一个 lighthouse", "zh", "Chinese with an English word" },
	{ "Write a note about 杭州", "en", "English with a Chinese place name" },
	{ "ひらがなとカタカナ hello", "en", "kana is not Han" },
	{ "안녕하세요 hello", "en", "Hangul is not Han" },
	{ "🐱🌊✨", "zh", "emoji only: the product's language" },
	{ "。，！？…", "zh", "punctuation only: the product's language" },
	{ "2024 12 31 !!!", "zh", "digits and ASCII punctuation only" },
	{ "", "zh", "empty" },
	{ NULL, "zh", "NULL" },
	{ "小红书 review 测评", "zh", "mixed, more Han" },
	{ "\xe4\xb8", "zh", "a cut Han character is not Han" },
	{ "abc\xff\xfe def", "en", "invalid bytes among English" },
	{ "𠀀𠀁 ab", "zh", "Han beyond the BMP" },
};

static const struct {
	uint32_t cp;
	int han, no_spaces;
	const char *what;
} cps[] = {
	{ 0x4e00, 1, 1, "一" },
	{ 0x732b, 1, 1, "猫" },
	{ 0x3400, 1, 1, "extension A" },
	{ 0x20000, 1, 1, "extension B" },
	{ 0xf900, 1, 1, "compatibility ideograph" },
	{ 0x3005, 1, 1, "々" },
	{ 0x3042, 0, 1, "hiragana あ" },
	{ 0x30ab, 0, 1, "katakana カ" },
	{ 0x30fb, 0, 0, "katakana middle dot" },
	{ 0xac00, 0, 1, "Hangul 가" },
	{ 0x3002, 0, 0, "。" },
	{ 0xff0c, 0, 0, "，" },
	{ 0x1f431, 0, 0, "emoji 🐱" },
	{ 'a', 0, 0, "a" },
	{ '7', 0, 0, "7" },
	{ TEXT_CP_BAD, 0, 0, "a bad byte" },
};

static const struct {
	const char *s;
	size_t len;
	uint32_t cp;
	const char *what;
} seqs[] = {
	{ "A", 1, 'A', "ASCII" },
	{ "\xc3\xa9", 2, 0xe9, "two bytes" },
	{ "\xe7\x8c\xab", 3, 0x732b, "three bytes" },
	{ "\xf0\x9f\x90\xb1", 4, 0x1f431, "four bytes" },
	{ "\xc0\xaf", 1, TEXT_CP_BAD, "overlong" },
	{ "\xed\xa0\x80", 1, TEXT_CP_BAD, "surrogate" },
	{ "\xf4\x90\x80\x80", 1, TEXT_CP_BAD, "beyond U+10FFFF" },
	{ "\xe7\x8c", 1, TEXT_CP_BAD, "truncated" },
	{ "\x80", 1, TEXT_CP_BAD, "a lone continuation byte" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof langs / sizeof langs[0]; i++)
		is_str(text_lang(langs[i].text), langs[i].lang, "text_lang: %s", langs[i].what);
	for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
		is_int(text_is_han(cps[i].cp), cps[i].han, "text_is_han: %s", cps[i].what);
		is_int(text_no_spaces(cps[i].cp), cps[i].no_spaces, "text_no_spaces: %s",
		       cps[i].what);
	}
	for (size_t i = 0; i < sizeof seqs / sizeof seqs[0]; i++) {
		const unsigned char *p = (const unsigned char *)seqs[i].s;
		uint32_t cp;
		size_t n = text_utf8_next(p, p + strlen(seqs[i].s), &cp);

		ok(n == seqs[i].len && cp == seqs[i].cp, "text_utf8_next: %s (%zu bytes, U+%04X)",
		   seqs[i].what, n, (unsigned)cp);
	}
	return tap_done();
}
