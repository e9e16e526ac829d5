## src/wf/image: the image workflow.
libaivista_a_SOURCES += \
	%D%/image.h %D%/image.c %D%/image_conf.c %D%/image_msg.c %D%/image_rules.h %D%/image_rules.c %D%/image_run.c \
	%D%/image_intent.h %D%/image_intent.c %D%/image_subject.c %D%/image_adjust.h %D%/image_adjust.c \
	%D%/image_named.h %D%/image_named.c %D%/image_plan_style.c %D%/image_nonpic.c \
	%D%/image_crit.h %D%/image_crit.c %D%/image_svg_read.c
