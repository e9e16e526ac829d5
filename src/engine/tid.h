/* Signed thread IDs: "v1.<base64url(16 random bytes)>.<base64url(tag)>",
 * tag = crypto_auth (HMAC-SHA-512-256) over a domain prefix, the version
 * and the random part. The key file holds one base64url key per line: the
 * first signs, the others are older keys still accepted (rotation). */
#ifndef AV_TID_H
#define AV_TID_H
#include <stddef.h>
#include <stdint.h>
#include <sodium.h>

#define TID_RAW 16
#define TID_LEN (3 + 22 + 1 + 43)   /* "v1." + 16 bytes + "." + 32 bytes, no padding */
#define TID_MAX_KEYS 8

struct tid_keys {
	unsigned char key[TID_MAX_KEYS][crypto_auth_KEYBYTES];
	int n;
};

/* Reads the key file, creating it (tid_keys_create) when it does not
 * exist; safe when many workers start at once. 0, or -1 with err filled. */
int tid_keys_load(struct tid_keys *k, const char *path, char *err, size_t errlen);

/* The mode a key file is made with, less the umask the store set ([store]
 * umask): never readable by others, by the group only when the umask
 * shares the store with it. */
#define TID_KEY_MODE 0660
/* A key's line in the key file: 43 base64url characters, newline, NUL. */
#define TID_KEY_LINE 64
/* A new random key, as its line. */
void tid_key_line_new(char line[TID_KEY_LINE]);
/* Writes text as the key file path, atomically and durably: a new file
 * beside it (TID_KEY_MODE), synced, then linked as path (replace 0: a
 * file already there wins and is left as it is) or renamed over it
 * (replace 1), and the directory synced. 0; 1 when replace is 0 and path
 * exists; -1 with err filled. */
int tid_keys_write(const char *path, const char *text, int replace, char *err, size_t errlen);
/* Creates the key file path holding one new key (tid_keys_write, replace
 * 0): what the workers do when there is none, and aivista-admin key
 * create. 0, 1 when path exists, -1 with err filled. */
int tid_keys_create(const char *path, char *err, size_t errlen);
/* A new ID with the current key: out gets TID_LEN chars + NUL, raw the
 * random part (the store key). */
void tid_new(const struct tid_keys *k, char out[TID_LEN + 1], uint8_t raw[TID_RAW]);
/* 0 and raw filled when s is a well-formed ID signed by any key; -1 for
 * anything else. Constant time in the tag comparison; no store access. */
int tid_verify(const struct tid_keys *k, const char *s, uint8_t raw[TID_RAW]);
/* The ID for a raw part (signed with the current key). */
void tid_format(const struct tid_keys *k, const uint8_t raw[TID_RAW], char out[TID_LEN + 1]);

#endif
