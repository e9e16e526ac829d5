/* The dictionaries stored records are packed with (pack.h). Each is
 * generated from etc/zdict/store-N.zdict by bench/zdict-train into
 * src/store/zdict_N.c; the newest packs, every one listed unpacks. Never
 * remove one: records packed with it would no longer read. */
#ifndef AV_STORE_ZDICT_H
#define AV_STORE_ZDICT_H
#include <stddef.h>

struct store_zdict {
	unsigned id;               /* the id written in every frame packed with it */
	const unsigned char *data;
	size_t len;
};

extern const struct store_zdict store_zdict_1;
/* Every dictionary this build reads, newest first; NULL-terminated. */
extern const struct store_zdict *const store_zdicts[];

#endif
