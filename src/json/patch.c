/* JSON Patch (RFC 6902), all or nothing on a copy (see patch.h). */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "json/patch.h"

/* One patch being applied: the copy it works on and what it has spent. */
struct patch_run {
	json_t *doc;                 /* owned; replaced when an operation targets "" */
	struct ptr_hook hook;
	size_t max_values, copied;
	size_t max_bytes, bytes;     /* the byte budget and what the values put in took */
	struct patch_error *err;
};

/* One operation, its members checked and its pointers parsed. */
struct patch_op {
	long index;
	const char *name;            /* borrowed from the operation */
	const json_t *value;         /* borrowed; NULL when absent */
	struct ptr path, from;       /* owned */
};

struct patch_kind {
	const char *name;
	int needs_value, needs_from;
	enum patch_code (*run)(struct patch_run *r, struct patch_op *op);
};

static const char *const patch_code_names[] = {
	[PATCH_OK] = "ok",
	[PATCH_BAD_PATCH] = "bad_patch",
	[PATCH_BAD_OPERATION] = "bad_operation",
	[PATCH_BAD_POINTER] = "bad_pointer",
	[PATCH_PATH_NOT_FOUND] = "path_not_found",
	[PATCH_BAD_INDEX] = "bad_index",
	[PATCH_OUT_OF_RANGE] = "out_of_range",
	[PATCH_TEST_FAILED] = "test_failed",
	[PATCH_MOVE_INTO_CHILD] = "move_into_child",
	[PATCH_TOO_LARGE] = "too_large",
	[PATCH_OVER_BUDGET] = "patch_too_large",
};

const char *patch_code_name(enum patch_code c)
{
	if ((size_t)c >= sizeof patch_code_names / sizeof patch_code_names[0])
		return "unknown";
	return patch_code_names[c];
}

/* Fills the error for operation index (name and path may be NULL). */
__attribute__((format(printf, 5, 6)))
static enum patch_code patch_fail(struct patch_run *r, long index, const char *path,
				  enum patch_code code, const char *fmt, ...)
{
	struct patch_error *e = r->err;
	va_list ap;

	e->index = index;
	e->code = code;
	snprintf(e->path, sizeof e->path, "%s", path ? path : "");
	va_start(ap, fmt);
	vsnprintf(e->message, sizeof e->message, fmt, ap);
	va_end(ap);
	return code;
}

static enum patch_code patch_from_ptr(enum ptr_rc rc)
{
	switch (rc) {
	case PTR_OK:
		return PATCH_OK;
	case PTR_BAD_POINTER:
		return PATCH_BAD_POINTER;
	case PTR_NOT_FOUND:
		return PATCH_PATH_NOT_FOUND;
	case PTR_BAD_INDEX:
		return PATCH_BAD_INDEX;
	case PTR_OUT_OF_RANGE:
		return PATCH_OUT_OF_RANGE;
	}
	return PATCH_PATH_NOT_FOUND;
}

/* A pointer that failed to resolve, reported with what pointer.c said. */
static enum patch_code patch_ptr_fail(struct patch_run *r, const struct patch_op *op,
				      const struct ptr *p, enum ptr_rc rc, const char *why)
{
	return patch_fail(r, op->index, p->text, patch_from_ptr(rc), "%s", why);
}

/* -- sizes ------------------------------------------------------------------ */

/* Levels of containers in v: 0 for a scalar. Stops counting past limit. */
static size_t patch_depth(const json_t *v, size_t limit)
{
	size_t d = 0, i, c;
	const char *k;
	const json_t *x;

	if (limit == 0)
		return 1;
	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if ((c = patch_depth(x, limit - 1)) > d)
				d = c;
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x)
			if ((c = patch_depth(x, limit - 1)) > d)
				d = c;
	} else {
		return 0;
	}
	return d + 1;
}

