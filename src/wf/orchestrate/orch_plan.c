/* The plan of an orchestrate run: its checks (every rule the planner must
 * keep, each problem a code and a sentence the planner is given back once
 * to repair it). The planner's offline rules are in orch_plan_rules.c. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "text/msg.h"
#include "wf/orchestrate/orch.h"

#define ORCH_PLAN_MAX 32

/* A check's output: the errors (borrowed array) and the language of
 * their messages. */
struct orch_check {
	json_t *errors;
	const char *lang;
};

/* One problem: its code, the subtask it is about, and the catalogue's
 * message "orch.plan.<what>" formatted with the arguments. */
static void orch_plan_err(struct orch_check *k, const char *code, const char *subtask,
			  const char *what, ...)
{
	char id[64], *msg = NULL;
	va_list ap;

	snprintf(id, sizeof id, "orch.plan.%s", what);
	va_start(ap, what);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (vasprintf(&msg, msg_get(k->lang, id), ap) < 0)
		msg = NULL;
#pragma GCC diagnostic pop
	va_end(ap);
	json_array_append_new(k->errors, json_pack("{s:s, s:s?, s:s}", "code", code, "subtask",
						   subtask, "message", msg ? msg : what));
	free(msg);
}

/* The group each subtask is in (-1: none), by index in subtasks. */
static long orch_plan_group_of(const json_t *order, const char *id)
{
	size_t g, k;
	json_t *grp, *v;

	json_array_foreach(order, g, grp)
		json_array_foreach(grp, k, v)
			if (json_is_string(v) && strcmp(json_string_value(v), id) == 0)
				return (long)g;
	return -1;
}

