/* Packed store records (src/store/pack.c): every input comes back byte for
 * byte, JSON records shrink, plain records written before packing read as
 * they are, and damaged frames or frames of a dictionary this build lacks
 * are errors. The dictionary compiled in is the one shipped in etc/. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "tap.h"
#include "store/pack.h"
#include "store/store.h"
#include "store/zdict.h"

struct pk_case {
	const char *name;
	const char *text;   /* NULL: random bytes of len */
	size_t len;
	int shrinks;        /* the packed record is smaller */
};

static const struct pk_case pk_cases[] = {
	{ "empty", "", 0, 0 },
	{ "one byte", "{", 1, 0 },
	{ "an agent_start event",
	  "{\"type\":\"agent_start\",\"timestamp\":1795458854351,\"node\":\"planner\",\"agent\":\"planner\","
	  "\"content\":\"The intent planner is starting\\u2026\"}", 0, 1 },
	{ "a step's events, NUL-ended",
	  "{\"type\":\"thought_log\",\"timestamp\":1795458854353,\"node\":\"rag\",\"message\":\"no matching style\"}\0"
	  "{\"type\":\"agent_end\",\"timestamp\":1795458854353,\"node\":\"rag\",\"agent\":\"rag\","
	  "\"content\":\"The style finder has finished this step\"}", 0, 1 },
	{ "Chinese text",
	  "{\"type\":\"state_update\",\"node\":\"planner\",\"changes\":{\"intent\":{\"subject\":\"杭州西湖的春天\","
	  "\"style\":\"水彩\"}}}", 0, 1 },
	{ "random bytes", NULL, 100000, 0 },
};

static void pk_fill(char *p, size_t n)
{
	for (uint32_t i = 0, x = 2463534242u; i < n; i++) {
		x ^= x << 13, x ^= x >> 17, x ^= x << 5;
		p[i] = (char)x;
	}
}

static void t_round_trip(void)
{
	for (size_t i = 0; i < sizeof pk_cases / sizeof pk_cases[0]; i++) {
		const struct pk_case *c = &pk_cases[i];
		size_t len = c->text ? (c->len ? c->len : strlen(c->text)) : c->len, plen = 0, ulen = 0;
		void *packed = NULL, *out = NULL;
		char *in;
		int rc;

		/* A step's events: the NUL inside counts (strlen stops there). */
		if (c->text && strstr(c->name, "NUL-ended"))
			len = strlen(c->text) + 1 + strlen(c->text + strlen(c->text) + 1);
		in = malloc(len + 1);
		if (c->text)
			memcpy(in, c->text, len);
		else
			pk_fill(in, len);
		rc = store_pack(in, len, &packed, &plen);
		ok(rc == 0 && store_is_packed(packed, plen), "%s: packed (%zu -> %zu bytes)", c->name, len, plen);
		if (c->shrinks)
			ok(plen < len, "%s: smaller packed (%zu < %zu)", c->name, plen, len);
		rc = store_unpack(packed, plen, &out, &ulen);
		ok(rc == 0 && ulen == len && memcmp(out, in, len) == 0 && ((char *)out)[len] == '\0',
		   "%s: unpacked byte for byte, NUL after", c->name);
		free(in);
		free(packed);
		free(out);
	}
}

static void t_plain(void)
{
	static const char *const plain[] = { "{\"type\":\"token\",\"text\":\"hi\"}", "[1,2]", "" };
	void *out;
	size_t n;

	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
		int rc = store_unpack(plain[i], strlen(plain[i]), &out, &n);

		ok(rc == 0 && n == strlen(plain[i]) && memcmp(out, plain[i], n) == 0 && !store_is_packed(plain[i], n),
		   "a plain record reads as it is: %s", plain[i]);
		free(out);
	}
}

static void t_damaged(void)
{
	const char *text = "{\"type\":\"thought_log\",\"node\":\"critic\",\"message\":\"review done: 90/100, passed\"}";
	void *packed, *out = NULL;
	size_t plen, n;

	if (store_pack(text, strlen(text), &packed, &plen) != 0)
		tap_bail("store_pack");
	for (size_t at = 4; at < plen; at += 3) {
		unsigned char *b = malloc(plen);
		int rc;

		memcpy(b, packed, plen);
		b[at] ^= 0x5a;
		rc = store_unpack(b, plen, &out, &n);
		ok(rc == STORE_ERROR || (rc == 0 && n == strlen(text) && memcmp(out, text, n) == 0),
		   "a frame with byte %zu of %zu changed: an error, never other text (rc %d)", at, plen, rc);
		free(out);
		out = NULL;
		free(b);
	}
	is_int(store_unpack(packed, plen - 1, &out, &n), STORE_ERROR, "a truncated frame: an error");
	free(packed);
}

static void t_other_dictionary(void)
{
	const struct store_zdict *d = store_zdicts[0];
	const char *text = "{\"type\":\"agent_end\",\"node\":\"genui\"}";
	unsigned char *other = malloc(d->len), frame[256];
	ZSTD_CCtx *cc = ZSTD_createCCtx();
	ZSTD_CDict *cd;
	void *out = NULL;
	size_t n;

	memcpy(other, d->data, d->len);
	other[4] = 99, other[5] = other[6] = other[7] = 0;
	cd = ZSTD_createCDict(other, d->len, 3);
	n = ZSTD_compress_usingCDict(cc, frame, sizeof frame, text, strlen(text), cd);
	ok(!ZSTD_isError(n) && ZSTD_getDictID_fromFrame(frame, n) == 99, "a frame of dictionary 99");
	is_int(store_unpack(frame, n, &out, &n), STORE_ERROR, "dictionary 99, which this build lacks: an error");
	ZSTD_freeCDict(cd);
	ZSTD_freeCCtx(cc);
	free(other);
}

static void t_shipped(void)
{
	const char *top = getenv("top_srcdir");
	char path[4096];
	unsigned char *file;
	long len;
	FILE *f;

	for (int i = 0; store_zdicts[i]; i++) {
		const struct store_zdict *d = store_zdicts[i];

		snprintf(path, sizeof path, "%s/etc/zdict/store-%u.zdict", top ? top : "..", d->id);
		f = fopen(path, "rb");
		if (f == NULL)
			tap_bail("cannot open %s", path);
		fseek(f, 0, SEEK_END);
		len = ftell(f);
		rewind(f);
		file = malloc((size_t)len);
		if (fread(file, 1, (size_t)len, f) != (size_t)len)
			tap_bail("cannot read %s", path);
		fclose(f);
		ok((size_t)len == d->len && memcmp(file, d->data, d->len) == 0,
		   "dictionary %u compiled in is etc/zdict/store-%u.zdict", d->id, d->id);
		ok(ZSTD_getDictID_fromDict(d->data, d->len) == d->id, "dictionary %u names itself %u", d->id, d->id);
		free(file);
	}
}

int main(void)
{
	t_round_trip();
	t_plain();
	t_damaged();
	t_other_dictionary();
	t_shipped();
	return tap_done();
}
