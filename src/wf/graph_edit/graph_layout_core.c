/* The layered layout itself, on numbered nodes and edges: cycles broken,
 * layers by longest path, crossings reduced by barycentre sweeps, then
 * coordinates (graph_layout.h says what each step is for). Every array is
 * sized from the graph and freed before gl_core returns; nothing here
 * knows about JSON.
 *
 * Long edges are not split by virtual nodes. The canvas draws an edge as
 * one curve from its source to its target, never through the layers
 * between, and on the random workflows of tests/unit/gen_dag.h splitting
 * them left more crossings between adjacent layers (with sweeps alone, 43
 * against 21 on 100 nodes, 866 against 710 on 1,000) and took ten to
 * fifty times longer (35,000 virtual nodes for 1,000 real ones). A long
 * edge still pulls both its ends in the sweeps: a neighbour's place counts
 * wherever its layer is, as a fraction of that layer's length. After each
 * sweep, neighbours in a layer are swapped wherever that crosses fewer
 * edges (which halves the crossings left on those workflows). */
#include "config.h"
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "wf/graph_edit/graph_layout.h"
#include "wf/graph_edit/graph_layout_int.h"
#include "util/xmalloc.h"

/* Sweeps at most, and how many in a row may bring no better order. */
#define GL_SWEEPS_MAX 24
#define GL_SWEEPS_IDLE 8
/* Passes pulling nodes towards their neighbours' height. */
#define GL_ALIGN_PASSES 8
/* Rounds of swapping neighbours after a sweep, at most. */
#define GL_TRANSPOSE_ROUNDS 4

/* The nodes in layers, with their order within each. */
struct gl_layered {
	int n;              /* nodes */
	int nl;             /* layers */
	int m;              /* edges */
	int *layer;         /* n */
	int *part;          /* n: connected part, numbered by its first node */
	int *pstart, *padj; /* predecessors: padj[pstart[v] .. pstart[v+1]) */
	int *sstart, *sadj; /* successors, the same way */
	int *lstart;        /* nl + 1: layer l is order[lstart[l] .. lstart[l+1]) */
	int *order;         /* n */
	int *pos;           /* n: index within its layer */
	int widest;         /* the most nodes in one layer */
};

/* A node being ordered within its layer: by part, then key (its place in
 * the workflow, or its barycentre), then tie (its place before). */
struct gl_item {
	int node;
	int part;
	double key;
	int tie;
};

/* Adjacency lists: for node u, adj[start[u] .. start[u+1]) are to[e] (or
 * e itself when to is NULL) for the edges e from u, in edge order. */
static void gl_csr(int n, int m, const int *from, const int *to, int *start, int *adj)
{
	int *fill = xmalloc(((size_t)n + 1) * sizeof *fill);

	memset(start, 0, ((size_t)n + 1) * sizeof *start);
	for (int e = 0; e < m; e++)
		start[from[e] + 1]++;
	for (int u = 0; u < n; u++)
		start[u + 1] += start[u];
	memcpy(fill, start, (size_t)n * sizeof *fill);
	for (int e = 0; e < m; e++)
		adj[fill[from[e]]++] = to ? to[e] : e;
	free(fill);
}

static int *gl_ints(size_t n)
{
	return xcalloc(n ? n : 1, sizeof(int));
}

/* Marks the edges that close a cycle in a depth-first search from each
 * node in turn (an edge to a node still on the path). */
static void gl_back_edges(const struct gl_graph *g, char *back)
{
	int *start = gl_ints((size_t)g->n + 1), *adj = gl_ints((size_t)g->m);
	int *state = gl_ints((size_t)g->n), *stack = gl_ints((size_t)g->n);
	int *next = gl_ints((size_t)g->n);

	gl_csr(g->n, g->m, g->eu, NULL, start, adj);
	for (int r = 0; r < g->n; r++) {
		int sp = 0;

		if (state[r])
			continue;
		state[r] = 1, next[r] = start[r], stack[sp++] = r;
		while (sp > 0) {
			int u = stack[sp - 1], e, v;

			if (next[u] == start[u + 1]) {
				state[u] = 2, sp--;
				continue;
			}
			e = adj[next[u]++], v = g->ev[e];
			if (state[v] == 1)
				back[e] = 1;
			else if (state[v] == 0)
				state[v] = 1, next[v] = start[v], stack[sp++] = v;
		}
	}
	free(start), free(adj), free(state), free(stack), free(next);
}

