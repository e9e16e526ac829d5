/* The streamed-reply parser: each stream fed whole, byte by byte and cut
 * in two at every position gives the same pieces, text, usage and status;
 * CRLF and lone CR line ends; comments and keep-alives; [DONE]; chunks
 * that are malformed, errors, or past the cap. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "prov/prov.h"
#include "prov/sse_delta.h"
#include "util/buf.h"

#define C(text) "data: {\"choices\":[{\"delta\":{\"content\":\"" text "\"}}]}"
#define TEN C("0123456789") "\n\n"
#define USAGE "data: {\"choices\":[],\"usage\":{\"total_tokens\":7}}"

struct sse_case {
	const char *name;
	const char *stream;
	size_t cap;              /* 0: 1 MiB */
	enum prov_status status;
	const char *pieces;      /* the deltas, each followed by '|' */
	const char *text;        /* the whole reply (PROV_OK only) */
	long long tokens;        /* usage.total_tokens, -1 for no usage */
};

static const struct sse_case cases[] = {
	{ "plain stream with usage",
	  "data: {\"choices\":[{\"delta\":{\"role\":\"assistant\"}}]}\n\n" C("你好") "\n\n"
	  C("，世界") "\n\n" USAGE "\n\ndata: [DONE]\n\n",
	  0, PROV_OK, "你好|，世界|", "你好，世界", 7 },
	{ "CRLF line ends",
	  C("a") "\r\n\r\n" C("b") "\r\n\r\n" USAGE "\r\n\r\ndata: [DONE]\r\n\r\n",
	  0, PROV_OK, "a|b|", "ab", 7 },
	{ "lone CR line ends",
	  C("a") "\r\r" C("b") "\r\rdata: [DONE]\r\r",
	  0, PROV_OK, "a|b|", "ab", -1 },
	{ "comments, keep-alives, other fields",
	  ": keep-alive\n\n\n" "event: message\nid: 3\nretry: 100\n" C("x") "\n\n"
	  ":\n\ndata:\n\n" C("y") "\n\n: bye\ndata: [DONE]\n\n",
	  0, PROV_OK, "x|y|", "xy", -1 },
	{ "no space after the colon",
	  "data:{\"choices\":[{\"delta\":{\"content\":\"z\"}}]}\n\ndata:[DONE]\n\n",
	  0, PROV_OK, "z|", "z", -1 },
	{ "one chunk on two data lines",
	  "data: {\"choices\":\ndata: [{\"delta\":{\"content\":\"m\"}}]}\n\ndata: [DONE]\n\n",
	  0, PROV_OK, "m|", "m", -1 },
	{ "null and empty content skipped",
	  "data: {\"choices\":[{\"delta\":{\"content\":null}}]}\n\n" C("") "\n\n" C("q") "\n\n"
	  "data: [DONE]\n\n",
	  0, PROV_OK, "q|", "q", -1 },
	{ "everything after [DONE] ignored",
	  C("k") "\n\ndata: [DONE]\n\ndata: {broken\n\n",
	  0, PROV_OK, "k|", "k", -1 },
	{ "stream ends without the blank line",
	  C("e") "\n\n" C("nd"),
	  0, PROV_OK, "e|nd|", "end", -1 },
	{ "escapes decoded",
	  C("line\\nnext \\\"q\\\" \\u00e9") "\n\ndata: [DONE]\n\n",
	  0, PROV_OK, "line\nnext \"q\" é|", "line\nnext \"q\" é", -1 },
	{ "malformed chunk",
	  C("a") "\n\ndata: {broken\n\n" C("b") "\n\n",
	  0, PROV_BAD_ANSWER, "a|", NULL, -1 },
	{ "chunk that is not an object",
	  "data: [1, 2]\n\n",
	  0, PROV_BAD_ANSWER, "", NULL, -1 },
	{ "error in the stream",
	  C("a") "\n\ndata: {\"error\":{\"message\":\"overloaded\"}}\n\n",
	  0, PROV_BAD_ANSWER, "a|", NULL, -1 },
	{ "empty stream",
	  ": nothing\n\n",
	  0, PROV_BAD_ANSWER, "", NULL, -1 },
	{ "text past the cap",
	  TEN TEN TEN TEN TEN TEN TEN "data: [DONE]\n\n",
	  60, PROV_TOO_LARGE, "0123456789|0123456789|0123456789|0123456789|0123456789|0123456789|",
	  NULL, -1 },
	{ "text at the cap",
	  TEN TEN TEN TEN TEN TEN "data: [DONE]\n\n",
	  60, PROV_OK, "0123456789|0123456789|0123456789|0123456789|0123456789|0123456789|",
	  "012345678901234567890123456789012345678901234567890123456789", -1 },
	{ "line past the cap",
	  TEN "data: [DONE]\n\n",
	  32, PROV_TOO_LARGE, "", NULL, -1 },
};

