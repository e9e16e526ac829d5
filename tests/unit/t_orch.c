/* The orchestrate workflow's pure parts as tables: every plan check, the
 * structured output of an answer (seed §2.5 parseStructuredOutput), the
 * registry's and the templates' load checks on the shipped files and on
 * broken entries, and the planner's offline rules (their plans pass the
 * checks). */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "wf/orch/orch.h"

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
	test_plan_checks();
	test_plan_lang();
	test_structured();
	test_registry();
	test_plan_rules();
	return tap_done();
}
