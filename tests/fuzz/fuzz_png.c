/* PNG files through pngio.c: the header, the row reader, and decode,
 * encode, decode again (the pixels must survive), all under limits.
 * Structure-aware: the custom mutator works on chunks (duplicates, drops
 * and reorders them, changes IHDR fields, inflates the IDAT data, mutates
 * the scanlines and deflates them again) and fixes the CRCs, so libpng's
 * CRC check does not stop every mutated file at the first chunk. Each
 * file is also read under a small budget (64 pixels a side). Seed corpus
 * in corpus/fuzz_png/: small valid PNGs of every colour type, and files
 * whose chunks lie about their length (0x7fffffff, 0x80000000, 0xffffffff,
 * one byte past the end), stop before IEND, or carry a zTXt or iCCP that
 * inflates past the 1 MiB an ancillary chunk may take. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "util/buf.h"
#include "util/pngio.h"

#define FZ_MAX_CHUNKS 64
#define FZ_RAW_MAX (1 << 20)

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);

static const struct pngio_limits fz_lim = { 4096, 16L << 20 };
/* A small budget, as a reference image's share of it may be. */
static const struct pngio_limits fz_small = { 64, 64 * 64 * 8 };

static int fz_row(void *ctx, int y, const unsigned char *rgba, int w)
{
	unsigned *sum = ctx;

	for (int x = 0; x < w * 4; x++)
		*sum += rgba[x];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pngio_info info;
	struct pngio_image img, back;
	struct buf out;
	char why[200];
	unsigned sum = 0;

	int head = pngio_info(data, size, &fz_lim, &info, why, sizeof why);

	pngio_read_rows(data, size, &fz_lim, &info, fz_row, &sum, why, sizeof why);
	if (pngio_info(data, size, &fz_small, &info, why, sizeof why) == PNGIO_OK &&
	    pngio_decode(data, size, &fz_small, &img, why, sizeof why) == PNGIO_OK)
		pngio_image_free(&img);
	if (pngio_decode(data, size, &fz_lim, &img, why, sizeof why) != PNGIO_OK)
		return 0;
	if (head != PNGIO_OK)
		abort();   /* what decodes has a header that reads */
	buf_init(&out, 64u << 20);
	if (pngio_encode(&img, &out) == 0) {
		if (pngio_decode((const unsigned char *)out.data, out.len, &fz_lim, &back, why,
				 sizeof why) != PNGIO_OK || back.w != img.w || back.h != img.h ||
		    memcmp(back.rgba, img.rgba, (size_t)img.w * (size_t)img.h * 4) != 0)
			abort();   /* what was written must read back the same */
		pngio_image_free(&back);
	}
	buf_free(&out);
	pngio_image_free(&img);
	return 0;
}

/* ---- the mutator ---- */

struct fz_chunk {
	char type[4];
	const uint8_t *data;   /* into the input or fz_file.own */
	size_t len;
	int keep_crc;          /* 1: its CRC is left wrong on purpose */
	uint32_t crc;
};

struct fz_file {
	struct fz_chunk c[FZ_MAX_CHUNKS];
	int n;
	uint8_t *own[FZ_MAX_CHUNKS];   /* data made by the mutator */
	int nown;
};

static uint32_t fz_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static uint32_t fz_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void fz_put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static int fz_parse(const uint8_t *d, size_t n, struct fz_file *f)
{
	size_t off = 8;

	memset(f, 0, sizeof *f);
	if (n < 8 || memcmp(d, "\x89PNG\r\n\x1a\n", 8) != 0)
		return -1;
	while (off + 12 <= n && f->n < FZ_MAX_CHUNKS) {
		size_t len = fz_be32(d + off);

		if (len > n - off - 12)
			return -1;
		memcpy(f->c[f->n].type, d + off + 4, 4);
		f->c[f->n].data = d + off + 8;
		f->c[f->n].len = len;
		f->n++;
		off += 12 + len;
	}
	return f->n > 0 ? 0 : -1;
}

