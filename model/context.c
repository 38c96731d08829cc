/*
 * context.c - the model's context of one cluster (see context.h;
 * NodeInfo's cached requests, reference §2.7 "Node bookkeeping").
 */
#include "context.h"
#include "model.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdlib.h>

void model_context_init(struct model_context *x, const struct cluster *c)
{
	assert(x && c);
	x->cluster = c;
	model_pod_table_init(&x->pods, c);
	x->node_tree = xmalloc(sizeof *x->node_tree * ((size_t)c->n_nodes + 1));
	model_node_tree_order(c, x->node_tree);
	arena_init(&x->scratch);
	/* the first block now, so that a cycle's reset never frees it */
	(void)arena_take(&x->scratch, 1);
}

void model_context_release(struct model_context *x)
{
	assert(x);
	model_pod_table_release(&x->pods);
	free(x->node_tree);
	arena_release(&x->scratch);
}
