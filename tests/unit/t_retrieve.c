/* Retrieval (kb/retrieve.h): the fusion of lexical and cosine scores as
 * tables; the store cache keys; without embeddings, exactly the lexical
 * results; with vectors in the store's cache, a fused search that asks no
 * provider, then the vectors kept in memory; and every embeddings failure
 * (no service listening, a query vector of another dimension, cached
 * document vectors that do not fit) answered lexically. The store is
 * Berkeley DB, or PostgreSQL under make check-postgresql (teststore.h). */
#include "config.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <jansson.h>
#include <sodium.h>
#include "tap.h"
#include "teststore.h"
#include "app.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/retrieve.h"
#include "prov/prov.h"
#include "store/store.h"
#include "text/seg.h"
#include "util/xmalloc.h"

/* -- the fused score ------------------------------------------------------- */

static const struct score_case {
	double bm25, cosine, want;
} score_cases[] = {
	{ 0, 0, 0 },
	{ 0.9, 0, 0.9 },          /* lexical alone: unchanged */
	{ 0, 0.8, 0.8 },          /* cosine alone: unchanged */
	{ 0.6, 0.6, 0.72 },       /* agreement lifts: 0.6 + 0.5 * 0.6 * 0.4 */
	{ 0.4, 0.2, 0.46 },
	{ 0.2, 0.4, 0.46 },       /* symmetric */
	{ 1, 0.5, 1 },            /* never past 1 */
	{ 0.5, 1, 1 },
	{ 0.3, -0.2, 0.3 },       /* a negative cosine says nothing */
	{ 0.12345, 0.0, 0.1235 }, /* 4 places */
};

static void test_scores(void)
{
	for (size_t i = 0; i < sizeof score_cases / sizeof score_cases[0]; i++) {
		const struct score_case *c = &score_cases[i];
		double got = kb_fuse_score(c->bm25, c->cosine);

		ok(fabs(got - c->want) < 1e-9, "score: bm25 %g, cosine %g -> %g (got %g)", c->bm25,
		   c->cosine, c->want, got);
	}
}

/* -- fusing lists ---------------------------------------------------------- */

static const struct fuse_case {
	const char *name;
	const char *lexical, *cosine;   /* cosine NULL: no vectors */
	size_t limit;
	double min;
	const char *want;               /* id:similarity:method ... */
} fuse_cases[] = {
	{ "no vectors: the lexical list as it is", "[{\"id\":\"a\",\"similarity\":0.5},"
	  "{\"id\":\"b\",\"similarity\":0.3}]", NULL, 10, 0, "a:0.5:bm25 b:0.3:bm25" },
	{ "cosine reorders and adds", "[{\"id\":\"a\",\"similarity\":0.5},{\"id\":\"b\","
	  "\"similarity\":0.3}]", "[{\"id\":\"b\",\"similarity\":0.9},{\"id\":\"a\",\"similarity\":0.1},"
	  "{\"id\":\"c\",\"similarity\":0.4}]", 10, 0, "b:0.915:both a:0.525:both c:0.4:cosine" },
	{ "min on the fused similarity", "[{\"id\":\"a\",\"similarity\":0.5},{\"id\":\"b\","
	  "\"similarity\":0.3}]", "[{\"id\":\"b\",\"similarity\":0.9},{\"id\":\"a\",\"similarity\":0.1},"
	  "{\"id\":\"c\",\"similarity\":0.4}]", 10, 0.5, "b:0.915:both a:0.525:both" },
	{ "limit after ordering", "[{\"id\":\"a\",\"similarity\":0.5}]",
	  "[{\"id\":\"b\",\"similarity\":0.9}]", 1, 0, "b:0.9:cosine" },
	{ "ties by id", "[{\"id\":\"x\",\"similarity\":0.5}]", "[{\"id\":\"w\",\"similarity\":0.5}]",
	  10, 0, "w:0.5:cosine x:0.5:bm25" },
	{ "zero cosine is no hit", "[]", "[{\"id\":\"z\",\"similarity\":0}]", 10, 0, "" },
	{ "limit 0", "[{\"id\":\"a\",\"similarity\":0.5}]", "[]", 0, 0, "" },
	{ "only cosine, the lexical search found nothing", "[]",
	  "[{\"id\":\"q\",\"similarity\":0.61},{\"id\":\"r\",\"similarity\":0.2}]", 10, 0.3,
	  "q:0.61:cosine" },
};

