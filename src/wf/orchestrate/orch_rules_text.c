/* The words of the offline agents, in Chinese and English with the same
 * printf arguments, and the two shapes of their answers. Kept beside the
 * rules, as the texts of a model would be: they are what the stand-in
 * model says, not the server's own messages. */
#include "config.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json/dump.h"
#include "util/buf.h"
#include "util/jnum.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

static const struct { const char *id, *zh, *en; } orch_words[] = {
	{ "offline", "（离线规则作答，未使用模型：%s）", "(Answered offline by rules, without a model: %s)" },
	{ "no_image", "没有可读取的图片附件（需要 PNG 或 JPEG 图片，并带有数据）。", "There is no picture to read (a PNG or JPEG attachment with its data is needed)." },
	{ "bad_image", "图片 %s 无法解码：%s。", "The picture %s could not be decoded: %s." },
	{ "ocr_none", "离线 OCR 不可用：%s。没有模型也无法识别图片中的文字。", "Offline OCR is not available: %s. Without a model the text in the picture cannot be read." },
	{ "ocr_failed", "离线 OCR 未能读取图片：%s。", "Offline OCR could not read the picture: %s." },
	{ "ocr_done", "在图片 %s（%d×%d）中识别出 %d 行文字。", "In the picture %s (%dx%d), lines of text read: %d." },
	{ "ocr_cannot", "文字由 Tesseract 识别，不理解图片的含义，也不描述图片内容", "the text was read by Tesseract; the picture's meaning is not understood or described" },
	{ "det_done", "在图片 %s（%d×%d）中按颜色分割找到 %d 个元素。", "In the picture %s (%dx%d), %d elements were found by segmenting its colours." },
	{ "det_cannot", "元素由颜色分割得到，类型按形状推测（文字、按钮、图标、图片、形状），并不识别它们的含义", "the elements come from segmenting the colours and their types are guessed from their shapes (text, button, icon, image, shape); what they are is not recognised" },
	{ "ann_none", "输入中没有可标注的区域（需要前一阶段的 textRegions 或 elements）。", "The inputs have no regions to draw (textRegions or elements from an earlier stage are needed)." },
	{ "ann_done", "已标注 %d 个区域（%s），结果保存为 %s。", "Regions drawn: %d, on %s; the result is %s." },
	{ "ann_failed", "标注工具失败：%s。", "The annotation tool failed: %s." },
	{ "ann_cannot", "只绘制前一阶段给出的框，不核对框的位置", "only the boxes of the earlier stage are drawn; their places are not checked" },
	{ "rev_none", "没有可审查的代码文件（支持 C、JavaScript、Python 附件，或任务中代码块里的代码）。", "There are no code files to review (C, JavaScript and Python attachments, or a code block in the task)." },
	{ "rev_done", "审查了 %d 个文件，发现 %d 个问题（高 %d，中 %d，低 %d）。", "Files reviewed: %d; issues found: %d (%d high, %d medium, %d low)." },
	{ "rev_cannot", "只按固定规则逐行检查，没有运行代码，也不理解程序逻辑", "only fixed rules were checked line by line; no code was run and the program's logic is not understood" },
	{ "r.unchecked_alloc", "%s() 的返回值未检查 NULL 就被使用", "the result of %s() is used without a check for NULL" },
	{ "r.realloc_leak", "realloc 失败时原指针被覆盖，内存泄漏", "if realloc fails the old pointer is overwritten and leaks" },
	{ "r.unsafe_string", "%s() 不检查目标缓冲区大小", "%s() does not check the size of its destination" },
	{ "r.gets", "gets() 无法限制输入长度，已从标准中移除", "gets() cannot bound its input and was removed from the standard" },
	{ "r.leak_error_path", "这里返回时没有释放 %s（应调用 %s，正常路径在第 %d 行释放或交出它）", "%s is not released when the function returns here (%s it, as the path at line %d does)" },
	{ "r.use_after_free", "%s 在第 %d 行 free() 之后又被使用", "%s is used after it was freed at line %d" },
	{ "r.double_free", "%s 在第 %d 行已经 free() 过，这里再次释放", "%s is freed again after the free() at line %d" },
	{ "r.off_by_one", "循环条件 %s <= … 多走一步：最后一次 [%s] 越过了末尾，应使用 <", "the loop runs while %s <= the length: its last [%s] is one past the end; use <" },
	{ "r.off_by_one_range", "range(len(…) + 1) 多出一个下标，最后一次访问越界", "range(len(...) + 1) yields one index too many: the last access is out of range" },
	{ "r.off_by_one_index", "x[len(x)] 越过了末尾（最后一个元素是 x[len(x) - 1]）", "x[len(x)] is one past the end (the last element is x[len(x) - 1])" },
	{ "r.alloc_no_nul", "malloc(strlen(…)) 少了结尾 NUL 的 1 个字节，应为 strlen(…) + 1", "malloc(strlen(...)) is one byte short of the terminating NUL: use strlen(...) + 1" },
	{ "r.unchecked_return", "%s() 的返回值没有检查（失败或读到末尾时后面的代码仍按成功处理）", "the result of %s() is not checked (on failure or at the end of input the code goes on as if it worked)" },
	{ "r.unchecked_none", "%s 可能返回 None，这里没有检查就调用 .group()", "%s may return None, and .group() is called on it unchecked" },
	{ "r.unchecked_null", "%s 可能返回 null，这里没有检查就直接使用", "%s may return null, and its result is used unchecked" },
	{ "r.py_open", "用 open() 打开的 %s 在函数里没有关闭（出错时更不会关闭），应使用 with open(...)", "the file %s opened with open() is never closed in the function (on an error even less): use with open(...)" },
	{ "r.fetch_ok", "fetch() 的响应没有检查 ok 或 status 就读取内容（404、500 时也会当作成功）", "the fetch() response is read without a check of ok or status (a 404 or 500 passes as success)" },
	{ "r.div_zero", "除以 %s：输入为空时它为 0，之前没有检查", "division by %s: it is 0 for an empty input, and nothing checks it first" },
	{ "r.todo", "遗留的 %s 注释", "a %s comment is left in the code" },
	{ "r.long_function", "函数 %s 长 %d 行（上限 %d）", "the function %s is %d lines long (limit %d)" },
	{ "r.eval", "%s() 会执行任意代码", "%s() runs arbitrary code" },
	{ "r.system", "%s() 通过 shell 执行命令", "%s() runs a command through the shell" },
	{ "r.loose_eq", "使用 %s 宽松比较，应使用 %s", "loose comparison with %s: use %s" },
	{ "r.var", "使用 var 声明，应使用 let 或 const", "var declaration: use let or const" },
	{ "r.inner_html", "给 innerHTML 赋值可能导致 XSS", "assigning innerHTML may allow XSS" },
	{ "r.bare_except", "裸 except 会吞掉所有异常（包括 KeyboardInterrupt）", "a bare except catches every exception (KeyboardInterrupt included)" },
	{ "r.none_cmp", "与 None 比较应使用 is / is not", "compare with None using is / is not" },
	{ "r.mutable_default", "可变对象作为默认参数，会在调用之间共享", "a mutable default argument is shared between calls" },
	{ "r.shell_true", "shell=True 会让参数经过 shell 解释", "shell=True passes the arguments through the shell" },
	{ "code_none", "没有需要修改的代码文件（支持 C、JavaScript、Python 附件，或任务中代码块里的代码）。", "There are no code files to fix (C, JavaScript and Python attachments, or a code block in the task)." },
	{ "code_done", "写出 %d 个修改后的文件：%s。机械修复 %d 处，其余 %d 处以注释说明应如何修改。", "Fixed files written: %d (%s). Issues fixed mechanically: %d; marked with a comment saying what to change: %d." },
	{ "code_cannot", "只做机械替换（如 strcpy 改为 snprintf、补 NULL 检查），其余问题只写注释，修改后的代码未编译或运行", "only mechanical changes were made (strcpy to snprintf, NULL checks added); the other issues got comments, and the fixed code was not compiled or run" },
	{ "fix_note", "审查：%s", "review: %s" },
	{ "test_none", "没有找到可测试的函数（需要 C、JavaScript 或 Python 代码）。", "No functions to test were found (C, JavaScript or Python code is needed)." },
	{ "test_done", "写出 %d 个测试文件（%s），覆盖 %d 个函数。", "Test files written: %d (%s); functions covered: %d." },
	{ "test_cannot", "测试只检查函数存在及参数个数，不知道函数应有的结果；测试未运行", "the tests check only that each function exists with its number of parameters; the expected results are not known, and the tests were not run" },
	{ "doc_title", "## 结果摘要", "## Summary of the results" },
	{ "doc_task", "任务：%s", "Task: %s" },
	{ "doc_stage", "- **%s**（%s）：%s", "- **%s** (%s): %s" },
	{ "doc_skipped", "已跳过，没有结果", "skipped, no result" },
	{ "doc_skipped_why", "没有结果：%s", "no result: %s" },
	{ "doc_issues", "%d 个问题", "%d issues" },
	{ "doc_regions", "%d 个文字区域", "%d text regions" },
	{ "doc_elements", "%d 个元素", "%d elements" },
	{ "doc_files", "生成文件：%s", "files: %s" },
	{ "doc_none", "没有前面步骤的结果可以总结：文档步骤汇总的是前面步骤的输出。", "There are no earlier results to summarise: the documentation sums up the outputs of earlier steps." },
	{ "doc_sep", "；", "; " },
	{ "list_sep", "、", ", " },
	{ "doc_all_skipped", "前面的步骤都没有结果，没有可以写进文档的内容。", "None of the earlier steps has a result: there is nothing to document." },
	{ "doc_cannot", "摘要由前面各阶段的结果拼成，没有改写或评价", "the summary is put together from the earlier stages' results, not rewritten or judged" },
	{ "coord_none", "团队的智能体离线时做不了这个任务：“%s”。它们处理的是附带的代码、日志和图片，或前面步骤的结果（代码审查、调试、架构设计、编码、测试、文档、评估、图片分析）；写诗、翻译、回答常识问题这类任务需要模型。请配置模型后再试，或附上团队能处理的文件。", "The team's agents cannot do this task offline: \"%s\". They work on attached code, logs and pictures, or on the results of earlier steps (code review, debugging, design, coding, tests, documentation, evaluation, pictures); poems, translations and general questions need a model. Configure a model and try again, or attach what the team works on." },
	{ "coord_all_skipped", "没有一个步骤给出结果（%s），无法合并。", "No step produced a result (%s), so there is nothing to merge." },
	{ "coord_merged", "合并了 %d 个步骤的结果：", "The results of the steps, merged (%d):" },
	{ "coord_missing", "其中 %d 个步骤没有结果，原因见上。", "Steps without a result: %d; why is said above each." },
	{ "coord_line", "- **%s**（%s）：%s", "- **%s** (%s): %s" },
	{ "decline_why", "这一步需要的输入不存在，或只有模型才能完成", "what this step needs is not there, or only a model could do it" },
	{ "coord_cannot", "合并的是各步骤结果的第一句和计数，没有核对它们是否一致", "the merge puts together the first sentence and the counts of each step's result; whether they agree was not checked" },
	{ "eval_done", "评估了 %d 个步骤的结果，平均完整度 %s（满分 1）。", "Steps scored: %d; average completeness: %s (out of 1)." },
	{ "eval_none", "没有可以评估的结果：评估步骤需要读取前面步骤的输出。", "There are no results to evaluate: the evaluation reads the outputs of earlier steps." },
	{ "eval_cannot", "只按结果是否齐全打分（文字、结构化数据、文件），不判断内容是否正确", "the score counts only whether the results are there (text, structured data, files), not whether they are right" },
	{ "dbg_cause", "故障是 %s —— %s。", "The failure is %s — %s." },
	{ "dbg_cause_at", "故障是 %s，发生在 %s —— %s。", "The failure is %s, at %s — %s." },
	{ "dbg_done", "在输入中找到 %d 处错误迹象。", "Signs of errors found in the inputs: %d." },
	{ "dbg_none", "输入中没有找到错误信息（Traceback、error、段错误等）；请附上日志、调用栈或报错原文。", "No error messages (tracebacks, errors, crashes) were found in the inputs: attach the log, the stack trace or the error as printed." },
	{ "dbg_cannot", "只匹配常见的错误文字，没有运行或调试程序", "only common error texts were matched; no program was run or debugged" },
	{ "arch_done", "按目录和语言整理出 %d 个模块，共 %d 个函数。", "Outlined %d modules with %d functions, by folder and language." },
	{ "arch_none", "没有可以分析结构的文件：离线规则只能按附件的目录和函数整理模块，根据文字描述做设计需要模型。", "There are no files to outline: offline, the modules come from the attached files' folders and functions, and a design from a description needs a model." },
	{ "arch_cannot", "模块按目录和文件名划分，没有分析依赖关系或提出新设计", "the modules follow the folders and file names; dependencies were not analysed and no new design is proposed" },
};

