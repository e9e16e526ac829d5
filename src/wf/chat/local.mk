## src/wf/chat: the chat workflow.
libaivista_a_SOURCES += \
	%D%/chat.h %D%/chat.c %D%/chat_reply.c %D%/chat_route.c %D%/chat_time.c \
	%D%/chat_tools.c %D%/chat_vision.c
