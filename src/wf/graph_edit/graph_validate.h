/* Validation of a workflow as the graph_edit workflow keeps it (the shape
 * of ComfyTavern's workflows) against the node definitions
 * (graph_nodes.h):
 *   {"name", "description"?, "nodes": [{"id", "type", "position": {"x",
 *    "y"}, "data"?: {"configValues"?, "label"?, "convertibleTypes"?},
 *    "displayName"?}], "edges": [{"id", "source", "sourceHandle",
 *    "target", "targetHandle"}], "viewport": {"x", "y", "zoom"}}
 * Other members of the workflow are kept as they are; other members of a
 * node, its data or an edge are errors (a misspelt "postion" would
 * otherwise vanish).
 *
 * The rules, each with its error code:
 *   missing_field, bad_type   a required member is absent, or a member has
 *                             the wrong JSON type;
 *   unknown_field             a member a node, its data or an edge does not
 *                             have;
 *   bad_id                    an id that is empty, longer than 128 bytes,
 *                             "-" or all digits (a path segment of digits
 *                             is always an array index);
 *   duplicate_id              two nodes, or two edges, with one id;
 *   unknown_type              a type that does not read namespace:Name or
 *                             that the library does not have;
 *   unknown_param, out_of_range, not_allowed
 *                             a configValues member the type does not
 *                             declare, a number outside min..max, a value
 *                             not among an ENUM's options (bad_type for
 *                             the wrong JSON type);
 *   dangling_edge             an edge to or from a node that is not there;
 *   self_loop                 an edge from a node to itself (a node cannot
 *                             wait for its own output; longer cycles are
 *                             left to the layout, which breaks them);
 *   unknown_handle            a sourceHandle that is not an output of the
 *                             source, a targetHandle that is not an input of
 *                             the target;
 *   duplicate_edge            the same two slots joined twice;
 *   slot_taken                a second edge into an input that is not
 *                             "multi";
 *   type_mismatch             the two ends' data types do not fit: the same
 *                             type, INTEGER into FLOAT, anything into or out
 *                             of WILDCARD; a CONVERTIBLE_ANY slot takes the
 *                             type of the first edge connected to it (edges
 *                             in order) and keeps it while it is connected,
 *                             recorded in its node's data as
 *                             convertibleTypes: {"inputs": {slot: TYPE},
 *                             "outputs": {slot: TYPE}}; later edges must fit
 *                             that type.
 *   bad_value                 a viewport zoom that is not above 0;
 *   string_too_long           a string anywhere in the workflow (a name, a
 *                             label, a displayName, a parameter value, an
 *                             id, a member name) longer than the limit
 *                             ([workflow.graph_edit] max_string_bytes;
 *                             GRAPH_STRING_MAX by default).
 * An input's "required" is not checked here: a workflow being edited may
 * leave an input unconnected for a while.
 *
 * Each error is {"path", "code", "message"}: path a JSON Pointer to the
 * member at fault ("/edges/3/targetHandle"), code from the list above,
 * message in English for logs and models (people read the code, in their
 * language, from the app's catalogue). All errors are returned, in
 * document order, up to a cap. */
#ifndef AV_WF_GRAPH_VALIDATE_H
#define AV_WF_GRAPH_VALIDATE_H
#include <stddef.h>
#include <jansson.h>

/* Where definitions come from: find(ctx, type) gives a borrowed reference
 * to the definition of type, or NULL when there is none
 * (graph_nodes_find with the library as ctx). */
struct graph_defs {
	json_t *(*find)(void *ctx, const char *type);
	void *ctx;
};

/* flags: nodes may come without a position (before the layout places
 * them). */
#define GRAPH_VALIDATE_NO_POSITION 1u

#define GRAPH_VALIDATE_MAX_ERRORS 50
#define GRAPH_ID_MAX 128
#define GRAPH_STRING_MAX 16384

/* Validates wf (borrowed). wf is changed in one way: each node's
 * data.convertibleTypes is set to the types its CONVERTIBLE_ANY slots
 * have taken (and removed when there are none). New reference: the array
 * of errors, [] when wf is valid; at most max_errors of them (0: the
 * default cap). */
json_t *graph_validate(json_t *wf, const struct graph_defs *defs, unsigned flags,
		       size_t max_errors);
/* The same with strings bounded by max_string bytes (0: GRAPH_STRING_MAX,
 * what graph_validate uses). */
json_t *graph_validate_bounded(json_t *wf, const struct graph_defs *defs, unsigned flags,
			       size_t max_errors, size_t max_string);

/* Checks that no string in v (borrowed: any JSON, a workflow or a patch),
 * value or member name, is longer than max_string bytes: 0, or -1 with err
 * naming the first one found by its JSON Pointer after prefix ("workflow"
 * gives "workflow/nodes/3/displayName: ..."). */
int graph_strings_ok(const json_t *v, size_t max_string, const char *prefix, char *err,
		     size_t errlen);

/* 1 when id may name a node or an edge (see bad_id). */
int graph_id_ok(const char *id);

#endif
