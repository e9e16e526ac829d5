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
	{ "ZeroDivisionError", "division-by-zero", "除以零：除数为 0，常见于空列表的长度或计数为 0", "a division by zero: the divisor is 0, often the length of an empty list or a count of 0" },
	{ "division by zero", "division-by-zero", "除以零：除数为 0，常见于空列表的长度或计数为 0", "a division by zero: the divisor is 0, often the length of an empty list or a count of 0" },
	{ "IndexError", "index-error", "下标越界：检查循环边界（< 还是 <=）和空列表", "an index out of range: check the loop bounds (< or <=) and empty lists" },
	{ "KeyError", "key-error", "字典中没有这个键：先检查键是否存在或用 get()", "a missing key: check that it is there first, or use get()" },
	{ "'NoneType'", "none-value", "对 None 取属性或调用：某个函数返回了 None 而没有检查", "an attribute or call on None: a function returned None and it was not checked" },
	{ "Cannot read properties of undefined", "undefined-value", "对 undefined 取属性：某个值没有赋值或查找失败", "a property read on undefined: a value was never set, or a lookup failed" },
	{ "is not a function", "not-a-function", "调用的不是函数：名字拼错或对象不是期望的类型", "a call of something that is not a function: a misspelt name or an object of another type" },
	{ "NullPointerException", "null-pointer", "空指针：使用前没有检查对象是否为 null", "a null pointer: an object is used without a check for null" },
	{ "heap-use-after-free", "use-after-free", "释放后使用：内存 free 之后又被读写，看报告中 freed by 的位置", "a use after free: memory is used after free(); see where the report says it was freed" },
	{ "heap-buffer-overflow", "buffer-overflow", "堆缓冲区溢出：读写越过了分配的大小，常见于差一错误", "a heap buffer overflow: a read or write past the allocation, often an off-by-one" },
	{ "detected memory leaks", "leak", "内存泄漏：报告列出了分配位置，检查出错返回的路径上是否释放", "a memory leak: the report shows where it was allocated; check the error paths free it" },
	{ "Traceback (most recent call last)", "python-traceback", "Python 异常：最后一行是异常类型，其上一行是出错的代码", "a Python exception: its last line names it, the line above is where it happened" },
	{ "SIGSEGV", "segfault", "段错误：访问了无效内存（空指针、越界、已释放的内存）", "a crash on invalid memory (NULL, out of bounds, freed memory)" },
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

/* Where a stack trace says the failure happened: the innermost frame
 * (Python's last "File" line, JavaScript's and Java's first "at" line, a
 * native trace's "#0" line), trimmed, into out; 0 when there is none. */
static int orch_dbg_where(const char *text, char *out, size_t len)
{
	const char *p = text;
	int found = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *t = p + strspn(p, " \t");
		size_t tn = n - (size_t)(t - p);

		if (tn > 0 && t[tn - 1] == '\r')
			tn--;
		if (strncmp(t, "File \"", 6) == 0 ||
		    (!found && (strncmp(t, "at ", 3) == 0 || strncmp(t, "#0 ", 3) == 0))) {
			snprintf(out, len, "%.*s", (int)(tn < 200 ? tn : 200), t);
			found = strncmp(t, "File \"", 6) != 0 ? 2 : 1;
			if (found == 2)
				return 1;
		}
		p += n + (p[n] ? 1 : 0);
	}
	return found;
}

/* The findings' first specific kind, its line and where (the lead). Caller frees. */
static char *orch_dbg_lead(const json_t *found, const char *where, const char *lang)
{
	const json_t *pick = json_array_get(found, 0), *f;
	size_t i;

	json_array_foreach(found, i, f)
		if (strcmp(json_string_value(json_object_get(f, "kind")) ?: "", "python-traceback") != 0 &&
		    strcmp(json_string_value(json_object_get(f, "kind")) ?: "", "exception") != 0) {
			pick = f;
			break;
		}
	return where && *where
		? orch_sayf(lang, "dbg_cause_at", json_string_value(json_object_get(pick, "text")),
			    where, json_string_value(json_object_get(pick, "hint")))
		: orch_sayf(lang, "dbg_cause", json_string_value(json_object_get(pick, "text")),
			    json_string_value(json_object_get(pick, "hint")));
}

json_t *orch_rules_debugger(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts), *id;
	json_t *found = json_array(), *ctx, *att, *data, *a;
	size_t i;
	char *lead, *note, where[256] = "", *t;

	json_object_foreach(json_object_get(facts, "inputs"), id, ctx)
		orch_dbg_scan(found, id, orch_fact_str(ctx, "textOutput"), lang);
	json_array_foreach(json_object_get(facts, "attachments"), i, att) {
		const char *p = orch_fact_str(att, "path");

		t = orch_file_text(facts, p);
		if (t) {
			size_t before = json_array_size(found);

			orch_dbg_scan(found, p, t, lang);
			if (json_array_size(found) > before && !*where)
				orch_dbg_where(t, where, sizeof where);
		}
		free(t);
	}
	if (json_array_size(found) == 0 || !*where) {
		size_t before = json_array_size(found);

		orch_dbg_scan(found, "task", orch_fact_str(facts, "task"), lang);
		if (json_array_size(found) > before)
			orch_dbg_where(orch_fact_str(facts, "task"), where, sizeof where);
	}
	if (json_array_size(found) == 0) {
		json_decref(found);
		return orch_decline(lang, orch_say(lang, "dbg_none"));
	}
	lead = orch_dbg_lead(found, where, lang);
	t = orch_sayf(lang, "dbg_done", (int)json_array_size(found));
	data = json_pack("{s:s, s:s?, s:o}", "cause", lead, "where", *where ? where : NULL,
			 "findings", found);
	note = orch_sayf(lang, "offline", orch_say(lang, "dbg_cannot"));
	{
		char *both = xasprintf("%s %s", lead, t);

		a = orch_answer_data(both, data, note);
		free(both);
	}
	json_decref(data);
	free(lead);
	free(t);
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
		return orch_decline(lang, orch_say(lang, "arch_none"));
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
