/* JSON Pointer and JSON Patch on hostile input: patches a model or a
 * person may send. Two shapes of input, chosen by the first byte:
 *   even: raw JSON, a document and a patch separated by a NUL byte (the
 *         seed corpus holds the conformance suite's cases this way);
 *   odd:  bytes that drive a builder of a document and a patch from a
 *         small vocabulary of operations, tokens (ids, indices, "-",
 *         escapes) and values, so that most patches parse and reach deep
 *         into the operations rather than stopping at JSON syntax.
 * Each patch is applied with and without the array hook. Beyond no crash
 * and no leak, it checks what must hold: the input is never changed, a
 * failure says which operation and why, a result reads back the same
 * after dumping (so nothing is nested past what jansson reads), a result
 * tests equal to itself, and a result is no larger than the document, the
 * small byte budget and the names the operations give. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "json/patch.h"
#include "json/pointer.h"

struct fz {
	const uint8_t *p, *end;
};

static unsigned fz_byte(struct fz *f)
{
	return f->p < f->end ? *f->p++ : 0;
}

static const char *const fz_tokens[] = {
	"", "a", "b", "0", "1", "2", "-", "nodes", "edges", "n1", "n2", "e1", "x", "data",
	"01", "1e0", "~0", "~1", "~", "far", "10",
};

/* The hook of the graph editor, in small: elements of /nodes and /edges
 * by their "id". */
static long fz_hook(void *ctx, const char *array_ptr, const json_t *array, const char *token)
{
	size_t i;
	const json_t *x;

	if (strcmp(array_ptr, "/nodes") != 0 && strcmp(array_ptr, "/edges") != 0)
		return -1;
	if (strcmp(token, "far") == 0)
		return 1000;
	json_array_foreach(array, i, x)
		if (json_is_string(json_object_get(x, "id")) &&
		    strcmp(json_string_value(json_object_get(x, "id")), token) == 0)
			return (long)i;
	return -1;
}

static json_t *fz_pointer(struct fz *f)
{
	char text[256] = "";
	unsigned n = fz_byte(f) % 5, b;

	for (unsigned i = 0; i < n; i++) {
		strcat(text, "/");
		b = fz_byte(f);
		if (b < 0xf0) {
			strcat(text, fz_tokens[b % (sizeof fz_tokens / sizeof fz_tokens[0])]);
		} else {
			size_t len = strlen(text);

			for (unsigned k = b % 4; k > 0 && len < 250; k--) {
				unsigned c = fz_byte(f);

				text[len++] = (char)(c ? c : '~');
			}
			text[len] = '\0';
		}
	}
	return json_string(text);
}

static json_t *fz_value(struct fz *f, int depth)
{
	unsigned kind = fz_byte(f) % 8, n;
	json_t *v;

	if (depth > 4)
		kind %= 4;
	switch (kind) {
	case 0:
		return json_null();
	case 1:
		return json_integer((json_int_t)fz_byte(f) - 128);
	case 2:
		return json_real((double)fz_byte(f) / 4);
	case 3:
		return json_string(fz_tokens[fz_byte(f) % (sizeof fz_tokens / sizeof fz_tokens[0])]);
	case 4:
		return json_boolean(fz_byte(f) & 1);
	case 5:
	case 6:
		v = json_array();
		for (n = fz_byte(f) % 4; n > 0; n--)
			json_array_append_new(v, fz_value(f, depth + 1));
		return v;
	default:
		v = json_object();
		for (n = fz_byte(f) % 4; n > 0; n--)
			json_object_set_new(v, fz_tokens[fz_byte(f) % (sizeof fz_tokens / sizeof fz_tokens[0])],
					    fz_value(f, depth + 1));
		return v;
	}
}

static json_t *fz_operation(struct fz *f)
{
	static const char *const ops[] = { "add", "remove", "replace", "move", "copy", "test", "spam" };
	unsigned which = fz_byte(f), members = fz_byte(f);
	json_t *op = json_object();

	if (!(members & 1))
		json_object_set_new(op, "op", json_string(ops[which % 7]));
	if (!(members & 2))
		json_object_set_new(op, "path", fz_pointer(f));
	if (!(members & 4))
		json_object_set_new(op, "from", fz_pointer(f));
	if (!(members & 8))
		json_object_set_new(op, "value", fz_value(f, 0));
	if (members & 16)
		json_object_set_new(op, "path", fz_value(f, 3));
	return op;
}

