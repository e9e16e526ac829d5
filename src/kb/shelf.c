/* The knowledge bases a worker keeps (see shelf.h). */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include "app.h"
#include "kb/shelf.h"
#include "util/clock.h"
#include "util/log.h"
#include "util/xmalloc.h"

#ifndef AV_PKGDATADIR
#define AV_PKGDATADIR "/usr/share/aivista"
#endif
/* A broken file is tried again this long after. */
#define KB_SHELF_RETRY_MS 5000

struct kb *kb_def_load(const struct kb_def *def, const struct conf *c, char *err, size_t errlen)
{
	const char *conf_path = def->path ? def->path(c) : NULL;
	char path[1024], why[512];
	struct kb *kb;

	if (conf_path && *conf_path)
		snprintf(path, sizeof path, "%s", conf_path);
	else
		snprintf(path, sizeof path, "%s/%s", AV_PKGDATADIR, def->file);
	kb = kb_load(path, def->fields, err, errlen);
	if (kb && def->check && def->check(kb_items(kb), why, sizeof why) < 0) {
		snprintf(err, errlen, "%s: %s", path, why);
		kb_free(kb);
		return NULL;
	}
	return kb;
}

static struct kb_shelf_slot *kb_shelf_slot(struct kb_shelf *s, const struct kb_def *def)
{
	for (size_t i = 0; i < KB_SHELF_MAX; i++)
		if (s->slot[i].def == def || s->slot[i].def == NULL) {
			s->slot[i].def = def;
			return &s->slot[i];
		}
	return NULL;
}

struct kb *kb_shelf_get(struct app *app, const struct kb_def *def, char *err, size_t errlen)
{
	struct kb_shelf_slot *sl;
	long long now = clock_mono_ms();
	char why[512];

	if (app->kbs == NULL)
		app->kbs = xcalloc(1, sizeof *app->kbs);
	sl = kb_shelf_slot(app->kbs, def);
	if (sl == NULL) {
		snprintf(err, errlen, "the %s cannot be loaded (no room to keep it)", def->name);
		return NULL;
	}
	if (sl->kb)
		return sl->kb;
	if (now >= sl->retry_ms) {
		sl->kb = kb_def_load(def, &app->conf, why, sizeof why);
		if (sl->kb)
			return sl->kb;
		log_error("%s: %s", def->name, why);
		sl->retry_ms = now + KB_SHELF_RETRY_MS;
	}
	snprintf(err, errlen, "the %s cannot be loaded (the worker's log says why)", def->name);
	return NULL;
}

void kb_shelf_free(struct kb_shelf *s)
{
	if (s == NULL)
		return;
	for (size_t i = 0; i < KB_SHELF_MAX; i++)
		kb_free(s->slot[i].kb);
	free(s);
}
