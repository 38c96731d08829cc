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

#include "../core/go_quantity.h"
#include "../core/quirks.h"
#include "../core/xalloc.h"

/* Sums are Quantity.Add's: exact, in the representation apimachinery
 * keeps, so a total past int64 converts as Go's does
 * (core/go_quantity.h). */
static struct go_quantity qadd(struct go_quantity a, struct quantity b)
{
	return go_quantity_add(a, go_quantity_of(b));
}

/* maxResourceList: the new value only when greater. */
static struct go_quantity qmax(struct go_quantity a, struct go_quantity b)
{
	return go_quantity_cmp(a, b) >= 0 ? a : b;
}

/* Quantity -> int64 as kube reads it: cpu MilliValue, others Value. */
static int64_t qconvert(struct go_quantity q, int res)
{
	return res == RES_CPU ? go_quantity_milli(q) : go_quantity_value(q);
}

/* The NonMissingContainerRequests default for res, if it has one:
 * NewMilliQuantity(100) and NewQuantity(200Mi), int64Amounts. */
static bool nonmissing_default(int res, struct quantity *out)
{
	if (res == RES_CPU) {
		*out = (struct quantity){0, MODEL_DEFAULT_MILLI_CPU * 1000000,
					 QUANTITY_FORM_SCALE_BIAS - 3};
		return true;
	}
	if (res == RES_MEMORY) {
		*out = (struct quantity){MODEL_DEFAULT_MEMORY, 0,
					 QUANTITY_FORM_SCALE_BIAS};
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

/* The NonMissingContainerRequests a computation gives containers: a bit
 * per resource that gets its default when a container lacks it. */
enum {
	NM_CPU = 1,
	NM_MEMORY = 2,
	NM_BOTH = NM_CPU | NM_MEMORY
};

static bool nm_has(unsigned nm, int res)
{
	return (res == RES_CPU && (nm & NM_CPU)) ||
	       (res == RES_MEMORY && (nm & NM_MEMORY));
}

/* acc[r] += requests[r] of container k for every resource r; with
 * defaults (nm) a missing cpu / memory entry reads as 100m / 200Mi
 * (applyNonMissing: an explicit 0 stays 0).  Only listed (or defaulted)
 * resources are added: adding a missing entry's 0 changes nothing. */
static void add_container(struct go_quantity *acc, int n_res,
			  const struct container *k, unsigned nm)
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
	if ((nm & NM_CPU) && !cpu && nonmissing_default(RES_CPU, &d))
		acc[RES_CPU] = qadd(acc[RES_CPU], d);
	if ((nm & NM_MEMORY) && !mem && nonmissing_default(RES_MEMORY, &d))
		acc[RES_MEMORY] = qadd(acc[RES_MEMORY], d);
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
 * Every resource in one walk over the containers, each resource's terms
 * added in container order as the definition reads.
 * v1.34 (delta §6, PodLevelResources): a resource the pod's
 * spec.resources.requests lists takes that value in place of the
 * containers' Max(...), before the overhead.  (Resize status is in the
 * containers' requests already: yaml/pod_resources.c.)
 */
static void pod_requests_exact(const struct cluster *c, const struct pod *p,
			       unsigned nm, bool pod_level, int64_t *out)
{
	/* the heap: a pod is converted once per model context (context.h),
	 * or on the literal paths */
	size_t nr = (size_t)c->n_res;
	struct go_quantity *buf = xmalloc((3 * nr + 1) * sizeof *buf);
	struct go_quantity *sum = buf, *sidecars = buf + nr, *init_max = buf + 2 * nr;
	/* without init containers Max({Main} ∪ {}) is Main: the sidecar and
	 * init columns stay unused */
	size_t used = p->n_init_containers > 0 ? 3 * nr : nr;
	for (size_t r = 0; r < used; r++)
		buf[r] = go_quantity_zero();
	for (int i = 0; i < p->n_containers; i++)
		add_container(sum, c->n_res, &p->containers[i], nm);
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		if (k->restart_always) {
			add_container(sum, c->n_res, k, nm);
			add_container(sidecars, c->n_res, k, nm);
			for (size_t r = 0; r < nr; r++)
				init_max[r] = qmax(init_max[r], sidecars[r]);
			continue;
		}
		for (size_t r = 0; r < nr; r++) {
			bool found;
			struct quantity q =
				resource_list_get(&k->requests, (int)r, &found);
			if (!found && nm_has(nm, (int)r))
				nonmissing_default((int)r, &q);
			init_max[r] = qmax(init_max[r],
					   go_quantity_add(go_quantity_of(q), sidecars[r]));
		}
	}
	for (size_t r = 0; r < nr && p->n_init_containers > 0; r++)
		sum[r] = qmax(sum[r], init_max[r]);
	const struct resource_list *pl = &p->pod_requests;
	for (int i = 0; pod_level && p->pod_requests_set &&
			config_at_least(&c->config, KUBE_1_34) && i < pl->n; i++)
		if (first_entry(pl, i))
			sum[pl->items[i].res] = go_quantity_of(pl->items[i].q);
	const struct resource_list *over = &p->overhead;
	for (int i = 0; i < over->n; i++) {
		int r = over->items[i].res;
		assert(r >= 0 && r < c->n_res);
		if (first_entry(over, i))
			sum[r] = qadd(sum[r], over->items[i].q);
	}
	for (size_t r = 0; r < nr; r++)
		out[r] = qconvert(sum[r], (int)r);
	free(buf);
}

void model_pod_requests(const struct cluster *c, const struct pod *p,
			int64_t *out)
{
	assert(c && p && out);
	pod_requests_exact(c, p, 0, true, out);
}

/*
 * ScoreRequest(Pod)[r] == PodRequests(Pod')[r] where Pod' gives every
 * container (regular, init and sidecar) lacking a cpu request 100m and
 * lacking a memory request 200Mi, and has no pod-level requests: v1.34.1's
 * NewFit builds its resourceAllocationScorer (fit.go
 * nodeResourceStrategyTypeMap) without enablePodLevelResources, so
 * calculatePodResourceRequest runs PodRequests with SkipPodLevelResources
 * (BalancedAllocation's scorer has the flag and reads them).  The seed has
 * no resource scoring.
 */
void model_pod_score_request(const struct cluster *c, const struct pod *p,
			     int64_t *out)
{
	assert(c && p && out);
	pod_requests_exact(c, p, NM_BOTH, false, out);
}

/* A resource list reduced to one resource: its exact value and whether
 * the key is present (NonZero reads presence, not value). */
struct keyed {
	struct go_quantity q;
	bool found;
};

static struct keyed keyed_add(struct keyed a, struct keyed b)
{
	return (struct keyed){go_quantity_add(a.q, b.q), a.found || b.found};
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
	out.q = go_quantity_of(resource_list_get(&k->requests, res, &out.found));
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
static int64_t pod_nonzero(const struct cluster *c, const struct pod *p, int res)
{
	int64_t s = 0, init = 0;
	/* v1.30 quirk (reference §2.7, §7; QUIRK_NONZERO_IGNORES_SIDECARS):
	 * sidecars are NOT added to S here, although PodRequests adds them to
	 * the container sum.  They only enter through I, via the cumulative
	 * sidecar lists. */
	for (int i = 0; i < p->n_containers; i++)
		s = model_go_add(s, nonzero_of(keyed_request(&p->containers[i], res), res));
	struct keyed sidecars = {go_quantity_zero(), false};
	for (int i = 0; i < p->n_init_containers; i++) {
		const struct container *k = &p->init_containers[i];
		struct keyed own = keyed_request(k, res), list;
		if (k->restart_always) {
			if (!config_quirk(&c->config, QUIRK_NONZERO_IGNORES_SIDECARS))
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
		total = model_go_add(total, qconvert(go_quantity_of(over), res));
	return total;
}

/* Whether PodRequests(p) has an entry for res at all (a container, init
 * container, the pod level or the overhead lists it). */
static bool pod_lists(const struct pod *p, int res)
{
	bool found;
	for (int i = 0; i < p->n_containers; i++) {
		resource_list_get(&p->containers[i].requests, res, &found);
		if (found)
			return true;
	}
	for (int i = 0; i < p->n_init_containers; i++) {
		resource_list_get(&p->init_containers[i].requests, res, &found);
		if (found)
			return true;
	}
	resource_list_get(&p->pod_requests, res, &found);
	if (found && p->pod_requests_set)
		return true;
	resource_list_get(&p->overhead, res, &found);
	return found;
}

/*
 * v1.34 (delta §5.1, §6; types.go CalculateResource,
 * getNonMissingContainerRequests):
 *   NM == IF PodLevelSet(Pod) THEN {r ∈ {cpu, memory} : r ∉ DOMAIN
 *            PodRequests(Pod)} ELSE {cpu, memory}
 *   NonZero(Pod)[r] == PodRequests(Pod with NM's defaults given to each
 *                      container lacking the entry)[r], r ∈ {cpu, memory}
 * the whole PodRequests formula (sidecars in the sum, pod-level
 * requests), converted once per pod.
 */
static void nonzero_1_34(const struct cluster *c, const struct pod *p,
			 int64_t *cpu, int64_t *mem)
{
	/* the heap: a pod is converted once per model context (context.h) */
	int64_t *row = xmalloc(((size_t)c->n_res + 1) * sizeof *row);
	unsigned nm = NM_BOTH;
	if (p->pod_requests_set)
		nm = (pod_lists(p, RES_CPU) ? 0 : NM_CPU) |
		     (pod_lists(p, RES_MEMORY) ? 0 : NM_MEMORY);
	pod_requests_exact(c, p, nm, true, row);
	*cpu = row[RES_CPU];
	*mem = row[RES_MEMORY];
	free(row);
}

void model_pod_nonzero(const struct cluster *c, const struct pod *p,
		       int64_t *cpu, int64_t *mem)
{
	assert(c && p && cpu && mem);
	if (config_at_least(&c->config, KUBE_1_34)) {
		nonzero_1_34(c, p, cpu, mem);
		return;
	}
	*cpu = pod_nonzero(c, p, RES_CPU);
	*mem = pod_nonzero(c, p, RES_MEMORY);
}

void model_pod_table_init(struct model_pod_table *t, const struct cluster *c)
{
	assert(t && c);
	size_t np = (size_t)c->n_pods, nr = (size_t)c->n_res;
	t->cluster = c;
	t->req = xmalloc(sizeof *t->req * (np * (2 * nr + 2) + 1));
	t->nonzero = t->req + np * nr;
	t->score = t->nonzero + 2 * np;
	for (int p = 0; p < c->n_pods; p++) {
		/* a pod asking what the one before asks gets its rows: the
		 * rules read nothing else of a pod (core/same_requests.c) */
		if (p > 0 && pod_same_requests(&c->pods[p], &c->pods[p - 1])) {
			memcpy(t->req + (size_t)p * nr, t->req + (size_t)(p - 1) * nr,
			       sizeof *t->req * nr);
			memcpy(t->score + (size_t)p * nr, t->score + (size_t)(p - 1) * nr,
			       sizeof *t->score * nr);
			t->nonzero[2 * (size_t)p] = t->nonzero[2 * (size_t)p - 2];
			t->nonzero[2 * (size_t)p + 1] = t->nonzero[2 * (size_t)p - 1];
			continue;
		}
		model_pod_requests(c, &c->pods[p], t->req + (size_t)p * nr);
		model_pod_score_request(c, &c->pods[p], t->score + (size_t)p * nr);
		model_pod_nonzero(c, &c->pods[p], &t->nonzero[2 * (size_t)p],
				  &t->nonzero[2 * (size_t)p + 1]);
	}
}

void model_pod_table_release(struct model_pod_table *t)
{
	assert(t);
	free(t->req);
	memset(t, 0, sizeof *t);
}

/*
 * Requested(Node, S)[r]  == Σ_{Pod : BoundTo(Pod, Node, S)} PodRequests(Pod)[r]
 * NonZeroRequested(Node, S)[r] == Σ_{Pod : BoundTo(Pod, Node, S)} NonZero(Pod)[r]
 * Pods(Node, S) == Cardinality({Pod : BoundTo(Pod, Node, S)})
 * Each pod is converted to integers on its own before summing (kube's
 * NodeInfo.AddPod); the sums wrap like Go int64.
 */
/* model_node_requested with every pod's row from t: the sums read the
 * table in place, with no scratch row (the bookkeeping is asked for every
 * node of every Filter and Score call). */
static void node_requested_table(const struct model_pod_table *t,
				 const struct snapshot *s, int node,
				 int64_t *requested, int64_t *nonzero_cpu,
				 int64_t *nonzero_mem, int *pod_count)
{
	const struct cluster *c = t->cluster;
	const int32_t *pod_node = s->pod_node;
	int n_res = c->n_res, n_pods = c->n_pods;
	int64_t nz_cpu = 0, nz_mem = 0;
	int count = 0;
	for (int r = 0; r < n_res; r++)
		requested[r] = 0;
	for (int p = 0; p < n_pods; p++) {
		if (pod_node[p] != node)
			continue;
		int64_t cpu, mem;
		const int64_t *one = model_pod_table_get(t, p, &cpu, &mem);
		for (int r = 0; r < n_res; r++)
			requested[r] = model_go_add(requested[r], one[r]);
		nz_cpu = model_go_add(nz_cpu, cpu);
		nz_mem = model_go_add(nz_mem, mem);
		count++;
	}
	if (nonzero_cpu)
		*nonzero_cpu = nz_cpu;
	if (nonzero_mem)
		*nonzero_mem = nz_mem;
	if (pod_count)
		*pod_count = count;
}

void model_node_requested(const struct model_pod_table *t, const struct snapshot *s,
			  int node, int64_t *requested, int64_t *nonzero_cpu,
			  int64_t *nonzero_mem, int *pod_count)
{
	assert(s && s->cluster && requested);
	const struct cluster *c = s->cluster;
	assert(node >= 0 && node < c->n_nodes);
	if (t) {
		assert(t->cluster == c);
		node_requested_table(t, s, node, requested, nonzero_cpu,
				     nonzero_mem, pod_count);
		return;
	}
	int n_res = c->n_res;
	int64_t *buf = xcalloc((size_t)n_res + 1, sizeof *buf);
	int64_t nz_cpu = 0, nz_mem = 0;
	int count = 0;
	for (int r = 0; r < n_res; r++)
		requested[r] = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (!snapshot_on_node(s, p, node))
			continue;
		int64_t cpu, mem;
		model_pod_requests(c, &c->pods[p], buf);
		model_pod_nonzero(c, &c->pods[p], &cpu, &mem);
		const int64_t *one = buf;
		for (int r = 0; r < n_res; r++)
			requested[r] = model_go_add(requested[r], one[r]);
		nz_cpu = model_go_add(nz_cpu, cpu);
		nz_mem = model_go_add(nz_mem, mem);
		count++;
	}
	free(buf);
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
