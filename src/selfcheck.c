/* The store directory as "aivista.fcgi -t" checks it (see selfcheck.h).
 *
 * The check runs as the user the workers would run as: run it as that
 * user (runuser -u www-data -- aivista.fcgi -t). Run as root it cannot
 * tell who the workers will be: it warns about a directory that is
 * missing (made by a worker run as root, it would be root's) or that root
 * owns, which only workers run as root could use. */
#include "config.h"
#include <errno.h>
#include <libgen.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "selfcheck.h"
#include "store/store.h"

/* The user's name, in getpwuid's buffer: one call per printf. */
static const char *selfcheck_user(uid_t uid)
{
	struct passwd *pw = getpwuid(uid);

	return pw ? pw->pw_name : "this user";
}

/* The directory does not exist: can this user create it? */
static int selfcheck_missing(const char *dir, FILE *out)
{
	char *copy = strdup(dir);
	const char *parent = copy ? dirname(copy) : ".";
	int ok = access(parent, W_OK | X_OK) == 0;

	if (geteuid() == 0 && ok)
		fprintf(out, "store: warning: %s does not exist: a worker run as root would make it "
			     "root's; create it (mode 0700) owned by the user the workers run as\n", dir);
	else if (ok)
		fprintf(out, "store: %s does not exist; the first worker creates it (mode 0700)\n",
			dir);
	else
		fprintf(out, "store: %s does not exist and %s cannot create it in %s: %s\n", dir,
			selfcheck_user(geteuid()), parent, strerror(errno));
	free(copy);
	return ok ? 0 : 1;
}

/* The store's format version: one this build opens, or what to do. */
static int selfcheck_version(const char *dir, FILE *out)
{
	char err[512];
	int v = store_version_check(dir, err, sizeof err);

	if (v < 0) {
		fprintf(out, "store: %s\n", err);
		return 1;
	}
	fprintf(out, "store: format version %d%s\n", v, v == STORE_VERSION ? "" :
		", read as it is and marked with this version's when a worker opens it");
	return 0;
}

int selfcheck_store(const struct conf *c, FILE *out)
{
	const char *dir = c->store_dir;
	struct stat st;

	if (dir == NULL || *dir == '\0') {
		fprintf(out, "store: [store] dir is not set\n");
		return 1;
	}
	if (stat(dir, &st) < 0)
		return errno == ENOENT ? selfcheck_missing(dir, out) :
			(fprintf(out, "store: %s: %s\n", dir, strerror(errno)), 1);
	if (!S_ISDIR(st.st_mode)) {
		fprintf(out, "store: %s is not a directory\n", dir);
		return 1;
	}
	if (selfcheck_version(dir, out) != 0)
		return 1;
	if (geteuid() == 0 && st.st_uid == 0) {
		fprintf(out, "store: warning: %s belongs to root: only workers run as root can use "
			     "it; give it to the user the workers run as (chown -R USER: %s)\n",
			dir, dir);
		return 0;
	}
	if (geteuid() == 0) {
		fprintf(out, "store: %s belongs to %s; run the check as that user to check it "
			     "fully\n", dir, selfcheck_user(st.st_uid));
		return 0;
	}
	if (access(dir, R_OK | W_OK | X_OK) < 0) {
		fprintf(out, "store: %s is not writable by %s", dir, selfcheck_user(geteuid()));
		fprintf(out, " (owner %s, mode %04o)\n", selfcheck_user(st.st_uid),
			(unsigned)(st.st_mode & 07777));
		return 1;
	}
	fprintf(out, "store: %s is writable by %s\n", dir, selfcheck_user(geteuid()));
	return 0;
}