static void render(const json_t *res, char *out, size_t n)
{
	size_t i;
	json_t *r;

	*out = '\0';
	json_array_foreach(res, i, r) {
		char one[96];

		snprintf(one, sizeof one, "%s%s:%g:%s", i ? " " : "",
			 json_string_value(json_object_get(r, "id")),
			 json_number_value(json_object_get(r, "similarity")),
			 json_string_value(json_object_get(r, "method")));
		strncat(out, one, n - strlen(out) - 1);
	}
}

static void test_fuse(void)
{
	char got[512];

	for (size_t i = 0; i < sizeof fuse_cases / sizeof fuse_cases[0]; i++) {
		const struct fuse_case *c = &fuse_cases[i];
		json_t *lex = json_loads(c->lexical, 0, NULL);
		json_t *cos = c->cosine ? json_loads(c->cosine, 0, NULL) : NULL;
		json_t *res = kb_fuse(lex, cos, c->limit, c->min);

		render(res, got, sizeof got);
		is_str(got, c->want, "fuse: %s", c->name);
		json_decref(lex);
		json_decref(cos);
		json_decref(res);
	}
	{
		json_t *lex = json_loads("[{\"id\":\"a\",\"name\":\"A\",\"similarity\":0.5}]", 0, NULL);
		json_t *cos = json_loads("[{\"id\":\"a\",\"name\":\"A\",\"similarity\":0.25}]", 0, NULL);
		json_t *res = kb_fuse(lex, cos, 5, 0), *r = json_array_get(res, 0);
		json_t *s = json_object_get(r, "scores");

		ok(json_number_value(json_object_get(s, "bm25")) == 0.5 &&
		   json_number_value(json_object_get(s, "cosine")) == 0.25 &&
		   strcmp(json_string_value(json_object_get(r, "name")) ?: "", "A") == 0,
		   "fuse: each hit keeps its fields and both scores");
		json_decref(res);
		res = kb_fuse(lex, NULL, 5, 0);
		s = json_object_get(json_array_get(res, 0), "scores");
		ok(json_object_size(s) == 1 && json_object_get(s, "bm25"),
		   "fuse: without vectors, only the bm25 score");
		json_decref(res);
		json_decref(lex);
		json_decref(cos);
	}
}

/* -- keys ------------------------------------------------------------------ */

static const struct key_case {
	const char *digest, *base, *model;
} key_cases[] = {
	{ "d1", "http://a/v1", "m" },
	{ "d2", "http://a/v1", "m" },        /* another version of the library */
	{ "d1", "http://b/v1", "m" },        /* another service */
	{ "d1", "http://a/v1", "m2" },       /* another model */
	{ "d1", "http://a/v1;", "m" },       /* separators inside parts */
	{ "d1", "http://a/v1", ";m" },
	{ "d1;", "http://a/v1", "m" },
	{ "d", "1http://a/v1", "m" },
};

static void key_conf(struct conf_provider *p, const char *base, const char *model)
{
	p->base_url = (char *)base;
	p->model = (char *)model;
}

static void test_keys(void)
{
	size_t n = sizeof key_cases / sizeof key_cases[0];
	char *keys[16], *q1, *q2, *q3;
	struct conf_provider p = { 0 };
	int distinct = 1;

	for (size_t i = 0; i < n; i++) {
		key_conf(&p, key_cases[i].base, key_cases[i].model);
		keys[i] = kb_vec_doc_key(key_cases[i].digest, &p);
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(keys[i], keys[j]) == 0) {
				distinct = 0;
				printf("# same key for cases %zu and %zu: %s\n", i, j, keys[i]);
			}
	ok(distinct, "keys: a library's vectors are kept per version, service and model (%zu keys)", n);
	key_conf(&p, key_cases[0].base, key_cases[0].model);
	q1 = kb_vec_doc_key(key_cases[0].digest, &p);
	is_str(q1, keys[0], "keys: the same parts give the same key");
	free(q1);
	q1 = kb_vec_query_key(&p, "d1");
	q2 = kb_vec_query_key(&p, "d2");
	key_conf(&p, key_cases[3].base, key_cases[3].model);
	q3 = kb_vec_query_key(&p, "d1");
	ok(strcmp(q1, q2) != 0 && strcmp(q1, q3) != 0 && strcmp(q1, keys[0]) != 0,
	   "keys: a query's key has its text and model, and is never a library's key");
	free(q1);
	free(q2);
	free(q3);
	for (size_t i = 0; i < n; i++)
		free(keys[i]);
}

