/*
 * taints.c - NodeUnschedulable (reference §2.2) and TaintToleration
 * (§2.4): filters and the PreferNoSchedule score.
 */
#include "internal.h"

#include <string.h>

/* NodeUnschedulable: an unschedulable node admits only pods tolerating
 * {node.kubernetes.io/unschedulable, NoSchedule}. */
void oracle_filter_unschedulable(struct oracle_cycle *cy,
				 const struct oracle_nodeview *v,
				 struct sched_status *st)
{
	if (!cy->c->nodes[v->node].unschedulable)
		return;
	static const struct taint unsched = {
		"node.kubernetes.io/unschedulable", "", EFFECT_NO_SCHEDULE,
	};
	if (!oracle_tolerated(cy->p, &unsched))
		oracle_status_fail_str(st, SCHED_UAU, "node(s) were unschedulable");
}

/* The first NoSchedule/NoExecute taint (spec order) no toleration
 * tolerates rejects the node. */
void oracle_filter_taints(struct oracle_cycle *cy,
			  const struct oracle_nodeview *v,
			  struct sched_status *st)
{
	const struct node *n = &cy->c->nodes[v->node];
	int i = oracle_first_untolerated(cy->p, n);
	/* "node(s) had untolerated taint {%s: %s}", joined without printf */
	if (i >= 0)
		sched_status_add_join(st, SCHED_UAU, (const char *[]){
			"node(s) had untolerated taint {", n->taints[i].key, ": ",
			n->taints[i].value, "}"}, 5);
}

/* Raw score: PreferNoSchedule taints not tolerated by the tolerations
 * with an empty or PreferNoSchedule effect; normalized in reverse. */
enum sched_code oracle_score_taints(struct oracle_cycle *cy, const int *f,
				    int n, int64_t *out)
{
	const bool *prefer = cy->o->d->prefer_taints;
	for (int i = 0; i < n; i++) {
		/* most nodes have none: their count is 0 without reading
		 * the node (one cache miss a node at 50,000 nodes) */
		if (!prefer[f[i]]) {
			out[i] = 0;
			continue;
		}
		const struct node *node = &cy->c->nodes[f[i]];
		int64_t count = 0;
		for (int t = 0; t < node->n_taints; t++) {
			const struct taint *x = &node->taints[t];
			if (x->effect != EFFECT_PREFER_NO_SCHEDULE)
				continue;
			/* a toleration of another effect never matches a
			 * PreferNoSchedule taint, so all may be tried */
			if (!oracle_tolerated(cy->p, x))
				count++;
		}
		out[i] = count;
	}
	oracle_default_normalize(out, n, true);
	return SCHED_SUCCESS;
}
