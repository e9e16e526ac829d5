/* JSON Pointer (RFC 6901) over jansson values, with the array hook (see
 * pointer.h). */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/pointer.h"
#include "util/xmalloc.h"

__attribute__((format(printf, 3, 4)))
static void ptr_say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* One token, text[b, e), with ~0 and ~1 undone. NULL for a bad escape. */
static char *ptr_unescape(const char *s, size_t len)
{
	char *t = xmalloc(len + 1);
	size_t i, j = 0;

	for (i = 0; i < len; i++) {
		if (s[i] != '~') {
			t[j++] = s[i];
			continue;
		}
		if (i + 1 >= len || (s[i + 1] != '0' && s[i + 1] != '1')) {
			free(t);
			return NULL;
		}
		t[j++] = s[++i] == '0' ? '~' : '/';
	}
	t[j] = '\0';
	return t;
}

int ptr_parse(struct ptr *p, const char *text, char *err, size_t errlen)
{
	size_t len = strlen(text), slashes = 0, i;

	memset(p, 0, sizeof *p);
	p->text = xstrdup(text);
	if (len && text[0] != '/') {
		ptr_say(err, errlen, "a JSON Pointer is empty or starts with \"/\"");
		return -1;
	}
	for (i = 0; i < len; i++)
		slashes += text[i] == '/';
	p->tok = xcalloc(slashes + 1, sizeof *p->tok);
	p->at = xcalloc(slashes + 1, sizeof *p->at);
	for (i = 0; i < len; p->n++) {
		const char *b = text + i + 1, *e = strchr(b, '/');
		size_t tl = e ? (size_t)(e - b) : strlen(b);

		p->at[p->n] = i;
		p->tok[p->n] = ptr_unescape(b, tl);
		if (!p->tok[p->n]) {
			ptr_say(err, errlen, "\"~\" is written \"~0\" and \"/\" \"~1\" in a JSON Pointer");
			return -1;
		}
		i += tl + 1;
	}
	return 0;
}

void ptr_free(struct ptr *p)
{
	for (size_t i = 0; p->tok && i < p->n; i++)
		free(p->tok[i]);
	free(p->tok);
	free(p->at);
	free(p->text);
	memset(p, 0, sizeof *p);
}

char *ptr_escape(const char *token)
{
	size_t len = strlen(token), i, j = 0;
	char *t = xmalloc(2 * len + 1);

	for (i = 0; i < len; i++) {
		if (token[i] == '~' || token[i] == '/') {
			t[j++] = '~';
			t[j++] = token[i] == '~' ? '0' : '1';
		} else {
			t[j++] = token[i];
		}
	}
	t[j] = '\0';
	return t;
}

