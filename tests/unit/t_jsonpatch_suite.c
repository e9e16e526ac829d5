/* The JSON Patch conformance suite (json-patch-tests: tests.json and
 * spec_tests.json) against patch_apply, one TAP point per case: a case
 * with "expected" must give that document, a case with "error" must fail,
 * a case with neither must apply; "disabled" cases are counted and
 * skipped. Every case also checks that the input document is untouched.
 *
 * The suite's directory comes from AIVISTA_JSONPATCH_TESTS (contrib/run-tests
 * sets it); without it the test is skipped and says why. */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <jansson.h>
#include "tap.h"
#include "json/patch.h"

struct suite_counts {
	int run, disabled, comments;
};

/* A short name for case i of file: its comment, else its index. */
static void suite_name(const json_t *c, const char *file, size_t i, char *out, size_t len)
{
	const char *comment = json_string_value(json_object_get(c, "comment"));

	snprintf(out, len, "%s #%zu: %s", file, i, comment ? comment : "(no comment)");
}

/* One case: a TAP point. */
static void suite_case(const json_t *c, const char *name)
{
	const json_t *doc = json_object_get(c, "doc"), *patch = json_object_get(c, "patch");
	const json_t *want = json_object_get(c, "expected");
	json_t *before = json_deep_copy(doc), *got;
	struct patch_error e;

	got = patch_apply(doc, patch, NULL, &e);
	if (json_object_get(c, "error")) {
		ok(!got && e.code != PATCH_OK && e.message[0] && e.index >= 0 &&
		   (size_t)e.index < json_array_size(patch) && json_equal(doc, before),
		   "%s: fails (%s at operation %ld: %s)", name, patch_code_name(e.code), e.index,
		   e.message);
	} else if (want) {
		ok(got && json_equal(got, want) && json_equal(doc, before), "%s: %s", name,
		   got ? "the expected document" : e.message);
	} else {
		ok(got && json_equal(doc, before), "%s: applies%s%s", name, got ? "" : ": ",
		   got ? "" : e.message);
	}
	json_decref(got);
	json_decref(before);
}

static void suite_file(const char *dir, const char *file, struct suite_counts *n)
{
	char path[4096], name[200];
	json_error_t je;
	json_t *cases, *c;
	size_t i;

	snprintf(path, sizeof path, "%s/%s", dir, file);
	cases = json_load_file(path, JSON_DECODE_ANY, &je);
	if (!json_is_array(cases))
		tap_bail("%s: %s (line %d)", path, cases ? "not an array" : je.text, je.line);
	json_array_foreach(cases, i, c) {
		if (!json_object_get(c, "doc") || !json_object_get(c, "patch")) {
			n->comments++;
			continue;
		}
		if (json_is_true(json_object_get(c, "disabled"))) {
			n->disabled++;
			continue;
		}
		suite_name(c, file, i, name, sizeof name);
		suite_case(c, name);
		n->run++;
	}
	json_decref(cases);
}

int main(void)
{
	static const char *const files[] = { "tests.json", "spec_tests.json" };
	const char *dir = getenv("AIVISTA_JSONPATCH_TESTS");
	struct suite_counts n = { 0 };
	char probe[4096];
	FILE *f;

	if (!dir || !*dir) {
		printf("1..0 # SKIP AIVISTA_JSONPATCH_TESTS not set\n");
		return 0;
	}
	snprintf(probe, sizeof probe, "%s/%s", dir, files[0]);
	if (!(f = fopen(probe, "r"))) {
		printf("1..0 # SKIP AIVISTA_JSONPATCH_TESTS=%s has no %s\n", dir, files[0]);
		return 0;
	}
	fclose(f);
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		suite_file(dir, files[i], &n);
	printf("# %d cases run, %d disabled and skipped, %d records with no case\n", n.run,
	       n.disabled, n.comments);
	ok(n.run > 0, "the suite has cases to run");
	return tap_done();
}
