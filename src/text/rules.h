/* The rule engine's answer and its lifetime: keyword rules over UTF-8
 * text, built by the workflows in their own folders on the engine of
 * rules_int.h (PCRE2 patterns, tables of them tried in order), answer
 * with a struct rules_match.
 *
 * The patterns are PCRE2 (UTF, Unicode properties, caseless), compiled on
 * first use and kept for the life of the process. Workers are
 * single-threaded: call a rule once before starting threads that share
 * it. Text that is not valid UTF-8 simply matches less; nothing here fails
 * on bad input. */
#ifndef AV_RULES_H
#define AV_RULES_H

/* A decision and the rule that took it. */
struct rules_match {
	int matched;          /* 1: the intent is there */
	const char *rule;     /* stable short name of the deciding rule; "none" when no rule fired */
	double confidence;    /* how sure the decision (either way) is, 0..1 */
};

/* Releases what the engine keeps (the match data, the patterns of
 * rules_trim); they are made again if used later. */
void rules_free(void);

#endif