const char *orch_say(const char *lang, const char *id)
{
	int en = lang && strcmp(lang, "en") == 0;

	for (size_t i = 0; i < sizeof(orch_words) / sizeof(orch_words[0]); i++)
		if (strcmp(orch_words[i].id, id) == 0)
			return en ? orch_words[i].en : orch_words[i].zh;
	return id;
}

char *orch_sayf(const char *lang, const char *id, ...)
{
	va_list ap;
	char *out;
	int n;

	va_start(ap, id);
	n = vsnprintf(NULL, 0, orch_say(lang, id), ap);
	va_end(ap);
	out = xmalloc((size_t)(n > 0 ? n : 0) + 1);
	va_start(ap, id);
	vsnprintf(out, (size_t)n + 1, orch_say(lang, id), ap);
	va_end(ap);
	return out;
}

const char *orch_lang(const json_t *facts)
{
	const char *l = json_string_value(json_object_get(facts, "lang"));

	return l && strcmp(l, "en") == 0 ? "en" : "zh";
}

json_t *orch_answer_new(char *text)
{
	json_t *a = json_pack("{s:s}", "answer", text ? text : "");

	free(text);
	return a;
}

/* Numbers as people write them: a whole real as an integer (1, not 1.0),
 * others to three places (0.833, not 0.833333333333333). v is changed. */
