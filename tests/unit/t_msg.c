/* The message catalogue (src/text/msg.c) and the choice of a thread's
 * language (src/text/msg_lang.c), as tables: every message of the engine
 * and of each workflow in both languages with the same printf conversions,
 * in its own script; each word with one owner (the engine's catalogue
 * holds no workflow's words, a workflow's names only its own nodes, an id
 * added twice is refused); the language of a new thread from input.lang,
 * the text and Accept-Language. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "text/msg.h"
#include "text/script.h"
#include "engine/graph.h"
#include "wf/builtin.h"
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
	{ NULL, "帮我分析一下这个崩溃：\nSegmentation fault (core dumped)\n#0 0x0000 in parse_line (buf=0x0) at parser.c:42",
	  NULL, "zh", "the person's first line, not the log pasted after it" },
	{ NULL, "Review this file please\n// 计算平均值\nint avg(int *a, int n) { return sum(a, n) / n; }", NULL, "en",
	  "the first line in English, the code's Chinese comments after it" },
	{ NULL, "\n\n  \n    int main(void) { return 0; }\n这段代码为什么不能编译？", NULL, "zh",
	  "code before the question: the question's line decides" },
	{ NULL, "Traceback (most recent call last):\n  File \"a.py\", line 3\n程序报错了，怎么回事", NULL, "zh",
	  "a Python traceback first, then the question" },
	{ NULL, "x = 1;\ny = 2;", NULL, "en", "code alone: its letters" },
	{ NULL, "Please translate this into English: 你好世界", NULL, "en", "one line: its letters weighed" },
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

/* The rows of one catalogue: both languages written, the same
 * conversions in both, the Chinese in Chinese, the English without Han. */
static void t_rows(const struct msg_def *t, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char zc[128], ec[128];

		t_convs(t[i].zh, zc, sizeof zc);
		t_convs(t[i].en, ec, sizeof ec);
		ok(*t[i].zh && *t[i].en, "%s: both languages written", t[i].id);
		is_str(ec, zc, "%s: the same conversions in zh and en", t[i].id);
		ok(t_has_han(t[i].zh), "%s: the Chinese text is Chinese", t[i].id);
		ok(!t_has_han(t[i].en), "%s: the English text has no Han", t[i].id);
	}
}

/* 1 when the catalogue has an id starting with prefix. */
static int t_has_prefix(const struct msg_def *t, size_t n, const char *prefix)
{
	for (size_t i = 0; i < n; i++)
		if (strncmp(t[i].id, prefix, strlen(prefix)) == 0)
			return 1;
	return 0;
}

/* 1 when the workflow has a node of that name. */
static int t_has_node(const struct workflow *wf, const char *name)
{
	for (size_t i = 0; i < wf->nnodes; i++)
		if (strcmp(wf->nodes[i].name, name) == 0)
			return 1;
	return 0;
}

/* A registered workflow's words: its catalogue is added, it names only
 * its own nodes, each node's name is a name (no format of the engine's
 * read as one), and the engine's catalogue (eng, n) has none of its
 * nodes' names nor any id of the families it owns (all but the shared
 * agent.* and error.*). */
/* The registered workflows, to compare their nodes' names. */
static const struct workflow *t_wfs[16];
static size_t t_nwf;

static void t_workflow_words(const struct workflow *wf, const struct msg_def *eng, size_t n)
{
	const struct msg_def *c;
	int found = 0;

	for (size_t i = 1, k; (c = msg_catalogue(i, &k)) != NULL; i++)
		found |= c == wf->msgs && k == wf->nmsgs;
	ok(wf->nmsgs > 0 && found, "%s: its catalogue (%zu ids) is added when it is registered",
	   wf->name, wf->nmsgs);
	for (size_t i = 0; i < wf->nmsgs; i++) {
		const char *id = wf->msgs[i].id, *dot = strchr(id, '.');
		char family[64];

		size_t wl = strlen(wf->name);
		const char *node = strncmp(id + 6, wf->name, wl) == 0 && id[6 + wl] == '.'
					   ? id + 7 + wl : id + 6;

		if (strncmp(id, "agent.", 6) == 0)
			ok(t_has_node(wf, node), "%s: %s names one of its nodes", wf->name, id);
		if (dot == NULL || strncmp(id, "agent.", 6) == 0 || strncmp(id, "error.", 6) == 0)
			continue;
		snprintf(family, sizeof family, "%.*s", (int)(dot - id + 1), id);
		if (t_has_prefix(eng, n, family))
			ok(0, "%s: the engine's catalogue has ids of %s's family %s*", id, wf->name, family);
	}
	for (size_t i = 0; i < wf->nnodes; i++) {
		char id[96];
		int other = 0;

		/* A node another workflow names alike has a name of its own. */
		for (size_t k = 0; k < t_nwf; k++)
			other |= t_wfs[k] != wf && wf_node(t_wfs[k], wf->nodes[i].name) != NULL &&
				 strcmp(msg_agent_in("en", wf->name, wf->nodes[i].name),
					msg_agent_in("en", t_wfs[k]->name, wf->nodes[i].name)) == 0;
		ok(!other, "%s: node %s is not named by another workflow's word", wf->name,
		   wf->nodes[i].name);

		snprintf(id, sizeof id, "agent.%s", wf->nodes[i].name);
		ok(strchr(msg_agent_in("en", wf->name, wf->nodes[i].name), '%') == NULL &&
		   strchr(msg_agent_in("zh", wf->name, wf->nodes[i].name), '%') == NULL,
		   "%s: node %s is named by a name, not by a format", wf->name, wf->nodes[i].name);
		for (size_t j = 0; j < n; j++)
			if (strcmp(eng[j].id, id) == 0)
				ok(0, "%s: the engine's catalogue names %s's node", id, wf->name);
	}
}

