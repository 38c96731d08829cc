/*
 * node_fill.c - each node's allocatable and what the pods on it request,
 * before and after a run (see node_fill.h; reference §2.7 "Node
 * bookkeeping": the sums NodeResourcesFit compares with allocatable,
 * model_node_requested's, added up in one pass over the pods rather
 * than one pass per node).
 */
#include "node_fill.h"

#include <assert.h>
#include <stdlib.h>

#include "../core/xalloc.h"
#include "../model/pod_requests.h"

/* What s's pods request of each node: sum[n * n_res + r], count[n]. */
struct fill {
	int64_t *sum;
	int *count;
};

static void fill_init(struct fill *f, const struct model_pod_table *t,
		      const struct snapshot *s)
{
	const struct cluster *c = s->cluster;
	size_t n_res = (size_t)c->n_res;
	f->sum = xcalloc((size_t)c->n_nodes * n_res + 1, sizeof *f->sum);
	f->count = xcalloc((size_t)c->n_nodes + 1, sizeof *f->count);
	for (int p = 0; p < c->n_pods; p++) {
		int n = s->pod_node[p];
		if (n < 0)
			continue;
		const int64_t *one = model_pod_table_get(t, p, NULL, NULL);
		int64_t *row = f->sum + (size_t)n * n_res;
		for (size_t r = 0; r < n_res; r++)
			row[r] = model_go_add(row[r], one[r]);
		f->count[n]++;
	}
}

static void fill_release(struct fill *f)
{
	free(f->sum);
	free(f->count);
}

/* Node n's allocatable resources with what f has on it ("pods": how
 * many pods). */
static void json_requested(struct json_out *j, const struct cluster *c,
			   const struct fill *f, int n)
{
	const struct node *node = &c->nodes[n];
	const int64_t *row = f->sum + (size_t)n * (size_t)c->n_res;
	json_begin_object(j);
	for (int i = 0; i < node->allocatable.n; i++) {
		int res = node->allocatable.items[i].res;
		json_key(j, c->res_names[res]);
		json_int(j, res == RES_PODS ? f->count[n] : row[res]);
	}
	json_end_object(j);
}

void cli_json_node_fill(struct json_out *j, const struct snapshot *before,
			const struct snapshot *after)
{
	assert(j && before && after && before->cluster == after->cluster);
	const struct cluster *c = before->cluster;
	struct model_pod_table t;
	model_pod_table_init(&t, c);
	struct fill fb, fa;
	fill_init(&fb, &t, before);
	fill_init(&fa, &t, after);
	json_begin_array(j);
	for (int n = 0; n < c->n_nodes; n++) {
		const struct node *node = &c->nodes[n];
		json_begin_object(j);
		json_key(j, "name");
		json_string(j, node->name);
		json_key(j, "allocatable");
		json_begin_object(j);
		for (int i = 0; i < node->allocatable.n; i++) {
			json_key(j, c->res_names[node->allocatable.items[i].res]);
			json_int(j, node->allocatable.items[i].value);
		}
		json_end_object(j);
		json_key(j, "requested_before");
		json_requested(j, c, &fb, n);
		json_key(j, "requested_after");
		json_requested(j, c, &fa, n);
		json_end_object(j);
	}
	json_end_array(j);
	fill_release(&fb);
	fill_release(&fa);
	model_pod_table_release(&t);
}
