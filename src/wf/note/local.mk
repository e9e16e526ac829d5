## src/wf/note: the note workflow.
libaivista_a_SOURCES += \
	%D%/note.h %D%/note.c %D%/note_msg.c %D%/note_corpus.c %D%/note_dims.c \
	%D%/note_feedback.h %D%/note_feedback.c \
	%D%/note_feedback_apply.c %D%/note_feedback_body.c %D%/note_feedback_edit.c \
	%D%/note_feedback_int.h %D%/note_feedback_run.c %D%/note_feedback_style.c \
	%D%/note_graph.c %D%/note_images.c \
	%D%/note_img.c %D%/note_llm.c %D%/note_plans_apply.c %D%/note_plans_feedback.h \
	%D%/note_plans_feedback.c %D%/note_quality.c %D%/note_ref.c %D%/note_research.c \
	%D%/note_review.c %D%/note_route.c %D%/note_rules.h %D%/note_rules_kind.c \
	%D%/note_rules_kind_body.c %D%/note_rules_kind_frame.c %D%/note_rules_kind_int.h %D%/note_rules_kind_shape.c \
	%D%/note_rules_person.c %D%/note_rules_plan.c %D%/note_rules_plan_edit.c \
	%D%/note_rules_reader.h %D%/note_rules_reader.c %D%/note_rules_reader_words.c \
	%D%/note_rules_request.c %D%/note_rules_review.c %D%/note_rules_topic.c \
	%D%/note_rules_write.c %D%/note_tool.c %D%/note_tools.c %D%/note_vague.h \
	%D%/note_vague.c %D%/note_write.c
