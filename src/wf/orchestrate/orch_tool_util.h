/* What the orchestrate tools' own files share (orch_tools.c, orch_find.c,
 * orch_annotate.c): a tool's error result, the text check, and the tools
 * that live outside orch_tools.c, which dispatches to them (orch_tools.h). */
#ifndef AV_ORCH_TOOL_UTIL_H
#define AV_ORCH_TOOL_UTIL_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"

/* {"error": code, "message": words}: new reference. */
json_t *orch_tool_error(const char *code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The error of orch_ws_put's err ("code: words"): new reference. */
json_t *orch_tool_ws_error(const char *err);
/* 1 when data (len bytes) is UTF-8 text without NUL, else 0. */
int orch_tool_is_text(const void *data, size_t len);
/* orch_find.c: glob and grep; 1 when pattern (a glob: '*' and '?' within a segment, [...] classes,
 * "**" as a whole segment for any number of segments) matches path. */
int orch_glob_match(const char *pattern, const char *path);
json_t *orch_tool_glob(struct step_ctx *c, const json_t *args);
json_t *orch_tool_grep(struct step_ctx *c, const json_t *args);
/* orch_annotate.c: image_annotate. */
json_t *orch_tool_annotate(struct step_ctx *c, const char *stage_id, const json_t *args);

#endif
