/* Knowledge bases: the tokenizer (including hostile UTF-8), loading and
 * its error messages, the style library file itself, lexical search over
 * it (what the image workflow's 0.6 threshold lets through), the
 * properties every result list has, and cosine search with hand-made
 * vectors. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sodium.h>
#include "tap.h"
#include "conf/conf.h"
#include "kb/kb.h"
#include "kb/shelf.h"
#include "app.h"
#include "text/seg.h"

/* -- tokenizer ------------------------------------------------------------- */

struct tok_case {
	const char *name;
	const char *text;
	size_t len;          /* 0: strlen(text) */
	const char *want;    /* the tokens, space-separated */
};

static const struct tok_case tok_cases[] = {
	{ "ASCII words, lower-cased", "Cyberpunk CAT, neon-lit!", 0, "cyberpunk cat neon lit" },
	{ "function words and plurals", "a cat in the style of watercolors", 0, "cat watercolor" },
	{ "plural -ies, -ss kept", "skies and glass", 0, "sky glass" },
	{ "single letters dropped, digits kept", "a 3D render, 8 bit", 0, "3d render 8 bit" },
	{ "CJK bigrams, and a listed word", "赛博朋克", 0, "赛博 博朋 朋克 赛博朋克" },
	{ "words of three characters or more", "小红书测评：海边的金毛犬", 0,
	  "小红 红书 书测 测评 海边 边的 的金 金毛 毛犬 小红书 金毛犬" },
	{ "a word across an invalid byte is not joined", "小红\xff书", 0, "小红 书" },
	{ "a lone CJK character", "猫", 0, "猫" },
	{ "mixed scripts", "3D渲染的猫cat", 0, "3d 渲染 染的 的猫 cat" },
	{ "CJK punctuation separates", "水彩，风景。猫", 0, "水彩 风景 猫" },
	{ "full-width letters and digits folded", "ＣＹＢＥＲ２０７７", 0, "cyber2077" },
	{ "kana and hangul", "アニメ・한국", 0, "アニ ニメ 한국 アニメ" },
	{ "emoji separate", "猫😺狗 cat🐱dog", 0, "猫 狗 cat dog" },
	{ "invalid bytes skipped", "ab\xff\xfe" "cd 水\x80彩", 0, "ab cd 水 彩" },
	{ "overlong encoding rejected", "go\xc0\xaf" "od", 0, "go od" },
	{ "surrogate rejected", "水\xed\xa0\x80彩", 0, "水 彩" },
	{ "above U+10FFFF rejected", "ab\xf4\x90\x80\x80" "cd", 0, "ab cd" },
	{ "truncated sequence at the end", "水彩\xe6\xb0", 0, "水彩" },
	{ "length cuts a character", "水彩画", 7, "水彩" },
	{ "length cuts a 4-byte character", "ok\xf0\x9f\x98\xba", 5, "ok" },
	{ "lone continuation bytes", "\x80\x80\xbf", 0, "" },
	{ "NUL inside", "ab\0cd", 5, "ab cd" },
	{ "accented Latin separates", "café au lait", 0, "caf au lait" },
	{ "over-long word dropped",
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa ok", 0, "ok" },
	{ "empty", "", 0, "" },
	{ "only separators", " ,.!?;；…", 0, "" },
};

static void tok_join(void *ctx, const char *tok, size_t n)
{
	char *out = ctx;

	if (*out)
		strcat(out, " ");
	strncat(out, tok, n);
}

static void test_tokenizer(void)
{
	for (size_t i = 0; i < sizeof tok_cases / sizeof tok_cases[0]; i++) {
		const struct tok_case *c = &tok_cases[i];
		size_t len = c->len ? c->len : strlen(c->text);
		/* Exactly len bytes and no NUL after them: a read past the end
		 * shows under the address sanitizer. */
		char *copy = malloc(len ? len : 1), out[512] = "";

		memcpy(copy, c->text, len);
		kb_tokenize(copy, len, tok_join, out);
		is_str(out, c->want, "tokenize: %s", c->name);
		free(copy);
	}
	kb_tokenize(NULL, 5, tok_join, NULL);
	ok(1, "tokenize: NULL text is nothing");
	{
		json_t *t = kb_tokens("水彩 cat", strlen("水彩 cat"));

		ok(json_array_size(t) == 2 && strcmp(json_string_value(json_array_get(t, 1)), "cat") == 0,
		   "kb_tokens: an array of the tokens");
		json_decref(t);
	}
}

/* -- loading --------------------------------------------------------------- */

static const struct kb_field test_fields[] = {
	{ "name", 3, KB_SHOW | KB_REQUIRED },
	{ "keywords", 3, 0 },
	{ "text", 1, KB_SHOW },
	{ NULL, 0, 0 },
};

/* A listed word ranks the documents that have it before those that only
 * have its bigrams in other words. */
static void test_word_rank(void)
{
	json_t *docs = json_loads("[{\"id\": \"hat\", \"name\": \"小红帽\", \"text\": \"小红帽的红书包\"},"
				  " {\"id\": \"app\", \"name\": \"运营\", \"text\": \"小红书运营\"}]", 0, NULL);
	char err[256] = "";
	struct kb *kb = kb_from_json(docs, test_fields, "w.json", err, sizeof err);
	json_t *hits = kb ? kb_search(kb, "小红书", 2, 0) : NULL;
	const char *first = json_string_value(json_object_get(json_array_get(hits, 0), "id"));

	is_str(first, "app", "search: a listed word's document first (%s)", err);
	json_decref(hits);
	kb_free(kb);
	json_decref(docs);
}

struct load_case {
	const char *name;
	const char *json;
	const char *err;     /* NULL: loads */
};

static const struct load_case load_cases[] = {
	{ "good", "[{\"id\": \"a\", \"name\": \"A\", \"keywords\": [\"x\"]}, {\"id\": \"b\", \"name\": \"B\"}]",
	  NULL },
	{ "empty array", "[]", NULL },
	{ "not an array", "{\"id\": \"a\"}", "t.json: not a JSON array of documents" },
	{ "document not an object", "[{\"id\": \"a\", \"name\": \"A\"}, 5]",
	  "t.json: document 2: not an object" },
	{ "no id", "[{\"name\": \"A\"}]", "t.json: document 1: no \"id\" string" },
	{ "empty id", "[{\"id\": \"\", \"name\": \"A\"}]", "t.json: document 1: no \"id\" string" },
	{ "id not a string", "[{\"id\": 7, \"name\": \"A\"}]", "t.json: document 1: no \"id\" string" },
	{ "duplicate id", "[{\"id\": \"a\", \"name\": \"A\"}, {\"id\": \"b\", \"name\": \"B\"}, "
	  "{\"id\": \"a\", \"name\": \"C\"}]", "t.json: document 3: id \"a\" is also document 1's" },
	{ "required field missing", "[{\"id\": \"a\"}]", "t.json: document 1 (a): no \"name\"" },
	{ "required field empty", "[{\"id\": \"a\", \"name\": \"\"}]",
	  "t.json: document 1 (a): \"name\" is empty" },
	{ "field of the wrong type", "[{\"id\": \"a\", \"name\": \"A\", \"keywords\": 3}]",
	  "t.json: document 1 (a): \"keywords\" must be a string or an array of strings" },
	{ "array holding a number", "[{\"id\": \"a\", \"name\": \"A\", \"keywords\": [\"x\", 1]}]",
	  "t.json: document 1 (a): \"keywords\" must be a string or an array of strings" },
};

static void test_load_cases(void)
{
	for (size_t i = 0; i < sizeof load_cases / sizeof load_cases[0]; i++) {
		const struct load_case *c = &load_cases[i];
		json_t *j = json_loads(c->json, 0, NULL);
		char err[256] = "";
		struct kb *kb = kb_from_json(j, test_fields, "t.json", err, sizeof err);

		if (c->err == NULL)
			ok(kb != NULL && err[0] == '\0', "load: %s: loads (%s)", c->name, err);
		else
			is_str(kb ? "(loaded)" : err, c->err, "load: %s: the message", c->name);
		kb_free(kb);
		json_decref(j);
	}
}

static char *write_temp(const char *text)
{
	char *path = strdup("/tmp/t_kb_XXXXXX");
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		printf("Bail out! cannot write a temporary file\n");
		exit(99);
	}
	close(fd);
	return path;
}