static int gl_pair_cmp(const void *a, const void *b)
{
	const int *x = a, *y = b;

	return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Reverses the back edges, then keeps one edge per ordered pair. */
static void gl_acyclic(struct gl_graph *g)
{
	char *back = xcalloc((size_t)g->m + 1, 1);
	int *pairs = gl_ints(2 * (size_t)g->m), m = 0;

	gl_back_edges(g, back);
	g->reversed = 0;
	for (int e = 0; e < g->m; e++) {
		pairs[2 * e] = back[e] ? g->ev[e] : g->eu[e];
		pairs[2 * e + 1] = back[e] ? g->eu[e] : g->ev[e];
		g->reversed += back[e];
	}
	qsort(pairs, (size_t)g->m, 2 * sizeof *pairs, gl_pair_cmp);
	for (int e = 0; e < g->m; e++) {
		if (m > 0 && pairs[2 * e] == g->eu[m - 1] && pairs[2 * e + 1] == g->ev[m - 1])
			continue;
		g->eu[m] = pairs[2 * e], g->ev[m] = pairs[2 * e + 1], m++;
	}
	g->m = m;
	free(back), free(pairs);
}

/* Layers by longest path from the sources (Kahn's order), then each source
 * moved right next to its nearest consumer. Returns the number of layers. */
static int gl_layers(const struct gl_graph *g, int *layer)
{
	int *start = gl_ints((size_t)g->n + 1), *adj = gl_ints((size_t)g->m);
	int *indeg = gl_ints((size_t)g->n), *topo = gl_ints((size_t)g->n);
	int head = 0, tail = 0, nl = 1;

	gl_csr(g->n, g->m, g->eu, g->ev, start, adj);
	for (int e = 0; e < g->m; e++)
		indeg[g->ev[e]]++;
	for (int u = 0; u < g->n; u++)
		if (indeg[u] == 0)
			topo[tail++] = u;
	while (head < tail) {
		int u = topo[head++];

		for (int i = start[u]; i < start[u + 1]; i++) {
			int v = adj[i];

			if (layer[v] < layer[u] + 1)
				layer[v] = layer[u] + 1;
			if (--indeg[v] == 0)
				topo[tail++] = v;
		}
	}
	for (int e = 0; e < g->m; e++)
		indeg[g->ev[e]]++;
	for (int u = 0; u < g->n; u++) {
		int near = -1;

		for (int i = start[u]; i < start[u + 1]; i++)
			if (near < 0 || layer[adj[i]] < near)
				near = layer[adj[i]];
		if (indeg[u] == 0 && near > 0)
			layer[u] = near - 1;
		if (layer[u] + 1 > nl)
			nl = layer[u] + 1;
	}
	free(start), free(adj), free(indeg), free(topo);
	return nl;
}

static int gl_find(int *up, int a)
{
	while (up[a] != a)
		a = up[a] = up[up[a]];
	return a;
}

/* Connected parts (edges taken both ways), numbered in the order of their
 * first node. */
static void gl_parts(const struct gl_graph *g, int *part)
{
	int *up = gl_ints((size_t)g->n), *label = gl_ints((size_t)g->n), next = 0;

	for (int u = 0; u < g->n; u++)
		up[u] = u, label[u] = -1;
	for (int e = 0; e < g->m; e++) {
		int a = gl_find(up, g->eu[e]), b = gl_find(up, g->ev[e]);

		if (a != b)
			up[a > b ? a : b] = a > b ? b : a;
	}
	for (int u = 0; u < g->n; u++) {
		int r = gl_find(up, u);

		if (label[r] < 0)
			label[r] = next++;
		part[u] = label[r];
	}
	free(up), free(label);
}

static void gl_layered_build(struct gl_layered *p, const struct gl_graph *g, const int *layer,
			     int nl)
{
	p->n = g->n, p->nl = nl, p->m = g->m;
	p->layer = gl_ints((size_t)p->n), p->part = gl_ints((size_t)p->n);
	memcpy(p->layer, layer, (size_t)p->n * sizeof *layer);
	gl_parts(g, p->part);
	p->pstart = gl_ints((size_t)p->n + 1), p->padj = gl_ints((size_t)p->m);
	p->sstart = gl_ints((size_t)p->n + 1), p->sadj = gl_ints((size_t)p->m);
	gl_csr(p->n, p->m, g->eu, g->ev, p->sstart, p->sadj);
	gl_csr(p->n, p->m, g->ev, g->eu, p->pstart, p->padj);
}

static void gl_layered_free(struct gl_layered *p)
{
	free(p->layer), free(p->part);
	free(p->pstart), free(p->padj), free(p->sstart), free(p->sadj);
	free(p->lstart), free(p->order), free(p->pos);
}

static int gl_item_cmp(const void *a, const void *b)
{
	const struct gl_item *x = a, *y = b;

	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->tie > y->tie) - (x->tie < y->tie);
}

