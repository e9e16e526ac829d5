/* Thread IDs and Last-Event-ID: a string verifies only if it is exactly
 * what the server would write for its random part; a Last-Event-ID is
 * accepted only as plain digits within range. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "engine/engine.h"
#include "engine/tid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tid_keys keys;
	static int ready;
	char s[256], again[TID_LEN + 1];
	uint8_t raw[TID_RAW];
	long long n;

	if (!ready) {
		if (sodium_init() < 0)
			abort();
		keys.n = 2;
		memset(keys.key[0], 7, sizeof keys.key[0]);
		memset(keys.key[1], 9, sizeof keys.key[1]);
		ready = 1;
	}
	if (size >= sizeof s)
		size = sizeof s - 1;
	memcpy(s, data, size);
	s[size] = '\0';
	if (tid_verify(&keys, s, raw) == 0) {
		tid_format(&keys, raw, again);
		if (strcmp(again, s) != 0) {
			/* Signed with the older key: re-sign with it to compare. */
			struct tid_keys old = keys;

			memcpy(old.key[0], keys.key[1], sizeof old.key[0]);
			tid_format(&old, raw, again);
			if (strcmp(again, s) != 0)
				abort();
		}
	}
	if (engine_parse_last_id(s, 1000000, &n) == 0) {
		if (n < 0 || n > 1000000)
			abort();
		for (const char *p = s; *p; p++)
			if (*p < '0' || *p > '9')
				abort();
	}
	return 0;
}
