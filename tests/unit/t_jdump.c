/* src/json/dump.c writes what json_dumps(v, JNUM_DUMP) writes, byte for
 * byte: a table of the values that differ in how they are written (escapes,
 * controls, non-ASCII, embedded NULs, integers at their limits, reals that
 * read as integers or carry exponents), the shapes of the project's own
 * documents, and random documents; and it refuses what json_dumps refuses.
 * jtext matches json_dumps for the other flags, and no code of the worker
 * or the benchmarks calls json_dumps itself (with jalloc installed, its
 * string must not be given to free()). */
#include "config.h"
#include <float.h>
#include <math.h>
#include <stdint.h>
#include "tap.h"
#include <ftw.h>
#include "json/dump.h"
#include "json/jalloc.h"
#include "util/jnum.h"

static int jd_same(const json_t *v, const char *what)
{
	char *want = json_dumps(v, JNUM_DUMP), *got = jdump(v);
	int pass = want && got && strcmp(want, got) == 0;

	if (!ok(pass, "%s", what))
		printf("#   json_dumps: %s\n#   jdump:      %s\n", want ? want : "(null)", got ? got : "(null)");
	free(want);
	free(got);
	return pass;
}

static const char *jd_texts[] = {
	"{}", "[]", "[[]]", "{\"a\":{}}", "[null,true,false]",
	"{\"s\":\"plain\"}",
	"{\"s\":\"quote \\\" backslash \\\\ slash / end\"}",
	"{\"s\":\"\\b\\f\\n\\r\\t\"}",
	"{\"s\":\"\\u0001\\u001f\\u007f\\u0000x\"}",
	"{\"s\":\"杭州西湖的春天 — naïve café ☕ 😀\"}",
	"{\"key\\n\\u0001\":\"v\",\"\":\"\"}",
	"{\"i\":[0,1,-1,9223372036854775807,-9223372036854775808,1000000]}",
	"{\"r\":[0.0,-0.0,0.85,1.5,100.0,1e300,1e-300,-2.5e-7,123456789012345678.0,0.1,3.14159265358979]}",
	"{\"r\":[1e15,1e16,1e21,5e-324,1.7976931348623157e308,2.2250738585072014e-308]}",
	"{\"type\":\"agent_start\",\"timestamp\":1795458854351,\"node\":\"planner\","
	"\"content\":\"The intent planner is starting\\u2026\",\"score\":0.97}",
	"{\"set\":{\"messages\":[{\"role\":\"user\",\"content\":\"画一只猫\"}],\"retryCount\":0},"
	"\"del\":[\"old\"],\"node\":\"rag\",\"step\":2}",
	"[[[[[[[[[[[[[[[[[[[[{\"deep\":[1,2,3]}]]]]]]]]]]]]]]]]]]]]",
};

static void t_table(void)
{
	for (size_t i = 0; i < sizeof jd_texts / sizeof jd_texts[0]; i++) {
		json_error_t err;
		json_t *v = json_loads(jd_texts[i], JSON_ALLOW_NUL, &err);

		if (!ok(v != NULL, "case %zu parses (%s)", i, err.text))
			continue;
		jd_same(v, jd_texts[i]);
		json_decref(v);
	}
}

static uint64_t jd_x = 88172645463325252ULL;

static uint64_t jd_rand(void)
{
	jd_x ^= jd_x << 13;
	jd_x ^= jd_x >> 7;
	jd_x ^= jd_x << 17;
	return jd_x;
}

/* A random string: ASCII (controls and escapes included), two- to
 * four-byte UTF-8 sequences, and now and then a NUL. */
static json_t *jd_rand_string(void)
{
	static const char *pieces[] = { "a", "Z", " ", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f", "\x7f",
					"é", "中", "—", "😀", "{", "}", ":", "," };
	char s[256];
	size_t n = 0, len = jd_rand() % 24;

	for (size_t i = 0; i < len; i++) {
		if (jd_rand() % 40 == 0) {
			s[n++] = '\0';
			continue;
		}
		const char *p = pieces[jd_rand() % (sizeof pieces / sizeof pieces[0])];
		memcpy(s + n, p, strlen(p));
		n += strlen(p);
	}
	return json_stringn(s, n);
}

static json_t *jd_rand_value(int depth)
{
	switch (jd_rand() % (depth < 5 ? 9 : 7)) {
	case 0: return json_null();
	case 1: return json_boolean(jd_rand() & 1);
	case 2: return json_integer((json_int_t)jd_rand() >> (jd_rand() % 64));
	case 3: {
		double d = ldexp((double)(int64_t)jd_rand(), (int)(jd_rand() % 200) - 160);
		return json_real(jd_rand() % 3 ? jnum_round(d, (int)(jd_rand() % 7)) : d);
	}
	case 4: return json_real((double)(int64_t)(jd_rand() % 2000000) - 1000000);
	case 5:
	case 6: return jd_rand_string();
	case 7: {
		json_t *a = json_array();
		for (int i = (int)(jd_rand() % 6); i > 0; i--)
			json_array_append_new(a, jd_rand_value(depth + 1));
		return a;
	}
	default: {
		json_t *o = json_object(), *k;
		for (int i = (int)(jd_rand() % 6); i > 0; i--) {
			k = jd_rand_string();
			json_object_set_new(o, json_string_value(k), jd_rand_value(depth + 1));
			json_decref(k);
		}
		return o;
	}
	}
}

