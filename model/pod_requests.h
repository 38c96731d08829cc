/*
 * pod_requests.h - what a pod asks of a node and what a node has given
 * away (reference §2.7 "Pod request", "Node bookkeeping", and the Score's
 * pod-side request; §4 for the rounding).
 *
 * Three pod-side rules, all per resource index of cluster.res_names:
 *   PodRequests        exact sums with sidecars, the init max rule and
 *                      overhead, rounded once per pod;
 *   NonZeroRequested   cpu/memory with 100m / 200Mi for missing entries,
 *                      rounded per container (the v1.30 bookkeeping);
 *   ScoreRequest       PodRequests after giving containers that lack a
 *                      cpu / memory request 100m / 200Mi.
 * and the node-side aggregates over the pods a placement puts on a node.
 */
#ifndef KSO_POD_REQUESTS_H
#define KSO_POD_REQUESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "objects.h"
#include "snapshot.h"

/* schedutil.DefaultMilliCPURequest / DefaultMemoryRequest. */
#define MODEL_DEFAULT_MILLI_CPU 100
#define MODEL_DEFAULT_MEMORY 209715200   /* 200 * 1024 * 1024 */

/* model_pod_requests: PodRequests(p) for every resource of c into
 * out[0..c->n_res-1]: cpu as MilliValue, everything else as Value, 0 for
 * resources the pod does not list.  A total that does not fit in int64
 * saturates at INT64_MAX (the loader keeps quantities far below that). */
void model_pod_requests(const struct cluster *c, const struct pod *p,
			int64_t *out);

/* model_pod_nonzero: the pod's contribution to NodeInfo.NonZeroRequested
 * (cpu in millicores, memory in bytes). */
void model_pod_nonzero(const struct cluster *c, const struct pod *p,
		       int64_t *cpu, int64_t *mem);

/* model_pod_score_request: the pod-side request NodeResourcesFit's scorers
 * use (useRequested=false) for every resource into out[0..c->n_res-1]. */
void model_pod_score_request(const struct cluster *c, const struct pod *p,
			     int64_t *out);

/* model_node_requested: NodeInfo bookkeeping of node on placement s, summed
 * literally over the pods s puts there: requested[0..n_res-1] = Σ
 * PodRequests, *nonzero_cpu / *nonzero_mem = Σ NonZeroRequested, *pod_count
 * = number of pods.  Any output pointer except requested may be NULL. */
void model_node_requested(const struct snapshot *s, int node,
			  int64_t *requested, int64_t *nonzero_cpu,
			  int64_t *nonzero_mem, int *pod_count);

/* Every node's bookkeeping on one placement at once (and every pod's
 * PodRequests on the way): row n of each array is what
 * model_node_requested(s, n, ...) gives, summed over the pods in the same
 * (pod index) order, but each pod is converted from quantities once
 * instead of once per node look-up.  A snapshot of s when it was computed:
 * it does not follow later changes of s.  Owns one malloc'ed block. */
struct model_usage {
	int n_nodes, n_pods, n_res;
	int64_t *pod_req;       /* [n_pods * n_res] PodRequests of every pod */
	int64_t *requested;     /* [n_nodes * n_res] Requested */
	int64_t *nonzero_cpu;   /* [n_nodes] NonZeroRequested.MilliCPU */
	int64_t *nonzero_mem;   /* [n_nodes] NonZeroRequested.Memory */
	int *pod_count;         /* [n_nodes] pods on the node */
};

/* model_usage_init: u becomes the bookkeeping of every node of s.  Pair
 * with model_usage_release; aborts on out-of-memory. */
void model_usage_init(struct model_usage *u, const struct snapshot *s);

/* model_usage_release: frees what u owns. */
void model_usage_release(struct model_usage *u);

/* model_usage_pod / model_usage_node: row p of pod_req / row n of
 * requested (n_res entries each), owned by u. */
static inline const int64_t *model_usage_pod(const struct model_usage *u,
					     int p)
{
	return u->pod_req + (size_t)p * (size_t)u->n_res;
}

static inline const int64_t *model_usage_node(const struct model_usage *u,
					      int n)
{
	return u->requested + (size_t)n * (size_t)u->n_res;
}

/* The node bookkeeping the resource scorers read (model_node_requested's
 * outputs for one node). */
struct model_node_usage {
	const int64_t *requested;   /* [n_res] Requested */
	int64_t nonzero_cpu;        /* NonZeroRequested.MilliCPU */
	int64_t nonzero_mem;        /* NonZeroRequested.Memory */
};

/* model_alloc_request: resourceAllocationScorer's per-resource inputs for
 * resource index res (-1: a name no object uses) on node n, given the
 * pod-side request pod_req: *alloc = allocatable and *req = node usage +
 * pod_req, with NonZeroRequested for cpu/memory unless use_requested.
 * *alloc = *req = 0 when the resource is skipped (a scalar the pod does
 * not request, a scalar the node does not list, pods, ignored names). */
void model_alloc_request(const struct cluster *c, const struct node *n,
			 int res, int64_t pod_req, bool use_requested,
			 const struct model_node_usage *u,
			 int64_t *alloc, int64_t *req);

/* Go's int64 + - * wrap around on overflow where C's are undefined; the
 * scorers and the bookkeeping use these so a huge allocatable gives kube's
 * (wrapped) answer rather than undefined behaviour. */
static inline int64_t model_go_add(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static inline int64_t model_go_sub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static inline int64_t model_go_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

#endif
