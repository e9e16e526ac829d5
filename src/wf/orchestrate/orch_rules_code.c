/* The offline code agents: code-reviewer (read the attached code files,
 * then the rules of orch_rules_review.c), coder (the files again with
 * the mechanical fixes the issues allow, and comments for the rest, by
 * write_file) and test-writer (a test file per code file, in its
 * language, by write_file). */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/buf.h"
#include "util/xmalloc.h"
#include "wf/orchestrate/orch_rules_int.h"

/* The file name a code block of the task goes by, from its fence's tag or
 * its first words: "task.c", "task.js", "task.py"; NULL for other text. */
static const char *orch_block_name(const char *tag, size_t taglen, const char *code)
{
	static const struct { const char *tag, *name; } tags[] = { { "c", "task.c" },
		{ "h", "task.c" }, { "js", "task.js" }, { "javascript", "task.js" },
		{ "ts", "task.js" }, { "typescript", "task.js" }, { "py", "task.py" },
		{ "python", "task.py" } };

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (taglen == strlen(tags[i].tag) && strncasecmp(tag, tags[i].tag, taglen) == 0)
			return tags[i].name;
	if (taglen)
		return NULL;
	if (strstr(code, "#include") || strstr(code, "int main"))
		return "task.c";
	if (strstr(code, "def ") || strstr(code, "import "))
		return "task.py";
	if (strstr(code, "function") || strstr(code, "const ") || strstr(code, "=>"))
		return "task.js";
	return NULL;
}

/* The first code block of the task (```lang ... ```), as a file
 * {path, text}, or NULL. New reference. */
static json_t *orch_task_block(const json_t *facts)
{
	const char *task = orch_fact_str(facts, "task"), *open = strstr(task, "```"), *body, *close;
	const char *name;
	size_t taglen;
	char *code;
	json_t *f;

	if (!open)
		return NULL;
	taglen = strcspn(open + 3, " \t\r\n");
	body = open + 3 + taglen;
	body += strspn(body, " \t\r");
	if (*body == '\n')
		body++;
	close = strstr(body, "```");
	if (!close || close == body)
		return NULL;
	code = xstrndup(body, (size_t)(close - body));
	name = orch_block_name(open + 3, taglen, code);
	f = name ? json_pack("{s:s, s:s, s:b}", "path", name, "text", code, "fromTask", 1) : NULL;
	free(code);
	return f;
}

json_t *orch_code_files(const json_t *facts)
{
	json_t *out = json_array(), *a;
	size_t i;

	json_array_foreach(json_object_get(facts, "attachments"), i, a) {
		const char *p = json_string_value(json_object_get(a, "path"));
		char *text;

		if (!p || orch_src_lang_of(p) == ORCH_SRC_NONE || json_array_size(out) >= ORCH_MAX_FILES)
			continue;
		text = orch_file_text(facts, p);
		if (text && strlen(text) > ORCH_MAX_FILE_BYTES)
			json_array_append_new(out, json_pack("{s:s, s:b}", "path", p, "tooLarge", 1));
		else
			json_array_append_new(out, text ? json_pack("{s:s, s:s}", "path", p, "text", text)
							: json_pack("{s:s}", "path", p));
		free(text);
	}
	if (json_array_size(out) == 0 && (a = orch_task_block(facts)) != NULL)
		json_array_append_new(out, a);
	return out;
}

json_t *orch_read_calls(const json_t *files)
{
	json_t *calls = json_array(), *f;
	size_t i;

	json_array_foreach(files, i, f)
		if (!json_object_get(f, "text") && !json_object_get(f, "tooLarge"))
			json_array_append_new(calls, orch_call_new("read_file",
				json_pack("{s:O}", "path", json_object_get(f, "path"))));
	if (json_array_size(calls) == 0) {
		json_decref(calls);
		return NULL;
	}
	return orch_calls_new(calls);
}

/* The files to work on, or a toolCalls answer reading them first (once:
 * a file that cannot be read is then left out). NULL *files: *answer. */
json_t *orch_files_or_read(const json_t *facts, json_t **answer)
{
	json_t *files = orch_code_files(facts), *calls = orch_read_calls(files);

	*answer = NULL;
	if (calls && !orch_tool_result(facts, "read_file", NULL)) {
		*answer = calls;
		json_decref(files);
		return NULL;
	}
	json_decref(calls);
	return files;
}

static void orch_count_severity(const json_t *issues, int n[3])
{
	size_t i;
	json_t *is;

	n[0] = n[1] = n[2] = 0;
	json_array_foreach(issues, i, is) {
		const char *s = json_string_value(json_object_get(is, "severity"));

		n[s && strcmp(s, "high") == 0 ? 0 : s && strcmp(s, "medium") == 0 ? 1 : 2]++;
	}
}

json_t *orch_rules_code_reviewer(const json_t *facts, const char *text, char *err, size_t errlen)
{
	const char *lang = orch_lang(facts);
	json_t *answer, *files = orch_files_or_read(facts, &answer), *issues, *f, *data, *found;
	int n[3], reviewed = 0;
	char *lead, *note;
	size_t i;

	if (!files)
		return answer;
	issues = json_array();
	json_array_foreach(files, i, f) {
		const char *t = json_string_value(json_object_get(f, "text"));

		if (!t)
			continue;
		found = orch_review_text(json_string_value(json_object_get(f, "path")), t, lang);
		json_array_extend(issues, found);
		json_decref(found);
		reviewed++;
	}
	json_decref(files);
	if (reviewed == 0) {
		json_decref(issues);
		return orch_decline(lang, orch_say(lang, "rev_none"));
	}
	orch_count_severity(issues, n);
	lead = orch_sayf(lang, "rev_done", reviewed, (int)json_array_size(issues), n[0], n[1], n[2]);
	data = json_pack("{s:o, s:s}", "issues", issues, "summary", lead);
	note = orch_sayf(lang, "offline", orch_say(lang, "rev_cannot"));
	answer = orch_answer_data(lead, data, note);
	json_decref(data);
	free(lead);
	free(note);
	return answer;
}
