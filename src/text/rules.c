/* The rule engine (see rules_int.h): PCRE2 patterns compiled with the
 * options every keyword rule shares, matched with one match data, and
 * tables of rules tried in order, each match checked by its rule. */
#include "config.h"
#include <string.h>
#include "text/rules.h"
#include "text/rules_int.h"

/* One match data for every match: the rules run one at a time, and the
 * callers read at most group 1, so two pairs are enough (a pattern with
 * more groups answers 0, "too small", and fills those two). Created on
 * first use, freed by rules_free. */
static pcre2_match_data *rules_md;
/* rules_trim's patterns, compiled on first use. */
static pcre2_code *rules_trim_head, *rules_trim_tail;

pcre2_code *rules_compile(const char *name, const char *re)
{
	int err;
	PCRE2_SIZE off;
	PCRE2_UCHAR msg[160];
	pcre2_code *c;

	c = pcre2_compile((PCRE2_SPTR)re, PCRE2_ZERO_TERMINATED,
			  PCRE2_UTF | PCRE2_UCP | PCRE2_CASELESS | PCRE2_DOTALL |
			  PCRE2_MATCH_INVALID_UTF, &err, &off, NULL);
	if (c == NULL) {
		pcre2_get_error_message(err, msg, sizeof msg);
		log_error("rule %s does not compile: %s at offset %zu", name, (const char *)msg,
			  (size_t)off);
		return NULL;
	}
	/* Machine code when the library has a JIT (pcre2_match uses it by
	 * itself); without one the interpreter answers the same. */
	pcre2_jit_compile(c, PCRE2_JIT_COMPLETE);
	return c;
}

void rules_table_compile(const struct rules_pat *pats, pcre2_code **codes, size_t n)
{
	for (size_t i = 0; i < n; i++)
		codes[i] = rules_compile(pats[i].name, pats[i].re);
}

void rules_table_free(pcre2_code **codes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		pcre2_code_free(codes[i]);
		codes[i] = NULL;
	}
}

void rules_free(void)
{
	pcre2_code_free(rules_trim_head);
	pcre2_code_free(rules_trim_tail);
	rules_trim_head = rules_trim_tail = NULL;
	pcre2_match_data_free(rules_md);
	rules_md = NULL;
}

size_t rules_text_len(const char *text)
{
	size_t n = text ? strnlen(text, RULES_TEXT_MAX + 1) : 0;

	if (n <= RULES_TEXT_MAX)
		return n;
	/* Cut long text at a character boundary. */
	n = RULES_TEXT_MAX;
	while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
		n--;
	return n;
}

static pcre2_match_data *rules_match_data(void)
{
	if (rules_md == NULL)
		rules_md = pcre2_match_data_create(2, NULL);
	return rules_md;
}

int rules_find(const pcre2_code *c, const char *s, size_t len, size_t from, size_t ov[4])
{
	pcre2_match_data *md = rules_match_data();
	PCRE2_SIZE *v;
	int rc;

	if (c == NULL || s == NULL || from > len || md == NULL)
		return 0;
	rc = pcre2_match(c, (PCRE2_SPTR)s, len, from, 0, md, NULL);
	if (rc < 0)
		return 0;
	v = pcre2_get_ovector_pointer(md);
	ov[0] = v[0];
	ov[1] = v[1];
	ov[2] = rc != 1 ? v[2] : PCRE2_UNSET;
	ov[3] = rc != 1 ? v[3] : PCRE2_UNSET;
	return 1;
}

int rules_any(const pcre2_code *c, const char *text)
{
	size_t ov[4];

	return text != NULL && rules_find(c, text, rules_text_len(text), 0, ov);
}

size_t rules_chars(const char *s, size_t len)
{
	size_t n = 0;

	for (size_t i = 0; i < len; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			n++;
	return n;
}

void rules_trim(const char *s, size_t *a, size_t *b)
{
	size_t ov[4];

	if (rules_trim_head == NULL) {
		rules_trim_head = rules_compile("trim_head", "^[\\s\\p{P}\\p{S}]+");
		rules_trim_tail = rules_compile("trim_tail", "[\\s\\p{P}\\p{S}吗呢吧啊呀嘛哦哟]+\\z");
	}
	if (*b <= *a)
		return;
	if (rules_find(rules_trim_head, s + *a, *b - *a, 0, ov))
		*a += ov[1];
	if (*b > *a && rules_find(rules_trim_tail, s + *a, *b - *a, 0, ov))
		*b = *a + ov[0];
}

/* Does the rule fire: some match of it passes its check. */
static int rules_fires(const struct rules_pat *p, const pcre2_code *c, const char *s, size_t len)
{
	size_t ov[4], from = 0;

	for (int tries = 0; tries < 32 && rules_find(c, s, len, from, ov); tries++) {
		if (p->check == NULL || p->check(s, ov))
			return 1;
		/* The next match starts after this one's first character. */
		from = ov[0] + 1;
		while (from < len && ((unsigned char)s[from] & 0xC0) == 0x80)
			from++;
	}
	return 0;
}

struct rules_match rules_table_first(const struct rules_pat *pats, pcre2_code *const *codes,
				     size_t n, const char *text)
{
	struct rules_match m = { 0, "none", 0.0 };
	size_t len = rules_text_len(text);

	for (size_t i = 0; len > 0 && i < n; i++) {
		if (!rules_fires(&pats[i], codes[i], text, len))
			continue;
		m.matched = !pats[i].exclude;
		m.rule = pats[i].name;
		m.confidence = pats[i].confidence;
		break;
	}
	return m;
}