static void test_load_files(void)
{
	char err[512], want[600];
	char *bad = write_temp("[{\"id\": \"a\",\n  \"name\": }]\n");
	char *dup = write_temp("[{\"id\": \"a\", \"name\": \"A\", \"name\": \"B\"}]");
	char *good = write_temp("[{\"id\": \"a\", \"name\": \"A\"}]");
	struct kb *kb, *kb2;

	ok(kb_load("/nonexistent/styles.json", test_fields, err, sizeof err) == NULL &&
	   strncmp(err, "/nonexistent/styles.json: cannot open: ", 39) == 0,
	   "load: a missing file is named (%s)", err);
	ok(kb_load(bad, test_fields, err, sizeof err) == NULL, "load: bad JSON fails");
	snprintf(want, sizeof want, "%s:2:", bad);
	ok(strncmp(err, want, strlen(want)) == 0, "load: bad JSON: file, line and column (%s)", err);
	ok(kb_load(dup, test_fields, err, sizeof err) == NULL && strstr(err, "duplicate") != NULL,
	   "load: a duplicate key is refused (%s)", err);
	kb = kb_load(good, test_fields, err, sizeof err);
	kb2 = kb_load(good, test_fields, err, sizeof err);
	ok(kb && kb2 && strlen(kb_digest(kb)) == 32 && strcmp(kb_digest(kb), kb_digest(kb2)) == 0,
	   "load: the digest is 32 hex digits, the same for the same file");
	is_str(kb ? kb_name(kb) : NULL, good, "load: the kb is named by its path");
	kb_free(kb);
	kb_free(kb2);
	kb_free(NULL);
	unlink(bad);
	unlink(dup);
	unlink(good);
	free(bad);
	free(dup);
	free(good);
}

