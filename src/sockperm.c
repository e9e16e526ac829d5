/* The mode and group of the worker's unix socket (see sockperm.h). */
#include "config.h"
#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sockperm.h"

int sockperm_parse_mode(const char *s, mode_t *mode)
{
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtol(s, &end, 8);
	if (errno != 0 || *end != '\0' || v < 0 || v > 0777)
		return -1;
	*mode = (mode_t)v;
	return 0;
}

int sockperm_parse_group(const char *s, gid_t *gid)
{
	struct group *g;
	char *end;
	long v;

	if (s == NULL || *s == '\0')
		return -1;
	g = getgrnam(s);
	if (g) {
		*gid = g->gr_gid;
		return 0;
	}
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v < 0)
		return -1;
	*gid = (gid_t)v;
	return 0;
}

int sockperm_is_path(const char *addr)
{
	return addr != NULL && strchr(addr, ':') == NULL;
}

int sockperm_apply(const char *path, int mode_set, mode_t mode, int group_set, gid_t gid,
		   char *err, size_t errlen)
{
	if (group_set && chown(path, (uid_t)-1, gid) < 0) {
		snprintf(err, errlen, "cannot give %s to group %ld: %s", path, (long)gid,
			 strerror(errno));
		return -1;
	}
	if (mode_set && chmod(path, mode) < 0) {
		snprintf(err, errlen, "cannot set the mode of %s to %04o: %s", path,
			 (unsigned)mode, strerror(errno));
		return -1;
	}
	return 0;
}