/* Values in v, itself included; stops counting past limit. */
static size_t patch_count(const json_t *v, size_t limit)
{
	size_t n = 1, i;
	const char *k;
	const json_t *x;

	if (json_is_array(v)) {
		json_array_foreach(v, i, x)
			if ((n += patch_count(x, limit)) > limit)
				return n;
	} else if (json_is_object(v)) {
		json_object_foreach((json_t *)v, k, x)
			if ((n += patch_count(x, limit)) > limit)
				return n;
	}
	return n;
}

/* Digits (and sign) of an integer as JSON text. */
static size_t patch_int_bytes(json_int_t i)
{
	size_t n = i < 0 ? 2 : 1;

	while (i <= -10 || i >= 10) {
		i /= 10;
		n++;
	}
	return n;
}

size_t patch_bytes(const json_t *v, size_t limit)
{
	size_t n = 2, i;
	const char *k;
	const json_t *x;

	switch (json_typeof(v)) {
	case JSON_STRING:
		return json_string_length(v) + 2;
	case JSON_INTEGER:
		return patch_int_bytes(json_integer_value(v));
	case JSON_REAL:
		return (size_t)snprintf(NULL, 0, "%.17g", json_real_value(v));
	case JSON_TRUE:
	case JSON_NULL:
		return 4;
	case JSON_FALSE:
		return 5;
	case JSON_ARRAY:
		json_array_foreach(v, i, x)
			if ((n += (i > 0) + patch_bytes(x, limit)) > limit)
				return n;
		return n;
	case JSON_OBJECT:
		i = 0;
		json_object_foreach((json_t *)v, k, x)
			if ((n += (i++ > 0) + strlen(k) + 3 + patch_bytes(x, limit)) > limit)
				return n;
		return n;
	}
	return n;
}

/* Counts v, about to be put in by op at p, against the byte budget. */
static enum patch_code patch_charge(struct patch_run *r, const struct patch_op *op,
				    const struct ptr *p, const json_t *v)
{
	size_t left = r->max_bytes - r->bytes, n = patch_bytes(v, left);

	if (n > left)
		return patch_fail(r, op->index, p->text, PATCH_OVER_BUDGET,
				  "the values this patch puts in would pass its %zu bytes (%zu put in "
				  "before this operation)", r->max_bytes, r->bytes);
	r->bytes += n;
	return PATCH_OK;
}

/* -- the primitives: put a value at a pointer, take one out ----------------- */

/* "add" at p: steals v. */
static enum patch_code patch_put_new(struct patch_run *r, const struct patch_op *op,
				     const struct ptr *p, json_t *v)
{
	char why[256];
	json_t *parent;
	enum ptr_rc rc;
	size_t i;

	if (p->n + patch_depth(v, PATCH_MAX_DEPTH + 1) > PATCH_MAX_DEPTH) {
		json_decref(v);
		return patch_fail(r, op->index, p->text, PATCH_TOO_LARGE,
				  "the value would be nested deeper than %d levels", PATCH_MAX_DEPTH);
	}
	if (p->n == 0) {
		json_decref(r->doc);
		r->doc = v;
		return PATCH_OK;
	}
	rc = ptr_parent(r->doc, p, &r->hook, &parent, why, sizeof why);
	if (rc == PTR_OK && json_is_array(parent))
		rc = ptr_array_slot(parent, p, p->n - 1, &r->hook, 1, &i, why, sizeof why);
	if (rc != PTR_OK) {
		json_decref(v);
		return patch_ptr_fail(r, op, p, rc, why);
	}
	if (json_is_object(parent))
		json_object_set_new(parent, p->tok[p->n - 1], v);
	else
		json_array_insert_new(parent, i, v);
	return PATCH_OK;
}

