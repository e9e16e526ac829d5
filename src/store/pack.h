/* The bytes of stored checkpoints and event records: zstd frames made
 * with the project's dictionary (zdict.h), which is trained on the
 * project's own checkpoints and events, so a record of a few hundred bytes
 * still compresses. A frame names its dictionary by id, so records packed
 * with an older dictionary stay readable while the build keeps it; a
 * record that is not a zstd frame (written before packing: JSON text) is
 * read as it is. Thread records stay plain JSON (the statistics read them
 * in the database). Safe to call from several threads. */
#ifndef AV_STORE_PACK_H
#define AV_STORE_PACK_H
#include <stddef.h>

/* Packs len bytes of in into a new malloc'd *out (*outlen bytes). 0, or
 * ENOMEM / STORE_ERROR (the compressor failed; nothing allocated). */
int store_pack(const void *in, size_t len, void **out, size_t *outlen);
/* The stored bytes v (vlen) as they were before packing: a new malloc'd
 * *out of *outlen bytes followed by a NUL (so JSON text can be read as a
 * C string). 0, or STORE_ERROR when v is a frame this build cannot read
 * (corrupt, or packed with a dictionary it lacks: logged with its id). */
int store_unpack(const void *v, size_t vlen, void **out, size_t *outlen);
/* 1 when v is a packed record. */
int store_is_packed(const void *v, size_t vlen);

#endif
