/* Signed thread IDs: a fresh ID verifies to its random part, and every way
 * of spelling something else (tampered, re-padded, another alphabet, a
 * non-canonical base64 spelling, another key) is refused. The key file:
 * created private when missing, read back the same, rotation through
 * older lines, malformed files named with file:line, and many workers
 * creating it at once agreeing on one key. */
#include "config.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tap.h"
#include "engine/tid.h"

#define TID_B64 sodium_base64_VARIANT_URLSAFE_NO_PADDING
#define TID_FORKS 20

static char tid_dir[64];

static void tid_bail(const char *what)
{
	printf("Bail out! %s: %s\n", what, strerror(errno));
	exit(99);
}

static char *tid_path(const char *name)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];

	snprintf(p, sizeof path[0], "%s/%s", tid_dir, name);
	return p;
}

static void tid_write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f == NULL || fputs(text, f) == EOF || fclose(f) != 0 || chmod(path, 0600) != 0)
		tid_bail(path);
}

static void tid_load_or_bail(struct tid_keys *k, const char *path)
{
	char err[512];

	if (tid_keys_load(k, path, err, sizeof err) != 0) {
		printf("Bail out! %s\n", err);
		exit(99);
	}
}

/* The base64url line for a key (what a key file holds). */
static void tid_key_line(const unsigned char key[crypto_auth_KEYBYTES], char *out, size_t outlen)
{
	sodium_bin2base64(out, outlen, key, crypto_auth_KEYBYTES, TID_B64);
}

/* --- refused spellings: each case turns a good ID into something else ------ */

enum tid_edit {
	TE_FLIP,        /* change the character at pos to another base64url one */
	TE_TRUNCATE,    /* drop the last character */
	TE_APPEND,      /* append text */
	TE_PREPEND,     /* prepend text */
	TE_INSERT,      /* insert text at pos */
	TE_REPLACE,     /* replace the characters at pos with text (same length) */
	TE_NONCANON,    /* set unused low bits in the last character of the part ending at pos */
	TE_LITERAL,     /* text itself, not derived from the ID */
	TE_LONG,        /* 10,000 characters: the ID, then 'A's */
	TE_NULL,        /* a NULL pointer */
};

struct tid_bad {
	const char *name;
	enum tid_edit edit;
	int pos;
	const char *text;
	int unused_bits;   /* TE_NONCANON: how many low bits the last character leaves unused */
};

static const struct tid_bad tid_bad_cases[] = {
	{ "tag: first character", TE_FLIP, 26, NULL, 0 },
	{ "tag: character 10", TE_FLIP, 36, NULL, 0 },
	{ "tag: character 30", TE_FLIP, 56, NULL, 0 },
	{ "tag: last character", TE_FLIP, 68, NULL, 0 },
	{ "random part: first character", TE_FLIP, 3, NULL, 0 },
	{ "random part: middle character", TE_FLIP, 14, NULL, 0 },
	{ "random part: last character", TE_FLIP, 24, NULL, 0 },
	{ "version: 'v' changed", TE_REPLACE, 0, "w", 0 },
	{ "wrong version v2.", TE_REPLACE, 0, "v2.", 0 },
	{ "upper-case V1.", TE_REPLACE, 0, "V1.", 0 },
	{ "first dot missing (same length)", TE_REPLACE, 2, "A", 0 },
	{ "second dot missing (same length)", TE_REPLACE, 25, "A", 0 },
	{ "first dot replaced by '-'", TE_REPLACE, 2, "-", 0 },
	{ "second dot replaced by '_'", TE_REPLACE, 25, "_", 0 },
	{ "truncated by one", TE_TRUNCATE, 0, NULL, 0 },
	{ "extended by one", TE_APPEND, 0, "A", 0 },
	{ "tag re-padded with '='", TE_APPEND, 0, "=", 0 },
	{ "tag re-padded with '=='", TE_APPEND, 0, "==", 0 },
	{ "random part re-padded with '=='", TE_INSERT, 25, "==", 0 },
	{ "random part re-padded with '='", TE_INSERT, 25, "=", 0 },
	{ "last tag character replaced by '='", TE_REPLACE, 68, "=", 0 },
	{ "trailing newline", TE_APPEND, 0, "\n", 0 },
	{ "trailing space", TE_APPEND, 0, " ", 0 },
	{ "trailing query junk", TE_APPEND, 0, "&x=1", 0 },
	{ "leading space", TE_PREPEND, 0, " ", 0 },
	{ "leading slash", TE_PREPEND, 0, "/", 0 },
	{ "space inside the random part", TE_REPLACE, 10, " ", 0 },
	{ "non-canonical random part (last char)", TE_NONCANON, 24, NULL, 4 },
	{ "non-canonical tag (last char)", TE_NONCANON, 68, NULL, 2 },
	{ "empty string", TE_LITERAL, 0, "", 0 },
	{ "only the version", TE_LITERAL, 0, "v1.", 0 },
	{ "dots only", TE_LITERAL, 0, "v1..", 0 },
	{ "69 dots", TE_LITERAL, 0,
	  ".....................................................................", 0 },
	{ "10,000 characters", TE_LONG, 0, NULL, 0 },
	{ "NULL", TE_NULL, 0, NULL, 0 },
};

