/* The orchestrate workflow's pure parts as tables: every plan check, the
 * structured output of an answer (seed §2.5 parseStructuredOutput), the
 * registry's and the templates' load checks on the shipped files and on
 * broken entries, the limits on a plan's names and descriptions (at the
 * limit, one past, 15 MB: one short message), and the planner's offline rules (their plans pass the
 * checks), and the conditions and expectations of stages: their plan
 * checks, their evaluation and the shipped templates' use of them. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/orchestrate/orch.h"

static int known(void *ctx, const char *agent)
{
	static const char *const ids[] = { "coder", "code-reviewer", "documenter", "test-writer",
					   "vision-analyzer", "vision-annotator", "coordinator",
					   "architect", "debugger", "evaluator", "planner", NULL };

	for (size_t i = 0; ids[i]; i++)
		if (strcmp(ids[i], agent) == 0)
			return 1;
	return 0;
}

static void test_plan_checks(void)
{
	static const struct {
		const char *what, *plan, *code;   /* code: the first error's, NULL: valid */
		size_t n;
	} cases[] = {
		{ "valid two groups", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"inputs\":[]},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"documenter\",\"inputs\":[\"a\"]}],\"executionOrder\":[[\"a\"],[\"b\"]]}", NULL, 0 },
		{ "not an object", "[1]", "bad_plan", 1 },
		{ "no subtasks", "{\"subtasks\":[],\"executionOrder\":[[\"a\"]]}", "no_subtasks", 1 },
		{ "no order", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"}]}", "bad_order", 1 },
		{ "unknown agent", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"poet\"}],\"executionOrder\":[[\"a\"]]}", "unknown_agent", 1 },
		{ "the planner as a stage", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"planner\"}],\"executionOrder\":[[\"a\"]]}", "unknown_agent", 1 },
		{ "duplicate subtask", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"a\",\"description\":\"y\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"]]}", "duplicate_subtask", 1 },
		{ "subtask without id", "{\"subtasks\":[{\"description\":\"x\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"]]}", "bad_subtask", 2 },
		{ "unknown subtask in order", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\",\"z\"]]}", "unknown_subtask", 1 },
		{ "missing from order", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"]]}", "missing_from_order", 1 },
		{ "twice in order", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"],[\"a\"]]}", "duplicate_in_order", 1 },
		{ "empty group", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"],[]]}", "empty_group", 1 },
		{ "input from the same group", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"]}],\"executionOrder\":[[\"a\",\"b\"]]}", "input_not_earlier", 1 },
		{ "input from a later group", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"inputs\":[\"b\"]},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"],[\"b\"]]}", "input_not_earlier", 1 },
		{ "unknown input", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"inputs\":[\"q\"]}],\"executionOrder\":[[\"a\"]]}", "unknown_input", 1 },
		{ "no description", "{\"subtasks\":[{\"id\":\"a\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"]]}", "bad_subtask", 1 },
		{ "condition valid", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/issues\",\"test\":\"nonempty\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", NULL, 0 },
		{ "condition equals valid", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/level\",\"test\":\"equals\",\"value\":null}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", NULL, 0 },
		{ "condition not an object", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":\"a\"}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_condition", 1 },
		{ "condition without a test", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/issues\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_condition", 1 },
		{ "condition unknown input", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"q\",\"path\":\"/issues\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_unknown_input", 1 },
		{ "condition input not among inputs", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"c\",\"path\":\"/issues\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_not_input", 1 },
		{ "condition bad pointer", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"issues\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_bad_path", 1 },
		{ "condition bad escape", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/a~2\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_bad_path", 1 },
		{ "condition unknown test", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/issues\",\"test\":\"matches\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_bad_test", 1 },
		{ "condition equals without value", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/n\",\"test\":\"equals\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_no_value", 1 },
		{ "condition gt without value", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/n\",\"test\":\"gt\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_no_value", 1 },
		{ "condition lt with a string", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/n\",\"test\":\"lt\",\"value\":\"3\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_bad_value", 1 },
		{ "expect valid", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"structured\":true,\"required\":[\"issues\",\"/summary\"],\"types\":{\"/issues\":\"array\"},\"minItems\":{\"/issues\":0}}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", NULL, 0 },
		{ "expect not an object", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":[]}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect unknown member", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"require\":[\"x\"]}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect structured not boolean", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"structured\":\"yes\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect required not array", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"required\":\"/x\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect required bad pointer", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"required\":[\"/a~x\"]}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect required not a string", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"required\":[3]}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect unknown type", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"types\":{\"/x\":\"list\"}}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect negative minItems", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"minItems\":{\"/x\":-1}}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "expect minItems not integer", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"expect\":{\"minItems\":{\"/x\":1.5}}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "bad_expect", 1 },
		{ "condition and expect both wrong", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"code-reviewer\"},{\"id\":\"c\",\"description\":\"z\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"a\",\"path\":\"/x\",\"test\":\"gt\"},\"expect\":{\"types\":{\"/x\":\"set\"}}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}", "condition_no_value", 2 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *plan = json_loads(cases[i].plan, 0, NULL), *errors = json_array();
		size_t n = orch_plan_check(plan, known, NULL, errors);

		is_int(n, cases[i].n, "plan %s: %zu errors", cases[i].what, cases[i].n);
		if (cases[i].code)
			is_str(json_string_value(json_object_get(json_array_get(errors, 0), "code")),
			       cases[i].code, "plan %s: code", cases[i].what);
		json_decref(plan);
		json_decref(errors);
	}
}

/* Names and descriptions: a plan (text with %1$s where the generated
 * string goes) with n copies of unit there. */
struct size_case {
	const char *what, *plan, *unit;
	size_t n;
	const char *code, *message;   /* the only error's; NULL: valid */
};

#define SZ_SUB(id, desc, agent, inputs) "{\"id\":\"" id "\",\"description\":\"" desc "\",\"agent\":\"" \
	agent "\",\"inputs\":[" inputs "]}"

static const struct size_case size_cases[] = {
	{ "an id of 64 bytes", "{\"subtasks\":[" SZ_SUB("%1$s", "x", "coder", "") "],\"executionOrder\":[[\"%1$s\"]]}",
	  "i", 64, NULL, NULL },
	{ "an id of 65 bytes", "{\"subtasks\":[" SZ_SUB("%1$s", "x", "coder", "") "],\"executionOrder\":[[\"a\"]]}",
	  "i", 65, "bad_subtask", "the id of subtask 1 is longer than 64 bytes" },
	{ "an id of 15 MB", "{\"subtasks\":[" SZ_SUB("%1$s", "x", "coder", "") "],\"executionOrder\":[[\"a\"]]}",
	  "i", 15u << 20, "bad_subtask", "the id of subtask 1 is longer than 64 bytes" },
	{ "a description of 2000 characters (6000 bytes)",
	  "{\"subtasks\":[" SZ_SUB("a", "%1$s", "coder", "") "],\"executionOrder\":[[\"a\"]]}", "字", 2000, NULL, NULL },
	{ "a description of 2001 characters",
	  "{\"subtasks\":[" SZ_SUB("a", "%1$s", "coder", "") "],\"executionOrder\":[[\"a\"]]}", "d", 2001,
	  "bad_subtask", "the description of subtask a is longer than 2000 characters" },
	{ "an agent name of 65 bytes",
	  "{\"subtasks\":[" SZ_SUB("a", "x", "%1$s", "") "],\"executionOrder\":[[\"a\"]]}", "g", 65,
	  "bad_subtask", "subtask a names an agent or an input longer than 64 bytes" },
	{ "an input name of 65 bytes",
	  "{\"subtasks\":[" SZ_SUB("a", "x", "coder", "") "," SZ_SUB("b", "y", "coder", "\"%1$s\"")
	  "],\"executionOrder\":[[\"a\"],[\"b\"]]}", "n", 65,
	  "bad_subtask", "subtask b names an agent or an input longer than 64 bytes" },
	{ "a name of 15 MB in executionOrder",
	  "{\"subtasks\":[" SZ_SUB("a", "x", "coder", "") "],\"executionOrder\":[[\"a\",\"%1$s\"]]}", "o", 15u << 20,
	  "bad_order", "group 1 of executionOrder holds a name longer than 64 bytes" },
};

static void test_plan_sizes(void)
{
	for (size_t i = 0; i < sizeof size_cases / sizeof size_cases[0]; i++) {
		const struct size_case *c = &size_cases[i];
		size_t u = strlen(c->unit), len = strlen(c->plan) + 2 * c->n * u + 1;
		char *str = malloc(c->n * u + 1), *text = malloc(len);
		json_t *plan, *errors = json_array(), *e;
		size_t n;

		for (size_t k = 0; k < c->n; k++)
			memcpy(str + k * u, c->unit, u);
		str[c->n * u] = '\0';
		snprintf(text, len, c->plan, str);
		plan = json_loads(text, 0, NULL);
		n = orch_plan_check(plan, known, NULL, errors);
		e = json_array_get(errors, 0);
		if (c->code == NULL)
			is_int(n, 0, "plan sizes: %s: valid", c->what);
		else
			ok(n == 1 && strcmp(json_string_value(json_object_get(e, "code")), c->code) == 0 &&
			   strcmp(json_string_value(json_object_get(e, "message")), c->message) == 0,
			   "plan sizes: %s: %s, \"%.80s\"", c->what, c->code,
			   json_string_value(json_object_get(e, "message")) ?: "");
		json_decref(plan);
		json_decref(errors);
		free(text);
		free(str);
	}
}

/* The messages of plan errors in the thread's language (codes stay). */
static void test_plan_lang(void)
{
	static const struct {
		const char *lang, *plan, *code, *message;
	} cases[] = {
		{ "zh", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"poet\"}],\"executionOrder\":[[\"a\"]]}",
		  "unknown_agent", "子任务 a 指定的智能体 poet 不存在" },
		{ "en", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"poet\"}],\"executionOrder\":[[\"a\"]]}",
		  "unknown_agent", "subtask a names an unknown agent poet" },
		{ "zh", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"}],\"executionOrder\":[[\"a\"],[]]}",
		  "empty_group", "执行顺序的第 2 组为空" },
		{ "zh", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"inputs\":[7]}],\"executionOrder\":[[\"a\"]]}",
		  "unknown_input", "a 的输入 非字符串的值 不是子任务" },
		{ "en", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"]}],\"executionOrder\":[[\"a\",\"b\"]]}",
		  "input_not_earlier", "b takes input from a, which does not run in an earlier group" },
		{ "en", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"c\",\"description\":\"x\",\"agent\":\"coder\"},{\"id\":\"b\",\"description\":\"y\",\"agent\":\"coder\",\"inputs\":[\"a\"],\"condition\":{\"input\":\"c\",\"path\":\"/x\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\",\"c\"],[\"b\"]]}",
		  "condition_not_input", "the condition of b names c, which is not among its inputs" },
		{ "zh", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"expect\":{\"types\":{\"/x\":\"list\"}}}],\"executionOrder\":[[\"a\"]]}",
		  "bad_expect", "a 的 expect 中 /x 的类型未知（可用 object、array、string、number、integer、boolean、null）" },
		{ "en", "{\"subtasks\":[{\"id\":\"a\",\"description\":\"x\",\"agent\":\"coder\",\"inputs\":[\"z\"],\"condition\":{\"input\":\"z\",\"path\":\"/x\",\"test\":\"exists\"}}],\"executionOrder\":[[\"a\"]]}",
		  "condition_unknown_input", "the condition of a names z, which is no subtask" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *plan = json_loads(cases[i].plan, 0, NULL), *errors = json_array();
		json_t *e;

		orch_plan_check_lang(plan, known, NULL, cases[i].lang, errors);
		e = json_array_get(errors, 0);
		is_str(json_string_value(json_object_get(e, "code")), cases[i].code, "plan errors %s %zu: code",
		       cases[i].lang, i);
		is_str(json_string_value(json_object_get(e, "message")), cases[i].message,
		       "plan errors %s %zu: message", cases[i].lang, i);
		json_decref(plan);
		json_decref(errors);
	}
}

static void test_structured(void)
{
	static const struct {
		const char *what, *text, *want;   /* want: compact JSON, NULL: absent */
	} cases[] = {
		{ "fence in prose", "Found:\n```json\n{\"a\": 1}\n```\ndone", "{\"a\":1}" },
		{ "fence array", "```json\n[1, 2]\n```", "[1,2]" },
		{ "whole text", "{\"issues\": []}", "{\"issues\":[]}" },
		{ "bad fence, whole text not JSON", "```json\n{oops\n```", NULL },
		{ "plain prose", "All good, nothing to report.", NULL },
		{ "a bare number is not structured", "42", NULL },
		{ "empty", "", NULL },
		{ "fence first wins", "```json\n{\"x\": true}\n```\n```json\n{\"y\": 1}\n```", "{\"x\":true}" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *j = orch_structured(cases[i].text);
		char *s = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;

		if (cases[i].want)
			is_str(s, cases[i].want, "structured %s", cases[i].what);
		else
			ok(j == NULL, "structured %s: absent", cases[i].what);
		free(s);
		json_decref(j);
	}
}

static json_t *load(const char *name)
{
	char path[512];
	const char *src = getenv("srcdir");

	snprintf(path, sizeof path, "%s/etc/%s", src ? src : "..", name);
	return json_load_file(path, 0, NULL);
}

static void test_registry(void)
{
	json_t *agents = load("agents.json"), *tpl = load("templates.json"), *bad;
	char err[256] = "";
	static const struct {
		const char *what, *patch, *want;
	} broken[] = {
		{ "unknown tool", "{\"tools\":[\"rm_rf\"]}", "agent 1 (planner): unknown tool \"rm_rf\"" },
		{ "bad layer", "{\"layer\":\"top\"}", "agent 1 (planner): \"layer\" must be" },
		{ "bad maxIterations", "{\"maxIterations\":0}", "agent 1 (planner): \"maxIterations\"" },
		{ "duplicate id", "{\"id\":\"coordinator\"}", "agent 2 (coordinator): duplicate id" },
	};

	if (agents == NULL || tpl == NULL)
		tap_bail("etc/agents.json or etc/templates.json cannot be read");
	is_int(json_array_size(agents), 12, "twelve agents");
	is_int(orch_agents_check(agents, err, sizeof err), 0, "the shipped registry passes (%s)", err);
	is_int(orch_templates_check(tpl, err, sizeof err), 0, "the shipped templates pass (%s)", err);
	for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
		json_t *patch = json_loads(broken[i].patch, 0, NULL);

		bad = json_deep_copy(agents);
		json_object_update(json_array_get(bad, 0), patch);
		err[0] = '\0';
		ok(orch_agents_check(bad, err, sizeof err) < 0 &&
		   strncmp(err, broken[i].want, strlen(broken[i].want)) == 0, "registry %s: %s",
		   broken[i].what, err);
		json_decref(patch);
		json_decref(bad);
	}
	bad = json_deep_copy(tpl);
	json_array_append_new(json_object_get(json_array_get(bad, 0), "executionOrder"), json_array());
	ok(orch_templates_check(bad, err, sizeof err) < 0 && strstr(err, "template 1 (image-ocr-annotate)"),
	   "a broken template is named: %s", err);
	json_decref(bad);
	json_decref(agents);
	json_decref(tpl);
}

/* Conditions against a stage's structured data (NULL: absent). */
static void test_conditions(void)
{
	static const struct {
		const char *cond, *data;
		int want;
	} cases[] = {
		{ "{\"path\":\"/issues\",\"test\":\"nonempty\"}", "{\"issues\":[{\"line\":3}]}", 1 },
		{ "{\"path\":\"/issues\",\"test\":\"nonempty\"}", "{\"issues\":[]}", 0 },
		{ "{\"path\":\"/issues\",\"test\":\"nonempty\"}", "{}", 0 },
		{ "{\"path\":\"/issues\",\"test\":\"nonempty\"}", NULL, 0 },
		{ "{\"path\":\"/issues\",\"test\":\"empty\"}", "{\"issues\":[]}", 1 },
		{ "{\"path\":\"/issues\",\"test\":\"empty\"}", NULL, 1 },
		{ "{\"path\":\"/name\",\"test\":\"empty\"}", "{\"name\":\"\"}", 1 },
		{ "{\"path\":\"/name\",\"test\":\"empty\"}", "{\"name\":null}", 1 },
		{ "{\"path\":\"/n\",\"test\":\"empty\"}", "{\"n\":0}", 0 },
		{ "{\"path\":\"/n\",\"test\":\"nonempty\"}", "{\"n\":false}", 1 },
		{ "{\"path\":\"/m\",\"test\":\"nonempty\"}", "{\"m\":{\"k\":1}}", 1 },
		{ "{\"path\":\"/m\",\"test\":\"empty\"}", "{\"m\":{}}", 1 },
		{ "{\"path\":\"/x\",\"test\":\"exists\"}", "{\"x\":null}", 1 },
		{ "{\"path\":\"/y\",\"test\":\"exists\"}", "{\"x\":null}", 0 },
		{ "{\"path\":\"\",\"test\":\"exists\"}", "[]", 1 },
		{ "{\"path\":\"/a~1b/0\",\"test\":\"exists\"}", "{\"a/b\":[7]}", 1 },
		{ "{\"path\":\"/a~1b/1\",\"test\":\"exists\"}", "{\"a/b\":[7]}", 0 },
		{ "{\"path\":\"/issues/0/severity\",\"test\":\"equals\",\"value\":\"high\"}", "{\"issues\":[{\"severity\":\"high\"}]}", 1 },
		{ "{\"path\":\"/issues/0/severity\",\"test\":\"equals\",\"value\":\"high\"}", "{\"issues\":[{\"severity\":\"low\"}]}", 0 },
		{ "{\"path\":\"/n\",\"test\":\"equals\",\"value\":2}", "{\"n\":2.0}", 1 },
		{ "{\"path\":\"/o\",\"test\":\"equals\",\"value\":{\"a\":[1]}}", "{\"o\":{\"a\":[1]}}", 1 },
		{ "{\"path\":\"/n\",\"test\":\"not_equals\",\"value\":2}", "{\"n\":3}", 1 },
		{ "{\"path\":\"/n\",\"test\":\"not_equals\",\"value\":2}", "{\"n\":2}", 0 },
		{ "{\"path\":\"/n\",\"test\":\"not_equals\",\"value\":2}", NULL, 1 },
		{ "{\"path\":\"/score\",\"test\":\"gt\",\"value\":0.5}", "{\"score\":0.75}", 1 },
		{ "{\"path\":\"/score\",\"test\":\"gt\",\"value\":0.5}", "{\"score\":0.5}", 0 },
		{ "{\"path\":\"/score\",\"test\":\"gt\",\"value\":0.5}", "{\"score\":\"0.9\"}", 0 },
		{ "{\"path\":\"/count\",\"test\":\"lt\",\"value\":3}", "{\"count\":2}", 1 },
		{ "{\"path\":\"/count\",\"test\":\"lt\",\"value\":3}", "{\"count\":3}", 0 },
		{ "{\"path\":\"/count\",\"test\":\"lt\",\"value\":3}", NULL, 0 },
		{ "{\"path\":\"/count\",\"test\":\"matches\",\"value\":3}", "{\"count\":3}", 0 },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *cond = json_loads(cases[i].cond, 0, NULL);
		json_t *data = cases[i].data ? json_loads(cases[i].data, JSON_DECODE_ANY, NULL) : NULL;

		is_int(orch_cond_test(cond, data), cases[i].want, "condition %s on %s", cases[i].cond,
		       cases[i].data ? cases[i].data : "(absent)");
		json_decref(cond);
		json_decref(data);
	}
}

/* A condition against the run's stages: only a done input has data. */
static void test_condition_stages(void)
{
	static const struct {
		const char *what, *stages;
		int want;
	} cases[] = {
		{ "input done with issues", "{\"r\":{\"status\":\"done\",\"context\":{\"structuredData\":{\"issues\":[1]}}}}", 1 },
		{ "input done, none found", "{\"r\":{\"status\":\"done\",\"context\":{\"structuredData\":{\"issues\":[]}}}}", 0 },
		{ "input done without structured data", "{\"r\":{\"status\":\"done\",\"context\":{\"textOutput\":\"x\"}}}", 0 },
		{ "input skipped", "{\"r\":{\"status\":\"skipped\",\"context\":{\"structuredData\":{\"issues\":[1]}}}}", 0 },
		{ "input failed", "{\"r\":{\"status\":\"failed\"}}", 0 },
	};
	json_t *sub = json_loads("{\"id\":\"f\",\"inputs\":[\"r\"],\"condition\":{\"input\":\"r\","
				 "\"path\":\"/issues\",\"test\":\"nonempty\"}}", 0, NULL);
	json_t *plain = json_loads("{\"id\":\"g\",\"inputs\":[\"r\"]}", 0, NULL);

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *stages = json_loads(cases[i].stages, 0, NULL);

		is_int(orch_cond_holds(sub, stages), cases[i].want, "condition stages: %s", cases[i].what);
		is_int(orch_cond_holds(plain, stages), 1, "condition stages: %s, no condition runs",
		       cases[i].what);
		json_decref(stages);
	}
	json_decref(sub);
	json_decref(plain);
}

/* Expectations against structured data (NULL: absent): the reasons. */
static void test_expectations(void)
{
	static const struct {
		const char *expect, *data, *lang;
		size_t n;
		const char *first;   /* the first reason; NULL: none */
	} cases[] = {
		{ "{\"structured\":true}", "{\"a\":1}", "en", 0, NULL },
		{ "{\"structured\":true}", NULL, "en", 1, "the answer has no structured data (a ```json fence, or the whole answer as JSON)" },
		{ "{\"structured\":false}", NULL, "en", 0, NULL },
		{ "{}", NULL, "en", 0, NULL },
		{ "{\"types\":{\"/textRegions\":\"array\"}}", NULL, "zh", 1, "回答中没有结构化数据（```json 代码块，或整个回答就是 JSON）" },
		{ "{\"types\":{\"/textRegions\":\"array\"}}", "{\"textRegions\":[]}", "en", 0, NULL },
		{ "{\"types\":{\"/textRegions\":\"array\"}}", "{\"textRegions\":{}}", "en", 1, "/textRegions must be of type array, not object" },
		{ "{\"types\":{\"/textRegions\":\"array\"}}", "{\"regions\":[]}", "en", 1, "the structured data has no /textRegions" },
		{ "{\"types\":{\"/textRegions\":\"array\"}}", "{\"regions\":[]}", "zh", 1, "结构化数据中缺少 /textRegions" },
		{ "{\"required\":[\"issues\",\"summary\"]}", "{\"issues\":[]}", "en", 1, "the structured data has no summary" },
		{ "{\"required\":[\"a/b\"]}", "{\"a/b\":1}", "en", 0, NULL },
		{ "{\"required\":[\"/issues/0/line\"]}", "{\"issues\":[{\"line\":3}]}", "en", 0, NULL },
		{ "{\"required\":[\"/issues/0/line\"]}", "{\"issues\":[]}", "en", 1, "the structured data has no /issues/0/line" },
		{ "{\"required\":[\"/x\"],\"types\":{\"/x\":\"string\"},\"minItems\":{\"/x\":1}}", "{}", "en", 1, "the structured data has no /x" },
		{ "{\"types\":{\"/n\":\"number\"}}", "{\"n\":3}", "en", 0, NULL },
		{ "{\"types\":{\"/n\":\"integer\"}}", "{\"n\":3.5}", "en", 1, "/n must be of type integer, not number" },
		{ "{\"types\":{\"/b\":\"boolean\",\"/s\":\"string\",\"/z\":\"null\"}}", "{\"b\":true,\"s\":\"x\",\"z\":null}", "en", 0, NULL },
		{ "{\"minItems\":{\"/elements\":1}}", "{\"elements\":[]}", "en", 1, "/elements needs at least 1 items, and has 0" },
		{ "{\"minItems\":{\"/elements\":1}}", "{\"elements\":[]}", "zh", 1, "/elements 至少需要 1 项，实际只有 0 项" },
		{ "{\"minItems\":{\"/elements\":0}}", "{\"elements\":[]}", "en", 0, NULL },
		{ "{\"minItems\":{\"/elements\":1}}", "{\"elements\":\"many\"}", "en", 1, "/elements must be an array, not string" },
		{ "{\"structured\":true,\"types\":{\"/a\":\"array\",\"/b\":\"object\"}}", "[1]", "en", 2, "the structured data has no /a" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *e = json_loads(cases[i].expect, 0, NULL);
		json_t *data = cases[i].data ? json_loads(cases[i].data, JSON_DECODE_ANY, NULL) : NULL;
		json_t *r = orch_expect_reasons(e, data, cases[i].lang);

		is_int(json_array_size(r), cases[i].n, "expect %s on %s: %zu reasons", cases[i].expect,
		       cases[i].data ? cases[i].data : "(absent)", cases[i].n);
		if (cases[i].first)
			is_str(json_string_value(json_array_get(r, 0)), cases[i].first,
			       "expect %s on %s (%s): the reason", cases[i].expect,
			       cases[i].data ? cases[i].data : "(absent)", cases[i].lang);
		json_decref(r);
		json_decref(e);
		json_decref(data);
	}
	{
		json_t *r = json_pack("[s, s]", "one", "two");
		char *j = orch_expect_join(r);

		is_str(j, "one; two", "expect: the reasons joined");
		free(j);
		json_decref(r);
	}
}

/* The shipped templates' conditions and expectations. */
static void test_template_gates(void)
{
	static const struct {
		const char *tpl, *stage, *member, *want;
	} cases[] = {
		{ "code-review-and-fix", "review", "expect", "{\"structured\":true,\"types\":{\"/issues\":\"array\"}}" },
		{ "code-review-and-fix", "fix", "condition", "{\"input\":\"review\",\"path\":\"/issues\",\"test\":\"nonempty\"}" },
		{ "code-review-and-fix", "tests", "condition", "{\"input\":\"review\",\"path\":\"/issues\",\"test\":\"nonempty\"}" },
		{ "code-review-and-fix", "summary", "condition", NULL },
		{ "image-ocr-annotate", "ocr", "expect", "{\"structured\":true,\"types\":{\"/textRegions\":\"array\"}}" },
		{ "image-ocr-annotate", "annotate", "condition", "{\"input\":\"ocr\",\"path\":\"/textRegions\",\"test\":\"nonempty\"}" },
		{ "image-element-detect", "detect", "expect", "{\"structured\":true,\"types\":{\"/elements\":\"array\"}}" },
		{ "image-element-detect", "annotate", "condition", "{\"input\":\"detect\",\"path\":\"/elements\",\"test\":\"nonempty\"}" },
	};
	json_t *tpl = load("templates.json");

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *t, *s, *got = NULL, *want;
		size_t k, j;

		json_array_foreach(tpl, k, t)
			if (strcmp(json_string_value(json_object_get(t, "id")), cases[i].tpl) == 0)
				json_array_foreach(json_object_get(t, "subtasks"), j, s)
					if (strcmp(json_string_value(json_object_get(s, "id")), cases[i].stage) == 0)
						got = json_object_get(s, cases[i].member);
		want = cases[i].want ? json_loads(cases[i].want, 0, NULL) : NULL;
		ok(want ? json_equal(got, want) : got == NULL, "template %s: %s's %s", cases[i].tpl,
		   cases[i].stage, cases[i].member);
		json_decref(want);
	}
	json_decref(tpl);
}

static void test_plan_rules(void)
{
	static const struct {
		const char *what, *task, *mime, *first_agent;
		size_t groups;
	} cases[] = {
		{ "picture: OCR", "识别图片中的文字并标注", "image/png", "vision-analyzer", 2 },
		{ "picture with elements", "detect the buttons and icons", "image/jpeg", "vision-analyzer", 2 },
		{ "code files", "please look at this", "text/x-c", "code-reviewer", 3 },
		{ "code words", "review and fix my parser", NULL, "code-reviewer", 3 },
		{ "specialists", "design the storage and write tests", NULL, "architect", 2 },
		{ "nothing matches", "hello there", NULL, "coordinator", 1 },
	};
	json_t *tpl = load("templates.json");

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		json_t *facts = json_pack("{s:s, s:[], s:O}", "task", cases[i].task, "attachments",
					  "templates", tpl), *errors = json_array(), *plan;
		char err[100];

		if (cases[i].mime)
			json_array_append_new(json_object_get(facts, "attachments"),
					      json_pack("{s:s, s:s}", "path", "f", "mimeType", cases[i].mime));
		plan = orch_plan_rules(facts, cases[i].task, err, sizeof err);
		is_int(orch_plan_check(plan, known, NULL, errors), 0, "rules %s: the plan passes", cases[i].what);
		is_str(json_string_value(json_object_get(json_array_get(json_object_get(plan, "subtasks"), 0),
							 "agent")), cases[i].first_agent, "rules %s: first agent",
		       cases[i].what);
		is_int(json_array_size(json_object_get(plan, "executionOrder")), cases[i].groups,
		       "rules %s: groups", cases[i].what);
		json_decref(plan);
		json_decref(errors);
		json_decref(facts);
	}
	json_decref(tpl);
}

int main(void)
{
	msg_catalogue_add(orch_msgs, orch_nmsgs); /* as registering the workflow does */
	test_plan_checks();
	test_plan_sizes();
	test_plan_lang();
	test_structured();
	test_registry();
	test_plan_rules();
	test_conditions();
	test_condition_stages();
	test_expectations();
	test_template_gates();
	return tap_done();
}