/* "remove" at p: *out is a new reference to what was there. */
static enum patch_code patch_take(struct patch_run *r, const struct patch_op *op,
				  const struct ptr *p, json_t **out)
{
	char why[256];
	json_t *parent;
	enum ptr_rc rc;
	size_t i;

	if (p->n == 0)
		return patch_fail(r, op->index, p->text, PATCH_BAD_OPERATION,
				  "the whole document cannot be removed");
	rc = ptr_parent(r->doc, p, &r->hook, &parent, why, sizeof why);
	if (rc == PTR_OK && json_is_array(parent))
		rc = ptr_array_slot(parent, p, p->n - 1, &r->hook, 0, &i, why, sizeof why);
	if (rc == PTR_OK && json_is_object(parent) && !json_object_get(parent, p->tok[p->n - 1]))
		rc = ptr_get(r->doc, p, &r->hook, &parent, why, sizeof why);
	if (rc != PTR_OK)
		return patch_ptr_fail(r, op, p, rc, why);
	if (json_is_object(parent)) {
		*out = json_incref(json_object_get(parent, p->tok[p->n - 1]));
		json_object_del(parent, p->tok[p->n - 1]);
	} else {
		*out = json_incref(json_array_get(parent, i));
		json_array_remove(parent, i);
	}
	return PATCH_OK;
}

/* The value at p, borrowed from the document. */
static enum patch_code patch_get(struct patch_run *r, const struct patch_op *op,
				 const struct ptr *p, json_t **out)
{
	char why[256];
	enum ptr_rc rc = ptr_get(r->doc, p, &r->hook, out, why, sizeof why);

	return rc == PTR_OK ? PATCH_OK : patch_ptr_fail(r, op, p, rc, why);
}

/* -- the six operations ----------------------------------------------------- */

static enum patch_code patch_op_add(struct patch_run *r, struct patch_op *op)
{
	enum patch_code c = patch_charge(r, op, &op->path, op->value);

	return c != PATCH_OK ? c : patch_put_new(r, op, &op->path, json_deep_copy(op->value));
}

static enum patch_code patch_op_remove(struct patch_run *r, struct patch_op *op)
{
	json_t *old = NULL;
	enum patch_code c = patch_take(r, op, &op->path, &old);

	json_decref(old);
	return c;
}

static enum patch_code patch_op_replace(struct patch_run *r, struct patch_op *op)
{
	const struct ptr *p = &op->path;
	json_t *cur, *parent, *v;
	enum patch_code c = patch_get(r, op, p, &cur);
	size_t i;

	if (c != PATCH_OK)
		return c;
	if (p->n + patch_depth(op->value, PATCH_MAX_DEPTH + 1) > PATCH_MAX_DEPTH)
		return patch_fail(r, op->index, p->text, PATCH_TOO_LARGE,
				  "the value would be nested deeper than %d levels", PATCH_MAX_DEPTH);
	if ((c = patch_charge(r, op, p, op->value)) != PATCH_OK)
		return c;
	v = json_deep_copy(op->value);
	if (p->n == 0) {
		json_decref(r->doc);
		r->doc = v;
		return PATCH_OK;
	}
	/* The target exists, so its parent and slot resolve as they did. */
	ptr_parent(r->doc, p, &r->hook, &parent, NULL, 0);
	if (json_is_object(parent)) {
		json_object_set_new(parent, p->tok[p->n - 1], v);
	} else {
		ptr_array_slot(parent, p, p->n - 1, &r->hook, 0, &i, NULL, 0);
		json_array_set_new(parent, i, v);
	}
	return PATCH_OK;
}

/* Token by token: "/a~1b" and "/a~1b" are one place. */
static int patch_same_pointer(const struct ptr *a, const struct ptr *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->tok[i], b->tok[i]) != 0)
			return 0;
	return 1;
}

static enum patch_code patch_op_move(struct patch_run *r, struct patch_op *op)
{
	json_t *v;
	enum patch_code c;

