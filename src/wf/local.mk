## src/wf: the one list of workflows.
libaivista_a_SOURCES += \
	%D%/builtin.h %D%/builtin.c
