/* The offline planner's roles and its edits of a plan: which agent a
 * word names, which stages each agent reads (so the documenter and the
 * evaluator run after what they read, and the coordinator merges what it
 * names), the order of the groups from the steps' inputs, and a rejected
 * plan's feedback applied (a step added, removed or replaced) or declined
 * by name. */
#include "config.h"
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text/msg.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch.h"
#include "wf/orchestrate/orch_plan_int.h"

static const struct orch_role orch_roles[] = {
	{ "architect", "design", ORCH_MAKER,
	  "Design the structure of the change: modules, interfaces and the order of the work",
	  "设计改动的结构：模块、接口和工作顺序", "design", "架构设计",
	  { "design", "architect", "structure", "设计", "架构", NULL } },
	{ "debugger", "debug", ORCH_MAKER,
	  "Find the cause of the failure from its symptoms, logs and stack trace",
	  "根据现象、日志和调用栈找出故障的原因", "debugging", "调试",
	  { "debug", "crash", "stack trace", "traceback", "segfault", "exception", "error",
	    "调试", "报错", "崩溃", "闪退", "排查", "故障", NULL } },
	{ "code-reviewer", "review", ORCH_MAKER,
	  "Review the code for defects, with file, line and rule for every finding",
	  "审查代码缺陷，每个问题给出文件、行号和规则", "code review", "代码审查",
	  { "review", "audit", "审查", "评审", "走查", NULL } },
	{ "vision-analyzer", "look", ORCH_MAKER,
	  "Read the attached picture: its text, or its elements with their boxes",
	  "读取附图：其中的文字，或元素及其位置框", "picture analysis", "图片分析",
	  { "ocr", "recognis", "recogniz", "识别", NULL } },
	{ "vision-processor", "prepare", ORCH_MAKER,
	  "Prepare the attached picture for the later stages: regions and crops",
	  "为后续阶段处理附图：区域和裁剪", "picture preparation", "图片预处理", { NULL } },
	{ "coder", "code", ORCH_FIXER, "Write or fix the code and save the changed files",
	  "编写或修复代码，并保存修改后的文件", "coding", "编码",
	  { "coder", "coding", "write code", "implement", "fix", "refactor", "实现", "编码", "写代码",
	    "修复", "重构", "改代码", NULL } },
	{ "vision-annotator", "annotate", ORCH_FIXER,
	  "Draw the boxes and labels of the analysis onto the picture",
	  "把分析得到的框和标签画到图片上", "annotation", "标注",
	  { "annotat", "draw box", "标注", "画框", NULL } },
	{ "test-writer", "tests", ORCH_TESTER, "Write tests for the code and the findings",
	  "为代码和发现的问题编写测试", "tests", "测试", { "test", "测试", "用例", NULL } },
	{ "documenter", "docs", ORCH_DOCS,
	  "Write the documentation of the results: what changed, why, and how to check it",
	  "为结果编写文档：改了什么、为什么、如何验证", "documentation", "文档",
	  { "document", "docs", "readme", "write-up", "summar", "文档", "说明", "总结", "摘要", NULL } },
	{ "evaluator", "evaluate", ORCH_JUDGE,
	  "Evaluate the results against the task and list what is missing",
	  "对照任务评估各步骤的结果，列出缺少的部分", "evaluation", "评估",
	  { "evaluat", "assess", "quality", "评估", "评价", "打分", "质量", NULL } },
	{ "coordinator", "merge", ORCH_MERGE, "Merge the outputs into one answer to the task",
	  "把各步骤的输出合并成对任务的一个回答", "merging", "汇总",
	  { "merge", "coordinat", "combine", "汇总", "合并", "整合", NULL } },
};

#define ORCH_NROLES (sizeof orch_roles / sizeof orch_roles[0])

