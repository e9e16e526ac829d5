/* The graph_edit workflow's words, in Chinese and in English: the names of its nodes
 * (agent.<node>), its error codes (error.<code>) and everything else it
 * writes for people, added to the message catalogue (text/msg.h) when the
 * workflow is registered. */
#include "config.h"
#include "text/msg.h"
#include "wf/graph_edit/graph_edit.h"

const struct msg_def graph_edit_msgs[] = {
	{ "agent.start", "请求解析", "The request reader" },
	{ "agent.retrieve", "节点检索", "The node finder" },
	{ "agent.plan", "编辑规划", "The edit planner" },
	{ "agent.apply", "修改校验", "The patch checker" },
	{ "agent.publish", "画布更新", "The canvas updater" },
	{ "agent.edit", "画布编辑", "The canvas editor" },
	{ "agent.history", "版本历史", "The version history" },
	{ "graph.retrieve.found", "找到相关节点（%d 个，%s）：%s", "relevant nodes found (%d, %s): %s" },
	{ "graph.retrieve.none", "节点库里没有与请求相关的节点（%s）", "no node in the library matches the request (%s)" },
	{ "graph.plan.done", "规划了 %d 个修改操作", "%d operations planned" },
	{ "graph.plan.repair", "修改没有通过校验（发现问题 %d 处），请模型修正一次", "the patch did not pass the checks (problems found: %d): asking the model to correct it once" },
	{ "graph.plan.nothing", "这次没有需要修改的地方", "There is nothing to change this time" },
	{ "graph.ask.patch", "要把这些修改应用到工作流吗？", "Apply these changes to the workflow?" },
	{ "graph.confirm.rejected", "已收到你的意见，重新规划修改", "Your feedback is received: planning the changes again" },
	{ "graph.modify.invalid", "修改后的补丁必须是一个操作数组，请重新编辑", "The edited patch must be an array of operations: edit it again" },
	{ "graph.rejected", "修改没有通过校验，工作流保持不变：%s（共发现问题 %d 处）", "The changes did not pass the checks, so the workflow is unchanged: %s (problems found: %d)" },
	{ "graph.sum.node.one", "%d 个节点", "%d node" },
	{ "graph.sum.node.many", "%d 个节点", "%d nodes" },
	{ "graph.sum.edge.one", "%d 条连线", "%d edge" },
	{ "graph.sum.edge.many", "%d 条连线", "%d edges" },
	{ "graph.sum.added", "添加了 %s", "added %s" },
	{ "graph.sum.removed", "删除了 %s", "removed %s" },
	{ "graph.sum.changed", "修改了 %s", "changed %s" },
	{ "graph.sum.with", "%s和 %s", "%s and %s" },
	{ "graph.sum.then", "%s，并%s", "%s, and %s" },
	{ "graph.sum.none", "工作流没有变化", "no change to the workflow" },
	{ "graph.undo.done", "已撤销：恢复为第 %d 版", "undone: back to version %d" },
	{ "graph.redo.done", "已重做：恢复为第 %d 版", "redone: forward to version %d" },
	{ "graph.undo.none", "没有可以撤销的修改", "There is nothing to undo" },
	{ "graph.redo.none", "没有可以重做的修改", "There is nothing to redo" },
	{ "graph.version.lost", "这个版本已经无法读取", "That version can no longer be read" },
	{ "error.plan_failed", "模型没能给出修改方案，请稍后再试", "The model could not plan the changes: try again shortly" },
	{ "error.library_unavailable", "节点库暂时不可用", "The node library is not available" },
};

const size_t graph_edit_nmsgs = sizeof graph_edit_msgs / sizeof graph_edit_msgs[0];

_Static_assert(sizeof graph_edit_msgs / sizeof graph_edit_msgs[0] == GRAPH_EDIT_NMSGS, "GRAPH_EDIT_NMSGS counts the rows of graph_edit_msgs");
