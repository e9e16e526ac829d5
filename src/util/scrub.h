/* Secrets out of messages: a provider that refuses a key often repeats
 * it, whole, cut ("sk-ab...xyz") or masked ("sk-ab****xyz"), and a
 * library may print the Authorization header it sent. Messages that go to
 * a log pass through here first. */
#ifndef AV_SCRUB_H
#define AV_SCRUB_H
#include <stddef.h>

/* Rewrites msg (NUL-ended, in place: it only shrinks) with every trace of
 * key replaced by "***": the key itself; any word holding its first five
 * or its last four characters (keys of 8 characters or more); the word
 * after "Bearer"; any word starting "sk-" (the usual form of the
 * vendors' keys, this one's or another's). key may be NULL or "". */
void scrub_secret(char *msg, const char *key);

#endif