	if (patch_same_pointer(&op->from, &op->path))
		return patch_get(r, op, &op->from, &v);
	if (ptr_is_proper_prefix(&op->from, &op->path))
		return patch_fail(r, op->index, op->path.text, PATCH_MOVE_INTO_CHILD,
				  "a value cannot be moved into itself (from %s)",
				  op->from.n ? op->from.text : "the root");
	if ((c = patch_take(r, op, &op->from, &v)) != PATCH_OK)
		return c;
	if ((c = patch_charge(r, op, &op->path, v)) != PATCH_OK) {
		json_decref(v);
		return c;
	}
	return patch_put_new(r, op, &op->path, v);
}

static enum patch_code patch_op_copy(struct patch_run *r, struct patch_op *op)
{
	json_t *src;
	enum patch_code c = patch_get(r, op, &op->from, &src);
	size_t n;

	if (c != PATCH_OK)
		return c;
	n = patch_count(src, r->max_values - r->copied);
	if (n > r->max_values - r->copied)
		return patch_fail(r, op->index, op->path.text, PATCH_TOO_LARGE,
				  "the patch copies more than %zu values", r->max_values);
	if ((c = patch_charge(r, op, &op->path, src)) != PATCH_OK)
		return c;
	r->copied += n;
	return patch_put_new(r, op, &op->path, json_deep_copy(src));
}

static enum patch_code patch_op_test(struct patch_run *r, struct patch_op *op)
{
	json_t *cur;
	enum patch_code c = patch_get(r, op, &op->path, &cur);

	if (c != PATCH_OK)
		return c;
	if (!patch_equal(cur, op->value))
		return patch_fail(r, op->index, op->path.text, PATCH_TEST_FAILED,
				  "the value at %s is not the one tested",
				  op->path.n ? op->path.text : "the root");
	return PATCH_OK;
}

static const struct patch_kind patch_kinds[] = {
	{ .name = "add", .needs_value = 1, .run = patch_op_add },
	{ .name = "remove", .run = patch_op_remove },
	{ .name = "replace", .needs_value = 1, .run = patch_op_replace },
	{ .name = "move", .needs_from = 1, .run = patch_op_move },
	{ .name = "copy", .needs_from = 1, .run = patch_op_copy },
	{ .name = "test", .needs_value = 1, .run = patch_op_test },
};

/* -- reading an operation --------------------------------------------------- */

/* Member name of j as a pointer into p: 0, or an error. */
static enum patch_code patch_read_ptr(struct patch_run *r, struct patch_op *op, const json_t *j,
				      const char *name, struct ptr *p)
{
	const json_t *s = json_object_get(j, name);
	char why[200];

	if (!s)
		return patch_fail(r, op->index, NULL, PATCH_BAD_OPERATION,
				  "\"%s\" has no \"%s\" member", op->name, name);
	if (!json_is_string(s))
		return patch_fail(r, op->index, NULL, PATCH_BAD_OPERATION,
				  "\"%s\" of \"%s\" is not a string", name, op->name);
	if (ptr_parse(p, json_string_value(s), why, sizeof why) != 0)
		return patch_fail(r, op->index, json_string_value(s), PATCH_BAD_POINTER,
				  "\"%s\": %s", name, why);
	return PATCH_OK;
}

/* Checks operation j and runs it. */
static enum patch_code patch_run_one(struct patch_run *r, const json_t *j, long index)
{
	struct patch_op op = { .index = index };
	const struct patch_kind *k = NULL;
	const json_t *name = json_object_get(j, "op");
	enum patch_code c;