static uint8_t *fz_own(struct fz_file *f, size_t len)
{
	uint8_t *p = malloc(len ? len : 1);

	f->own[f->nown++] = p;
	return p;
}

static void fz_free(struct fz_file *f)
{
	for (int i = 0; i < f->nown; i++)
		free(f->own[i]);
}

static int fz_find(const struct fz_file *f, const char *type)
{
	for (int i = 0; i < f->n; i++)
		if (memcmp(f->c[i].type, type, 4) == 0)
			return i;
	return -1;
}

static void fz_insert(struct fz_file *f, int at, const struct fz_chunk *c)
{
	if (f->n >= FZ_MAX_CHUNKS)
		return;
	memmove(&f->c[at + 1], &f->c[at], sizeof f->c[0] * (size_t)(f->n - at));
	f->c[at] = *c;
	f->n++;
}

static uint32_t fz_side(uint32_t *s)
{
	static const uint32_t v[] = { 0, 1, 2, 3, 7, 8, 9, 16, 31, 33, 64, 255, 256, 1000, 4096, 4097,
				      65535, 1000000, 0x7fffffff, 0x80000000u, 0xffffffffu };

	return fz_rand(s) % 4 ? v[fz_rand(s) % (sizeof v / sizeof v[0])] : fz_rand(s) % 300;
}

/* A copy of IHDR i with some fields changed. */
static void fz_ihdr_change(struct fz_file *f, int i, uint32_t *s)
{
	static const uint8_t depth[] = { 1, 2, 4, 8, 16, 3, 0 }, ctype[] = { 0, 2, 3, 4, 6, 1, 7 };
	uint8_t *d = fz_own(f, 13);
	uint32_t what = fz_rand(s);

	memset(d, 0, 13);
	memcpy(d, f->c[i].data, f->c[i].len < 13 ? f->c[i].len : 13);
	if (what & 1)
		fz_put32(d, fz_side(s));
	if (what & 2)
		fz_put32(d + 4, fz_side(s));
	if (what & 4)
		d[8] = depth[fz_rand(s) % sizeof depth];
	if (what & 8)
		d[9] = ctype[fz_rand(s) % sizeof ctype];
	if (what & 16)
		d[12] = (uint8_t)(fz_rand(s) % 3);
	if ((what & 31) == 0)
		d[10 + fz_rand(s) % 2] = (uint8_t)fz_rand(s);
	f->c[i].data = d;
	f->c[i].len = 13;
}

/* Every IDAT inflated, the scanlines mutated (bytes, length), deflated
 * into one or two IDAT chunks in the first one's place. */
static void fz_idat(struct fz_file *f, uint32_t *s)
{
	uint8_t *zin, *raw = malloc(FZ_RAW_MAX), *z;
	size_t zlen = 0, rawlen;
	uLongf out;
	z_stream zs;
	int first = fz_find(f, "IDAT");

	if (first < 0 || raw == NULL) {
		free(raw);
		return;
	}
	for (int i = 0; i < f->n; i++)
		if (memcmp(f->c[i].type, "IDAT", 4) == 0)
			zlen += f->c[i].len;
	zin = malloc(zlen ? zlen : 1);
	zlen = 0;
	for (int i = 0; i < f->n; i++)
		if (memcmp(f->c[i].type, "IDAT", 4) == 0) {
			memcpy(zin + zlen, f->c[i].data, f->c[i].len);
			zlen += f->c[i].len;
		}
	memset(&zs, 0, sizeof zs);
	inflateInit(&zs);
	zs.next_in = zin, zs.avail_in = (uInt)zlen;
	zs.next_out = raw, zs.avail_out = FZ_RAW_MAX / 2;
	inflate(&zs, Z_FINISH);
	rawlen = zs.total_out;
	inflateEnd(&zs);
	free(zin);
	rawlen = LLVMFuzzerMutate(raw, rawlen, FZ_RAW_MAX / 2);
	out = compressBound(rawlen);
	z = fz_own(f, out);
	compress2(z, &out, raw, rawlen, (int)(fz_rand(s) % 10));
	free(raw);
	for (int i = f->n - 1; i > first; i--)
		if (memcmp(f->c[i].type, "IDAT", 4) == 0) {
			memmove(&f->c[i], &f->c[i + 1], sizeof f->c[0] * (size_t)(f->n - i - 1));
			f->n--;
		}
	f->c[first].data = z;
	f->c[first].len = out;
	if (out > 2 && fz_rand(s) % 2) {   /* split, as encoders do */
		struct fz_chunk second = f->c[first];
		size_t cut = 1 + fz_rand(s) % (out - 1);

		f->c[first].len = cut;
		second.data = z + cut;
		second.len = out - cut;
		fz_insert(f, first + 1, &second);
	}
}

