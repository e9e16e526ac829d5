/* The offline planner of the graph_edit workflow: the rules that stand in
 * for the model on the "graph_plan" task when no model is configured.
 *
 * From the task's facts ({"text", "lang", "workflow": the compacted
 * canvas, "definitions": the retrieved node definitions, "errors"? and
 * "previousPatch"? when a patch failed}) they answer what the model is
 * asked for: {"patch": [RFC 6902 operations in the graph_edit dialect],
 * "reply": "what the patch does, or why nothing was done"}.
 *
 * They understand simple commands in Chinese and English and their
 * combinations (clauses joined by 然后, 再, 并且, commas, "and", "then"),
 * each clause planned against the canvas as the clauses before it leave
 * it: add nodes named by what they do (with counts), delete nodes,
 * connect two nodes (slots chosen by data type), several into one or a
 * chain, put a node between two connected ones (the edge rewired through
 * it) or after or before one, replace a node keeping the edges that fit,
 * disconnect, set a parameter (a value by its meaning), rename a node.
 * Questions about the canvas (how many nodes, what feeds what, what is
 * not connected, which node has an error) are answered from it. A clause
 * that cannot be planned is left out and named in the reply with why; the
 * rest stands. A request they do not understand at all gets an empty
 * patch and a reply saying what can be asked; never a guessed patch. A
 * canvas that is itself invalid gets its problems in words, and "fix the
 * canvas" removes what is broken. With "errors" and
 * "previousPatch" they repair what they can of the previous patch (other
 * slots for an edge, the closest known type, a value brought into range)
 * or explain the errors. */
#ifndef AV_WF_GRAPH_RULES_H
#define AV_WF_GRAPH_RULES_H
#include <stddef.h>
#include <jansson.h>

/* A prov_rules_fn for "graph_plan": facts borrowed (may be NULL); text
 * the request (facts.text wins when present). New reference to
 * {"patch", "reply"}; NULL only when facts is not an object, with err. */
json_t *graph_rules_plan(const json_t *facts, const char *text, char *err, size_t errlen);

#endif
