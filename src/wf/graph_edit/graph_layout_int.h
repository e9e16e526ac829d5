/* Inside the workflow layout: the layered algorithm on a graph of
 * numbered nodes (graph_layout_core.c), shared with the JSON side
 * (graph_layout.c), which maps ids to numbers and writes positions. */
#ifndef AV_GRAPH_LAYOUT_INT_H
#define AV_GRAPH_LAYOUT_INT_H

struct gl_graph {
	int n;          /* nodes 0..n-1, in the workflow's order */
	const int *w;   /* node widths (borrowed, n, each >= 1) */
	const int *h;   /* node heights (borrowed, n, each >= 1) */
	int m;          /* edges: m, eu[i] -> ev[i], both in 0..n-1, eu != ev */
	int *eu, *ev;   /* owned by the caller; gl_core reverses and merges
			 * them in place and updates m */
	/* Results: */
	int *x, *y;     /* the caller's arrays of n: top-left corners; the
			 * smallest x and the smallest y are 0 */
	int width;      /* the extent of the boxes */
	int height;
	int reversed;   /* edges reversed to break cycles */
	long long crossings0; /* crossings between adjacent layers in the
			       * first order (the workflow's order) */
	long long crossings;  /* in the order kept */
};

/* Lays out g: fills x, y, width, height, reversed, crossings*. */
void gl_core(struct gl_graph *g);

/* Pairs i < j with seq[i] > seq[j]; values in 0..range-1; bit is scratch
 * of range + 1 ints. */
long long gl_inversions(const int *seq, int len, int range, int *bit);

#endif
