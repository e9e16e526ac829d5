/* The orchestrate workflow's words, in Chinese and in English: the names of its nodes
 * (agent.orchestrate.<node>), its error codes (error.<code>) and everything else it
 * writes for people, added to the message catalogue (text/msg.h) when the
 * workflow is registered. */
#include "config.h"
#include "text/msg.h"
#include "wf/orchestrate/orch.h"

const struct msg_def orch_msgs[] = {
	/* Its nodes, by this workflow's name: graph_edit has a plan node too. */
	{ "agent.orchestrate.plan", "任务规划", "The planner" },
	{ "agent.orchestrate.approve", "计划确认", "The plan check" },
	{ "agent.orchestrate.execute", "阶段执行", "The stage runner" },
	{ "agent.orchestrate.complete", "结果汇总", "The summary" },
	{ "orch.ask.plan", "执行计划已生成，是否按此执行？", "The plan is ready: run it?" },
	{ "orch.ask.plan_again", "修改后的计划有问题，请再修改或确认：%s", "The edited plan has problems; edit it again or decide: %s" },
	{ "orch.plan.no_id", "第 %zu 个子任务没有 id", "subtask %zu has no id" },
	{ "orch.plan.duplicate_subtask", "子任务 id %s 重复使用", "subtask id %s is used twice" },
	{ "orch.plan.no_description", "子任务 %s 没有描述", "subtask %s has no description" },
	{ "orch.plan.unknown_agent", "子任务 %s 指定的智能体 %s 不存在", "subtask %s names an unknown agent %s" },
	{ "orch.plan.bad_inputs", "%s 的输入必须是数组", "the inputs of %s must be an array" },
	{ "orch.plan.empty_group", "执行顺序的第 %zu 组为空", "group %zu of executionOrder is empty" },
	{ "orch.plan.unknown_subtask", "执行顺序中的 %s 不是子任务", "executionOrder names %s, which is no subtask" },
	{ "orch.plan.duplicate_in_order", "%s 在执行顺序中出现了 %zu 次", "%s appears %zu times in executionOrder" },
	{ "orch.plan.missing_from_order", "子任务 %s 不在执行顺序的任何一组中", "subtask %s is in no group of executionOrder" },
	{ "orch.plan.unknown_input", "%s 的输入 %s 不是子任务", "%s takes input from %s, which is no subtask" },
	{ "orch.plan.input_not_earlier", "%s 的输入 %s 不在更早的组中执行", "%s takes input from %s, which does not run in an earlier group" },
	{ "orch.plan.bad_plan", "计划不是一个 JSON 对象", "the plan is not a JSON object" },
	{ "orch.plan.no_subtasks", "计划需要 1 到 %d 个子任务", "the plan needs 1 to %d subtasks" },
	{ "orch.plan.bad_order", "执行顺序必须是非空的分组数组", "executionOrder must be a non-empty array of groups" },
	{ "orch.plan.none", "（无）", "(none)" },
	{ "orch.plan.id_too_long", "第 %zu 个子任务的 id 超过 %d 字节", "the id of subtask %zu is longer than %d bytes" },
	{ "orch.plan.description_too_long", "子任务 %s 的描述超过 %d 个字符", "the description of subtask %s is longer than %d characters" },
	{ "orch.plan.name_too_long", "子任务 %s 的智能体或输入名称超过 %d 字节", "subtask %s names an agent or an input longer than %d bytes" },
	{ "orch.plan.order_name_too_long", "执行顺序的第 %zu 组中有超过 %d 字节的名称", "group %zu of executionOrder holds a name longer than %d bytes" },
	{ "orch.plan.bad_condition", "%s 的条件必须是对象 {input, path, test, value?}", "the condition of %s must be an object {input, path, test, value?}" },
	{ "orch.plan.condition_unknown_input", "%s 的条件引用的 %s 不是子任务", "the condition of %s names %s, which is no subtask" },
	{ "orch.plan.condition_not_input", "%s 的条件引用的 %s 不在它的输入中", "the condition of %s names %s, which is not among its inputs" },
	{ "orch.plan.condition_bad_path", "%s 的条件路径 %s 不是 JSON Pointer", "the condition of %s has the path %s, which is not a JSON Pointer" },
	{ "orch.plan.condition_bad_test", "%s 的条件测试 %s 未知（可用 exists、nonempty、empty、equals、not_equals、gt、lt）", "the condition of %s has an unknown test %s (exists, nonempty, empty, equals, not_equals, gt, lt)" },
	{ "orch.plan.condition_no_value", "%s 的条件测试 %s 需要 value", "the condition of %s: the test %s needs a value" },
	{ "orch.plan.condition_bad_value", "%s 的条件测试 %s 的 value 必须是数字", "the condition of %s: the test %s needs a number as its value" },
	{ "orch.plan.expect_shape", "%s 的 expect 必须是对象 {structured?: 布尔值, required?: 数组, types?: 对象, minItems?: 对象}", "the expect of %s must be an object {structured?: boolean, required?: array, types?: object, minItems?: object}" },
	{ "orch.plan.expect_unknown", "%s 的 expect 中有未知的成员 %s", "the expect of %s has an unknown member %s" },
	{ "orch.plan.expect_bad_place", "%s 的 expect 中 %s 不是成员名或 JSON Pointer", "the expect of %s names %s, which is neither a member name nor a JSON Pointer" },
	{ "orch.plan.expect_bad_type", "%s 的 expect 中 %s 的类型未知（可用 object、array、string、number、integer、boolean、null）", "the expect of %s gives %s an unknown type (object, array, string, number, integer, boolean, null)" },
	{ "orch.plan.expect_bad_min", "%s 的 expect 中 minItems 的 %s 必须是非负整数", "the expect of %s: minItems of %s must be an integer of 0 or more" },
	{ "orch.expect.no_structured", "回答中没有结构化数据（```json 代码块，或整个回答就是 JSON）", "the answer has no structured data (a ```json fence, or the whole answer as JSON)" },
	{ "orch.expect.missing", "结构化数据中缺少 %s", "the structured data has no %s" },
	{ "orch.expect.type", "%s 应为 %s，实际为 %s", "%s must be of type %s, not %s" },
	{ "orch.expect.not_array", "%s 应为数组，实际为 %s", "%s must be an array, not %s" },
	{ "orch.expect.min_items", "%s 至少需要 %lld 项，实际只有 %lld 项", "%s needs at least %lld items, and has %lld" },
	{ "orch.expect.repair", "你的回答没有通过检查：%s。请重新回答，并在 ```json 代码块中给出符合要求的结构化数据。", "Your answer did not pass its checks: %s. Answer again, with structured data that meets them in a ```json fence." },
	{ "orch.stage.bad_output", "输出不符合要求：%s", "the output is not as expected: %s" },
	{ "orch.stage.condition_not_met", "条件不满足（%s：%s %s），已跳过", "condition not met (%s: %s %s), skipped" },
	{ "orch.plan.nonstring", "非字符串的值", "a non-string" },
	{ "orch.error.bad_plan", "计划无法使用：%s", "the plan could not be used: %s" },
	{ "orch.error.replan_limit", "计划已被拒绝 %d 次", "the plan was rejected %d times" },
	{ "orch.error.stage_failed", "阶段 %s 失败，错误策略为中止", "stage %s failed and the error strategy is abort" },
	{ "orch.stage.failed", "阶段 %s 失败：%s", "stage %s failed: %s" },
	{ "error.needs_image", "这个任务需要一张图片", "This task needs a picture" },
	{ "error.retries_exhausted", "重试次数已用完，阶段仍然失败", "The retries are exhausted and the stage still fails" },
	{ "orch.plan.edited", "计划已按你的修改更新：%s。", "The plan as you edited it: %s." },
	{ "orch.error.needs_image", "这个计划需要一张图片（步骤 %s），但请求没有附带图片；请附上图片后再试。", "This plan needs a picture (step %s), and the request has none: attach one and try again." },
	{ "orch.error.template_needs_image", "模板 %s 需要一张图片附件", "the template %s needs a picture attachment" },
	{ "orch.error.retries_exhausted", "阶段 %s 重试 %lld 次后仍然失败，重试次数已用完", "stage %s still failed after %lld retries: the retries are exhausted" },
	{ "orch.result.failed", "步骤 %s：%s", "%s: %s" },
	{ "orch.stage.declined", "智能体没有做这一步：%s", "the agent did not do this step: %s" },
	{ "orch.stage.max_iterations", "智能体在最后一轮仍在调用工具", "the agent was still calling tools at its last iteration" },
};

const size_t orch_nmsgs = sizeof orch_msgs / sizeof orch_msgs[0];

_Static_assert(sizeof orch_msgs / sizeof orch_msgs[0] == ORCH_NMSGS, "ORCH_NMSGS counts the rows of orch_msgs");
