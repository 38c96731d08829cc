/*
 * version_diff.c - `kso enum --compare-versions A,B` (issue 34): each
 * decision of the run (under release A) decided again under release B,
 * on the same placement of the same manifests loaded for B, and every
 * difference between the two answers a version-visible finding, with
 * both answers in words and the delta items
 * (../shared/reference/kube-scheduler-v1.34-delta.md, headline list) it
 * is attributed to.
 *
 * The answer compared is everything `kso explain` shows: each node's
 * code, rejecting plugin and each filter's status (code and reasons),
 * each plugin's score and the totals, the viable set, the event message
 * (FitError and PostFilter) and DefaultPreemption's node and victims.
 * Both answers are the oracle's (explain mode and kube's preemption),
 * which the run's cross-check holds equal to the model's under A and
 * tests/test_engines.py under B.
 *
 * Attribution is by the field that differs, not by re-deciding with
 * single items switched (kso switches the release as a whole):
 *   - a node rejected by NodeResourcesFit under both with the same
 *     reasons but another code: fit-unresolvable (1);
 *   - NodeResourcesFit's reasons, or its or BalancedAllocation's scores,
 *     where the pods' requests differ between the two loads:
 *     pod-resources (11); NodeResourcesFit's scores where a pod has a
 *     sidecar: nonzero-sidecars (13);
 *   - BalancedAllocation skipped under one release only: balanced-skip (5);
 *   - the message: B's PostFilter "no new claims to deallocate":
 *     dra-postfilter (2); a PostFilter Error "not found": dra-not-found
 *     (12); an absent-nodes status ("didn't satisfy plugin(s)"):
 *     absent-nodes (3);
 *   - NodePorts: sidecar-ports (9); PodTopologySpread: spread (4);
 *     InterPodAffinity: label-keys (6) where a term (of the incoming pod
 *     against the pods it reads, of those pods against it) selects
 *     another pod by its labels under the two loads (the merged
 *     matchLabelKeys / mismatchLabelKeys), ns-selector (14) where it
 *     selects the same by labels but another by namespace (v1.34.1's
 *     negative namespaceSelector), both where both hold;
 *     VolumeBinding / VolumeRestrictions with the same codes:
 *     volume-texts (7), else (and the volume limits): volumes (8);
 *     DynamicResources' filter: dra-claims;
 *   - NodeResourcesFit's and BalancedAllocation's scores, NodePorts and
 *     NodeResourcesFit's filter read the incoming pod and the pods on
 *     (or nominated to) the node: an item about requests or sidecars
 *     counts only where one of those pods has them;
 *   - another preemption node or victims where the requests of the pods
 *     on the chosen node differ between the loads: pod-resources (11)
 *     (the dry runs reprieve by requests).
 * Scores normalized over the feasible nodes change with the feasible
 * set; they and everything else that differs (the viable set, the
 * preemption, the histogram) follow from those; a difference with none
 * of them is "unattributed" (none on the default universe).
 */
#include "enum.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/engine.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../model/affinity_terms.h"
#include "../model/match.h"

static const struct {
	const char *name;
	int item;
} vdelta[ENUM_VDELTA_COUNT] = {
	[ENUM_VDELTA_FIT_UNRESOLVABLE] = {"fit-unresolvable", 1},
	[ENUM_VDELTA_DRA_POSTFILTER] = {"dra-postfilter", 2},
	[ENUM_VDELTA_ABSENT_NODES] = {"absent-nodes", 3},
	[ENUM_VDELTA_SPREAD] = {"spread-per-constraint", 4},
	[ENUM_VDELTA_BALANCED_SKIP] = {"balanced-skip", 5},
	[ENUM_VDELTA_LABEL_KEYS] = {"label-keys", 6},
	[ENUM_VDELTA_VOLUME_TEXTS] = {"volume-texts", 7},
	[ENUM_VDELTA_VOLUMES] = {"volumes", 8},
	[ENUM_VDELTA_SIDECAR_PORTS] = {"sidecar-ports", 9},
	[ENUM_VDELTA_POD_RESOURCES] = {"pod-resources", 11},
	[ENUM_VDELTA_DRA_NOT_FOUND] = {"dra-not-found", 12},
	[ENUM_VDELTA_NONZERO_SIDECARS] = {"nonzero-sidecars", 13},
	[ENUM_VDELTA_NS_SELECTOR] = {"ns-selector", 14},
	[ENUM_VDELTA_DRA_CLAIMS] = {"dra-claims", 0},
	[ENUM_VDELTA_OTHER] = {"unattributed", 0},
};

