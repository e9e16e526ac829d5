/* What a worker process holds for its whole life: the configuration and
 * the open store. Requests borrow it. It stands below the engine and the
 * knowledge bases, and knows their parts only by name. */
#ifndef AV_APP_H
#define AV_APP_H
#include "conf/conf.h"

struct store;
struct prov;
struct tid_keys;
struct kb_shelf;

/* What clients are told when the store cannot be opened; the reason
 * (store_err, which names the directory) is for the log only. */
#define APP_STORE_DOWN "the store is not available (the worker's log says why)"
/* The problem for a store that could not be opened: store_too_new when
 * it was written by a newer version, else store_unavailable. */
#define APP_STORE_PROBLEM(app) ((app)->store_too_new ? PB_STORE_TOO_NEW : PB_STORE_UNAVAILABLE)

struct app {
	struct conf conf;
	struct store *store;     /* NULL when the store could not be opened */
	char store_err[256];     /* why, for the log only: it names the directory */
	int store_too_new;       /* the store's format is newer than this worker's */
	struct tid_keys *keys;   /* thread ID keys (engine/tid.h), loaded with the store */
	struct prov *prov;       /* the model providers, from the configuration */
	long long start_ms;
	int fatal;               /* the store needs recovery: exit after this request */
	struct kb_shelf *kbs;    /* the knowledge bases, loaded on first use (kb/shelf.h):
				  * made by kb_shelf_get, freed by kb_shelf_free */
};

#endif
