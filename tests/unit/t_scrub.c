/* Secrets out of messages: a key repeated whole, cut, masked, after
 * "Bearer", inside JSON or prose, and text with no secret left alone. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "util/scrub.h"

#define KEY "sk-3f9a27c1d0e4b8a5f6c7d2e1"

struct scrub_case {
	const char *name;
	const char *key;
	const char *in;
	const char *want;
};

static const struct scrub_case cases[] = {
	{ "the whole key", KEY, "Incorrect API key provided: " KEY ".",
	  "Incorrect API key provided: ***" },
	{ "after Bearer", KEY, "header was Authorization: Bearer " KEY,
	  "header was Authorization: Bearer ***" },
	{ "cut with dots", KEY, "Incorrect API key provided: sk-3f...d2e1. You can find",
	  "Incorrect API key provided: *** You can find" },
	{ "cut with an ellipsis", KEY, "key sk-3f9a\xe2\x80\xa6" "d2e1 is invalid", "key *** is invalid" },
	{ "masked with stars", KEY, "{\"message\":\"sk-3f9a****************d2e1\"}",
	  "{\"message\":\"***\"}" },
	{ "its last characters only", KEY, "the key ending ****d2e1 is revoked",
	  "the key ending *** is revoked" },
	{ "its first characters only", KEY, "key sk-3f9a...(hidden)", "key ***(hidden)" },
	{ "another key of the same form", KEY, "old key sk-0000111122223333 expired",
	  "old key *** expired" },
	{ "a key without the usual prefix", "Zq81xkP0vR7tW2yN", "bad key Zq81x***W2yN given",
	  "bad key *** given" },
	{ "any bearer token, whatever the key", NULL, "bearer abc.def-ghi rejected",
	  "bearer *** rejected" },
	{ "twice", KEY, KEY " and " KEY, "*** and ***" },
	{ "a short key is still hidden where whole", "abc", "token abc here", "token *** here" },
	{ "no secret: unchanged", KEY, "the provider answered HTTP 500: internal failure",
	  "the provider answered HTTP 500: internal failure" },
	{ "no key configured", NULL, "Failed to connect to 10.0.0.5 port 443",
	  "Failed to connect to 10.0.0.5 port 443" },
	{ "empty", KEY, "", "" },
};

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *msg = strdup(cases[i].in);

		scrub_secret(msg, cases[i].key);
		is_str(msg, cases[i].want, "%s", cases[i].name);
		free(msg);
	}
	return tap_done();
}
