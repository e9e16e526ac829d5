/* The SSE writer: whatever the payload, its frame parses back as exactly
 * one event with no field but data (and the id given), and the data
 * lines joined are the payload with its line breaks normalised. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "fcgi/sse.h"

static void fuzz_normalise(const char *in, size_t n, struct buf *out)
{
	for (size_t i = 0; i < n; i++) {
		if (in[i] == '\r') {
			buf_add(out, "\n", 1);
			if (i + 1 < n && in[i + 1] == '\n')
				i++;
		} else {
			buf_add(out, in + i, 1);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf frame, want, got;
	const char *p, *end;
	int events = 0, ids = 0, first = 1;

	buf_init(&frame, 1 << 22);
	buf_init(&want, 1 << 22);
	buf_init(&got, 1 << 22);
	if (sse_frame(&frame, 42, (const char *)data, size) != 0)
		abort();
	fuzz_normalise((const char *)data, size, &want);
	/* A strict reader: lines end at LF (the writer emits only LF). */
	for (p = frame.data, end = frame.data + frame.len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len;

		if (nl == NULL)
			abort();              /* the frame ends with a blank line */
		len = (size_t)(nl - p);
		if (len == 0) {
			events++;
		} else if (len >= 6 && memcmp(p, "data: ", 6) == 0) {
			if (!first)
				buf_add(&got, "\n", 1);
			buf_add(&got, p + 6, len - 6);
			first = 0;
		} else if (len == 6 && memcmp(p, "id: 42", 6) == 0) {
			ids++;
		} else {
			abort();              /* a field that is not data or the id */
		}
		for (size_t i = 0; i < len; i++)
			if (p[i] == '\r')
				abort();      /* a bare CR would end a line for a browser */
		p = nl + 1;
	}
	if (events != 1 || ids != 1 || got.len != want.len ||
	    (got.len && memcmp(got.data, want.data, got.len) != 0))
		abort();
	buf_free(&frame);
	buf_free(&want);
	buf_free(&got);
	return 0;
}