/* -- without embeddings ---------------------------------------------------- */

static const char *const plain_queries[] = {
	"赛博朋克风格的城市", "watercolor landscape", "水墨山水", "pixel art", "一只猫", "", "oil",
};

static void test_plain(const char *styles)
{
	char err[512];
	struct kb *kb = kb_load(styles, (const struct kb_field[]){
		{ "name_zh", 3, KB_SHOW | KB_REQUIRED }, { "name_en", 3, KB_SHOW | KB_REQUIRED },
		{ "keywords", 3, KB_REQUIRED }, { "prompt", 1, KB_SHOW | KB_REQUIRED },
		{ NULL, 0, 0 } }, err, sizeof err);
	static struct app app;

	if (kb == NULL)
		tap_bail("%s", err);
	conf_init(&app.conf);
	app.prov = prov_new(&app.conf);
	for (size_t i = 0; i < sizeof plain_queries / sizeof plain_queries[0]; i++) {
		for (int a = 0; a < 2; a++) {
			struct kb_retrieve_info info;
			json_t *want = kb_search(kb, plain_queries[i], 3, 0.2);
			json_t *got = kb_retrieve(a ? &app : NULL, kb, plain_queries[i], 3, 0.2, &info);
			size_t j;
			json_t *h;
			int same = json_array_size(want) == json_array_size(got);

			json_array_foreach(got, j, h) {
				json_t *w = json_array_get(want, j);

				same = same && json_equal(json_object_get(h, "id"), json_object_get(w, "id")) &&
				       json_equal(json_object_get(h, "similarity"), json_object_get(w, "similarity")) &&
				       strcmp(json_string_value(json_object_get(h, "method")), "bm25") == 0;
			}
			ok(same && info.method == KB_METHOD_BM25,
			   "plain: \"%s\" %s: exactly the lexical results (%zu)", plain_queries[i],
			   a ? "with the offline embeddings" : "without providers", json_array_size(got));
			json_decref(want);
			json_decref(got);
		}
	}
	prov_free(app.prov);
	conf_free(&app.conf);
	kb_free(kb);
}

/* -- with vectors in the store ---------------------------------------------- */

static const char vdocs[] =
	"[{\"id\": \"dusk\", \"name\": \"Sunset glow\"},"
	" {\"id\": \"night\", \"name\": \"Night city lights\"},"
	" {\"id\": \"city\", \"name\": \"City street\"}]";
static const struct kb_field vfields[] = {
	{ "name", 1, KB_SHOW | KB_REQUIRED },
	{ NULL, 0, 0 },
};

struct fx {
	struct teststore ts;
	struct app app;
	struct kb *kb;
};

static void fx_init(struct fx *f)
{
	struct conf_provider *p = &f->app.conf.prov[PROV_EMBEDDINGS];
	char err[512];
	json_t *docs = json_loads(vdocs, 0, NULL);

	memset(f, 0, sizeof *f);
	teststore_init(&f->ts, &f->app.conf, "t_retrieve");
	teststore_set(&p->kind, "openai");
	/* Nothing listens there: any call to the provider fails at once. */
	teststore_set(&p->base_url, "http://127.0.0.1:9/v1");
	teststore_set(&p->model, "emb-test");
	p->retries = 0;
	p->timeout_ms = 2000;
	f->app.store = teststore_open(&f->app.conf);
	f->app.prov = prov_new(&f->app.conf);
	f->kb = kb_from_json(docs, vfields, "vdocs", err, sizeof err);
	json_decref(docs);
	if (f->kb == NULL)
		tap_bail("%s", err);
}

static void fx_done(struct fx *f)
{
	kb_free(f->kb);
	prov_free(f->app.prov);
	teststore_free(&f->ts, &f->app.conf, f->app.store);
}

