/*
 * quirks.h - the switches for kube-scheduler v1.30 behaviour that differs
 * from what the API documentation or the code's own comments intend
 * (reference §7).  Each quirk is one #define: 1 = v1.30 behaviour (the
 * default, what kso models), 0 = the intended semantics.  Code tests them
 * with `if (MODEL_QUIRK_X)` so both branches always compile; a later
 * "intended semantics" mode flips them here and nowhere else.
 *
 * Other engineers add their quirks below, one block each.
 */
#ifndef KSO_QUIRKS_H
#define KSO_QUIRKS_H

/* PodTopologySpread (reference §2.11), same-key constraints.
 * v1.30 keys its counters by topology pair (key, value), not by
 * constraint: two constraints with the same topologyKey but different
 * selectors overwrite each other's per-node count in PreFilter (the later
 * constraint wins), share one TpPairToMatchNum entry and one critical path,
 * and in scoring the second constraint registers no pair (topoSize 0) and
 * adds its counts into the first one's counter.
 * 0: every constraint has its own counters, critical paths and topoSize. */
#ifndef MODEL_QUIRK_SPREAD_SHARED_KEY
#define MODEL_QUIRK_SPREAD_SHARED_KEY 1
#endif

/* PodTopologySpread (reference §2.11), `{}` labelSelector.
 * countPodsMatchSelector returns 0 for an empty selector, so a constraint
 * with labelSelector {} counts no existing pod, although the incoming pod
 * self-matches (selfMatchNum 1) and AddPod/RemovePod do count.
 * 0: {} counts every pod of the namespace. */
#ifndef MODEL_QUIRK_SPREAD_EMPTY_SELECTOR_COUNTS_ZERO
#define MODEL_QUIRK_SPREAD_EMPTY_SELECTOR_COUNTS_ZERO 1
#endif

/* PodTopologySpread scoring with system default constraints (reference
 * §2.11): nodes lacking the zone label are not ignored (requireAll is
 * false) and register the pair (zone, "") - a pseudo-domain "" that raises
 * topoSize (and so the weight ln(size+2)) and collects counts from every
 * zone-less node.
 * 0: a node lacking a constraint's key registers and counts nothing for
 * that constraint. */
#ifndef MODEL_QUIRK_SPREAD_EMPTY_DOMAIN
#define MODEL_QUIRK_SPREAD_EMPTY_DOMAIN 1
#endif

/* PodTopologySpread Filter (reference §2.11), approximate critical paths.
 * The minimum per key is kept as two critical paths built at PreFilter and
 * patched by update() on each AddPod/RemovePod (nominated pods, preemption
 * victims); the patch can leave p0 above the true minimum.
 * 0: the minimum is recomputed exactly from the updated counts. */
#ifndef MODEL_QUIRK_SPREAD_APPROX_CRITICAL_PATHS
#define MODEL_QUIRK_SPREAD_APPROX_CRITICAL_PATHS 1
#endif

/* InterPodAffinity Filter (reference §2.10), first pod of a series.
 * A pod whose required affinity finds no match in the node's domain still
 * passes when the affinity counts are empty - i.e. no existing pod that
 * matches all of its terms sits on a node carrying one of the terms'
 * topology keys - and it matches its own terms.  A matching pod on a node
 * without those keys does not block the exception.
 * 0: the exception needs no matching pod anywhere in the cluster (the code
 * comment's intent: "no other pod in the cluster matches"). */
#ifndef MODEL_QUIRK_AFFINITY_FIRST_POD_COUNTS
#define MODEL_QUIRK_AFFINITY_FIRST_POD_COUNTS 1
#endif

/* NodeResourcesFit bookkeeping (reference §2.7, §7), NonZeroRequested.
 * v1.30 sums the per-container non-zero cpu/memory over the regular
 * containers only: sidecars (restartPolicy Always init containers) enter
 * only through the init-container maximum, although PodRequests adds them
 * to the container sum.
 * 0: sidecars are added to the container sum as PodRequests does. */
#ifndef MODEL_QUIRK_NONZERO_IGNORES_SIDECARS
#define MODEL_QUIRK_NONZERO_IGNORES_SIDECARS 1
#endif

/* NodePorts (reference §2.6), NodeInfo.UsedPorts is a set.
 * RemovePod (a preemption victim) deletes the pod's (ip, protocol, port)
 * keys even when another pod on the node still holds the same key, so the
 * port looks free.
 * 0: a key is in use while any pod on the node holds it. */
#ifndef MODEL_QUIRK_PORTS_SET_REMOVAL
#define MODEL_QUIRK_PORTS_SET_REMOVAL 1
#endif

/* DefaultPreemption victim order (reference §3.4 steps 3 and 6).
 * MoreImportantPod reads a missing status.startTime as time.Now() at each
 * call, so for two equal-priority pods without one less() is true both
 * ways, and sort.Slice (insertion sort up to 12 pods, pdqsort beyond)
 * then reverses them, among other orders (core/go_sort.h reproduces Go's
 * algorithm exactly).  The order decides which pods are reprieved first.
 * 0: such pods tie, settled by pod index (manifest order). */
#ifndef MODEL_QUIRK_VICTIM_ORDER_NOW
#define MODEL_QUIRK_VICTIM_ORDER_NOW 1
#endif

#endif
