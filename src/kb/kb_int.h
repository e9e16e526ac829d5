/* The inside of a knowledge base, shared by kb.c (loading, indexing) and
 * search.c (searching). Nothing outside src/kb/ includes it. */
#ifndef AV_KB_INT_H
#define AV_KB_INT_H
#include <stddef.h>
#include <jansson.h>
#include "kb/kb.h"

#define KB_K1 1.2
#define KB_B 0.75
#define KB_NONE ((size_t)-1)

/* One document containing a term, with the term's weighted count there. */
struct kb_post {
	size_t doc;
	double tf;
};

struct kb_term {
	char *text;
	struct kb_post *post;   /* in document order; its length is the df */
	size_t npost, apost;
};

struct kb {
	char *name;
	json_t *docs;           /* the documents, as loaded (own reference) */
	struct kb_field *fields;/* copied, ends with { NULL } */
	size_t ndocs;
	const char **ids;       /* borrowed from docs */
	double *dl;             /* weighted length of each document */
	double avgdl;
	double wsum;            /* sum of the indexed fields' weights */
	struct kb_term *terms;
	size_t nterms, aterms;
	size_t *slots;          /* open addressing: term index + 1, 0 = empty */
	size_t nslots;
	char digest[33];
	json_t *vectors;        /* kept document vectors, or NULL */
	char *vectors_tag;      /* what they were computed with (retrieve.c), or NULL */
	long long vectors_retry_ms;  /* after a failure, not asked for again before this */
};

/* The index of a term, or KB_NONE. */
size_t kb_term_find(const struct kb *kb, const char *text, size_t n);
/* A search result object for one document: new reference. */
json_t *kb_result_new(const struct kb *kb, size_t doc, double similarity);

#endif
