/* The planner's offline rules (orch_plan_rules in orch.h): the task's
 * words and its attachments' kinds and contents choose the plan. A
 * picture goes to OCR only when the question is about its text, to
 * element detection when it is about its elements, else to an analysis
 * the coordinator answers from; a crash log or a stack trace goes to the
 * debugger; code goes to the review template; other tasks get the
 * specialists their words name, each after the stages it reads, merged by
 * the coordinator; a task no agent works on goes to the coordinator alone,
 * who answers what it can or says why not. A rejected plan's feedback is
 * applied to it (orch_plan_edit.c). Steps are written in the thread's
 * language. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xmalloc.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_plan_int.h"

static const struct { const char *id, *zh, *en; } orch_rules_words[] = {
	{ "an_generic", "任务需要：%s。执行顺序：%s；读取其他步骤结果的步骤在它们之后运行，最后由协调者合并。", "The task calls for: %s. The order: %s; a step that reads others runs after them, and the coordinator merges the outputs last." },
	{ "an_none", "团队的智能体处理的是代码、日志、图片和前面步骤的结果（代码审查、调试、架构设计、编码、测试、文档、评估、图片分析），没有负责这个任务的。由协调者直接回答它能回答的部分，做不到时说明原因。", "The team's agents work on code, logs, pictures and the results of earlier steps (code review, debugging, design, coding, tests, documentation, evaluation, pictures), and none of them works on this task. The coordinator answers what it can, or says why it cannot." },
	{ "an_crash", "任务中有崩溃日志或调用栈，先由调试专家找原因。执行顺序：%s。", "The task holds a crash log or a stack trace: the debugger looks for its cause first. The order: %s." },
	{ "an_vision", "这是关于附图的问题，但问的不是图中的文字：先找出图中的元素，再由协调者据此回答。执行顺序：%s。", "A question about the attached picture that is not about its text: its elements are found first, then the coordinator answers from them. The order: %s." },
	{ "an_extra", "%s另按任务的要求加入：%s。", "%s Added for the task's words: %s." },
	{ "answer_desc", "直接回答任务：%s", "Answer the task itself: %s" },
	{ "look_desc", "找出附图中的元素（类型、位置框和颜色），用来回答任务中的问题", "Find the elements of the attached picture (type, box and colours) to answer the task's question" },
	{ "crash_desc", "根据崩溃日志和调用栈找出崩溃的原因", "Find the cause of the crash from its log and stack trace" },
	{ "sep", "、", ", " },
};

/* The templates' words in Chinese (their English is in the templates). */
static const struct { const char *tpl, *step, *zh; } orch_tpl_zh[] = {
	{ "image-ocr-annotate", NULL, "读取附图中的文字及其位置；找到文字时，再在每一行周围画框并标注。" },
	{ "image-ocr-annotate", "ocr", "识别附图中的每一段文字，给出位置框和置信度（OCR JSON）。" },
	{ "image-ocr-annotate", "annotate", "在 OCR 阶段找到的每个文字区域周围画出带标签的矩形框。" },
	{ "image-element-detect", NULL, "找出附图中的元素（按钮、文字、图片、图标）及其位置框；找到时，再把它们画出来。" },
	{ "image-element-detect", "detect", "检测附图中的元素，给出类型、描述和位置框（检测 JSON）。" },
	{ "image-element-detect", "annotate", "在检测阶段找到的每个元素周围画出带标签的矩形框。" },
	{ "code-review-and-fix", NULL, "审查附带的文件；发现问题时，同时修复并编写测试，最后为读者总结。" },
	{ "code-review-and-fix", "review", "审查附带的源文件，列出每个问题的文件、行号、规则和严重程度。" },
	{ "code-review-and-fix", "fix", "修复审查发现的问题，写出修改后的文件。" },
	{ "code-review-and-fix", "tests", "为审查发现的问题编写测试。" },
	{ "code-review-and-fix", "summary", "为读者总结审查、修复和测试的结果。" },
};

