/* The style library (etc/styles.json, [kb] styles): the style prompt
 * fragments the image workflow's retrieval step appends to a prompt, and
 * GET /api/styles shows. Names and keywords weigh three times the prompt
 * text: they say what a style is, the prompt says how it looks. */
#include "config.h"
#include "app.h"
#include "kb/kb.h"
#include "kb/shelf.h"

static const struct kb_field kb_style_fields[] = {
	{ "name_zh", 3, KB_SHOW | KB_REQUIRED },
	{ "name_en", 3, KB_SHOW | KB_REQUIRED },
	{ "keywords", 3, KB_REQUIRED },
	{ "prompt", 1, KB_SHOW | KB_REQUIRED },
	{ "category", 0, KB_REQUIRED },
	{ NULL, 0, 0 },
};

static const char *kb_styles_path(const struct conf *c)
{
	return c->kb_styles;
}

const struct kb_def kb_styles_def = {
	.name = "style library",
	.file = "styles.json",
	.path = kb_styles_path,
	.fields = kb_style_fields,
};

struct kb *kb_styles(struct app *app)
{
	char err[160];

	return kb_shelf_get(app, &kb_styles_def, err, sizeof err);
}
