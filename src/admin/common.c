/* What the admin commands share: messages, opening the store, and
 * telling whether a worker has it open. Apart from main.c so that every
 * command file links without the program's entry point. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "admin/admin.h"
#include "store/store.h"

void admin_error(const char *fmt, ...)
{
	va_list ap;

	fputs("aivista-admin: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

struct store *admin_store_open(struct admin *a)
{
	char err[512];
	struct stat st;
	struct store *s;

	/* A command never creates a store: a wrong path would go unnoticed. */
	if (stat(a->conf.store_dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
		admin_error("no store in %s ([store] dir of %s)", a->conf.store_dir,
			    a->conf.path ? a->conf.path : "the built-in defaults");
		return NULL;
	}
	s = store_open(&a->conf, err, sizeof err);
	if (s == NULL)
		admin_error("%s", err);
	return s;
}

/* With DB_REGISTER every process that has the environment open holds an
 * fcntl lock on its slot of __db.register: any lock there is a live
 * process. */
int admin_env_in_use(const char *dir, long *pid)
{
	return store_env_in_use(dir, pid);
}

int admin_mkdirs(const char *path, uid_t uid, gid_t gid)
{
	char buf[4096];
	size_t n = strlen(path);

	if (n == 0 || n >= sizeof buf) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, n + 1);
	for (char *p = buf + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;

		*p = '\0';
		if (mkdir(buf, 0700) == 0) {
			if (uid != (uid_t)-1 && chown(buf, uid, gid) < 0)
				return -1;
		} else if (errno != EEXIST) {
			return -1;
		}
		*p = c;
		if (c == '\0')
			break;
	}
	return 0;
}
