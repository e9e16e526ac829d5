/* provcli: the provider calls from the command line, for the integration
 * tests. Loads a configuration, makes one call (or N at once with
 * --many) and prints JSON lines on stdout: each streamed piece
 * {"type":"delta"}, each image progress report {"type":"progress"}, one
 * {"type":"answer"} per answer, then {"type":"done"} with the wall time
 * and the tick hook's count and largest gap. Exits 0 whatever the
 * answers say (they are the output); 2 on bad usage, 1 on a bad config. */
#include "config.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <jansson.h>
#include <sodium.h>
#include "conf/conf.h"
#include "wf/builtin.h"
#include "media/imgin.h"
#include "prov/prov.h"
#include "util/clock.h"
#include "util/xmalloc.h"

struct provcli {
	const char *conf_path;
	const char *cmd;
	const char *task;
	json_t *messages;       /* new, or NULL */
	json_t *facts;
	json_t *texts;
	const char *prompt;
	unsigned char *ref;     /* --ref FILE: the reference image, its type by its bytes */
	size_t ref_len;
	const char *ref_mime;
	double temperature;
	int json_mode, stream, width, height, many;
	long timeout_ms;
	/* the tick hook */
	long ticks;
	long long last_tick, max_gap;
};

static void provcli_print_new(json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_REAL_PRECISION(6));

	if (s) {
		puts(s);
		fflush(stdout);
	}
	free(s);
	json_decref(j);
}

static void provcli_delta(void *ctx, const char *text)
{
	provcli_print_new(json_pack("{s:s, s:s}", "type", "delta", "text", text));
}

static void provcli_progress(void *ctx, int task, const char *status, double progress)
{
	provcli_print_new(json_pack("{s:s, s:i, s:s, s:f}", "type", "progress", "task", task,
				    "status", status, "progress", progress));
}

static void provcli_tick(void *ctx)
{
	struct provcli *pc = ctx;
	long long now = clock_mono_ms();

	if (now - pc->last_tick > pc->max_gap)
		pc->max_gap = now - pc->last_tick;
	pc->last_tick = now;
	pc->ticks++;
}

static void provcli_sha256(const struct prov_answer *a, char *hex, size_t size)
{
	unsigned char h[crypto_hash_sha256_BYTES];

	crypto_hash_sha256(h, a->data, a->len);
	sodium_bin2hex(hex, size, h, sizeof h);
}

static void provcli_answer(size_t i, const struct prov_answer *a)
{
	json_t *j = json_pack("{s:s, s:I, s:s, s:s, s:s, s:i}", "type", "answer", "index",
			      (json_int_t)i, "status", prov_status_name(a->status), "error", a->error,
			      "detail", a->detail, "http_status", a->http_status);   /* new */
	char hex[crypto_hash_sha256_BYTES * 2 + 1];

	if (a->text)
		json_object_set_new(j, "text", json_string(a->text));
	if (a->json)
		json_object_set(j, "json", a->json);
	if (a->usage)
		json_object_set(j, "usage", a->usage);
	if (a->data) {
		provcli_sha256(a, hex, sizeof hex);
		json_object_set_new(j, "mime", json_string(a->mime));
		json_object_set_new(j, "len", json_integer((json_int_t)a->len));
		json_object_set_new(j, "sha256", json_string(hex));
	}
	if (a->revised_prompt)
		json_object_set_new(j, "revised_prompt", json_string(a->revised_prompt));
	if (a->ref_used || a->ref_note[0])
		json_object_set_new(j, "ref", json_pack("{s:b, s:s}", "used", a->ref_used, "note", a->ref_note));
	if (a->vectors) {
		json_object_set_new(j, "vectors", json_integer((json_int_t)json_array_size(a->vectors)));
		json_object_set(j, "vector_values", a->vectors);
	}
	provcli_print_new(j);
}

static int provcli_calls(struct provcli *pc, struct prov *p, const struct prov_hooks *h,
			 struct prov_answer *out)
{
	size_t n = (size_t)pc->many;

	if (strcmp(pc->cmd, "chat") == 0) {
		struct chat_call *c = xcalloc(n, sizeof *c);

		for (size_t i = 0; i < n; i++)
			c[i] = (struct chat_call){ .task = pc->task, .messages = pc->messages,
						   .facts = pc->facts, .temperature = pc->temperature,
						   .json_mode = pc->json_mode, .stream = pc->stream,
						   .timeout_ms = pc->timeout_ms };
		prov_chat_many(p, c, n, h, out);
		free(c);
	} else if (strcmp(pc->cmd, "image") == 0) {
		struct image_call *c = xcalloc(n, sizeof *c);

		for (size_t i = 0; i < n; i++)
			c[i] = (struct image_call){ .prompt = pc->prompt, .width = pc->width,
						    .height = pc->height, .ref = pc->ref, .ref_len = pc->ref_len,
						    .ref_mime = pc->ref_mime, .timeout_ms = pc->timeout_ms };
		prov_image_many(p, c, n, h, out);
		free(c);
	} else if (strcmp(pc->cmd, "search") == 0 && n == 1) {
		prov_search(p, pc->prompt, pc->timeout_ms, h, out);
	} else if (strcmp(pc->cmd, "embed") == 0 && n == 1) {
		prov_embed(p, pc->texts, h, out);
	} else {
		return -1;
	}
	return 0;
}

