/*
 * dra_plugin.c - the DynamicResources plugin's verdicts (dra_plugin.h):
 * PreFilter (foreachPodResourceClaim, resourceclaim.Name / IsForPod, the
 * class checks of validateDeviceClass), Filter (availableOnNodes, then
 * Allocate) and PostFilter's deallocation choice, with kube v1.34.1's
 * messages.
 */
#include "dra_plugin.h"
#include "dra_live.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int find_claim(const struct cluster *c, const char *ns, const char *name)
{
	for (int i = 0; i < c->n_claims; i++)
		if (!strcmp(c->claims[i].name, name) && !strcmp(c->claims[i].ns, ns))
			return i;
	return -1;
}

static bool class_exists(const struct cluster *c, const char *name)
{
	for (int i = 0; i < c->n_device_classes; i++)
		if (!strcmp(c->device_classes[i].name, name))
			return true;
	return false;
}

/* resourceclaim.Name: the claim's name, NULL when the template's claim is
 * not needed; -1 with the error when the controller has not made it. */
static int claim_name(struct arena *a, const struct pod *p, const struct pod_claim *pc,
		      const char **name, bool *check_owner, struct dra_prefilter *out)
{
	*check_owner = false;
	if (pc->claim_name) {
		*name = pc->claim_name;
		return 0;
	}
	for (int i = 0; i < p->n_claim_statuses; i++)
		if (!strcmp(p->claim_statuses[i].name, pc->name)) {
			*name = p->claim_statuses[i].claim_name;
			*check_owner = true;
			return 0;
		}
	out->msg = arena_sprintf(a, "pod \"%s/%s\": ResourceClaim not created yet",
	    p->ns, p->name);
	return -1;
}

/* foreachPodResourceClaim: the claims, or the first error. */
static int pod_claims(struct arena *a, const struct cluster *c, const struct pod *p,
		      struct dra_prefilter *out)
{
	/* most pods have none: no scratch taken (a fresh arena's first
	 * take is a 64 KB malloc, every PostFilter of the enumerator) */
	if (p->n_claims == 0)
		return 0;
	int *v = arena_array(a, (size_t)p->n_claims + 1, sizeof *v);
	out->claims = v;
	for (int i = 0; i < p->n_claims; i++) {
		const char *name;
		bool owner;
		if (claim_name(a, p, &p->claims[i], &name, &owner, out) < 0)
			return -1;
		if (!name)
			continue;
		int k = find_claim(c, p->ns, name);
		if (k < 0) {
			out->msg = arena_sprintf(a, "could not find ResourceClaim \"%s/%s\"",
			    p->ns, name);
			return -1;
		}
		const struct resource_claim *cl = &c->claims[k];
		if (cl->deleting) {
			out->msg = arena_sprintf(a, "resourceclaim \"%s\" is being deleted",
			    cl->name);
			return -1;
		}
		if (owner && !pod_controlled_by(p, cl->owners, cl->n_owners)) {
			out->msg = arena_sprintf(a, "ResourceClaim %s/%s was not created for "
			    "pod %s/%s (pod is not owner)", cl->ns, cl->name, p->ns, p->name);
			return -1;
		}
		v[out->n_claims++] = k;
	}
	return 0;
}

/* validateDeviceClass for every request of an unallocated claim. */
static int check_classes(struct arena *a, const struct cluster *c, const struct resource_claim *cl,
			 struct dra_prefilter *out)
{
	for (int r = 0; r < cl->spec.n_requests; r++) {
		const struct device_request *q = &cl->spec.requests[r];
		if (q->class_name && !class_exists(c, q->class_name)) {
			out->msg = arena_sprintf(a, "request %s: device class %s does not exist",
			    q->name, q->class_name);
			return -1;
		}
		for (int s = 0; s < q->n_first_available; s++) {
			const struct device_request *sq = &q->first_available[s];
			if (!class_exists(c, sq->class_name)) {
				out->msg = arena_sprintf(a, "request %s/%s: device class %s does "
				    "not exist", q->name, sq->name, sq->class_name);
				return -1;
			}
		}
	}
	return 0;
}

void dra_prefilter(struct arena *a, const struct cluster *c, const struct dra_live *live,
		   const struct pod *p, struct dra_prefilter *out)
{
	memset(out, 0, sizeof *out);
	out->msg = "";
	out->live = live;
	if (pod_claims(a, c, p, out) < 0) {
		out->code = DRA_UNRESOLVABLE;
		return;
	}
	if (!out->n_claims) {
		out->code = DRA_SKIP;
		return;
	}
	int *alloc = arena_array(a, (size_t)out->n_claims, sizeof *alloc);
	out->to_allocate = alloc;
	for (int i = 0; i < out->n_claims; i++) {
		const struct resource_claim *cl = &c->claims[out->claims[i]];
		/* CanBeReserved is always true in v1.34: no "resourceclaim in use" */
		if (dra_live_allocated(live, c, out->claims[i]))
			continue;
		alloc[out->n_to_allocate++] = out->claims[i];
		if (check_classes(a, c, cl, out) < 0) {
			out->code = DRA_UNRESOLVABLE;
			return;
		}
	}
	if (out->n_to_allocate)
		dra_gather_in_use(a, c, live, &out->in_use, &out->n_in_use);
	out->code = DRA_OK;
}