static void gl_sort_slice(struct gl_layered *p, int l, struct gl_item *it)
{
	int a = p->lstart[l], k = p->lstart[l + 1] - a;

	qsort(it, (size_t)k, sizeof *it, gl_item_cmp);
	for (int i = 0; i < k; i++)
		p->order[a + i] = it[i].node, p->pos[it[i].node] = i;
}

/* The first order: by part, then the workflow's order. */
static void gl_first_order(struct gl_layered *p, struct gl_item *it)
{
	int *fill = gl_ints((size_t)p->nl + 1);

	p->lstart = gl_ints((size_t)p->nl + 1), p->order = gl_ints((size_t)p->n);
	p->pos = gl_ints((size_t)p->n);
	for (int v = 0; v < p->n; v++)
		p->lstart[p->layer[v] + 1]++;
	for (int l = 0; l < p->nl; l++) {
		p->lstart[l + 1] += p->lstart[l];
		if (p->lstart[l + 1] - p->lstart[l] > p->widest)
			p->widest = p->lstart[l + 1] - p->lstart[l];
	}
	memcpy(fill, p->lstart, (size_t)p->nl * sizeof *fill);
	for (int v = 0; v < p->n; v++)
		p->order[fill[p->layer[v]]++] = v;
	for (int l = 0; l < p->nl; l++) {
		for (int i = p->lstart[l]; i < p->lstart[l + 1]; i++) {
			int v = p->order[i];

			it[i - p->lstart[l]] = (struct gl_item){ v, p->part[v], v, 0 };
		}
		gl_sort_slice(p, l, it);
	}
	free(fill);
}

/* Orders layer l by the barycentre of each node's neighbours in the layer
 * before (down) or after (up); a node without any keeps its place. Places
 * are taken as fractions of their layer's length, as layers differ. */
static void gl_sweep_layer(struct gl_layered *p, int l, int down, struct gl_item *it)
{
	const int *st = down ? p->pstart : p->sstart, *adj = down ? p->padj : p->sadj;

	double here = p->lstart[l + 1] - p->lstart[l];

	for (int i = p->lstart[l]; i < p->lstart[l + 1]; i++) {
		int v = p->order[i], cnt = st[v + 1] - st[v];
		double sum = 0;

		for (int j = st[v]; j < st[v + 1]; j++)
			sum += (p->pos[adj[j]] + 0.5) / (p->lstart[p->layer[adj[j]] + 1] -
							    p->lstart[p->layer[adj[j]]]);
		it[i - p->lstart[l]] = (struct gl_item){ v, p->part[v],
			cnt ? sum / cnt : (p->pos[v] + 0.5) / here, p->pos[v] };
	}
	gl_sort_slice(p, l, it);
}

long long gl_inversions(const int *seq, int len, int range, int *bit)
{
	long long inv = 0;

	memset(bit, 0, ((size_t)range + 1) * sizeof *bit);
	for (int j = 0; j < len; j++) {
		int le = 0;

		for (int i = seq[j] + 1; i > 0; i -= i & -i)
			le += bit[i];
		inv += j - le;
		for (int i = seq[j] + 1; i <= range; i += i & -i)
			bit[i]++;
	}
	return inv;
}

/* Crossings between every two adjacent layers: edges taken by their
 * source's place then their target's; each pair out of order crosses. */
