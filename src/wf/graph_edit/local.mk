## src/wf/graph_edit: the graph_edit workflow.
libaivista_a_SOURCES += \
	%D%/graph_apply.h %D%/graph_apply.c %D%/graph_edit.h %D%/graph_edit.c %D%/graph_edit_msg.c \
	%D%/graph_edit_common.h %D%/graph_edit_common.c %D%/graph_edit_apply.c \
	%D%/graph_edit_history.c %D%/graph_edit_plan.c \
	%D%/graph_layout.h %D%/graph_layout.c %D%/graph_layout_core.c %D%/graph_layout_int.h \
	%D%/graph_nodes.h %D%/graph_nodes.c %D%/graph_rules.h %D%/graph_rules.c \
	%D%/graph_rules_canvas.c %D%/graph_rules_int.h %D%/graph_rules_match.c \
	%D%/graph_rules_ops.c %D%/graph_rules_param.c %D%/graph_rules_repair.c \
	%D%/graph_rules_text.c %D%/graph_rules_struct.c %D%/graph_rules_ask.c %D%/graph_validate.h %D%/graph_validate.c
