/* Configuration: defaults, good files, every kind of bad file (golden
 * messages with file and line), environment overrides. */
#include "config.h"
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "conf/conf.h"

struct conf_case {
	const char *name;
	const char *text;
	int rc;
	const char *errs;   /* expected messages, exactly */
};

/* A section a part of the program declares for itself, as a workflow
 * does its [workflow.NAME]. */
struct tc_own {
	long level;
	long loud;
	double ratio;
	char *word;
};
static const struct conf_key tc_own_keys[] = {
	CONF_KEY_LONG(struct tc_own, "level", level, "3", 1, 9),
	CONF_KEY_BOOL(struct tc_own, "loud", loud, "off"),
	CONF_KEY_REAL(struct tc_own, "ratio", ratio, "0.5", 0, 1),
	CONF_KEY_STR(struct tc_own, "word", word, "hello"),
};
static const struct conf_section tc_own_section = {
	"workflow.own", tc_own_keys, sizeof tc_own_keys / sizeof tc_own_keys[0], sizeof(struct tc_own),
};
static const struct conf_section tc_clash = { "workflow.own", tc_own_keys, 1, sizeof(struct tc_own) };
static const struct conf_section tc_shared = { "server", tc_own_keys, 1, sizeof(struct tc_own) };

static void tc_declared(struct buf *errs)
{
	struct conf c;
	const struct tc_own *v;

	is_int(conf_section_add(&tc_own_section), 0, "a section is declared");
	is_int(conf_section_add(&tc_own_section), 0, "... twice is once");
	is_int(conf_section_add(&tc_clash), -1, "another table for its name is refused");
	is_int(conf_section_add(&tc_shared), -1, "a shared section's name is refused");
	conf_init(&c);
	v = conf_section_values(&c, &tc_own_section);
	ok(v && v->level == 3 && !v->loud && v->ratio == 0.5 && strcmp(v->word, "hello") == 0,
	   "its defaults");
	buf_reset(errs);
	setenv("AIVISTA_WORKFLOW_OWN_WORD", "bonjour", 1);
	is_int(conf_load_string(&c, "[workflow.own]\nlevel = 7\nloud = yes\nratio = 0.25\n",
				"t.conf", errs), 0, "its keys are read");
	unsetenv("AIVISTA_WORKFLOW_OWN_WORD");
	v = conf_section_values(&c, &tc_own_section);
	ok(v && v->level == 7 && v->loud && v->ratio == 0.25 && strcmp(v->word, "bonjour") == 0,
	   "the file's values, and the environment's");
	conf_free(&c);
	conf_init(&c);
	buf_reset(errs);
	is_int(conf_load_string(&c, "[workflow.own]\nlevel = 10\nlouder = 1\n[workflow.other]\nx = 1\n",
				"t.conf", errs), -1, "bad keys of a declared section fail");
	is_str(errs->data, "t.conf:2: level: 10 is out of range [1, 9]\n"
	       "t.conf:3: unknown key 'louder' in [workflow.own]\n"
	       "t.conf:5: key 'x' in unknown section [workflow.other]\n",
	       "... each said as for the shared sections");
	conf_free(&c);
}

static const struct conf_case cases[] = {
	{ "empty file", "", 0, "" },
	{ "comments only", "; hello\n# there\n", 0, "" },
	{ "good values", "[server]\nmax_body_bytes = 4096\nlog_level = debug\n"
	  "[store]\ndir = /tmp/x\ndurability = sync\n[engine]\nsteps_per_request = 1\n", 0, "" },
	{ "unknown key", "[server]\nmax_body_bytes = 4096\nbogus = 1\n", -1,
	  "t.conf:3: unknown key 'bogus' in [server]\n" },
	{ "unknown section", "\n[nope]\nx = 1\n", -1,
	  "t.conf:3: key 'x' in unknown section [nope]\n" },
	{ "not a number", "[server]\nkeepalive_ms = soon\n", -1,
	  "t.conf:2: keepalive_ms: 'soon' is not a whole number\n" },
	{ "out of range", "[engine]\n\nmax_iterations = 0\n", -1,
	  "t.conf:3: max_iterations: 0 is out of range [1, 10000]\n" },
	{ "bad choice", "[store]\ndurability = maybe\n", -1,
	  "t.conf:2: durability: 'maybe' is not one of sync|write_nosync\n" },
	{ "several errors, all reported", "[server]\na = 1\nkeepalive_ms = -5\n[x]\nb = 2\n", -1,
	  "t.conf:2: unknown key 'a' in [server]\n"
	  "t.conf:3: keepalive_ms: -5 is out of range [10, 300000]\n"
	  "t.conf:5: key 'b' in unknown section [x]\n" },
	{ "syntax error", "[server\n", -1, "t.conf:1: syntax error\n" },
	{ "key outside a section", "x = 1\n", -1, "t.conf:1: key 'x' in unknown section []\n" },
	{ "provider without a key", "[provider.chat]\nkind = openai\napi_key_env = AV_TEST_NO_SUCH_VAR\n",
	  -1, "[provider.chat] kind = openai needs an API key: set api_key or the variable named "
	      "by api_key_env (AV_TEST_NO_SUCH_VAR)\n" },
	{ "provider kind not offered for the role", "[provider.chat]\nkind = dashscope\n", -1,
	  "t.conf:2: kind: 'dashscope' is not one of offline|openai\n" },
	{ "named provider", "[provider.alt]\nkind = openai\napi_key = k\nmodel = m\n", 0, "" },
	{ "named provider: unknown key", "[provider.alt]\npoll_max = 3\n", -1,
	  "t.conf:2: unknown key 'poll_max' in [provider.alt]\n" },
	{ "named provider: bad value", "[provider.alt]\nretries = 99\n", -1,
	  "t.conf:2: retries: 99 is out of range [0, 10]\n" },
	{ "named provider: bad name", "[provider.a b]\nkind = offline\n", -1,
	  "t.conf:2: [provider.a b]: a provider's name is 1 to 32 letters, digits, '_' or '-'\n" },
	{ "named provider without a key", "[provider.alt]\nkind = openai\n", -1,
	  "[provider.alt] kind = openai needs an API key: set api_key or the variable named "
	      "by api_key_env ()\n" },
	{ "named providers: at most 8", "[provider.a1]\nretries = 1\n[provider.a2]\nretries = 1\n"
	  "[provider.a3]\nretries = 1\n[provider.a4]\nretries = 1\n[provider.a5]\nretries = 1\n"
	  "[provider.a6]\nretries = 1\n[provider.a7]\nretries = 1\n[provider.a8]\nretries = 1\n"
	  "[provider.a9]\nretries = 1\n", -1, "t.conf:18: [provider.a9]: at most 8 named provider sections\n" },
};

