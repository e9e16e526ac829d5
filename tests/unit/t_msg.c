/* The message catalogue (src/text/msg.c) and the choice of a thread's
 * language (src/text/msg_lang.c), as tables: every message in both
 * languages with the same printf conversions, in its own script; the
 * language of a new thread from input.lang, the text and Accept-Language. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "text/msg.h"
#include "text/script.h"
#include "tap.h"

/* The conversions of a printf format, each as its length modifier and
 * conversion letter ("s", "zu", ".2f" keeps only "f"), joined by spaces. */
static void t_convs(const char *fmt, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	for (const char *p = fmt; *p && len + 8 < n; p++) {
		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		p += strspn(p, "-+ #0123456789.*");
		while (*p && strchr("hlqjzt", *p))
			out[len++] = *p++;
		if (*p)
			out[len++] = *p;
		out[len++] = ' ';
		out[len] = '\0';
		if (*p == '\0')
			break;
	}
}

static int t_has_han(const char *s)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + strlen(s);

	while (p < end) {
		uint32_t c;

		p += text_utf8_next(p, end, &c);
		if (text_is_han(c))
			return 1;
	}
	return 0;
}

static const struct {
	const char *lang, *text, *accept, *want, *what;
} picks[] = {
	{ "en", "一只在海边奔跑的金毛犬", "zh-CN", "en", "input.lang wins over the text" },
	{ "zh", "a lighthouse at dawn", "en", "zh", "input.lang zh wins over English text" },
	{ NULL, "一只在海边奔跑的金毛犬", "en-US,en;q=0.9", "zh", "Chinese text over Accept-Language" },
	{ NULL, "a lighthouse at dawn", "zh-CN,zh;q=0.9", "en", "English text over Accept-Language" },
	{ NULL, "🐱🌊✨", "en-GB,en;q=0.8", "en", "emoji only: Accept-Language decides" },
	{ NULL, "🐱🌊✨", NULL, "zh", "emoji only and no header: zh" },
	{ NULL, "2024 !!!", "en", "en", "digits only: Accept-Language decides" },
	{ NULL, "", "fr-FR,fr;q=0.9,en;q=0.5,zh;q=0.3", "en", "the preferred of zh and en" },
	{ NULL, NULL, "fr-FR, zh-TW;q=0.7, en;q=0.2", "zh", "zh-TW counts as zh" },
	{ NULL, NULL, "en;q=0, zh;q=0.1", "zh", "q=0 means not wanted" },
	{ NULL, NULL, "de, fr", "zh", "neither: zh" },
	{ NULL, NULL, "english, zhx", "zh", "en and zh only as whole primary tags" },
	{ NULL, NULL, "EN-us", "en", "tags are case-insensitive" },
	{ NULL, NULL, "en;q=abc, zh;q=0.4", "zh", "a malformed q is 0" },
	{ NULL, NULL, "*", "zh", "wildcard: zh" },
};

static const struct {
	const char *lang, *node, *want;
} agents[] = {
	{ "zh", "writer_agent", "创作专家" },
	{ "en", "writer_agent", "The writer" },
	{ "zh", "planner", "意图分析师" },
	{ "en", "no_such_node", "no_such_node" },
};

int main(void)
{
	size_t n;
	const struct msg_def *t = msg_table(&n);
	char *s;

	ok(n > 30, "the catalogue has %zu messages", n);
	for (size_t i = 0; i < n; i++) {
		char zc[128], ec[128];

		t_convs(t[i].zh, zc, sizeof zc);
		t_convs(t[i].en, ec, sizeof ec);
		ok(*t[i].zh && *t[i].en, "%s: both languages written", t[i].id);
		is_str(ec, zc, "%s: the same conversions in zh and en", t[i].id);
		ok(t_has_han(t[i].zh), "%s: the Chinese text is Chinese", t[i].id);
		ok(!t_has_han(t[i].en), "%s: the English text has no Han", t[i].id);
		for (size_t j = 0; j < i; j++)
			if (strcmp(t[i].id, t[j].id) == 0)
				ok(0, "%s: listed twice", t[i].id);
	}
	is_str(msg_get("en", "option.approve"), "Continue", "msg_get en");
	is_str(msg_get("zh", "option.approve"), "继续", "msg_get zh");
	is_str(msg_get("fr", "option.approve"), "继续", "msg_get: another language is zh");
	is_str(msg_get("en", "no.such.id"), "no.such.id", "msg_get: an unknown id is itself");
	ok(msg_find("en", "no.such.id") == NULL, "msg_find: an unknown id is NULL");
	s = msg_fmt("zh", "agent.start", msg_agent("zh", "writer_agent"));
	is_str(s, "创作专家开始工作…", "agent.start in zh names the agent as seed 001 does");
	free(s);
	s = msg_fmt("en", "agent.start", msg_agent("en", "writer_agent"));
	is_str(s, "The writer is starting…", "agent.start in en");
	free(s);
	s = msg_fmt("en", "note.images.failed", (size_t)2, (size_t)3, (size_t)1);
	is_str(s, "2 of 3 images done, 1 failed: the review decides", "msg_fmt with %%zu");
	free(s);
	for (size_t i = 0; i < sizeof agents / sizeof agents[0]; i++)
		is_str(msg_agent(agents[i].lang, agents[i].node), agents[i].want, "msg_agent %s %s",
		       agents[i].lang, agents[i].node);
	is_str(msg_error("en", "regeneration_limit"),
	       "Regenerated three times without approval: the workflow ended", "msg_error: a known code");
	is_str(msg_error("zh", "test_failure"), "这一步没能完成", "msg_error: an unknown code is generic");
	is_str(msg_error("en", NULL), "This step could not be completed", "msg_error: no code");
	ok(msg_lang_ok("zh") && msg_lang_ok("en"), "msg_lang_ok: zh and en");
	ok(!msg_lang_ok("fr") && !msg_lang_ok("ZH") && !msg_lang_ok("") && !msg_lang_ok(NULL),
	   "msg_lang_ok: nothing else");
	for (size_t i = 0; i < sizeof picks / sizeof picks[0]; i++)
		is_str(msg_thread_lang(picks[i].lang, picks[i].text, picks[i].accept), picks[i].want,
		       "msg_thread_lang: %s", picks[i].what);
	ok(msg_accept_lang(NULL) == NULL && msg_accept_lang("") == NULL && msg_accept_lang("fr") == NULL,
	   "msg_accept_lang: nothing to pick");
	return tap_done();
}
