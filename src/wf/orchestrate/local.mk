## src/wf/orchestrate: the orchestrate workflow.
libaivista_a_SOURCES += \
	%D%/orch.h %D%/orch.c %D%/orch_conf.c %D%/orch_msg.c %D%/orch_agents.c %D%/orch_annotate.c %D%/orch_cond.c \
	%D%/orch_exec.c %D%/orch_expect.c %D%/orch_find.c %D%/orch_plan.c %D%/orch_rules.h \
	%D%/orch_plan_int.h %D%/orch_plan_rules.c %D%/orch_plan_edit.c \
	%D%/orch_rules.c %D%/orch_rules_facts.c %D%/orch_rules_code.c %D%/orch_rules_fix.c \
	%D%/orch_rules_inspect.c %D%/orch_rules_flow.c %D%/orch_rules_int.h %D%/orch_rules_meta.c %D%/orch_rules_review.c \
	%D%/orch_rules_scan.c %D%/orch_rules_tests.c %D%/orch_rules_text.c \
	%D%/orch_rules_vision.c %D%/orch_stage.c %D%/orch_tool_util.h %D%/orch_tool_util.c \
	%D%/orch_tools.h %D%/orch_tools.c \
	%D%/orch_ws.h %D%/orch_ws.c