static long long gl_crossings(const struct gl_layered *p, int *seq, int *bit)
{
	long long total = 0;

	for (int l = 0; l + 1 < p->nl; l++) {
		int len = 0;

		for (int i = p->lstart[l]; i < p->lstart[l + 1]; i++) {
			int u = p->order[i], first = len;

			for (int j = p->sstart[u]; j < p->sstart[u + 1]; j++) {
				int w = p->sadj[j], v = p->pos[w], k;

				if (p->layer[w] != l + 1)
					continue;
				k = len++;

				for (; k > first && seq[k - 1] > v; k--)
					seq[k] = seq[k - 1];
				seq[k] = v;
			}
		}
		total += gl_inversions(seq, len, p->lstart[l + 2] - p->lstart[l + 1], bit);
	}
	return total;
}

/* Crossings between the edges of u and those of v that go to layer
 * `other`, u being above v. */
static long long gl_pair_crossings(const struct gl_layered *p, int u, int v, int other)
{
	int before = other < p->layer[u];
	const int *st = before ? p->pstart : p->sstart, *adj = before ? p->padj : p->sadj;
	long long c = 0;

	for (int i = st[u]; i < st[u + 1]; i++)
		for (int j = st[v]; j < st[v + 1]; j++)
			c += p->layer[adj[i]] == other && p->layer[adj[j]] == other &&
			     p->pos[adj[i]] > p->pos[adj[j]];
	return c;
}

/* Swaps two neighbours of layer l wherever that crosses fewer edges. */
static int gl_transpose_layer(struct gl_layered *p, int l)
{
	int swapped = 0;

	for (int i = p->lstart[l]; i + 1 < p->lstart[l + 1]; i++) {
		int u = p->order[i], v = p->order[i + 1];

		if (p->part[u] != p->part[v])
			continue;
		if (gl_pair_crossings(p, v, u, l - 1) + gl_pair_crossings(p, v, u, l + 1) <
		    gl_pair_crossings(p, u, v, l - 1) + gl_pair_crossings(p, u, v, l + 1)) {
			p->order[i] = v, p->order[i + 1] = u;
			p->pos[v]--, p->pos[u]++;
			swapped = 1;
		}
	}
	return swapped;
}

/* Rounds of swaps after a sweep, until none helps. */
static void gl_transpose(struct gl_layered *p)
{
	for (int round = 0; round < GL_TRANSPOSE_ROUNDS; round++) {
		int any = 0;

		for (int l = 0; l < p->nl; l++)
			any |= gl_transpose_layer(p, l);
		if (!any)
			break;
	}
}

/* Down and up sweeps, each followed by swaps of neighbours, keeping the order with the fewest crossings. */
static void gl_reduce_crossings(struct gl_layered *p, struct gl_graph *g, struct gl_item *it)
{
	int *seq = gl_ints((size_t)p->m), *bit = gl_ints((size_t)p->widest + 1);
	int *best = gl_ints((size_t)p->n), idle = 0;
	long long best_c = gl_crossings(p, seq, bit);

	g->crossings0 = best_c;
	memcpy(best, p->order, (size_t)p->n * sizeof *best);
	for (int s = 0; s < GL_SWEEPS_MAX && best_c > 0 && idle < GL_SWEEPS_IDLE; s++) {
		long long c;

		if (s % 2 == 0)
			for (int l = 1; l < p->nl; l++)
				gl_sweep_layer(p, l, 1, it);
		else
			for (int l = p->nl - 2; l >= 0; l--)
				gl_sweep_layer(p, l, 0, it);
		gl_transpose(p);
		c = gl_crossings(p, seq, bit);
		if (c < best_c)
			best_c = c, idle = 0, memcpy(best, p->order, (size_t)p->n * sizeof *best);
		else
			idle++;
	}
	memcpy(p->order, best, (size_t)p->n * sizeof *best);
	for (int l = 0; l < p->nl; l++)
		for (int i = p->lstart[l]; i < p->lstart[l + 1]; i++)
			p->pos[p->order[i]] = i - p->lstart[l];
	g->crossings = best_c;
	free(seq), free(bit), free(best);
}

/* x: each layer starts where the one before ends (its widest node) plus a
 * gap; nodes of a layer share their left edge. */
