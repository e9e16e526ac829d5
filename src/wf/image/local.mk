## src/wf/image: the image workflow.
libaivista_a_SOURCES += \
	%D%/image.h %D%/image.c %D%/image_rules.h %D%/image_rules.c %D%/image_run.c