static const struct { const char *id, *zh, *en; } orch_plan_words[] = {
	{ "merge_desc", "把 %s 的输出合并成对任务的一个回答", "Merge the outputs of %s into one answer to the task" },
	{ "docs_desc", "为读者总结 %s 的结果：做了什么、为什么、如何验证", "Sum up the results of %s for people: what was done, why, and how to check it" },
	{ "eval_desc", "对照任务评估 %s 的结果，列出缺少的部分", "Evaluate the results of %s against the task and list what is missing" },
	{ "fb_added", "加入了%s", "added %s" },
	{ "fb_removed", "去掉了%s", "removed %s" },
	{ "fb_replaced", "把%s换成了%s", "replaced %s with %s" },
	{ "fb_serial", "改为逐个执行", "made the steps run one after another" },
	{ "fb_done", "已按你的反馈（“%s”）修改计划：%s。现在的顺序：%s。", "Changed after your feedback (\"%s\"): %s. The order now: %s." },
	{ "fb_declined", "你的反馈（“%s”）没有被采纳：%s计划不变，步骤仍是：%s。", "Your feedback (\"%s\") was not applied: %sthe plan is unchanged; its steps are still: %s." },
	{ "fb_partly", "%s没有采纳：“%s”（没有说要加入、去掉或替换哪个步骤）。", " %sNot applied: \"%s\" (it names no step to add, remove or replace)." },
	{ "fb_unclear", "其中没有说要加入、去掉或替换哪个步骤（可用的步骤有：设计、调试、审查、编码、测试、文档、评估、汇总）；", "it names no step to add, remove or replace (the steps I know: design, debugging, review, coding, tests, documentation, evaluation, merging); " },
	{ "fb_absent", "计划中没有%s；", "the plan has no %s step; " },
	{ "fb_present", "%s已在计划中；", "%s is already in the plan; " },
	{ "fb_last", "不能去掉唯一的步骤%s；", "%s is the only step and cannot be removed; " },
	{ "sep", "、", ", " },
	{ "and", "和", " and " },
	{ "then", " → ", " → " },
};

const struct orch_role *orch_role_of(const char *agent)
{
	for (size_t i = 0; agent && i < ORCH_NROLES; i++)
		if (strcmp(orch_roles[i].agent, agent) == 0)
			return &orch_roles[i];
	return NULL;
}

const struct orch_role *orch_role_at(size_t i)
{
	return i < ORCH_NROLES ? &orch_roles[i] : NULL;
}

static int orch_word_start(const char *text, const char *p)
{
	return p == text || !isalnum((unsigned char)p[-1]);
}

int orch_text_has(const char *text, const char *const *words, size_t *at)
{
	for (size_t i = 0; words[i]; i++) {
		int latin = (unsigned char)words[i][0] < 0x80;

		for (const char *p = strcasestr(text, words[i]); p; p = strcasestr(p + 1, words[i]))
			if (!latin || orch_word_start(text, p)) {
				if (at)
					*at = (size_t)(p - text);
				return 1;
			}
	}
	return 0;
}

int orch_role_named(const struct orch_role *r, const char *text, size_t *at)
{
	return orch_text_has(text, r->words, at);
}

const char *orch_plan_lang(const json_t *facts)
{
	const char *l = json_string_value(json_object_get(facts, "lang"));

	return l && strcmp(l, "en") == 0 ? "en" : "zh";
}

const char *orch_plan_say(const char *lang, const char *id)
{
	for (size_t i = 0; i < sizeof orch_plan_words / sizeof orch_plan_words[0]; i++)
		if (strcmp(orch_plan_words[i].id, id) == 0)
			return strcmp(lang, "en") == 0 ? orch_plan_words[i].en : orch_plan_words[i].zh;
	return id;
}

char *orch_plan_sayf(const char *lang, const char *id, ...)
{
	va_list ap;
	char *out = NULL;

	va_start(ap, id);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (vasprintf(&out, orch_plan_say(lang, id), ap) < 0)
		out = NULL;
#pragma GCC diagnostic pop
	va_end(ap);
	return out ? out : xstrdup("");
}

static const char *orch_step_agent(const json_t *s)
{
	return json_string_value(json_object_get(s, "agent")) ?: "";
}

static const char *orch_step_id(const json_t *s)
{
	return json_string_value(json_object_get(s, "id")) ?: "";
}

static enum orch_rank orch_rank_of(const json_t *s)
{
	const struct orch_role *r = orch_role_of(orch_step_agent(s));

	return r ? r->rank : ORCH_MAKER;
}

/* Whether a step of role reader reads a step of agent src (role srcr). */
static int orch_reads(const struct orch_role *reader, const char *src, enum orch_rank srcr)
{
	int vision = strncmp(src, "vision-", 7) == 0;

	switch (reader->rank) {
	case ORCH_MAKER:
		return 0;
	case ORCH_FIXER:
		return srcr == ORCH_MAKER &&
		       vision == (strncmp(reader->agent, "vision-", 7) == 0);
	case ORCH_TESTER:
		return strcmp(src, "coder") == 0 || strcmp(src, "code-reviewer") == 0 ||
		       strcmp(src, "debugger") == 0;
	default:
		return srcr < reader->rank;
	}
}

