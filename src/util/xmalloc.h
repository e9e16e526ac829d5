/* Allocation that cannot fail: out of memory aborts here, once, so callers
 * never check. */
#ifndef AV_XMALLOC_H
#define AV_XMALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
