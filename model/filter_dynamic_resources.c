/*
 * filter_dynamic_resources.c - DynamicResources, in v1.34's profile
 * (delta reference §1, §5.9; dynamicresources/dynamicresources.go), on
 * core/dra_plugin.h's verdicts:
 *   PreFilter  writes an empty cycle state, then: a pod without claims
 *              (or whose template claims are not needed) Skip - its
 *              Filter does not run; a claim not found, being deleted,
 *              not the pod's, or a missing device class
 *              UnschedulableAndUnresolvable; else the claims go into the
 *              state;
 *   Filter     on one node: allocated claims' node selectors, the
 *              structured allocator for the others
 *              (UnschedulableAndUnresolvable "cannot allocate all claims",
 *              "resourceclaim not available on the node", or the
 *              allocator's Error);
 *   PostFilter reads the state: no claims, Unschedulable "no new claims
 *              to deallocate"; else the claims some Filter found
 *              unavailable decide between "deallocation of ResourceClaim
 *              completed" and "still not schedulable"; when the state
 *              was never written, the Error of CycleState.Read, "not
 *              found".
 * It is the last PreFilter plugin, so its state is missing exactly when
 * an earlier PreFilter returned UnschedulableAndUnresolvable (or a
 * PreFilterResult left no node): RunPreFilterPlugins stops there (v1.34.1;
 * the quirk dra-postfilter-not-found, core/quirks.h), or when the profile
 * disables its PreFilter.
 * Literal: every call recomputes the PreFilter from the cluster (the
 * claims do not change within a cycle).
 */
#include "model.h"
#include "match.h"

#include <assert.h>
#include <stdlib.h>

#include "../core/xalloc.h"

static bool node_match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	return match_node_selector(ns, n);
}

void model_prefilter_dynamic_resources(const struct model_cycle *cy,
				       struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	if (!cy->cluster->pods[cy->pod].n_claims) {
		out->code = SCHED_SKIP;
		return;
	}
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	dra_prefilter(&a, cy->cluster, cy->base->dra, &cy->cluster->pods[cy->pod], &pf);
	if (pf.code == DRA_SKIP)
		out->code = SCHED_SKIP;
	else if (pf.code == DRA_UNRESOLVABLE)
		sched_status_add(out, SCHED_UAU, pf.msg);
	arena_release(&a);
}

void model_filter_dynamic_resources(const struct model_cycle *cy, int node,
				    struct sched_status *out)
{
	assert(cy && out);
	sched_status_ok(out);
	const struct cluster *c = cy->cluster;
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	/* the claims as PreFilter saw them: a dry run's victims keep theirs
	 * (no PreFilterExtensions in v1.34.1) */
	dra_prefilter(&a, c, cy->base->dra, &c->pods[cy->pod], &pf);
	/* a Skip or a rejection: kube's Filter does not run */
	if (pf.code == DRA_OK) {
		struct dra_filter f;
		dra_filter(&a, c, &pf, &c->nodes[node], node_match, NULL, &f);
		if (f.code == DRA_UNRESOLVABLE)
			sched_status_add(out, SCHED_UAU, f.msg);
		else if (f.code == DRA_ERROR)
			sched_status_add(out, SCHED_ERROR, f.msg);
		else if (f.code == DRA_UNJUDGED)
			/* yaml/finish.c refuses such a pod at load; never a
			 * verdict of kube's here */
			sched_status_add(out, SCHED_ERROR, "kso cannot judge this node");
	}
	arena_release(&a);
}

/* PreFilter ran and wrote the state: enabled, and no PreFilter before
 * it (every other one) rejected the pod UnschedulableAndUnresolvable -
 * an Unschedulable rejection lets the rest run (reference §1.3 step 2);
 * its own rejection comes after the write. */
static bool state_written(const struct sched_profile *prof,
			  const struct sched_cycle_result *r)
{
	if (!prof->prefilter[PLUGIN_DYNAMIC_RESOURCES])
		return false;
	return r->prefilter.code != SCHED_UAU ||
	       (r->n_nodes > 0 && r->verdicts[0].rejected_by == PLUGIN_DYNAMIC_RESOURCES);
}

/* The claims the Filter found unavailable on some node it ran on: the
 * nodes whose first failure is DynamicResources (kube stops a node's
 * filters at its first failure), inside the PreFilterResult. */
static const char *postfilter_claims(const struct snapshot *s,
				     const struct sched_cycle_result *r,
				     int **dealloc, int *n_dealloc)
{
	const struct cluster *c = s->cluster;
	const struct pod *p = &c->pods[r->pod];
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	dra_prefilter(&a, c, s->dra, p, &pf);
	bool *unavailable = NULL;
	if (pf.code == DRA_OK) {
		unavailable = arena_array(&a, (size_t)pf.n_claims + 1, sizeof *unavailable);
		for (int n = 0; n < r->n_nodes; n++) {
			if (r->verdicts[n].rejected_by != PLUGIN_DYNAMIC_RESOURCES ||
			    !r->in_prefilter_result[n])
				continue;
			struct dra_filter f;
			dra_filter(&a, c, &pf, &c->nodes[n], node_match, NULL, &f);
			for (int i = 0; i < pf.n_claims; i++)
				unavailable[i] |= f.unavailable[i];
		}
	} else {
		pf.n_claims = 0;   /* rejected or skipped: the state has no claims */
	}
	/* the claims to deallocate are some of pf's: none to hold without
	 * claims */
	int *d = pf.n_claims ? xcalloc((size_t)pf.n_claims, sizeof *d) : NULL;
	const char *msg = dra_postfilter(c, p, &pf, unavailable, d, n_dealloc);
	arena_release(&a);
	if (*n_dealloc)
		*dealloc = d;
	else
		free(d);
	return msg;
}

void model_postfilter_dynamic_resources(const struct snapshot *s,
					const struct sched_profile *prof,
					const struct sched_cycle_result *r,
					struct sched_status *out,
					int **dealloc, int *n)
{
	assert(s && prof && r && out && dealloc && n);
	const struct cluster *c = s->cluster;
	sched_status_ok(out);
	*dealloc = NULL;
	*n = 0;
	bool written = state_written(prof, r);
	/* the quirk off: a rejection's missing state reads as no claims */
	if (!written && prof->prefilter[PLUGIN_DYNAMIC_RESOURCES] &&
	    !config_quirk(&c->config, QUIRK_DRA_POSTFILTER_NOT_FOUND)) {
		sched_status_add(out, SCHED_UNSCHEDULABLE, "no new claims to deallocate");
		return;
	}
	if (!written) {
		sched_status_add(out, SCHED_ERROR, "not found");
		return;
	}
	sched_status_add(out, SCHED_UNSCHEDULABLE, postfilter_claims(s, r, dealloc, n));
}
