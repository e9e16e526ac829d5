/* The streamed reply of an OpenAI-compatible chat completion, parsed as it
 * arrives: an event stream of "data: {chunk}" events ended by
 * "data: [DONE]". Bytes may come cut anywhere (inside a line, inside a
 * UTF-8 sequence): only whole lines are read. Each piece of
 * choices[0].delta.content goes to a callback and is kept, so the whole
 * reply is there at the end; a usage object, when a chunk carries one, is
 * kept too. No I/O here: the HTTP side feeds bytes in. */
#ifndef AV_PROV_SSE_DELTA_H
#define AV_PROV_SSE_DELTA_H
#include <stddef.h>
#include <jansson.h>
#include "prov/prov.h"
#include "util/buf.h"

struct sse_delta {
	struct buf line;      /* the line being received */
	struct buf data;      /* the data lines of the event being received */
	struct buf text;      /* the reply so far */
	json_t *usage;        /* new reference, or NULL */
	int in_event;         /* a data line was seen since the last dispatch */
	int after_cr;         /* the last byte was CR: a following LF belongs to it */
	int done;             /* [DONE] seen: the rest is ignored */
	int failed;           /* a failure was reported: the rest is ignored */
	size_t chunks;        /* chunks parsed */
	void (*delta)(void *ctx, const char *piece);
	void *ctx;
};

/* cap bounds the reply text and any one line or event. delta may be NULL. */
void sse_delta_init(struct sse_delta *s, size_t cap, void (*delta)(void *ctx, const char *piece),
		    void *ctx);
void sse_delta_free(struct sse_delta *s);
/* Feeds n bytes. 0, or -1 after prov_fail(a, ...): PROV_BAD_ANSWER for a
 * malformed chunk or an error event, PROV_TOO_LARGE past the cap. */
int sse_delta_feed(struct sse_delta *s, const char *p, size_t n, struct prov_answer *a);
/* The stream ended: reads an event left without its blank line, then moves
 * the text and the usage into a (text always set on success). 0 or -1. */
int sse_delta_finish(struct sse_delta *s, struct prov_answer *a);

#endif
