/* What the offline agents share (orch_rules*.c): the facts read, the
 * answers built, the words in both languages, the source scanner. Not a
 * contract for other modules: orch_rules.h is. */
#ifndef AV_WF_ORCH_RULES_INT_H
#define AV_WF_ORCH_RULES_INT_H
#include <stddef.h>
#include <jansson.h>

/* A function longer than this (lines, first to last) is reported. */
#define ORCH_LONG_FUNCTION 60
/* Files the reviewer reads, at most, and their size. */
#define ORCH_MAX_FILES 20
#define ORCH_MAX_FILE_BYTES (256 * 1024)

/* The words (orch_rules_text.c). lang: "en", anything else is Chinese. */
const char *orch_say(const char *lang, const char *id);           /* lent; id when unknown */
char *orch_sayf(const char *lang, const char *id, ...);           /* caller frees */
const char *orch_lang(const json_t *facts);                       /* "zh" or "en" */

/* Answers (orch_rules_text.c). All new references. */
json_t *orch_answer_new(char *text);                              /* steals text */
/* lead, the data in a ```json fence, then note (may be NULL). data borrowed. */
json_t *orch_answer_data(const char *lead, const json_t *data, const char *note);
json_t *orch_calls_new(json_t *calls);                            /* steals calls */
/* The agent declines the step, saying why: the reason, and in the ```json
 * fence {"declined": true, "reason"} (the stage is then skipped with the
 * reason, which its dependents and the run's result are given). */
json_t *orch_decline(const char *lang, const char *reason);
/* A number as people write it: at most two decimals, no trailing zeros
 * ("0.8", "1", "0.33"), into out. */
const char *orch_num(char *out, size_t len, double v);
json_t *orch_call_new(const char *name, json_t *args);            /* steals args */

/* The facts (orch_rules_facts.c). All borrowed unless said. */
const char *orch_fact_str(const json_t *facts, const char *key); /* "" when absent */
/* The first image attachment (mimeType image/...), or NULL. */
const json_t *orch_image_attachment(const json_t *facts);
/* The bytes of an attachment's data (bare base64): caller frees; NULL. */
unsigned char *orch_attachment_bytes(const json_t *att, size_t *len);
/* A file's text: its attachment's data, else the last read_file result
 * for it. Caller frees; NULL when neither is there. */
char *orch_file_text(const json_t *facts, const char *path);
/* The last tool result of name in this stage, or NULL; *count (may be
 * NULL) the number of calls of name so far. */
const json_t *orch_tool_result(const json_t *facts, const char *name, int *count);
/* A string member of a tool result among the keys a tool may use for the
 * file it made ("path", "output", "file", "outputPath"), or NULL. */
const char *orch_result_path(const json_t *result);
/* Input stages' structured data arrays named key ("issues", "textRegions",
 * "elements"), all appended into a new array (new reference). */
json_t *orch_inputs_array(const json_t *facts, const char *key);

/* Sources (orch_rules_scan.c). */
enum orch_src_lang { ORCH_SRC_NONE, ORCH_SRC_C, ORCH_SRC_JS, ORCH_SRC_PY };
enum orch_src_lang orch_src_lang_of(const char *path);
/* A source cut into lines, each line as code (strings blanked, comments
 * removed) and as its comments. */
struct orch_src {
	size_t n;
	char **line;             /* the text as written */
	char **code;
	char **comment;
};
void orch_src_split(struct orch_src *s, const char *text, enum orch_src_lang lang);
void orch_src_free(struct orch_src *s);
struct orch_fn {
	char name[64];
	char ret[48];            /* C: the words before the name ("static int", "char *") */
	int line, end;           /* 1-based, first and last line */
	int params;
};
/* The functions of s, at most max; their number. */
size_t orch_src_functions(const struct orch_src *s, enum orch_src_lang lang, struct orch_fn *out,
			  size_t max);
/* Where the call name( starts in code (a whole identifier), or NULL. */
const char *orch_src_call(const char *code, const char *name);

/* Where the identifier w stands alone in code (not a member, not part of
 * a longer name), or NULL. */
const char *orch_src_word(const char *code, const char *w);
/* The rules that read whole functions (orch_rules_flow.c): issues appended
 * to issues (borrowed), messages in lang. */
void orch_review_flow(const char *path, const struct orch_src *s, enum orch_src_lang sl,
		      const struct orch_fn *fns, size_t nf, const char *lang, json_t *issues);

/* The review (orch_rules_review.c): new reference to the issues of one
 * file [{file, line, rule, severity, message}], messages in lang. */
json_t *orch_review_text(const char *path, const char *text, const char *lang);
/* The code attachments of the facts, new reference [{path, text?,
 * tooLarge?}]: text absent when it is neither in the facts nor read yet,
 * or when the file is larger than ORCH_MAX_FILE_BYTES (tooLarge: true;
 * such a file is left alone, never read again nor rewritten cut).
 * Without any, the first code block of the task (```c, ```python, ...)
 * as "task.c", "task.py" or "task.js" {path, text, fromTask: true}. */
json_t *orch_code_files(const json_t *facts);
/* toolCalls read_file for the code files without text, or NULL (all read). */
json_t *orch_read_calls(const json_t *files);
/* The code files with their text (new reference), or NULL with *answer
 * the toolCalls reading them first (asked once: a file that cannot be
 * read is then left out). */
json_t *orch_files_or_read(const json_t *facts, json_t **answer);
/* The variable an allocation's result goes to ("buf" in "char *buf =
 * malloc(...)") into out; 0 when it is not assigned. call points into code. */
int orch_src_assigned(const char *code, const char *call, char *out, size_t len);

/* The agents. */
json_t *orch_rules_vision_analyzer(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_vision_processor(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_vision_annotator(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_code_reviewer(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_coder(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_test_writer(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_documenter(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_coordinator(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_evaluator(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_debugger(const json_t *facts, const char *text, char *err, size_t errlen);
json_t *orch_rules_architect(const json_t *facts, const char *text, char *err, size_t errlen);

#endif