const char *enum_vdelta_name(int item)
{
	assert(item >= 0 && item < ENUM_VDELTA_COUNT);
	return vdelta[item].name;
}

int enum_vdelta_item(int item)
{
	assert(item >= 0 && item < ENUM_VDELTA_COUNT);
	return vdelta[item].item;
}

/* One release's answer for the pod. */
struct answer {
	const struct cluster *c;
	struct sched_cycle_result r;
	struct sched_preemption pr;
	bool preempted;
	char *message;             /* the event message */
};

static void answer_of(const struct cluster *c, const struct snapshot *at, int pod,
		      struct answer *a)
{
	const struct sched_profile *prof = model_profile_for(c, pod);
	struct snapshot s = {c, at->pod_node, at->nominated, at->dra};
	a->c = c;
	sched_cycle_result_init(&a->r, c);
	sched_preemption_init(&a->pr);
	oracle_engine.cycle(prof, &s, pod, &a->r);
	a->preempted = a->r.code == SCHED_UNSCHEDULABLE && config_has_postfilter(prof);
	if (a->preempted) {
		struct sched_preempt_opts opts = {.offset_draw = 0};
		oracle_engine.preempt(prof, &s, pod, &a->r, &opts, &a->pr);
	}
	a->message = a->r.code == SCHED_UNSCHEDULABLE
		? model_fit_error(&a->r, a->preempted ? a->pr.message : NULL)
		: xstrdup(a->r.message ? a->r.message : "");
}

static void answer_release(struct answer *a)
{
	free(a->message);
	sched_preemption_release(&a->pr);
	sched_cycle_result_release(&a->r);
}

/* The answer in words: what the scheduler does, then the message. */
static void answer_words(const struct answer *a, struct strbuf *b)
{
	const struct cluster *c = a->c;
	const struct sched_cycle_result *r = &a->r;
	if (r->n_viable > 0) {
		strbuf_puts(b, "bind to");
		for (int i = 0; i < r->n_viable; i++)
			strbuf_printf(b, "%s%s", i ? "|" : " ", c->nodes[r->viable[i]].name);
		return;
	}
	if (r->code == SCHED_ERROR)
		strbuf_puts(b, "error");
	else if (a->preempted && a->pr.code == SCHED_ERROR)
		strbuf_puts(b, "unschedulable, PostFilter error");
	else if (a->preempted && a->pr.node >= 0) {
		strbuf_printf(b, "preempt on %s evicting", c->nodes[a->pr.node].name);
		for (int i = 0; i < a->pr.chosen.n; i++)
			strbuf_printf(b, " %s", c->pods[a->pr.chosen.pods[i]].name);
	} else {
		strbuf_puts(b, "unschedulable");
	}
	strbuf_printf(b, " (\"%s\")", a->message);
}

static const char *code_name(enum sched_code k)
{
	static const char *const names[] = {"Success", "Unschedulable",
		"UnschedulableAndUnresolvable", "Skip", "Error"};
	return names[k];
}

/* Whether two statuses say the same. */
static bool same_status(const struct sched_status *a, const struct sched_status *b)
{
	if (a->code != b->code || a->n_reasons != b->n_reasons)
		return false;
	for (int i = 0; i < a->n_reasons; i++)
		if (strcmp(sched_status_reason(a, i), sched_status_reason(b, i)))
			return false;
	return true;
}

