/* The chat route (seed 004 §1 route 4, and the last step of web search):
 * the chat model with the conversation, streamed. Each piece goes out as
 * an ephemeral message_delta; the whole reply is then one durable message,
 * so a client that reconnects gets it once, whole. A stream that breaks
 * after some pieces, or is stopped by a cancel, keeps what was said as the
 * message. The offline assistant's reply may come with requests to
 * click (examples) that work offline. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "prov/prov.h"
#include "text/msg.h"
#include "util/buf.h"
#include "wf/chat/chat_common.h"
#include "wf/chat/chat_rules.h"

#define CHAT_REPLY_MAX (1u << 20)

static const char chat_system_zh[] =
	"你是 AiVista 的智能助手，用用户的语言简洁、准确地回答。";
static const char chat_system_en[] =
	"You are AiVista's assistant: answer in the user's language, briefly and accurately.";

struct chat_said {
	struct prov_hooks step;  /* the node's hooks: message_delta events, keep-alives */
	struct buf text;         /* what was streamed, capped */
};

static void chat_said_delta(void *ctx, const char *piece)
{
	struct chat_said *s = ctx;

	buf_adds(&s->text, piece);
	s->step.delta(s->step.ctx, piece);
}

static void chat_said_tick(void *ctx)
{
	struct chat_said *s = ctx;

	s->step.tick(s->step.ctx);
}

static int chat_said_stop(void *ctx)
{
	struct chat_said *s = ctx;

	return s->step.stop(s->step.ctx);
}

/* The text without an incomplete UTF-8 sequence at its end. */
static void chat_said_trim(struct buf *b)
{
	size_t n = b->len, start = n;

	while (start > 0 && n - start < 4 && ((unsigned char)b->data[start - 1] & 0xC0) == 0x80)
		start--;
	if (start > 0) {
		unsigned char lead = (unsigned char)b->data[start - 1];
		size_t need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;

		if (lead >= 0xC0 && n - (start - 1) < need)
			b->len = start - 1;
	}
	if (b->data)
		b->data[b->len] = '\0';
}

int chat_stream(struct step_ctx *c, const json_t *messages, const json_t *facts,
		struct prov_answer *a, char **said)
{
	struct chat_said s;
	struct prov_hooks h = { chat_said_delta, NULL, chat_said_tick, &s, chat_said_stop };
	struct chat_call call = { .task = "chat", .rules = chat_rules_reply, .messages = messages,
				  .facts = facts, .temperature = 0.7, .stream = 1,
				  .timeout_ms = step_time_left(c) };
	int rc;

	step_hooks(c, &s.step);
	buf_init(&s.text, CHAT_REPLY_MAX);
	rc = prov_chat(step_prov(c), &call, &h, a);
	chat_said_trim(&s.text);
	*said = buf_steal(&s.text);
	return rc;
}

/* The offline provider's facts: the text, the history, what was found. */
static json_t *chat_reply_facts(struct step_ctx *c)
{
	json_t *f = json_pack("{s:s, s:O, s:s}", "text", chat_text(c->state), "history",
			      json_object_get(c->state, "messages"), "lang", step_lang(c));
	json_t *sf = json_object_get(c->state, "searchFacts");
	json_t *notes = json_object_get(c->state, "searchNotes");
	json_t *vn = json_object_get(c->state, "visionNotes");

	if (sf && !json_is_null(sf))
		json_object_set(f, "searchFacts", sf);
	if (json_is_string(vn))
		json_object_set(f, "vision", vn);
	if (notes)
		json_object_set(f, "searchNotes", notes);
	return f;
}

/* The system message, with the search facts appended (seed 004 §4). */
static char *chat_reply_system(struct step_ctx *c)
{
	const char *lang = step_lang(c);
	const char *facts = json_string_value(json_object_get(c->state, "searchFacts"));
	const char *seen = json_string_value(json_object_get(c->state, "visionNotes"));
	struct buf b;

	buf_init(&b, CHAT_REPLY_MAX);
	buf_adds(&b, strcmp(lang, "en") == 0 ? chat_system_en : chat_system_zh);
	if (seen && *seen) {
		buf_adds(&b, "\n\n");
		buf_adds(&b, msg_get(lang, "chat.vision.inject"));
		buf_adds(&b, "\n");
		buf_adds(&b, seen);
	}
	if (facts && *facts) {
		buf_adds(&b, "\n\n");
		buf_adds(&b, msg_get(lang, "chat.search.inject"));
		buf_adds(&b, "\n");
		buf_adds(&b, facts);
	}
	return buf_steal(&b);
}

enum node_rc chat_reply(struct step_ctx *c)
{
	char *system = chat_reply_system(c), *said = NULL;
	json_t *msgs = chat_messages(c, system), *facts = chat_reply_facts(c);
	struct prov_answer a;
	enum node_rc rc;

	chat_stream(c, msgs, facts, &a, &said);
	if (a.status == PROV_OK && a.text) {
		/* The offline assistant offers requests to click that work offline. */
		json_t *ex = a.by_rules ? chat_rules_examples(facts, chat_text(c->state)) : NULL;

		rc = chat_finish_with(c, a.text, NULL, ex);
		json_decref(ex);
	} else if (a.status == PROV_STOPPED) {
		/* Stopped on request: what was said is the message. */
		if (said && *said)
			chat_finish(c, said, NULL);
		rc = step_cancelled_abort(c);
	} else if (said && *said) {
		/* Cut short: what was said stays, and the turn says it failed. */
		chat_finish(c, said, NULL);
		rc = step_fail(c, "reply_cut", "the reply stopped after %zu bytes: %s", strlen(said),
			       prov_status_name(a.status));
	} else {
		/* The generic message only: the provider's words (and what they may
		 * quote) are in the log (prov_report), not in the thread. */
		rc = step_fail(c, "chat_failed", "the chat model failed: %s (%s)",
			       prov_status_name(a.status), a.error);
	}
	prov_answer_free(&a);
	free(said);
	free(system);
	json_decref(msgs);
	json_decref(facts);
	return rc;
}
