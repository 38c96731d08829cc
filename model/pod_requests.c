/*
 * pod_requests.c - PodRequests, NonZeroRequested, the scorers' request and
 * the node bookkeeping (reference §2.7, §4; see pod_requests.h).
 */
#include "pod_requests.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "quirks.h"
#include "xalloc.h"

static const struct quantity QZERO = {0, 0};
static const struct quantity QSATURATED = {INT64_MAX, 0};

/* Exact sum; the loader keeps quantities small, so overflow only saturates
 * (and then converts to INT64_MAX). */
static struct quantity qadd(struct quantity a, struct quantity b)
{
	struct quantity r;
	if (quantity_add(a, b, &r) != 0)
		return QSATURATED;
	return r;
}

static struct quantity qmax(struct quantity a, struct quantity b)
{
	return quantity_cmp(a, b) >= 0 ? a : b;
}

/* Quantity -> int64 as kube reads it: cpu MilliValue, others Value. */
static int64_t qconvert(struct quantity q, int res)
{
	int64_t v;
	int rc = res == RES_CPU ? quantity_milli(q, &v) : quantity_value(q, &v);
	return rc == 0 ? v : INT64_MAX;
}

/* The NonMissingContainerRequests default for res, if it has one. */
static bool nonmissing_default(int res, struct quantity *out)
{
	if (res == RES_CPU) {
		*out = (struct quantity){0, MODEL_DEFAULT_MILLI_CPU * 1000000};
		return true;
	}
	if (res == RES_MEMORY) {
		*out = (struct quantity){MODEL_DEFAULT_MEMORY, 0};
		return true;
	}
	return false;
}

/* requests[res] of container k; with defaults, a missing cpu / memory
 * entry reads as 100m / 200Mi (applyNonMissing: an explicit 0 stays 0). */
static struct quantity container_request(const struct container *k, int res,
					 bool defaults)
{
	bool found;
	struct quantity q = resource_list_get(&k->requests, res, &found);
	if (!found && defaults)
		nonmissing_default(res, &q);
	return q;
}

/*
 * PodRequests(Pod)[r] ==
 *   LET Main   == Σ_{c ∈ Pod.Spec.Containers} c.Requests[r]
 *       Side(i) == Σ_{j ≤ i, Init[j] sidecar} Init[j].Requests[r]
 *       Use(i)  == IF Init[i] sidecar THEN Side(i)
 *                  ELSE Init[i].Requests[r] + Side(i - 1)
 *   IN Max({Main + Side(Len(Init))} ∪ {Use(i) : i ∈ DOMAIN Init})
 *      + Pod.Spec.Overhead[r]
 * summed exactly, converted once (cpu MilliValue, others Value).
 * Seed (004 §1.2, reference §5 (c)) checks max(init) and sum(main)
 * separately against allocatable; v1.30 combines them, counts sidecars
 * (restartPolicy Always init containers) in both terms and adds overhead.
 */
static struct quantity pod_request_exact(const struct pod *p, int res,
					 bool defaults)
{
	struct quantity sum = QZERO, sidecars = QZERO, init_max = QZERO;
	for (int i = 0; i < p->n_containers; i++)
		sum = qadd(sum, container_request(&p->containers[i], res, defaults));
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct quantity q = container_request(k, res, defaults), use;
		if (k->restart_always) {
			sum = qadd(sum, q);
			sidecars = qadd(sidecars, q);
			use = sidecars;
		} else {
			use = qadd(q, sidecars);
		}
		init_max = qmax(init_max, use);
	}
	struct quantity total = qmax(sum, init_max);
	bool found;
	struct quantity over = resource_list_get(&p->overhead, res, &found);
	if (found)
		total = qadd(total, over);
	return total;
}

void model_pod_requests(const struct cluster *c, const struct pod *p,
			int64_t *out)
{
	assert(c && p && out);
	for (int r = 0; r < c->n_res; r++)
		out[r] = qconvert(pod_request_exact(p, r, false), r);
}

/*
 * ScoreRequest(Pod)[r] == PodRequests(Pod')[r] where Pod' gives every
 * container (regular, init and sidecar) lacking a cpu request 100m and
 * lacking a memory request 200Mi.  The seed has no resource scoring.
 */
void model_pod_score_request(const struct cluster *c, const struct pod *p,
			     int64_t *out)
{
	assert(c && p && out);
	for (int r = 0; r < c->n_res; r++)
		out[r] = qconvert(pod_request_exact(p, r, true), r);
}

/* A resource list reduced to one resource: its exact value and whether
 * the key is present (NonZero reads presence, not value). */
struct keyed {
	struct quantity q;
	bool found;
};

static struct keyed keyed_add(struct keyed a, struct keyed b)
{
	return (struct keyed){qadd(a.q, b.q), a.found || b.found};
}

/* GetNonzeroRequests for one resource of one list: missing -> default,
 * present (even 0) -> rounded value. */
static int64_t nonzero_of(struct keyed k, int res)
{
	if (k.found)
		return qconvert(k.q, res);
	return res == RES_CPU ? MODEL_DEFAULT_MILLI_CPU : MODEL_DEFAULT_MEMORY;
}

static struct keyed keyed_request(const struct container *k, int res)
{
	struct keyed out;
	out.q = resource_list_get(&k->requests, res, &out.found);
	return out;
}