static const char tid_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static int tid_b64_value(char c)
{
	const char *p = strchr(tid_alphabet, c);

	return p && c ? (int)(p - tid_alphabet) : -1;
}

/* malloc'd candidate, or NULL for TE_NULL. */
static char *tid_bad_make(const struct tid_bad *b, const char *id)
{
	size_t idlen = strlen(id), tlen = b->text ? strlen(b->text) : 0;
	char *out = calloc(1, idlen + tlen + 10001);
	int v;

	if (out == NULL)
		tid_bail("calloc");
	switch (b->edit) {
	case TE_FLIP:
		memcpy(out, id, idlen);
		v = tid_b64_value(out[b->pos]);
		out[b->pos] = tid_alphabet[(v + 1) % 64];
		break;
	case TE_TRUNCATE:
		memcpy(out, id, idlen - 1);
		break;
	case TE_APPEND:
		snprintf(out, idlen + tlen + 1, "%s%s", id, b->text);
		break;
	case TE_PREPEND:
		snprintf(out, idlen + tlen + 1, "%s%s", b->text, id);
		break;
	case TE_INSERT:
		snprintf(out, idlen + tlen + 1, "%.*s%s%s", b->pos, id, b->text, id + b->pos);
		break;
	case TE_REPLACE:
		memcpy(out, id, idlen);
		memcpy(out + b->pos, b->text, tlen);
		break;
	case TE_NONCANON:
		/* Same decoded bytes (and so a valid tag over them), other spelling. */
		memcpy(out, id, idlen);
		v = tid_b64_value(out[b->pos]);
		out[b->pos] = tid_alphabet[v | 1];
		break;
	case TE_LITERAL:
		memcpy(out, b->text, tlen);
		break;
	case TE_LONG:
		memcpy(out, id, idlen);
		memset(out + idlen, 'A', 10000 - idlen);
		break;
	case TE_NULL:
		free(out);
		return NULL;
	}
	return out;
}

/* An ID whose canonical last character of the part ending at pos has its
 * unused low bits clear (always so for tid_format's output): the case
 * needs them clear so that setting one is a change. */
static int tid_noncanon_applies(const char *id, int pos, int unused_bits)
{
	return (tid_b64_value(id[pos]) & ((1 << unused_bits) - 1)) == 0;
}

static void tid_test_refused(const struct tid_keys *k)
{
	char id[TID_LEN + 1];
	uint8_t raw[TID_RAW], got[TID_RAW];

	tid_new(k, id, raw);
	ok(tid_verify(k, id, got) == 0 && memcmp(raw, got, TID_RAW) == 0,
	   "control: the ID the bad spellings derive from verifies");
	for (size_t i = 0; i < sizeof tid_bad_cases / sizeof tid_bad_cases[0]; i++) {
		const struct tid_bad *b = &tid_bad_cases[i];
		char *cand = tid_bad_make(b, id);
		int differs = cand == NULL || strcmp(cand, id) != 0;

		if (b->edit == TE_NONCANON && !tid_noncanon_applies(id, b->pos, b->unused_bits))
			differs = 0;
		ok(differs && tid_verify(k, cand, got) == -1, "refused: %s", b->name);
		free(cand);
	}
}

/* --- good IDs ------------------------------------------------------------ */

static int tid_is_b64url(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (tid_b64_value(s[i]) < 0)
			return 0;
	return 1;
}