int ptr_token_index(const char *tok, size_t *idx)
{
	size_t v = 0, i;

	if (!tok[0])
		return 0;
	for (i = 0; tok[i]; i++)
		if (tok[i] < '0' || tok[i] > '9')
			return 0;
	if (tok[0] == '0' && tok[1])
		return -1;
	for (i = 0; tok[i]; i++) {
		if (v > ((size_t)-1 - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(tok[i] - '0');
	}
	*idx = v;
	return 1;
}

int ptr_is_proper_prefix(const struct ptr *a, const struct ptr *b)
{
	if (a->n >= b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->tok[i], b->tok[i]) != 0)
			return 0;
	return 1;
}

char *ptr_prefix(const struct ptr *p, size_t k)
{
	return k < p->n ? xstrndup(p->text, p->at[k]) : xstrdup(p->text);
}

/* The hook's answer for token k against array, or PTR_BAD_INDEX. */
static enum ptr_rc ptr_ask_hook(const json_t *array, const struct ptr *p, size_t k,
				const struct ptr_hook *h, size_t *idx, char *err, size_t errlen)
{
	char *at;
	long i;

	if (!h || !h->fn) {
		ptr_say(err, errlen, "\"%s\" is not an array index", p->tok[k]);
		return PTR_BAD_INDEX;
	}
	at = ptr_prefix(p, k);
	i = h->fn(h->ctx, at, array, p->tok[k]);
	if (i < 0) {
		ptr_say(err, errlen, "no element \"%s\" in %s", p->tok[k], at[0] ? at : "the document");
		free(at);
		return PTR_NOT_FOUND;
	}
	free(at);
	*idx = (size_t)i;
	return PTR_OK;
}

enum ptr_rc ptr_array_slot(const json_t *array, const struct ptr *p, size_t k,
			   const struct ptr_hook *h, int for_add, size_t *idx, char *err,
			   size_t errlen)
{
	size_t size = json_array_size(array);
	const char *tok = p->tok[k];
	enum ptr_rc rc;
	int r = ptr_token_index(tok, idx);

	if (r < 0) {
		ptr_say(err, errlen, "\"%s\" is not an array index (no leading zeros)", tok);
		return PTR_BAD_INDEX;
	}
	if (r == 0 && strcmp(tok, "-") == 0) {
		if (for_add) {
			*idx = size;
			return PTR_OK;
		}
		ptr_say(err, errlen, "\"-\" names no element here (it is the place after the last)");
		return PTR_OUT_OF_RANGE;
	}
	if (r == 0 && (rc = ptr_ask_hook(array, p, k, h, idx, err, errlen)) != PTR_OK)
		return rc;
	if (*idx > size || (*idx == size && !for_add)) {
		ptr_say(err, errlen, "index %zu is past the end of an array of %zu", *idx, size);
		return PTR_OUT_OF_RANGE;
	}
	return PTR_OK;
}

/* One step down from cur along token k. */
static enum ptr_rc ptr_step(json_t *cur, const struct ptr *p, size_t k, const struct ptr_hook *h,
			    json_t **next, char *err, size_t errlen)
{
	enum ptr_rc rc;
	size_t i;

	if (json_is_object(cur)) {
		*next = json_object_get(cur, p->tok[k]);
		if (!*next) {
			char *at = ptr_prefix(p, k);

			ptr_say(err, errlen, "no member \"%s\" in %s", p->tok[k],
				at[0] ? at : "the document");
			free(at);
			return PTR_NOT_FOUND;
		}
		return PTR_OK;
	}
	if (json_is_array(cur)) {
		rc = ptr_array_slot(cur, p, k, h, 0, &i, err, errlen);
		if (rc == PTR_OK)
			*next = json_array_get(cur, i);
		return rc;
	}
	ptr_say(err, errlen, "\"%s\" is looked up in a value that is neither object nor array",
		p->tok[k]);
	return PTR_NOT_FOUND;
}

/* The value of p's first k tokens. */
static enum ptr_rc ptr_walk(json_t *doc, const struct ptr *p, size_t k, const struct ptr_hook *h,
			    json_t **out, char *err, size_t errlen)
{
	json_t *cur = doc;
	enum ptr_rc rc;

	for (size_t i = 0; i < k; i++)
		if ((rc = ptr_step(cur, p, i, h, &cur, err, errlen)) != PTR_OK)
			return rc;
	*out = cur;
	return PTR_OK;
}

enum ptr_rc ptr_get(json_t *doc, const struct ptr *p, const struct ptr_hook *h, json_t **out,
		    char *err, size_t errlen)
{
	return ptr_walk(doc, p, p->n, h, out, err, errlen);
}

enum ptr_rc ptr_parent(json_t *doc, const struct ptr *p, const struct ptr_hook *h,
		       json_t **parent, char *err, size_t errlen)
{
	enum ptr_rc rc = ptr_walk(doc, p, p->n - 1, h, parent, err, errlen);

	if (rc != PTR_OK)
		return rc;
	if (!json_is_object(*parent) && !json_is_array(*parent)) {
		ptr_say(err, errlen, "\"%s\" is looked up in a value that is neither object nor array",
			p->tok[p->n - 1]);
		return PTR_NOT_FOUND;
	}
	return PTR_OK;
}
