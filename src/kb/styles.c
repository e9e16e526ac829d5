/* The style library (etc/styles.json, [kb] styles): the style prompt
 * fragments the image workflow's retrieval step appends to a prompt, and
 * GET /api/styles shows. Names and keywords weigh three times the prompt
 * text: they say what a style is, the prompt says how it looks. */
#include "config.h"
#include "app.h"
#include "kb/kb.h"
#include "util/clock.h"
#include "util/log.h"

/* A broken file is logged and tried again this long after, not on every
 * request. */
#define KB_STYLES_RETRY_MS 5000

static const struct kb_field kb_style_fields[] = {
	{ "name_zh", 3, KB_SHOW | KB_REQUIRED },
	{ "name_en", 3, KB_SHOW | KB_REQUIRED },
	{ "keywords", 3, KB_REQUIRED },
	{ "prompt", 1, KB_SHOW | KB_REQUIRED },
	{ "category", 0, KB_REQUIRED },
	{ NULL, 0, 0 },
};

#ifndef AV_PKGDATADIR
#define AV_PKGDATADIR "/usr/share/aivista"
#endif

struct kb *kb_styles_load(const struct conf *c, char *err, size_t errlen)
{
	const char *path = c->kb_styles && *c->kb_styles ? c->kb_styles : AV_PKGDATADIR "/styles.json";

	return kb_load(path, kb_style_fields, err, errlen);
}

struct kb *kb_styles(struct app *app)
{
	long long now = clock_mono_ms();
	char err[512];

	if (app->styles || now < app->styles_retry_ms)
		return app->styles;
	app->styles = kb_styles_load(&app->conf, err, sizeof err);
	if (app->styles == NULL) {
		log_error("style library: %s", err);
		app->styles_retry_ms = now + KB_STYLES_RETRY_MS;
	}
	return app->styles;
}
