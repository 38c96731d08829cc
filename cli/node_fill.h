/*
 * node_fill.h - how full each node is, before and after a run: the
 * "nodes" of `kso schedule -o json` (and so of its -o html fill bars).
 */
#ifndef KSO_CLI_NODE_FILL_H
#define KSO_CLI_NODE_FILL_H

#include "json.h"
#include "../core/snapshot.h"

/* cli_json_node_fill: one JSON array, an entry per node of before's
 * cluster in cluster order:
 *   {"name", "allocatable": {"<resource>": n, ...},
 *    "requested_before": {...}, "requested_after": {...}}
 * allocatable as the node lists it (cpu in millicores, the rest as
 * Value()); requested is kube's NodeInfo bookkeeping of the pods each
 * placement puts on the node (Σ PodRequests, reference §2.7 "Node
 * bookkeeping"; "pods" the number of pods), for the same resources. */
void cli_json_node_fill(struct json_out *j, const struct snapshot *before,
			const struct snapshot *after);

#endif
