/* The offline debugger and architect. The debugger looks for the error
 * messages people paste (tracebacks, compiler and linker errors, crashes,
 * sanitizer reports) in the inputs' text and the attached text files, and
 * says what each kind usually means. The architect outlines the modules
 * of the attached and written files by folder, with their languages and
 * functions. Neither runs anything. */
#include "config.h"
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

#define ORCH_MAX_FINDINGS 50

static const struct orch_pattern {
	const char *text, *kind, *zh, *en;
} orch_patterns[] = {
	{ "Traceback (most recent call last)", "python-traceback", "Python 异常：最后一行是异常类型，其上一行是出错的代码", "a Python exception: its last line names it, the line above is where it happened" },
	{ "Segmentation fault", "segfault", "段错误：访问了无效内存（空指针、越界、已释放的内存）", "a crash on invalid memory (NULL, out of bounds, freed memory)" },
	{ "AddressSanitizer", "sanitizer", "AddressSanitizer 报告：看第一个栈帧所在的代码", "an AddressSanitizer report: look at the code of its first frame" },
	{ "undefined reference to", "link-error", "链接错误：缺少定义该符号的源文件或库", "a link error: the file or library defining the symbol is missing" },
	{ "error:", "compile-error", "编译错误：按文件和行号修改，先看第一条", "a compiler error: fix the first one at its file and line first" },
	{ "TypeError", "type-error", "类型错误：值的类型与使用方式不符（如 undefined 或 None）", "a type error: a value is not what the code uses it as (undefined, None)" },
	{ "ReferenceError", "reference-error", "引用错误：使用了未定义的名字", "a reference error: a name is used that is not defined" },
	{ "panic:", "panic", "程序 panic：看紧随其后的消息和栈", "a panic: read the message and the stack after it" },
	{ "No such file or directory", "missing-file", "文件不存在：检查路径和工作目录", "a missing file: check the path and the working directory" },
	{ "Exception", "exception", "未处理的异常：看异常的类型和消息", "an exception: read its type and message" },
	{ "FAILED", "test-failure", "测试失败：比较期望值与实际值", "a failed test: compare the expected and actual values" },
};

static void orch_dbg_scan(json_t *found, const char *source, const char *text, const char *lang)
{
	const char *p = text;

	for (int line = 1; *p && json_array_size(found) < ORCH_MAX_FINDINGS; line++) {
		size_t n = strcspn(p, "\n");
		char *l = xstrndup(p, n > 300 ? 300 : n);

		for (size_t k = 0; k < sizeof(orch_patterns) / sizeof(orch_patterns[0]); k++)
			if (strstr(l, orch_patterns[k].text)) {
				json_array_append_new(found, json_pack("{s:s, s:i, s:s, s:s, s:s}",
					"source", source, "line", line, "kind", orch_patterns[k].kind,
					"text", l, "hint", strcmp(lang, "en") == 0 ? orch_patterns[k].en
										  : orch_patterns[k].zh));
				break;
			}
		free(l);
		p += n + (p[n] ? 1 : 0);
	}
}

json_t *orch_rules_debugger(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *id;
	json_t *found = json_array(), *ctx, *att, *data, *a;
	size_t i;
	char *lead, *note;

	json_object_foreach(json_object_get(facts, "inputs"), id, ctx)
		orch_dbg_scan(found, id, orch_fact_str(ctx, "textOutput"), lang);
	json_array_foreach(json_object_get(facts, "attachments"), i, att) {
		const char *p = orch_fact_str(att, "path");
		char *t = orch_file_text(facts, p);

		if (t)
			orch_dbg_scan(found, p, t, lang);
		free(t);
	}
	if (json_array_size(found) == 0)
		orch_dbg_scan(found, "task", orch_fact_str(facts, "task"), lang);
	lead = json_array_size(found) ? orch_sayf(lang, "dbg_done", (int)json_array_size(found))
				      : xstrdup(orch_say(lang, "dbg_none"));
	data = json_pack("{s:o}", "findings", found);
	note = orch_sayf(lang, "offline", orch_say(lang, "dbg_cannot"));
	a = orch_answer_data(lead, data, note);
	json_decref(data);
	free(lead);
	free(note);
	return a;
}

static const char *orch_lang_name(enum orch_src_lang sl)
{
	return sl == ORCH_SRC_C ? "C" : sl == ORCH_SRC_JS ? "JavaScript" : sl == ORCH_SRC_PY ? "Python" : NULL;
}

/* The module (folder) entry of path in modules, made when new. */
static json_t *orch_arch_module(json_t *modules, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *name = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
	json_t *m = json_object_get(modules, name);

	if (!m) {
		m = json_pack("{s:s, s:[], s:[]}", "name", name, "files", "functions");
		json_object_set_new(modules, name, m);
	}
	free(name);
	return m;
}

static void orch_arch_file(const json_t *facts, json_t *modules, json_t *langs, const char *path,
			   int *nfn)
{
	enum orch_src_lang sl = orch_src_lang_of(path);
	json_t *m = orch_arch_module(modules, path);
	char *text = sl != ORCH_SRC_NONE ? orch_file_text(facts, path) : NULL;

	json_array_append_new(json_object_get(m, "files"), json_string(path));
	if (orch_lang_name(sl) && !json_object_get(langs, orch_lang_name(sl)))
		json_object_set_new(langs, orch_lang_name(sl), json_true());
	if (text) {
		struct orch_src src;
		struct orch_fn fns[256];
		size_t n;

		orch_src_split(&src, text, sl);
		n = orch_src_functions(&src, sl, fns, 256);
		for (size_t i = 0; i < n; i++)
			json_array_append_new(json_object_get(m, "functions"), json_string(fns[i].name));
		*nfn += (int)n;
		orch_src_free(&src);
		free(text);
	}
}

json_t *orch_rules_architect(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *key;
	json_t *modules = json_object(), *langs = json_object(), *list = json_array(), *f, *v, *data, *a;
	json_t *seen = json_object();
	static const char *const lists[] = { "attachments", "workspace" };
	int nfn = 0;
	size_t i;
	char *lead, *note;

	for (size_t l = 0; l < 2; l++)
		json_array_foreach(json_object_get(facts, lists[l]), i, f) {
			const char *p = json_string_value(json_object_get(f, "path"));

			if (!p || json_object_get(seen, p))
				continue;
			json_object_set_new(seen, p, json_true());
			orch_arch_file(facts, modules, langs, p, &nfn);
		}
	json_decref(seen);
	if (json_object_size(modules) == 0) {
		json_decref(modules);
		json_decref(langs);
		json_decref(list);
		return orch_answer_data(orch_say(lang, "arch_none"), NULL, NULL);
	}
	json_object_foreach(modules, key, v)
		json_array_append(list, v);
	data = json_pack("{s:o, s:[]}", "modules", list, "languages");
	json_object_foreach(langs, key, v)
		json_array_append_new(json_object_get(data, "languages"), json_string(key));
	lead = orch_sayf(lang, "arch_done", (int)json_array_size(list), nfn);
	note = orch_sayf(lang, "offline", orch_say(lang, "arch_cannot"));
	a = orch_answer_data(lead, data, note);
	json_decref(data);
	json_decref(modules);
	json_decref(langs);
	free(lead);
	free(note);
	return a;
}
