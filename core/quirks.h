/*
 * quirks.h - the switches for kube-scheduler v1.30 behaviour that differs
 * from what the API documentation or the code's own comments intend
 * (reference §7).  Each quirk has a name (`--quirk NAME=off`); a
 * configuration models it as v1.30 does unless its bit is set in
 * sched_config.quirks_off, so a zeroed configuration is kube's.  Both
 * engines read the switches at run time through quirk_on(), so one binary
 * answers both "what does v1.30 do" and "what was intended".
 *
 * One block per quirk: where it lives in kube, what v1.30 does, and what
 * the switch turned off (the intended semantics) does instead.
 */
#ifndef KSO_QUIRKS_H
#define KSO_QUIRKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum quirk_id {
	/* PodTopologySpread (reference §2.11), same-key constraints.
	 * v1.30 keys its counters by topology pair (key, value), not by
	 * constraint: two constraints with the same topologyKey but
	 * different selectors overwrite each other's per-node count in
	 * PreFilter (the later constraint wins), share one TpPairToMatchNum
	 * entry and one critical path, and in scoring the second constraint
	 * registers no pair (topoSize 0) and adds its counts into the first
	 * one's counter.
	 * off: every constraint has its own counters, critical paths and
	 * topoSize.
	 * No valid input reaches it: the API server rejects a pod with two
	 * constraints of one (topologyKey, whenUnsatisfiable), and so does
	 * PodTopologySpreadArgs' validation for defaultConstraints; kso's
	 * loader does the same.  Kept for states built without validation
	 * (the unit tests).  v1.34 counts per constraint: fixed there
	 * (delta §5.3; quirk_releases). */
	QUIRK_SPREAD_SHARED_KEY,

	/* PodTopologySpread (reference §2.11), `{}` labelSelector.
	 * countPodsMatchSelector returns 0 for an empty selector, so a
	 * constraint with labelSelector {} counts no existing pod, although
	 * the incoming pod self-matches (selfMatchNum 1) and AddPod /
	 * RemovePod do count.
	 * off: {} counts every pod of the namespace. */
	QUIRK_SPREAD_EMPTY_SELECTOR,

	/* PodTopologySpread scoring with system default constraints
	 * (reference §2.11): nodes lacking the zone label are not ignored
	 * (requireAll is false) and register the pair (zone, "") - a
	 * pseudo-domain "" that raises topoSize (and so the weight
	 * ln(size+2)) and collects counts from every zone-less node.
	 * off: a node lacking a constraint's key registers and counts
	 * nothing for that constraint. */
	QUIRK_SPREAD_EMPTY_DOMAIN,

	/* PodTopologySpread Filter (reference §2.11), approximate critical
	 * paths.  The minimum per key is kept as two critical paths built at
	 * PreFilter and patched by update() on each AddPod/RemovePod
	 * (nominated pods, preemption victims); the patch can leave p0 above
	 * the true minimum.
	 * off: the minimum is recomputed exactly from the updated counts.
	 * No decision of v1.30 reaches the difference: AddPod / RemovePod
	 * only ever run for the node being filtered (its nominated pods,
	 * preemption victims on it), so one domain per key changes, and two
	 * critical paths kept by update() hold the true minimum under
	 * changes to a single domain.  It would matter if several nodes'
	 * pods were added in one cycle. */
	QUIRK_SPREAD_APPROX_CRITICAL_PATHS,

	/* InterPodAffinity Filter (reference §2.10), first pod of a series.
	 * A pod whose required affinity finds no match in the node's domain
	 * still passes when the affinity counts are empty - i.e. no existing
	 * pod that matches all of its terms sits on a node carrying one of
	 * the terms' topology keys - and it matches its own terms.  A
	 * matching pod on a node without those keys does not block the
	 * exception.
	 * off: the exception needs no matching pod anywhere in the cluster
	 * (the code comment's intent: "no other pod in the cluster
	 * matches"). */
	QUIRK_AFFINITY_FIRST_POD_COUNTS,

	/* NodeResourcesFit bookkeeping (reference §2.7, §7),
	 * NonZeroRequested.  v1.30 sums the per-container non-zero cpu/memory
	 * over the regular containers only: sidecars (restartPolicy Always
	 * init containers) enter only through the init-container maximum,
	 * although PodRequests adds them to the container sum.
	 * off: sidecars are added to the container sum as PodRequests
	 * does.  v1.34 runs the whole PodRequests formula with the defaults
	 * per container, rounded once per pod (delta §5.1 headline 13;
	 * quirk_releases) - not quite "off", which still rounds per
	 * container. */
	QUIRK_NONZERO_IGNORES_SIDECARS,

	/* NodePorts (reference §2.6), NodeInfo.UsedPorts is a set.
	 * RemovePod (a preemption victim) deletes the pod's (ip, protocol,
	 * port) keys even when another pod on the node still holds the same
	 * key, so the port looks free.
	 * off: a key is in use while any pod on the node holds it. */
	QUIRK_PORTS_SET_REMOVAL,

	/* DefaultPreemption victim order (reference §3.4 steps 3 and 6).
	 * MoreImportantPod reads a missing status.startTime as time.Now() at
	 * each call, so for two equal-priority pods without one less() is
	 * true both ways, and sort.Slice (insertion sort up to 12 pods,
	 * pdqsort beyond) then reverses them, among other orders
	 * (core/go_sort.h reproduces Go's algorithm exactly).  The order
	 * decides which pods are reprieved first.
	 * off: such pods tie, settled by pod index (manifest order). */
	QUIRK_VICTIM_ORDER_NOW,

	/* v1.34.1 only (delta reference item 12, §5.9): DynamicResources is
	 * the last PreFilter plugin, so when an earlier PreFilter rejects
	 * the pod UnschedulableAndUnresolvable (or a PreFilterResult leaves
	 * no node), RunPreFilterPlugins returns before DynamicResources'
	 * PreFilter writes its cycle state; its PostFilter, the first one,
	 * then fails to read that state with Error "not found",
	 * RunPostFilterPlugins stops there and DefaultPreemption never runs
	 * (the FitError ends in ". not found", and the pod's nomination is
	 * left as it was).  No effect under v1.30, whose profile has no
	 * DynamicResources.
	 * off: a missing state reads as a pod without claims ("no new
	 * claims to deallocate") and DefaultPreemption runs. */
	QUIRK_DRA_POSTFILTER_NOT_FOUND,

	/* InterPodAffinity (v1.34 delta §5.4, headline 14), a v1.34.1
	 * regression (kubernetes#141526, introduced by #132457).
	 * mergeAffinityTermNamespacesIfNotEmpty takes the incoming pod's
	 * term by value: the namespaces its namespaceSelector selects are
	 * added to the term's namespace set, but resetting the selector to
	 * "nothing" is lost, and the term is then matched with empty
	 * namespace labels.  A namespaceSelector of only NotIn /
	 * DoesNotExist requirements matches the empty label set, so such a
	 * term of the incoming pod (required or preferred, affinity or
	 * anti-affinity, PreFilter and PreScore, and the pod's match of its
	 * own terms) selects pods of every namespace.
	 * off: the selector selects the namespaces whose labels it matches,
	 * as in v1.30.  v1.30 does not have it (quirk_releases). */
	QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR,

	QUIRK_COUNT
};

