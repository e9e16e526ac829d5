/* The last thread record a process wrote, kept with its text: a step
 * reads the record it wrote one step before, and when the stored bytes
 * are those, a copy of the JSON saves parsing them again. The bytes are
 * compared, so a write that was rolled back, or another process's, is
 * parsed as usual. Knows nothing of the store: threads.c keeps one in
 * struct store, store_close frees it. */
#ifndef AV_STORE_REC_CACHE_H
#define AV_STORE_REC_CACHE_H
#include <stddef.h>
#include <jansson.h>

struct store_rec_cache;

/* The record rec (a new reference is taken: the caller no longer changes
 * it) whose stored text is text (taken) under key (copied, klen bytes).
 * NULL when out of memory (text is freed). */
struct store_rec_cache *store_rec_cache_new(const void *key, size_t klen, char *text,
					    json_t *rec);
/* NULL does nothing. */
void store_rec_cache_free(struct store_rec_cache *c);
/* New reference: a copy of the record when c holds key and its text is
 * the vlen bytes v, else NULL (c may be NULL). */
json_t *store_rec_cache_match(const struct store_rec_cache *c, const void *key, size_t klen,
			      const void *v, size_t vlen);

#endif