int main(void)
{
	struct conf c;
	struct buf errs;

	buf_init(&errs, 1 << 16);
	conf_init(&c);
	is_int(c.max_body_bytes, 16777216, "default max_body_bytes");
	is_int(c.keepalive_ms, 15000, "default keepalive_ms");
	is_str(c.durability, "write_nosync", "default durability");
	is_str(c.prov[PROV_CHAT].kind, "offline", "default provider is offline");
	conf_free(&c);

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		buf_reset(&errs);
		conf_init(&c);
		is_int(conf_load_string(&c, cases[i].text, "t.conf", &errs), cases[i].rc, "%s: result",
		       cases[i].name);
		is_str(errs.data ? errs.data : "", cases[i].errs, "%s: messages", cases[i].name);
		conf_free(&c);
	}

	conf_init(&c);
	buf_reset(&errs);
	conf_load_string(&c, "[server]\nmax_body_bytes = 4096\n[store]\ndir = /srv/av\n", "t.conf", &errs);
	is_int(c.max_body_bytes, 4096, "file value read");
	is_str(c.key_file, "/srv/av/thread.key", "key file defaults beside the store");
	conf_free(&c);

	conf_init(&c);
	buf_reset(&errs);
	conf_load_string(&c, "[provider.alt]\nkind = openai\napi_key = k\nmodel = m2\n"
			 "[provider.chat]\nmodel = c1\n", "t.conf", &errs);
	is_int(c.nnamed, 1, "named provider: one section");
	is_str(conf_provider_named(&c, "alt") ? conf_provider_named(&c, "alt")->model : "", "m2",
	       "named provider: found by its name, its model read");
	is_int(conf_provider_named(&c, "alt")->timeout_ms, 30000, "named provider: defaults");
	is_str(conf_provider_named(&c, "chat")->model, "c1", "a role's section found by its name");
	ok(conf_provider_named(&c, "nope") == NULL, "no section: NULL");
	conf_free(&c);

	setenv("AIVISTA_SERVER_MAX_BODY_BYTES", "8192", 1);
	setenv("AIVISTA_PROVIDER_CHAT_MODEL", "qwen-plus", 1);
	conf_init(&c);
	buf_reset(&errs);
	is_int(conf_load_string(&c, "[server]\nmax_body_bytes = 4096\n", "t.conf", &errs), 0,
	       "environment: loads");
	is_int(c.max_body_bytes, 8192, "environment overrides the file");
	is_str(c.prov[PROV_CHAT].model, "qwen-plus", "environment names dotted sections with _");
	conf_free(&c);
	setenv("AIVISTA_ENGINE_MAX_ITERATIONS", "lots", 1);
	conf_init(&c);
	buf_reset(&errs);
	is_int(conf_load_string(&c, "", "t.conf", &errs), -1, "environment: a bad value fails");
	is_str(errs.data, "environment AIVISTA_ENGINE_MAX_ITERATIONS: 'lots' is not a whole number\n",
	       "environment: the variable is named");
	conf_free(&c);
	unsetenv("AIVISTA_ENGINE_MAX_ITERATIONS");

	setenv("AV_TEST_KEY", "sk-test-0123456789", 1);
	conf_init(&c);
	buf_reset(&errs);
	is_int(conf_load_string(&c, "[provider.chat]\nkind = openai\napi_key_env = AV_TEST_KEY\n",
				"t.conf", &errs), 0, "key from the named variable");
	is_str(c.prov[PROV_CHAT].api_key, "sk-test-0123456789", "key resolved");
	conf_free(&c);

	conf_init(&c);
	buf_reset(&errs);
	setenv("AIVISTA_CONF", "/nonexistent/aivista.conf", 1);
	is_int(conf_load(&c, NULL, &errs), -1, "AIVISTA_CONF naming a missing file fails");
	ok(strstr(errs.data, "/nonexistent/aivista.conf: cannot open") != NULL, "and says which");
	conf_free(&c);
	tc_declared(&errs);
	buf_free(&errs);
	return tap_done();
}
