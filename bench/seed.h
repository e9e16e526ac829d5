/* Many paused threads stored quickly, for the scale benchmark: one thread
 * run by the engine to its pause is the template; its records (the thread
 * record, every checkpoint, every durable event) are read back through the
 * store interface and written again under new thread IDs, the template's
 * ID replaced by the copy's wherever its text appears, many copies per
 * transaction. Each copy holds what the engine would have stored for it,
 * so confirming one runs it on as it would the template. */
#ifndef AV_BENCH_SEED_H
#define AV_BENCH_SEED_H
#include <jansson.h>
#include "app.h"
#include "engine/tid.h"

struct seed_tpl {
	char tid[TID_LEN + 1];  /* the template's ID */
	char *rec;              /* its thread record (JSON text, without the expiry it had) */
	json_t *ckpts;          /* [meta text, state text] per step from 0, oldest first (new) */
	json_t *events;         /* [seq, JSON text] per durable event (new) */
};

/* Reads the records of the thread tid (a paused thread) into t. 0 or -1. */
int seed_load(struct app *app, const char *tid, struct seed_tpl *t);
/* Stores n copies of t, batch of them per transaction; ids[i] gets the
 * i-th copy's ID (ids holds n IDs of TID_LEN + 1). 0 or -1. */
int seed_copy(struct app *app, const struct seed_tpl *t, int n, int batch, char (*ids)[TID_LEN + 1]);
void seed_free(struct seed_tpl *t);

#endif
