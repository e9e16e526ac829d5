/* JSON Patch (RFC 6902) over jansson values: add, remove, replace, move,
 * copy and test, applied all or nothing.
 *
 * The operations run in order on a deep copy of the document; the first
 * that fails stops the patch, the copy is dropped, and the error says
 * which operation (its index and name), which pointer, and why (a stable
 * code and a sentence). Members an operation does not use are ignored
 * (RFC 6902 §4). Pointers follow pointer.h, including its array hook:
 * each operation's pointers are resolved against the document as the
 * operations before it left it.
 *
 * What a patch creates is bounded: a patch may bring at most max_values
 * values in through "copy" (a short patch could otherwise double the
 * document at each step); every value an "add", "replace", "copy" or
 * "move" puts in place counts its size as JSON text (a string's bytes and
 * quotes, a number's digits, containers with their members; escapes
 * aside), counted whole each time it is put in, against max_bytes (a
 * 2 MB string copied 500 times counts 1 GB and is refused long before);
 * and no value may end deeper than PATCH_MAX_DEPTH, the depth jansson
 * reads back. */
#ifndef AV_JSON_PATCH_H
#define AV_JSON_PATCH_H
#include <stddef.h>
#include <jansson.h>
#include "json/pointer.h"

#define PATCH_MAX_DEPTH 2048
#define PATCH_MAX_VALUES (1u << 20)
#define PATCH_MAX_BYTES ((size_t)16 << 20)
#define PATCH_PATH_MAX 512

enum patch_code {
	PATCH_OK = 0,
	PATCH_BAD_PATCH,        /* the patch is not an array */
	PATCH_BAD_OPERATION,    /* not an object, unknown op, a member missing or of the wrong type */
	PATCH_BAD_POINTER,      /* a pointer that does not parse */
	PATCH_PATH_NOT_FOUND,   /* the target, its parent or "from" does not exist */
	PATCH_BAD_INDEX,        /* an array token that is not an index */
	PATCH_OUT_OF_RANGE,     /* an index past the end, or "-" where an element must exist */
	PATCH_TEST_FAILED,      /* "test" found another value */
	PATCH_MOVE_INTO_CHILD,  /* "move" into a place inside its own "from" */
	PATCH_TOO_LARGE,        /* past max_values copied, or deeper than PATCH_MAX_DEPTH */
	PATCH_OVER_BUDGET,      /* the values put in pass max_bytes ("patch_too_large") */
};

/* The code's stable name ("path_not_found"); lent, static. */
const char *patch_code_name(enum patch_code c);

struct patch_error {
	long index;                  /* the operation's index; -1 for the patch itself */
	enum patch_code code;
	char op[16];                 /* the operation's "op", "" when missing or not a string */
	char path[PATCH_PATH_MAX];   /* the pointer at fault as written ("from" when the
				      * source is missing), cut to fit; "" when none */
	char message[256];
};

struct patch_opts {
	struct ptr_hook hook;        /* hook.fn NULL: plain RFC 6902 */
	size_t max_values;           /* 0: PATCH_MAX_VALUES */
	size_t max_bytes;            /* 0: PATCH_MAX_BYTES */
};

/* Applies patch (an array of operations, borrowed) to doc (borrowed,
 * never changed). A new reference to the patched document, or NULL with
 * *err filled. o may be NULL (plain RFC 6902, default bounds). */
json_t *patch_apply(const json_t *doc, const json_t *patch, const struct patch_opts *o,
		    struct patch_error *err);

/* The size of v (borrowed) as JSON text, escapes aside: what the byte
 * budget counts. Counting stops once past limit (the result is then more
 * than limit, not the whole size). */
size_t patch_bytes(const json_t *v, size_t limit);

/* The error as {"index", "op", "path", "code", "message"}: new reference. */
json_t *patch_error_json(const struct patch_error *e);

/* JSON equality as "test" means it (RFC 6902 §4.6): numbers by value (1
 * equals 1.0), objects whatever the order of their members, arrays
 * element by element. Both borrowed. */
int patch_equal(const json_t *a, const json_t *b);

#endif
