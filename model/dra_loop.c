/*
 * dra_loop.c - what DynamicResources writes between the loop's cycles
 * under v1.34 (delta reference §5.9; dynamicresources.go Reserve,
 * PreBind, PostFilter; the resourceclaim controller for a deleted pod),
 * into the claims' status the next cycles read (core/dra_live.h):
 *   bind     Reserve keeps the allocation the Filter found on the chosen
 *            node (in kube's in-flight allocations, so the next pod's
 *            PreFilter counts its devices in use), PreBind writes it to
 *            each unallocated claim and adds the pod to reservedFor of
 *            every claim not reserved for it yet;
 *   PostFilter  the claim it deallocates loses its allocation and
 *            reservations;
 *   deletion a preemption victim leaves every reservedFor, and a claim
 *            left reserved for no pod is deallocated.
 * kso binds at once, so Reserve never meets a failed PreBind: Unreserve
 * has nothing to undo.  Where kube's answer for a later cycle depends on
 * its random choices, the loop stops with m->unjudged instead:
 *   - the devices the allocator picks differ between kube's pool orders
 *     (a Go map) and slice orders, and another pod with claims is still
 *     to be scheduled;
 *   - PostFilter deallocates one of several claims (a Go map's order);
 *   - a claim reserved for 256 pods already: PreBind's update would fail
 *     at the API server's limit, and kso's loop has no failed binding;
 *   - a node where the allocator meets an error or not depending on that
 *     order (core/dra_alloc.h's DRA_ALLOC_UNJUDGED).
 * The reachable search (enum/reachable.c) follows both random picks
 * instead - every claim PostFilter may deallocate (model_dra_deallocate),
 * every allocation the orders pick (model_dra_bound_pick) - where kso has
 * tried every order; the rest it refuses as the loop does.
 */
#include "scheduler.h"
#include "match.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../core/dra_live.h"
#include "../core/dra_plugin.h"
#include "../core/xalloc.h"

static bool node_match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	return match_node_selector(ns, n);
}

static bool applies(const struct model_scheduler *m, int p)
{
	return m->snap.dra && m->cluster->pods[p].n_claims &&
	       config_at_least(&m->cluster->config, KUBE_1_34);
}

