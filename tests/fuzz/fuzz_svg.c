/* SVG pictures people send: the check before storage (svgcheck.c) under
 * small limits and under [media]'s defaults, then, for what the defaults
 * let in, the drawing in a child process under a small budget (raster.c,
 * util/budget.c), as a request draws it. The check must stop on every
 * input without a report; what the small limits let in the larger ones
 * let in too; the budgeted drawing ends with one of raster.h's codes (a
 * PNG 64 pixels wide, or a refusal), never waits past its time, and
 * leaves no child behind. librsvg is loaded once here, so the children
 * inherit it. Seed corpus in corpus/fuzz_svg/: shapes, text, a filter
 * chain, gradients, a use of a symbol, entity declarations, a DOCTYPE, a
 * document cut short. */
#include "config.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "media/raster.h"
#include "media/svgcheck.h"
#include "util/budget.h"
#include "util/buf.h"
#include "util/clock.h"

static const struct svgcheck_limits fz_small = { 2048, 20, 2, 64 };
static const struct svgcheck_limits fz_defaults = { 1 << 20, 10000, 16, 16384 };
/* A drawing may take 1 s of CPU, 256 MiB over the fuzzer's own and 2 s. */
static const struct budget fz_budget = { 1000, 256LL << 20, 2000, -1, 8u << 20 };

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char warm[] = "<svg xmlns='http://www.w3.org/2000/svg' width='8' height='8'/>";
	struct buf out;
	char err[256];
	int w, h;

	buf_init(&out, 1 << 20);
	raster_svg_png(warm, sizeof warm - 1, 64, &out, &w, &h, err, sizeof err);
	buf_free(&out);
	return 0;
}

static void fz_draw(const uint8_t *data, size_t size)
{
	long long t0 = clock_mono_ms();
	struct buf out;
	char err[512];
	int w = 0, h = 0, rc;

	buf_init(&out, fz_budget.max_result);
	rc = raster_svg_png_budget(&fz_budget, data, size, 64, &out, &w, &h, err, sizeof err);
	if (rc == RASTER_OK && (w != 64 || out.len < 8 || memcmp(out.data, "\x89PNG", 4) != 0))
		abort();   /* a drawing is a PNG of the width asked for */
	if (rc != RASTER_OK && out.len != 0)
		abort();   /* a refusal leaves nothing */
	if (rc != RASTER_OK && rc != RASTER_E_SVG && rc != RASTER_E_SIZE && rc != RASTER_E_RENDER &&
	    rc != RASTER_E_BUDGET && rc != RASTER_E_SYSTEM)
		abort();
	if (clock_mono_ms() - t0 > fz_budget.time_ms + 1000)
		abort();   /* the clock stops it */
	if (waitpid(-1, NULL, WNOHANG) > 0)
		abort();   /* the child was reaped before the call returned */
	buf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	int small = svgcheck(&fz_small, data, size, err, sizeof err);
	int dflt = svgcheck(&fz_defaults, data, size, err, sizeof err);

	if (small == SVGCHECK_OK && dflt != SVGCHECK_OK)
		abort();   /* larger limits let in what smaller ones do */
	if (dflt == SVGCHECK_OK)
		fz_draw(data, size);
	return 0;
}
