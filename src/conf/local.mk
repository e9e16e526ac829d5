## src/conf: the configuration.
libaivista_a_SOURCES += \
	%D%/conf.h %D%/conf.c