static void fz_mutate(struct fz_file *f, uint32_t *s)
{
	int i = (int)(fz_rand(s) % (uint32_t)f->n), j = (int)(fz_rand(s) % (uint32_t)f->n);
	int ihdr = fz_find(f, "IHDR");
	struct fz_chunk t;

	switch (fz_rand(s) % 8) {
	case 0:   /* a chunk twice */
		t = f->c[i];
		fz_insert(f, j, &t);
		break;
	case 1:   /* a chunk dropped */
		if (f->n > 1) {
			memmove(&f->c[i], &f->c[i + 1], sizeof f->c[0] * (size_t)(f->n - i - 1));
			f->n--;
		}
		break;
	case 2:   /* two chunks swapped */
		t = f->c[i], f->c[i] = f->c[j], f->c[j] = t;
		break;
	case 3:   /* IHDR fields */
		if (ihdr >= 0)
			fz_ihdr_change(f, ihdr, s);
		break;
	case 4:   /* a second IHDR, different, anywhere */
		if (ihdr >= 0) {
			t = f->c[ihdr];
			fz_insert(f, j, &t);
			fz_ihdr_change(f, fz_rand(s) % 2 ? j : (j <= ihdr ? ihdr + 1 : ihdr), s);
		}
		break;
	case 5:
	case 6:   /* the scanlines */
		fz_idat(f, s);
		break;
	default: {  /* one chunk's bytes */
		uint8_t *d = fz_own(f, f->c[i].len * 2 + 64);

		memcpy(d, f->c[i].data, f->c[i].len);
		f->c[i].len = LLVMFuzzerMutate(d, f->c[i].len, f->c[i].len * 2 + 64);
		f->c[i].data = d;
		break;
	}
	}
	if (fz_rand(s) % 16 == 0)   /* now and then, one CRC left wrong */
		f->c[fz_rand(s) % (uint32_t)f->n].keep_crc = 1;
}

static size_t fz_write(const struct fz_file *f, uint8_t *out, size_t max)
{
	size_t off = 8;

	if (max < 8)
		return 0;
	memcpy(out, "\x89PNG\r\n\x1a\n", 8);
	for (int i = 0; i < f->n; i++) {
		const struct fz_chunk *c = &f->c[i];
		uLong crc = crc32(crc32(0, (const Bytef *)c->type, 4), c->data, (uInt)c->len);

		if (off + 12 + c->len > max)
			return 0;
		fz_put32(out + off, (uint32_t)c->len);
		memcpy(out + off + 4, c->type, 4);
		memmove(out + off + 8, c->data, c->len);
		fz_put32(out + off + 8 + c->len, (uint32_t)crc ^ (c->keep_crc ? 0x5a5a5a5au : 0));
		off += 12 + c->len;
	}
	return off;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max, unsigned int seed)
{
	struct fz_file f;
	uint32_t s = seed ? seed : 1;
	uint8_t *in = malloc(size ? size : 1);
	size_t n = 0;

	memcpy(in, data, size);
	if (fz_parse(in, size, &f) == 0 && fz_rand(&s) % 8 != 0) {
		for (int k = 1 + (int)(fz_rand(&s) % 3); k > 0; k--)
			fz_mutate(&f, &s);
		n = fz_write(&f, data, max);
		fz_free(&f);
	}
	free(in);
	return n ? n : LLVMFuzzerMutate(data, size, max);
}
