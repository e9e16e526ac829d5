/* A growable byte buffer with a hard cap: appending past the cap fails
 * cleanly and leaves the buffer as it was (curl's dynbuf). Always
 * NUL-terminated, so text can be read as a C string. */
#ifndef AV_BUF_H
#define AV_BUF_H
#include <stddef.h>

struct buf {
	char *data;
	size_t len;
	size_t alloc;
	size_t cap;
};

void buf_init(struct buf *b, size_t cap);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
/* 0, or -1 when the cap would be passed (the buffer is unchanged). */
int buf_add(struct buf *b, const void *p, size_t n);
/* Room for n more bytes (and the NUL) without another allocation: 0, or
 * -1 when the cap would be passed (the buffer is unchanged). For writers
 * that then fill data + len themselves. */
int buf_reserve(struct buf *b, size_t n);
/* One byte, without a call when there is room. */
static inline int buf_addc(struct buf *b, char c)
{
	if (b->len + 2 <= b->alloc && b->len < b->cap) {
		b->data[b->len++] = c;
		b->data[b->len] = '\0';
		return 0;
	}
	return buf_add(b, &c, 1);
}
int buf_adds(struct buf *b, const char *s);
int buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the data to the caller (who frees it); the buffer is left empty. */
char *buf_steal(struct buf *b);

#endif