static void gl_columns(const struct gl_layered *p, struct gl_graph *g)
{
	int *lw = gl_ints((size_t)p->nl), x = 0;

	for (int u = 0; u < g->n; u++)
		if (g->w[u] > lw[p->layer[u]])
			lw[p->layer[u]] = g->w[u];
	for (int l = 0; l < p->nl; l++) {
		int lx = x;

		x += lw[l] + GRAPH_LAYER_GAP;
		lw[l] = lx;
	}
	g->width = 0;
	for (int u = 0; u < g->n; u++) {
		g->x[u] = lw[p->layer[u]];
		if (g->x[u] + g->w[u] > g->width)
			g->width = g->x[u] + g->w[u];
	}
	free(lw);
}

/* The rows of a layer: its real nodes in order, cut into runs of one
 * connected part, each run placed on its own. */
struct gl_rows {
	int *ro, *rstart;     /* real nodes by layer: ro[rstart[l] .. rstart[l+1]) */
	int *nstart, *nadj;   /* every node's neighbours, both ways */
	double *yy;           /* n: top edges while aligning */
	double *t, *z, *off, *bsum; /* scratch, one run long */
	int *bcnt;
};

typedef void (*gl_run_fn)(struct gl_rows *r, struct gl_graph *g, int a, int b);

/* The nondecreasing z closest to t (least squares), by pooling adjacent
 * violators. */
static void gl_pav(const double *t, double *z, int k, double *sum, int *cnt)
{
	int nb = 0, i = 0;

	for (int j = 0; j < k; j++) {
		sum[nb] = t[j], cnt[nb] = 1, nb++;
		while (nb > 1 && sum[nb - 2] * cnt[nb - 1] > sum[nb - 1] * cnt[nb - 2]) {
			sum[nb - 2] += sum[nb - 1], cnt[nb - 2] += cnt[nb - 1];
			nb--;
		}
	}
	for (int b = 0; b < nb; b++)
		for (int j = 0; j < cnt[b]; j++)
			z[i++] = sum[b] / cnt[b];
}

static void gl_run_stack(struct gl_rows *r, struct gl_graph *g, int a, int b)
{
	double y = 0;

	for (int i = a; i < b; i++)
		r->yy[r->ro[i]] = y, y += g->h[r->ro[i]] + GRAPH_NODE_GAP;
}

/* Each node wants its middle level with the mean middle of its
 * neighbours; the run gets the tops closest to what its nodes want that
 * keep their order and gaps (top_i - offset_i nondecreasing, offset_i the
 * heights and gaps above node i). */
static void gl_run_align(struct gl_rows *r, struct gl_graph *g, int a, int b)
{
	double off = 0;

	for (int i = a; i < b; i++) {
		int v = r->ro[i], cnt = r->nstart[v + 1] - r->nstart[v];
		double want = r->yy[v], sum = 0;

		for (int j = r->nstart[v]; j < r->nstart[v + 1]; j++)
			sum += r->yy[r->nadj[j]] + g->h[r->nadj[j]] / 2.0;
		if (cnt)
			want = sum / cnt - g->h[v] / 2.0;
		r->off[i - a] = off, r->t[i - a] = want - off;
		off += g->h[v] + GRAPH_NODE_GAP;
	}
	gl_pav(r->t, r->z, b - a, r->bsum, r->bcnt);
	for (int i = a; i < b; i++)
		r->yy[r->ro[i]] = r->z[i - a] + r->off[i - a];
}

/* Whole pixels, the gaps kept whole too. */
static void gl_run_round(struct gl_rows *r, struct gl_graph *g, int a, int b)
{
	for (int i = a; i < b; i++) {
		int v = r->ro[i], y = (int)lround(r->yy[v]);

		if (i > a) {
			int u = r->ro[i - 1];

			if (y < g->y[u] + g->h[u] + GRAPH_NODE_GAP)
				y = g->y[u] + g->h[u] + GRAPH_NODE_GAP;
		}
		g->y[v] = y;
	}
}

static void gl_runs(struct gl_rows *r, const struct gl_layered *p, struct gl_graph *g, int l,
		    gl_run_fn fn)
{
	int a = r->rstart[l], end = r->rstart[l + 1];

	for (int i = a + 1; i <= end; i++)
		if (i == end || p->part[r->ro[i]] != p->part[r->ro[a]])
			fn(r, g, a, i), a = i;
}

