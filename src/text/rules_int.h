/* Shared by rules.c and rules_subject.c only: compiling and running the
 * patterns. */
#ifndef AV_RULES_INT_H
#define AV_RULES_INT_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <stddef.h>
#include <pcre2.h>
#include "util/log.h"

/* Rules read at most this much of a message: intents are stated early,
 * and it bounds the matching time. */
#define RULES_TEXT_MAX 8192

/* NULL (and a log line) when the pattern does not compile. */
pcre2_code *rules_compile(const char *name, const char *re);
/* The first match at or after from: ov = {start, end, group 1 start, group 1 end}
 * (PCRE2_UNSET for a group that did not take part). 1 when it matched. */
int rules_find(const pcre2_code *c, const char *s, size_t len, size_t from, size_t ov[4]);
/* Characters (code points) in s[0, len). */
size_t rules_chars(const char *s, size_t len);
/* The length of text the rules read (capped at a character boundary). */
size_t rules_text_len(const char *text);
void rules_subject_free(void);

#endif
