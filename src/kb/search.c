/* Searching a knowledge base: BM25 over the index kb.c built, turned into
 * a similarity in [0, 1] (defined in kb.h) so that one threshold means the
 * same for every query; and cosine similarity over document vectors from
 * an embeddings provider, in the same result shape. */
#include "config.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kb/kb_int.h"
#include "util/xmalloc.h"
#include "util/jnum.h"

#define KB_QUERY_TERMS 256   /* distinct known terms of one query looked at */
#define KB_DIM_MAX 65536     /* longest vector accepted */

struct kb_hit {
	const char *id;
	size_t doc;
	double sim;
};

/* Best first; equal similarities by id, so the order never depends on
 * the file's order or on qsort. */
static int kb_hit_cmp(const void *a, const void *b)
{
	const struct kb_hit *x = a, *y = b;

	if (x->sim != y->sim)
		return x->sim > y->sim ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* Four places: enough to rank, and the same number on every machine that
 * rounds the same doubles the same way. */
static double kb_round(double x)
{
	if (!(x > 0))
		return 0;
	if (x >= 1)
		return 1;
	return jnum_round(x, 4);
}

/* Sorts the hits, keeps those at or above min and at most limit of them.
 * New reference. */
static json_t *kb_results(const struct kb *kb, struct kb_hit *hits, size_t n, size_t limit,
			  double min)
{
	json_t *out = json_array();

	qsort(hits, n, sizeof *hits, kb_hit_cmp);
	for (size_t i = 0; i < n && json_array_size(out) < limit; i++)
		if (hits[i].sim >= min)
			json_array_append_new(out, kb_result_new(kb, hits[i].doc, hits[i].sim));
	return out;
}

static double kb_idf(const struct kb *kb, size_t df)
{
	double n = (double)kb->ndocs;

	return log(1 + (n - (double)df + 0.5) / ((double)df + 0.5));
}

/* -- lexical --------------------------------------------------------------- */

struct kb_query {
	const struct kb *kb;
	size_t terms[KB_QUERY_TERMS];
	size_t n;
};

static void kb_query_token(void *ctx, const char *tok, size_t n)
{
	struct kb_query *q = ctx;
	size_t t = kb_term_find(q->kb, tok, n);

	if (t == KB_NONE || q->n == KB_QUERY_TERMS)
		return;
	for (size_t i = 0; i < q->n; i++)
		if (q->terms[i] == t)
			return;
	q->terms[q->n++] = t;
}

/* How strongly document p.doc has the term, against the ideal document
 * (average length, the term in every indexed field): in [0, 1]. idf is
 * the same on both sides of the ratio and cancels. */
static double kb_strength(const struct kb *kb, const struct kb_post *p)
{
	double norm = 1 - KB_B + KB_B * kb->dl[p->doc] / kb->avgdl;
	double got = p->tf / (p->tf + KB_K1 * norm);
	double ideal = kb->wsum / (kb->wsum + KB_K1);
	double a = got / ideal;

	return a > 1 ? 1 : a;
}

json_t *kb_search(const struct kb *kb, const char *query, size_t limit, double min_similarity)
{
	struct kb_query q = { .kb = kb };
	size_t len = query ? strlen(query) : 0, nhits = 0;
	double *num, *mass, den = 0, idf1 = kb_idf(kb, 1);
	struct kb_hit *hits;
	json_t *out;

	kb_tokenize(query, len > KB_QUERY_MAX ? KB_QUERY_MAX : len, kb_query_token, &q);
	if (q.n == 0 || kb->ndocs == 0 || kb->avgdl <= 0 || kb->wsum <= 0)
		return json_array();
	num = xcalloc(kb->ndocs, sizeof *num);
	mass = xcalloc(kb->ndocs, sizeof *mass);
	for (size_t i = 0; i < q.n; i++) {
		const struct kb_term *t = &kb->terms[q.terms[i]];
		double idf = kb_idf(kb, t->npost);

		den += idf;
		for (size_t j = 0; j < t->npost; j++) {
			double a = kb_strength(kb, &t->post[j]);

			num[t->post[j].doc] += idf * a * a;
			mass[t->post[j].doc] += idf;
		}
	}
	hits = xcalloc(kb->ndocs, sizeof *hits);
	for (size_t d = 0; d < kb->ndocs; d++) {
		double conf = mass[d] / idf1;

		double sim = kb_round((conf < 1 ? conf : 1) * sqrt(num[d] / den));

		if (sim <= 0)
			continue;
		hits[nhits].id = kb->ids[d];
		hits[nhits].doc = d;
		hits[nhits++].sim = sim;
	}
	out = kb_results(kb, hits, nhits, limit, min_similarity);
	free(hits);
	free(num);
	free(mass);
	return out;
}

/* -- vectors --------------------------------------------------------------- */

/* Reads an array of dim numbers into out (dim may be 0: any length up to
 * KB_DIM_MAX, stored in *got). 0, or -1 when it is not that. */
static int kb_vec_read(const json_t *a, double *out, size_t dim, size_t *got)
{
	size_t n = json_array_size(a);

	if (!json_is_array(a) || n == 0 || n > KB_DIM_MAX || (dim && n != dim))
		return -1;
	for (size_t i = 0; i < n; i++) {
		json_t *v = json_array_get(a, i);

		if (!json_is_number(v))
			return -1;
		if (out)
			out[i] = json_number_value(v);
	}
	if (got)
		*got = n;
	return 0;
}

/* Checks that vecs holds one vector of dim numbers (0: any, the same for
 * all) per document. 0, or -1 with err. */
static int kb_vecs_check(const struct kb *kb, const json_t *vecs, size_t dim, char *err,
			 size_t errlen)
{
	size_t first = dim;

	if (!json_is_array(vecs) || json_array_size(vecs) != kb->ndocs) {
		snprintf(err, errlen, "%s: %zu document vectors for %zu documents", kb->name,
			 json_array_size(vecs), kb->ndocs);
		return -1;
	}
	for (size_t d = 0; d < kb->ndocs; d++) {
		if (kb_vec_read(json_array_get(vecs, d), NULL, first, &first) < 0) {
			snprintf(err, errlen, "%s: the vector of document %zu (%s) is not %s%zu numbers",
				 kb->name, d + 1, kb->ids[d], first ? "" : "1 to ",
				 first ? first : (size_t)KB_DIM_MAX);
			return -1;
		}
	}
	return 0;
}

int kb_vectors_set_new(struct kb *kb, json_t *vectors, char *err, size_t errlen)
{
	return kb_vectors_keep_new(kb, vectors, NULL, err, errlen);
}

int kb_vectors_keep_new(struct kb *kb, json_t *vectors, const char *tag, char *err,
			size_t errlen)
{
	if (kb_vecs_check(kb, vectors, 0, err, errlen) < 0) {
		json_decref(vectors);
		return -1;
	}
	json_decref(kb->vectors);
	kb->vectors = vectors;
	free(kb->vectors_tag);
	kb->vectors_tag = tag ? xstrdup(tag) : NULL;
	return 0;
}

const char *kb_vectors_tag(const struct kb *kb)
{
	return kb->vectors ? kb->vectors_tag : NULL;
}

json_t *kb_vectors(const struct kb *kb)
{
	return kb->vectors;
}

static double kb_cosine(const double *a, const double *b, size_t n)
{
	double ab = 0, aa = 0, bb = 0;

	for (size_t i = 0; i < n; i++) {
		ab += a[i] * b[i];
		aa += a[i] * a[i];
		bb += b[i] * b[i];
	}
	if (!(aa > 0) || !(bb > 0))
		return 0;
	return ab / (sqrt(aa) * sqrt(bb));
}

json_t *kb_search_cosine(const struct kb *kb, const json_t *query_vec, const json_t *doc_vecs,
			 size_t limit, double min_similarity, char *err, size_t errlen)
{
	size_t dim = 0, nhits = 0;
	double *qv, *dv;
	struct kb_hit *hits;
	json_t *out;

	if (doc_vecs == NULL)
		doc_vecs = kb->vectors;
	if (kb_vec_read(query_vec, NULL, 0, &dim) < 0) {
		snprintf(err, errlen, "the query vector is not 1 to %d numbers", KB_DIM_MAX);
		return NULL;
	}
	if (doc_vecs == NULL) {
		snprintf(err, errlen, "%s: no document vectors", kb->name);
		return NULL;
	}
	if (kb_vecs_check(kb, doc_vecs, dim, err, errlen) < 0)
		return NULL;
	qv = xcalloc(dim, sizeof *qv);
	dv = xcalloc(dim, sizeof *dv);
	hits = xcalloc(kb->ndocs + 1, sizeof *hits);
	kb_vec_read(query_vec, qv, dim, NULL);
	for (size_t d = 0; d < kb->ndocs; d++) {
		double sim;

		kb_vec_read(json_array_get(doc_vecs, d), dv, dim, NULL);
		sim = kb_round(kb_cosine(qv, dv, dim));
		if (sim <= 0)
			continue;
		hits[nhits].id = kb->ids[d];
		hits[nhits].doc = d;
		hits[nhits++].sim = sim;
	}
	out = kb_results(kb, hits, nhits, limit, min_similarity);
	free(hits);
	free(qv);
	free(dv);
	return out;
}