	if (!json_is_object(j))
		return patch_fail(r, index, NULL, PATCH_BAD_OPERATION, "an operation is an object");
	if (!json_is_string(name))
		return patch_fail(r, index, NULL, PATCH_BAD_OPERATION,
				  name ? "\"op\" is not a string" : "the operation has no \"op\"");
	op.name = json_string_value(name);
	snprintf(r->err->op, sizeof r->err->op, "%s", op.name);
	for (size_t i = 0; i < sizeof patch_kinds / sizeof patch_kinds[0]; i++)
		if (strcmp(patch_kinds[i].name, op.name) == 0)
			k = &patch_kinds[i];
	if (!k)
		return patch_fail(r, index, NULL, PATCH_BAD_OPERATION, "unknown operation \"%s\"",
				  op.name);
	op.value = json_object_get(j, "value");
	c = patch_read_ptr(r, &op, j, "path", &op.path);
	if (c == PATCH_OK && k->needs_from)
		c = patch_read_ptr(r, &op, j, "from", &op.from);
	if (c == PATCH_OK && k->needs_value && !op.value)
		c = patch_fail(r, index, op.path.text, PATCH_BAD_OPERATION,
			       "\"%s\" has no \"value\" member", op.name);
	if (c == PATCH_OK)
		c = k->run(r, &op);
	ptr_free(&op.path);
	ptr_free(&op.from);
	return c;
}

json_t *patch_apply(const json_t *doc, const json_t *patch, const struct patch_opts *o,
		    struct patch_error *err)
{
	struct patch_run r = { .err = err, .max_values = PATCH_MAX_VALUES,
			       .max_bytes = PATCH_MAX_BYTES };
	size_t i;
	const json_t *j;

	memset(err, 0, sizeof *err);
	if (o) {
		r.hook = o->hook;
		if (o->max_values)
			r.max_values = o->max_values;
		if (o->max_bytes)
			r.max_bytes = o->max_bytes;
	}
	if (!json_is_array(patch)) {
		patch_fail(&r, -1, NULL, PATCH_BAD_PATCH, "a JSON Patch is an array of operations");
		return NULL;
	}
	r.doc = json_deep_copy(doc);
	json_array_foreach(patch, i, j) {
		err->op[0] = '\0';
		if (patch_run_one(&r, j, (long)i) != PATCH_OK) {
			json_decref(r.doc);
			return NULL;
		}
	}
	memset(err, 0, sizeof *err);
	return r.doc;
}

json_t *patch_error_json(const struct patch_error *e)
{
	return json_pack("{s:o, s:s, s:s, s:s, s:s}",
			 "index", e->index < 0 ? json_null() : json_integer(e->index),
			 "op", e->op, "path", e->path, "code", patch_code_name(e->code),
			 "message", e->message);
}

/* -- equality --------------------------------------------------------------- */

static int patch_num_equal(const json_t *a, const json_t *b)
{
	const json_t *i, *x;
	double d;

	if (json_is_integer(a) && json_is_integer(b))
		return json_integer_value(a) == json_integer_value(b);
	if (json_is_real(a) && json_is_real(b))
		return json_real_value(a) == json_real_value(b);
	i = json_is_integer(a) ? a : b;
	x = i == a ? b : a;
	d = json_real_value(x);
	if (d != floor(d) || d < -9223372036854775808.0 || d >= 9223372036854775808.0)
		return 0;
	return (json_int_t)d == json_integer_value(i);
}

static int patch_obj_equal(const json_t *a, const json_t *b)
{
	const char *k;
	const json_t *x;

	if (json_object_size(a) != json_object_size(b))
		return 0;
	json_object_foreach((json_t *)a, k, x)
		if (!patch_equal(x, json_object_get(b, k)))
			return 0;
	return 1;
}

int patch_equal(const json_t *a, const json_t *b)
{
	size_t i;

	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return patch_num_equal(a, b);
	if (json_typeof(a) != json_typeof(b))
		return 0;
	switch (json_typeof(a)) {
	case JSON_OBJECT:
		return patch_obj_equal(a, b);
	case JSON_ARRAY:
		if (json_array_size(a) != json_array_size(b))
			return 0;
		for (i = 0; i < json_array_size(a); i++)
			if (!patch_equal(json_array_get(a, i), json_array_get(b, i)))
				return 0;
		return 1;
	case JSON_STRING:
		return json_string_length(a) == json_string_length(b) &&
		       memcmp(json_string_value(a), json_string_value(b), json_string_length(a)) == 0;
	default:
		return 1;   /* true, false, null: the type says it all */
	}
}
