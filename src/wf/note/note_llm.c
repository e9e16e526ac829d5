/* The note workflow's model calls. Each role has a system prompt asking
 * for a JSON object of a fixed shape; the facts go as the user message.
 * Each prompt has beside it the rules that answer the same task from the
 * same facts (note_rules*.c): they answer when no model is configured,
 * an answer that lacks a member the workflow needs is replaced by the
 * rules' answer, and a stage the supervisor put on the fallback path
 * (forceRules) asks the rules directly. A provider that fails outright is
 * a severe error (seed 001 §9): lastError, then the supervisor. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json/dump.h"
#include "conf/conf.h"
#include "prov/prov.h"
#include "text/msg.h"
#include "wf/note/note.h"
#include "wf/note/note_rules.h"

struct note_prompt {
	const char *task;
	double temperature;
	const char *system;
	prov_rules_fn rules;
};

static const struct note_prompt note_prompts[] = {
	{ "clarity", 0.1,
	  "你是小红书笔记的需求分析助手。判断用户的创作需求是否清晰：有没有具体主题，能不能看出类别和受众。"
	  "asked 里的 key 已经问过，不要再问。只返回 JSON：{\"requirementClarity\": 0 到 1, "
	  "\"hasSubject\": true/false, \"category\": 类别或 null, \"contentType\": \"travel|food|study|career|"
	  "beauty|fitness|parenting|pets|tech|home|lifestyle\", \"missing\": [\"topic\" 或 \"audience\"], "
	  "\"key\": 要问的 key 或 null, \"question\": \"追问\", \"options\": [{\"id\", \"label\"}], "
	  "\"reason\": \"理由\"}",
	  note_rules_task_clarity },
	{ "brief", 0.3,
	  "你是小红书内容策划。把用户的需求整理成结构化 brief，只返回 JSON：{\"audience\": \"受众\", "
	  "\"goal\": \"目标\", \"constraints\": [\"约束\"], \"tone\": \"语气\", \"keywords\": [\"关键词\"]}",
	  note_rules_task_brief },
	{ "note", 0.8,
	  "你是小红书文案创作专家。根据 topic、brief、evidence（同类热门标题与标签）和 feedback 写一篇笔记："
	  "标题不超过 20 字；正文 3 到 5 个小节，每节第一行是「一、小标题」，小节之间空一行；结尾一句互动；"
	  "3 到 8 个标签，不带 #。attempt 大于 1 时换一种写法。keep 里是用户自己写的段落，一字不改地保留，"
	  "只能在它们之外补充或修改；replies 是用户说过的话（如“不要提猫”），一直有效；previous 是被退回的上一稿，"
	  "refused 为 true 时要改掉 feedback 点名的地方，不能交回同样的文案。只返回 JSON：{\"title\": \"标题\", "
	  "\"body\": \"正文\", \"tags\": [\"标签\"]}",
	  note_rules_task_note },
	{ "layout", 0.3,
	  "你是小红书图文版式规划师。根据段落、版式偏好（dense/balanced/visual-first）和参考图的画幅与配色，"
	  "决定画布、配图数量、每张图服务哪个段落（paragraphId）以及图上的文字。只返回 JSON："
	  "{\"canvas\": {\"width\", \"height\", \"aspect\"}, \"imageCount\": 数字, \"layoutSpec\": [{\"imageSeq\", "
	  "\"role\": \"cover|content|summary\", \"paragraphId\", \"visualFocus\", \"textDensity\", \"blocks\": "
	  "[{\"area\": \"title|body|visual_focus|footer\", \"instruction\"}]}], \"textOverlayPlan\": [{\"imageSeq\", "
	  "\"titleText\", \"bodyText\", \"placement\": \"top|center|bottom\"}]}",
	  note_rules_task_layout },
	{ "image_plans", 0.6,
	  "你是小红书配图规划师。为 layoutSpec 的每张图写一条图片生成提示词，绑定到它服务的段落，整组图风格与配色统一；"
	  "feedback 是用户对上一版的意见，attempt 大于 1 时换一种风格；feedback 或 replies（用户之前说过的话）点名的风格"
	  "（如“换成水彩风”）替换整组图的风格。只返回 JSON：{\"imagePlans\": [{\"sequence\", "
	  "\"role\", \"paragraphId\", \"paragraphIndex\", \"description\", \"prompt\"}], \"paragraphImageBindings\": "
	  "[{\"paragraphId\", \"paragraphIndex\", \"imageSeq\"}]}",
	  note_rules_task_image_plans },
	{ "review", 0.2,
	  "你是小红书笔记质量审核员。按维度打 0 到 1 的分：infoDensity（信息密度）、readability（可读性）、"
	  "platformFit（平台契合）、textImageAlignment（图文对应）、styleConsistency（配图风格统一）、"
	  "imageCompleteness（配图是否齐全）。偏离 topic、仍写着 feedback 要求删去的内容、段落重复的笔记，"
	  "infoDensity 或 readability 给 0.3 以下。只返回 JSON：{\"approved\": true/false, \"scores\": {...}, "
	  "\"overall\": 0 到 1, \"failReasons\": [\"原因\"], \"suggestions\": [\"建议\"], \"feedback\": \"总评\"}",
	  note_rules_task_review },
	{ "templates", 0.1,
	  "你是小红书内容策划。为 topic 推荐笔记模板（笔记的类型：受众、语气、各小节标题），最合适的排在前面，"
	  "score 为 0 到 1 的合适程度，chosen 是选中的模板名。只返回 JSON：{\"templates\": [{\"template\": "
	  "\"模板名\", \"audience\": \"受众\", \"tone\": \"语气\", \"headings\": [\"小节标题\"], \"score\": 0 到 1}], "
	  "\"chosen\": \"模板名\"}",
	  note_rules_task_templates },
	{ "note_route", 0.1,
	  "你是多智能体流程的路由助手。target 是按完成标记算出的下一步；你只能选择 target、回到更早的环节，"
	  "或重跑刚完成的环节（lastAgent）。只返回 JSON：{\"nextAgent\": \"环节名\", \"reason\": \"理由\"}",
	  note_rules_task_note_route },
	/* Rules with no prompt: the review's own checks, which bound a
	 * model's scores (note_review.c). */
	{ "review_checks", 0, NULL, note_rules_task_review_checks },
};