static void tid_test_fresh(const struct tid_keys *k)
{
	int bad_shape = 0, bad_verify = 0, bad_raw = 0, bad_format = 0, dup = 0;
	char prev[TID_LEN + 1] = "";

	for (int i = 0; i < 1000; i++) {
		char id[TID_LEN + 1], again[TID_LEN + 1];
		uint8_t raw[TID_RAW], got[TID_RAW];

		memset(id, '#', sizeof id);
		tid_new(k, id, raw);
		if (strlen(id) != TID_LEN || memcmp(id, "v1.", 3) != 0 || id[25] != '.' ||
		    !tid_is_b64url(id + 3, 22) || !tid_is_b64url(id + 26, 43))
			bad_shape++;
		if (tid_verify(k, id, got) != 0)
			bad_verify++;
		else if (memcmp(raw, got, TID_RAW) != 0)
			bad_raw++;
		tid_format(k, raw, again);
		if (strcmp(again, id) != 0)
			bad_format++;
		if (strcmp(prev, id) == 0)
			dup++;
		memcpy(prev, id, sizeof prev);
	}
	is_int(TID_LEN, 69, "an ID is 69 characters");
	is_int(bad_shape, 0, "1000 fresh IDs: v1.<22 base64url>.<43 base64url>, NUL-ended");
	is_int(bad_verify, 0, "1000 fresh IDs verify");
	is_int(bad_raw, 0, "verify returns the random part tid_new made");
	is_int(bad_format, 0, "tid_format(raw) reproduces the ID");
	is_int(dup, 0, "consecutive IDs differ");
}

/* An ID spelled with the standard alphabet ('+' '/' for '-' '_') carries the
 * same bytes: it must still be refused. */
static void tid_test_std_alphabet(const struct tid_keys *k)
{
	char id[TID_LEN + 1];
	uint8_t raw[TID_RAW], got[TID_RAW];
	int tries = 0;

	do
		tid_new(k, id, raw);
	while (strpbrk(id + 3, "-_") == NULL && ++tries < 10000);
	if (strpbrk(id + 3, "-_") == NULL) {
		ok(0, "an ID with '-' or '_' turned up");
		return;
	}
	for (char *p = id + 3; *p; p++)
		*p = *p == '-' ? '+' : *p == '_' ? '/' : *p;
	is_int(tid_verify(k, id, got), -1, "refused: standard-alphabet spelling ('+' '/')");
}

/* --- keys: another key, rotation ----------------------------------------- */

static void tid_test_rotation(void)
{
	struct tid_keys old_k, new_k, other, both;
	char old_id[TID_LEN + 1], new_id[TID_LEN + 1], other_id[TID_LEN + 1];
	char both_fmt[TID_LEN + 1], new_fmt[TID_LEN + 1];
	char line_old[64], line_new[64], text[256];
	uint8_t old_raw[TID_RAW], new_raw[TID_RAW], other_raw[TID_RAW], got[TID_RAW];

	tid_load_or_bail(&old_k, tid_path("old.key"));
	tid_load_or_bail(&other, tid_path("other.key"));
	tid_load_or_bail(&new_k, tid_path("new.key"));
	ok(memcmp(old_k.key[0], new_k.key[0], crypto_auth_KEYBYTES) != 0, "two created files hold different keys");
	tid_new(&old_k, old_id, old_raw);
	is_int(tid_verify(&new_k, old_id, got), -1, "refused: an ID signed with another key");

	tid_key_line(new_k.key[0], line_new, sizeof line_new);
	tid_key_line(old_k.key[0], line_old, sizeof line_old);
	snprintf(text, sizeof text, "%s\n%s\n", line_new, line_old);
	tid_write_file(tid_path("both.key"), text);
	tid_load_or_bail(&both, tid_path("both.key"));
	is_int(both.n, 2, "rotation: two keys read");
	ok(tid_verify(&both, old_id, got) == 0 && memcmp(got, old_raw, TID_RAW) == 0,
	   "rotation: an ID made with the old key still verifies");
	tid_new(&both, new_id, new_raw);
	is_int(tid_verify(&new_k, new_id, got), 0, "rotation: a new ID is signed with the first line's key");
	is_int(tid_verify(&old_k, new_id, got), -1, "rotation: a new ID is not signed with the old key");
	tid_new(&other, other_id, other_raw);
	is_int(tid_verify(&both, other_id, got), -1, "rotation: an ID signed with neither key is refused");
	tid_format(&both, old_raw, both_fmt);
	tid_format(&new_k, old_raw, new_fmt);
	ok(strcmp(both_fmt, new_fmt) == 0 && strcmp(both_fmt, old_id) != 0,
	   "rotation: tid_format re-signs an old random part with the new key");
	sodium_memzero(&both, sizeof both);
}

/* --- the key file -------------------------------------------------------- */

