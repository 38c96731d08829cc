/*
 * context.h - the model's context of one cluster: what the model keeps
 * for as long as a cluster lives, as kube's scheduler cache keeps each
 * NodeInfo's per-pod requests (reference §2.7 "Node bookkeeping") for as
 * long as the pods exist.  Today that is the pod table: PodRequests and
 * NonZero of every pod, functions of the pod objects alone
 * (pod_requests.h); the node tree's order (node_tree.c), a function of
 * the nodes alone, as kube's cache keeps its nodeTree; and the one
 * scratch arena of the cycles run with it
 * (core/arena.h: marked and reset around each use), so a context belongs
 * to one thread.
 *
 * A caller that runs many cycles on one cluster (the enumerator, the
 * scheduler loop's invariant checks) keeps one and lends it through
 * struct model_given (model.h); a cycle given none builds its own.
 */
#ifndef KSO_MODEL_CONTEXT_H
#define KSO_MODEL_CONTEXT_H

#include "pod_requests.h"
#include "../core/arena.h"

struct model_context {
	const struct cluster *cluster;
	struct model_pod_table pods;   /* every pod's row, filled at init */
	/* NodeTree == model_node_tree_order(cluster) (reference §1.4): the
	 * order of the snapshot's node list, a function of the nodes alone,
	 * which kube's cache keeps as its nodeTree while the nodes live */
	int *node_tree;                /* [cluster->n_nodes] */
	struct arena scratch;          /* the cycles' scratch, one block ready */
};

/* model_context_init: the context of c (c must outlive it); pair with
 * model_context_release. */
void model_context_init(struct model_context *x, const struct cluster *c);

/* model_context_release: frees what x owns. */
void model_context_release(struct model_context *x);

#endif