static void t_random(void)
{
	int bad = 0, n = 3000;

	for (int i = 0; i < n; i++) {
		json_t *v = json_array();
		char *want, *got;

		json_array_append_new(v, jd_rand_value(0));
		want = json_dumps(v, JNUM_DUMP);
		got = jdump(v);
		if (!want || !got || strcmp(want, got) != 0) {
			if (bad++ < 3)
				printf("#   json_dumps: %s\n#   jdump:      %s\n", want ? want : "(null)",
				       got ? got : "(null)");
		}
		free(want);
		free(got);
		json_decref(v);
	}
	is_int(bad, 0, "%d random documents written as json_dumps writes them", n);
}

static void t_buf_and_refusals(void)
{
	struct buf b;
	json_t *o = json_pack("{s:s}", "k", "v"), *s = json_string("x");

	buf_init(&b, 64);
	buf_adds(&b, "prefix|");
	ok(jdump_buf(&b, o) == 0 && strcmp(b.data, "prefix|{\"k\":\"v\"}") == 0, "appends to a buffer: %s",
	   b.data);
	ok(jdump(s) == NULL && json_dumps(s, JNUM_DUMP) == NULL, "a bare string is refused, as json_dumps does");
	ok(jdump(NULL) == NULL, "NULL is refused");
	buf_free(&b);

	/* Past the cap: refused, and the buffer is as it was. */
	buf_init(&b, 12);
	buf_adds(&b, "abc");
	json_object_set_new(o, "long", json_string("more than the cap allows"));
	ok(jdump_buf(&b, o) < 0 && b.len == 3 && strcmp(b.data, "abc") == 0,
	   "past the cap: -1 and the buffer unchanged");
	buf_free(&b);

	/* Deeper than the loader would ever build. */
	json_t *d = json_array(), *cur = d;
	for (int i = 0; i < JDUMP_MAX_DEPTH + 5; i++) {
		json_t *n = json_array();
		json_array_append_new(cur, n);
		cur = n;
	}
	ok(jdump(d) == NULL, "nesting past %d levels is refused", JDUMP_MAX_DEPTH);
	json_decref(d);
	json_decref(o);
	json_decref(s);
}

static void t_jtext(void)
{
	static const size_t flags[] = { JSON_COMPACT, JSON_COMPACT | JSON_SORT_KEYS, JSON_INDENT(2),
					JSON_ENCODE_ANY, 0 };
	json_t *v = json_loads("{\"b\":[1,2.5,\"x\\n\"],\"a\":{\"c\":null}}", 0, NULL);
	json_t *s = json_string("bare");

	for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
		char *want = json_dumps(v, flags[i]), *got = jtext(v, flags[i]);

		ok(want && got && strcmp(want, got) == 0, "jtext with flags 0x%zx writes what json_dumps writes", flags[i]);
		free(want);
		free(got);
	}
	char *any = jtext(s, JSON_ENCODE_ANY), *none = jtext(s, 0);
	ok(any && strcmp(any, "\"bare\"") == 0 && none == NULL, "jtext: a bare value only with JSON_ENCODE_ANY");
	free(any);
	json_decref(v);
	json_decref(s);
}

static int jd_callers;
static char jd_caller[4200];

static int jd_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	size_t n = strlen(path);
	char *text;
	FILE *f;

	if (type != FTW_F || n < 2 || strcmp(path + n - 2, ".c") != 0 || strstr(path, "src/json/dump.c"))
		return 0;
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	text = calloc(1, (size_t)st->st_size + 1);
	if (fread(text, 1, (size_t)st->st_size, f) == (size_t)st->st_size && strstr(text, "json_dumps(")) {
		jd_callers++;
		snprintf(jd_caller, sizeof jd_caller, "%s", path);
	}
	free(text);
	fclose(f);
	return 0;
}

static void t_no_json_dumps(void)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];

	if (top == NULL) {
		ok(1, "# SKIP top_srcdir not set: not run by make check");
		return;
	}
	snprintf(dir, sizeof dir, "%s/src", top);
	nftw(dir, jd_visit, 16, FTW_PHYS);
	snprintf(dir, sizeof dir, "%s/bench", top);
	nftw(dir, jd_visit, 16, FTW_PHYS);
	is_int(jd_callers, 0, "no file under src/ or bench/ calls json_dumps (jtext or jdump instead)%s%s",
	       jd_callers ? ": " : "", jd_caller);
}

/* With jalloc installed, values are made, copied, written and dropped as
 * before, and jtext's and jdump's strings are free()d. */
static void t_with_jalloc(void)
{
	int bad = 0;

	jalloc_install();
	for (int i = 0; i < 2000; i++) {
		json_t *v = json_array(), *c;
		char *a, *b;

		json_array_append_new(v, jd_rand_value(0));
		c = json_deep_copy(v);
		a = jdump(c);
		b = jtext(c, JSON_COMPACT | JSON_SORT_KEYS);
		if (a == NULL || b == NULL || !json_equal(v, c))
			bad++;
		free(a);
		free(b);
		json_decref(c);
		json_decref(v);
	}
	is_int(bad, 0, "with jalloc installed: 2000 random documents copied, compared and written");
}

int main(void)
{
	t_table();
	t_random();
	t_buf_and_refusals();
	t_jtext();
	t_no_json_dumps();
	t_with_jalloc();
	return tap_done();
}