/*
 * NonZero(Pod)[r], r ∈ {cpu, memory} ==
 *   LET NZ(L) == IF r ∈ DOMAIN L THEN Round(L[r]) ELSE Default[r]
 *       S == Σ_{c ∈ Pod.Spec.Containers} NZ(c.Requests)
 *       I == Max({0} ∪ {NZ(List(i)) : i ∈ DOMAIN Init})
 *            (List(i) = the cumulative sidecar list for a sidecar, the
 *             init container's list + earlier sidecars otherwise)
 *   IN Max(S, I) + Round(Pod.Spec.Overhead[r])   (if overhead lists r)
 * Rounded per container, not per pod.  Not in the seed.
 */
static int64_t pod_nonzero(const struct pod *p, int res)
{
	int64_t s = 0, init = 0;
	/* v1.30 quirk (reference §2.7, §7; MODEL_QUIRK_NONZERO_IGNORES_SIDECARS):
	 * sidecars are NOT added to S here, although PodRequests adds them to
	 * the container sum.  They only enter through I, via the cumulative
	 * sidecar lists. */
	for (int i = 0; i < p->n_containers; i++)
		s = model_go_add(s, nonzero_of(keyed_request(&p->containers[i], res), res));
	struct keyed sidecars = {QZERO, false};
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct keyed own = keyed_request(k, res), list;
		if (k->restart_always) {
			if (!MODEL_QUIRK_NONZERO_IGNORES_SIDECARS)
				s = model_go_add(s, nonzero_of(own, res));
			sidecars = keyed_add(sidecars, own);
			list = sidecars;
		} else {
			list = keyed_add(own, sidecars);
		}
		int64_t v = nonzero_of(list, res);
		if (v > init)
			init = v;
	}
	int64_t total = s >= init ? s : init;
	bool found;
	struct quantity over = resource_list_get(&p->overhead, res, &found);
	if (found)
		total = model_go_add(total, qconvert(over, res));
	return total;
}

void model_pod_nonzero(const struct cluster *c, const struct pod *p,
		       int64_t *cpu, int64_t *mem)
{
	assert(c && p && cpu && mem);
	*cpu = pod_nonzero(p, RES_CPU);
	*mem = pod_nonzero(p, RES_MEMORY);
}

/*
 * Requested(Node, S)[r]  == Σ_{Pod : BoundTo(Pod, Node, S)} PodRequests(Pod)[r]
 * NonZeroRequested(Node, S)[r] == Σ_{Pod : BoundTo(Pod, Node, S)} NonZero(Pod)[r]
 * Pods(Node, S) == Cardinality({Pod : BoundTo(Pod, Node, S)})
 * Each pod is converted to integers on its own before summing (kube's
 * NodeInfo.AddPod); the sums wrap like Go int64.
 */
void model_node_requested(const struct snapshot *s, int node,
			  int64_t *requested, int64_t *nonzero_cpu,
			  int64_t *nonzero_mem, int *pod_count)
{
	assert(s && s->cluster && requested);
	const struct cluster *c = s->cluster;
	assert(node >= 0 && node < c->n_nodes);
	int64_t *one = xcalloc((size_t)c->n_res, sizeof *one);
	int64_t nz_cpu = 0, nz_mem = 0;
	int count = 0;
	for (int r = 0; r < c->n_res; r++)
		requested[r] = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (!snapshot_on_node(s, p, node))
			continue;
		const struct pod *pod = &c->pods[p];
		model_pod_requests(c, pod, one);
		for (int r = 0; r < c->n_res; r++)
			requested[r] = model_go_add(requested[r], one[r]);
		int64_t cpu, mem;
		model_pod_nonzero(c, pod, &cpu, &mem);
		nz_cpu = model_go_add(nz_cpu, cpu);
		nz_mem = model_go_add(nz_mem, mem);
		count++;
	}
	free(one);
	if (nonzero_cpu)
		*nonzero_cpu = nz_cpu;
	if (nonzero_mem)
		*nonzero_mem = nz_mem;
	if (pod_count)
		*pod_count = count;
}

/*
 * AllocReq(Node, r, PodReq) ==
 *   CASE r scalar /\ PodReq = 0   -> <<0, 0>>
 *     [] r = cpu               -> <<A[cpu], U[cpu] + PodReq>>
 *     [] r = memory            -> <<A[memory], U[memory] + PodReq>>
 *     [] r = ephemeral-storage -> <<A[eph], Requested[eph] + PodReq>>
 *     [] r scalar /\ r \in DOMAIN A -> <<A[r], Requested[r] + PodReq>>
 *     [] OTHER                 -> <<0, 0>>
 * with U = NonZeroRequested, or Requested when useRequested.
 */
void model_alloc_request(const struct cluster *c, const struct node *n,
			 int res, int64_t pod_req, bool use_requested,
			 const struct model_node_usage *u,
			 int64_t *alloc, int64_t *req)
{
	assert(c && n && u && alloc && req);
	*alloc = 0;
	*req = 0;
	if (res < 0)
		return;
	bool scalar = c->res_class[res] == RESCLASS_SCALAR;
	if (pod_req == 0 && scalar)
		return;
	int64_t used;
	bool found;
	int64_t a = resource_values_get(&n->allocatable, res, &found);
	if (res == RES_CPU)
		used = use_requested ? u->requested[res] : u->nonzero_cpu;
	else if (res == RES_MEMORY)
		used = use_requested ? u->requested[res] : u->nonzero_mem;
	else if (res == RES_EPHEMERAL || (scalar && found))
		used = u->requested[res];
	else
		return;
	*alloc = a;
	*req = model_go_add(used, pod_req);
}