/* All quirks off: sched_config.quirks_off for `--quirks off`. */
#define QUIRKS_ALL_OFF ((UINT32_C(1) << QUIRK_COUNT) - 1)

/* quirk_releases: the releases that have quirk q, a bit (1 << v) per
 * enum kube_version v (core/config.h): a quirk a release fixed, or one
 * only a later release brought, is no switch of the others. */
unsigned quirk_releases(enum quirk_id q);

/* quirk_name: q's `--quirk` name, e.g. "spread-shared-key". */
const char *quirk_name(enum quirk_id q);

/* quirk_by_name: the quirk called name, or -1. */
int quirk_by_name(const char *name);

/* quirks_off_text: the names of the quirks quirks_off turns off, joined
 * by sep (e.g. ","), into buf (len > 0, always terminated, truncated to
 * fit); "" when none is.  Returns buf. */
char *quirks_off_text(uint32_t quirks_off, const char *sep, char *buf,
		      size_t len);

/* quirks_off_parse: the names in text up to its end or its first space,
 * joined by ",", as a set of quirks off into *quirks_off.  0, or -1 when
 * a name is none of the quirks'. */
int quirks_off_parse(const char *text, uint32_t *quirks_off);

/* quirk_off_in: whether the set quirks_off (a bit per quirk_id) turns q
 * off, i.e. asks for the intended semantics. */
static inline bool quirk_off_in(uint32_t quirks_off, enum quirk_id q)
{
	return (quirks_off >> q) & 1u;
}

#endif
