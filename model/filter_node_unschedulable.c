/*
 * filter_node_unschedulable.c - the NodeUnschedulable filter (reference
 * §2.2, S/framework/plugins/nodeunschedulable/node_unschedulable.go).
 */
#include "plugin.h"

#include <assert.h>

#include "match.h"

/*
 * Filter(Pod, Node) ==
 *   \/ Node.Spec.Unschedulable = FALSE
 *   \/ \E Toleration \in Pod.Spec.Tolerations :
 *         Tolerates(Toleration, [Key |-> "node.kubernetes.io/unschedulable",
 *                                Value |-> "", Effect |-> "NoSchedule"])
 * Failure: UnschedulableAndUnresolvable "node(s) were unschedulable".
 * Seed (004 §1.1) also demands Node.Status.Phase = "Running" and allows no
 * toleration; v1.30 has no phase check and lets a pod tolerating the
 * unschedulable taint through (reference §5 (b)).
 */
void model_filter_node_unschedulable(const struct model_cycle *cy, int node,
				     struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const struct node *n = &cy->cluster->nodes[node];
	if (!n->unschedulable)
		return;
	const struct taint unschedulable = {
		.key = "node.kubernetes.io/unschedulable",
		.value = "",
		.effect = EFFECT_NO_SCHEDULE,
	};
	if (match_taint_tolerated(&cy->cluster->pods[cy->pod], &unschedulable))
		return;
	sched_status_add(out, SCHED_UAU, "node(s) were unschedulable");
}
