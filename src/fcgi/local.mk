## src/fcgi: FastCGI requests, routes and event streams.
libaivista_a_SOURCES += \
	%D%/fcgxio.h %D%/fcgxio.c %D%/io.h %D%/problem.h %D%/problem.c %D%/problem_send.c \
	%D%/req.h %D%/req.c \
	%D%/route.h %D%/route.c %D%/sitecheck.h %D%/sitecheck.c %D%/sse.h %D%/sse.c \
	%D%/wtimeout.h %D%/wtimeout.c
