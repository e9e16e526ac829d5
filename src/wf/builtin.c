/* The workflows this product runs, registered at start-up. */
#include "config.h"
#include "engine/graph.h"
#include "wf/builtin.h"
#include "wf/graph_edit/graph_edit.h"
#include "wf/chat/chat.h"
#include "wf/image/image.h"
#include "wf/note/note.h"
#include "wf/orchestrate/orch.h"

void wf_builtin_register(void)
{
	wf_register(&wf_image);
	wf_register(&wf_note);
	wf_register(&wf_graph_edit);
	wf_register(&wf_orchestrate);
	wf_register(&wf_chat);
}