static bool same_reasons(const struct sched_status *a, const struct sched_status *b)
{
	if (a->n_reasons != b->n_reasons)
		return false;
	for (int i = 0; i < a->n_reasons; i++)
		if (strcmp(sched_status_reason(a, i), sched_status_reason(b, i)))
			return false;
	return true;
}

/* What the two loads of the manifests differ in, and the pods' features
 * the attribution reads: per pod, and for a node through the incoming
 * pod and the pods on (or nominated to) it. */
struct loads {
	int pod, n_pods;
	const struct snapshot *at;
	bool *requests_differ;     /* [n_pods] pod-level requests, resize */
	bool *sidecar;             /* [n_pods] the pod has a sidecar */
	bool label_keys;           /* a term's merged label keys select another pod */
	bool ns_selector;          /* a term's namespaces select another pod */
};

/* Whether flag holds for the incoming pod or a pod node n accounts
 * (bound there or nominated to it). */
static bool on_node(const struct loads *l, const bool *flag, int n)
{
	if (flag[l->pod])
		return true;
	for (int q = 0; q < l->n_pods; q++)
		if (flag[q] && (l->at->pod_node[q] == n || l->at->nominated[q] == n))
			return true;
	return false;
}

static bool lists_differ(const struct resource_list *a, const struct resource_list *b)
{
	if (a->n != b->n)
		return true;
	for (int i = 0; i < a->n; i++)
		if (a->items[i].res != b->items[i].res ||
		    a->items[i].q.units != b->items[i].q.units ||
		    a->items[i].q.nanos != b->items[i].q.nanos)
			return true;
	return false;
}

static bool containers_differ(const struct container *a, const struct container *b, int n)
{
	for (int i = 0; i < n; i++)
		if (lists_differ(&a[i].requests, &b[i].requests))
			return true;
	return false;
}

/* Each (anti-)affinity term list of a pod, by kind, with its owner's
 * terms as the two loads read them. */
struct term_list {
	const struct pod_affinity_term *a, *b;
	int n;
	size_t stride;             /* a term inside a weighted term */
};

static int term_lists(const struct pod *a, const struct pod *b, struct term_list out[4])
{
	out[0] = (struct term_list){a->affinity, b->affinity, a->n_affinity,
				    sizeof *a->affinity};
	out[1] = (struct term_list){a->anti_affinity, b->anti_affinity,
				    a->n_anti_affinity, sizeof *a->anti_affinity};
	/* a weighted list's terms, NULL for an empty list (taking the
	 * member of a NULL list's first entry is undefined) */
	out[2] = (struct term_list){
		a->affinity_preferred ? &a->affinity_preferred[0].term : NULL,
		b->affinity_preferred ? &b->affinity_preferred[0].term : NULL,
		a->n_affinity_preferred, sizeof *a->affinity_preferred};
	out[3] = (struct term_list){
		a->anti_affinity_preferred ?
			&a->anti_affinity_preferred[0].term : NULL,
		b->anti_affinity_preferred ?
			&b->anti_affinity_preferred[0].term : NULL,
		a->n_anti_affinity_preferred,
		sizeof *a->anti_affinity_preferred};
	/* the loads hold the same terms (only their selectors may differ) */
	bool same = a->n_affinity == b->n_affinity &&
		a->n_anti_affinity == b->n_anti_affinity &&
		a->n_affinity_preferred == b->n_affinity_preferred &&
		a->n_anti_affinity_preferred == b->n_anti_affinity_preferred;
	return same ? 4 : 0;
}

static const struct pod_affinity_term *term_at(const struct pod_affinity_term *t,
					       size_t stride, int k)
{
	return (const struct pod_affinity_term *)((const char *)t + stride * (size_t)k);
}

static bool accounted(const struct snapshot *at, int q)
{
	return at->pod_node[q] >= 0 || at->nominated[q] >= 0;
}

/* Whether InterPodAffinity matches a term of pod i against pod q when it
 * decides pod: the incoming pod's terms against the pods bound or
 * nominated and itself (the first-pod exception of required affinity),
 * those pods' terms against the incoming pod. */