static void unjudged(struct model_scheduler *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void unjudged(struct model_scheduler *m, const char *fmt, ...)
{
	if (m->unjudged)
		return;
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	m->unjudged = xstrdup(buf);
}

/* A claim of pod p already reserved for RESERVED_MAX others: kube's
 * PreBind would add p past the API server's limit, the update fails and
 * the binding with it - a path kso's loop, which binds at once, does not
 * take.  Its index, or -1. */
#define RESERVED_MAX 256        /* resourceapi.ResourceClaimReservedForMaxSize */

static int reserved_full(const struct model_scheduler *m, const struct dra_prefilter *pf,
			 int p)
{
	for (int i = 0; i < pf->n_claims; i++) {
		int k = pf->claims[i];
		if (dra_live_n_reserved(m->snap.dra, m->cluster, k) >= RESERVED_MAX &&
		    !dra_live_reserved_for(m->snap.dra, m->cluster, k, p))
			return k;
	}
	return -1;
}

bool model_dra_check(struct model_scheduler *m, int p)
{
	assert(m);
	if (!applies(m, p))
		return true;
	const struct pod *pod = &m->cluster->pods[p];
	struct arena a;
	arena_init(&a);
	const char *why;
	bool ok = dra_judge(&a, m->cluster, m->snap.dra, pod, node_match, NULL, &why);
	if (!ok)
		unjudged(m, "pod %s/%s: kso cannot judge kube v1.34's DynamicResources "
			 "exactly: %s", pod->ns, pod->name, why);
	struct dra_prefilter pf;
	dra_prefilter(&a, m->cluster, m->snap.dra, pod, &pf);
	int full = ok && pf.code == DRA_OK ? reserved_full(m, &pf, p) : -1;
	if (full >= 0) {
		const struct resource_claim *cl = &m->cluster->claims[full];
		unjudged(m, "pod %s/%s: its claim %s/%s is reserved for %d pods already, the "
			 "API server's limit: kube's PreBind would fail to add it and the "
			 "binding with it, which kso's loop does not model", pod->ns,
			 pod->name, cl->ns, cl->name, RESERVED_MAX);
		ok = false;
	}
	arena_release(&a);
	return ok;
}

/* Another pod with claims is still to be scheduled. */
static bool claims_to_come(const struct model_scheduler *m, int p)
{
	const struct cluster *c = m->cluster;
	for (int q = 0; q < c->n_pods; q++)
		if (q != p && c->pods[q].n_claims &&
		    (m->snap.pod_node[q] == SNAP_PENDING || m->absent[q]))
			return true;
	return false;
}

/* The allocation for claims[ci] out of the allocator's alternative
 * pick (0: its devices, also where it tried too many orders to list
 * alternatives). */
static void allocate(struct model_scheduler *m, const struct dra_alloc_out *o, int pick,
		     int ci, int claim, int node)
{
	const struct dra_alloc_device *dev = pick ? o->alts[pick] : o->devices;
	int nd = pick ? o->n_alt_devices[pick] : o->n_devices;
	struct dra_alloc_device d[32];
	int n = 0;
	for (int i = 0; i < nd && n < 32; i++)
		if (dev[i].claim == ci)
			d[n++] = dev[i];
	dra_live_allocate(m->snap.dra, m->cluster, claim, node, d, n);
}

/* Pod p's claims' PreFilter and, when some are to allocate, the Filter on
 * node into pf / f (from a); false when nothing is to be written. */
static bool bind_filter(struct model_scheduler *m, struct arena *a, int p, int node,
			struct dra_prefilter *pf, struct dra_filter *f)
{
	const struct cluster *c = m->cluster;
	dra_prefilter(a, c, m->snap.dra, &c->pods[p], pf);
	if (pf->code != DRA_OK)
		return false;
	if (!pf->n_to_allocate)
		return true;
	dra_filter(a, c, pf, &c->nodes[node], node_match, NULL, f);
	/* a replay's forced bind to a node kso finds no allocation on writes
	 * nothing */
	return f->code == DRA_OK && f->alloc.status == DRA_ALLOC_FIT;
}

int model_dra_bind_picks(struct model_scheduler *m, int p, int node)
{
	assert(m && node >= 0);
	if (!applies(m, p))
		return 1;
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	struct dra_filter f;
	int n = 1;
	if (bind_filter(m, &a, p, node, &pf, &f) && pf.n_to_allocate)
		n = f.alloc.n_alts;
	arena_release(&a);
	return n;
}

/* Reserve and PreBind of pod p bound to node with the allocator's
 * alternative pick; *order_free: kube's orders all pick the same devices
 * (also when nothing was allocated), *first: the first claim allocated. */
static void bind_pick(struct model_scheduler *m, int p, int node, int pick,
		      bool *order_free, int *first)
{
	const struct cluster *c = m->cluster;
	*order_free = true;
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	struct dra_filter f;
	if (!bind_filter(m, &a, p, node, &pf, &f)) {
		arena_release(&a);
		return;
	}
	if (pf.n_to_allocate) {
		assert(pick == 0 || pick < f.alloc.n_alts);
		for (int i = 0; i < pf.n_to_allocate; i++)
			allocate(m, &f.alloc, pick, i, pf.to_allocate[i], node);
		*order_free = f.alloc.order_free;
		*first = pf.to_allocate[0];
	}
	for (int i = 0; i < pf.n_claims; i++)
		dra_live_reserve(m->snap.dra, c, pf.claims[i], p);
	arena_release(&a);
}

void model_dra_bound_pick(struct model_scheduler *m, int p, int node, int pick)
{
	assert(m && node >= 0 && pick >= 0);
	if (!applies(m, p))
		return;
	bool order_free;
	int first;
	bind_pick(m, p, node, pick, &order_free, &first);
}

void model_dra_bound(struct model_scheduler *m, int p, int node)
{
	assert(m && node >= 0);
	if (!applies(m, p))
		return;
	const struct cluster *c = m->cluster;
	bool order_free;
	int first = -1;
	bind_pick(m, p, node, 0, &order_free, &first);
	if (order_free || !claims_to_come(m, p))
		return;
	const struct resource_claim *cl = &c->claims[first];
	unjudged(m, "pod %s/%s bound to %s: the devices kube's allocator picks "
		 "there for its claims (first %s/%s) depend on the order of its "
		 "pools (a Go map) and slices; the pods with claims still to "
		 "schedule may see either", c->pods[p].ns, c->pods[p].name,
		 c->nodes[node].name, cl->ns, cl->name);
}

bool model_dra_deallocate(struct model_scheduler *m, const struct sched_preemption *pr,
			  int pick)
{
	assert(m && pr);
	if (pick >= pr->n_dra_deallocs || !m->snap.dra)
		return false;
	dra_live_deallocate(m->snap.dra, pr->dra_deallocs[pick]);
	return true;
}

bool model_dra_postfilter(struct model_scheduler *m, int p, const struct sched_preemption *pr)
{
	assert(m && pr);
	if (pr->n_dra_deallocs > 1 && m->snap.dra) {
		const struct cluster *c = m->cluster;
		unjudged(m, "pod %s/%s: DynamicResources' PostFilter deallocates one of "
			 "several of its claims, picked at random (a Go map's order)",
			 c->pods[p].ns, c->pods[p].name);
		return false;
	}
	return model_dra_deallocate(m, pr, 0);
}

bool model_dra_gone(struct model_scheduler *m, int p)
{
	assert(m);
	return dra_live_gone(m->snap.dra, m->cluster, p);
}