struct sse_result {
	struct buf pieces;
	struct prov_answer a;
};

static void sse_collect(void *ctx, const char *piece)
{
	struct sse_result *r = ctx;

	buf_adds(&r->pieces, piece);
	buf_adds(&r->pieces, "|");
}

/* Feeds the stream cut at the given positions (step 0: in two at cut;
 * else in pieces of step bytes). */
static void sse_run(const struct sse_case *c, size_t cut, size_t step, struct sse_result *r)
{
	struct sse_delta s;
	const char *p = c->stream;
	size_t n = strlen(p), at = 0;
	int rc = 0;

	buf_init(&r->pieces, 1 << 16);
	prov_answer_init(&r->a);
	sse_delta_init(&s, c->cap ? c->cap : 1 << 20, sse_collect, r);
	if (step == 0) {
		rc = sse_delta_feed(&s, p, cut, &r->a);
		if (rc == 0)
			rc = sse_delta_feed(&s, p + cut, n - cut, &r->a);
	} else {
		for (at = 0; at < n && rc == 0; at += step)
			rc = sse_delta_feed(&s, p + at, n - at < step ? n - at : step, &r->a);
	}
	if (rc == 0)
		sse_delta_finish(&s, &r->a);
	sse_delta_free(&s);
}

static int sse_same(const struct sse_case *c, const struct sse_result *r)
{
	json_t *t = json_object_get(r->a.usage, "total_tokens");

	return r->a.status == c->status && strcmp(r->pieces.data ? r->pieces.data : "", c->pieces) == 0 &&
	       (c->text == NULL || (r->a.text && strcmp(r->a.text, c->text) == 0)) &&
	       (c->tokens < 0 ? r->a.usage == NULL : json_integer_value(t) == c->tokens);
}

static void sse_result_free(struct sse_result *r)
{
	buf_free(&r->pieces);
	prov_answer_free(&r->a);
}

static void sse_check(const struct sse_case *c)
{
	struct sse_result r;
	size_t n = strlen(c->stream), bad = (size_t)-1;
	int bytewise;

	sse_run(c, n, 0, &r);
	is_int(r.a.status, c->status, "%s: status", c->name);
	is_str(r.pieces.data ? r.pieces.data : "", c->pieces, "%s: pieces", c->name);
	if (c->text)
		is_str(r.a.text, c->text, "%s: whole text", c->name);
	else
		ok(r.a.error[0] != '\0', "%s: a reason is given (%s)", c->name, r.a.error);
	if (c->tokens >= 0)
		is_int(json_integer_value(json_object_get(r.a.usage, "total_tokens")), c->tokens,
		       "%s: usage kept", c->name);
	sse_result_free(&r);

	sse_run(c, 0, 1, &r);
	bytewise = sse_same(c, &r);
	sse_result_free(&r);
	ok(bytewise, "%s: same fed byte by byte", c->name);

	for (size_t cut = 0; cut <= n && bad == (size_t)-1; cut++) {
		sse_run(c, cut, 0, &r);
		if (!sse_same(c, &r))
			bad = cut;
		sse_result_free(&r);
	}
	if (!ok(bad == (size_t)-1, "%s: same cut in two anywhere", c->name))
		printf("#   differs when cut at %zu\n", bad);
}

int main(void)
{
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		sse_check(&cases[i]);
	return tap_done();
}
