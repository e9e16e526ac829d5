## src/text: the text toolkit: scripts, segmentation, phrases, the rule engine, the message catalogue.
libaivista_a_SOURCES += \
	%D%/msg.h %D%/msg.c %D%/msg_lang.c %D%/phrase.h %D%/phrase.c %D%/rules.h %D%/rules.c \
	%D%/rules_int.h %D%/script.h %D%/script.c %D%/seg.h %D%/seg.c \
	%D%/wordcut.h %D%/wordcut.c %D%/words.h %D%/words.c
