/* What a worker process holds for its whole life: the configuration and
 * the open store. Requests borrow it. */
#ifndef AV_APP_H
#define AV_APP_H
#include "conf/conf.h"
#include "graph/tid.h"

struct store;
struct kb;
struct prov;

struct app {
	struct conf conf;
	struct store *store;     /* NULL when the store could not be opened */
	char store_err[256];     /* why, for /api/health */
	struct tid_keys keys;    /* thread ID keys, loaded with the store */
	struct prov *prov;       /* the model providers, from the configuration */
	long long start_ms;
	int fatal;               /* the store needs recovery: exit after this request */
	struct kb *styles;       /* the style library, loaded on first use (kb_styles) */
	long long styles_retry_ms; /* a broken library is tried again after this */
};

#endif
