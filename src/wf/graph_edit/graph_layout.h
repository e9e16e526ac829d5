/* Automatic layout of a graph_edit workflow: where nodes go on the canvas
 * when nobody has put them there (new nodes from a patch) or when the
 * person asks for the whole workflow to be laid out again.
 *
 * A layered (Sugiyama) layout, left to right: cycles broken by reversing
 * the back edges of a depth-first search, layers by longest path (a node
 * with no inputs moves next to its nearest consumer), crossings between
 * adjacent layers reduced by barycentre sweeps keeping the best order seen
 * (the first one is the workflow's order), then coordinates: a layer is as wide as its widest node plus
 * a gap; within a layer nodes are stacked with gaps and pulled towards the
 * mean height of their neighbours as far as the gaps allow; unconnected
 * parts of the workflow are stacked one below the other. No two node boxes
 * overlap. The same input always gives the same positions.
 *
 * Node sizes come from one formula, graph_node_size(), which the app's
 * canvas draws with too (docs/workflows.md, "Node sizes"). */
#ifndef AV_GRAPH_LAYOUT_H
#define AV_GRAPH_LAYOUT_H
#include <stddef.h>
#include <jansson.h>

/* The node size formula, in canvas pixels. */
#define GRAPH_NODE_WIDTH 240
#define GRAPH_NODE_HEADER 36
#define GRAPH_NODE_SLOT 24
#define GRAPH_NODE_PARAM 28
#define GRAPH_NODE_PADDING 12

/* Space between layers, between nodes of a layer, between unconnected
 * parts, and between existing nodes and a block of new ones. */
#define GRAPH_LAYER_GAP 80
#define GRAPH_NODE_GAP 40
#define GRAPH_PART_GAP 80

enum graph_layout_mode {
	GRAPH_LAYOUT_NEW, /* place only nodes without a position */
	GRAPH_LAYOUT_ALL, /* place every node again */
};

/* A node's box from its definition (borrowed; an etc/nodes.json entry with
 * "inputs", "outputs" and "configValues" objects keyed by slot or
 * parameter): width GRAPH_NODE_WIDTH, height header + slot × max(inputs,
 * outputs) + param × parameters + padding (each count at most 200). NULL:
 * a node of one input, one output and no parameters (240 × 72). */
void graph_node_size(const json_t *def, int *w, int *h);

/* The size of a workflow node (borrowed) as the caller knows it, usually
 * graph_node_size() of the definition of the node's type. */
typedef void (*graph_size_fn)(const json_t *node, void *ctx, int *w, int *h);

/* Lays out wf (borrowed, changed in place): {nodes: [{id, position?: {x,
 * y}, ...}], edges?: [{source, target, ...}]}. GRAPH_LAYOUT_NEW places the
 * nodes without a numeric position and leaves the others where they are.
 * When at most 64 nodes are new, one with an edge to a placed node goes
 * next to it, one at a time (each placed one may anchor the next):
 * between its sources and its targets when it has both (a node inserted
 * into an edge lands between the two ends, never past the end of the
 * chain), right of its sources, or left of its targets, level with them,
 * moved straight up or down to the nearest place that keeps
 * GRAPH_NODE_GAP / 2 clear of every box. The other new nodes are laid
 * out together and put as one block to the right of every placed node
 * (to the left when more of their edges lead into placed nodes than come
 * out of them), so no new box overlaps another.
 * GRAPH_LAYOUT_ALL places every node from (0, 0). Positions are written as
 * integers ({"x": 320, "y": 128}, the top-left corner); a size from the
 * size function is taken within 1..20000. Edges naming a
 * missing node, self-loops and repeated edges are ignored; so are entries
 * of nodes that are not objects, and a repeated id names its first node.
 * size NULL: every node gets graph_node_size(NULL). Returns the number of
 * nodes placed, or -1 with err filled when wf has no nodes array. */
int graph_layout(json_t *wf, enum graph_layout_mode mode, graph_size_fn size, void *ctx,
		 char *err, size_t errlen);

/* Edge crossings of a laid-out workflow (borrowed), between adjacent
 * columns: the columns are the distinct x of the nodes' positions, nodes
 * without one are left out, and an edge counts when its target is in the
 * column right after its source's. Nodes of a column are ordered by y (and
 * by their order in the array when level), or with by_input by their order
 * in the array alone: the crossings the same columns would have without
 * the ordering. -1 when wf has no nodes array. */
long long graph_layout_crossings(const json_t *wf, int by_input);

#endif
