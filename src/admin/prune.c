/* aivista-admin prune: removes now every thread whose time is up (the
 * workers do the same a few threads at a time after their requests), and
 * expired cache entries. Safe while workers run. */
#include "config.h"
#include <stdio.h>
#include "admin/admin.h"
#include "store/store.h"
#include "util/clock.h"

#define ADMIN_PRUNE_BATCH 100

static int admin_prune(struct admin *a, int argc, char **argv)
{
	struct store *s;
	long long threads = 0, cache = 0;
	int n;

	if (argc != 1) {
		admin_error("usage: prune");
		return 2;
	}
	s = admin_store_open(a);
	if (s == NULL)
		return 1;
	do {
		n = store_prune(s, clock_wall_ms(), ADMIN_PRUNE_BATCH);
		if (n > 0)
			threads += n;
	} while (n == ADMIN_PRUNE_BATCH);
	if (n >= 0) {
		int c, rounds = 0;

		/* The cache is pruned a window at a time, from random places. */
		do {
			c = store_cache_prune(s, ADMIN_PRUNE_BATCH);
			if (c > 0)
				cache += c;
		} while (c > 0 && ++rounds < 1000);
		if (c < 0)
			n = -1;
	}
	store_maintain(s);
	store_close(s);
	if (n < 0) {
		admin_error("pruning failed after %lld threads; see the messages above", threads);
		return 1;
	}
	printf("pruned %lld expired thread%s and %lld cache entr%s\n", threads,
	       threads == 1 ? "" : "s", cache, cache == 1 ? "y" : "ies");
	return 0;
}

const struct admin_cmd admin_prune_entry = {
	.name = "prune",
	.args = "prune",
	.help = "remove now the threads whose time is up (safe while workers run)",
	.run = admin_prune,
};
