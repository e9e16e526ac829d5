/* Validation of an orchestrate stage's result: a subtask's "expect"
 * {structured?, required?, types?, minItems?} says what its StageContext's
 * structuredData must hold. A place is a member name of the top object
 * ("issues") or a JSON Pointer ("/issues/0/line"). Here: the plan check of
 * an expectation, and the reasons (in the thread's language) a result
 * does not meet one; both pure. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/pointer.h"
#include "text/msg.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch.h"

static const char *const orch_expect_keys[] = { "structured", "required", "types", "minItems", NULL };
static const char *const orch_expect_types[] = { "object", "array", "string", "number", "integer",
						  "boolean", "null", NULL };

static int orch_expect_in(const char *const *list, const char *s)
{
	for (size_t i = 0; s && list[i]; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

/* A place as a parsed pointer: "" and "/..." as written, a member name
 * escaped under "/". 0, or -1 for a bad pointer; p needs ptr_free. */
static int orch_expect_ptr(const char *place, struct ptr *p)
{
	char *esc, *text;
	int rc;

	if (place[0] == '\0' || place[0] == '/')
		return ptr_parse(p, place, NULL, 0);
	esc = ptr_escape(place);
	text = xasprintf("/%s", esc);
	rc = ptr_parse(p, text, NULL, 0);
	free(esc);
	free(text);
	return rc;
}

static int orch_expect_place_ok(const char *place)
{
	struct ptr p;
	int rc = place ? orch_expect_ptr(place, &p) : -1;

	if (place)
		ptr_free(&p);
	return rc == 0;
}

static int orch_expect_flaw(struct orch_flaw *f, const char *what, const char *arg)
{
	f->code = "bad_expect";
	f->what = what;
	snprintf(f->arg, sizeof f->arg, "%s", arg ? arg : "");
	return -1;
}

static int orch_expect_check_members(const json_t *e, struct orch_flaw *f)
{
	const json_t *req = json_object_get(e, "required"), *types = json_object_get(e, "types");
	const json_t *min = json_object_get(e, "minItems"), *v;
	const char *k;
	size_t i;

	json_array_foreach(req, i, v)
		if (!orch_expect_place_ok(json_string_value(v)))
			return orch_expect_flaw(f, "expect_bad_place", json_string_value(v) ?: "?");
	json_object_foreach((json_t *)types, k, v) {
		if (!orch_expect_place_ok(k))
			return orch_expect_flaw(f, "expect_bad_place", k);
		if (!orch_expect_in(orch_expect_types, json_string_value(v)))
			return orch_expect_flaw(f, "expect_bad_type", k);
	}
	json_object_foreach((json_t *)min, k, v) {
		if (!orch_expect_place_ok(k))
			return orch_expect_flaw(f, "expect_bad_place", k);
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return orch_expect_flaw(f, "expect_bad_min", k);
	}
	return 0;
}

int orch_expect_check(const json_t *sub, struct orch_flaw *f)
{
	const json_t *e = json_object_get(sub, "expect"), *v;
	const char *k;

	if (e == NULL)
		return 0;
	if (!json_is_object(e))
		return orch_expect_flaw(f, "expect_shape", NULL);
	json_object_foreach((json_t *)e, k, v)
		if (!orch_expect_in(orch_expect_keys, k))
			return orch_expect_flaw(f, "expect_unknown", k);
	if ((json_object_get(e, "structured") && !json_is_boolean(json_object_get(e, "structured"))) ||
	    (json_object_get(e, "required") && !json_is_array(json_object_get(e, "required"))) ||
	    (json_object_get(e, "types") && !json_is_object(json_object_get(e, "types"))) ||
	    (json_object_get(e, "minItems") && !json_is_object(json_object_get(e, "minItems"))))
		return orch_expect_flaw(f, "expect_shape", NULL);
	return orch_expect_check_members(e, f);
}

