/* Knowledge bases: small JSON libraries of documents (the style library,
 * and later node definitions, the agent registry, notes) searched by
 * meaning. Lexical search is BM25 over words and CJK character bigrams;
 * when an embeddings provider is configured, the caller can search by
 * cosine similarity over document vectors it obtained for kb_embed_texts().
 * Both answer with the same result shape and a similarity in [0, 1], so a
 * workflow keeps one threshold whichever way it searched.
 *
 * A kb does not change once loaded (but for the document vectors a caller
 * may keep in it) and is not thread-safe; a worker loads each one once
 * and keeps it.
 *
 * Lexical similarity. A document's terms are its indexed fields' tokens,
 * each counted with its field's weight (tf); BM25 with k1 = 1.2, b = 0.75
 * and idf(t) = ln(1 + (N - df + 0.5) / (df + 0.5)). Only query terms the
 * library knows take part: a word no document has says nothing about which
 * document fits. For each such term t:
 *   strength a(t, d) = min(1, bm25(t, d) / bm25(t, ideal)), where the ideal
 *     document has average length and t in every indexed field (tf = the
 *     sum of the weights); a term found only in a low-weight field is weak;
 *   coverage(d) = sum idf(t) a(t, d)^2 / sum idf(t): how much of what the
 *     query says the document says, weak matches counting little;
 *   confidence(d) = min(1, sum of idf(t) over the terms d has / idf of a
 *     term found in one document): matching only a word that many
 *     documents share is not enough to pick one;
 *   similarity(d) = confidence(d) * sqrt(coverage(d)), rounded to 4 places.
 * So a query naming one style fully gets about 0.9 for it; a query naming
 * two styles gets about 0.65 for each; a query naming none gets nothing.
 *
 * Vector similarity: max(0, cosine), rounded the same way. */
#ifndef AV_KB_H
#define AV_KB_H
#include <stddef.h>
#include <jansson.h>

/* The longest query text looked at, in bytes; the rest is ignored. */
#define KB_QUERY_MAX 8192
/* The largest knowledge base file read, in bytes. */
#define KB_FILE_MAX (8 << 20)

enum {
	KB_SHOW = 1,      /* copied into every search result */
	KB_REQUIRED = 2,  /* every document has it, not empty */
};

/* One field of the documents: a string or an array of strings. Its terms
 * count weight times (0: not indexed, only checked or shown). A table of
 * fields ends with { NULL }. */
struct kb_field {
	const char *name;
	int weight;
	int flags;
};

struct kb;

/* Reads a JSON array of documents, each an object with a unique, non-empty
 * string "id", and indexes the fields. NULL on error, with err naming the
 * file and what is wrong with it. The field table is copied. */
struct kb *kb_load(const char *path, const struct kb_field *fields, char *err, size_t errlen);
/* Same from an array already parsed (borrowed; the kb takes its own
 * reference). name is used in messages. */
struct kb *kb_from_json(json_t *docs, const struct kb_field *fields, const char *name,
			char *err, size_t errlen);
void kb_free(struct kb *kb);

/* The documents as loaded: borrowed reference. */
json_t *kb_items(const struct kb *kb);
size_t kb_count(const struct kb *kb);
/* The document with this id: borrowed reference, or NULL. */
json_t *kb_find(const struct kb *kb, const char *id);
/* A hex digest (BLAKE2b, 128 bits) of the file as read, for ETags. Lent. */
const char *kb_digest(const struct kb *kb);
/* The name given at load time (the path). Lent. */
const char *kb_name(const struct kb *kb);

/* Lexical search. New reference: an array of at most limit objects
 * {"id", the KB_SHOW fields, "similarity"}, best first, ties by id, each
 * with similarity >= min_similarity and > 0 (a document sharing no term
 * with the query is never returned). An empty query gives []; limit 0
 * too. */
json_t *kb_search(const struct kb *kb, const char *query, size_t limit, double min_similarity);

/* Embeddings. New reference: the text of each document, in order, for an
 * embeddings provider (prov_embed). */
json_t *kb_embed_texts(const struct kb *kb);
/* Keeps document vectors (one array of numbers per document, in order) so
 * the library is embedded once per worker. Steals vectors, also on error.
 * 0, or -1 with err when their count or shape is wrong. */
int kb_vectors_set_new(struct kb *kb, json_t *vectors, char *err, size_t errlen);
/* Same, remembering what they were computed with (tag, copied; NULL for
 * nothing): retrieval keeps them under the cache key of the library's
 * version and the embeddings model (retrieve.h). */
int kb_vectors_keep_new(struct kb *kb, json_t *vectors, const char *tag, char *err,
			size_t errlen);
/* The vectors kept: borrowed reference, or NULL. */
json_t *kb_vectors(const struct kb *kb);
/* The tag they were kept with (lent), or NULL. */
const char *kb_vectors_tag(const struct kb *kb);
/* Search by cosine similarity (negative cosines count as 0). query_vec and
 * doc_vecs are borrowed; doc_vecs NULL means the vectors kept. New
 * reference with the same shape as kb_search, or NULL with err when the
 * vectors do not fit the documents or each other. */
json_t *kb_search_cosine(const struct kb *kb, const json_t *query_vec, const json_t *doc_vecs,
			 size_t limit, double min_similarity, char *err, size_t errlen);

/* The tokenizer (tokenize.c): lower-cased ASCII words (function words left
 * out, a plural 's' dropped), CJK character bigrams (a lone CJK character
 * as itself), then the segmenter's CJK words of three characters or more
 * (text/seg.h: 小红书 beside 小红 and 红书). Anything else separates tokens; invalid UTF-8 is skipped and
 * nothing is read past text + len. fn gets each token, NUL-terminated. */
void kb_tokenize(const char *text, size_t len, void (*fn)(void *ctx, const char *tok, size_t n),
		 void *ctx);
/* The tokens of a string as a new array of strings (tests, debugging). */
json_t *kb_tokens(const char *text, size_t len);

/* The style library of a worker (styles.c), kept on the worker's shelf
 * (shelf.h). NULL when it cannot be loaded (the log says why). */
struct app;
extern const struct kb_def kb_styles_def;
struct kb *kb_styles(struct app *app);

#endif
