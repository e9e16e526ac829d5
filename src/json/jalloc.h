/* jansson's memory: small blocks from free lists by size class.
 *
 * A step builds and drops thousands of small jansson values (the state,
 * its diff, the events, the thread record, parsed and written again), and
 * a dropped tree is freed block by block: glibc's per-size caches hold
 * seven blocks each, so most of those frees, and the mallocs that follow,
 * took malloc's slow paths (a seventh of a worker's instructions). Blocks
 * up to 256 bytes are kept on per-thread lists (up to 4,096 a size) and
 * reused; larger ones go to malloc and free. Installed once at start-up,
 * before any jansson value exists: a block must be freed by the allocator
 * that made it. Not installed under AddressSanitizer, which checks every
 * block only when malloc hands it out, or under valgrind. */
#ifndef AV_JSON_JALLOC_H
#define AV_JSON_JALLOC_H

void jalloc_install(void);

#endif