/* The value at a place in data (borrowed), NULL when there is none. */
static json_t *orch_expect_at(const json_t *data, const char *place)
{
	struct ptr p;
	json_t *out = NULL;

	if (orch_expect_ptr(place, &p) == 0 &&
	    ptr_get((json_t *)data, &p, NULL, &out, NULL, 0) != PTR_OK)
		out = NULL;
	ptr_free(&p);
	return out;
}

static const char *orch_expect_type_of(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT: return "object";
	case JSON_ARRAY: return "array";
	case JSON_STRING: return "string";
	case JSON_INTEGER: return "integer";
	case JSON_REAL: return "number";
	case JSON_TRUE: case JSON_FALSE: return "boolean";
	default: return "null";
	}
}

static int orch_expect_type_ok(const json_t *v, const char *want)
{
	const char *is = orch_expect_type_of(v);

	return strcmp(is, want) == 0 || (strcmp(want, "number") == 0 && json_is_integer(v));
}

static void orch_expect_say(json_t *reasons, const char *lang, const char *id, ...)
{
	char *m = NULL;
	va_list ap;

	va_start(ap, id);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (vasprintf(&m, msg_get(lang, id), ap) < 0)
		m = NULL;
#pragma GCC diagnostic pop
	va_end(ap);
	json_array_append_new(reasons, json_string(m ? m : id));
	free(m);
}

/* A place that is missing is said once, whichever member asked for it. */
static int orch_expect_present(json_t *reasons, json_t *said, const char *lang, const json_t *data,
			       const char *place)
{
	if (orch_expect_at(data, place))
		return 1;
	if (!json_object_get(said, place)) {
		json_object_set_new(said, place, json_true());
		orch_expect_say(reasons, lang, "orch.expect.missing", place);
	}
	return 0;
}

static void orch_expect_members(const json_t *e, const json_t *data, const char *lang,
				json_t *reasons)
{
	json_t *said = json_object(), *v;
	const char *k;
	size_t i;

	json_array_foreach(json_object_get(e, "required"), i, v)
		orch_expect_present(reasons, said, lang, data, json_string_value(v));
	json_object_foreach(json_object_get(e, "types"), k, v) {
		const json_t *at = orch_expect_at(data, k);

		if (orch_expect_present(reasons, said, lang, data, k) &&
		    !orch_expect_type_ok(at, json_string_value(v)))
			orch_expect_say(reasons, lang, "orch.expect.type", k, json_string_value(v),
					orch_expect_type_of(at));
	}
	json_object_foreach(json_object_get(e, "minItems"), k, v) {
		const json_t *at = orch_expect_at(data, k);

		if (!orch_expect_present(reasons, said, lang, data, k))
			continue;
		if (!json_is_array(at))
			orch_expect_say(reasons, lang, "orch.expect.not_array", k, orch_expect_type_of(at));
		else if (json_array_size(at) < (size_t)json_integer_value(v))
			orch_expect_say(reasons, lang, "orch.expect.min_items", k,
					(long long)json_integer_value(v), (long long)json_array_size(at));
	}
	json_decref(said);
}

json_t *orch_expect_reasons(const json_t *expect, const json_t *data, const char *lang)
{
	json_t *reasons = json_array();
	int wants = json_is_true(json_object_get(expect, "structured")) ||
		    json_array_size(json_object_get(expect, "required")) ||
		    json_object_size(json_object_get(expect, "types")) ||
		    json_object_size(json_object_get(expect, "minItems"));

	if (expect == NULL)
		return reasons;
	if (data == NULL) {
		if (wants)
			orch_expect_say(reasons, lang, "orch.expect.no_structured");
		return reasons;
	}
	orch_expect_members(expect, data, lang, reasons);
	return reasons;
}

char *orch_expect_join(const json_t *reasons)
{
	struct buf b;
	size_t i;
	json_t *r;
	char *out;

	buf_init(&b, 1 << 14);
	json_array_foreach(reasons, i, r)
		buf_printf(&b, "%s%s", i ? "; " : "", json_string_value(r) ?: "");
	out = xstrdup(b.data ? b.data : "");
	buf_free(&b);
	return out;
}