json_t *orch_plan_step_new(const json_t *plan, const struct orch_role *r, json_t *inputs,
			   const char *lang)
{
	char id[64];
	size_t i, n = 1;
	json_t *s;
	int taken;

	snprintf(id, sizeof id, "%s", r->id);
	do {
		taken = 0;
		json_array_foreach(json_object_get(plan, "subtasks"), i, s)
			taken |= strcmp(orch_step_id(s), id) == 0;
		if (taken)
			snprintf(id, sizeof id, "%s-%zu", r->id, ++n);
	} while (taken);
	return json_pack("{s:s, s:s, s:s, s:o, s:i}", "id", id, "description",
			 strcmp(lang, "en") == 0 ? r->en : r->zh, "agent", r->agent, "inputs", inputs,
			 "priority", (int)r->rank);
}

static int orch_has_input(const json_t *s, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(s, "inputs"), i, v)
		if (strcmp(json_string_value(v) ?: "", id) == 0)
			return 1;
	return 0;
}

const char *orch_plan_add_role(json_t *plan, const struct orch_role *r, const char *lang)
{
	json_t *subtasks = json_object_get(plan, "subtasks"), *inputs = json_array(), *s, *step;
	size_t i;

	json_array_foreach(subtasks, i, s)
		if (orch_reads(r, orch_step_agent(s), orch_rank_of(s)))
			json_array_append_new(inputs, json_string(orch_step_id(s)));
	step = orch_plan_step_new(plan, r, inputs, lang);
	json_array_foreach(subtasks, i, s) {
		const struct orch_role *sr = orch_role_of(orch_step_agent(s));

		if (sr && orch_reads(sr, r->agent, r->rank) && !orch_has_input(s, orch_step_id(step))) {
			if (!json_is_array(json_object_get(s, "inputs")))
				json_object_set_new(s, "inputs", json_array());
			json_array_append_new(json_object_get(s, "inputs"),
					      json_string(orch_step_id(step)));
		}
	}
	json_array_append_new(subtasks, step);
	return orch_step_id(step);
}

void orch_plan_remove(json_t *plan, const char *id)
{
	json_t *subtasks = json_object_get(plan, "subtasks"), *s, *in;
	char *gone = xstrdup(id);
	size_t i, k;

	for (i = json_array_size(subtasks); i-- > 0;) {
		s = json_array_get(subtasks, i);
		if (strcmp(orch_step_id(s), gone) == 0) {
			json_array_remove(subtasks, i);
			continue;
		}
		in = json_object_get(s, "inputs");
		for (k = json_array_size(in); k-- > 0;)
			if (strcmp(json_string_value(json_array_get(in, k)) ?: "", gone) == 0)
				json_array_remove(in, k);
		if (strcmp(json_string_value(json_object_get(json_object_get(s, "condition"), "input")) ?: "",
			   gone) == 0)
			json_object_del(s, "condition");
	}
	free(gone);
}

/* The level of each step (0: no inputs), by index; -1 where an input is
 * not a step. */
static void orch_plan_levels(const json_t *subtasks, int *level, size_t n)
{
	size_t i, k, j, round;
	json_t *s, *in;

	for (i = 0; i < n; i++)
		level[i] = 0;
	for (round = 0; round < n; round++)
		json_array_foreach(subtasks, i, s)
			json_array_foreach(json_object_get(s, "inputs"), k, in)
				for (j = 0; j < n; j++)
					if (j != i && strcmp(orch_step_id(json_array_get(subtasks, j)),
							     json_string_value(in) ?: "") == 0 &&
					    level[j] + 1 > level[i])
						level[i] = level[j] + 1 < (int)n ? level[j] + 1 : (int)n;
}

/* A reader's description names the outputs it reads: the coordinator
 * merges them, the documenter sums them up, the evaluator judges them. */
