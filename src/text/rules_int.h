/* The rule engine: compiling and running the PCRE2 patterns of keyword
 * rules (UTF, Unicode properties, caseless, dot-all), and tables of them
 * tried in order, for the rules a workflow keeps in its own folder.
 * Patterns a caller compiles are its own to free (pcre2_code_free, or
 * rules_table_free); the match data rules_find uses and the patterns of
 * rules_trim are the engine's, released by rules_free() (rules.h). */
#ifndef AV_RULES_INT_H
#define AV_RULES_INT_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <stddef.h>
#include <pcre2.h>
#include "text/rules.h"
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
/* c matches in text (at most rules_text_len of it); NULL text never does. */
int rules_any(const pcre2_code *c, const char *text);
/* The span [*a, *b) of s without its leading punctuation and its trailing
 * punctuation or sentence particles (吗, 呢, 吧…). */
void rules_trim(const char *s, size_t *a, size_t *b);

/* One rule of a table: a pattern, how sure a match of it makes the
 * decision, and what a match must also pass. */
struct rules_pat {
	const char *name;     /* stable short name: the rule a match reports */
	const char *re;
	double confidence;
	/* NULL, or 1 when the match ov (as rules_find gives it) of s counts */
	int (*check)(const char *s, const size_t ov[4]);
	int exclude;          /* a match decides "no" */
};

/* Compiles the n rules of a table into codes (NULL for one that does not
 * compile, logged), or releases them. */
void rules_table_compile(const struct rules_pat *pats, pcre2_code **codes, size_t n);
void rules_table_free(pcre2_code **codes, size_t n);
/* The first rule of the table, in its order, with a match in text that
 * passes its check (a rule tries at most 32 matches):
 * {matched: !exclude, rule: its name, its confidence}; {0, "none", 0}
 * when none fires. */
struct rules_match rules_table_first(const struct rules_pat *pats, pcre2_code *const *codes,
				     size_t n, const char *text);

#endif
