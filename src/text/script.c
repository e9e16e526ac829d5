/* Scripts and languages of text (see script.h). */
#include <string.h>

#include "text/script.h"

size_t text_utf8_next(const unsigned char *p, const unsigned char *end, uint32_t *cp)
{
	unsigned c = p[0];
	size_t n;
	uint32_t v, min;

	*cp = TEXT_CP_BAD;
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, v = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, v = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		return 1;
	}
	if ((size_t)(end - p) < n)
		return 1;
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 1;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 1;
	*cp = v;
	return n;
}

int text_is_han(uint32_t c)
{
	return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) ||
	       (c >= 0x20000 && c <= 0x323af) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0x2e80 && c <= 0x2fdf) || c == 0x3005 || c == 0x3007 ||
	       (c >= 0x3021 && c <= 0x3029) || (c >= 0x3038 && c <= 0x303b);
}

int text_has_han(const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	const unsigned char *end = p + strlen((const char *)p);
	uint32_t c;

	while (p < end) {
		p += text_utf8_next(p, end, &c);
		if (text_is_han(c))
			return 1;
	}
	return 0;
}

int text_no_spaces(uint32_t c)
{
	return text_is_han(c) || (c >= 0x3040 && c <= 0x30ff && c != 0x30fb) ||
	       (c >= 0x31f0 && c <= 0x31ff) || (c >= 0xac00 && c <= 0xd7af);
}

const char *text_lang(const char *text)
{
	const unsigned char *p = (const unsigned char *)(text ? text : "");
	const unsigned char *end = p + strlen((const char *)p);
	size_t han = 0, latin = 0;

	while (p < end) {
		uint32_t c;

		p += text_utf8_next(p, end, &c);
		if (text_is_han(c))
			han++;
		else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
			latin++;
	}
	return han * 4 >= latin ? "zh" : "en";
}