static void orch_plan_merge_words(json_t *s, const char *lang)
{
	static const struct { const char *agent, *words; } readers[] = {
		{ "coordinator", "merge_desc" }, { "documenter", "docs_desc" }, { "evaluator", "eval_desc" },
	};
	const char *id = NULL;
	struct buf b;
	size_t i;
	json_t *in;
	char *d;

	for (i = 0; i < sizeof readers / sizeof readers[0]; i++)
		if (strcmp(orch_step_agent(s), readers[i].agent) == 0)
			id = readers[i].words;
	if (id == NULL || json_array_size(json_object_get(s, "inputs")) == 0)
		return;
	buf_init(&b, 4096);
	json_array_foreach(json_object_get(s, "inputs"), i, in)
		buf_printf(&b, "%s%s", i == 0 ? "" : i + 1 == json_array_size(json_object_get(s, "inputs"))
			   ? orch_plan_say(lang, "and") : orch_plan_say(lang, "sep"), json_string_value(in) ?: "");
	d = orch_plan_sayf(lang, id, b.data);
	json_object_set_new(s, "description", json_string(d));
	free(d);
	buf_free(&b);
}

void orch_plan_order(json_t *plan, const char *lang)
{
	json_t *subtasks = json_object_get(plan, "subtasks"), *order = json_array(), *s, *sorted;
	size_t n = json_array_size(subtasks), i;
	int *level = xcalloc(n ? n : 1, sizeof *level), top = -1;

	orch_plan_levels(subtasks, level, n);
	/* The steps listed in the order they run. */
	for (i = 0; i < n; i++)
		top = level[i] > top ? level[i] : top;
	sorted = json_array();
	for (int l = 0; l <= top; l++)
		json_array_foreach(subtasks, i, s)
			if (level[i] == l)
				json_array_append(sorted, s);
	json_array_foreach(subtasks, i, s)
		if (level[i] < 0 || level[i] > top)
			json_array_append(sorted, s);
	json_object_set_new(plan, "subtasks", sorted);
	subtasks = sorted;
	orch_plan_levels(subtasks, level, n);
	top = -1;
	for (i = 0; i < n; i++)
		top = level[i] > top ? level[i] : top;
	for (int l = 0; l <= top; l++) {
		json_t *grp = json_array();

		json_array_foreach(subtasks, i, s)
			if (level[i] == l) {
				json_array_append_new(grp, json_string(orch_step_id(s)));
				json_object_set_new(s, "priority", json_integer(l + 1));
				orch_plan_merge_words(s, lang);
			}
		if (json_array_size(grp))
			json_array_append(order, grp);
		json_decref(grp);
	}
	json_object_set_new(plan, "executionOrder", order);
	free(level);
}

void orch_plan_complexity(json_t *plan)
{
	size_t n = json_array_size(json_object_get(plan, "subtasks"));

	json_object_set_new(plan, "estimatedComplexity",
			    json_string(n > 6 ? "high" : n > 3 ? "medium" : "low"));
}

char *orch_plan_outline(const json_t *plan, const char *lang)
{
	struct buf b;
	size_t g, k;
	json_t *grp, *v;

	buf_init(&b, 1 << 16);
	json_array_foreach(json_object_get(plan, "executionOrder"), g, grp) {
		buf_adds(&b, g ? orch_plan_say(lang, "then") : "");
		json_array_foreach(grp, k, v)
			buf_printf(&b, "%s%s", k ? orch_plan_say(lang, "sep") : "", json_string_value(v) ?: "?");
	}
	return buf_steal(&b);
}

/* ---- feedback ---- */

static const char *const orch_fb_remove[] = { "remove", "drop", "delete", "skip", "without",
	"no ", "don't", "do not", "not need", "unnecessary", "omit", "leave out", "去掉", "删除",
	"删掉", "不要", "不用", "不需要", "取消", "省略", "省掉", "别加", "别写", "别做", "无需", "去除", "拿掉", NULL };
static const char *const orch_fb_replace[] = { "instead", "replace", "rather than", "swap",
	"换成", "改成", "改为", "代替", "替换", "换为", "替代", NULL };
static const char *const orch_fb_serial[] = { "one by one", "one after another", "sequential",
	"in sequence", "依次", "逐个", "串行", "按顺序", "一个一个", NULL };

struct orch_fb {
	json_t *plan;
	const char *lang;
	struct buf done, notes, unapplied;
	int changed;
};

static const char *orch_role_name(const struct orch_role *r, const char *lang)
{
	return strcmp(lang, "en") == 0 ? r->name_en : r->name_zh;
}

