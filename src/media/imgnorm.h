/* normalizeImageData (seed 003 §2.4) in one place: every image that
 * enters an orchestrate run, whatever its form, becomes checked bytes with
 * a media type sniffed from the bytes themselves. The forms of an
 * attachment {name?, data?, url?, path?, mimeType?}:
 *   data  a data URL (data:<type>;base64,<data>) or bare base64 (standard
 *         alphabet, padding optional, whitespace allowed, nothing else);
 *   url   this server's asset URL (api/assets/<id>, /api/assets/<id> or an
 *         absolute URL whose path holds /api/assets/<id>): read from the
 *         store, never fetched, and only when the asset belongs to this
 *         same thread (an asset id carries the random part of its thread's
 *         ID; another thread's asset is refused, so a run cannot copy
 *         another conversation's files by naming them);
 *         any other http(s) URL: fetched through fetch.c, under [fetch]'s
 *         address rules, size cap and image content type;
 *         anything else: a path among the caller's own files;
 *   path  a path among the caller's own files.
 * The caller says where those are (struct imgnorm_from: the orchestrate
 * workflow gives its workspace, orch_ws_attachment); this file knows no
 * thread, step or workflow.
 * The type comes from the bytes: PNG, JPEG, GIF or WebP. A declared type
 * (mimeType, or the data URL's) that names another type is refused, and
 * so are bad base64 and, where an image is required, a file that is not
 * one of the four. With IMGNORM_ANY_FILE other files are allowed too: an
 * SVG picture as image/svg+xml, UTF-8 text (no NUL) as its declared text
 * type or text/plain, anything else as application/octet-stream.
 * Sizes: at most [server] max_body_bytes (a URL: [fetch] max_bytes). */
#ifndef AV_IMGNORM_H
#define AV_IMGNORM_H
#include <stddef.h>
#include <jansson.h>

struct conf;
struct store;

struct imgnorm {
	unsigned char *data;   /* malloc'd, owned by the struct (imgnorm_free) */
	size_t len;
	char mime[32];         /* from the bytes */
	char name[128];        /* the attachment's name made safe as one path segment
				* (no '/', '\\' or control characters, not "." or ".."), or
				* "image-<8 hex of the content hash>.<ext>" without one */
};

/* Flags of imgnorm_attachment_flags. */
#define IMGNORM_IMAGE 0        /* a PNG, JPEG, GIF or WebP picture is required */
#define IMGNORM_ANY_FILE 1     /* other files are allowed, as described above */

/* What path_get returns besides 0. */
#define IMGNORM_NO_FILE (-1)      /* a path with no file at it */
#define IMGNORM_NOT_A_PATH (-2)   /* not a path of the caller's files at all */

/* Where an attachment may be read from, as its caller sees it. */
struct imgnorm_from {
	const struct conf *conf;  /* [server] max_body_bytes, [fetch], [media] svg_* */
	struct store *store;      /* where this server's assets are read (may be NULL) */
	/* 1 when the caller may read the stored asset id (one of its own
	 * thread's), else 0: another's is refused. NULL: no asset is read. */
	int (*asset_ours)(void *ctx, const char *id);
	/* The bytes at path among the caller's files: 0 with *data (malloc'd,
	 * the caller of imgnorm frees it with out) and *len, or IMGNORM_NO_FILE
	 * or IMGNORM_NOT_A_PATH. NULL: no path is read. */
	int (*path_get)(void *ctx, const char *path, void **data, size_t *len);
	void *ctx;                /* given to the two functions above */
	/* Out, for the caller to report: a store error met reading an asset
	 * (else 0), and 1 in too_large for an SVG of more than [media]
	 * svg_max_bytes (image_too_large, 413; other refusals are 400). */
	int store_rc;
	int too_large;
};

/* An attachment (att borrowed) that must be an image, read as from says.
 * 0 with out filled, or -1 with err filled (clear words for the person
 * who sent it) and out empty. */
int imgnorm_attachment(struct imgnorm_from *from, const json_t *att, struct imgnorm *out,
		       char *err, size_t errlen);
/* The same with flags (IMGNORM_IMAGE or IMGNORM_ANY_FILE). */
int imgnorm_attachment_flags(struct imgnorm_from *from, const json_t *att, int flags,
			     struct imgnorm *out, char *err, size_t errlen);
/* The type of picture bytes: image/png, image/jpeg, image/gif, image/webp,
 * or NULL. */
const char *imgnorm_sniff(const unsigned char *p, size_t n);
/* Frees out's data; imgnorm_free on an empty or freed struct does nothing. */
void imgnorm_free(struct imgnorm *out);

#endif
