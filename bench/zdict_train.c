/* zdict_train: makes the dictionary stored records are packed with
 * (src/store/pack.h). It runs threads of every workflow in-process on a
 * fresh store (the same code the workers run, offline provider), takes
 * every checkpoint and event record it holds, unpacked, as samples, and
 * trains a zstd dictionary on them, then writes it as
 * OUTDIR/store-ID.zdict and as the C source src/store/zdict_ID.c.
 *
 *   zdict_train SRCDIR STOREDIR OUTDIR ID [ROUNDS]
 *
 * SRCDIR: the source tree (its etc/ has the knowledge bases). ROUNDS
 * (default 40): threads per kind of request. bench/zdict-train runs it. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zdict.h>
#include "api/api.h"
#include "inproc.h"
#include "store/backend.h"
#include "store/pack.h"

#define ZT_DICT_BYTES (32 * 1024)

static const char *const zt_bodies[] = {
	"{\"workflow\":\"image\",\"input\":{\"text\":\"a watercolor fox in the snow %d\"}}",
	"{\"workflow\":\"image\",\"input\":{\"text\":\"赛博朋克风格的城市夜景 %d\"}}",
	"{\"workflow\":\"image\",\"input\":{\"text\":\"水墨 山水，远处有船 %d\"}}",
	"{\"workflow\":\"image\",\"input\":{\"text\":\"a minimalist coffee cup on a desk, flat style %d\"}}",
	"{\"workflow\":\"note\",\"input\":{\"topic\":\"周末去杭州春游的攻略 %d\"}}",
	"{\"workflow\":\"note\",\"input\":{\"topic\":\"a weekend hiking plan near the coast %d\"}}",
	"{\"workflow\":\"chat\",\"input\":{\"text\":\"帮我想一个咖啡店的名字 %d\"}}",
	"{\"workflow\":\"chat\",\"input\":{\"text\":\"draw a red bicycle %d\"}}",
	"{\"workflow\":\"graph_edit\",\"input\":{\"text\":\"add a text input and an LLM chat and connect them %d\"}}",
	"{\"workflow\":\"orchestrate\",\"input\":{\"task\":\"write a short story about a lighthouse %d\"}}",
	"{\"workflow\":\"test\",\"input\":{\"topic\":\"春游攻略 %d\",\"steps\":3}}",
};
#define ZT_NBODIES (sizeof zt_bodies / sizeof zt_bodies[0])

struct zt_samples {
	struct buf data;
	size_t *sizes;
	unsigned n, cap;
};

static int zt_visit(const uint8_t *k, size_t klen, const void *v, size_t vlen, void *ctx)
{
	struct zt_samples *s = ctx;
	void *text;
	size_t len;

	if (store_unpack(v, vlen, &text, &len) != 0)
		return 0;
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 1024;
		s->sizes = realloc(s->sizes, s->cap * sizeof *s->sizes);
	}
	if (s->sizes && buf_add(&s->data, text, len) == 0)
		s->sizes[s->n++] = len;
	free(text);
	return 0;
}

static int zt_scan_fn(struct store *st, struct store_txn *txn, void *p)
{
	struct zt_samples *s = p;
	int rc = store_kv_scan(txn, STORE_T_CKPTS, "", 0, 0, 0, 0, zt_visit, s);

	return rc ? rc : store_kv_scan(txn, STORE_T_EVENTS, "", 0, 0, 0, 0, zt_visit, s);
}

static void zt_set_kb(struct app *app, const char *src)
{
	char path[4096];

#define ZT_KB(f, name) do { snprintf(path, sizeof path, "%s/etc/%s", src, name); \
		free(app->conf.f); app->conf.f = strdup(path); } while (0)
	ZT_KB(kb_styles, "styles.json");
	ZT_KB(kb_notes, "notes.json");
	ZT_KB(kb_words, "words.txt");
	ZT_KB(kb_nodes, "nodes.json");
	ZT_KB(kb_agents, "agents.json");
	ZT_KB(kb_templates, "templates.json");
#undef ZT_KB
}

static int zt_write_c(const char *path, unsigned id, const unsigned char *d, size_t n)
{
	FILE *f = fopen(path, "w");

	if (f == NULL)
		return -1;
	fprintf(f, "/* Dictionary %u of the store's packed records (zdict.h), made by\n"
		   " * bench/zdict-train from etc/zdict/store-%u.zdict's samples: do not edit. */\n"
		   "#include \"config.h\"\n#include \"store/zdict.h\"\n\n"
		   "static const unsigned char store_zdict_%u_data[%zu] = {", id, id, id, n);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s0x%02x,", i % 12 ? " " : "\n\t", d[i]);
	fprintf(f, "\n};\n\nconst struct store_zdict store_zdict_%u = { %u, store_zdict_%u_data, %zu };\n",
		id, id, id, n);
	return fclose(f);
}

int main(int argc, char **argv)
{
	static struct app app;
	struct zt_samples s = { .n = 0 };
	struct sink out;
	unsigned char *dict = malloc(ZT_DICT_BYTES);
	char body[512], path[4096];
	unsigned id;
	int rounds;
	size_t n;
	FILE *f;

	if (argc < 5) {
		fprintf(stderr, "usage: zdict_train SRCDIR STOREDIR OUTDIR ID [ROUNDS]\n");
		return 2;
	}
	id = (unsigned)atoi(argv[4]);
	rounds = argc > 5 ? atoi(argv[5]) : 40;
	if (bench_open(&app, argv[2], "write_nosync") < 0)
		return 1;
	zt_set_kb(&app, argv[1]);
	buf_init(&out.b, 1 << 24);
	for (int i = 0; i < rounds; i++)
		for (size_t b = 0; b < ZT_NBODIES; b++) {
			snprintf(body, sizeof body, zt_bodies[b], i);
			bench_call(&app, &out, "POST", "/api/agent/stream", body, api_stream_post);
			store_maintain(app.store);
		}
	buf_init(&s.data, (size_t)1 << 31);
	if (store_txn(app.store, zt_scan_fn, &s) != 0 || s.n == 0) {
		fprintf(stderr, "zdict_train: no samples\n");
		return 1;
	}
	n = ZDICT_trainFromBuffer(dict, ZT_DICT_BYTES, s.data.data, s.sizes, s.n);
	if (ZDICT_isError(n)) {
		fprintf(stderr, "zdict_train: %s\n", ZDICT_getErrorName(n));
		return 1;
	}
	/* The header's dictionary id (bytes 4..7, little-endian): ours. */
	for (int i = 0; i < 4; i++)
		dict[4 + i] = (unsigned char)(id >> (8 * i));
	snprintf(path, sizeof path, "%s/store-%u.zdict", argv[3], id);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(dict, 1, n, f) != n || fclose(f) != 0) {
		perror(path);
		return 1;
	}
	snprintf(path, sizeof path, "%s/src/store/zdict_%u.c", argv[1], id);
	if (zt_write_c(path, id, dict, n) != 0) {
		perror(path);
		return 1;
	}
	printf("dictionary %u: %zu bytes from %u samples (%zu bytes)\n", id, n, s.n, s.data.len);
	store_close(app.store);
	return 0;
}
