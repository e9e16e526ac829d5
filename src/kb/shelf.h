/* The knowledge bases a worker keeps (the style library, the notes
 * corpus, and any registry read from a JSON file of documents): each is
 * described once (struct kb_def), loaded the same way on first use, kept
 * for the life of the process, and, when its file is broken, logged once
 * and tried again a few seconds later rather than on every request. */
#ifndef AV_KB_SHELF_H
#define AV_KB_SHELF_H
#include <stddef.h>
#include <jansson.h>
#include "kb/kb.h"

struct app;
struct conf;

struct kb_def {
	const char *name;      /* what the log and errors call it: "style library" */
	const char *file;      /* the file in the data directory when not configured */
	/* The configured path ([kb] ...), or NULL/"" for the default. */
	const char *(*path)(const struct conf *c);
	const struct kb_field *fields;
	/* Checks beyond the fields (dates, numbers): 0, or -1 with err. May
	 * be NULL. */
	int (*check)(const json_t *docs, char *err, size_t errlen);
};

/* Where a worker keeps what it loaded: one slot per definition. */
#define KB_SHELF_MAX 8
struct kb_shelf {
	struct kb_shelf_slot {
		const struct kb_def *def;
		struct kb *kb;
		long long retry_ms;  /* a broken file is tried again after this */
	} slot[KB_SHELF_MAX];
};

/* Loads and checks def's file for configuration c. New kb, or NULL with
 * err naming the file and the entry at fault ("path: " and the check's
 * message when the check refuses it). */
struct kb *kb_def_load(const struct kb_def *def, const struct conf *c, char *err,
		       size_t errlen);
/* The worker's copy of def's knowledge base, loaded on first use (the
 * shelf, app->kbs, is made on the first). NULL when it cannot be loaded:
 * the reason is logged, err says only that it is unavailable (it would
 * name a file). */
struct kb *kb_shelf_get(struct app *app, const struct kb_def *def, char *err, size_t errlen);
/* Frees the shelf and what it holds; NULL does nothing. */
void kb_shelf_free(struct kb_shelf *s);

#endif