static const char *const orch_w_element[] = { "element", "button", "icon", "widget", "detect",
	"control", "元素", "按钮", "图标", "检测", "控件", "组件", NULL };
static const char *const orch_w_text[] = { "ocr", "text", "words", "read", "transcribe",
	"extract", "what does it say", "caption", "文字", "文本", "识别", "提取", "读出", "写了什么",
	"写的什么", "字幕", "抄下", NULL };
static const char *const orch_w_picture[] = { "screenshot", "picture", "image", "photo",
	"截图", "图片", "照片", "图像", "附图", "这张图", NULL };
static const char *const orch_w_deictic[] = { "this ", "the attached", "attached", "below",
	"这张", "这个截图", "附件", "附图", "下面", NULL };
static const char *const orch_w_code[] = { "review", "bug", "code review", "refactor", "审查",
	"评审", "代码审查", "重构", "修复", "fix", NULL };
/* What a crash or a stack trace looks like, in a task or a log file. */
static const char *const orch_w_crash[] = { "Traceback (most recent call last)",
	"Segmentation fault", "SIGSEGV", "SIGABRT", "SIGBUS", "core dumped", "AddressSanitizer",
	"panic:", "Exception in thread", "Unhandled exception", "Uncaught ", "Fatal error",
	"FATAL EXCEPTION", "stack trace", "stacktrace", "\n    at ", "\n\tat ", "#0 0x", "#1 0x",
	"NullPointerException", "double free", "heap-use-after-free", "Aborted", "crash",
	"Error:", "Exception:", "panicked at", "terminate called", "Access violation",
	"UnhandledPromiseRejection", "段错误", "崩溃", "闪退", "堆栈", "调用栈", "崩了", NULL };

/* Whether text holds one of words anywhere ("TypeError:" holds "Error:"). */
static int orch_text_holds(const char *text, const char *const *words)
{
	for (size_t i = 0; words[i]; i++)
		if (strcasestr(text, words[i]))
			return 1;
	return 0;
}

static const char *orch_rsay(const char *lang, const char *id)
{
	for (size_t i = 0; i < sizeof orch_rules_words / sizeof orch_rules_words[0]; i++)
		if (strcmp(orch_rules_words[i].id, id) == 0)
			return strcmp(lang, "en") == 0 ? orch_rules_words[i].en : orch_rules_words[i].zh;
	return id;
}

static char *orch_rsayf(const char *lang, const char *id, const char *a, const char *b)
{
	char *out = NULL;

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (asprintf(&out, orch_rsay(lang, id), a, b ? b : "") < 0)
		out = NULL;
#pragma GCC diagnostic pop
	return out ? out : xstrdup("");
}

static const char *orch_tpl_word(const char *tpl, const char *step)
{
	for (size_t i = 0; i < sizeof orch_tpl_zh / sizeof orch_tpl_zh[0]; i++)
		if (strcmp(orch_tpl_zh[i].tpl, tpl) == 0 &&
		    (step ? orch_tpl_zh[i].step && strcmp(orch_tpl_zh[i].step, step) == 0
			  : orch_tpl_zh[i].step == NULL))
			return orch_tpl_zh[i].zh;
	return NULL;
}

json_t *orch_plan_template(const json_t *tpl, const char *lang)
{
	const char *id = json_string_value(json_object_get(tpl, "id")) ?: "";
	const char *an = strcmp(lang, "en") ? orch_tpl_word(id, NULL) : NULL;
	json_t *subtasks = json_deep_copy(json_object_get(tpl, "subtasks")), *s, *plan;
	size_t i;

	json_array_foreach(subtasks, i, s) {
		const char *zh = strcmp(lang, "en") ? orch_tpl_word(id, json_string_value(
						json_object_get(s, "id")) ?: "") : NULL;

		if (zh)
			json_object_set_new(s, "description", json_string(zh));
	}
	plan = json_pack("{s:s?, s:o, s:O, s:s}", "analysis", an, "subtasks", subtasks,
			 "executionOrder", json_object_get(tpl, "executionOrder"), "template", id);
	if (an == NULL)
		json_object_set(plan, "analysis", json_object_get(tpl, "description"));
	orch_plan_complexity(plan);
	return plan;
}

