/* Layout of a workflow's JSON: node ids to numbers, the nodes to place,
 * their sizes, and the positions written back; where a block of new nodes
 * goes beside the existing ones; the node size formula; crossings counted
 * on a laid-out workflow (for tests and the benchmark). The layered
 * algorithm is in graph_layout_core.c. */
#include "config.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include "wf/graph_edit/graph_layout.h"
#include "wf/graph_edit/graph_layout_int.h"
#include "util/xmalloc.h"

/* Slots and parameters counted at most, boxes kept to sizes whose sums
 * over a large workflow still fit an int, and coordinates read from a
 * workflow kept to where a double still counts whole pixels. */
#define GL_COUNT_MAX 200
#define GL_SIZE_MAX 20000
#define GL_COORD_MAX 1e12
/* New nodes placed one by one next to what they connect to at most (more
 * go as one block), and the places tried above and below each: the cost
 * stays a small multiple of the workflow's size. */
#define GL_ANCHOR_MAX 64
#define GL_TRIES_MAX 240

struct gl_id {
	const char *id; /* borrowed from the node */
	int idx;
};

/* A workflow as the layout sees it. */
struct gl_wf {
	int n;            /* entries of "nodes" */
	json_t **node;    /* n, borrowed; NULL for an entry that is not an object */
	int *w, *h;       /* n */
	char *has_pos;    /* n: a numeric position */
	double *px, *py;  /* n: that position */
	struct gl_id *ids;
	int nids;
	const json_t *edges; /* borrowed; may be NULL */
};

static int gl_count(const json_t *v)
{
	size_t k = json_is_object(v) ? json_object_size(v) : json_is_array(v) ? json_array_size(v) : 0;

	return k > GL_COUNT_MAX ? GL_COUNT_MAX : (int)k;
}

void graph_node_size(const json_t *def, int *w, int *h)
{
	int in = 1, out = 1, params = 0;

	if (def) {
		in = gl_count(json_object_get(def, "inputs"));
		out = gl_count(json_object_get(def, "outputs"));
		params = gl_count(json_object_get(def, "configValues"));
	}
	*w = GRAPH_NODE_WIDTH;
	*h = GRAPH_NODE_HEADER + GRAPH_NODE_SLOT * (in > out ? in : out) +
	     GRAPH_NODE_PARAM * params + GRAPH_NODE_PADDING;
}

static int gl_clamp_size(int v)
{
	return v < 1 ? 1 : v > GL_SIZE_MAX ? GL_SIZE_MAX : v;
}

/* A numeric, finite position {x, y}. */
static int gl_position(const json_t *node, double *x, double *y)
{
	const json_t *pos = json_object_get(node, "position");
	const json_t *jx = json_object_get(pos, "x"), *jy = json_object_get(pos, "y");

	if (!json_is_number(jx) || !json_is_number(jy))
		return 0;
	*x = json_number_value(jx), *y = json_number_value(jy);
	if (!isfinite(*x) || !isfinite(*y))
		return 0;
	*x = fmax(-GL_COORD_MAX, fmin(GL_COORD_MAX, *x));
	*y = fmax(-GL_COORD_MAX, fmin(GL_COORD_MAX, *y));
	return 1;
}

