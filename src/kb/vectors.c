/* The vectors retrieval compares (see retrieve.h): a library's document
 * vectors, from the worker's memory, the store's cache or the embeddings
 * provider, in that order; a query's vector, from the store's cache or
 * the provider; and the cache keys both are kept under. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "kb/kb_int.h"
#include "kb/retrieve.h"
#include "kb/vectors.h"
#include "prov/prov.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/clock.h"
#include "util/log.h"

#define KB_VEC_KEY_MAX (KB_QUERY_MAX + 4096)

/* -- keys --------------------------------------------------------------- */

static void kb_key_part(struct buf *b, const char *s)
{
	buf_printf(b, "%zu:%s;", strlen(s ? s : ""), s ? s : "");
}

char *kb_vec_doc_key(const char *digest, const struct conf_provider *p)
{
	struct buf b;

	buf_init(&b, KB_VEC_KEY_MAX);
	buf_adds(&b, "docs;");
	kb_key_part(&b, digest);
	kb_key_part(&b, p->base_url);
	kb_key_part(&b, p->model);
	return buf_steal(&b);
}

char *kb_vec_query_key(const struct conf_provider *p, const char *query)
{
	struct buf b;

	buf_init(&b, KB_VEC_KEY_MAX);
	buf_adds(&b, "query;");
	kb_key_part(&b, p->base_url);
	kb_key_part(&b, p->model);
	kb_key_part(&b, query);
	return buf_steal(&b);
}

/* -- the provider --------------------------------------------------------- */

/* The vectors of texts (borrowed) from the provider: new reference, or
 * NULL with why. */
static json_t *kb_vec_ask(struct app *app, const json_t *texts, char *why, size_t whylen)
{
	struct prov_answer a;
	json_t *v = NULL;

	prov_embed(app->prov, texts, NULL, &a);
	if (a.status == PROV_OK && json_array_size(a.vectors) == json_array_size(texts))
		v = json_incref(a.vectors);
	else if (a.status == PROV_OK)
		snprintf(why, whylen, "%zu vectors for %zu texts", json_array_size(a.vectors),
			 json_array_size(texts));
	else
		snprintf(why, whylen, "%s: %s", prov_status_name(a.status), a.detail);
	prov_answer_free(&a);
	return v;
}

/* -- documents ------------------------------------------------------------ */

/* From the store's cache, when they are there and fit the library. */
static int kb_vec_docs_stored(struct app *app, struct kb *kb, const char *key)
{
	json_t *v = NULL;
	char err[256];

	if (app->store == NULL || store_cache_get(app->store, KB_VEC_NS, key, &v) != 0)
		return -1;
	if (kb_vectors_keep_new(kb, v, key, err, sizeof err) < 0) {
		log_warn("%s: the cached document vectors are not used: %s", kb_name(kb), err);
		return -1;
	}
	return 0;
}

static int kb_vec_docs_asked(struct app *app, struct kb *kb, const char *key, char *why,
			     size_t whylen)
{
	json_t *texts = kb_embed_texts(kb), *v;   /* new */
	int rc = -1;

	v = kb_vec_ask(app, texts, why, whylen);
	json_decref(texts);
	if (v == NULL)
		return -1;
	if (app->store && store_cache_put(app->store, KB_VEC_NS, key, v, KB_VEC_DOC_TTL_MS) != 0)
		log_warn("%s: the document vectors could not be cached in the store", kb_name(kb));
	json_incref(v);
	if (kb_vectors_keep_new(kb, v, key, why, whylen) == 0)
		rc = 0;
	json_decref(v);
	return rc;
}

int kb_vec_docs(struct app *app, struct kb *kb, enum kb_vec_source *src, char *why,
		size_t whylen)
{
	const struct conf_provider *p = &app->conf.prov[PROV_EMBEDDINGS];
	char *key = kb_vec_doc_key(kb_digest(kb), p);
	long long now = clock_mono_ms();
	int rc = 0;

	if (kb_vectors_tag(kb) && strcmp(kb_vectors_tag(kb), key) == 0)
		*src = KB_VEC_MEMORY;
	else if (kb_vec_docs_stored(app, kb, key) == 0)
		*src = KB_VEC_STORE;
	else if (now < kb->vectors_retry_ms) {
		snprintf(why, whylen, "the document vectors failed less than %d s ago",
			 KB_VEC_RETRY_MS / 1000);
		rc = -1;
	} else if (kb_vec_docs_asked(app, kb, key, why, whylen) == 0) {
		*src = KB_VEC_PROVIDER;
		log_info("%s: %zu document vectors computed (%s)", kb_name(kb), kb_count(kb),
			 p->model ? p->model : "");
	} else {
		kb->vectors_retry_ms = now + KB_VEC_RETRY_MS;
		rc = -1;
	}
	free(key);
	return rc;
}

/* -- queries -------------------------------------------------------------- */

/* The query as sent: at most KB_QUERY_MAX bytes, cut between characters.
 * New reference, or NULL when it is not UTF-8. */
static json_t *kb_vec_query_text(const char *query)
{
	size_t n = strlen(query);

	if (n > KB_QUERY_MAX) {
		n = KB_QUERY_MAX;
		while (n > 0 && ((unsigned char)query[n] & 0xC0) == 0x80)
			n--;
	}
	return json_stringn(query, n);
}

json_t *kb_vec_query(struct app *app, const char *query, int *cached, char *why, size_t whylen)
{
	const struct conf_provider *p = &app->conf.prov[PROV_EMBEDDINGS];
	long ttl = app->conf.cache_retrieval_ttl;
	json_t *text = kb_vec_query_text(query), *texts, *v = NULL, *vs;
	char *key;

	if (text == NULL) {
		snprintf(why, whylen, "the query is not UTF-8 text");
		return NULL;
	}
	key = kb_vec_query_key(p, json_string_value(text));
	*cached = 0;
	if (ttl > 0 && app->store && store_cache_get(app->store, KB_VEC_NS, key, &v) == 0 &&
	    json_is_array(v)) {
		*cached = 1;
		goto out;
	}
	json_decref(v);
	v = NULL;
	texts = json_pack("[O]", text);
	vs = kb_vec_ask(app, texts, why, whylen);
	json_decref(texts);
	if (vs) {
		v = json_incref(json_array_get(vs, 0));
		json_decref(vs);
	}
	if (v && ttl > 0 && app->store)
		store_cache_put(app->store, KB_VEC_NS, key, v, ttl * 1000LL);
out:
	free(key);
	json_decref(text);
	return v;
}
