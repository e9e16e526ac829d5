## src/kb: the libraries: notes, styles, retrieval.
libaivista_a_SOURCES += \
	%D%/fuse.c %D%/kb.h %D%/kb.c %D%/kb_int.h %D%/retrieve.h %D%/retrieve.c %D%/search.c \
	%D%/shelf.h %D%/shelf.c %D%/styles.c %D%/tokenize.c %D%/vectors.h %D%/vectors.c
