## src/prov: model providers (vendors).
libaivista_a_SOURCES += \
	%D%/dashscope.c %D%/http.h %D%/http.c %D%/offline.h %D%/offline.c %D%/offline_chat.c \
	%D%/openai.c %D%/prov.h %D%/prov.c %D%/sse_delta.h %D%/sse_delta.c %D%/svg.h %D%/svg.c \
	%D%/svg_int.h %D%/scene.h %D%/scene.c %D%/scene_draw.c %D%/emoji_table.h %D%/emoji_table.c \
	%D%/vendors.h %D%/vendors.c