static void fz_build(struct fz *f, json_t **doc, json_t **patch)
{
	static const char *const docs[] = {
		"{}", "[]", "{\"a\": [1, 2, {\"b\": null}], \"x\": {\"~\": 1, \"/\": [0]}}",
		("{\"nodes\": [{\"id\": \"n1\", \"data\": {\"x\": 1}}, {\"id\": \"n2\"}], "
		 "\"edges\": [{\"id\": \"e1\", \"source\": \"n1\", \"target\": \"n2\"}]}"),
	};
	unsigned n;

	*doc = json_loads(docs[fz_byte(f) % 4], 0, NULL);
	*patch = json_array();
	for (n = fz_byte(f) % 12; n > 0; n--)
		json_array_append_new(*patch, fz_operation(f));
}

static void fz_raw(const uint8_t *data, size_t size, json_t **doc, json_t **patch)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t dlen = nul ? (size_t)(nul - data) : size;

	*doc = json_loadb((const char *)data, dlen, JSON_DECODE_ANY, NULL);
	if (!*doc)
		*doc = json_object();
	*patch = nul ? json_loadb((const char *)nul + 1, size - dlen - 1, JSON_DECODE_ANY, NULL) : NULL;
}

/* A pointer's tokens escaped again give the pointer back. */
static void fz_pointer_roundtrip(const char *text)
{
	struct ptr p;
	size_t len = 0, cap = strlen(text) + 1;
	char *again = calloc(1, cap);

	if (ptr_parse(&p, text, NULL, 0) == 0) {
		for (size_t i = 0; i < p.n; i++) {
			char *e = ptr_escape(p.tok[i]);

			if (len + 1 + strlen(e) >= cap)
				abort();
			again[len++] = '/';
			memcpy(again + len, e, strlen(e));
			len += strlen(e);
			free(e);
		}
		if (strcmp(again, text) != 0)
			abort();
	}
	ptr_free(&p);
	free(again);
}

/* A result equals its copy and reads back the same after dumping. */
static void fz_check_value(const json_t *got)
{
	json_t *copy = json_deep_copy(got), *back;
	char *s = json_dumps(got, JSON_ENCODE_ANY | JSON_COMPACT);

	back = s ? json_loads(s, JSON_DECODE_ANY, NULL) : NULL;
	if (!patch_equal(copy, got) || !json_equal(copy, got) || !back || !patch_equal(back, got))
		abort();
	json_decref(back);
	json_decref(copy);
	free(s);
}

static void fz_check_result(const json_t *doc, const json_t *before, const json_t *patch,
			    const json_t *got, const struct patch_error *e)
{
	if (!json_equal(doc, before))
		abort();
	if (got) {
		fz_check_value(got);
		return;
	}
	if (e->code == PATCH_OK || !e->message[0] || e->index < -1 ||
	    (e->index >= 0 && (size_t)e->index >= json_array_size(patch)))
		abort();
	json_decref(patch_error_json(e));
}

/* Member name of op when it is a string, else "". */
static const char *fz_member(const json_t *op, const char *name)
{
	const char *s = json_string_value(json_object_get(op, name));

	return s ? s : "";
}

#define FZ_MAX_BYTES 4096

/* What a patch puts in is counted: the result holds the document, the
 * values the budget let in, and at most the member names and commas its
 * operations' paths bring. */
static void fz_check_budget(const json_t *doc, const json_t *patch, const json_t *got)
{
	size_t room = patch_bytes(doc, (size_t)-1 / 2) + FZ_MAX_BYTES, i;
	const json_t *op;

	json_array_foreach(patch, i, op)
		room += strlen(fz_member(op, "path")) + 4;
	if (got && patch_bytes(got, room) > room)
		abort();
}

static void fz_apply(const json_t *doc, const json_t *patch)
{
	static struct patch_opts with_hook = { .hook = { fz_hook, NULL }, .max_values = 20000,
					       .max_bytes = FZ_MAX_BYTES };
	static struct patch_opts plain = { .max_values = 20000, .max_bytes = FZ_MAX_BYTES };
	const struct patch_opts *opts[] = { &plain, &with_hook };
	json_t *before = json_deep_copy(doc);
	struct patch_error e;
	size_t i;
	const json_t *op;

	for (int k = 0; k < 2; k++) {
		json_t *got = patch_apply(doc, patch, opts[k], &e);

		fz_check_result(doc, before, patch, got, &e);
		fz_check_budget(doc, patch, got);
		json_decref(got);
	}
	json_array_foreach(patch, i, op) {
		fz_pointer_roundtrip(fz_member(op, "path"));
		fz_pointer_roundtrip(fz_member(op, "from"));
	}
	json_decref(before);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz f = { data + (size ? 1 : 0), data + size };
	json_t *doc = NULL, *patch = NULL;

	if (size && (data[0] & 1))
		fz_build(&f, &doc, &patch);
	else if (size)
		fz_raw(data + 1, size - 1, &doc, &patch);
	if (doc && patch)
		fz_apply(doc, patch);
	json_decref(patch);
	json_decref(doc);
	return 0;
}