/* -- the style library file ------------------------------------------------ */

static int has_cjk(const char *s)
{
	/* A lead byte of U+3000..U+9FFF: E3..E9. */
	for (; *s; s++)
		if ((unsigned char)*s >= 0xe3 && (unsigned char)*s <= 0xe9)
			return 1;
	return 0;
}

static int is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return 0;
	return 1;
}

/* One style's problem, or NULL. */
static const char *style_problem(const json_t *s)
{
	static const char *const fields[] = { "id", "name_zh", "name_en", "prompt", "category" };
	json_t *kw = json_object_get(s, "keywords"), *k;
	size_t i, zh = 0, en = 0;

	for (i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		const char *v = json_string_value(json_object_get(s, fields[i]));

		if (v == NULL || *v == '\0')
			return fields[i];
	}
	if (!has_cjk(json_string_value(json_object_get(s, "name_zh"))))
		return "name_zh has no Chinese";
	if (!is_ascii(json_string_value(json_object_get(s, "prompt"))))
		return "prompt is not English";
	json_array_foreach(kw, i, k) {
		const char *v = json_string_value(k);

		if (v == NULL || *v == '\0')
			return "an empty keyword";
		zh += has_cjk(v);
		en += is_ascii(v);
	}
	if (zh < 2 || en < 2)
		return "fewer than 2 Chinese and 2 English keywords";
	return NULL;
}

static void test_library(const char *path)
{
	json_error_t jerr;
	json_t *lib = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr), *s;
	size_t i, bad = 0, dups = 0;

	ok(json_is_array(lib), "library: %s is a JSON array (%s)", path, lib ? "" : jerr.text);
	ok(json_array_size(lib) >= 64, "library: %zu styles, at least 64", json_array_size(lib));
	json_array_foreach(lib, i, s) {
		const char *why = style_problem(s);
		const char *id = json_string_value(json_object_get(s, "id"));

		if (why) {
			printf("# style %zu (%s): %s\n", i + 1, id ? id : "?", why);
			bad++;
		}
		for (size_t j = 0; id && j < i; j++) {
			const char *other = json_string_value(json_object_get(json_array_get(lib, j), "id"));

			dups += other && strcmp(id, other) == 0;
		}
	}
	is_int(bad, 0, "library: every style has every field, both names, >= 2 keywords of each language");
	is_int(dups, 0, "library: ids are unique");
	json_decref(lib);
}

/* -- searching the library ------------------------------------------------- */

struct search_case {
	const char *query;
	const char *first;   /* NULL: nothing at >= 0.6 */
	const char *also;    /* another id among the results, or NULL */
};