struct tid_file_case {
	const char *name;
	const char *text;   /* "%K" lines are replaced by a good key line */
	int rc;
	int nkeys;          /* when rc == 0 */
	int line;           /* when rc == -1: the line the message names; 0: the file only */
};

static const struct tid_file_case tid_file_cases[] = {
	{ "one key", "%K\n", 0, 1, 0 },
	{ "no final newline", "%K", 0, 1, 0 },
	{ "CRLF line ends", "%K\r\n%K\r\n", 0, 2, 0 },
	{ "comments and blank lines skipped", "# thread keys\n\n%K\n\n# older\n%K\n", 0, 2, 0 },
	{ "eight keys (the most)", "%K\n%K\n%K\n%K\n%K\n%K\n%K\n%K\n", 0, 8, 0 },
	{ "malformed second line", "%K\nnot a key\n", -1, 0, 2 },
	{ "malformed after a comment", "# c\n\n%K\n%K!\n", -1, 0, 4 },
	{ "key one byte short", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", -1, 0, 1 },
	{ "key one byte long", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", -1, 0, 1 },
	{ "standard alphabet key", "+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n", -1, 0, 1 },
	{ "nine keys (too many)", "%K\n%K\n%K\n%K\n%K\n%K\n%K\n%K\n%K\n", -1, 0, 9 },
	{ "empty file", "", -1, 0, 0 },
	{ "comments only", "# nothing here\n\n", -1, 0, 0 },
};

static void tid_expand_keys(const char *text, char *out, size_t outlen)
{
	size_t n = 0;

	for (const char *p = text; *p && n + 64 < outlen; p++) {
		if (p[0] == '%' && p[1] == 'K') {
			unsigned char key[crypto_auth_KEYBYTES];

			crypto_auth_keygen(key);
			tid_key_line(key, out + n, outlen - n);
			n += strlen(out + n);
			p++;
		} else {
			out[n++] = *p;
		}
	}
	out[n] = '\0';
}

static void tid_test_files(void)
{
	for (size_t i = 0; i < sizeof tid_file_cases / sizeof tid_file_cases[0]; i++) {
		const struct tid_file_case *fc = &tid_file_cases[i];
		char name[32], text[1024], err[512] = "", want[300];
		const char *path;
		struct tid_keys k;
		int rc;

		snprintf(name, sizeof name, "case%zu.key", i);
		path = tid_path(name);
		tid_expand_keys(fc->text, text, sizeof text);
		tid_write_file(path, text);
		rc = tid_keys_load(&k, path, err, sizeof err);
		is_int(rc, fc->rc, "key file, %s: result", fc->name);
		if (fc->rc == 0) {
			is_int(k.n, fc->nkeys, "key file, %s: keys read", fc->name);
			continue;
		}
		if (fc->line)
			snprintf(want, sizeof want, "%s:%d: ", path, fc->line);
		else
			snprintf(want, sizeof want, "%s: ", path);
		ok(strncmp(err, want, strlen(want)) == 0, "key file, %s: message names %s", fc->name,
		   fc->line ? "file:line" : "the file");
		if (strncmp(err, want, strlen(want)) != 0)
			printf("#   got: '%s'\n#   want prefix: '%s'\n", err, want);
	}
}

/* Every name in the test directory starting with prefix but the file itself:
 * a temporary file left behind by the creation. */
static int tid_leftovers(const char *prefix)
{
	DIR *d = opendir(tid_dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		tid_bail(tid_dir);
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && strcmp(e->d_name, prefix) != 0)
			n++;
	closedir(d);
	return n;
}

static void tid_test_create(void)
{
	struct tid_keys a, b;
	struct stat st;
	char err[512] = "", line[64], text[128];
	const char *path = tid_path("created.key");
	FILE *f;

	mode_t old = umask(077);   /* as the workers set it ([store] umask) */
	unsigned mode;

	is_int(tid_keys_load(&a, path, err, sizeof err), 0, "missing key file: created");
	is_int(a.n, 1, "created file: one key");
	mode = stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (unsigned)(st.st_mode & 07777) : 07777;
	ok(mode == 0600, "created file: mode 0600 under umask 077 (got %o)", mode);
	/* Whatever the umask, the key is never readable by others. */
	umask(022);
	is_int(tid_keys_load(&b, tid_path("lax.key"), err, sizeof err), 0, "umask 022: created");
	mode = stat(tid_path("lax.key"), &st) == 0 ? (unsigned)(st.st_mode & 07777) : 07777;
	ok((mode & 007) == 0, "umask 022: the key is not readable by others (%o)", mode);
	unlink(tid_path("lax.key"));
	umask(old);
	f = fopen(path, "r");
	tid_key_line(a.key[0], line, sizeof line);
	snprintf(text, sizeof text, "%s\n", line);
	line[0] = '\0';
	if (f == NULL || fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	if (f)
		fclose(f);
	is_str(line, text, "created file: the key as one base64url line");
	is_int(tid_leftovers("created.key"), 0, "created file: no temporary file left");
	is_int(tid_keys_load(&b, path, err, sizeof err), 0, "created file: loads again");
	ok(b.n == 1 && memcmp(a.key[0], b.key[0], crypto_auth_KEYBYTES) == 0,
	   "created file: the same key the second time");
	err[0] = '\0';
	is_int(tid_keys_load(&b, "/nonexistent-dir/aivista/thread.key", err, sizeof err), -1,
	       "key file in a missing directory: refused");
	ok(strstr(err, "/nonexistent-dir/aivista/thread.key") != NULL, "and the message names the path");
}

/* TID_FORKS processes load the same missing file at once: each writes its
 * first key (with a status byte) to one pipe, in one write (atomic). */
static void tid_test_race(void)
{
	const char *path = tid_path("race.key");
	unsigned char rec[TID_FORKS][1 + crypto_auth_KEYBYTES];
	int go[2], res[2], clean = 0, same = 1, good = 0;
	struct tid_keys k;
	pid_t pids[TID_FORKS];
	size_t got = 0;

	if (pipe(go) < 0 || pipe(res) < 0)
		tid_bail("pipe");
	fflush(stdout);
	for (int i = 0; i < TID_FORKS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			tid_bail("fork");
		if (pids[i] == 0) {
			unsigned char out[1 + crypto_auth_KEYBYTES] = { 0 };
			struct tid_keys ck;
			char err[512];
			char c;

			close(go[1]);
			close(res[0]);
			if (read(go[0], &c, 1) != 0)
				_exit(3);
			if (tid_keys_load(&ck, path, err, sizeof err) == 0) {
				out[0] = 1;
				memcpy(out + 1, ck.key[0], crypto_auth_KEYBYTES);
			} else {
				fprintf(stderr, "child %d: %s\n", i, err);
			}
			_exit(write(res[1], out, sizeof out) == (ssize_t)sizeof out ? 0 : 2);
		}
	}
	close(go[0]);
	close(res[1]);
	close(go[1]);   /* releases every child at once */
	while (got < sizeof rec) {
		ssize_t n = read(res[0], (unsigned char *)rec + got, sizeof rec - got);

		if (n <= 0)
			break;
		got += (size_t)n;
	}
	close(res[0]);
	for (int i = 0; i < TID_FORKS; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) == pids[i] && WIFEXITED(status) && WEXITSTATUS(status) == 0)
			clean++;
	}
	is_int(clean, TID_FORKS, "race: every process exits cleanly");
	is_int((long long)got, (long long)sizeof rec, "race: every process reported");
	for (int i = 0; i < TID_FORKS && (size_t)(i + 1) * sizeof rec[0] <= got; i++) {
		good += rec[i][0] == 1;
		same &= memcmp(rec[i] + 1, rec[0] + 1, crypto_auth_KEYBYTES) == 0;
	}
	is_int(good, TID_FORKS, "race: every process loaded a key");
	ok(same, "race: all %d processes hold the same key", TID_FORKS);
	tid_load_or_bail(&k, path);
	ok(k.n == 1 && memcmp(k.key[0], rec[0] + 1, crypto_auth_KEYBYTES) == 0,
	   "race: it is the key the file holds");
	is_int(tid_leftovers("race.key"), 0, "race: no temporary file left");
}

static void tid_rmdir(void)
{
	DIR *d = opendir(tid_dir);
	struct dirent *e;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			unlink(tid_path(e->d_name));
	closedir(d);
	rmdir(tid_dir);
}

int main(void)
{
	struct tid_keys k;

	if (sodium_init() < 0)
		tid_bail("sodium_init");
	snprintf(tid_dir, sizeof tid_dir, "/tmp/t_tid.XXXXXX");
	if (mkdtemp(tid_dir) == NULL)
		tid_bail("mkdtemp");
	tid_load_or_bail(&k, tid_path("main.key"));

	tid_test_fresh(&k);
	tid_test_refused(&k);
	tid_test_std_alphabet(&k);
	tid_test_rotation();
	tid_test_files();
	tid_test_create();
	tid_test_race();

	tid_rmdir();
	return tap_done();
}