int orch_plan_needs_image(const json_t *plan)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(plan, "subtasks"), i, s)
		if (strncmp(json_string_value(json_object_get(s, "agent")) ?: "", "vision-", 7) == 0)
			return 1;
	return 0;
}

/* ---- what the task brings ---- */

static int orch_is_code(const json_t *a)
{
	static const char *const ext[] = { ".c", ".h", ".js", ".mjs", ".cjs", ".ts", ".py", ".cc",
		".cpp", ".java", ".go", ".rs", NULL };
	const char *p = json_string_value(json_object_get(a, "path")) ?: "";
	const char *m = json_string_value(json_object_get(a, "mimeType")) ?: "";
	const char *dot = strrchr(p, '.');

	for (size_t i = 0; dot && ext[i]; i++)
		if (strcmp(dot, ext[i]) == 0)
			return 1;
	return strstr(m, "x-c") || strstr(m, "python") || strstr(m, "javascript") ||
	       strstr(m, "typescript") || strstr(m, "x-java");
}

struct orch_kinds {
	int image, code, crash, other;
};

/* The task without its code blocks (``` ... ```): a source's error
 * strings are not a crash. Caller frees. */
static char *orch_outside_code(const char *task)
{
	char *out = xstrdup(task), *p = out, *close;

	while ((p = strstr(p, "```")) != NULL) {
		close = strstr(p + 3, "```");
		if (close == NULL)
			close = p + strlen(p) - 3;
		memset(p, ' ', (size_t)(close + 3 - p));
		p = close + 3;
	}
	return out;
}

static void orch_kinds_of(const json_t *facts, const char *task, struct orch_kinds *k)
{
	size_t i;
	json_t *a;
	char *prose;

	memset(k, 0, sizeof *k);
	json_array_foreach(json_object_get(facts, "attachments"), i, a) {
		const char *m = json_string_value(json_object_get(a, "mimeType")) ?: "";
		const char *head = json_string_value(json_object_get(a, "head"));

		if (strncmp(m, "image/", 6) == 0)
			k->image = 1;
		else if (orch_is_code(a))
			k->code = 1;
		else
			k->other = 1;
		if (head && !orch_is_code(a) && orch_text_holds(head, orch_w_crash))
			k->crash = 1;   /* a log, not a source that prints errors */
	}
	prose = orch_outside_code(task);
	k->crash |= orch_text_holds(prose, orch_w_crash);
	free(prose);
	k->code |= strstr(task, "```") != NULL;   /* code pasted in a block */
}

/* ---- plans ---- */

static json_t *orch_plan_empty(void)
{
	return json_pack("{s:[], s:[]}", "subtasks", "executionOrder");
}

static const struct orch_role *orch_role(const char *agent)
{
	return orch_role_of(agent);
}

/* The first words of the task, cut on a character: caller frees. */
static char *orch_task_head(const char *task)
{
	size_t n = strcspn(task, "\n");

	if (n > 160) {
		n = 160;
		while (n > 0 && ((unsigned char)task[n] & 0xc0) == 0x80)
			n--;
		return xasprintf("%.*s…", (int)n, task);
	}
	return xstrndup(task, n);
}

/* The names of the plan's steps but the coordinator, joined. Caller frees. */
static char *orch_plan_roles_named(const json_t *plan, const char *lang)
{
	char *out = xstrdup(""), *next;
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(plan, "subtasks"), i, s) {
		const struct orch_role *r = orch_role(json_string_value(json_object_get(s, "agent")));

		if (!r || r->rank == ORCH_MERGE)
			continue;
		next = xasprintf("%s%s%s", out, *out ? orch_rsay(lang, "sep") : "",
				 strcmp(lang, "en") == 0 ? r->name_en : r->name_zh);
		free(out);
		out = next;
	}
	return out;
}

