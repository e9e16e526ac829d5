/* Compact JSON text of jansson values, identical to json_dumps(v,
 * JNUM_DUMP) (see dump.h; tests/unit/t_jdump.c compares the two on every
 * kind of value and on random documents). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"

/* 1 for the bytes a JSON string must escape: controls, '"' and '\\'. */
static const unsigned char jdump_esc[256] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

static int jdump_value(struct buf *b, const json_t *v, int depth);

/* As jansson writes them: the short escapes, else \u00XX in capitals. */
static int jdump_escape(struct buf *b, unsigned char c)
{
	static const char hex[] = "0123456789ABCDEF";
	char seq[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

	switch (c) {
	case '"': return buf_add(b, "\\\"", 2);
	case '\\': return buf_add(b, "\\\\", 2);
	case '\b': return buf_add(b, "\\b", 2);
	case '\f': return buf_add(b, "\\f", 2);
	case '\n': return buf_add(b, "\\n", 2);
	case '\r': return buf_add(b, "\\r", 2);
	case '\t': return buf_add(b, "\\t", 2);
	default: return buf_add(b, seq, sizeof seq);
	}
}

/* Plain runs are copied whole; room for the quotes is made once. */
static int jdump_string(struct buf *b, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n, *run;

	if (buf_reserve(b, n + 2) == 0) {
		while (p < end && !jdump_esc[*p])
			p++;
		if (p == end) {
			char *d = b->data + b->len;

			d[0] = '"';
			memcpy(d + 1, s, n);
			d[n + 1] = '"';
			d[n + 2] = '\0';
			b->len += n + 2;
			return 0;
		}
		p = (const unsigned char *)s;
	}
	if (buf_addc(b, '"') < 0)
		return -1;
	while (p < end) {
		run = p;
		while (p < end && !jdump_esc[*p])
			p++;
		if (p > run && buf_add(b, run, (size_t)(p - run)) < 0)
			return -1;
		if (p < end && jdump_escape(b, *p++) < 0)
			return -1;
	}
	return buf_addc(b, '"');
}

/* jansson's real: "%.15g", then ".0" when it reads as an integer, and the
 * exponent without '+' or leading zeros. */
static int jdump_real(struct buf *b, double d)
{
	char t[40], *e, *from;
	int n = snprintf(t, sizeof t, "%.15g", d);

	if (n < 0 || (size_t)n >= sizeof t - 3)
		return -1;
	for (e = t; *e; e++)
		if (*e == ',')   /* a locale's decimal comma */
			*e = '.';
	if (strchr(t, '.') == NULL && strchr(t, 'e') == NULL) {
		memcpy(t + n, ".0", 3);
		n += 2;
	}
	e = strchr(t, 'e');
	if (e) {
		e++;
		from = e + 1;
		if (*e == '-')
			e++;
		while (*from == '0')
			from++;
		if (from != e) {
			memmove(e, from, strlen(from) + 1);
			n = (int)strlen(t);
		}
	}
	return buf_add(b, t, (size_t)n);
}

static int jdump_integer(struct buf *b, json_int_t i)
{
	char t[24], *p = t + sizeof t;
	unsigned long long u = i < 0 ? 0ULL - (unsigned long long)i : (unsigned long long)i;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0)
		*--p = '-';
	return buf_add(b, p, (size_t)(t + sizeof t - p));
}

static int jdump_object(struct buf *b, const json_t *v, int depth)
{
	const char *k;
	json_t *m;
	int first = 1;

	if (buf_addc(b, '{') < 0)
		return -1;
	json_object_foreach((json_t *)v, k, m) {
		if (!first && buf_addc(b, ',') < 0)
			return -1;
		first = 0;
		if (jdump_string(b, k, strlen(k)) < 0 || buf_addc(b, ':') < 0 ||
		    jdump_value(b, m, depth + 1) < 0)
			return -1;
	}
	return buf_addc(b, '}');
}

static int jdump_array(struct buf *b, const json_t *v, int depth)
{
	size_t i, n = json_array_size(v);

	if (buf_addc(b, '[') < 0)
		return -1;
	for (i = 0; i < n; i++)
		if ((i && buf_addc(b, ',') < 0) || jdump_value(b, json_array_get(v, i), depth + 1) < 0)
			return -1;
	return buf_addc(b, ']');
}

static int jdump_value(struct buf *b, const json_t *v, int depth)
{
	if (depth > JDUMP_MAX_DEPTH)
		return -1;
	switch (json_typeof(v)) {
	case JSON_OBJECT: return jdump_object(b, v, depth);
	case JSON_ARRAY: return jdump_array(b, v, depth);
	case JSON_STRING: return jdump_string(b, json_string_value(v), json_string_length(v));
	case JSON_INTEGER: return jdump_integer(b, json_integer_value(v));
	case JSON_REAL: return jdump_real(b, json_real_value(v));
	case JSON_TRUE: return buf_add(b, "true", 4);
	case JSON_FALSE: return buf_add(b, "false", 5);
	case JSON_NULL: return buf_add(b, "null", 4);
	}
	return -1;
}

int jdump_buf(struct buf *b, const json_t *v)
{
	size_t len = b->len;

	if (v == NULL || (!json_is_object(v) && !json_is_array(v)))
		return -1;
	if (jdump_value(b, v, 0) == 0)
		return 0;
	b->len = len;
	if (b->data)
		b->data[len] = '\0';
	return -1;
}

char *jtext(const json_t *v, size_t flags)
{
	size_t n = v ? json_dumpb(v, NULL, 0, flags) : 0;
	char *s;

	if (n == 0)
		return NULL;
	s = malloc(n + 1);
	if (s == NULL || json_dumpb(v, s, n, flags) != n) {
		free(s);
		return NULL;
	}
	s[n] = '\0';
	return s;
}

char *jdump(const json_t *v)
{
	struct buf b;

	buf_init(&b, (size_t)1 << 31);
	if (jdump_buf(&b, v) < 0) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}
