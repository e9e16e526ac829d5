/* Editing a sent message and regenerating an answer (docs/api.md, chat):
 * input.editOf names a user message, input.regenerate an assistant's; the
 * conversation goes on from just before that message. Nothing is removed:
 * the replaced messages stay in the state marked superseded (the model no
 * longer reads them) and the event log keeps every turn; the newest branch
 * is the one whose messages are not superseded. Each message has an id
 * ("m1", "m2", …, from the state's msgSeq) that the message events carry. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "wf/chat/chat.h"

#define CHAT_ID_MAX 32

int chat_msg_live(const json_t *m)
{
	return !json_is_true(json_object_get(m, "superseded"));
}

void chat_msg_number(json_t *state, json_t *m)
{
	json_int_t seq = json_integer_value(json_object_get(state, "msgSeq")) + 1;
	char id[CHAT_ID_MAX];

	snprintf(id, sizeof id, "m%lld", (long long)seq);
	json_object_set_new(m, "id", json_string(id));
	json_object_set_new(state, "msgSeq", json_integer(seq));
}

const char *chat_msg_last_user(const json_t *state)
{
	const json_t *msgs = json_object_get(state, "messages"), *m;
	size_t i = json_array_size(msgs);

	while (i-- > 0) {
		m = json_array_get(msgs, i);
		if (chat_msg_live(m) && strcmp(json_string_value(json_object_get(m, "role")) ?: "", "user") == 0)
			return json_string_value(json_object_get(m, "id"));
	}
	return NULL;
}

/* The index of the live message id of role, or -1. */
static long chat_branch_find(const json_t *msgs, const char *id, const char *role)
{
	const json_t *m;
	size_t i;

	json_array_foreach(msgs, i, m)
		if (strcmp(json_string_value(json_object_get(m, "id")) ?: "", id) == 0 &&
		    strcmp(json_string_value(json_object_get(m, "role")) ?: "", role) == 0 &&
		    chat_msg_live(m))
			return (long)i;
	return -1;
}

/* Marks the messages from index from on as superseded. */
static void chat_branch_cut(json_t *msgs, size_t from)
{
	size_t i;

	for (i = from; i < json_array_size(msgs); i++)
		json_object_set_new(json_array_get(msgs, i), "superseded", json_true());
}

/* The value of key when it is there: a short string, or an error. */
static int chat_branch_id(const json_t *input, const char *key, const char **id, char *err, size_t n)
{
	const json_t *v = json_object_get(input, key);

	*id = NULL;
	if (v == NULL || json_is_null(v))
		return 0;
	if (!json_is_string(v) || json_string_length(v) == 0 || json_string_length(v) >= CHAT_ID_MAX)
		return snprintf(err, n, "%s must be the id of a message of this conversation (\"m1\", …)", key), -1;
	*id = json_string_value(v);
	return 0;
}

int chat_branch(json_t *state, const json_t *input, const char **text, char *err, size_t n)
{
	json_t *msgs = json_object_get(state, "messages");
	const char *edit, *regen;
	long at, k;

	if (chat_branch_id(input, "editOf", &edit, err, n) < 0 ||
	    chat_branch_id(input, "regenerate", &regen, err, n) < 0)
		return -1;
	if (edit && regen)
		return snprintf(err, n, "editOf and regenerate cannot go together"), -1;
	if (edit) {
		at = chat_branch_find(msgs, edit, "user");
		if (at < 0)
			return snprintf(err, n, "editOf: no message of yours named %s in this conversation "
					"(or it was already replaced)", edit), -1;
		chat_branch_cut(msgs, (size_t)at);
		return 0;
	}
	if (!regen)
		return 0;
	if (json_object_get(input, "text") || json_object_get(input, "attachments"))
		return snprintf(err, n, "regenerate takes no text or pictures: to change the "
				"question, send editOf with the new text"), -1;
	at = chat_branch_find(msgs, regen, "assistant");
	if (at < 0)
		return snprintf(err, n, "regenerate: no answer named %s in this conversation "
				"(or it was already replaced)", regen), -1;
	for (k = at - 1; k >= 0; k--) {
		const json_t *m = json_array_get(msgs, (size_t)k);

		if (chat_msg_live(m) && strcmp(json_string_value(json_object_get(m, "role")) ?: "", "user") == 0)
			break;
	}
	if (k < 0)
		return snprintf(err, n, "regenerate: the question of %s is no longer in the "
				"conversation", regen), -1;
	*text = json_string_value(json_object_get(json_array_get(msgs, (size_t)k), "content"));
	chat_branch_cut(msgs, (size_t)k);
	return 0;
}
