/* The tools an orchestrate agent may call, each over the thread's own
 * workspace (orch_ws.h), never the server's file system:
 *   read_file      {path, offset?, limit?}: a file's text, by lines
 *   glob           {pattern}: workspace paths matching a pattern
 *   grep           {pattern, path? | glob?, ignoreCase?}: lines matching a
 *                  PCRE2 pattern in the text files
 *   write_file     {path, content, mimeType?}: a text file (at most 1 MiB)
 *   image_annotate {image_path, regions, output_path?}: the picture with
 *                  boxes and labels drawn over it, as an SVG (orch_annotate.c)
 * docs/workflows.md ("Tools and workspace") describes each argument and
 * result. Every result is a JSON object; a failure is {"error": code,
 * "message": words}, with code one of bad_args, bad_path, not_found,
 * too_large, too_many_files, bad_pattern, pattern_too_complex,
 * bad_image, store_failed, unknown_tool. */
#ifndef AV_ORCH_TOOLS_H
#define AV_ORCH_TOOLS_H
#include <stddef.h>
#include <jansson.h>
#include "engine/graph.h"
#include "wf/orchestrate/orch_tool_util.h"

/* 1 when name is one of the tools above, else 0. */
int orch_tool_known(const char *name);
/* The OpenAI function definition of a tool: new reference
 * {"type": "function", "function": {name, description, parameters}}, or
 * NULL for an unknown name. */
json_t *orch_tool_schema(const char *name);
/* Runs a tool for stage stage_id (borrowed; recorded as "stage" on the
 * files write_file and image_annotate make) with args (borrowed). New
 * reference, never NULL: the result, or {"error", "message"}. */
json_t *orch_tool_run(struct step_ctx *c, const char *stage_id, const char *name,
		      const json_t *args);

#endif
