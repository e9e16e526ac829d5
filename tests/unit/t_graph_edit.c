/* The graph_edit workflow's summary of a change (graph_edit_summary), as
 * a table: counts of what was added, removed and changed, and the words
 * people read in Chinese and in English. */
#include "config.h"
#include <stdlib.h>
#include "tap.h"
#include "wf/graph_edit/graph_apply.h"
#include "wf/graph_edit/graph_edit.h"

struct scase {
	struct graph_apply_counts n;   /* nodes added, removed, changed; edges added, removed */
	const char *zh, *en;
};

static const struct scase cases[] = {
	{ { 2, 0, 0, 1, 0 }, "添加了 2 个节点和 1 条连线", "added 2 nodes and 1 edge" },
	{ { 1, 0, 0, 0, 0 }, "添加了 1 个节点", "added 1 node" },
	{ { 0, 0, 0, 3, 0 }, "添加了 3 条连线", "added 3 edges" },
	{ { 0, 1, 0, 0, 2 }, "删除了 1 个节点和 2 条连线", "removed 1 node and 2 edges" },
	{ { 0, 0, 1, 0, 0 }, "修改了 1 个节点", "changed 1 node" },
	{ { 1, 1, 0, 0, 0 }, "添加了 1 个节点，并删除了 1 个节点", "added 1 node, and removed 1 node" },
	{ { 1, 0, 2, 1, 1 }, "添加了 1 个节点和 1 条连线，并删除了 1 条连线，并修改了 2 个节点",
	  "added 1 node and 1 edge, and removed 1 edge, and changed 2 nodes" },
	{ { 0, 0, 0, 0, 0 }, "工作流没有变化", "no change to the workflow" },
};

int main(void)
{
	msg_catalogue_add(graph_edit_msgs, graph_edit_nmsgs); /* as registering the workflow does */
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *zh = graph_edit_summary("zh", &cases[i].n), *en = graph_edit_summary("en", &cases[i].n);

		is_str(zh, cases[i].zh, "summary %zu in Chinese", i);
		is_str(en, cases[i].en, "summary %zu in English", i);
		free(zh);
		free(en);
	}
	return tap_done();
}
