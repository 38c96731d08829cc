/*
 * snapshot.h - a placement: where each pod of a cluster is.
 *
 * Spec (shared/seeds/004): BoundTo(Pod, Node, Snapshot) ==
 * Pod.Spec.NodeName = Node.Name.  The objects never change during a run;
 * only the placement does, so the model, the oracle and the enumerator pass
 * a struct snapshot (cluster + placement) instead of copying manifests.
 */
#ifndef KSO_SNAPSHOT_H
#define KSO_SNAPSHOT_H

#include <stdint.h>

#include "objects.h"

#define SNAP_PENDING (-1)    /* not bound: waits for the scheduler */
#define SNAP_GONE (-2)       /* deleted (e.g. a preemption victim) */
#define SNAP_ELSEWHERE (-3)  /* spec.nodeName names a node not in the cluster */

struct dra_live;

struct snapshot {
	const struct cluster *cluster;
	int32_t *pod_node;   /* per pod: node index or SNAP_* */
	int32_t *nominated;  /* per pod: status.nominatedNodeName as node index, or -1 */
	/* the ResourceClaims' status, which binds and deletions change
	 * (core/dra_live.h); NULL: as loaded (always so without claims).
	 * Owned by snapshots made with snapshot_init / snapshot_clone; a
	 * view built by hand borrows its base's. */
	struct dra_live *dra;
};

/* snapshot_init: the placement the manifests describe (spec.nodeName,
 * status.nominatedNodeName) and the claims' status as loaded.  Owns its
 * malloc'ed arrays; pair with snapshot_release().  Aborts on
 * out-of-memory. */
void snapshot_init(struct snapshot *s, const struct cluster *c);

/* snapshot_clone: dst becomes an independent copy of src (dst must not be
 * initialised); pair with snapshot_release(). */
void snapshot_clone(struct snapshot *dst, const struct snapshot *src);

/* snapshot_assign: copies src's placement (and claims' status) into dst
 * (same cluster). */
void snapshot_assign(struct snapshot *dst, const struct snapshot *src);

/* snapshot_release: frees the arrays. */
void snapshot_release(struct snapshot *s);

/* snapshot_on_node: true when pod p is bound to node n. */
static inline int snapshot_on_node(const struct snapshot *s, int p, int n)
{
	return s->pod_node[p] == n;
}

#endif