/* Adding catalogues: an id the catalogue has, an id twice in the table, a
 * row without a text are refused, and nothing of a refused table is added. */
static void t_add(void)
{
	static const struct msg_def taken[] = {
		{ "t.msg.fresh", "新的", "fresh" },
		{ "option.approve", "同意", "Agree" },
	};
	static const struct msg_def twice[] = {
		{ "t.msg.twice", "一", "one" },
		{ "t.msg.twice", "二", "two" },
	};
	static const struct msg_def empty[] = { { "t.msg.empty", "空", NULL } };
	static const struct msg_def fresh[] = { { "t.msg.fresh", "新的", "fresh" } };
	size_t before = 0, k;

	while (msg_catalogue(before, &k))
		before++;
	ok(msg_catalogue_add(taken, 2) == -1, "an id the catalogue has is refused");
	is_str(msg_get("en", "option.approve"), "Continue", "a refused table changes no word");
	ok(msg_find("en", "t.msg.fresh") == NULL, "nothing of a refused table is added");
	ok(msg_catalogue_add(twice, 2) == -1, "an id twice in one table is refused");
	ok(msg_catalogue_add(empty, 1) == -1, "a row without its English is refused");
	ok(msg_catalogue_add(NULL, 0) == -1, "an empty table is refused");
	ok(msg_catalogue(before, &k) == NULL, "refused tables are not listed");
	ok(msg_catalogue_add(fresh, 1) == 0, "a table of new ids is added");
	is_str(msg_get("en", "t.msg.fresh"), "fresh", "its words are found");
	is_str(msg_get("zh", "option.approve"), "继续", "the words before it still are");
	ok(msg_catalogue(before, &k) == fresh && k == 1, "it is listed after the others");
	ok(msg_catalogue_add(fresh, 1) == -1, "the same table again is refused");
}

/* A workflow whose words repeat another owner's is not registered. */
static void t_register_clash(void)
{
	static const struct msg_def clash[] = { { "step.start", "开始", "Start" } };
	static const struct wf_node node[] = { { "only", NULL, 0 } };
	static const struct workflow wf = {
		.name = "t_msg_clash", .nodes = node, .nnodes = 1, .start = "only",
		.msgs = clash, .nmsgs = 1,
	};

	wf_register(&wf);
	ok(wf_find("t_msg_clash") == NULL, "a workflow repeating an id of the catalogue is not registered");
	is_str(msg_get("en", "step.start"), "%s is starting…", "and its words are not added");
}

/* The product's workflows, registered: each one's words. */
static void t_builtin_words(void)
{
	size_t n, k, i;
	const struct msg_def *eng = msg_catalogue(0, &n), *c;
	json_t *names, *v;

	wf_builtin_register();
	names = wf_names();
	ok(json_array_size(names) >= 5, "the product's workflows are registered");
	json_array_foreach(names, i, v)
		if (t_nwf < sizeof t_wfs / sizeof t_wfs[0])
			t_wfs[t_nwf++] = wf_find(json_string_value(v));
	json_array_foreach(names, i, v)
		t_workflow_words(wf_find(json_string_value(v)), eng, n);
	json_decref(names);
	for (i = 0; (c = msg_catalogue(i, &k)) != NULL; i++)
		t_rows(c, k);
}

/* The engine alone, before any workflow: its own words, each id once,
 * and no workflow's. */
static void t_engine_alone(void)
{
	size_t n, k;
	const struct msg_def *t = msg_catalogue(0, &n);

	ok(n > 10, "the engine's catalogue has %zu messages", n);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (strcmp(t[i].id, t[j].id) == 0)
				ok(0, "%s: listed twice", t[i].id);
	ok(msg_catalogue(1, &k) == NULL && k == 0, "no other catalogue before a workflow is registered");
	ok(msg_find("en", "note.images.failed") == NULL, "a workflow's words are not known before it is registered");
	is_str(msg_agent("en", "writer_agent"), "writer_agent", "nor the names of its nodes");
	is_str(msg_error("en", "regeneration_limit"), "This step could not be completed", "nor its errors");
}

int main(void)
{
	char *s;

	t_engine_alone();
	t_builtin_words();
	t_add();
	t_register_clash();
	is_str(msg_get("en", "option.approve"), "Continue", "msg_get en");
	is_str(msg_get("zh", "option.approve"), "继续", "msg_get zh");
	is_str(msg_get("fr", "option.approve"), "继续", "msg_get: another language is zh");
	is_str(msg_get("en", "no.such.id"), "no.such.id", "msg_get: an unknown id is itself");
	ok(msg_find("en", "no.such.id") == NULL, "msg_find: an unknown id is NULL");
	s = msg_fmt("zh", "step.start", msg_agent("zh", "writer_agent"));
	is_str(s, "创作专家开始工作…", "step.start in zh names the agent as seed 001 does");
	free(s);
	s = msg_fmt("en", "step.start", msg_agent("en", "writer_agent"));
	is_str(s, "The writer is starting…", "step.start in en");
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
