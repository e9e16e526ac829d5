## src/util: small helpers every layer may use.
libaivista_a_SOURCES += \
	%D%/budget.h %D%/budget.c %D%/buf.h %D%/buf.c %D%/clock.h %D%/clock.c %D%/curlonce.h \
	%D%/curlonce.c %D%/hostslot.h %D%/hostslot.c %D%/jnum.h %D%/jnum.c %D%/log.h %D%/log.c \
	%D%/pngio.h %D%/pngio.c %D%/safename.h %D%/safename.c %D%/scrub.h %D%/scrub.c \
	%D%/xmalloc.h %D%/xmalloc.c