void dra_filter(struct arena *a, const struct cluster *c, const struct dra_prefilter *pf,
		const struct node *n, dra_node_match match, void *ctx, struct dra_filter *out)
{
	memset(out, 0, sizeof *out);
	out->msg = "";
	out->unavailable = arena_array(a, (size_t)pf->n_claims + 1, sizeof *out->unavailable);
	bool any = false;
	for (int i = 0; i < pf->n_claims; i++) {
		int k = pf->claims[i];
		if (dra_live_allocated(pf->live, c, k) &&
		    !dra_live_on_node(pf->live, c, k, n, match, ctx))
			any = out->unavailable[i] = true;
	}
	if (pf->n_to_allocate) {
		struct dra_alloc_in in = {c, n, pf->to_allocate, pf->n_to_allocate, pf->in_use,
					  pf->n_in_use, match, ctx};
		dra_allocate(a, &in, &out->alloc);
		/* kube records the unavailable claims only past the
		 * allocator: a failed allocation returns first */
		if (out->alloc.status != DRA_ALLOC_FIT)
			memset(out->unavailable, 0, (size_t)pf->n_claims * sizeof *out->unavailable);
		switch (out->alloc.status) {
		case DRA_ALLOC_FIT:
			break;
		case DRA_ALLOC_NO_FIT:
			out->code = DRA_UNRESOLVABLE;
			out->msg = arena_sprintf(a, "cannot allocate all claims");
			return;
		case DRA_ALLOC_ERROR:
			out->code = DRA_ERROR;
			out->msg = arena_sprintf(a, "%s", out->alloc.msg);
			return;
		case DRA_ALLOC_UNJUDGED:
			out->code = DRA_UNJUDGED;
			out->msg = arena_sprintf(a, "%s", out->alloc.msg);
			return;
		}
	}
	if (any) {
		out->code = DRA_UNRESOLVABLE;
		out->msg = arena_sprintf(a, "resourceclaim not available on the node");
		return;
	}
	out->code = DRA_OK;
}

const char *dra_postfilter(const struct cluster *c, const struct pod *p,
			   const struct dra_prefilter *pf, const bool *unavailable,
			   int *dealloc, int *n)
{
	*n = 0;
	if (!pf->n_claims)
		return "no new claims to deallocate";
	for (int i = 0; unavailable && i < pf->n_claims; i++) {
		if (!unavailable[i])
			continue;
		if (!dra_live_free_for(pf->live, c, pf->claims[i], (int)(p - c->pods)))
			continue;
		dealloc[(*n)++] = pf->claims[i];
	}
	return *n ? "deallocation of ResourceClaim completed" : "still not schedulable";
}

bool dra_preenqueue(struct arena *a, const struct cluster *c, const struct pod *p, char *msg,
		    size_t len)
{
	struct dra_prefilter pf;
	memset(&pf, 0, sizeof pf);
	pf.msg = "";
	if (pod_claims(a, c, p, &pf) == 0)
		return true;
	snprintf(msg, len, "%s", pf.msg);
	return false;
}

int dra_pod_claims(struct arena *a, const struct cluster *c, const struct pod *p,
		   const int **claims)
{
	struct dra_prefilter pf;
	memset(&pf, 0, sizeof pf);
	pf.msg = "";
	if (pod_claims(a, c, p, &pf) < 0)
		return -1;
	*claims = pf.claims;
	return pf.n_claims;
}

const char *dra_why_no_fit(struct arena *a, const struct cluster *c, const struct dra_live *live,
			   const struct pod *p, int n, dra_node_match match, void *ctx)
{
	assert(a && c && p && n >= 0 && n < c->n_nodes);
	struct dra_prefilter pf;
	dra_prefilter(a, c, live, p, &pf);
	if (pf.code != DRA_OK)
		return NULL;
	struct dra_filter f;
	dra_filter(a, c, &pf, &c->nodes[n], match, ctx, &f);
	if (f.code != DRA_UNRESOLVABLE || f.alloc.status != DRA_ALLOC_NO_FIT)
		return NULL;
	return arena_strdup(a, f.alloc.msg);
}

bool dra_judge(struct arena *a, const struct cluster *c, const struct dra_live *live,
	       const struct pod *p, dra_node_match match, void *ctx, const char **why)
{
	struct dra_prefilter pf;
	dra_prefilter(a, c, live, p, &pf);
	if (pf.code != DRA_OK)
		return true;
	/* each node's search given back before the next: a cluster's worth
	 * of them would pile up in a */
	struct arena_mark m = arena_mark(a);
	for (int n = 0; n < c->n_nodes; n++) {
		struct dra_filter f;
		dra_filter(a, c, &pf, &c->nodes[n], match, ctx, &f);
		arena_reset(a, m);
		if (f.code == DRA_UNJUDGED) {
			*why = arena_sprintf(a, "on node %s %s", c->nodes[n].name, f.msg);
			return false;
		}
	}
	return true;
}
