/* The last thread record a process wrote, with its text (rec_cache.h). */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "store/rec_cache.h"

struct store_rec_cache {
	char *text;
	size_t len;
	json_t *rec;
	size_t klen;
	uint8_t key[];
};

struct store_rec_cache *store_rec_cache_new(const void *key, size_t klen, char *text,
					    json_t *rec)
{
	struct store_rec_cache *c = calloc(1, sizeof *c + klen);

	if (c == NULL) {
		free(text);
		return NULL;
	}
	c->rec = json_incref(rec);
	memcpy(c->key, key, klen);
	c->klen = klen;
	c->text = text;
	c->len = strlen(text);
	return c;
}

void store_rec_cache_free(struct store_rec_cache *c)
{
	if (c == NULL)
		return;
	free(c->text);
	json_decref(c->rec);
	free(c);
}

json_t *store_rec_cache_match(const struct store_rec_cache *c, const void *key, size_t klen,
			      const void *v, size_t vlen)
{
	if (c && c->klen == klen && c->len == vlen && memcmp(c->key, key, klen) == 0 &&
	    memcmp(c->text, v, vlen) == 0)
		return json_deep_copy(c->rec);
	return NULL;
}
