/* The fixture of the orchestrate workspace tests (t_orch_ws, t_orch_tools,
 * t_imgnorm, t_picture_in): a real Berkeley DB store in a fresh directory
 * under /tmp (teststore.h) and a step context of one thread on it, as a
 * node gets it; and a PNG made from pixels. */
#ifndef AV_ORCHFIX_H
#define AV_ORCHFIX_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>
#include "tap.h"
#include "teststore.h"
#include "app.h"
#include "conf/conf.h"
#include "engine/run.h"
#include "kb/shelf.h"
#include "store/store.h"
#include "util/buf.h"
#include "util/pngio.h"
#include "util/xmalloc.h"

struct ofx {
	struct teststore ts;
	struct app app;
	struct run run;
	struct step_ctx c;
};

/* A new thread (its own random part) with an empty state. */
static void ofx_thread(struct ofx *f)
{
	json_decref(f->c.state);
	memset(&f->run, 0, sizeof f->run);
	f->run.app = &f->app;
	f->run.st = f->app.store;
	randombytes_buf(f->run.tid, sizeof f->run.tid);
	memset(&f->c, 0, sizeof f->c);
	f->c.run = &f->run;
	f->c.node = "execute";
	f->c.state = json_object();
}

static void ofx_open(struct ofx *f, const char *name)
{
	memset(f, 0, sizeof *f);
	if (sodium_init() < 0)
		tap_bail("sodium_init");
	teststore_dir(&f->ts, &f->app.conf, name);
	f->app.store = teststore_open(&f->app.conf);
	ofx_thread(f);
}

static void ofx_close(struct ofx *f)
{
	json_decref(f->c.state);
	kb_shelf_free(f->app.kbs);
	teststore_free(&f->ts, &f->app.conf, f->app.store);
}

/* A w x h PNG of one colour (rgb) with a rectangle of another (rgb2) at
 * x, y, rw, rh: malloc'd bytes, *len its size. */
__attribute__((unused))
static unsigned char *ofx_png(int w, int h, unsigned rgb, int x, int y, int rw, int rh,
			      unsigned rgb2, size_t *len)
{
	struct pngio_image img = { w, h, xmalloc((size_t)w * h * 4) };
	struct buf b;

	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++) {
			unsigned c = i >= x && i < x + rw && j >= y && j < y + rh ? rgb2 : rgb;
			unsigned char *p = img.rgba + ((size_t)j * w + i) * 4;

			p[0] = c >> 16 & 0xff;
			p[1] = c >> 8 & 0xff;
			p[2] = c & 0xff;
			p[3] = 255;
		}
	buf_init(&b, 64u << 20);
	if (pngio_encode(&img, &b) < 0)
		tap_bail("pngio_encode");
	free(img.rgba);
	*len = b.len;
	return (unsigned char *)buf_steal(&b);
}

#endif
