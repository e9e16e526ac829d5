/* Conditional stages of an orchestrate plan: a subtask's "condition"
 * {input, path, test, value?} names one of its inputs, a JSON Pointer into
 * that input's structuredData and a test; a stage whose condition does not
 * hold is skipped before it starts. Here: the plan check of a condition
 * and its evaluation, both pure. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "json/pointer.h"
#include "wf/orchestrate/orch.h"

enum orch_test { ORCH_T_EXISTS, ORCH_T_NONEMPTY, ORCH_T_EMPTY, ORCH_T_EQUALS, ORCH_T_NOT_EQUALS,
		 ORCH_T_GT, ORCH_T_LT, ORCH_T_UNKNOWN };

static const struct orch_test_def {
	const char *name;
	enum orch_test test;
	int value;   /* 0: none, 1: any JSON value, 2: a number */
} orch_tests[] = {
	{ "exists", ORCH_T_EXISTS, 0 },     { "nonempty", ORCH_T_NONEMPTY, 0 },
	{ "empty", ORCH_T_EMPTY, 0 },       { "equals", ORCH_T_EQUALS, 1 },
	{ "not_equals", ORCH_T_NOT_EQUALS, 1 }, { "gt", ORCH_T_GT, 2 },
	{ "lt", ORCH_T_LT, 2 },
};

static const struct orch_test_def *orch_cond_test_def(const char *name)
{
	for (size_t i = 0; name && i < sizeof orch_tests / sizeof orch_tests[0]; i++)
		if (strcmp(orch_tests[i].name, name) == 0)
			return &orch_tests[i];
	return NULL;
}

static int orch_flaw_set(struct orch_flaw *f, const char *code, const char *what, const char *arg)
{
	f->code = code;
	f->what = what;
	snprintf(f->arg, sizeof f->arg, "%s", arg ? arg : "");
	return -1;
}

static int orch_cond_among(const json_t *inputs, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(inputs, i, v)
		if (json_is_string(v) && strcmp(json_string_value(v), id) == 0)
			return 1;
	return 0;
}

static int orch_cond_known(const json_t *subtasks, const char *id)
{
	size_t i;
	json_t *s;

	json_array_foreach(subtasks, i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")) ?: "", id) == 0)
			return 1;
	return 0;
}

int orch_cond_check(const json_t *sub, const json_t *subtasks, struct orch_flaw *f)
{
	const json_t *c = json_object_get(sub, "condition");
	const char *input = json_string_value(json_object_get(c, "input"));
	const char *path = json_string_value(json_object_get(c, "path"));
	const char *test = json_string_value(json_object_get(c, "test"));
	const json_t *value = json_object_get(c, "value");
	const struct orch_test_def *t = orch_cond_test_def(test);
	struct ptr p;
	int bad;

	if (c == NULL)
		return 0;
	if (!json_is_object(c) || input == NULL || path == NULL || test == NULL)
		return orch_flaw_set(f, "bad_condition", "bad_condition", NULL);
	if (!orch_cond_known(subtasks, input))
		return orch_flaw_set(f, "condition_unknown_input", "condition_unknown_input", input);
	if (!orch_cond_among(json_object_get(sub, "inputs"), input))
		return orch_flaw_set(f, "condition_not_input", "condition_not_input", input);
	bad = ptr_parse(&p, path, NULL, 0) < 0;
	ptr_free(&p);
	if (bad)
		return orch_flaw_set(f, "condition_bad_path", "condition_bad_path", path);
	if (t == NULL)
		return orch_flaw_set(f, "condition_bad_test", "condition_bad_test", test);
	if (t->value && value == NULL)
		return orch_flaw_set(f, "condition_no_value", "condition_no_value", test);
	if (t->value == 2 && !json_is_number(value))
		return orch_flaw_set(f, "condition_bad_value", "condition_bad_value", test);
	return 0;
}

/* The value at path in data (borrowed), NULL when data is absent or the
 * pointer finds nothing. */
static json_t *orch_cond_at(const json_t *data, const char *path)
{
	struct ptr p;
	json_t *out = NULL;

	if (data == NULL)
		return NULL;
	if (ptr_parse(&p, path, NULL, 0) == 0 &&
	    ptr_get((json_t *)data, &p, NULL, &out, NULL, 0) != PTR_OK)
		out = NULL;
	ptr_free(&p);
	return out;
}

/* Absent, null, "", [] and {} are empty. */
static int orch_cond_empty(const json_t *v)
{
	if (v == NULL || json_is_null(v))
		return 1;
	if (json_is_string(v))
		return json_string_length(v) == 0;
	if (json_is_array(v))
		return json_array_size(v) == 0;
	if (json_is_object(v))
		return json_object_size(v) == 0;
	return 0;
}

/* Equal as JSON, numbers by value (1 equals 1.0). */
static int orch_cond_equal(const json_t *a, const json_t *b)
{
	if (a == NULL || b == NULL)
		return 0;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal((json_t *)a, (json_t *)b);
}

int orch_cond_test(const json_t *cond, const json_t *data)
{
	const struct orch_test_def *t = orch_cond_test_def(json_string_value(json_object_get(cond, "test")));
	const json_t *v = orch_cond_at(data, json_string_value(json_object_get(cond, "path")) ?: "");
	const json_t *want = json_object_get(cond, "value");

	switch (t ? t->test : ORCH_T_UNKNOWN) {
	case ORCH_T_EXISTS:
		return v != NULL;
	case ORCH_T_NONEMPTY:
		return !orch_cond_empty(v);
	case ORCH_T_EMPTY:
		return orch_cond_empty(v);
	case ORCH_T_EQUALS:
		return orch_cond_equal(v, want);
	case ORCH_T_NOT_EQUALS:
		return !orch_cond_equal(v, want);
	case ORCH_T_GT:
		return json_is_number(v) && json_is_number(want) &&
		       json_number_value(v) > json_number_value(want);
	case ORCH_T_LT:
		return json_is_number(v) && json_is_number(want) &&
		       json_number_value(v) < json_number_value(want);
	default:
		return 0;
	}
}

int orch_cond_holds(const json_t *sub, const json_t *stages)
{
	const json_t *cond = json_object_get(sub, "condition");
	const json_t *st = json_object_get(stages, json_string_value(json_object_get(cond, "input")) ?: "");
	const json_t *data = NULL;

	if (cond == NULL)
		return 1;
	if (strcmp(json_string_value(json_object_get(st, "status")) ?: "", "done") == 0)
		data = json_object_get(json_object_get(st, "context"), "structuredData");
	return orch_cond_test(cond, data);
}