static const struct search_case search_cases[] = {
	{ "赛博朋克风格的猫", "cyberpunk", NULL },
	{ "cyberpunk cat", "cyberpunk", NULL },
	{ "水彩 风景", "watercolor", NULL },
	{ "一只猫", NULL, NULL },
	{ "", NULL, NULL },
	{ "a cat in the style of watercolor", "watercolor", NULL },
	{ "油画风格的向日葵", "oil_painting", NULL },
	{ "水墨山水", "ink_wash", NULL },
	{ "像素风的小狗", "pixel_art", NULL },
	{ "浮世绘海浪", "ukiyo_e", NULL },
	{ "ukiyo-e wave", "ukiyo_e", NULL },
	{ "吉卜力风格的小镇", "ghibli_like", NULL },
	{ "黄昏的海边", "golden_hour", NULL },
	{ "霓虹灯下的街道", "neon", NULL },
	{ "极简主义海报", "minimalism", NULL },
	{ "蒸汽朋克飞艇", "steampunk", NULL },
	{ "steampunk airship", "steampunk", NULL },
	{ "产品摄影 白底 耳机", "product_photo", NULL },
	{ "low poly mountains", "low_poly", NULL },
	{ "dark fantasy castle", "dark_fantasy", "fantasy" },
	{ "暗黑奇幻城堡", "dark_fantasy", NULL },
	{ "青花瓷花瓶", "blue_white_porcelain", NULL },
	{ "剪纸风格的兔子", "paper_cut", NULL },
	{ "工笔花鸟", "gongbi", NULL },
	{ "国潮风海报", "guochao", NULL },
	{ "敦煌飞天", "dunhuang", NULL },
	{ "等距视角的小房间", "isometric", NULL },
	{ "电影感的雨夜", "cinematic", NULL },
	{ "anime girl", "anime", NULL },
	{ "manga girl", "manga", NULL },
	{ "children's book illustration of a bear", "childrens_book", NULL },
	{ "long exposure of a waterfall", "long_exposure", NULL },
	{ "street photography in tokyo", "street_photo", NULL },
	{ "film photo", "film_photo", NULL },
	{ "impressionism garden", "impressionism", NULL },
	{ "cyberpunk portrait of a woman", NULL, "cyberpunk" },
	{ "black and white street photography", "black_white_photo", "street_photo" },
	{ "一只可爱的小猫", NULL, NULL },
	{ "画一只猫在沙发上睡觉", NULL, NULL },
	{ "我想要一张好看的图片", NULL, NULL },
	{ "a red apple on a table", NULL, NULL },
	{ "hello world", NULL, NULL },
	{ "art", NULL, NULL },
	{ "style", NULL, NULL },
	{ "😺🐱", NULL, NULL },
};

static int results_have(const json_t *res, const char *id)
{
	size_t i;
	json_t *r;

	json_array_foreach(res, i, r)
		if (strcmp(json_string_value(json_object_get(r, "id")), id) == 0)
			return 1;
	return 0;
}

static void test_search_cases(const struct kb *kb)
{
	for (size_t i = 0; i < sizeof search_cases / sizeof search_cases[0]; i++) {
		const struct search_case *c = &search_cases[i];
		json_t *res = kb_search(kb, c->query, 3, 0.6), *top = json_array_get(res, 0);
		const char *got = json_string_value(json_object_get(top, "id"));

		if (c->first)
			is_str(got, c->first, "search '%s': %s first (%.4f)", c->query, c->first,
			       json_real_value(json_object_get(top, "similarity")));
		else if (c->also == NULL)
			is_int(json_array_size(res), 0, "search '%s': nothing at >= 0.6 (%s)", c->query,
			       got ? got : "none");
		if (c->also)
			ok(results_have(res, c->also), "search '%s': %s among the results", c->query,
			   c->also);
		json_decref(res);
	}
}

/* Any list: similarities in (0, 1] and >= the threshold, best first,
 * ties by id, at most limit. Returns 0 when all hold. */
