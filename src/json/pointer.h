/* JSON Pointer (RFC 6901): parsing, escaping, and resolving a pointer
 * against a jansson document, with one extension point for arrays.
 *
 * A pointer is "" (the whole document) or a sequence of "/token"; in a
 * token "~1" stands for "/" and "~0" for "~", and any other "~" makes the
 * pointer invalid. Against an object a token is a member name; against an
 * array it is an index written in decimal without leading zeros ("0",
 * "7", "12", never "01" or "1e0"), or "-" for the element after the last
 * one (only where something is added).
 *
 * The extension (struct ptr_hook): an array token that is neither all
 * digits nor "-" is handed to a caller's function, which may name the
 * element it means (the graph editor lets "/nodes/<id>" stand for the
 * index of the node with that id). An all-digit token is always an index
 * and never reaches the hook. Without a hook such a token is an error, as
 * RFC 6901 says. */
#ifndef AV_JSON_POINTER_H
#define AV_JSON_POINTER_H
#include <stddef.h>
#include <jansson.h>

/* A parsed pointer. Owns every string it holds (ptr_free). */
struct ptr {
	char *text;    /* the pointer as written, escaped */
	size_t n;      /* how many reference tokens */
	char **tok;    /* the tokens, unescaped */
	size_t *at;    /* at[i]: offset in text of the '/' that starts tok[i] */
};

/* The array extension. fn gets ctx, the escaped pointer of the array
 * ("/nodes"), the array itself (borrowed) and the token, and answers the
 * element's index, or -1 when the token names none. It is asked against
 * the document as it is at that moment. */
typedef long (*ptr_hook_fn)(void *ctx, const char *array_ptr, const json_t *array,
			    const char *token);
struct ptr_hook {
	ptr_hook_fn fn;    /* NULL: no extension (plain RFC 6901) */
	void *ctx;
};

/* Why a pointer could not be parsed or resolved; err says where. */
enum ptr_rc {
	PTR_OK = 0,
	PTR_BAD_POINTER,   /* not "" or "/...", or a "~" not followed by 0 or 1 */
	PTR_NOT_FOUND,     /* no such member, no such element for the hook, or a scalar on the way */
	PTR_BAD_INDEX,     /* an array token that is not an index (and no hook took it) */
	PTR_OUT_OF_RANGE,  /* an index past the end, or "-" where an element must exist */
};

/* Parses text into p (zeroed first). 0, or -1 (PTR_BAD_POINTER) with err;
 * p needs ptr_free either way. */
int ptr_parse(struct ptr *p, const char *text, char *err, size_t errlen);
/* Frees what p holds; p may be all zero. */
void ptr_free(struct ptr *p);

/* A token escaped for a pointer ("a/b~c" -> "a~1b~0c"). New string, the
 * caller's to free. */
char *ptr_escape(const char *token);

/* 1 when tok is an array index (stored in *idx), 0 when it is not all
 * digits (then it may be "-" or a hook's token), -1 when it is all digits
 * but not a valid index (leading zeros, too large). */
int ptr_token_index(const char *tok, size_t *idx);

/* 1 when a is a proper prefix of b, token by token ("/a" of "/a/b", not
 * of "/ab" nor of "/a"). */
int ptr_is_proper_prefix(const struct ptr *a, const struct ptr *b);

/* The escaped pointer of p's first k tokens (k <= n). New string. */
char *ptr_prefix(const struct ptr *p, size_t k);

/* The value p points to in doc: *out is borrowed from doc. h may be NULL. */
enum ptr_rc ptr_get(json_t *doc, const struct ptr *p, const struct ptr_hook *h, json_t **out,
		    char *err, size_t errlen);

/* The container that holds p's last token (p->n >= 1): *parent is an
 * object or an array, borrowed from doc. The last token itself is not
 * looked at (see ptr_array_slot). h may be NULL. */
enum ptr_rc ptr_parent(json_t *doc, const struct ptr *p, const struct ptr_hook *h,
		       json_t **parent, char *err, size_t errlen);

/* Token k of p as a position in array: an index below the array's size;
 * with for_add, also "-" or an index equal to the size (where an element
 * is added). h may be NULL. */
enum ptr_rc ptr_array_slot(const json_t *array, const struct ptr *p, size_t k,
			   const struct ptr_hook *h, int for_add, size_t *idx, char *err,
			   size_t errlen);

#endif
