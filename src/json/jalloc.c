/* jansson's allocator: free lists by size class (see jalloc.h). */
#include "config.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>
#include "json/jalloc.h"

#define JALLOC_ALIGN 16                 /* what malloc promises on x86-64 */
#define JALLOC_STEP 16
#define JALLOC_SMALL 256                /* larger blocks go to malloc */
#define JALLOC_CLASSES (JALLOC_SMALL / JALLOC_STEP)
#define JALLOC_KEEP 4096                /* blocks kept per class, at most */
#define JALLOC_BIG 0xff

/* Each block is preceded by a header as large as the alignment, holding
 * its class (JALLOC_BIG: from malloc, returned to free). */
union jalloc_head {
	unsigned char cls;
	max_align_t align;
	char pad[JALLOC_ALIGN];
};

struct jalloc_free {
	struct jalloc_free *next;
};

/* Per thread, so no lock: a block freed by another thread than the one
 * that took it joins that thread's list, which is as good. */
static __thread struct jalloc_free *jalloc_lists[JALLOC_CLASSES];
static __thread unsigned jalloc_kept[JALLOC_CLASSES];

static void *jalloc_malloc(size_t n)
{
	union jalloc_head *h;
	size_t cls;

	if (n == 0)
		n = 1;
	if (n > JALLOC_SMALL) {
		h = malloc(sizeof *h + n);
		if (h == NULL)
			return NULL;
		h->cls = JALLOC_BIG;
		return h + 1;
	}
	cls = (n - 1) / JALLOC_STEP;
	if (jalloc_lists[cls]) {
		struct jalloc_free *f = jalloc_lists[cls];

		jalloc_lists[cls] = f->next;
		jalloc_kept[cls]--;
		h = (union jalloc_head *)f - 1;
	} else {
		h = malloc(sizeof *h + (cls + 1) * JALLOC_STEP);
		if (h == NULL)
			return NULL;
		h->cls = (unsigned char)cls;
	}
	return h + 1;
}

static void jalloc_release(void *p)
{
	union jalloc_head *h;
	struct jalloc_free *f;

	if (p == NULL)
		return;
	h = (union jalloc_head *)p - 1;
	if (h->cls == JALLOC_BIG || jalloc_kept[h->cls] >= JALLOC_KEEP) {
		free(h);
		return;
	}
	f = p;
	f->next = jalloc_lists[h->cls];
	jalloc_lists[h->cls] = f;
	jalloc_kept[h->cls]++;
}

void jalloc_install(void)
{
	const char *pre = getenv("LD_PRELOAD");
#if defined(__SANITIZE_ADDRESS__)
	int sanitized = 1;   /* AddressSanitizer sees a block only through malloc */
#else
	int sanitized = 0;
#endif

	/* Nor does valgrind (its preloaded library). */
	if (sanitized || (pre && strstr(pre, "vgpreload")))
		return;
	json_set_alloc_funcs(jalloc_malloc, jalloc_release);
}