static int results_order(const json_t *res, size_t limit, double min)
{
	double prev = 2;
	const char *prev_id = "";
	size_t i;
	json_t *r;

	if (!json_is_array(res) || json_array_size(res) > limit)
		return -1;
	json_array_foreach(res, i, r) {
		json_t *sim = json_object_get(r, "similarity");
		double s = json_real_value(sim);
		const char *id = json_string_value(json_object_get(r, "id"));

		if (!json_is_real(sim) || id == NULL || !(s > 0 && s <= 1 && s >= min && s <= prev))
			return -1;
		if (s == prev && strcmp(prev_id, id) >= 0)
			return -1;
		prev = s;
		prev_id = id;
	}
	return 0;
}

/* A list from the style library: ordered, and each item exactly {"id",
 * "name_zh", "name_en", "prompt", "similarity"}. */
static int results_check(const json_t *res, size_t limit, double min)
{
	static const char *const keys[] = { "id", "name_zh", "name_en", "prompt", "similarity" };
	size_t i;
	json_t *r;

	if (results_order(res, limit, min) < 0)
		return -1;
	json_array_foreach(res, i, r) {
		if (json_object_size(r) != 5)
			return -1;
		for (size_t k = 0; k < 5; k++)
			if (json_object_get(r, keys[k]) == NULL)
				return -1;
	}
	return 0;
}

static void test_search_properties(const struct kb *kb)
{
	static const size_t limits[] = { 1, 3, 200 };
	static const double mins[] = { 0, 0.3, 0.6, 0.9 };
	size_t nbad = 0, nmismatch = 0, nlists = 0;
	char *big;
	json_t *res;

	for (size_t i = 0; i < sizeof search_cases / sizeof search_cases[0]; i++) {
		for (size_t l = 0; l < 3; l++) {
			for (size_t m = 0; m < 4; m++) {
				json_t *a = kb_search(kb, search_cases[i].query, limits[l], mins[m]);
				json_t *b = kb_search(kb, search_cases[i].query, limits[l], mins[m]);

				nbad += results_check(a, limits[l], mins[m]) != 0;
				nmismatch += !json_equal(a, b);
				nlists++;
				json_decref(a);
				json_decref(b);
			}
		}
	}
	is_int(nbad, 0, "search: %zu lists: similarity in (0, 1], >= threshold, ordered, ties by id, "
	       "<= limit, result shape", nlists);
	is_int(nmismatch, 0, "search: the same query gives the same list");
	res = kb_search(kb, "cyberpunk", 0, 0);
	is_int(json_array_size(res), 0, "search: limit 0 gives []");
	json_decref(res);
	res = kb_search(kb, NULL, 3, 0);
	is_int(json_array_size(res), 0, "search: NULL query gives []");
	json_decref(res);
	res = kb_search(kb, "photography", 2, 0);
	is_int(json_array_size(res), 2, "search: limit 2 of many matches gives 2");
	json_decref(res);
	big = malloc(200001);
	for (size_t i = 0; i < 200000; i++)
		big[i] = "cyberpunk \xe8\xb5\x9b"[i % 13];
	big[200000] = '\0';
	res = kb_search(kb, big, 3, 0);
	ok(json_is_array(res), "search: a 200 KB query is cut, not refused");
	json_decref(res);
	free(big);
}

static void test_styles_load(const char *path)
{
	struct conf c;
	char err[512] = "";
	struct kb *kb;

	conf_init(&c);
	free(c.kb_styles);
	c.kb_styles = strdup(path);
	kb = kb_def_load(&kb_styles_def, &c, err, sizeof err);
	ok(kb != NULL, "kb_def_load: the library loads with the style fields (%s)", err);
	if (kb) {
		json_t *doc = kb_find(kb, "cyberpunk");

		ok(kb_count(kb) >= 64 && json_array_size(kb_items(kb)) == kb_count(kb),
		   "kb_items: every style");
		ok(doc && json_is_array(json_object_get(doc, "keywords")), "kb_find: a style by id");
		ok(kb_find(kb, "no_such_style") == NULL, "kb_find: NULL for an unknown id");
		test_search_cases(kb);
		test_search_properties(kb);
	}
	kb_free(kb);
	conf_free(&c);
}

/* -- the shelf: loaded once, kept, a broken file retried later ------------- */

static int shelf_check_even(const json_t *docs, char *err, size_t errlen)
{
	return json_array_size(docs) % 2 ? (snprintf(err, errlen, "an odd number of entries"), -1) : 0;
}

