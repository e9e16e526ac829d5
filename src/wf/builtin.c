/* The workflows this product runs: one row each, registered at start-up.
 * A workflow is its folder under src/wf/ and its descriptor (struct
 * workflow, engine/graph.h); adding one adds its row here and the include
 * of its local.mk in src/wf/local.mk (docs/layout.md). */
#include "config.h"
#include <stddef.h>
#include "engine/graph.h"
#include "wf/builtin.h"
#include "wf/chat/chat.h"
#include "wf/graph_edit/graph_edit.h"
#include "wf/image/image.h"
#include "wf/note/note.h"
#include "wf/orchestrate/orch.h"

static const struct workflow *const wf_builtin[] = {
	&wf_image,
	&wf_note,
	&wf_graph_edit,
	&wf_orchestrate,
	&wf_chat,
};

void wf_builtin_register(void)
{
	for (size_t i = 0; i < sizeof wf_builtin / sizeof wf_builtin[0]; i++)
		wf_register(wf_builtin[i]);
}
