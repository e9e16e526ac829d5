/* aivista-admin upgrade: brings the store to this version's format after
 * the workers were upgraded. A store of a version this build reads as it
 * is (STORE_VERSION_OLDEST and later) only needs marking, which opening
 * it does; a newer store is refused and left alone. Safe while workers
 * run. */
#include "config.h"
#include <stdio.h>
#include "admin/admin.h"
#include "store/store.h"

static int admin_upgrade(struct admin *a, int argc, char **argv)
{
	char err[512];
	struct store *s;
	int was;

	(void)argv;
	if (argc != 1) {
		admin_error("usage: upgrade");
		return 2;
	}
	was = store_version_check(a->conf.store_dir, err, sizeof err);
	if (was < 0) {
		admin_error("%s", err);
		return 1;
	}
	s = admin_store_open(a);
	if (s == NULL)
		return 1;
	store_close(s);
	if (was == STORE_VERSION)
		printf("%s: format version %d, this version's: nothing to do\n", a->conf.store_dir,
		       was);
	else
		printf("%s: format version %d, now %d (its records are read as they are)\n",
		       a->conf.store_dir, was, STORE_VERSION);
	return 0;
}

const struct admin_cmd admin_upgrade_entry = {
	.name = "upgrade",
	.args = "upgrade",
	.help = "bring the store to this version's format (refuses a newer one)",
	.run = admin_upgrade,
};