static const struct kb_field shelf_fields[] = { { "name", 1, KB_REQUIRED }, { NULL, 0, 0 } };
static char shelf_path[64];

static const char *shelf_conf_path(const struct conf *c)
{
	return shelf_path;
}

static const struct kb_def shelf_def = {
	.name = "test library", .file = "none.json", .path = shelf_conf_path,
	.fields = shelf_fields, .check = shelf_check_even,
};

static void shelf_write(const char *text)
{
	FILE *f = fopen(shelf_path, "w");

	fputs(text, f);
	fclose(f);
}

static void test_shelf(const char *styles)
{
	static struct app app;
	char err[256] = "";
	struct kb *a, *b;
	int fd;

	snprintf(shelf_path, sizeof shelf_path, "/tmp/t_kb_shelf_XXXXXX");
	fd = mkstemp(shelf_path);
	close(fd);
	conf_init(&app.conf);
	free(app.conf.kb_styles);
	app.conf.kb_styles = strdup(styles);
	shelf_write("[{\"id\": \"a\", \"name\": \"A\"}]");
	a = kb_shelf_get(&app, &shelf_def, err, sizeof err);
	ok(a == NULL && strstr(err, "test library") && !strstr(err, shelf_path),
	   "shelf: a file its check refuses is not kept; the error names the library, not the file (%s)",
	   err);
	shelf_write("[{\"id\": \"a\", \"name\": \"A\"}, {\"id\": \"b\", \"name\": \"B\"}]");
	ok(kb_shelf_get(&app, &shelf_def, err, sizeof err) == NULL,
	   "shelf: fixed at once, it is not read again on every request");
	app.kbs->slot[0].retry_ms = 0;
	a = kb_shelf_get(&app, &shelf_def, err, sizeof err);
	ok(a != NULL && kb_count(a) == 2, "shelf: after the retry delay, the fixed file loads");
	shelf_write("not json");
	ok(kb_shelf_get(&app, &shelf_def, err, sizeof err) == a, "shelf: once loaded, kept");
	b = kb_styles(&app);
	ok(b != NULL && b != a && kb_styles(&app) == b && kb_find(b, "cyberpunk"),
	   "shelf: the style library in its own slot, loaded once");
	kb_shelf_free(app.kbs);   /* what it held, too: a leak checker sees any left */
	app.kbs = NULL;
	conf_free(&app.conf);
	unlink(shelf_path);
}

/* -- vectors --------------------------------------------------------------- */

static const char vec_docs[] =
	"[{\"id\": \"b\", \"name\": \"Bee\", \"text\": \"wings\"},"
	" {\"id\": \"a\", \"name\": \"Ant\", \"keywords\": [\"small\", \"six legs\"]},"
	" {\"id\": \"c\", \"name\": \"Cat\"},"
	" {\"id\": \"d\", \"name\": \"Dog\"}]";

struct cos_case {
	const char *name;
	const char *query;
	const char *docs;     /* NULL: the kept vectors */
	double min;
	const char *want;     /* "id:sim id:sim", or "error" */
};

static const struct cos_case cos_cases[] = {
	{ "ranked, ties by id, orthogonal left out", "[1, 0, 0]",
	  "[[1, 0, 0], [1, 0, 0], [0.6, 0.8, 0], [0, 0, 1]]", 0, "a:1 b:1 c:0.6" },
	{ "threshold", "[1, 0, 0]", "[[1, 0, 0], [0.8, 0.6, 0], [0.6, 0.8, 0], [0, 0, 1]]", 0.7,
	  "b:1 a:0.8" },
	{ "scale does not matter", "[2, 0, 0]", "[[5, 0, 0], [0, 3, 0], [0, 0, 1], [0, 1, 0]]", 0,
	  "b:1" },
	{ "negative cosine counts as nothing", "[1, 0]", "[[-1, 0], [-1, 1], [1, 1], [0, 0]]", 0,
	  "c:0.7071" },
	{ "kept vectors", "[0, 0, 1]", NULL, 0, "d:1" },
	{ "query of another dimension", "[1, 0]", "[[1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]]",
	  0, "error" },
	{ "a document vector too short", "[1, 0, 0]", "[[1, 0, 0], [1, 0], [1, 0, 0], [1, 0, 0]]",
	  0, "error" },
	{ "fewer vectors than documents", "[1, 0, 0]", "[[1, 0, 0]]", 0, "error" },
	{ "not numbers", "[1, 0, 0]", "[[1, 0, 0], [1, 0, \"x\"], [1, 0, 0], [1, 0, 0]]", 0,
	  "error" },
	{ "empty query", "[]", "[[1], [1], [1], [1]]", 0, "error" },
};

