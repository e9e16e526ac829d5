## src/wf: the workflows, one folder each, each folder listing its own
## sources; a new workflow adds its include here and its row in builtin.c.
include $(srcdir)/%D%/image/local.mk
include $(srcdir)/%D%/chat/local.mk
include $(srcdir)/%D%/note/local.mk
include $(srcdir)/%D%/graph_edit/local.mk
include $(srcdir)/%D%/orchestrate/local.mk
## The one list of workflows, and what a message asks for (the intent rules the workflows share).
libaivista_a_SOURCES += \
	%D%/builtin.h %D%/builtin.c %D%/intents.h %D%/intents.c
