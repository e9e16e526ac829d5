/* JSON text of a jansson value, as json_dumps(v, JNUM_DUMP) writes it,
 * byte for byte, in a tenth of the time.
 *
 * Every step of every thread serialises its events, its checkpoint and its
 * thread record; with jansson's json_dumps that was a third of a worker's
 * CPU (a loop check that prints and hashes each container's address, and
 * a callback per character of every string). jansson stays the data model
 * and the parser: its strings and keys are valid UTF-8 from creation (the
 * project never uses the _nocheck setters), so writing them needs only
 * the escapes, found a run of plain bytes at a time. */
#ifndef AV_JSON_DUMP_H
#define AV_JSON_DUMP_H
#include <jansson.h>
#include "util/buf.h"

/* Appends the compact text of v (an object or an array) to b, without a
 * trailing NUL of its own (b stays NUL-terminated): 0, or -1 when v is
 * not a container, nests deeper than JDUMP_MAX_DEPTH, or b's cap would be
 * passed (b is then as it was). */
int jdump_buf(struct buf *b, const json_t *v);

/* New text (free() it), as json_dumps(v, JNUM_DUMP) returns; NULL as it. */
char *jdump(const json_t *v);

/* New text (free() it) as json_dumps(v, flags) writes it, for the other
 * flags (sorted keys, indents, any value). Use it, not json_dumps: with
 * jalloc installed, json_dumps's string comes from jansson's allocator
 * and free() must not be given it. NULL as json_dumps. */
char *jtext(const json_t *v, size_t flags);

#define JDUMP_MAX_DEPTH 2048

#endif
