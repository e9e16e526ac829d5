/* The vectors of retrieval (vectors.c; the rules are in retrieve.h).
 * Only src/kb/ includes this. */
#ifndef AV_KB_VECTORS_H
#define AV_KB_VECTORS_H
#include <stddef.h>
#include <jansson.h>
#include "kb/retrieve.h"

struct app;

/* Makes sure kb keeps the document vectors of its version and the
 * configured embeddings model: 0 with *src saying where they came from,
 * or -1 with why. */
int kb_vec_docs(struct app *app, struct kb *kb, enum kb_vec_source *src, char *why,
		size_t whylen);
/* The vector of query: new reference, *cached set when the store had it;
 * or NULL with why. */
json_t *kb_vec_query(struct app *app, const char *query, int *cached, char *why, size_t whylen);

#endif
