/* Incremental parser of a streamed chat reply (see sse_delta.h). It reads
 * only whole lines, so a chunk boundary inside a line or a UTF-8 sequence
 * changes nothing; line ends may be LF, CRLF or a lone CR, as the event
 * stream format allows. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "prov/sse_delta.h"

void sse_delta_init(struct sse_delta *s, size_t cap, void (*delta)(void *ctx, const char *piece),
		    void *ctx)
{
	memset(s, 0, sizeof *s);
	buf_init(&s->line, cap);
	buf_init(&s->data, cap);
	buf_init(&s->text, cap);
	s->delta = delta;
	s->ctx = ctx;
}

void sse_delta_free(struct sse_delta *s)
{
	buf_free(&s->line);
	buf_free(&s->data);
	buf_free(&s->text);
	json_decref(s->usage);
	s->usage = NULL;
}

static int sse_delta_fail(struct sse_delta *s, struct prov_answer *a, enum prov_status st,
			  const char *why)
{
	s->failed = 1;
	return prov_fail(a, st, "%s", why);
}

/* An error object in the stream (some providers report a failure that
 * way once the reply has started). */
static int sse_delta_error(struct sse_delta *s, json_t *err, struct prov_answer *a)
{
	json_t *msg = json_is_object(err) ? json_object_get(err, "message") : err; /* borrowed */

	s->failed = 1;
	return prov_fail(a, PROV_BAD_ANSWER, "the provider ended the stream with an error: %.160s",
			 json_is_string(msg) ? json_string_value(msg) : "(no message)");
}

/* The text of choices[0].delta.content, or NULL. Borrowed from chunk. */
static const char *sse_delta_content(json_t *chunk)
{
	json_t *choices = json_object_get(chunk, "choices");   /* borrowed */
	json_t *delta = json_object_get(json_array_get(choices, 0), "delta");

	return json_string_value(json_object_get(delta, "content"));
}

static int sse_delta_chunk(struct sse_delta *s, json_t *chunk, struct prov_answer *a)
{
	json_t *usage = json_object_get(chunk, "usage");        /* borrowed */
	json_t *err = json_object_get(chunk, "error");          /* borrowed */
	const char *piece;

	if (err && !json_is_null(err))
		return sse_delta_error(s, err, a);
	piece = sse_delta_content(chunk);
	if (piece && piece[0]) {
		if (buf_adds(&s->text, piece) < 0)
			return sse_delta_fail(s, a, PROV_TOO_LARGE, "the streamed reply passed the size cap");
		if (s->delta)
			s->delta(s->ctx, piece);
	}
	if (json_is_object(usage)) {
		json_decref(s->usage);
		s->usage = json_incref(usage);
	}
	s->chunks++;
	return 0;
}

/* One complete event: its data lines joined by LF. */
static int sse_delta_dispatch(struct sse_delta *s, struct prov_answer *a)
{
	json_t *chunk;
	int rc;

	s->in_event = 0;
	if (s->data.len == 0)
		return 0;       /* an empty data field: a keep-alive */
	if (strcmp(s->data.data, "[DONE]") == 0) {
		s->done = 1;
		return 0;
	}
	chunk = json_loadb(s->data.data, s->data.len, 0, NULL);  /* new */
	buf_reset(&s->data);
	if (!json_is_object(chunk)) {
		json_decref(chunk);
		return sse_delta_fail(s, a, PROV_BAD_ANSWER, "a streamed chunk is not a JSON object");
	}
	rc = sse_delta_chunk(s, chunk, a);
	json_decref(chunk);
	return rc;
}

/* One line without its end. Only "data" matters; comments (":...") and
 * other fields (event, id, retry) are skipped; a blank line ends an event. */
static int sse_delta_line(struct sse_delta *s, struct prov_answer *a)
{
	const char *l = s->line.data ? s->line.data : "";
	size_t n = s->line.len;
	const char *colon;

	if (n == 0)
		return s->in_event ? sse_delta_dispatch(s, a) : 0;
	if (l[0] == ':')
		return 0;
	colon = memchr(l, ':', n);
	if ((colon ? (size_t)(colon - l) : n) != 4 || memcmp(l, "data", 4) != 0)
		return 0;
	if (colon == NULL)
		colon = l + n - 1;      /* "data" alone: an empty value */
	colon++;
	if (colon < l + n && *colon == ' ')
		colon++;
	if ((s->in_event && buf_add(&s->data, "\n", 1) < 0) ||
	    buf_add(&s->data, colon, (size_t)(l + n - colon)) < 0)
		return sse_delta_fail(s, a, PROV_TOO_LARGE, "a streamed event passed the size cap");
	s->in_event = 1;
	return 0;
}

int sse_delta_feed(struct sse_delta *s, const char *p, size_t n, struct prov_answer *a)
{
	while (n > 0 && !s->done && !s->failed) {
		size_t k = 0;

		if (s->after_cr) {
			s->after_cr = 0;
			if (*p == '\n') {
				p++;
				n--;
				continue;
			}
		}
		while (k < n && p[k] != '\n' && p[k] != '\r')
			k++;
		if (buf_add(&s->line, p, k) < 0)
			return sse_delta_fail(s, a, PROV_TOO_LARGE, "a streamed line passed the size cap");
		if (k == n)
			break;
		s->after_cr = p[k] == '\r';
		p += k + 1;
		n -= k + 1;
		if (sse_delta_line(s, a) < 0)
			return -1;
		buf_reset(&s->line);
	}
	return s->failed ? -1 : 0;
}

int sse_delta_finish(struct sse_delta *s, struct prov_answer *a)
{
	if (s->failed)
		return -1;
	if (!s->done && s->line.len > 0) {
		if (sse_delta_line(s, a) < 0)
			return -1;
		buf_reset(&s->line);
	}
	if (!s->done && s->in_event && sse_delta_dispatch(s, a) < 0)
		return -1;
	if (!s->done && s->chunks == 0)
		return sse_delta_fail(s, a, PROV_BAD_ANSWER, "the stream ended without any reply");
	free(a->text);
	a->text = buf_steal(&s->text);
	json_decref(a->usage);
	a->usage = s->usage;    /* the answer takes the reference */
	s->usage = NULL;
	return 0;
}