/* Parts one below the other, each as tall as its nodes reach. */
static void gl_stack_parts(const struct gl_layered *p, struct gl_graph *g)
{
	int np = 0, cursor = 0, *top, *bot;

	for (int u = 0; u < g->n; u++)
		if (p->part[u] + 1 > np)
			np = p->part[u] + 1;
	top = gl_ints((size_t)np), bot = gl_ints((size_t)np);
	for (int c = 0; c < np; c++)
		top[c] = INT_MAX, bot[c] = INT_MIN;
	for (int u = 0; u < g->n; u++) {
		int c = p->part[u];

		top[c] = g->y[u] < top[c] ? g->y[u] : top[c];
		bot[c] = g->y[u] + g->h[u] > bot[c] ? g->y[u] + g->h[u] : bot[c];
	}
	for (int c = 0; c < np; c++) {
		int shift = cursor - top[c];

		cursor += bot[c] - top[c] + GRAPH_PART_GAP;
		top[c] = shift;
	}
	g->height = 0;
	for (int u = 0; u < g->n; u++) {
		g->y[u] += top[p->part[u]];
		if (g->y[u] + g->h[u] > g->height)
			g->height = g->y[u] + g->h[u];
	}
	free(top), free(bot);
}

static void gl_rows_init(struct gl_rows *r, const struct gl_layered *p, const struct gl_graph *g)
{
	int *from = gl_ints(2 * (size_t)g->m), *to = gl_ints(2 * (size_t)g->m), k = 0;
	size_t w = (size_t)p->widest;

	r->ro = gl_ints((size_t)g->n), r->rstart = gl_ints((size_t)p->nl + 1);
	for (int l = 0; l < p->nl; l++) {
		for (int i = p->lstart[l]; i < p->lstart[l + 1]; i++)
			r->ro[k++] = p->order[i];
		r->rstart[l + 1] = k;
	}
	for (int e = 0; e < g->m; e++) {
		from[e] = to[g->m + e] = g->eu[e];
		to[e] = from[g->m + e] = g->ev[e];
	}
	r->nstart = gl_ints((size_t)g->n + 1), r->nadj = gl_ints(2 * (size_t)g->m);
	gl_csr(g->n, 2 * g->m, from, to, r->nstart, r->nadj);
	r->yy = xcalloc((size_t)g->n, sizeof *r->yy);
	r->t = xcalloc(w, sizeof(double)), r->z = xcalloc(w, sizeof(double));
	r->off = xcalloc(w, sizeof(double)), r->bsum = xcalloc(w, sizeof(double));
	r->bcnt = gl_ints(w);
	free(from), free(to);
}

static void gl_rows_free(struct gl_rows *r)
{
	free(r->ro), free(r->rstart), free(r->nstart), free(r->nadj), free(r->yy);
	free(r->t), free(r->z), free(r->off), free(r->bsum), free(r->bcnt);
}

/* y: runs stacked from 0, pulled towards their neighbours in passes down
 * and up the layers, made whole, then the parts stacked. */
static void gl_rows(const struct gl_layered *p, struct gl_graph *g)
{
	struct gl_rows r;

	gl_rows_init(&r, p, g);
	for (int l = 0; l < p->nl; l++)
		gl_runs(&r, p, g, l, gl_run_stack);
	for (int pass = 0; pass < GL_ALIGN_PASSES; pass++)
		for (int i = 0; i < p->nl; i++)
			gl_runs(&r, p, g, pass % 2 ? p->nl - 1 - i : i, gl_run_align);
	for (int l = 0; l < p->nl; l++)
		gl_runs(&r, p, g, l, gl_run_round);
	gl_stack_parts(p, g);
	gl_rows_free(&r);
}

void gl_core(struct gl_graph *g)
{
	int *layer = gl_ints((size_t)g->n), nl;
	struct gl_layered p = { 0 };
	struct gl_item *it;

	if (g->n == 0) {
		g->width = g->height = 0, g->reversed = 0, g->crossings = g->crossings0 = 0;
		free(layer);
		return;
	}
	gl_acyclic(g);
	nl = gl_layers(g, layer);
	gl_layered_build(&p, g, layer, nl);
	it = xmalloc((size_t)p.n * sizeof *it);
	gl_first_order(&p, it);
	gl_reduce_crossings(&p, g, it);
	gl_columns(&p, g);
	gl_rows(&p, g);
	free(it), free(layer);
	gl_layered_free(&p);
}
