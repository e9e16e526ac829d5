## src/api: the HTTP API.
libaivista_a_SOURCES += \
	%D%/agents.c %D%/api.h %D%/asset_png.c %D%/asset_send.c %D%/assets.c %D%/confirm.c %D%/dispatch.c \
	%D%/health.c %D%/kb_answer.h %D%/kb_answer.c %D%/nodes.c %D%/stream.c %D%/styles.c \
	%D%/threads.c %D%/workflows.c