static int gl_id_cmp(const void *a, const void *b)
{
	const struct gl_id *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

/* Ids sorted, each kept once with its first node. */
static void gl_wf_ids(struct gl_wf *w)
{
	int k = 0;

	w->ids = xmalloc(((size_t)w->n + 1) * sizeof *w->ids);
	for (int i = 0; i < w->n; i++) {
		const char *id = json_string_value(json_object_get(w->node[i], "id"));

		if (id)
			w->ids[k++] = (struct gl_id){ id, i };
	}
	qsort(w->ids, (size_t)k, sizeof *w->ids, gl_id_cmp);
	w->nids = 0;
	for (int i = 0; i < k; i++)
		if (w->nids == 0 || strcmp(w->ids[w->nids - 1].id, w->ids[i].id) != 0)
			w->ids[w->nids++] = w->ids[i];
}

static int gl_wf_find(const struct gl_wf *w, const char *id)
{
	int lo = 0, hi = w->nids - 1;

	while (id && lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = strcmp(id, w->ids[mid].id);

		if (c == 0)
			return w->ids[mid].idx;
		if (c < 0)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	return -1;
}

/* The two ends of an edge, both existing nodes and not the same one. */
static int gl_wf_edge(const struct gl_wf *w, size_t e, int *s, int *t)
{
	const json_t *edge = json_array_get(w->edges, e);

	*s = gl_wf_find(w, json_string_value(json_object_get(edge, "source")));
	*t = gl_wf_find(w, json_string_value(json_object_get(edge, "target")));
	return *s >= 0 && *t >= 0 && *s != *t ? 0 : -1;
}

static void gl_wf_free(struct gl_wf *w)
{
	free(w->node), free(w->w), free(w->h), free(w->has_pos);
	free(w->px), free(w->py), free(w->ids);
}

static int gl_wf_open(struct gl_wf *w, const json_t *wf, graph_size_fn size, void *ctx)
{
	json_t *nodes = json_object_get(wf, "nodes");
	size_t n = json_array_size(nodes);

	memset(w, 0, sizeof *w);
	if (!json_is_array(nodes) || n > INT32_MAX / 4)
		return -1;
	w->n = (int)n;
	w->node = xcalloc(n + 1, sizeof *w->node);
	w->w = xcalloc(n + 1, sizeof *w->w), w->h = xcalloc(n + 1, sizeof *w->h);
	w->has_pos = xcalloc(n + 1, 1);
	w->px = xcalloc(n + 1, sizeof *w->px), w->py = xcalloc(n + 1, sizeof *w->py);
	for (int i = 0; i < w->n; i++) {
		json_t *node = json_array_get(nodes, (size_t)i);

		if (!json_is_object(node))
			continue;
		w->node[i] = node;
		if (size)
			size(node, ctx, &w->w[i], &w->h[i]);
		else
			graph_node_size(NULL, &w->w[i], &w->h[i]);
		w->w[i] = gl_clamp_size(w->w[i]), w->h[i] = gl_clamp_size(w->h[i]);
		w->has_pos[i] = (char)gl_position(node, &w->px[i], &w->py[i]);
	}
	gl_wf_ids(w);
	w->edges = json_is_array(json_object_get(wf, "edges")) ? json_object_get(wf, "edges") : NULL;
	return 0;
}

/* What places a block of new nodes: their edges with existing nodes. */
struct gl_block {
	int into_old, from_old; /* edges new -> existing, existing -> new */
	int *cross_new, *cross_old; /* the pairs (local new node, existing node) */
	int ncross;
};

/* The edges among the nodes to place (numbered by local[]) go to g; those
 * between a node to place and an existing one to b. */
static void gl_collect_edges(const struct gl_wf *w, const int *local, struct gl_graph *g,
			     struct gl_block *b)
{
	size_t ne = json_array_size(w->edges);

	g->eu = xcalloc(ne + 1, sizeof *g->eu), g->ev = xcalloc(ne + 1, sizeof *g->ev);
	b->cross_new = xcalloc(ne + 1, sizeof(int)), b->cross_old = xcalloc(ne + 1, sizeof(int));
	for (size_t e = 0; e < ne; e++) {
		int s, t;

		if (gl_wf_edge(w, e, &s, &t) < 0 || (local[s] < 0 && local[t] < 0))
			continue;
		if (local[s] >= 0 && local[t] >= 0) {
			g->eu[g->m] = local[s], g->ev[g->m++] = local[t];
			continue;
		}
		if (local[s] >= 0)
			b->into_old++, b->cross_new[b->ncross] = local[s], b->cross_old[b->ncross++] = t;
		else
			b->from_old++, b->cross_new[b->ncross] = local[t], b->cross_old[b->ncross++] = s;
	}
}

/* Where the block's (0, 0) goes: clear of every existing box, right of
 * them (left when the block mostly feeds them), level with the existing
 * nodes it connects to, else with their top. */
static void gl_block_origin(const struct gl_wf *w, const struct gl_graph *g,
			    const struct gl_block *b, double *ox, double *oy)
{
	double minx = HUGE_VAL, maxx = -HUGE_VAL, miny = HUGE_VAL, dy = 0;

	for (int i = 0; i < w->n; i++) {
		if (!w->node[i] || !w->has_pos[i])
			continue;
		minx = fmin(minx, w->px[i]), miny = fmin(miny, w->py[i]);
		maxx = fmax(maxx, w->px[i] + w->w[i]);
	}
	if (minx == HUGE_VAL) {
		*ox = *oy = 0;
		return;
	}
	*ox = b->into_old > b->from_old ? floor(minx) - GRAPH_PART_GAP - g->width
					: ceil(maxx) + GRAPH_PART_GAP;
	for (int k = 0; k < b->ncross; k++) {
		int a = b->cross_new[k], o = b->cross_old[k];

		dy += w->py[o] + w->h[o] / 2.0 - (g->y[a] + g->h[a] / 2.0);
	}
	*oy = b->ncross ? round(dy / b->ncross) : floor(miny);
}

static void gl_write(json_t *node, double x, double y)
{
	json_object_set_new(node, "position", json_pack("{s:I, s:I}", "x", (json_int_t)x,
							"y", (json_int_t)y));
}

/* Lays out the nodes marked in local[] (their number among them, -1 for
 * the others) and writes their positions. */
static void gl_place(const struct gl_wf *w, const int *local, int k)
{
	struct gl_graph g = { 0 };
	struct gl_block b = { 0 };
	int *gw = xcalloc((size_t)k, sizeof *gw), *gh = xcalloc((size_t)k, sizeof *gh);
	double ox, oy;

	g.n = k, g.w = gw, g.h = gh;
	g.x = xcalloc((size_t)k, sizeof *g.x), g.y = xcalloc((size_t)k, sizeof *g.y);
	for (int i = 0; i < w->n; i++)
		if (local[i] >= 0)
			gw[local[i]] = w->w[i], gh[local[i]] = w->h[i];
	gl_collect_edges(w, local, &g, &b);
	gl_core(&g);
	gl_block_origin(w, &g, &b, &ox, &oy);
	for (int i = 0; i < w->n; i++)
		if (local[i] >= 0)
			gl_write(w->node[i], ox + g.x[local[i]], oy + g.y[local[i]]);
	free(gw), free(gh), free(g.x), free(g.y), free(g.eu), free(g.ev);
	free(b.cross_new), free(b.cross_old);
}

/* -- new nodes next to what they connect to ---------------------------------- */

/* Whether a w × h box at (x, y) keeps GRAPH_NODE_GAP / 2 clear of every
 * placed box. */
static int gl_free(const struct gl_wf *w, double x, double y, int bw, int bh)
{
	const double m = GRAPH_NODE_GAP / 2.0;

	for (int i = 0; i < w->n; i++)
		if (w->node[i] && w->has_pos[i] && x < w->px[i] + w->w[i] + m &&
		    w->px[i] < x + bw + m && y < w->py[i] + w->h[i] + m && w->py[i] < y + bh + m)
			return 0;
	return 1;
}

/* Following edges forward (or backward) from node i through nodes not yet
 * placed: the nearest placed node's left edge (right edge backward) and
 * how many steps away it is; 0 when none is within GL_REACH steps. */
#define GL_REACH 8

static int gl_reach(const struct gl_wf *w, int i, int forward, double *edge)
{
	size_t ne = json_array_size(w->edges);
	int cur = i;

	for (int depth = 1; depth <= GL_REACH; depth++) {
		int next = -1;

		for (size_t e = 0; e < ne; e++) {
			int s, t, o;

			if (gl_wf_edge(w, e, &s, &t) < 0 || (forward ? s : t) != cur)
				continue;
			o = forward ? t : s;
			if (!w->node[o])
				continue;
			if (w->has_pos[o]) {
				*edge = forward ? w->px[o] : w->px[o] + w->w[o];
				return depth;
			}
			if (next < 0 && o != i)
				next = o;
		}
		if (next < 0)
			return 0;
		cur = next;
	}
	return 0;
}

/* Where node i wants to be from its placed neighbours: between its
 * sources and its targets, right of its sources, or left of its targets;
 * level with them. 0 when it has no placed neighbour. */
static int gl_wish(const struct gl_wf *w, int i, double *x, double *y)
{
	double right = -HUGE_VAL, left = HUGE_VAL, cy = 0;
	int np = 0, ns = 0;
	size_t ne = json_array_size(w->edges);

	for (size_t e = 0; e < ne; e++) {
		int s, t, o;

		if (gl_wf_edge(w, e, &s, &t) < 0 || (s != i && t != i))
			continue;
		o = s == i ? t : s;
		if (!w->node[o] || !w->has_pos[o])
			continue;
		cy += w->py[o] + w->h[o] / 2.0;
		if (s == i)
			left = fmin(left, w->px[o]), ns++;
		else
			right = fmax(right, w->px[o] + w->w[o]), np++;
	}
	if (!np && !ns)
		return 0;
	*y = cy / (np + ns) - w->h[i] / 2.0;
	if (np && ns) {
		*x = (right + left) / 2.0 - w->w[i] / 2.0;
	} else if (np) {
		/* The first of new nodes inserted in a row takes its share of the way. */
		int d = gl_reach(w, i, 1, &left);

		*x = d && left > right ? right + (left - right) / (d + 1.0) - w->w[i] / 2.0 :
		     right + GRAPH_LAYER_GAP;
	} else {
		int d = gl_reach(w, i, 0, &right);

		*x = d && left > right ? left - (left - right) / (d + 1.0) - w->w[i] / 2.0 :
		     left - GRAPH_LAYER_GAP - w->w[i];
	}
	return 1;
}

/* The free place nearest (x, y) straight above or below it. */
static void gl_nearest_free(const struct gl_wf *w, int i, double *x, double *y)
{
	double span = 0, step = GRAPH_NODE_GAP;
	long tries;

	for (int k = 0; k < w->n; k++)
		if (w->node[k] && w->has_pos[k])
			span += w->h[k] + GRAPH_NODE_GAP;
	tries = (long)(2 * (span + w->h[i]) / step) + 4;
	if (tries > GL_TRIES_MAX)
		tries = GL_TRIES_MAX;
	for (long k = 0; k < tries; k++) {
		double dy = step * (double)((k + 1) / 2) * (k % 2 ? 1 : -1);

		if (gl_free(w, *x, round(*y + dy), w->w[i], w->h[i])) {
			*y = round(*y + dy);
			return;
		}
	}
	/* Below everything. */
	for (int k = 0; k < w->n; k++)
		if (w->node[k] && w->has_pos[k])
			*y = fmax(*y, w->py[k] + w->h[k] + GRAPH_NODE_GAP);
	*y = ceil(*y);
}

/* Places the new nodes that have placed neighbours, one at a time (each
 * placed one may anchor the next), and takes them out of local[]. How many
 * are left. */
static int gl_anchor(struct gl_wf *w, int *local)
{
	int progress = 1, left = 0;

	while (progress) {
		progress = 0;
		for (int i = 0; i < w->n; i++) {
			double x, y;

			if (local[i] < 0 || !gl_wish(w, i, &x, &y))
				continue;
			x = round(x);
			gl_nearest_free(w, i, &x, &y);
			gl_write(w->node[i], x, y);
			w->has_pos[i] = 1, w->px[i] = x, w->py[i] = y;
			local[i] = -1;
			progress = 1;
		}
	}
	for (int i = 0; i < w->n; i++)
		if (local[i] >= 0)
			local[i] = left++;
	return left;
}

int graph_layout(json_t *wf, enum graph_layout_mode mode, graph_size_fn size, void *ctx,
		 char *err, size_t errlen)
{
	struct gl_wf w;
	int *local, k = 0, placed;

	if (gl_wf_open(&w, wf, size, ctx) < 0) {
		snprintf(err, errlen, "a workflow needs a \"nodes\" array");
		return -1;
	}
	local = xcalloc((size_t)w.n + 1, sizeof *local);
	for (int i = 0; i < w.n; i++) {
		if (mode == GRAPH_LAYOUT_ALL)
			w.has_pos[i] = 0;
		local[i] = w.node[i] && !w.has_pos[i] ? k++ : -1;
	}
	placed = k;
	if (k > 0 && mode == GRAPH_LAYOUT_NEW && k < w.n && k <= GL_ANCHOR_MAX)
		k = gl_anchor(&w, local);
	if (k > 0)
		gl_place(&w, local, k);
	free(local);
	gl_wf_free(&w);
	return placed;
}

/* Crossings counted from positions alone. */
struct gl_cols {
	int *col;   /* n: column of a node with a position, else -1 */
	int *rank;  /* n: place within its column */
	int *size;  /* columns: nodes in each */
	int ncol;
};

struct gl_at {
	double x, y;
	int idx;
};

static int gl_at_x(const void *a, const void *b)
{
	const struct gl_at *p = a, *q = b;

	if (p->x != q->x)
		return p->x < q->x ? -1 : 1;
	return (p->idx > q->idx) - (p->idx < q->idx);
}

static int gl_at_y(const void *a, const void *b)
{
	const struct gl_at *p = a, *q = b;

	if (p->y != q->y)
		return p->y < q->y ? -1 : 1;
	return (p->idx > q->idx) - (p->idx < q->idx);
}

/* Columns by distinct x; a column's order by y, or by index alone. */
static void gl_cols_build(struct gl_cols *c, const struct gl_wf *w, int by_input)
{
	struct gl_at *at = xcalloc((size_t)w->n + 1, sizeof *at);
	int k = 0;

	c->col = xcalloc((size_t)w->n + 1, sizeof *c->col);
	c->rank = xcalloc((size_t)w->n + 1, sizeof *c->rank);
	c->size = xcalloc((size_t)w->n + 1, sizeof *c->size);
	c->ncol = 0;
	for (int i = 0; i < w->n; i++) {
		c->col[i] = -1;
		if (w->node[i] && w->has_pos[i])
			at[k++] = (struct gl_at){ w->px[i], w->py[i], i };
	}
	qsort(at, (size_t)k, sizeof *at, gl_at_x);
	for (int i = 0, a = 0; i <= k; i++) {
		if (i < k && at[i].x == at[a].x)
			continue;
		if (!by_input)
			qsort(at + a, (size_t)(i - a), sizeof *at, gl_at_y);
		for (int j = a; j < i; j++)
			c->col[at[j].idx] = c->ncol, c->rank[at[j].idx] = j - a;
		if (i > a)
			c->size[c->ncol++] = i - a;
		a = i;
	}
	free(at);
}

static int gl_triple_cmp(const void *a, const void *b)
{
	const int *x = a, *y = b;

	for (int i = 0; i < 3; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

long long graph_layout_crossings(const json_t *wf, int by_input)
{
	struct gl_wf w;
	struct gl_cols c;
	size_t ne;
	int *rec, k = 0, *seq, *bit;
	long long total = 0;

	if (gl_wf_open(&w, wf, NULL, NULL) < 0)
		return -1;
	gl_cols_build(&c, &w, by_input);
	ne = json_array_size(w.edges);
	rec = xcalloc(3 * ne + 1, sizeof *rec), seq = xcalloc(ne + 1, sizeof *seq);
	bit = xcalloc((size_t)w.n + 2, sizeof *bit);
	for (size_t e = 0; e < ne; e++) {
		int s, t;

		if (gl_wf_edge(&w, e, &s, &t) == 0 && c.col[s] >= 0 && c.col[t] == c.col[s] + 1)
			rec[3 * k] = c.col[s], rec[3 * k + 1] = c.rank[s], rec[3 * k++ + 2] = c.rank[t];
	}
	qsort(rec, (size_t)k, 3 * sizeof *rec, gl_triple_cmp);
	for (int i = 0, a = 0; i <= k; i++) {
		if (i < k && rec[3 * i] == rec[3 * a])
			continue;
		for (int j = a; j < i; j++)
			seq[j - a] = rec[3 * j + 2];
		if (i > a)
			total += gl_inversions(seq, i - a, c.size[rec[3 * a] + 1], bit);
		a = i;
	}
	free(rec), free(seq), free(bit), free(c.col), free(c.rank), free(c.size);
	gl_wf_free(&w);
	return total;
}