static const struct note_prompt *note_prompt_find(const char *task)
{
	for (size_t i = 0; task && i < sizeof note_prompts / sizeof note_prompts[0]; i++)
		if (strcmp(note_prompts[i].task, task) == 0)
			return &note_prompts[i];
	return NULL;
}

static const struct note_prompt *note_prompt(const char *task)
{
	return note_prompt_find(task) ?: &note_prompts[0];
}

prov_rules_fn note_rules_for(const char *task)
{
	const struct note_prompt *p = note_prompt_find(task);

	return p ? p->rules : NULL;
}

json_t *note_rules(struct step_ctx *c, const char *task, const json_t *facts, char *err,
		   size_t errlen)
{
	json_t *j;

	*err = '\0';
	j = note_prompt(task)->rules(facts, json_string_value(json_object_get(facts, "text")) ?: "",
				     err, errlen);
	if (j == NULL && *err == '\0')
		snprintf(err, errlen, "the rules could not compose an answer");
	return j;
}

static int note_has_all(const json_t *j, const char *const *need)
{
	for (size_t i = 0; need && need[i]; i++) {
		json_t *v = json_object_get(j, need[i]);

		if (v == NULL || json_is_null(v) || (json_is_string(v) && json_string_length(v) == 0))
			return 0;
	}
	return json_is_object(j);
}

static int note_forced(const struct step_ctx *c)
{
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(c->state, "forceRules"), i, v)
		if (strcmp(json_string_value(v) ?: "", c->node) == 0)
			return 1;
	return 0;
}

static void note_severe_error(struct step_ctx *c, const char *task, const struct prov_answer *a)
{
	char code[64], msg[320];

	snprintf(code, sizeof code, "model_%s", prov_status_name(a->status));
	snprintf(msg, sizeof msg, "%s: %s", task, a->error);
	json_object_set_new(c->state, "lastError", json_pack("{s:s, s:s, s:s, s:b}", "code", code,
							     "message", msg, "agent", c->node,
							     "severe", 1));
}

static json_t *note_ask_call(struct step_ctx *c, const char *task, const json_t *facts,
			     const char *const *need, int *from_rules, int soft)
{
	const struct note_prompt *p = note_prompt(task);
	char *user = jtext(facts, JSON_COMPACT), err[256] = "";
	json_t *msgs = json_pack("[{s:s, s:s}, {s:s, s:s}]", "role", "system", "content", p->system,
				 "role", "user", "content", user ? user : "{}");
	struct chat_call call = { .task = task, .rules = p->rules, .messages = msgs, .facts = facts,
				  .temperature = p->temperature, .json_mode = 1 };
	struct prov_answer a;
	json_t *j = NULL;

	step_chat(c, &call, &a);
	*from_rules = a.by_rules;
	if (a.status == PROV_OK && note_has_all(a.json, need)) {
		j = json_incref(a.json);
	} else if (a.status == PROV_OK || a.status == PROV_BAD_ANSWER || soft) {
		note_tick(c, "note.rules_fallback", a.status == PROV_OK
			  ? msg_get(step_lang(c), "note.rules_fallback.missing") : prov_status_name(a.status));
		j = note_rules(c, task, facts, err, sizeof err);
		*from_rules = 1;
	} else {
		note_severe_error(c, task, &a);
	}
	prov_answer_free(&a);
	json_decref(msgs);
	free(user);
	return j;
}

json_t *note_ask(struct step_ctx *c, const char *task, const json_t *facts,
		 const char *const *need, int *from_rules)
{
	char err[256] = "";
	json_t *j;

	if (!note_forced(c))
		return note_ask_call(c, task, facts, need, from_rules, 0);
	*from_rules = 1;
	j = note_rules(c, task, facts, err, sizeof err);
	if (j == NULL)
		json_object_set_new(c->state, "lastError", json_pack("{s:s, s:s, s:s, s:b}", "code",
			"rules_failed", "message", err, "agent", c->node, "severe", 1));
	return j;
}

json_t *note_ask_soft(struct step_ctx *c, const char *task, const json_t *facts,
		      const char *const *need, int *from_rules)
{
	if (note_forced(c) || json_is_true(json_object_get(c->state, "routerForced"))) {
		char err[256];

		*from_rules = 1;
		return note_rules(c, task, facts, err, sizeof err);
	}
	return note_ask_call(c, task, facts, need, from_rules, 1);
}

enum node_rc note_to_supervisor(struct step_ctx *c)
{
	json_t *err = json_object_get(c->state, "lastError");

	note_say(c, "note.agent_failed", msg_agent(step_lang(c), c->node),
		     json_string_value(json_object_get(err, "message")) ?: "unknown error");
	c->next = "supervisor";
	return NODE_NEXT;
}
