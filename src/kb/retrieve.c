/* Retrieval (see retrieve.h): lexical search, fused with cosine search
 * when an embeddings provider is configured and answers. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "app.h"
#include "kb/retrieve.h"
#include "kb/vectors.h"
#include "prov/prov.h"
#include "prov/vendors.h"
#include "text/msg.h"
#include "util/log.h"

const char *kb_method_name(enum kb_method m)
{
	switch (m) {
	case KB_METHOD_HYBRID:
		return "hybrid";
	case KB_METHOD_FALLBACK:
		return "fallback";
	default:
		return "bm25";
	}
}

const char *kb_method_words(const char *lang, enum kb_method m)
{
	switch (m) {
	case KB_METHOD_HYBRID:
		return msg_get(lang, "kb.method.hybrid");
	case KB_METHOD_FALLBACK:
		return msg_get(lang, "kb.method.fallback");
	default:
		return msg_get(lang, "kb.method.bm25");
	}
}

/* True when a model gives the embeddings (not the rules, which have none). */
static int kb_retrieve_embeds(const struct app *app)
{
	return app && app->prov && !prov_kind_by_rules(prov_kind(app->prov, PROV_EMBEDDINGS));
}

/* The cosine results over every document: new reference, or NULL with
 * why. */
static json_t *kb_retrieve_cosine(struct app *app, struct kb *kb, const char *query,
				  struct kb_retrieve_info *info)
{
	json_t *qv, *res;

	if (kb_vec_docs(app, kb, &info->docs, info->why, sizeof info->why) < 0)
		return NULL;
	qv = kb_vec_query(app, query, &info->query_cached, info->why, sizeof info->why);
	if (qv == NULL)
		return NULL;
	res = kb_search_cosine(kb, qv, NULL, kb_count(kb), 0, info->why, sizeof info->why);
	json_decref(qv);
	return res;
}

json_t *kb_retrieve(struct app *app, struct kb *kb, const char *query, size_t limit, double min,
		    struct kb_retrieve_info *info)
{
	struct kb_retrieve_info own;
	json_t *lex, *cos = NULL, *out;

	if (info == NULL)
		info = &own;
	memset(info, 0, sizeof *info);
	query = query ? query : "";
	lex = kb_search(kb, query, kb_count(kb), 0);
	if (*query && limit > 0 && kb_retrieve_embeds(app)) {
		cos = kb_retrieve_cosine(app, kb, query, info);
		info->method = cos ? KB_METHOD_HYBRID : KB_METHOD_FALLBACK;
		if (cos == NULL)
			log_warn("%s: searched by keywords only: the embeddings failed (%s)",
				 kb_name(kb), info->why);
	}
	out = kb_fuse(lex, cos, limit, min);
	json_decref(lex);
	json_decref(cos);
	return out;
}
