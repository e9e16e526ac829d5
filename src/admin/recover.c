/* aivista-admin recover [--fatal]: runs Berkeley DB recovery on the store
 * while no worker has it open (after a crash that left it needing
 * recovery, or with --fatal on a store restored from files). Workers clean
 * up after a dead peer themselves (failchk, or normal recovery when that
 * is not enough); this is for the cases they cannot handle. Afterwards the shared regions are
 * removed, so the next worker creates them with its own settings, and the
 * store is opened once as a worker would open it, to check it. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "admin/admin.h"
#include "store/backends.h"
#include "store/store.h"

static int admin_recover(struct admin *a, int argc, char **argv)
{
	const struct store_backend *b = store_backend_of(&a->conf);
	const char *dir = a->conf.store_dir;
	struct store *s;
	long pid = 0;
	char err[512];
	int fatal = 0, rc;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--fatal") == 0) {
			fatal = 1;
		} else {
			admin_error("usage: recover [--fatal]");
			return 2;
		}
	}
	/* After the usage: a wrong command line is 2 whatever the backend. */
	if (b && !(b->flags & STORE_CAN_RECOVER)) {
		admin_error("a %s store needs no recovery from aivista-admin: %s", b->name,
			    b->recover_how);
		return 1;
	}
	rc = admin_env_in_use(dir, &pid);
	if (rc > 0) {
		admin_error("process %ld has the store in %s open: stop the workers (the web server, "
			    "or the aivista units) first", pid, dir);
		return 1;
	}
	if (rc < 0) {
		admin_error("cannot tell whether a worker has %s open", dir);
		return 1;
	}
	rc = store_recover_dir(dir, fatal, err, sizeof err);
	if (rc) {
		admin_error("%s recovery of %s failed: %s", fatal ? "catastrophic" : "normal", dir,
			    err);
		return 1;
	}
	s = admin_store_open(a);
	if (s == NULL)
		return 1;
	store_close(s);
	printf("%s: %s recovery done; the store opens\n", dir, fatal ? "catastrophic" : "normal");
	return 0;
}

const struct admin_cmd admin_recover_entry = {
	.name = "recover",
	.args = "recover [--fatal]",
	.help = "run recovery on the store (no worker may have it open)",
	.run = admin_recover,
};
