## src/json: JSON Pointer, Patch, bounded dumps and allocation.
libaivista_a_SOURCES += \
	%D%/dump.h %D%/dump.c %D%/jalloc.h %D%/jalloc.c %D%/patch.h %D%/patch.c %D%/pointer.h \
	%D%/pointer.c