static void orch_plan_finish(json_t *plan, const char *lang, const char *an_id)
{
	char *outline, *names, *an;

	orch_plan_order(plan, lang);
	orch_plan_complexity(plan);
	outline = orch_plan_outline(plan, lang);
	names = orch_plan_roles_named(plan, lang);
	an = strcmp(an_id, "an_generic") == 0 ? orch_rsayf(lang, an_id, names, outline)
					      : orch_rsayf(lang, an_id, outline, NULL);
	json_object_set_new(plan, "analysis", json_string(an));
	free(an);
	free(names);
	free(outline);
}

static void orch_plan_set_desc(json_t *plan, const char *id, const char *desc)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(plan, "subtasks"), i, s)
		if (strcmp(json_string_value(json_object_get(s, "id")) ?: "", id) == 0)
			json_object_set_new(s, "description", json_string(desc));
}

/* The steps the task's words name (not the coordinator, nor vision ones),
 * then the coordinator when any was named. */
static size_t orch_plan_named(json_t *plan, const char *task, const char *lang,
			      const char *const *skip)
{
	size_t n = 0;
	const struct orch_role *r;

	for (size_t i = 0; (r = orch_role_at(i)) != NULL; i++) {
		int skipped = r->rank == ORCH_MERGE || strncmp(r->agent, "vision-", 7) == 0;

		for (size_t k = 0; skip && skip[k]; k++)
			skipped |= strcmp(skip[k], r->agent) == 0;
		if (!skipped && orch_role_named(r, task, NULL)) {
			orch_plan_add_role(plan, r, lang);
			n++;
		}
	}
	return n;
}

static int orch_plan_has_maker(const json_t *plan)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(plan, "subtasks"), i, s) {
		const struct orch_role *r = orch_role(json_string_value(json_object_get(s, "agent")));

		if (r && r->rank < ORCH_DOCS)
			return 1;
	}
	return 0;
}

static json_t *orch_plan_answer_alone(const char *task, const char *lang)
{
	json_t *plan = orch_plan_empty();
	char *head = orch_task_head(task), *d = orch_rsayf(lang, "answer_desc", head, NULL);
	const char *id = orch_plan_add_role(plan, orch_role("coordinator"), lang);

	orch_plan_set_desc(plan, id, d);
	orch_plan_order(plan, lang);
	orch_plan_complexity(plan);
	json_object_set_new(plan, "analysis", json_string(orch_rsay(lang, "an_none")));
	free(d);
	free(head);
	return plan;
}

static json_t *orch_plan_crash(const char *task, const struct orch_kinds *k, const char *lang)
{
	static const char *const skip[] = { "debugger", "code-reviewer", "coder", NULL };
	json_t *plan = orch_plan_empty();
	const char *id = orch_plan_add_role(plan, orch_role("debugger"), lang);

	orch_plan_set_desc(plan, id, orch_rsay(lang, "crash_desc"));
	if (k->code) {
		orch_plan_add_role(plan, orch_role("code-reviewer"), lang);
		if (orch_role_named(orch_role("coder"), task, NULL))
			orch_plan_add_role(plan, orch_role("coder"), lang);
	}
	orch_plan_named(plan, task, lang, skip);
	orch_plan_add_role(plan, orch_role("coordinator"), lang);
	orch_plan_finish(plan, lang, "an_crash");
	return plan;
}

static json_t *orch_plan_look(const char *lang)
{
	json_t *plan = orch_plan_empty();
	const char *id = orch_plan_add_role(plan, orch_role("vision-analyzer"), lang);

	orch_plan_set_desc(plan, id, orch_rsay(lang, "look_desc"));
	orch_plan_add_role(plan, orch_role("coordinator"), lang);
	orch_plan_finish(plan, lang, "an_vision");
	return plan;
}

