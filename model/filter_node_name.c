/*
 * filter_node_name.c - the NodeName filter (reference §2.3,
 * S/framework/plugins/nodename/node_name.go).
 */
#include "plugin.h"

#include <assert.h>
#include <string.h>

/*
 * Filter(Pod, Node) ==
 *   Pod.Spec.NodeName = "" \/ Pod.Spec.NodeName = Node.Name
 * Failure: UnschedulableAndUnresolvable "node(s) didn't match the
 * requested node name".  Not in the seed, where only unbound pods are
 * scheduled at all; in v1.30 it also always passes for queued pods.
 */
void model_filter_node_name(const struct model_cycle *cy, int node,
			    struct sched_status *out)
{
	assert(cy && out && node >= 0 && node < cy->cluster->n_nodes);
	sched_status_ok(out);
	const char *want = cy->cluster->pods[cy->pod].node_name;
	if (!want[0] || strcmp(want, cy->cluster->nodes[node].name) == 0)
		return;
	sched_status_add(out, SCHED_UAU,
			 "node(s) didn't match the requested node name");
}
