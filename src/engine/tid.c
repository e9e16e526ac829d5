/* Signed thread IDs (see tid.h). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "engine/tid.h"
#include "util/log.h"

#define TID_DOMAIN "aivista thread id\n"
#define TID_B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING

static void tid_tag(const unsigned char *key, const uint8_t raw[TID_RAW],
		    unsigned char tag[crypto_auth_BYTES])
{
	unsigned char msg[sizeof TID_DOMAIN - 1 + 3 + TID_RAW];

	memcpy(msg, TID_DOMAIN, sizeof TID_DOMAIN - 1);
	memcpy(msg + sizeof TID_DOMAIN - 1, "v1.", 3);
	memcpy(msg + sizeof TID_DOMAIN - 1 + 3, raw, TID_RAW);
	crypto_auth(tag, msg, sizeof msg, key);
}

void tid_format(const struct tid_keys *k, const uint8_t raw[TID_RAW], char out[TID_LEN + 1])
{
	unsigned char tag[crypto_auth_BYTES];

	tid_tag(k->key[0], raw, tag);
	memcpy(out, "v1.", 3);
	sodium_bin2base64(out + 3, 23, raw, TID_RAW, TID_B64);
	out[25] = '.';
	sodium_bin2base64(out + 26, 44, tag, sizeof tag, TID_B64);
}

void tid_new(const struct tid_keys *k, char out[TID_LEN + 1], uint8_t raw[TID_RAW])
{
	randombytes_buf(raw, TID_RAW);
	tid_format(k, raw, out);
}

/* Decodes exactly want bytes from exactly len base64url chars, and only
 * from the canonical spelling (unused low bits zero), so one ID has one
 * spelling. */
static int tid_decode(const char *s, size_t len, unsigned char *out, size_t want)
{
	char again[64];
	size_t got = 0;

	if (sodium_base642bin(out, want, s, len, NULL, &got, NULL, TID_B64) != 0 || got != want)
		return -1;
	sodium_bin2base64(again, sizeof again, out, want, TID_B64);
	return strlen(again) == len && memcmp(again, s, len) == 0 ? 0 : -1;
}

int tid_verify(const struct tid_keys *k, const char *s, uint8_t raw[TID_RAW])
{
	unsigned char tag[crypto_auth_BYTES], msg[sizeof TID_DOMAIN - 1 + 3 + TID_RAW];
	int good = 0;

	if (s == NULL || strnlen(s, TID_LEN + 1) != TID_LEN || memcmp(s, "v1.", 3) != 0 || s[25] != '.')
		return -1;
	if (tid_decode(s + 3, 22, raw, TID_RAW) < 0 || tid_decode(s + 26, 43, tag, sizeof tag) < 0)
		return -1;
	memcpy(msg, TID_DOMAIN, sizeof TID_DOMAIN - 1);
	memcpy(msg + sizeof TID_DOMAIN - 1, "v1.", 3);
	memcpy(msg + sizeof TID_DOMAIN - 1 + 3, raw, TID_RAW);
	/* Every key is tried, whichever matches, so the time does not say which. */
	for (int i = 0; i < k->n; i++)
		good |= crypto_auth_verify(tag, msg, sizeof msg, k->key[i]) == 0;
	return good ? 0 : -1;
}

/* The new name must survive a crash too: a lost key file would orphan
 * every thread ID signed with it. */
static void tid_sync_dir(const char *path)
{
	char dir[4096];
	char *slash;
	int fd;

	snprintf(dir, sizeof dir, "%s", path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

void tid_key_line_new(char line[TID_KEY_LINE])
{
	unsigned char key[crypto_auth_KEYBYTES];

	crypto_auth_keygen(key);
	sodium_bin2base64(line, TID_KEY_LINE, key, sizeof key, TID_B64);
	sodium_memzero(key, sizeof key);
	strcat(line, "\n");
}

/* Writes text to the new file tmp, synced. 0, or -1 with err filled (and
 * no file left). */
static int tid_keys_write_tmp(const char *tmp, const char *text, char *err, size_t errlen)
{
	size_t n = strlen(text);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, TID_KEY_MODE);

	if (fd < 0) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		return -1;
	}
	if (write(fd, text, n) != (ssize_t)n || fsync(fd) < 0) {
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(errno));
		close(fd);
		unlink(tmp);
		return -1;
	}
	close(fd);
	return 0;
}

int tid_keys_write(const char *path, const char *text, int replace, char *err, size_t errlen)
{
	char tmp[4200];
	int rc = 0;

	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
	if (tid_keys_write_tmp(tmp, text, err, errlen) < 0)
		return -1;
	if (replace && rename(tmp, path) < 0) {
		snprintf(err, errlen, "cannot replace %s: %s", path, strerror(errno));
		rc = -1;
	} else if (!replace && link(tmp, path) < 0) {
		/* link() does not replace: a key file that appeared meanwhile wins. */
		rc = errno == EEXIST ? 1 : -1;
		if (rc < 0)
			snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
	}
	if (rc != 0 || !replace)
		unlink(tmp);
	if (rc == 0)
		tid_sync_dir(path);
	return rc;
}

int tid_keys_create(const char *path, char *err, size_t errlen)
{
	char line[TID_KEY_LINE];
	int rc;

	tid_key_line_new(line);
	rc = tid_keys_write(path, line, 0, err, errlen);
	sodium_memzero(line, sizeof line);
	return rc;
}

static int tid_keys_parse(struct tid_keys *k, FILE *f, const char *path, char *err, size_t errlen)
{
	char line[256];
	int lineno = 0;

	k->n = 0;
	while (fgets(line, sizeof line, f)) {
		size_t len = strcspn(line, "\r\n");
		size_t got = 0;

		lineno++;
		line[len] = '\0';
		if (len == 0 || line[0] == '#')
			continue;
		if (k->n == TID_MAX_KEYS ||
		    sodium_base642bin(k->key[k->n], crypto_auth_KEYBYTES, line, len, NULL, &got, NULL,
				      TID_B64) != 0 || got != crypto_auth_KEYBYTES) {
			snprintf(err, errlen, "%s:%d: not a key (base64url, %d bytes, at most %d keys)",
				 path, lineno, crypto_auth_KEYBYTES, TID_MAX_KEYS);
			sodium_memzero(line, sizeof line);
			return -1;
		}
		k->n++;
	}
	sodium_memzero(line, sizeof line);
	if (k->n == 0) {
		snprintf(err, errlen, "%s: holds no key", path);
		return -1;
	}
	return 0;
}

int tid_keys_load(struct tid_keys *k, const char *path, char *err, size_t errlen)
{
	struct stat st;
	FILE *f;
	int rc;

	if (access(path, F_OK) != 0 && tid_keys_create(path, err, errlen) < 0)
		return -1;
	f = fopen(path, "re");
	if (f == NULL) {
		snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fileno(f), &st) == 0 && (st.st_mode & 077))
		log_warn("%s is readable by others: chmod 600 it", path);
	rc = tid_keys_parse(k, f, path, err, errlen);
	fclose(f);
	return rc;
}
