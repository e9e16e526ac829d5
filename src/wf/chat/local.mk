## src/wf/chat: the chat workflow.
libaivista_a_SOURCES += \
	%D%/chat.h %D%/chat.c %D%/chat_common.h %D%/chat_common.c %D%/chat_msg.c %D%/chat_reply.c \
	%D%/chat_route.c %D%/chat_time.c %D%/chat_branch.c %D%/chat_tools.c %D%/chat_vision.c %D%/chat_rules.h \
	%D%/chat_rules.c %D%/chat_offline.c %D%/chat_zones.h %D%/chat_zones.c %D%/chat_zones_table.c \
	%D%/chat_prompt.c