static void cos_render(const json_t *res, char *out, size_t n)
{
	size_t i;
	json_t *r;

	out[0] = '\0';
	json_array_foreach(res, i, r) {
		char one[64];

		snprintf(one, sizeof one, "%s%s:%g", i ? " " : "",
			 json_string_value(json_object_get(r, "id")),
			 json_real_value(json_object_get(r, "similarity")));
		strncat(out, one, n - strlen(out) - 1);
	}
}

static void test_vectors(void)
{
	json_t *docs = json_loads(vec_docs, 0, NULL), *texts, *empty = json_array();
	char err[256] = "", got[256];
	struct kb *kb = kb_from_json(docs, test_fields, "vec.json", err, sizeof err);

	if (kb == NULL) {
		printf("Bail out! %s\n", err);
		exit(99);
	}
	texts = kb_embed_texts(kb);
	ok(json_array_size(texts) == 4 &&
	   strcmp(json_string_value(json_array_get(texts, 1)), "Ant. small, six legs") == 0 &&
	   strcmp(json_string_value(json_array_get(texts, 0)), "Bee. wings") == 0,
	   "embed texts: one per document, indexed fields joined (%s)",
	   json_string_value(json_array_get(texts, 1)));
	json_decref(texts);
	ok(kb_search_cosine(kb, empty, NULL, 3, 0, err, sizeof err) == NULL,
	   "cosine: an empty query vector is an error (%s)", err);
	json_decref(empty);
	empty = json_pack("[i]", 1);
	ok(kb_search_cosine(kb, empty, NULL, 3, 0, err, sizeof err) == NULL,
	   "cosine: no vectors kept and none given is an error (%s)", err);
	json_decref(empty);
	ok(kb_vectors_set_new(kb, json_loads("[[1, 0]]", 0, NULL), err, sizeof err) < 0,
	   "vectors: a wrong count is refused (%s)", err);
	ok(kb_vectors_set_new(kb, json_loads("[[1, 0, 0], [0, 1, 0], [0.5, 0.5, 0], [0, 0, 1]]", 0,
					    NULL), err, sizeof err) == 0 && kb_vectors(kb) != NULL,
	   "vectors: kept");
	for (size_t i = 0; i < sizeof cos_cases / sizeof cos_cases[0]; i++) {
		const struct cos_case *c = &cos_cases[i];
		json_t *q = json_loads(c->query, 0, NULL);
		json_t *dv = c->docs ? json_loads(c->docs, 0, NULL) : NULL;
		json_t *res = kb_search_cosine(kb, q, dv, 10, c->min, err, sizeof err);

		if (res)
			cos_render(res, got, sizeof got);
		else
			snprintf(got, sizeof got, "error");
		is_str(got, c->want, "cosine: %s%s%s", c->name, res ? "" : ": ", res ? "" : err);
		if (res)
			ok(results_order(res, 10, c->min) == 0, "cosine: %s: ordered, in (0, 1]", c->name);
		json_decref(res);
		json_decref(q);
		json_decref(dv);
	}
	kb_free(kb);
	json_decref(docs);
}

int main(void)
{
	const char *top = getenv("top_srcdir");
	char *lib, err[512];

	if (sodium_init() < 0) {
		printf("Bail out! sodium_init\n");
		return 99;
	}
	lib = malloc(strlen(top ? top : ".") + 32);
	sprintf(lib, "%s/etc/words.txt", top ? top : ".");
	if (text_seg_load(lib, err, sizeof err) < 0) {
		printf("Bail out! %s\n", err);
		return 99;
	}
	free(lib);
	test_tokenizer();
	test_word_rank();
	test_load_cases();
	test_load_files();
	test_vectors();
	lib = malloc(strlen(top ? top : ".") + 32);
	sprintf(lib, "%s/etc/styles.json", top ? top : ".");
	test_library(lib);
	test_styles_load(lib);
	test_shelf(lib);
	free(lib);
	return tap_done();
}
