/* The offline provider's generic tasks (offline.h): a conversational
 * reply and an extractive summary, made from the call's text and facts
 * alone. They know no workflow and no product: a workflow that wants its
 * own answers passes its rules with the call (chat_call.rules). The reply
 * says plainly that no model answered, and where one is configured. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "prov/offline.h"
#include "text/script.h"

#define OFFLINE_N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- chat ---- */

/* facts.time: a string, or {date, weekday, time, timezone, iso, unix}. */
static void offline_chat_time(struct buf *out, int zh, const json_t *t)
{
	static const char *const keys[] = { "date", "weekday", "time", "timezone" };
	const char *s = json_string_value(t);
	int n = 0;

	phrase_say(out, zh, "现在是", "It is now");
	if (s)
		buf_printf(out, " %s", s);
	for (size_t i = 0; s == NULL && i < OFFLINE_N(keys); i++) {
		const char *v = phrase_str(t, keys[i]);

		if (v)
			buf_printf(out, "%s%s", n++ ? " " : " ", v);
	}
	if (s == NULL && n == 0 && phrase_str(t, "iso"))
		buf_printf(out, " %s", phrase_str(t, "iso"));
	if (json_is_integer(json_object_get(t, "unix")))
		phrase_say(out, zh, "，Unix 时间戳 %lld", ", Unix timestamp %lld",
			    (long long)json_integer_value(json_object_get(t, "unix")));
	phrase_say(out, zh, "。（来自服务器的本地时钟）", ". (From the server's clock.) ");
}

/* facts.searchFacts, a text or an array of texts: the three sentences
 * that share most keywords with the message, numbered. */
static void offline_chat_facts(struct buf *out, int zh, const json_t *kw, const json_t *sf)
{
	struct buf all;
	json_t *sent, *best, *v;
	size_t i;

	buf_init(&all, PHRASE_TEXT_MAX);
	if (json_is_string(sf))
		buf_adds(&all, json_string_value(sf));
	json_array_foreach(sf, i, v)
		if (json_is_string(v))
			buf_printf(&all, "%s\n", json_string_value(v));
	sent = phrase_sentences(all.data, 32);
	best = phrase_best(sent, kw, 3);
	phrase_say(out, zh, "资料中与你的问题最相关的几句：\n", "The passages given say, closest to your message:\n");
	json_array_foreach(best, i, v) {
		char *s = phrase_truncate(json_string_value(v), 160);

		buf_printf(out, "%zu. %s\n", i + 1, s);
		free(s);
	}
	json_decref(best);
	json_decref(sent);
	buf_free(&all);
}

/* What the message is about: its keywords, or the message itself. */
static void offline_chat_about(struct buf *out, int zh, const char *text, const json_t *kw)
{
	struct buf k;
	char *echo;

	if (json_array_size(kw) == 0) {
		phrase_say(out, zh, "没有读到可以回应的文字。", "There is no text here to answer. ");
		return;
	}
	buf_init(&k, 1024);
	phrase_join(&k, kw, zh ? "、" : " ", 3);
	if (phrase_question(text)) {
		phrase_say(out, zh, "你的问题涉及「%s」。", "Your question is about \"%s\". ", k.data);
	} else {
		echo = phrase_truncate(text, 40);
		phrase_say(out, zh, "收到：“%s”（要点：%s）。", "Received: \"%s\" (about %s). ", echo, k.data);
		free(echo);
	}
	buf_free(&k);
}

json_t *offline_task_chat(const json_t *facts, const char *text, char *err, size_t errlen)
{
	int zh = strcmp(text_lang(text), "zh") == 0;
	const json_t *t = json_object_get(facts, "time"), *sf = json_object_get(facts, "searchFacts");
	json_t *kw = phrase_keywords(text, 5), *j;
	struct buf out;

	buf_init(&out, PHRASE_TEXT_MAX);
	if (phrase_present(t))
		offline_chat_time(&out, zh, t);
	else if (phrase_present(sf))
		offline_chat_facts(&out, zh, kw, sf);
	else
		offline_chat_about(&out, zh, text, kw);
	phrase_say(&out, zh,
		    "（离线回答：没有接入语言模型，以上由规则整理；在 [provider.chat] 中配置模型即可得到完整回答。）",
		    "(An offline answer: no language model is connected, so rules put this together; "
		    "configure one in [provider.chat] for a full answer.)");
	j = json_pack("{s:s}", "reply", out.data ? out.data : "");
	json_decref(kw);
	buf_free(&out);
	return j;
}

/* ---- summaries ---- */

json_t *offline_task_summarize(const json_t *facts, const char *text, char *err, size_t errlen)
{
	json_t *sent = phrase_sentences(text, 64), *kw = phrase_keywords(text, 5), *best, *v;
	size_t i, n = json_array_size(sent), keep = n <= 2 ? 1 : n <= 6 ? 2 : 3;
	struct buf b;
	json_t *j;

	best = phrase_best(sent, kw, keep);
	buf_init(&b, PHRASE_TEXT_MAX);
	json_array_foreach(best, i, v)
		buf_printf(&b, "%s%s", b.len && strcmp(text_lang(text), "zh") != 0 ? " " : "",
			   json_string_value(v));
	{
		char *s = phrase_truncate(b.data ? b.data : "", 200);

		j = json_pack("{s:s, s:o}", "summary", s, "keywords", kw);
		free(s);
	}
	buf_free(&b);
	json_decref(best);
	json_decref(sent);
	return j;
}
