/* The subject of a note request worded as an instruction, offline:
 * "写一篇杭州西湖春季一日游的小红书笔记" is about 杭州西湖春季一日游, and
 * "Write a Xiaohongshu note about packing light" about packing light. The
 * writer titles and opens the note with the subject, not the request. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "text/phrase.h"
#include "wf/note/note_rules.h"
#include "util/xmalloc.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

/* Taken off the front: a polite opening (at most one) only with the verb
 * after it, then what follows the verb, in this order, each at most once
 * (请假攻略 and 写作技巧 keep their first character). */
static const char *const note_rules_request_polite[] = {
	"请你帮我", "请帮我", "麻烦帮我", "帮我", "麻烦", "请你", "请", "给我", "能不能", "可以",
};
static const char *const note_rules_request_verbs[] = {
	"写一篇", "写一个", "写一条", "写一份", "写篇", "写个", "来一篇", "来篇", "出一篇", "整理一篇",
};
static const char *const note_rules_request_polite_en[] = { "please ", "can you ", "could you " };
static const char *const note_rules_request_verbs_en[] = {
	"write me ", "write ", "draft ", "create ", "make me ",
};
static const char *const note_rules_request_after_en[][3] = {
	{ "a ", "an ", "one " },
	{ "short ", "quick " },
	{ "xiaohongshu ", "rednote ", "little red book " },
	{ "note ", "post " },
	{ "about ", "on " },
};
/* Taken off the end, the first that matches. */
static const char *const note_rules_request_tails[] = {
	"的小红书笔记", "的小红书文案", "的小红书帖子", "的小红书", "小红书笔记", "小红书文案",
	"的笔记", "的文案", "的帖子", "的推文",
};
static const char *const note_rules_request_ends[] = { "吧", "。", "！", "!", ".", "～", "~" };

static int note_rules_request_head(const char **p, const char *const *list, size_t n, int nocase)
{
	for (size_t i = 0; i < n && list[i]; i++) {
		size_t len = strlen(list[i]);

		if ((nocase ? strncasecmp(*p, list[i], len) : strncmp(*p, list[i], len)) == 0) {
			*p += len;
			return 1;
		}
	}
	return 0;
}

static size_t note_rules_request_tail(const char *s, size_t n, const char *const *list,
				      size_t count)
{
	for (size_t i = 0; i < count; i++) {
		size_t len = strlen(list[i]);

		if (n >= len && strncmp(s + n - len, list[i], len) == 0)
			return n - len;
	}
	return n;
}

/* After a verb (with its polite opening) at the front of text: where the
 * subject starts, or text when there is none. */
static const char *note_rules_request_front(const char *text)
{
	const char *p = text, *q;

	note_rules_request_head(&p, note_rules_request_polite, OFFLINE_N(note_rules_request_polite), 0);
	q = p;
	if (note_rules_request_head(&q, note_rules_request_verbs, OFFLINE_N(note_rules_request_verbs), 0)) {
		note_rules_request_head(&q, (const char *const[]){ "关于" }, 1, 0);
		return q;
	}
	p = text;
	note_rules_request_head(&p, note_rules_request_polite_en,
				OFFLINE_N(note_rules_request_polite_en), 1);
	if (!note_rules_request_head(&p, note_rules_request_verbs_en,
				     OFFLINE_N(note_rules_request_verbs_en), 1))
		return text;
	for (size_t i = 0; i < OFFLINE_N(note_rules_request_after_en); i++)
		note_rules_request_head(&p, note_rules_request_after_en[i],
					OFFLINE_N(note_rules_request_after_en[i]), 1);
	return p;
}

char *note_rules_request_subject(const char *text)
{
	const char *p = note_rules_request_front(text);
	size_t n = strlen(p);
	char *out;

	n = note_rules_request_tail(p, n, note_rules_request_ends, OFFLINE_N(note_rules_request_ends));
	n = note_rules_request_tail(p, n, note_rules_request_tails, OFFLINE_N(note_rules_request_tails));
	while (n > 0 && p[n - 1] == ' ')
		n--;
	out = xstrndup(p, n);
	/* Too little left: the request names no subject; keep it whole. */
	if (phrase_chars(out) < 2) {
		free(out);
		return xstrdup(text);
	}
	return out;
}