static int provcli_run(struct provcli *pc, const struct conf *c)
{
	struct prov *p = prov_new(c);
	struct prov_hooks h = { provcli_delta, provcli_progress, provcli_tick, pc, NULL };
	struct prov_answer *out = xcalloc((size_t)pc->many, sizeof *out);
	long long t0 = clock_mono_ms();
	int ok = 0;

	pc->last_tick = t0;
	if (provcli_calls(pc, p, &h, out) < 0) {
		fprintf(stderr, "provcli: unknown command %s (or --many with search, embed)\n", pc->cmd);
		free(out);
		prov_free(p);
		return 2;
	}
	for (int i = 0; i < pc->many; i++) {
		provcli_answer((size_t)i, &out[i]);
		ok += out[i].status == PROV_OK;
		prov_answer_free(&out[i]);
	}
	provcli_print_new(json_pack("{s:s, s:I, s:i, s:I, s:I}", "type", "done", "wall_ms",
				    (json_int_t)(clock_mono_ms() - t0), "ok", ok, "ticks",
				    (json_int_t)pc->ticks, "max_tick_gap_ms", (json_int_t)pc->max_gap));
	free(out);
	prov_free(p);
	return 0;
}

/* A JSON option value; NULL (and a message) when it does not parse. New. */
static json_t *provcli_json(const char *opt, const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, JSON_DECODE_ANY, &e);

	if (j == NULL)
		fprintf(stderr, "provcli: --%s: %s\n", opt, e.text);
	return j;
}

static const struct option provcli_opts[] = {
	{ "task", required_argument, NULL, 't' },
	{ "messages", required_argument, NULL, 'm' },
	{ "facts", required_argument, NULL, 'f' },
	{ "texts", required_argument, NULL, 'x' },
	{ "temperature", required_argument, NULL, 'T' },
	{ "json", no_argument, NULL, 'j' },
	{ "stream", no_argument, NULL, 's' },
	{ "timeout", required_argument, NULL, 'o' },
	{ "prompt", required_argument, NULL, 'p' },
	{ "query", required_argument, NULL, 'p' },
	{ "size", required_argument, NULL, 'z' },
	{ "many", required_argument, NULL, 'n' },
	{ "ref", required_argument, NULL, 'r' },
	{ NULL, 0, NULL, 0 },
};

/* The whole file; its media type by its bytes. */
static int provcli_ref(struct provcli *pc, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) != 0) {
		if (f)
			fclose(f);
		fprintf(stderr, "provcli: --ref %s: cannot read it\n", path);
		return -1;
	}
	pc->ref = xmalloc((size_t)n);
	pc->ref_len = fread(pc->ref, 1, (size_t)n, f);
	fclose(f);
	pc->ref_mime = imgin_sniff(pc->ref, pc->ref_len);
	return pc->ref_mime ? 0 : -1;
}

static int provcli_option(struct provcli *pc, int o, const char *arg)
{
	switch (o) {
	case 'c': pc->conf_path = arg; return 0;
	case 't': pc->task = arg; return 0;
	case 'm': return (pc->messages = provcli_json("messages", arg)) ? 0 : -1;
	case 'f': return (pc->facts = provcli_json("facts", arg)) ? 0 : -1;
	case 'x': return (pc->texts = provcli_json("texts", arg)) ? 0 : -1;
	case 'T': pc->temperature = strtod(arg, NULL); return 0;
	case 'j': pc->json_mode = 1; return 0;
	case 's': pc->stream = 1; return 0;
	case 'o': pc->timeout_ms = strtol(arg, NULL, 10); return 0;
	case 'p': pc->prompt = arg; return 0;
	case 'z': return sscanf(arg, "%dx%d", &pc->width, &pc->height) == 2 ? 0 : -1;
	case 'n': pc->many = atoi(arg); return pc->many >= 1 && pc->many <= 64 ? 0 : -1;
	case 'r': return provcli_ref(pc, arg);
	default: return -1;
	}
}

static int provcli_usage(void)
{
	fprintf(stderr, "usage: provcli -c CONF chat|image|search|embed [--task T] [--messages JSON]\n"
			"       [--facts JSON] [--temperature X] [--json] [--stream] [--timeout MS]\n"
			"       [--prompt TEXT] [--query TEXT] [--size WxH] [--texts JSON] [--many N]\n"
			"       [--ref IMAGEFILE]\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct provcli pc = { .task = "chat", .many = 1, .temperature = 0.3 };
	struct conf c;
	struct buf errs;
	int o, rc;

	while ((o = getopt_long(argc, argv, "c:", provcli_opts, NULL)) != -1)
		if (provcli_option(&pc, o, optarg) < 0)
			return provcli_usage();
	if (pc.conf_path == NULL || optind + 1 != argc)
		return provcli_usage();
	pc.cmd = argv[optind];
	if (sodium_init() < 0 || curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
		return 1;
	/* The workflows' [workflow.*] sections are known. */
	wf_builtin_register();
	conf_init(&c);
	buf_init(&errs, 1 << 16);
	if (conf_load(&c, pc.conf_path, &errs) < 0) {
		fprintf(stderr, "%s", errs.data);
		return 1;
	}
	rc = provcli_run(&pc, &c);
	json_decref(pc.messages);
	json_decref(pc.facts);
	json_decref(pc.texts);
	free(pc.ref);
	buf_free(&errs);
	conf_free(&c);
	curl_global_cleanup();
	return rc;
}
