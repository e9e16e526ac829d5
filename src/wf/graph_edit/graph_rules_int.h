/* Inside the offline planner (graph_rules.h): the canvas as the plan
 * changes it, name matching, the clause handlers and the repair. Not for
 * use outside graph_rules*.c. */
#ifndef AV_WF_GRAPH_RULES_INT_H
#define AV_WF_GRAPH_RULES_INT_H
#include <stddef.h>
#include <jansson.h>
#include "util/buf.h"

#define GR_MAX_NODES 4096
#define GR_MAX_EDGES 8192
#define GR_MAX_COUNT 10        /* nodes one "add" clause may create */
#define GR_REPLY_MAX 4096

/* A node of the canvas, or one the patch adds (added: its localId). */
struct gr_node {
	char *id;              /* the canvas id, or the localId of an added node */
	const char *type;      /* borrowed from facts or the patch */
	const json_t *def;     /* its definition (borrowed), NULL when not retrieved */
	char *display;         /* displayName, NULL when none */
	int added;             /* added by this patch */
	int removed;
};

struct gr_edge {
	char *id;              /* the canvas id; NULL for an edge of this patch */
	size_t src, dst;       /* node indices */
	char *sh, *th;         /* slots */
	int removed;
};

struct gr_plan {
	const json_t *defs;    /* facts.definitions, borrowed */
	struct gr_node *nodes;
	size_t nn, ncap;
	struct gr_edge *edges;
	size_t ne, ecap;
	json_t *patch;         /* owned */
	struct buf done;       /* what the patch does, phrases joined */
	struct buf why;        /* why the last clause (or item) failed */
	struct buf notdone;    /* the parts not done, each with its why */
	const json_t *facts;   /* borrowed */
	int quiet;             /* gr_link says nothing (the caller sums up) */
	struct buf undone;     /* edges of this patch an insert took back, said */
	int zh;
	size_t last_ref;       /* the node named or added last (-1: none) */
	size_t prev_ref;       /* last_ref when the clause began: what "it" is */
	size_t last_from;      /* first node added by the previous clause */
	size_t last_to;        /* one past the last */
};

/* graph_rules_canvas.c: the model of the canvas. */
void gr_plan_init(struct gr_plan *p, const json_t *facts, int zh);
void gr_plan_free(struct gr_plan *p);
const json_t *gr_def_find(const struct gr_plan *p, const char *type);
size_t gr_node_add(struct gr_plan *p, const char *id, const char *type, int added);
size_t gr_edge_add(struct gr_plan *p, const char *id, size_t src, const char *sh, size_t dst,
		   const char *th);
/* The node's index by id or localId, or (size_t)-1. */
size_t gr_node_by_id(const struct gr_plan *p, const char *id);
/* What people call the node: its displayName, else its type's name in
 * the reply's language, else its type. Lent. */
const char *gr_node_label(const struct gr_plan *p, size_t i);
const char *gr_def_label(const json_t *def, int zh);
/* A fresh localId from the type ("chat1", "textinput2"), never all
 * digits, unique among the canvas ids and this patch's localIds. New
 * string. */
char *gr_local_id(const struct gr_plan *p, const char *type);
/* The data type a slot has now: declared, or what a CONVERTIBLE_ANY slot
 * took from its first live edge. Lent; NULL when the slot is not there. */
const char *gr_slot_type(const struct gr_plan *p, size_t node, const char *slot, int input);
int gr_types_fit(const char *out, const char *in);
/* Appends a phrase to what the patch does ("; " between phrases). */
void gr_done(struct gr_plan *p, const char *zh, const char *en, ...);
/* Sets why nothing was done. Always -1. */
int gr_fail(struct gr_plan *p, const char *zh, const char *en, ...);

/* Appends p->why to the parts not done. */
void gr_note(struct gr_plan *p);

/* graph_rules_match.c: names people use for node types and nodes. */
/* The name with counts, articles, "node" and fillers taken off, lower
 * case ASCII; *count gets the number asked for (1 when none). New string. */
char *gr_name_clean(const char *s, size_t n, int *count);
/* How well a name fits a definition: 0 for not at all. */
int gr_def_score(const char *name, const json_t *def);
/* The best definition for name (ties: the definitions' order), or NULL. */
const json_t *gr_def_best(const struct gr_plan *p, const char *name);
/* Up to max definitions close to name, as "「文本输入」(core:TextInput)"
 * joined by the language's comma, into b. */
void gr_def_close(const struct gr_plan *p, const char *name, size_t max, struct buf *b);
/* The live nodes that best fit name: their indices in out (at most
 * max), how many in the return value; 0 when none fits. Among equally
 * good nodes, those of this patch come first. */
size_t gr_node_find(const struct gr_plan *p, const char *name, size_t *out, size_t max);
/* The nodes listed for a question, "「A」(n_1)、「B」(n_2)", into b. */
void gr_node_list(const struct gr_plan *p, const size_t *idx, size_t n, struct buf *b);
/* The parameter of def that name means, or NULL. Lent. */
const char *gr_param_find(const json_t *def, const char *name);
/* The ENUM parameter of def one of whose options text means ("日语" for
 * a language, "要点列表" for a style), or NULL. */