static json_t *orch_tidy(json_t *v)
{
	const char *k;
	json_t *x;
	size_t i;

	if (json_is_real(v)) {
		double r = jnum_round(json_real_value(v), 3);

		return r == (double)(json_int_t)r && r > -1e15 && r < 1e15
			? json_integer((json_int_t)r) : json_real(r);
	}
	if (json_is_object(v))
		json_object_foreach(v, k, x)
			json_object_set_new(v, k, orch_tidy(x));
	else if (json_is_array(v))
		json_array_foreach(v, i, x)
			json_array_set_new(v, i, orch_tidy(x));
	return json_incref(v);
}

json_t *orch_answer_data(const char *lead, const json_t *data, const char *note)
{
	struct buf b;
	json_t *tidy = data ? json_deep_copy(data) : NULL, *t = tidy ? orch_tidy(tidy) : NULL;
	char *dump = t ? jtext(t, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15)) : NULL;

	json_decref(t);
	json_decref(tidy);

	buf_init(&b, 64u << 20);
	buf_adds(&b, lead);
	if (dump) {
		buf_printf(&b, "\n\n```json\n%s\n```", dump);
		free(dump);
	}
	if (note && *note)
		buf_printf(&b, "\n\n%s", note);
	return orch_answer_new(buf_steal(&b));
}

json_t *orch_decline(const char *lang, const char *reason)
{
	json_t *data = json_pack("{s:b, s:s}", "declined", 1, "reason", reason), *a;
	char *note = orch_sayf(lang, "offline", orch_say(lang, "decline_why"));

	a = orch_answer_data(reason, data, note);
	json_decref(data);
	free(note);
	return a;
}

const char *orch_num(char *out, size_t len, double v)
{
	char *e;

	snprintf(out, len, "%.2f", v);
	if (strchr(out, '.')) {
		e = out + strlen(out);
		while (e > out && e[-1] == '0')
			*--e = '\0';
		if (e > out && e[-1] == '.')
			e[-1] = '\0';
	}
	if (strcmp(out, "-0") == 0)
		snprintf(out, len, "0");
	return out;
}

json_t *orch_calls_new(json_t *calls)
{
	return json_pack("{s:o}", "toolCalls", calls);
}

json_t *orch_call_new(const char *name, json_t *args)
{
	return json_pack("{s:s, s:o}", "name", name, "arguments", args);
}
