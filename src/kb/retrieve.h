/* Retrieval: the one way a workflow or an endpoint searches a knowledge
 * base (the style library, the node library, the notes corpus). Without
 * an embeddings provider it is the lexical search of kb.h (BM25 over
 * words and CJK bigrams); with one ([provider.embeddings] kind other than
 * offline) the cosine search over the documents' vectors is fused with it.
 *
 * Fusion (kb_fuse). Both searches give a similarity in [0, 1] for each
 * document: b (lexical) and c (cosine, 0 when negative). With m the larger
 * and n the smaller of the two, the fused similarity is
 *     s = m + KB_FUSE_AGREE * n * (1 - m)
 * rounded to 4 places: a document either search finds well is found as
 * well as that search alone would find it (s >= m, so one threshold still
 * means the same), and the other search agreeing lifts it towards 1
 * without ever passing it. Without vectors, c = 0 and s = b: exactly the
 * lexical results. Each result says how it was found: "method" is "both"
 * (b > 0 and c > 0), "bm25" or "cosine", and "scores" holds b and, when
 * vectors were used, c.
 *
 * Vectors. A library's document vectors are asked for once per version of
 * the library and embeddings model (kb_vec_doc_key: the library's digest,
 * the service's URL and the model), then kept twice: in the worker's
 * memory beside the library (kb_vectors_keep_new) and in the store's cache
 * (namespace "embed", KB_VEC_DOC_TTL_MS), so another worker, or this one
 * after a restart, reads them instead of asking again. A query's vector is
 * cached in the store under kb_vec_query_key for [cache] retrieval_ttl.
 *
 * Failure. Any embeddings failure (the call times out or fails, the
 * answer is malformed, the vectors do not fit the documents or the query's
 * vector has another dimension) answers that request lexically, logged
 * with the reason, never as an error to the client. After a failure to
 * embed a library's documents, they are not asked for again for
 * KB_VEC_RETRY_MS: meanwhile the library is searched lexically. */
#ifndef AV_KB_RETRIEVE_H
#define AV_KB_RETRIEVE_H
#include <stddef.h>
#include <jansson.h>
#include "kb/kb.h"

struct app;
struct conf_provider;

#define KB_FUSE_AGREE 0.5
#define KB_VEC_NS "embed"
#define KB_VEC_DOC_TTL_MS (30LL * 24 * 3600 * 1000)   /* a library's vectors: 30 days */
#define KB_VEC_RETRY_MS 30000

/* How a request was answered. */
enum kb_method {
	KB_METHOD_BM25 = 0,   /* lexical: no embeddings provider is configured */
	KB_METHOD_HYBRID,     /* lexical and cosine, fused */
	KB_METHOD_FALLBACK,   /* lexical: the embeddings failed for this request */
};

/* Where the documents' vectors came from. */
enum kb_vec_source {
	KB_VEC_NONE = 0,
	KB_VEC_MEMORY,        /* kept by this worker */
	KB_VEC_STORE,         /* the store's cache: another worker or an earlier run */
	KB_VEC_PROVIDER,      /* asked for now */
};

struct kb_retrieve_info {
	enum kb_method method;
	enum kb_vec_source docs;
	int query_cached;     /* the query's vector came from the store's cache */
	char why[256];        /* KB_METHOD_FALLBACK: what failed (also logged) */
};

/* "bm25", "hybrid", "fallback". */
const char *kb_method_name(enum kb_method m);
/* The words of the thread's language saying how a search was made
 * (msg.c: "kb.method.*"). Lent. */
const char *kb_method_words(const char *lang, enum kb_method m);

/* Searches kb (borrowed; its kept vectors may be set) for query. New
 * reference: at most limit results {"id", the KB_SHOW fields,
 * "similarity", "method", "scores": {"bm25"[, "cosine"]}}, best first,
 * ties by id, each with similarity >= min and > 0. app gives the
 * providers, the configuration and the store (any of them may be missing:
 * lexical then, or no store cache). info may be NULL. */
json_t *kb_retrieve(struct app *app, struct kb *kb, const char *query, size_t limit, double min,
		    struct kb_retrieve_info *info);

/* The fusion above of a lexical and a cosine result list (borrowed; each
 * of the shape kb_search gives, in any order; cosine may be NULL: no
 * vectors). New reference, as kb_retrieve answers. */
json_t *kb_fuse(const json_t *lexical, const json_t *cosine, size_t limit, double min);
/* One fused similarity. */
double kb_fuse_score(double bm25, double cosine);

/* The store cache keys (new strings; each part length-prefixed, so no two
 * different sets of parts give one key). */
char *kb_vec_doc_key(const char *digest, const struct conf_provider *p);
char *kb_vec_query_key(const struct conf_provider *p, const char *query);

#endif
