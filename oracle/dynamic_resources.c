/*
 * dynamic_resources.c - DynamicResources in v1.34's profile (delta
 * reference §5.9) on core/dra_plugin.h's verdicts:
 *   PreFilter  a pod without claims to judge: Skip (after writing an
 *              empty state); a claim not found, being deleted, not the
 *              pod's, or a missing device class: UnschedulableAndUnresolvable;
 *              else the claims kept in cy->dra for the Filter;
 *   Filter     allocated claims' node selectors, the allocator for the
 *              rest; its Error wrapped as RunFilterPlugins does;
 *   PostFilter "no new claims to deallocate" without claims in the
 *              state, else the claims found unavailable on the nodes
 *              whose first failure was this Filter decide ("deallocation
 *              of ResourceClaim completed" / "still not schedulable");
 *              the state read's Error "not found" when no PreFilter
 *              wrote it - it runs last, after any
 *              UnschedulableAndUnresolvable PreFilter rejection has ended
 *              the PreFilter loop (v1.34.1, the quirk
 *              dra-postfilter-not-found).
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

static bool node_match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	return oracle_node_selector_matches(ns, n);
}

bool oracle_prefilter_dra(struct oracle_cycle *cy, struct sched_status *st)
{
	cy->dra = NULL;
	if (!cy->p->n_claims) {
		cy->skip[PLUGIN_DYNAMIC_RESOURCES] = true;
		return false;
	}
	struct dra_prefilter *pf = arena_alloc(cy->arena, sizeof *pf);
	dra_prefilter(cy->arena, cy->c, cy->o->snap.dra, cy->p, pf);
	switch (pf->code) {
	case DRA_SKIP:
		cy->skip[PLUGIN_DYNAMIC_RESOURCES] = true;
		return false;
	case DRA_UNRESOLVABLE:
		oracle_status_ok(st);
		oracle_status_fail_str(st, SCHED_UAU, pf->msg);
		return true;
	default:
		cy->dra = pf;
		return false;
	}
}

void oracle_filter_dra(struct oracle_cycle *cy, const struct oracle_nodeview *v,
		       struct sched_status *st)
{
	oracle_status_ok(st);
	if (!cy->dra)
		return;
	struct dra_filter f;
	dra_filter(cy->arena, cy->c, cy->dra, &cy->c->nodes[v->node], node_match, NULL, &f);
	if (f.code == DRA_UNRESOLVABLE) {
		oracle_status_fail_str(st, SCHED_UAU, f.msg);
	} else if (f.code == DRA_ERROR) {
		oracle_status_fail_str(st, SCHED_ERROR,
				       arena_sprintf(cy->arena, "running \"DynamicResources\" "
						     "filter plugin: %s", f.msg));
	} else if (f.code == DRA_UNJUDGED) {
		/* yaml/finish.c refuses such a pod at load; never a verdict
		 * of kube's here */
		oracle_status_fail_str(st, SCHED_ERROR, "running \"DynamicResources\" "
				       "filter plugin: kso cannot judge this node");
	}
}

/* The PostFilter's message once the state holds the pod's claims. */
static const char *with_claims(const struct oracle *o, const struct sched_cycle_result *r,
			       int **dealloc, int *n_dealloc)
{
	const struct cluster *c = o->cluster;
	const struct pod *p = &c->pods[r->pod];
	struct arena a;
	arena_init(&a);
	struct dra_prefilter pf;
	dra_prefilter(&a, c, o->snap.dra, p, &pf);
	bool *unavailable = NULL;
	if (pf.code != DRA_OK) {
		pf.n_claims = 0;
	} else {
		unavailable = arena_array(&a, (size_t)pf.n_claims + 1, sizeof *unavailable);
		for (int n = 0; n < r->n_nodes; n++) {
			if (r->verdicts[n].rejected_by != PLUGIN_DYNAMIC_RESOURCES)
				continue;
			struct dra_filter f;
			dra_filter(&a, c, &pf, &c->nodes[n], node_match, NULL, &f);
			for (int i = 0; i < pf.n_claims; i++)
				unavailable[i] = unavailable[i] || f.unavailable[i];
		}
	}
	/* the claims to deallocate are some of pf's: none to hold without
	 * claims (every pod of most clusters, every preemption of the
	 * enumerator) */
	int *d = pf.n_claims ? xcalloc((size_t)pf.n_claims, sizeof *d) : NULL;
	const char *msg = dra_postfilter(c, p, &pf, unavailable, d, n_dealloc);
	arena_release(&a);
	if (*n_dealloc)
		*dealloc = d;
	else
		free(d);
	return msg;
}

void oracle_postfilter_dra(const struct oracle *o,
			   const struct sched_profile *prof,
			   const struct sched_cycle_result *r,
			   struct sched_status *st, int **dealloc, int *n)
{
	assert(o && prof && r && st && dealloc && n);
	oracle_status_ok(st);
	*dealloc = NULL;
	*n = 0;
	bool enabled = prof->prefilter[PLUGIN_DYNAMIC_RESOURCES];
	/* DynamicResources' own rejection comes after its state's write */
	bool own = r->n_nodes > 0 && r->verdicts[0].rejected_by == PLUGIN_DYNAMIC_RESOURCES;
	bool reached = r->prefilter.code != SCHED_UAU || own;
	bool quirk = config_quirk(&o->cluster->config,
				  QUIRK_DRA_POSTFILTER_NOT_FOUND);
	if (!enabled || (!reached && quirk)) {
		oracle_status_fail_str(st, SCHED_ERROR, "not found");
		return;
	}
	if (!reached) {
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE, "no new claims to deallocate");
		return;
	}
	oracle_status_fail_str(st, SCHED_UNSCHEDULABLE, with_claims(o, r, dealloc, n));
}
