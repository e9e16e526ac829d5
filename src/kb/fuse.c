/* The fusion of lexical and cosine results (see retrieve.h): one list,
 * each document once, with the similarity both searches give it, how it
 * was found and both scores. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "kb/retrieve.h"
#include "util/jnum.h"
#include "util/xmalloc.h"

struct kb_fused {
	const char *id;
	json_t *hit;     /* borrowed: the result object from either list */
	double bm25, cosine, sim;
};

double kb_fuse_score(double bm25, double cosine)
{
	double m = bm25 > cosine ? bm25 : cosine, n = bm25 > cosine ? cosine : bm25;
	double s;

	if (n < 0)
		n = 0;
	if (!(m > 0))
		return 0;
	s = m + KB_FUSE_AGREE * n * (1 - m);
	return s >= 1 ? 1 : jnum_round(s, 4);
}

static int kb_fused_cmp(const void *a, const void *b)
{
	const struct kb_fused *x = a, *y = b;

	if (x->sim != y->sim)
		return x->sim > y->sim ? -1 : 1;
	return strcmp(x->id, y->id);
}

static double kb_sim_of(const json_t *hit)
{
	return json_number_value(json_object_get(hit, "similarity"));
}

/* The entry of id in f[0..*n), added when it is not there yet. */
static struct kb_fused *kb_fused_slot(struct kb_fused *f, size_t *n, const char *id, json_t *hit)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp(f[i].id, id) == 0)
			return &f[i];
	memset(&f[*n], 0, sizeof f[*n]);
	f[*n].id = id;
	f[*n].hit = hit;
	return &f[(*n)++];
}

/* A result object for one fused entry: new reference. */
static json_t *kb_fused_result(const struct kb_fused *f, int vectors)
{
	json_t *r = json_deep_copy(f->hit), *scores = json_object();

	json_object_set_new(r, "similarity", json_real(f->sim));
	json_object_set_new(r, "method", json_string(f->bm25 > 0 && f->cosine > 0 ? "both"
						      : f->bm25 > 0 ? "bm25" : "cosine"));
	json_object_set_new(scores, "bm25", json_real(f->bm25));
	if (vectors)
		json_object_set_new(scores, "cosine", json_real(f->cosine));
	json_object_set_new(r, "scores", scores);
	return r;
}

json_t *kb_fuse(const json_t *lexical, const json_t *cosine, size_t limit, double min)
{
	size_t cap = json_array_size(lexical) + json_array_size(cosine), n = 0, i;
	struct kb_fused *f = xcalloc(cap + 1, sizeof *f);
	json_t *out = json_array(), *h;

	json_array_foreach(lexical, i, h) {
		const char *id = json_string_value(json_object_get(h, "id"));

		if (id)
			kb_fused_slot(f, &n, id, h)->bm25 = kb_sim_of(h);
	}
	json_array_foreach(cosine, i, h) {
		const char *id = json_string_value(json_object_get(h, "id"));

		if (id)
			kb_fused_slot(f, &n, id, h)->cosine = kb_sim_of(h);
	}
	for (i = 0; i < n; i++)
		f[i].sim = kb_fuse_score(f[i].bm25, f[i].cosine);
	qsort(f, n, sizeof *f, kb_fused_cmp);
	for (i = 0; i < n && json_array_size(out) < limit; i++)
		if (f[i].sim > 0 && f[i].sim >= min)
			json_array_append_new(out, kb_fused_result(&f[i], cosine != NULL));
	free(f);
	return out;
}
