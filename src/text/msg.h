/* The message catalogue: every text the server writes for people (thought
 * logs, agent start and finish, pause questions and options, decisions,
 * errors shown in events) by a stable id, in Chinese and in English, with
 * the same printf arguments in both; and the choice of a thread's
 * language. The engine's own words are here (msg.c); each workflow brings
 * its own (a file in its folder under src/wf/, such as chat_msg.c), added
 * when it is registered; an id has one owner. */
#ifndef AV_TEXT_MSG_H
#define AV_TEXT_MSG_H

#include <stddef.h>

struct msg_def {
	const char *id;
	const char *zh;
	const char *en;
};

/* True for a language the catalogue has: "zh" or "en". */
int msg_lang_ok(const char *lang);
/* The text of id in lang ("en", anything else is "zh"); NULL for an id the
 * catalogue does not have. */
const char *msg_find(const char *lang, const char *id);
/* The same, but an unknown id gives the id itself (never NULL). */
const char *msg_get(const char *lang, const char *id);
/* id's text formatted with the arguments: the caller frees it. */
char *msg_fmt(const char *lang, const char *id, ...);
/* The display name of a node or agent ("创作专家", "The writer"); for a
 * node the catalogue does not name, the node's name itself. */
const char *msg_agent(const char *lang, const char *node);
/* The same for a node of a workflow: its "agent.<workflow>.<node>" first
 * (two workflows may name a node alike), then "agent.<node>". */
const char *msg_agent_in(const char *lang, const char *workflow, const char *node);
/* The message of an error event for a machine code: the catalogue's
 * "error.<code>", else the generic one. */
const char *msg_error(const char *lang, const char *code);

/* Adds a catalogue of n rows (borrowed: a static table), as a workflow
 * does when it is registered; lookups then find its ids too. 0, or -1
 * (nothing added) when one of its ids is already in the catalogue or
 * twice in it, a row lacks a text, or too many catalogues are added. */
int msg_catalogue_add(const struct msg_def *defs, size_t n);
/* The i-th catalogue and its number of rows in *n: 0 is the engine's own
 * words, then the added ones in order; NULL past the last. For tests. */
const struct msg_def *msg_catalogue(size_t i, size_t *n);

/* The language of a new thread: lang when given, else the language of the
 * user's text when it has letters (Han or Latin; emoji and digits alone
 * say nothing), else the first zh or en of an Accept-Language value with
 * q > 0, else "zh". lang must have passed msg_lang_ok (or be NULL). */
const char *msg_thread_lang(const char *lang, const char *text, const char *accept_language);
/* "zh", "en" or NULL: the preferred of the two in an Accept-Language
 * value (the highest q above 0; the first listed on a tie). */
const char *msg_accept_lang(const char *header);

#endif