static void fx_put(struct fx *f, int doc, const char *what, const char *json)
{
	const struct conf_provider *p = &f->app.conf.prov[PROV_EMBEDDINGS];
	char *key = doc ? kb_vec_doc_key(kb_digest(f->kb), p) : kb_vec_query_key(p, what);
	json_t *v = json_loads(json, 0, NULL);

	if (store_cache_put(f->app.store, KB_VEC_NS, key, v, 60000) != 0)
		tap_bail("store_cache_put");
	json_decref(v);
	free(key);
}

static void test_stored(void)
{
	struct fx f;
	struct kb_retrieve_info info;
	json_t *res, *lex, *plain;
	char got[512], want[512];

	fx_init(&f);
	/* "evening city": lexically the city street first, by meaning the
	 * sunset. */
	fx_put(&f, 1, NULL, "[[1, 0, 0], [0.2, 1, 0.3], [0, 0.2, 1]]");
	fx_put(&f, 0, "evening city", "[0.9, 0.1, 0.2]");
	res = kb_retrieve(&f.app, f.kb, "evening city", 5, 0, &info);
	render(res, got, sizeof got);
	ok(info.method == KB_METHOD_HYBRID && info.docs == KB_VEC_STORE && info.query_cached,
	   "stored: fused, the document and query vectors from the store's cache (%s)", info.why);
	ok(strncmp(got, "dusk:", 5) == 0, "stored: cosine ranks the sunset first (%s)", got);
	json_decref(res);
	res = kb_retrieve(&f.app, f.kb, "evening city", 5, 0, &info);
	ok(info.method == KB_METHOD_HYBRID && info.docs == KB_VEC_MEMORY,
	   "stored: the second search uses the vectors kept in memory");
	json_decref(res);

	/* A query no cache has: the provider is asked and cannot be reached. */
	plain = kb_search(f.kb, "night lights", 5, 0);
	lex = kb_fuse(plain, NULL, 5, 0);
	json_decref(plain);
	res = kb_retrieve(&f.app, f.kb, "night lights", 5, 0, &info);
	render(res, got, sizeof got);
	render(lex, want, sizeof want);
	ok(info.method == KB_METHOD_FALLBACK && *info.why, "failure: no service: fallback (%s)",
	   info.why);
	is_str(got, want, "failure: no service: the lexical results");
	json_decref(res);
	json_decref(lex);

	/* A query vector of another dimension. */
	fx_put(&f, 0, "city", "[1, 0]");
	res = kb_retrieve(&f.app, f.kb, "city", 5, 0, &info);
	render(res, got, sizeof got);
	ok(info.method == KB_METHOD_FALLBACK, "failure: wrong dimension: fallback (%s)", info.why);
	ok(strstr(got, "cosine") == NULL && strncmp(got, "city:", 5) == 0,
	   "failure: wrong dimension: lexical results (%s)", got);
	json_decref(res);
	fx_done(&f);

	/* Cached document vectors that do not fit the library are not used;
	 * the provider fails; it is not asked again at once. */
	fx_init(&f);
	fx_put(&f, 1, NULL, "[[1, 0, 0]]");
	fx_put(&f, 0, "city", "[1, 0, 0]");
	res = kb_retrieve(&f.app, f.kb, "city", 5, 0, &info);
	ok(info.method == KB_METHOD_FALLBACK && kb_vectors(f.kb) == NULL,
	   "failure: cached vectors of the wrong count are not kept (%s)", info.why);
	json_decref(res);
	res = kb_retrieve(&f.app, f.kb, "city", 5, 0, &info);
	ok(info.method == KB_METHOD_FALLBACK && strstr(info.why, "less than"),
	   "failure: the documents are not asked for again at once (%s)", info.why);
	json_decref(res);
	fx_done(&f);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char path[1024], err[512];

	if (sodium_init() < 0)
		tap_bail("sodium_init");
	snprintf(path, sizeof path, "%s/etc/words.txt", top ? top : ".");
	if (text_seg_load(path, err, sizeof err) < 0)
		tap_bail("%s", err);
	test_scores();
	test_fuse();
	test_keys();
	snprintf(path, sizeof path, "%s/etc/styles.json", top ? top : ".");
	test_plain(path);
	test_stored();
	return tap_done();
}
