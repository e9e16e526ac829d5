/* The node knowledge base of the graph_edit workflow ([kb] nodes,
 * etc/nodes.json): what every node type of a workflow is, with its input
 * and output slots and their data types, and its parameters
 * (configValues). The workflow retrieves definitions from it for the
 * model, the validator (graph_validate.h) checks workflows against it and
 * GET /api/nodes serves it to the app's palette.
 *
 * A definition:
 *   {"id": T, "type": T,                  T = "namespace:Name"
 *    "name_zh", "name_en", "description_zh", "description_en", "category",
 *    "keywords": [words people use, in Chinese and English],
 *    "inputs":  {slot: {"type": D, "required"?: bool, "multi"?: bool,
 *                       "name_zh"?, "name_en"?}},
 *    "outputs": {slot: {"type": D, "name_zh"?, "name_en"?}},
 *    "configValues": {param: {"type": P, "default", "min"?, "max"?,
 *                             "options"?: [strings], "name_zh"?, "name_en"?}}}
 * with D one of the data types below, P one of STRING, INTEGER, FLOAT,
 * BOOLEAN, ENUM (min/max for numbers only, options for ENUM only). The
 * file is checked when it is loaded; nothing else is accepted, so a
 * misspelt member is an error naming the definition rather than a slot
 * quietly missing. */
#ifndef AV_WF_GRAPH_NODES_H
#define AV_WF_GRAPH_NODES_H
#include <stddef.h>
#include <jansson.h>

struct app;
struct kb;
struct kb_def;

/* How the library is loaded and kept (kb/shelf.h). */
extern const struct kb_def graph_nodes_def;

/* The worker's node library, loaded on first use; NULL with err when it
 * cannot be loaded (the log says why). */
struct kb *graph_nodes(struct app *app, char *err, size_t errlen);

/* The check graph_nodes_def runs on the documents (borrowed): 0, or -1
 * with err naming the definition at fault, as "node 12 (llm:Chat):
 * configValues.temperature: default 3 above max 2". */
int graph_nodes_check(const json_t *docs, char *err, size_t errlen);

/* A lookup of definitions for graph_validate: ctx is the struct kb.
 * Borrowed reference, or NULL for a type the library does not have. */
json_t *graph_nodes_find(void *kb, const char *type);

/* 1 for the data types of slots: STRING, INTEGER, FLOAT, BOOLEAN, OBJECT,
 * ARRAY, BINARY, WILDCARD, CONVERTIBLE_ANY. */
int graph_data_type_known(const char *t);
/* 1 when type reads "namespace:Name": a lower-case namespace of letters,
 * digits and '_' starting with a letter, and a name of letters, digits
 * and '_' starting with a letter. */
int graph_type_name_ok(const char *type);
/* 1 for a slot or parameter name: a letter or '_', then letters, digits
 * and '_', at most 64 bytes. */
int graph_slot_name_ok(const char *name);

/* Whether value (borrowed) fits the parameter declaration decl
 * (borrowed): NULL when it does, else the error code ("bad_type",
 * "out_of_range", "not_allowed") with why saying it in English ("3 above
 * max 2"). */
const char *graph_param_check(const json_t *decl, const json_t *value, char *why,
			      size_t whylen);

#endif
