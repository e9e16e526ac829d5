/* The store's format version (see store.h): the file "store.version" in
 * the store directory, one decimal number and a newline. A store without
 * it is version 1 (made before versions were recorded); its records are
 * those of version 2, so opening marks it 2 as it is. */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/store.h"

static void store_version_path(const char *dir, char *out, size_t len)
{
	snprintf(out, len, "%s/%s", dir, STORE_VERSION_FILE);
}

int store_version_parse(const char *text)
{
	char *end;
	long v;

	if (text == NULL || *text < '1' || *text > '9')
		return -1;
	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || v < 1 || v > 1000000 || (*end != '\0' && strcmp(end, "\n") != 0))
		return -1;
	return (int)v;
}

int store_version_read(const char *dir, char *err, size_t errlen)
{
	char path[4096], text[32];
	size_t n;
	FILE *f;
	int v;

	store_version_path(dir, path, sizeof path);
	f = fopen(path, "re");
	if (f == NULL) {
		if (errno == ENOENT)
			return 1;
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	v = store_version_parse(text);
	if (v < 0)
		snprintf(err, errlen, "%s does not hold a store version", path);
	return v;
}

int store_version_write(const char *dir, int version, char *err, size_t errlen)
{
	char path[4096], tmp[4200], text[32];
	int fd, n = snprintf(text, sizeof text, "%d\n", version), rc = 0;

	store_version_path(dir, path, sizeof path);
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, STORE_FILE_MODE);
	if (fd < 0 || write(fd, text, (size_t)n) != n || fsync(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0 && rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc < 0)
		unlink(tmp);
	return rc;
}

enum store_compat store_version_compat(int version)
{
	if (version < 1)
		return STORE_COMPAT_BAD;
	if (version > STORE_VERSION)
		return STORE_COMPAT_NEWER;
	if (version < STORE_VERSION_OLDEST)
		return STORE_COMPAT_UPGRADE;
	return version == STORE_VERSION ? STORE_COMPAT_SAME : STORE_COMPAT_MARK;
}

int store_version_check(const char *dir, char *err, size_t errlen)
{
	int v = store_version_read(dir, err, errlen);

	switch (store_version_compat(v)) {
	case STORE_COMPAT_SAME:
	case STORE_COMPAT_MARK:
		return v;
	case STORE_COMPAT_NEWER:
		snprintf(err, errlen, "the store in %s is version %d, newer than this AiVista knows "
			 "(%d): upgrade the workers, or restore the backup made before the upgrade",
			 dir, v, STORE_VERSION);
		return -1;
	case STORE_COMPAT_UPGRADE:
		snprintf(err, errlen, "the store in %s is version %d, older than this AiVista reads "
			 "as it is: run aivista-admin upgrade", dir, v);
		return -1;
	case STORE_COMPAT_BAD:
		break;
	}
	return -1;
}
