/*
 * filter_taint_toleration.c - the TaintToleration filter (reference §2.4,
 * S/framework/plugins/tainttoleration/taint_toleration.go).
 */
#include "plugin.h"

#include <assert.h>

#include "match.h"

/*
 * Filter(Pod, Node) ==
 *   \A Taint \in Node.Spec.Taints :
 *     Taint.Effect \in {"NoSchedule", "NoExecute"} =>
 *       \E Toleration \in Pod.Spec.Tolerations : Tolerates(Toleration, Taint)
 * Tolerates(T, X) ==
 *   /\ T.Effect = "" \/ T.Effect = X.Effect
 *   /\ T.Key = "" \/ T.Key = X.Key
 *   /\ T.Operator = "Exists" \/ T.Value = X.Value
 * Failure: UnschedulableAndUnresolvable "node(s) had untolerated taint
 * {<key>: <value>}" naming the first untolerated taint in spec order.
 * Seed (004 §1.4): every taint must be tolerated, effects must be equal
 * and Exists needs equal keys; v1.30 ignores PreferNoSchedule taints,
 * treats an empty effect / empty key (with Exists) as wildcards and
 * Exists ignores the value (reference §5 (a)).
 */
void model_filter_taint_toleration(const struct model_cycle *cy, int node,
				   struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct node *n = &cy->cluster->nodes[node];
	int i = match_first_untolerated(&cy->cluster->pods[cy->pod], n);
	if (i < 0)
		return;
	/* "node(s) had untolerated taint {%s: %s}" */
	sched_status_add_join(out, SCHED_UAU, (const char *[]){
		"node(s) had untolerated taint {", n->taints[i].key, ": ",
		n->taints[i].value, "}"}, 5);
}
