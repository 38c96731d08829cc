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
 *                      cpu / memory request 100m / 200Mi, without the
 *                      pod-level requests (v1.34.1's Fit scorer skips them).
 * and the node-side aggregates over the pods a placement puts on a node.
 */
#ifndef KSO_POD_REQUESTS_H
#define KSO_POD_REQUESTS_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "../core/go_int.h"
#include "../core/objects.h"
#include "../core/snapshot.h"

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

/* Every pod's PodRequests, NonZero and ScoreRequest, worked out once from
 * quantities
 * when the table is made: kube's NodeInfo caches them per pod
 * (reference §1.2).  They are functions of the pod objects alone, which
 * never change while a cluster lives, so a table stays right for its
 * cluster whatever the placement (a model context, context.h, keeps one
 * for as long as the cluster).  Read-only once made.  Owns its arrays:
 * pair model_pod_table_init with model_pod_table_release. */
struct model_pod_table {
	const struct cluster *cluster;
	int64_t *req;        /* [n_pods * n_res] PodRequests rows */
	int64_t *nonzero;    /* [n_pods * 2] NonZero cpu, memory */
	int64_t *score;      /* [n_pods * n_res] ScoreRequest rows */
};

/* model_pod_table_init: the table of c, every row filled; aborts on
 * out-of-memory. */
void model_pod_table_init(struct model_pod_table *t, const struct cluster *c);

/* model_pod_table_release: frees what t owns. */
void model_pod_table_release(struct model_pod_table *t);

/* model_pod_table_get: PodRequests of pod p (n_res entries, owned by t,
 * = model_pod_requests); *nz_cpu / *nz_mem (when not NULL) its NonZero
 * (= model_pod_nonzero).  Inline: read for every pod on every node of
 * every Filter and Score call. */
static inline const int64_t *model_pod_table_get(const struct model_pod_table *t,
						 int p, int64_t *nz_cpu,
						 int64_t *nz_mem)
{
	assert(t && p >= 0 && p < t->cluster->n_pods);
	const int64_t *nz = t->nonzero + 2 * (size_t)p;
	if (nz_cpu)
		*nz_cpu = nz[0];
	if (nz_mem)
		*nz_mem = nz[1];
	return t->req + (size_t)p * (size_t)t->cluster->n_res;
}

/* model_pod_table_score: ScoreRequest of pod p (n_res entries, owned by
 * t, = model_pod_score_request). */
static inline const int64_t *model_pod_table_score(const struct model_pod_table *t,
						   int p)
{
	assert(t && p >= 0 && p < t->cluster->n_pods);
	return t->score + (size_t)p * (size_t)t->cluster->n_res;
}

/* model_node_requested: NodeInfo bookkeeping of node on placement s, summed
 * over the pods s puts there: requested[0..n_res-1] = Σ PodRequests,
 * *nonzero_cpu / *nonzero_mem = Σ NonZeroRequested, *pod_count = number of
 * pods.  Each pod's integers come from t (a table made for s->cluster), or
 * are worked out literally when t is NULL (the definition; lemma: the
 * same values either way, as t's rows are model_pod_requests and
 * model_pod_nonzero).
 * Any output pointer except requested may be NULL. */
void model_node_requested(const struct model_pod_table *t, const struct snapshot *s,
			  int node, int64_t *requested, int64_t *nonzero_cpu,
			  int64_t *nonzero_mem, int *pod_count);

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

/* Go's int64 + - * (core/go_int.h): the scorers and the bookkeeping use
 * these so a huge allocatable gives kube's (wrapped) answer rather than
 * undefined behaviour. */
static inline int64_t model_go_add(int64_t a, int64_t b)
{
	return go_add(a, b);
}

static inline int64_t model_go_sub(int64_t a, int64_t b)
{
	return go_sub(a, b);
}

static inline int64_t model_go_mul(int64_t a, int64_t b)
{
	return go_mul(a, b);
}

#endif