/* "tests (tests)", "tests（测试）": a step's id and what people call it. */
static void orch_fb_label(char *out, size_t len, const char *id, const struct orch_role *r,
			  const char *lang)
{
	snprintf(out, len, strcmp(lang, "en") == 0 ? "%s (%s)" : "%s（%s）", id,
		 orch_role_name(r, lang));
}

/* The first step of agent in the plan, or NULL. */
static const json_t *orch_fb_step(const json_t *plan, const char *agent)
{
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(plan, "subtasks"), i, s)
		if (strcmp(orch_step_agent(s), agent) == 0)
			return s;
	return NULL;
}

static void orch_fb_did(struct orch_fb *f, char *what)
{
	buf_printf(&f->done, "%s%s", f->done.len ? orch_plan_say(f->lang, "sep") : "", what);
	free(what);
	f->changed = 1;
}

static void orch_fb_note(struct orch_fb *f, const char *id, const struct orch_role *r)
{
	char *w = orch_plan_sayf(f->lang, id, orch_role_name(r, f->lang));

	buf_adds(&f->notes, w);
	free(w);
}

static void orch_fb_remove_role(struct orch_fb *f, const struct orch_role *r)
{
	const json_t *s;
	char label[160];

	if (!orch_fb_step(f->plan, r->agent)) {
		orch_fb_note(f, "fb_absent", r);
		return;
	}
	while ((s = orch_fb_step(f->plan, r->agent)) != NULL) {
		if (json_array_size(json_object_get(f->plan, "subtasks")) == 1) {
			orch_fb_note(f, "fb_last", r);
			return;
		}
		orch_fb_label(label, sizeof label, orch_step_id(s), r, f->lang);
		orch_plan_remove(f->plan, orch_step_id(s));
		orch_fb_did(f, orch_plan_sayf(f->lang, "fb_removed", label));
	}
}

static void orch_fb_add_role(struct orch_fb *f, const struct orch_role *r)
{
	char label[160];
	const char *id;

	if (orch_fb_step(f->plan, r->agent)) {
		orch_fb_note(f, "fb_present", r);
		return;
	}
	id = orch_plan_add_role(f->plan, r, f->lang);
	orch_fb_label(label, sizeof label, id, r, f->lang);
	orch_fb_did(f, orch_plan_sayf(f->lang, "fb_added", label));
}

/* The roles a clause names, in the order it names them; their number. */
static size_t orch_fb_roles(const char *clause, const struct orch_role **out, size_t max)
{
	size_t n = 0, at[ORCH_NROLES];

	for (size_t i = 0; i < ORCH_NROLES && n < max; i++) {
		size_t pos;

		if (!orch_role_named(&orch_roles[i], clause, &pos))
			continue;
		size_t k = n++;

		while (k > 0 && at[k - 1] > pos) {
			out[k] = out[k - 1];
			at[k] = at[k - 1];
			k--;
		}
		out[k] = &orch_roles[i];
		at[k] = pos;
	}
	return n;
}

