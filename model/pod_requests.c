/*
 * pod_requests.c - PodRequests, NonZeroRequested, the scorers' request and
 * the node bookkeeping (reference §2.7, §4; see pod_requests.h).
 */
#include "pod_requests.h"

#include <assert.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Whether entry i of l is the first for its resource: resource_list_get
 * reads the first, so a later duplicate is not part of the list. */
static bool first_entry(const struct resource_list *l, int i)
{
	for (int j = 0; j < i; j++)
		if (l->items[j].res == l->items[i].res)
			return false;
	return true;
}

/* acc[r] += requests[r] of container k for every resource r; with
 * defaults a missing cpu / memory entry reads as 100m / 200Mi
 * (applyNonMissing: an explicit 0 stays 0).  Only listed (or defaulted)
 * resources are added: adding a missing entry's 0 changes nothing. */
static void add_container(struct quantity *acc, int n_res,
			  const struct container *k, bool defaults)
{
	const struct resource_list *l = &k->requests;
	bool cpu = false, mem = false;
	for (int i = 0; i < l->n; i++) {
		if (!first_entry(l, i))
			continue;
		int r = l->items[i].res;
		assert(r >= 0 && r < n_res);
		acc[r] = qadd(acc[r], l->items[i].q);
		cpu = cpu || r == RES_CPU;
		mem = mem || r == RES_MEMORY;
	}
	struct quantity d;
	if (defaults && !cpu && nonmissing_default(RES_CPU, &d))
		acc[RES_CPU] = qadd(acc[RES_CPU], d);
	if (defaults && !mem && nonmissing_default(RES_MEMORY, &d))
		acc[RES_MEMORY] = qadd(acc[RES_MEMORY], d);
}

/* Requests of at most this many resources are summed on the stack. */
#define REQ_STACK_RES 32

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
 * Every resource in one walk over the containers, each resource's terms
 * added in container order as the definition reads.
 */
static void pod_requests_exact(const struct cluster *c, const struct pod *p,
			       bool defaults, int64_t *out)
{
	size_t nr = (size_t)c->n_res;
	struct quantity stack[3 * REQ_STACK_RES];
	struct quantity *buf = nr <= REQ_STACK_RES ? stack
			       : xmalloc(3 * nr * sizeof *buf);
	struct quantity *sum = buf, *sidecars = buf + nr, *init_max = buf + 2 * nr;
	for (size_t r = 0; r < 3 * nr; r++)
		buf[r] = QZERO;
	for (int i = 0; i < p->n_containers; i++)
		add_container(sum, c->n_res, &p->containers[i], defaults);
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		if (k->restart_always) {
			add_container(sum, c->n_res, k, defaults);
			add_container(sidecars, c->n_res, k, defaults);
			for (size_t r = 0; r < nr; r++)
				init_max[r] = qmax(init_max[r], sidecars[r]);
			continue;
		}
		for (size_t r = 0; r < nr; r++) {
			bool found;
			struct quantity q =
				resource_list_get(&k->requests, (int)r, &found);
			if (!found && defaults)
				nonmissing_default((int)r, &q);
			init_max[r] = qmax(init_max[r], qadd(q, sidecars[r]));
		}
	}
	for (size_t r = 0; r < nr; r++)
		sum[r] = qmax(sum[r], init_max[r]);
	const struct resource_list *over = &p->overhead;
	for (int i = 0; i < over->n; i++) {
		int r = over->items[i].res;
		assert(r >= 0 && r < c->n_res);
		if (first_entry(over, i))
			sum[r] = qadd(sum[r], over->items[i].q);
	}
	for (size_t r = 0; r < nr; r++)
		out[r] = qconvert(sum[r], (int)r);
	if (buf != stack)
		free(buf);
}

void model_pod_requests(const struct cluster *c, const struct pod *p,
			int64_t *out)
{
	assert(c && p && out);
	pod_requests_exact(c, p, false, out);
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
	pod_requests_exact(c, p, true, out);
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

/* The same definitions as model_node_requested, for every node in one
 * walk over the pods: pod p's row is added to node pod_node[p]'s. */
void model_usage_init(struct model_usage *u, const struct snapshot *s)
{
	assert(u && s && s->cluster);
	const struct cluster *c = s->cluster;
	size_t nn = (size_t)c->n_nodes, np = (size_t)c->n_pods;
	size_t nr = (size_t)c->n_res;
	/* one block: pod rows, node rows, the two NonZero columns, then the
	 * pod counts (ints after int64s stay aligned) */
	size_t words = np * nr + nn * nr + 2 * nn + (nn + 1) / 2;
	int64_t *block = xcalloc(words + 1, sizeof *block);
	u->n_nodes = c->n_nodes;
	u->n_pods = c->n_pods;
	u->n_res = c->n_res;
	u->pod_req = block;
	u->requested = u->pod_req + np * nr;
	u->nonzero_cpu = u->requested + nn * nr;
	u->nonzero_mem = u->nonzero_cpu + nn;
	u->pod_count = (int *)(u->nonzero_mem + nn);
	for (int p = 0; p < c->n_pods; p++) {
		const struct pod *pod = &c->pods[p];
		int64_t *one = u->pod_req + (size_t)p * nr;
		model_pod_requests(c, pod, one);
		int n = s->pod_node[p];
		if (n < 0)
			continue;
		assert(n < c->n_nodes);
		int64_t *req = u->requested + (size_t)n * nr;
		for (size_t r = 0; r < nr; r++)
			req[r] = model_go_add(req[r], one[r]);
		int64_t cpu, mem;
		model_pod_nonzero(c, pod, &cpu, &mem);
		u->nonzero_cpu[n] = model_go_add(u->nonzero_cpu[n], cpu);
		u->nonzero_mem[n] = model_go_add(u->nonzero_mem[n], mem);
		u->pod_count[n]++;
	}
}

void model_usage_release(struct model_usage *u)
{
	assert(u);
	free(u->pod_req);
	memset(u, 0, sizeof *u);
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
