## src: the worker process.
libaivista_a_SOURCES += \
	%D%/app.h %D%/heir.h %D%/heir.c %D%/prefork.h %D%/prefork.c %D%/selfcheck.h \
	%D%/selfcheck.c %D%/sockperm.h %D%/sockperm.c %D%/worker.h %D%/worker.c
