/* aivista-admin key create | rotate: the key file that signs thread IDs
 * (see engine/tid.h): one base64url key per line, the first signs, the
 * others still verify. Rotation puts a new key first and keeps the older
 * ones, so IDs already handed out stay valid; past TID_MAX_KEYS the oldest
 * go. The file is written as the workers write one (tid_keys_write: a
 * temporary file, fsync, link or rename, fsync of the directory), 0600
 * (0660 with [store] umask 0007). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>
#include "admin/admin.h"
#include "store/store.h"
#include "engine/tid.h"
#include "util/xmalloc.h"

#define KEY_B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

/* The process's umask, left as it was. */
static mode_t admin_key_umask(void)
{
	mode_t m = umask(0);

	umask(m);
	return m;
}

/* Still root here means the key's directory is missing or root's (main.c
 * becomes the owner of one that is not): the workers, never root, could
 * not use what is made in it. A missing one is refused, with what to do;
 * for one of root's (workers run by hand as root) a warning. 0 or 1. */
static int admin_key_as_root(const char *dir)
{
	struct stat st;

	if (geteuid() != 0)
		return 0;
	if (stat(dir, &st) < 0) {
		admin_error("%s does not exist, and made by root the workers could not use it: "
			    "create it for the user they run as (install -d -m 0700 -o www-data %s), "
			    "then run this again", dir, dir);
		return 1;
	}
	admin_error("warning: %s belongs to root: workers running as another user cannot use "
		    "it (chown -R USER: %s)", dir, dir);
	return 0;
}

static int admin_key_create(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	char err[4400];
	int rc;

	/* The key's directory (the store's, by default) is private. */
	if (slash && slash != dir) {
		*slash = '\0';
		if (admin_key_as_root(dir) != 0) {
			free(dir);
			return 1;
		}
		if (mkdir(dir, STORE_DIR_MODE) < 0 && errno != EEXIST) {
			admin_error("cannot create %s: %s", dir, strerror(errno));
			free(dir);
			return 1;
		}
	}
	free(dir);
	rc = tid_keys_create(path, err, sizeof err);
	if (rc < 0) {
		admin_error("%s", err);
		return 1;
	}
	if (rc > 0)
		printf("%s exists: left as it is (aivista-admin key rotate adds a key)\n", path);
	else
		printf("%s: created (mode %04o)\n", path, (unsigned)(TID_KEY_MODE & ~admin_key_umask()));
	return 0;
}

/* Reads the keys of path into lines (each checked); how many, or -1. */
static int admin_key_read(const char *path, char lines[TID_MAX_KEYS][TID_KEY_LINE])
{
	unsigned char key[crypto_auth_KEYBYTES];
	char buf[256];
	int n = 0, lineno = 0;
	FILE *f = fopen(path, "re");

	if (f == NULL) {
		admin_error("cannot read %s: %s%s", path, strerror(errno),
			    errno == ENOENT ? " (aivista-admin key create makes one)" : "");
		return -1;
	}
	while (fgets(buf, sizeof buf, f)) {
		size_t len = strcspn(buf, "\r\n"), got = 0;

		lineno++;
		buf[len] = '\0';
		if (len == 0 || buf[0] == '#')
			continue;
		if (len + 2 > TID_KEY_LINE ||
		    sodium_base642bin(key, sizeof key, buf, len, NULL, &got, NULL, KEY_B64) != 0 ||
		    got != sizeof key) {
			admin_error("%s:%d: not a key; the file is left as it is", path, lineno);
			n = -1;
			break;
		}
		/* The oldest keys beyond the limit are dropped. */
		if (n < TID_MAX_KEYS) {
			memcpy(lines[n], buf, len);
			memcpy(lines[n] + len, "\n", 2);
			n++;
		}
	}
	sodium_memzero(buf, sizeof buf);
	sodium_memzero(key, sizeof key);
	fclose(f);
	if (n == 0) {
		admin_error("%s holds no key; the file is left as it is", path);
		return -1;
	}
	return n;
}

static int admin_key_rotate(const char *path)
{
	char lines[TID_MAX_KEYS][TID_KEY_LINE], text[TID_MAX_KEYS * TID_KEY_LINE], err[4400];
	int n = admin_key_read(path, lines), kept, rc;

	if (n < 0)
		return 1;
	kept = n < TID_MAX_KEYS ? n : TID_MAX_KEYS - 1;
	tid_key_line_new(text);
	for (int i = 0; i < kept; i++)
		strcat(text, lines[i]);
	rc = tid_keys_write(path, text, 1, err, sizeof err);
	sodium_memzero(lines, sizeof lines);
	sodium_memzero(text, sizeof text);
	if (rc < 0) {
		admin_error("%s", err);
		return 1;
	}
	printf("%s: a new key signs from now on; %d older key%s still verif%s%s.\n"
	       "Restart the workers so that they read it.\n", path, kept, kept == 1 ? "" : "s",
	       kept == 1 ? "ies" : "y", n > kept ? " (the oldest was dropped)" : "");
	return 0;
}

static int admin_key(struct admin *a, int argc, char **argv)
{
	if (argc != 2) {
		admin_error("usage: key create | key rotate");
		return 2;
	}
	if (strcmp(argv[1], "create") == 0)
		return admin_key_create(a->conf.key_file);
	if (strcmp(argv[1], "rotate") == 0)
		return admin_key_rotate(a->conf.key_file);
	admin_error("usage: key create | key rotate");
	return 2;
}

const struct admin_cmd admin_key_entry = {
	.name = "key",
	.args = "key create|rotate",
	.help = "create the thread-ID key file, or put a new key first in it",
	.key_owner = 1,
	.run = admin_key,
};