static bool reads(const struct snapshot *at, int pod, int i, int q)
{
	return i == pod ? q == pod || accounted(at, q) : q == pod;
}

/* Which way the two loads' (anti-)affinity terms select pods of the
 * state that InterPodAffinity reads (reads()).
 * Where the label selectors (matchLabelKeys / mismatchLabelKeys merged,
 * delta §6) select another pod: label-keys; where they agree on the pod
 * but the namespaces do not (the incoming pod's namespaceSelector, v1.34.1's
 * regression, delta §5.4): ns-selector. */
static void terms_select(const struct cluster *ca, const struct cluster *cb,
			 const struct snapshot *at, int pod, struct loads *l)
{
	for (int i = 0; i < ca->n_pods; i++) {
		if (i != pod && !accounted(at, i))
			continue;
		enum model_term_owner owner = i == pod ? TERM_OF_INCOMING
			: TERM_OF_EXISTING;
		const struct pod *pa = &ca->pods[i], *pb = &cb->pods[i];
		struct term_list lists[4];
		int n_lists = term_lists(pa, pb, lists);
		if (n_lists == 0)
			l->label_keys = true;
		for (int t = 0; t < n_lists; t++)
			for (int k = 0; k < lists[t].n; k++) {
				const struct pod_affinity_term *ta =
					term_at(lists[t].a, lists[t].stride, k);
				const struct pod_affinity_term *tb =
					term_at(lists[t].b, lists[t].stride, k);
				for (int q = 0; q < ca->n_pods; q++) {
					if (!reads(at, pod, i, q))
						continue;
					bool la = match_label_selector(&ta->selector,
								       &ca->pods[q].labels);
					bool lb = match_label_selector(&tb->selector,
								       &cb->pods[q].labels);
					if (la != lb) {
						l->label_keys = true;
						continue;
					}
					if (model_affinity_term_matches(ca, ta, pa->ns, owner,
									&ca->pods[q]) !=
					    model_affinity_term_matches(cb, tb, pb->ns, owner,
									&cb->pods[q]))
						l->ns_selector = true;
				}
			}
	}
}

static void loads_of(const struct cluster *ca, const struct cluster *cb,
		     const struct snapshot *at, int pod, struct loads *l)
{
	memset(l, 0, sizeof *l);
	l->pod = pod;
	l->n_pods = ca->n_pods;
	l->at = at;
	l->requests_differ = xcalloc((size_t)ca->n_pods + 1, sizeof *l->requests_differ);
	l->sidecar = xcalloc((size_t)ca->n_pods + 1, sizeof *l->sidecar);
	for (int i = 0; i < ca->n_pods; i++) {
		const struct pod *a = &ca->pods[i], *b = &cb->pods[i];
		l->requests_differ[i] = a->pod_requests_set != b->pod_requests_set ||
			lists_differ(&a->pod_requests, &b->pod_requests) ||
			a->n_containers != b->n_containers ||
			a->n_init_containers != b->n_init_containers ||
			containers_differ(a->containers, b->containers,
					  a->n_containers < b->n_containers
					  ? a->n_containers : b->n_containers) ||
			containers_differ(a->init_containers, b->init_containers,
					  a->n_init_containers < b->n_init_containers
					  ? a->n_init_containers : b->n_init_containers);
		for (int k = 0; k < b->n_init_containers; k++)
			l->sidecar[i] |= b->init_containers[k].restart_always;
	}
	terms_select(ca, cb, at, pod, l);
}

static void loads_release(struct loads *l)
{
	free(l->requests_differ);
	free(l->sidecar);
}

/* The comparison: the first differing field's text and the items. */
struct diff {
	uint32_t items;
	bool any;
	char first[160];
};

/* A set of delta items, a bit per enum_vdelta. */
static uint32_t bit(int item)
{
	return UINT32_C(1) << item;
}

/* A difference (items 0: one that follows from others), the first kept
 * in words. */