const char *gr_param_by_value(const json_t *def, const char *text);
/* 1 for words standing for "them", 2 for "it". */
int gr_pronoun(const char *name);

/* graph_rules_ops.c and graph_rules_param.c: one handler per kind of clause. The clause is
 * before the verb [b, b+bn) and after it [a, a+an). 0 when planned (ops
 * appended to p->patch), -1 with p->why set. */
int gr_op_add(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_remove(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_connect(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_disconnect(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_set(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_rename(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
/* "enable the chat's json mode", "关闭 markdown": a BOOLEAN parameter set. */
int gr_op_enable(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
int gr_op_disable(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
/* The node a phrase names (a name, a displayName, an id, "it"): 0 with
 * *out, or -1 with p->why (none, or several: listed). */
int gr_pick(struct gr_plan *p, const char *s, size_t n, size_t *out);
/* "/<array>/<escaped id><rest>". New string. */
char *gr_path(const char *array, const char *id, const char *rest);
/* An edge from node s to node t on the slots that fit best; 0, or -1
 * with p->why saying the two nodes' slot types. */
int gr_link(struct gr_plan *p, size_t s, size_t t);
/* The same on the given slots (NULL: any that fits best). */
int gr_link_on(struct gr_plan *p, size_t s, const char *out, size_t t, const char *in);
/* Takes an edge off the canvas model and out of the patch (a remove op
 * for a canvas edge). */
void gr_edge_drop(struct gr_plan *p, struct gr_edge *e);
/* Removes node k and its edges, saying nothing. */
void gr_node_drop(struct gr_plan *p, size_t k);
/* The output (input) slot of node k a word names (its key or its names
 * in either language), or NULL. Lent. */
const char *gr_slot_named(const struct gr_plan *p, size_t k, const char *word, int input);

/* graph_rules_struct.c: structural edits. */
/* An "add" clause that names where the node goes ("between A and B",
 * "after A", "before B"): 1 when it did (planned or failed), 0 when the
 * clause names no place. */
int gr_struct_add(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an, int *rc);
int gr_op_replace(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an);
/* "把A改成B", "change A into B" where A is a node and B a node type: 1
 * when it was (planned, *rc), 0 when not. */
int gr_set_as_replace(struct gr_plan *p, const char *b, size_t bn, const char *a, size_t an,
		      int *rc);
/* "connect A, B and C in order", "把A和B接到C": 1 when the clause was
 * one of these (planned or failed, *rc), 0 when not. */
int gr_struct_connect(struct gr_plan *p, const char *verb, size_t vn, const char *b, size_t bn,
		      const char *a, size_t an, int *rc);

/* graph_rules_ask.c: questions about the canvas and its problems. */
/* 1 when text asks about the canvas, with the answer in ans. */
int gr_ask(struct gr_plan *p, const char *text, struct buf *ans);
/* The canvas's own problems (what graph_validate finds in it, said for
 * people) into b: how many. */
size_t gr_canvas_problems(struct gr_plan *p, struct buf *b);
/* A request to mend the canvas ("修复画布", "fix the canvas"): 1 when it
 * was one (ops appended), 0 when not. */
int gr_canvas_fix(struct gr_plan *p, const char *text);
/* Appends {"op": "add", "path": "/nodes/-", "value": {"localId", "type"}}
 * for def and returns the node's index. */
size_t gr_emit_node(struct gr_plan *p, const json_t *def);
/* The value text parsed to a parameter's declared type: new reference,
 * or NULL with p->why set (wrong type, out of range, not an option). */
json_t *gr_param_value(struct gr_plan *p, const char *param, const json_t *decl,
		       const char *text);

/* graph_rules_text.c: splitting requests. */
/* ASCII lower case copy of n bytes. New string. */
char *gr_lower(const char *s, size_t n);
/* Trims spaces and punctuation at both ends of [*s, *s + *n). */
void gr_trim(const char **s, size_t *n);
/* Splits [s, s+n) at the first separator of list found (ASCII ones at
 * word boundaries): the parts in out[0..1]; 0 when none is there. */
int gr_split2(const char *s, size_t n, const char *const *list, const char **l, size_t *ln,
	      const char **r, size_t *rn);
/* Trims spaces and sentence punctuation only (a value keeps its "\\s+"). */
void gr_trim_light(const char **s, size_t *n);
/* Like gr_split2_last, the right part trimmed lightly. */
int gr_split2_last_raw(const char *s, size_t n, const char *const *list, const char **l,
		       size_t *ln, const char **r, size_t *rn);
/* Like gr_split2 at the last separator found. */
int gr_split2_last(const char *s, size_t n, const char *const *list, const char **l,
		   size_t *ln, const char **r, size_t *rn);
/* The position of w in [s, s+n) (ASCII at word boundaries, any case), or
 * -1. */
long gr_find(const char *s, size_t n, const char *w);

/* graph_rules_repair.c: a failed patch mended, or the errors explained.
 * New reference {"patch", "reply"}. */
json_t *gr_repair(const json_t *facts, int zh);

#endif
