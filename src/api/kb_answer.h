/* The answer of GET on a knowledge base (GET /api/styles, GET /api/nodes):
 * the whole library, or with ?q=TEXT what a search for TEXT finds, the
 * same way for every library. Libraries change only when their files do,
 * so answers are cacheable and carry an ETag made from the file's digest
 * (and the query). */
#ifndef AV_API_KB_ANSWER_H
#define AV_API_KB_ANSWER_H
#include "fcgi/problem.h"

struct req;
struct kb;

/* Results of a search unless ?limit=N says otherwise, and the most. */
#define API_KB_RESULTS 10
#define API_KB_RESULTS_MAX 50

/* Answers r from kb (borrowed; retrieval may keep its document vectors):
 * {list_key: [documents], "count"} or, with q, {"query", "method":
 * "bm25"|"hybrid", "fallback": bool, "results": [{"id", the shown fields,
 * "similarity", "method", "scores"}]} as kb_retrieve finds them
 * (kb/retrieve.h), best first, at most ?limit of them; 304 when
 * If-None-Match names the ETag. PB_OK, or the problem of a bad q or limit
 * (already reported). */
enum problem api_kb_answer(struct req *r, struct kb *kb, const char *list_key);

#endif