static void differs(struct diff *d, uint32_t items, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void differs(struct diff *d, uint32_t items, const char *fmt, ...)
{
	d->items |= items;
	if (d->any)
		return;
	d->any = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(d->first, sizeof d->first, fmt, ap);
	va_end(ap);
}

/* InterPodAffinity's items: the ways its terms select other pods under
 * the two loads (both when both hold). */
static uint32_t affinity_items(const struct loads *l)
{
	uint32_t items = (l->label_keys ? bit(ENUM_VDELTA_LABEL_KEYS) : 0) |
			 (l->ns_selector ? bit(ENUM_VDELTA_NS_SELECTOR) : 0);
	return items ? items : bit(ENUM_VDELTA_OTHER);
}

/* A filter's status differing on node n: the items its plugin stands for. */
static uint32_t filter_items(int f, const struct sched_node_verdict *va,
		       const struct sched_node_verdict *vb, const struct loads *l,
		       int n)
{
	const struct sched_status *a = &va->status[f], *b = &vb->status[f];
	switch (f) {
	case PLUGIN_NODE_RESOURCES_FIT:
		if (same_reasons(a, b) && a->code != SCHED_SUCCESS &&
		    b->code != SCHED_SUCCESS)
			return bit(ENUM_VDELTA_FIT_UNRESOLVABLE);
		return bit(on_node(l, l->requests_differ, n) ? ENUM_VDELTA_POD_RESOURCES
			   : ENUM_VDELTA_OTHER);
	case PLUGIN_NODE_PORTS:
		return bit(on_node(l, l->sidecar, n) ? ENUM_VDELTA_SIDECAR_PORTS
			   : ENUM_VDELTA_OTHER);
	case PLUGIN_POD_TOPOLOGY_SPREAD:
		return bit(ENUM_VDELTA_SPREAD);
	case PLUGIN_INTER_POD_AFFINITY:
		return affinity_items(l);
	case PLUGIN_VOLUME_BINDING:
	case PLUGIN_VOLUME_RESTRICTIONS:
		return bit(a->code == b->code && a->n_reasons == b->n_reasons
			   ? ENUM_VDELTA_VOLUME_TEXTS : ENUM_VDELTA_VOLUMES);
	case PLUGIN_NODE_VOLUME_LIMITS:
	case PLUGIN_EBS_LIMITS:
	case PLUGIN_GCE_PD_LIMITS:
	case PLUGIN_AZURE_DISK_LIMITS:
		return bit(ENUM_VDELTA_VOLUMES);
	case PLUGIN_DYNAMIC_RESOURCES:
		return bit(ENUM_VDELTA_DRA_CLAIMS);
	default:
		return bit(ENUM_VDELTA_OTHER);
	}
}

/* A plugin's score differing (skip: BalancedAllocation skipped under
 * one release only): the items. */
static uint32_t score_items(int p, bool skip, const struct loads *l, int n)
{
	bool requests = on_node(l, l->requests_differ, n);
	switch (p) {
	case PLUGIN_POD_TOPOLOGY_SPREAD:
		return bit(ENUM_VDELTA_SPREAD);
	case PLUGIN_INTER_POD_AFFINITY:
		return affinity_items(l);
	case PLUGIN_BALANCED_ALLOCATION:
		return bit(skip ? ENUM_VDELTA_BALANCED_SKIP
			   : requests ? ENUM_VDELTA_POD_RESOURCES : ENUM_VDELTA_OTHER);
	case PLUGIN_NODE_RESOURCES_FIT:
		/* the requests of the pods on the node, or their non-zero
		 * defaults with sidecars */
		return bit(requests ? ENUM_VDELTA_POD_RESOURCES
			   : on_node(l, l->sidecar, n) ? ENUM_VDELTA_NONZERO_SIDECARS
			   : ENUM_VDELTA_OTHER);
	default:
		return bit(ENUM_VDELTA_OTHER);
	}
}

/* Whether plugin p's scores are normalized over the feasible nodes
 * (NormalizeScore, or a PreScore over them), so that another feasible
 * set changes them without any rule of p's changing. */
static bool normalized(int p)
{
	return p == PLUGIN_TAINT_TOLERATION || p == PLUGIN_NODE_AFFINITY ||
	       p == PLUGIN_POD_TOPOLOGY_SPREAD || p == PLUGIN_INTER_POD_AFFINITY ||
	       p == PLUGIN_SELECTOR_SPREAD;
}

static void compare_node(const struct answer *a, const struct answer *b, int n,
			 bool same_feasible, const struct loads *l, struct diff *d)
{
	const struct sched_node_verdict *va = &a->r.verdicts[n], *vb = &b->r.verdicts[n];
	const char *name = a->c->nodes[n].name;
	for (int f = 0; f < PLUGIN_FILTERS; f++)
		if (!same_status(&va->status[f], &vb->status[f]))
			differs(d, filter_items(f, va, vb, l, n), "nodes.%s.%s: %s -> %s",
				name, config_plugin_name(f), code_name(va->status[f].code),
				code_name(vb->status[f].code));
	if (va->code != vb->code || va->feasible != vb->feasible)
		differs(d, 0, "nodes.%s.code: %s -> %s", name, code_name(va->code),
			code_name(vb->code));
	/* scores of a node scored under both: a score normalized over the
	 * feasible nodes changes with them, which other fields explain */
	if (!a->r.scored || !b->r.scored || !va->feasible || !vb->feasible)
		return;
	for (int p = 0; p < PLUGIN_COUNT; p++) {
		int64_t sa = a->r.scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
		int64_t sb = b->r.scores[(size_t)n * PLUGIN_COUNT + (size_t)p];
		bool skip = p == PLUGIN_BALANCED_ALLOCATION &&
			    a->r.score_skipped[p] != b->r.score_skipped[p];
		if (sa == sb && !skip)
			continue;
		uint32_t items = score_items(p, skip, l, n);
		if (!same_feasible && normalized(p))
			items = 0;
		differs(d, items, "nodes.%s.scores.%s: %lld -> %lld",
			name, config_plugin_name(p), (long long)sa, (long long)sb);
	}
}

/* The message's items: PostFilter's and the histogram's v1.34 parts. */
static void compare_message(const struct answer *a, const struct answer *b,
			    struct diff *d)
{
	if (!strcmp(a->message, b->message))
		return;
	static const struct {
		const char *text;
		int item;
	} parts[] = {
		{"no new claims to deallocate", ENUM_VDELTA_DRA_POSTFILTER},
		{". not found", ENUM_VDELTA_DRA_NOT_FOUND},
		{"didn't satisfy plugin(s)", ENUM_VDELTA_ABSENT_NODES},
	};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		if (!strstr(a->message, parts[i].text) != !strstr(b->message, parts[i].text))
			d->items |= bit(parts[i].item);
	differs(d, 0, "message: \"%s\" -> \"%s\"", a->message, b->message);
}

/* Another preemption (node or victims): where the requests of the pods
 * on the chosen node differ between the loads, the dry runs differ by
 * them (SelectVictimsOnNode reprieves by requests); else it follows
 * from other fields (0). */
static uint32_t preemption_items(const struct answer *a, const struct answer *b,
				 const struct loads *l)
{
	int nodes[2] = {a->preempted ? a->pr.node : -1, b->preempted ? b->pr.node : -1};
	for (int k = 0; k < 2; k++)
		if (nodes[k] >= 0 && on_node(l, l->requests_differ, nodes[k]))
			return bit(ENUM_VDELTA_POD_RESOURCES);
	return 0;
}

static void compare(const struct answer *a, const struct answer *b,
		    const struct loads *l, struct diff *d)
{
	memset(d, 0, sizeof *d);
	if (!same_status(&a->r.prefilter, &b->r.prefilter))
		differs(d, 0, "prefilter: %s -> %s", code_name(a->r.prefilter.code),
			code_name(b->r.prefilter.code));
	bool same_feasible = a->r.n_feasible == b->r.n_feasible &&
		!memcmp(a->r.feasible, b->r.feasible,
			sizeof *a->r.feasible * (size_t)a->r.n_feasible);
	for (int n = 0; n < a->r.n_nodes; n++)
		compare_node(a, b, n, same_feasible, l, d);
	if (a->r.n_viable != b->r.n_viable ||
	    memcmp(a->r.viable, b->r.viable, sizeof *a->r.viable * (size_t)a->r.n_viable))
		differs(d, 0, "viable");
	if (a->r.code != b->r.code)
		differs(d, 0, "code: %s -> %s", code_name(a->r.code), code_name(b->r.code));
	compare_message(a, b, d);
	if (a->preempted != b->preempted ||
	    (a->preempted && (a->pr.node != b->pr.node ||
			      !sched_same_pods(a->pr.chosen.pods, a->pr.chosen.n,
					       b->pr.chosen.pods, b->pr.chosen.n))))
		differs(d, preemption_items(a, b, l), "preemption");
	if (d->any && !d->items)
		d->items |= bit(ENUM_VDELTA_OTHER);
}

/* x->version_alt: the scenario loaded for the other release, NULL when
 * it does not hold the same pods and nodes in the same order (then no
 * state of it is compared; loading it for the run's release worked). */
static const struct enum_scenario *version_alt(struct enum_ctx *x)
{
	if (x->version_alt || x->version_alt_failed)
		return x->version_alt;
	x->version_alt = xmalloc(sizeof *x->version_alt);
	struct error err;
	error_init(&err);
	bool ok = enum_scenario_as(x->sc, (enum kube_version)x->compare_version,
				   x->config_path, x->version_alt, &err) == 0;
	const struct cluster *a = x->c, *b = &x->version_alt->cluster;
	ok = ok && a->n_pods == b->n_pods && a->n_nodes == b->n_nodes;
	for (int i = 0; ok && i < a->n_pods; i++)
		ok = !strcmp(a->pods[i].name, b->pods[i].name) &&
		     !strcmp(a->pods[i].ns, b->pods[i].ns) &&
		     model_profile_for(b, i) != NULL;
	for (int i = 0; ok && i < a->n_nodes; i++)
		ok = !strcmp(a->nodes[i].name, b->nodes[i].name);
	if (!ok) {
		enum_scenario_release(x->version_alt);
		free(x->version_alt);
		x->version_alt = NULL;
		x->version_alt_failed = true;
	}
	return x->version_alt;
}

void enum_check_versions(struct enum_ctx *x, int pod, struct enum_outcome *out)
{
	assert(x && out && x->compare_version >= 0);
	const struct enum_scenario *alt = version_alt(x);
	if (!alt)
		return;
	struct answer a, b;
	answer_of(x->c, &x->snap, pod, &a);
	answer_of(&alt->cluster, &x->snap, pod, &b);
	struct loads l;
	loads_of(x->c, &alt->cluster, &x->snap, pod, &l);
	struct diff d;
	compare(&a, &b, &l, &d);
	if (d.any) {
		out->find[ENUM_FIND_VERSION_VISIBLE] = true;
		out->version_items = d.items;
		struct strbuf w;
		strbuf_init(&w);
		strbuf_puts(&w, "delta items:");
		for (int i = 0; i < ENUM_VDELTA_COUNT; i++)
			if (d.items >> i & 1)
				strbuf_printf(&w, " %s", enum_vdelta_name(i));
		strbuf_printf(&w, "; v%s: ", config_kube_version_name(x->c->config.kube_version));
		answer_words(&a, &w);
		strbuf_printf(&w, "; v%s: ",
			      config_kube_version_name(alt->cluster.config.kube_version));
		answer_words(&b, &w);
		strbuf_printf(&w, "; first difference: %s", d.first);
		snprintf(out->find_detail[ENUM_FIND_VERSION_VISIBLE], ENUM_DETAIL_LEN,
			 "%s", w.s);
		strbuf_release(&w);
	}
	loads_release(&l);
	answer_release(&a);
	answer_release(&b);
}