static json_t *orch_plan_from(const json_t *facts, const char *id, const char *lang)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(facts, "templates"), i, t)
		if (strcmp(json_string_value(json_object_get(t, "id")) ?: "", id) == 0)
			return orch_plan_template(t, lang);
	return NULL;
}

/* A template's plan with the readers the task's words also name
 * (documentation, evaluation) after what they read. */
static json_t *orch_plan_template_for(const json_t *facts, const char *id, const char *task,
				      const char *lang)
{
	static const char *const extras[] = { "documenter", "evaluator" };
	json_t *plan = orch_plan_from(facts, id, lang);
	char *names = xstrdup(""), *next;

	for (size_t i = 0; plan && i < 2; i++) {
		const struct orch_role *r = orch_role(extras[i]);
		size_t k;
		json_t *s;
		int there = 0;

		json_array_foreach(json_object_get(plan, "subtasks"), k, s)
			there |= strcmp(json_string_value(json_object_get(s, "agent")) ?: "", r->agent) == 0;
		if (there || !orch_role_named(r, task, NULL))
			continue;
		orch_plan_add_role(plan, r, lang);
		next = xasprintf("%s%s%s", names, *names ? orch_rsay(lang, "sep") : "",
				 strcmp(lang, "en") == 0 ? r->name_en : r->name_zh);
		free(names);
		names = next;
	}
	if (plan && *names) {
		char *an = orch_rsayf(lang, "an_extra", json_string_value(json_object_get(plan, "analysis")),
				      names);

		orch_plan_order(plan, lang);
		orch_plan_complexity(plan);
		json_object_set_new(plan, "analysis", json_string(an));
		json_object_del(plan, "template");
		free(an);
	}
	free(names);
	return plan;
}

/* A plan about a picture: its text, its elements, or another question. */
static json_t *orch_plan_picture(const json_t *facts, const char *task, const char *lang)
{
	if (orch_text_has(task, orch_w_element, NULL))
		return orch_plan_template_for(facts, "image-element-detect", task, lang);
	if (orch_text_has(task, orch_w_text, NULL))
		return orch_plan_template_for(facts, "image-ocr-annotate", task, lang);
	return orch_plan_look(lang);
}

/* Words about a picture the task does not bring: the plan is about a
 * picture all the same, and the plan's check refuses it for want of one. */
static int orch_about_picture(const char *task)
{
	return orch_text_has(task, orch_w_picture, NULL) &&
	       (orch_text_has(task, orch_w_text, NULL) || orch_text_has(task, orch_w_element, NULL) ||
		orch_text_has(task, orch_w_deictic, NULL));
}

json_t *orch_plan_rules(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *task = json_string_value(json_object_get(facts, "task")) ?: text ?: "";
	const char *fb = json_string_value(json_object_get(facts, "feedback"));
	const json_t *prev = json_object_get(facts, "plan");
	const char *lang = orch_plan_lang(facts);
	struct orch_kinds k;
	json_t *plan = NULL;

	(void)err;
	(void)errlen;
	if (fb && *fb && json_is_object(prev))
		return orch_plan_feedback(prev, fb, lang);
	orch_kinds_of(facts, task, &k);
	if (k.image || orch_about_picture(task))
		plan = orch_plan_picture(facts, task, lang);
	else if (k.crash)
		plan = orch_plan_crash(task, &k, lang);
	else if (k.code || orch_text_has(task, orch_w_code, NULL))
		plan = orch_plan_template_for(facts, "code-review-and-fix", task, lang);
	if (plan)
		return plan;
	plan = orch_plan_empty();
	/* Only readers named (document, evaluate) and nothing for them to
	 * read: no agent works on it either. */
	if (orch_plan_named(plan, task, lang, NULL) == 0 || !orch_plan_has_maker(plan)) {
		json_decref(plan);
		return orch_plan_answer_alone(task, lang);
	}
	orch_plan_add_role(plan, orch_role("coordinator"), lang);
	orch_plan_finish(plan, lang, "an_generic");
	return plan;
}