static void orch_fb_clause(struct orch_fb *f, const char *clause)
{
	const struct orch_role *named[ORCH_NROLES];
	size_t n = orch_fb_roles(clause, named, ORCH_NROLES);

	if (n == 0) {
		/* Words that name no step: said back as not applied. */
		if (clause[strspn(clause, " \t")] && !orch_text_has(clause, orch_fb_serial, NULL))
			buf_printf(&f->unapplied, "%s%s", f->unapplied.len ? orch_plan_say(f->lang, "sep") : "",
				   clause + strspn(clause, " \t"));
		return;
	}
	if (n == 2 && orch_text_has(clause, orch_fb_replace, NULL) &&
	    (orch_fb_step(f->plan, named[0]->agent) != NULL) != (orch_fb_step(f->plan, named[1]->agent) != NULL)) {
		const struct orch_role *old = orch_fb_step(f->plan, named[0]->agent) ? named[0] : named[1];
		const struct orch_role *new = old == named[0] ? named[1] : named[0];
		char *w = orch_plan_sayf(f->lang, "fb_replaced", orch_role_name(old, f->lang),
					 orch_role_name(new, f->lang));

		orch_plan_remove(f->plan, orch_step_id(orch_fb_step(f->plan, old->agent)));
		orch_plan_add_role(f->plan, new, f->lang);
		orch_fb_did(f, w);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (orch_text_has(clause, orch_fb_remove, NULL))
			orch_fb_remove_role(f, named[i]);
		else
			orch_fb_add_role(f, named[i]);
}

/* The feedback cut into clauses at punctuation and joining words. */
static json_t *orch_fb_clauses(const char *fb)
{
	static const char *const cuts[] = { "，", "。", "；", "！", "？", "、", ",", ";", ".", "!",
		"?", "\n", " and ", " then ", " but ", "然后", "并且", "另外", "同时", "但是", "但", NULL };
	json_t *out = json_array();
	const char *p = fb;

	while (*p) {
		const char *best = NULL;
		size_t blen = 0;

		for (size_t i = 0; cuts[i]; i++) {
			const char *c = strcasestr(p, cuts[i]);

			if (c && (!best || c < best))
				best = c, blen = strlen(cuts[i]);
		}
		if (!best) {
			json_array_append_new(out, json_string(p));
			break;
		}
		if (best > p) {
			char *one = xstrndup(p, (size_t)(best - p));

			json_array_append_new(out, json_string(one));
			free(one);
		}
		p = best + blen;
	}
	return out;
}

/* The feedback as quoted back: at most about 120 bytes, cut on a
 * character. Caller frees. */
static char *orch_fb_quote(const char *fb)
{
	size_t n = strlen(fb);

	if (n <= 120)
		return xstrdup(fb);
	n = 120;
	while (n > 0 && ((unsigned char)fb[n] & 0xc0) == 0x80)
		n--;
	return xasprintf("%.*s…", (int)n, fb);
}

json_t *orch_plan_feedback(const json_t *prev, const char *feedback, const char *lang)
{
	struct orch_fb f = { .plan = json_deep_copy(prev), .lang = lang };
	json_t *clauses = orch_fb_clauses(feedback ? feedback : ""), *c;
	char *outline, *quote = orch_fb_quote(feedback ? feedback : ""), *an;
	size_t i;

	buf_init(&f.done, 1 << 16);
	buf_init(&f.notes, 1 << 16);
	buf_init(&f.unapplied, 1 << 16);
	json_array_foreach(clauses, i, c)
		orch_fb_clause(&f, json_string_value(c));
	json_decref(clauses);
	if (f.changed)
		orch_plan_order(f.plan, lang);
	if (orch_text_has(feedback ? feedback : "", orch_fb_serial, NULL) &&
	    json_array_size(json_object_get(f.plan, "executionOrder")) <
		    json_array_size(json_object_get(f.plan, "subtasks"))) {
		json_t *flat = json_array(), *grp, *v;
		size_t g, k;

		json_array_foreach(json_object_get(f.plan, "executionOrder"), g, grp)
			json_array_foreach(grp, k, v)
				json_array_append_new(flat, json_pack("[O]", v));
		json_object_set_new(f.plan, "executionOrder", flat);
		orch_fb_did(&f, xstrdup(orch_plan_say(lang, "fb_serial")));
	}
	outline = orch_plan_outline(f.plan, lang);
	if (f.changed) {
		an = orch_plan_sayf(lang, "fb_done", quote, f.done.data, outline);
		if (f.unapplied.len || f.notes.len) {
			char *more = orch_plan_sayf(lang, "fb_partly", f.notes.data ? f.notes.data : "",
						    f.unapplied.len ? f.unapplied.data : "-");
			char *both = xasprintf("%s%s", an, more);

			free(an);
			free(more);
			an = both;
		}
		json_object_del(f.plan, "template");
		orch_plan_complexity(f.plan);
	} else {
		if (f.notes.len == 0)
			buf_adds(&f.notes, orch_plan_say(lang, "fb_unclear"));
		an = orch_plan_sayf(lang, "fb_declined", quote, f.notes.data, outline);
	}
	json_object_set_new(f.plan, "analysis", json_string(an));
	free(an);
	free(outline);
	free(quote);
	buf_free(&f.done);
	buf_free(&f.notes);
	buf_free(&f.unapplied);
	return f.plan;
}

void orch_plan_edited(json_t *plan, const json_t *orig, const char *lang)
{
	char *outline = orch_plan_outline(plan, lang), *an = msg_fmt(lang, "orch.plan.edited", outline);

	json_object_set_new(plan, "analysis", json_string(an));
	if (!json_equal(json_object_get(plan, "subtasks"), json_object_get(orig, "subtasks")) ||
	    !json_equal(json_object_get(plan, "executionOrder"), json_object_get(orig, "executionOrder")))
		json_object_del(plan, "template");
	orch_plan_complexity(plan);
	free(an);
	free(outline);
}