static const json_t *orch_plan_find(const json_t *subtasks, const char *id)
{
	size_t i;
	json_t *s;

	json_array_foreach(subtasks, i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")) ?: "", id) == 0)
			return s;
	return NULL;
}

/* A subtask's condition and expectation (orch_cond.c, orch_expect.c). */
static void orch_plan_check_gates(const json_t *subtasks, const json_t *s, const char *id,
				  struct orch_check *chk)
{
	struct orch_flaw f;

	if (orch_cond_check(s, subtasks, &f) < 0)
		orch_plan_err(chk, f.code, id, f.what, id, f.arg);
	if (orch_expect_check(s, &f) < 0)
		orch_plan_err(chk, f.code, id, f.what, id, f.arg);
}

/* Characters of UTF-8 text (jansson's strings are valid UTF-8). */
static size_t orch_plan_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

static int orch_plan_long(const json_t *v)
{
	return json_is_string(v) && json_string_length(v) > ORCH_SUBTASK_ID_MAX;
}

/* One subtask's names and description within their limits (the other
 * checks repeat names in their messages). */
static void orch_plan_size_one(const json_t *s, size_t i, struct orch_check *chk)
{
	const json_t *id = json_object_get(s, "id"), *d = json_object_get(s, "description"), *in;
	size_t k;
	int names = orch_plan_long(json_object_get(s, "agent"));

	if (orch_plan_long(id)) {
		orch_plan_err(chk, "bad_subtask", NULL, "id_too_long", i + 1, ORCH_SUBTASK_ID_MAX);
		return;
	}
	if (json_is_string(d) && orch_plan_chars(json_string_value(d)) > ORCH_SUBTASK_DESCRIPTION_MAX)
		orch_plan_err(chk, "bad_subtask", json_string_value(id), "description_too_long",
			      json_string_value(id) ?: "?", ORCH_SUBTASK_DESCRIPTION_MAX);
	json_array_foreach(json_object_get(s, "inputs"), k, in)
		names |= orch_plan_long(in);
	if (names)
		orch_plan_err(chk, "bad_subtask", json_string_value(id), "name_too_long",
			      json_string_value(id) ?: "?", ORCH_SUBTASK_ID_MAX);
}

/* Every name and description within its limit. */
static void orch_plan_check_sizes(const json_t *subtasks, const json_t *order,
				  struct orch_check *chk)
{
	size_t i, k;
	json_t *s, *grp, *v;

	json_array_foreach(subtasks, i, s)
		orch_plan_size_one(s, i, chk);
	json_array_foreach(order, i, grp)
		json_array_foreach(grp, k, v)
			if (orch_plan_long(v)) {
				orch_plan_err(chk, "bad_order", NULL, "order_name_too_long", i + 1,
					      ORCH_SUBTASK_ID_MAX);
				break;
			}
}

static void orch_plan_check_subtasks(const json_t *subtasks, int (*known)(void *, const char *),
				     void *ctx, struct orch_check *chk)
{
	size_t i;
	json_t *s;

	json_array_foreach(subtasks, i, s) {
		const char *id = json_string_value(json_object_get(s, "id"));
		const char *agent = json_string_value(json_object_get(s, "agent"));

		if (id == NULL || *id == '\0') {
			orch_plan_err(chk, "bad_subtask", NULL, "no_id", i + 1);
			continue;
		}
		if (orch_plan_find(subtasks, id) != s)
			orch_plan_err(chk, "duplicate_subtask", id, "duplicate_subtask", id);
		if (!json_is_string(json_object_get(s, "description")))
			orch_plan_err(chk, "bad_subtask", id, "no_description", id);
		if (agent == NULL || !known(ctx, agent) || strcmp(agent, "planner") == 0)
			orch_plan_err(chk, "unknown_agent", id, "unknown_agent", id,
				      agent ? agent : msg_get(chk->lang, "orch.plan.none"));
		if (json_object_get(s, "inputs") && !json_is_array(json_object_get(s, "inputs")))
			orch_plan_err(chk, "bad_subtask", id, "bad_inputs", id);
		orch_plan_check_gates(subtasks, s, id, chk);
	}
}

/* How often id appears in the order. */
static size_t orch_plan_count(const json_t *order, const char *id)
{
	size_t g, k, n = 0;
	json_t *grp, *v;

	json_array_foreach(order, g, grp)
		json_array_foreach(grp, k, v)
			n += json_is_string(v) && strcmp(json_string_value(v), id) == 0;
	return n;
}

/* Every id of the order is a subtask, once (a repeat is reported at its
 * first place); no group is empty. */
static void orch_plan_check_order(const json_t *subtasks, const json_t *order, struct orch_check *chk)
{
	size_t g, k, j;
	json_t *grp, *v, *w;

	json_array_foreach(order, g, grp) {
		if (!json_is_array(grp) || json_array_size(grp) == 0) {
			orch_plan_err(chk, "empty_group", NULL, "empty_group", g + 1);
			continue;
		}
		json_array_foreach(grp, k, v) {
			const char *id = json_string_value(v);
			size_t first = k;

			if (id == NULL || orch_plan_find(subtasks, id) == NULL) {
				orch_plan_err(chk, "unknown_subtask", id, "unknown_subtask",
					      id ? id : msg_get(chk->lang, "orch.plan.nonstring"));
				continue;
			}
			json_array_foreach(grp, j, w)
				if (json_is_string(w) && strcmp(json_string_value(w), id) == 0) {
					first = j;
					break;
				}
			if (orch_plan_count(order, id) > 1 && orch_plan_group_of(order, id) == (long)g &&
			    first == k)
				orch_plan_err(chk, "duplicate_in_order", id, "duplicate_in_order", id,
					      orch_plan_count(order, id));
		}
	}
}

/* Every subtask is in the order; its inputs are subtasks of earlier groups. */
static void orch_plan_check_inputs(const json_t *subtasks, const json_t *order, struct orch_check *chk)
{
	size_t i, k;
	json_t *s, *in;

	json_array_foreach(subtasks, i, s) {
		const char *id = json_string_value(json_object_get(s, "id"));
		long g;

		if (id == NULL)
			continue;
		g = orch_plan_group_of(order, id);
		if (g < 0)
			orch_plan_err(chk, "missing_from_order", id, "missing_from_order", id);
		json_array_foreach(json_object_get(s, "inputs"), k, in) {
			const char *src = json_string_value(in);
			long gs = src ? orch_plan_group_of(order, src) : -1;

			if (src == NULL || orch_plan_find(subtasks, src) == NULL)
				orch_plan_err(chk, "unknown_input", id, "unknown_input", id,
					      src ? src : msg_get(chk->lang, "orch.plan.nonstring"));
			else if (g >= 0 && (gs < 0 || gs >= g))
				orch_plan_err(chk, "input_not_earlier", id, "input_not_earlier", id, src);
		}
	}
}

size_t orch_plan_check(const json_t *plan, int (*known)(void *ctx, const char *agent), void *ctx,
		       json_t *errors)
{
	return orch_plan_check_lang(plan, known, ctx, "en", errors);
}

size_t orch_plan_check_lang(const json_t *plan, int (*known)(void *ctx, const char *agent),
			    void *ctx, const char *lang, json_t *errors)
{
	struct orch_check k = { errors, lang };
	const json_t *subtasks = json_object_get(plan, "subtasks");
	const json_t *order = json_object_get(plan, "executionOrder");
	size_t before = json_array_size(errors);

	if (!json_is_object(plan)) {
		orch_plan_err(&k, "bad_plan", NULL, "bad_plan");
		return 1;
	}
	if (!json_is_array(subtasks) || json_array_size(subtasks) == 0 ||
	    json_array_size(subtasks) > ORCH_PLAN_MAX)
		orch_plan_err(&k, "no_subtasks", NULL, "no_subtasks", ORCH_PLAN_MAX);
	if (!json_is_array(order) || json_array_size(order) == 0)
		orch_plan_err(&k, "bad_order", NULL, "bad_order");
	if (json_array_size(errors) > before)
		return json_array_size(errors) - before;
	orch_plan_check_sizes(subtasks, order, &k);
	if (json_array_size(errors) > before)
		return json_array_size(errors) - before;
	orch_plan_check_subtasks(subtasks, known, ctx, &k);
	orch_plan_check_order(subtasks, order, &k);
	orch_plan_check_inputs(subtasks, order, &k);
	return json_array_size(errors) - before;
}
