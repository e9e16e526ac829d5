/* Names and types of the files people give: the invisible controls a name
 * loses (bidi overrides that make "x\u202Egnp.exe" show as "xexe.png"),
 * the workspace paths refused for them, and the asset types served as
 * downloads rather than shown as pages of the site. Table-driven. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "api/api.h"
#include "util/safename.h"
#include "wf/orchestrate/orch_ws.h"

struct name_case {
	const char *name;
	const char *given;
	size_t max;
	const char *want;
};

static const struct name_case name_cases[] = {
	{ "a plain name", "photo.png", 255, "photo.png" },
	{ "CJK is kept", "\xe7\x85\xa7\xe7\x89\x87.png", 255, "\xe7\x85\xa7\xe7\x89\x87.png" },
	{ "RLO (U+202E) is removed", "invoice\xe2\x80\xaegnp.exe", 255, "invoicegnp.exe" },
	{ "LRE..PDF (U+202A-U+202C)", "a\xe2\x80\xaa" "b\xe2\x80\xab" "c\xe2\x80\xac" "d", 255, "abcd" },
	{ "LRO (U+202D)", "a\xe2\x80\xad" "b", 255, "ab" },
	{ "LRI..PDI (U+2066-U+2069)", "\xe2\x81\xa6" "a\xe2\x81\xa7" "b\xe2\x81\xa8" "c\xe2\x81\xa9", 255, "abc" },
	{ "LRM and RLM (U+200E, U+200F)", "a\xe2\x80\x8e" "b\xe2\x80\x8f" "c", 255, "abc" },
	{ "ALM (U+061C)", "a\xd8\x9c" "b", 255, "ab" },
	{ "line and paragraph separators", "a\xe2\x80\xa8" "b\xe2\x80\xa9" "c", 255, "abc" },
	{ "C1 controls (U+0085, U+009B)", "a\xc2\x85" "b\xc2\x9b" "c", 255, "abc" },
	{ "neighbours are kept (U+2010 hyphen, U+2070)", "a\xe2\x80\x90" "b\xe2\x81\xb0", 255,
	  "a\xe2\x80\x90" "b\xe2\x81\xb0" },
	{ "NBSP (U+00A0) is kept", "a\xc2\xa0" "b", 255, "a\xc2\xa0" "b" },
	{ "C0 controls and DEL become _", "a\nb\tc\x7f" "d\x1b", 255, "a_b_c_d_" },
	{ "cut to max bytes", "abcdef", 4, "abcd" },
	{ "cut on a character boundary", "ab\xe7\x85\xa7", 4, "ab" },
	{ "the cut comes after the removal", "\xe2\x80\xae\xe2\x80\xae" "abc", 3, "abc" },
	{ "nothing but controls", "\xe2\x80\xae", 255, "" },
	{ "no name", NULL, 255, "" },
};

struct path_case {
	const char *path;
	int want;
};

static const struct path_case path_cases[] = {
	{ "src/main.c", 1 },
	{ "\xe6\x96\x87\xe6\xa1\xa3/\xe7\xac\x94\xe8\xae\xb0.md", 1 },
	{ "report\xe2\x80\xae" "fdp.exe", 0 },
	{ "dir\xe2\x81\xa6/a.txt", 0 },
	{ "a\xe2\x80\x8f.txt", 0 },
	{ "a\xc2\x85.txt", 0 },
	{ "a\tb.txt", 0 },
};

struct type_case {
	const char *ctype;
	int active;
};

static const struct type_case type_cases[] = {
	{ "text/html", 1 },
	{ "text/html; charset=utf-8", 1 },
	{ " TEXT/HTML ", 1 },
	{ "application/xhtml+xml", 1 },
	{ "image/svg+xml", 1 },
	{ "text/xml", 1 },
	{ "application/xml", 1 },
	{ "application/rss+xml", 1 },
	{ "text/xsl", 1 },
	{ "image/png", 0 },
	{ "image/jpeg", 0 },
	{ "image/gif", 0 },
	{ "image/webp", 0 },
	{ "text/plain", 0 },
	{ "text/plain; charset=utf-8", 0 },
	{ "application/json", 1 },
	{ "text/x-c", 1 },
	{ "text/javascript", 1 },
	{ "application/octet-stream", 1 },
	{ "text/htmlx", 1 },
	{ "xml", 1 },
	{ "image/pngx", 1 },
	{ NULL, 1 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof name_cases / sizeof name_cases[0]; i++) {
		const struct name_case *c = &name_cases[i];
		json_t *j = safename_json(c->given, c->max);

		is_str(json_string_value(j), c->want, "name: %s", c->name);
		json_decref(j);
	}
	{
		char s[] = "a\xe2\x80\xae" "b\xe2\x81\xa9" "c";

		safename_strip(s);
		is_str(s, "abc", "strip: in place");
		ok(safename_has_controls("x\xe2\x80\xae"), "has controls: RLO");
		ok(safename_has_controls("x\x01"), "has controls: C0");
		ok(!safename_has_controls("\xe7\x85\xa7\xe7\x89\x87 (1).png"), "has controls: none");
	}
	for (size_t i = 0; i < sizeof path_cases / sizeof path_cases[0]; i++)
		is_int(orch_ws_path_ok(path_cases[i].path), path_cases[i].want, "workspace path %zu",
		       i);
	for (size_t i = 0; i < sizeof type_cases / sizeof type_cases[0]; i++)
		is_int(api_asset_active(type_cases[i].ctype), type_cases[i].active, "asset type %s: %s",
		       type_cases[i].ctype ? type_cases[i].ctype : "none",
		       type_cases[i].active ? "a download" : "shown");
	return tap_done();
}
