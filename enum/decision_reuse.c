/*
 * decision_reuse.c - the enumerator's reuse of whole decisions across the
 * states of one scenario (issue 37): a decision found clean - both
 * engines agreed on the cycle and on the preemption, no step invariant
 * broke, no finding - is not made again in a later state whose key is
 * the same; the state adds to the tallies what the first did.
 *
 * What a decision of pod P in a placement reads (placements mode: no
 * nominations, every pod bound or pending; reference §1, §3):
 *   - the cycle: each node's Feasibility, which for a pod whose verdicts
 *     the verdict reuse keeps (pod_reads_only_its_node there) reads the
 *     node and the pods bound to it; the scores of the feasible nodes,
 *     each reading that node alone or (NodeAffinity, TaintToleration)
 *     the node's labels and taints normalized over the feasible set -
 *     when the profile scores with nothing else: InterPodAffinity only
 *     reads something when some pod of the scenario has a pod
 *     (anti-)affinity term, PodTopologySpread when P has a spread
 *     constraint (its own, or a default one with a workload selecting
 *     it), VolumeBinding when P has volumes; SelectorSpread, counting
 *     pods over all nodes, is not allowed;
 *   - the FitError message: the nodes' statuses;
 *   - DefaultPreemption (§3.4) and the spec's least-Casualty search:
 *     only nodes whose status is Unschedulable (an
 *     UnschedulableAndUnresolvable node cannot be helped), their pods
 *     and priorities, and the PDBs' budgets, which count pods over the
 *     whole placement - so only without PDBs (and without resource
 *     claims, whose allocations a node's pods do not tell);
 *   - the step invariants: the bound node's pods (capacity), the bind
 *     node's verdict, the victims' priorities and P's Feasibility on the
 *     node after the evictions; breaks-earlier reads other pods' hard
 *     constraints: only kept when no pod's constraint counts P at all.
 * A node rejecting P with an UnschedulableAndUnresolvable status from a
 * filter that reads only P and the Node object (NodeUnschedulable,
 * NodeName, TaintToleration, NodeAffinity), with only such filters
 * before it in the profile's Filter order, rejects P so whatever pods it
 * holds: it is never feasible, scored, nor a place to preempt on, and
 * only its verdict is read (its other failed filters, compared between
 * the engines, do read the pods) - a *fixed* node of P.
 *
 * When some node is feasible the cycle binds: nothing preempts, no
 * FitError message is built, and a rejecting node is read only through
 * its verdict.
 *
 * Key: (P, for each node: the set of pods bound to it; for a fixed node
 * instead the content id of the stored verdict of (P, node, its pods)
 * when that verdict is a pair - both engines gave it, compared once).
 * When every node's verdict is a pair and one of them is feasible, a
 * rejecting node's word is its verdict's content id too (a flag in the
 * pod's word tells the two kinds of key apart; a verdict is feasible or
 * not the same in both).  Within one scenario (a context's life).  Value: clean, and whether the
 * decision went to preemption (the tallies' preemptions).  Only kept
 * while nothing of a clean state is stored (not --store all: a stored
 * row reads the cycle's feasible and viable lists and the oracle's
 * choice, drawn by the state's seed) and no other check runs on the
 * decision (--compare-quirks, --compare-versions, --impl).
 *
 * The guard is the verdict reuse's: a sampled state (one in 64, by the
 * state's seed) is decided afresh and a kept value it contradicts is a
 * disagreement "reuse: ..." (checks.c); --no-reuse turns this off with
 * the rest, and tests/test_enum.py holds every stored row equal both
 * ways.
 */
#include "enum.h"
#include "../core/fnv.h"
#include "../core/grow.h"
#include "../core/splitmix.h"
#include "../core/xalloc.h"
#include "../model/spread_constraints.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* Kept decisions past this many are not kept; the rest are decided as
 * before.  A key is 4 bytes a node and 1: with 8 nodes a full table is
 * about 220 MB, with 16 about 370 MB, with 64 about 1.2 GB (a worker's). */
#define DECISIONS_MAX (UINT64_C(1) << 22)

/* The node words of a key: a pods mask (n_pods <= 20 bits), or a
 * verdict's content id tagged (with CONTENT_FEASIBLE clear: a rejecting
 * one); the first word, the pod and whether the key reads the rejecting
 * nodes' verdicts (KEY_BY_VERDICT). */
#define VERDICT_TAG UINT32_C(0x80000000)
#define CONTENT_FEASIBLE UINT32_C(0x40000000)
#define KEY_BY_VERDICT UINT32_C(0x80000000)

/* The filters that read only the pod and the Node object. */
static bool node_object_filter(enum plugin_id id)
{
	return id == PLUGIN_NODE_UNSCHEDULABLE || id == PLUGIN_NODE_NAME ||
	       id == PLUGIN_TAINT_TOLERATION || id == PLUGIN_NODE_AFFINITY;
}

/* Whether prof scores with nothing that reads other nodes' pods for pod
 * (the header's list). */
static bool scores_read_one_node(const struct cluster *c,
				 const struct sched_profile *prof, int pod)
{
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		if (!prof->score[id])
			continue;
		switch (id) {
		case PLUGIN_NODE_RESOURCES_FIT:
		case PLUGIN_BALANCED_ALLOCATION:
		case PLUGIN_IMAGE_LOCALITY:
		case PLUGIN_NODE_AFFINITY:
		case PLUGIN_TAINT_TOLERATION:
		case PLUGIN_VOLUME_BINDING:      /* no volumes: local pods */
		case PLUGIN_INTER_POD_AFFINITY:  /* no terms: enum_decisions_init */
			continue;
		case PLUGIN_POD_TOPOLOGY_SPREAD:
			if (model_spread_constraints_none(c, prof, pod, false) &&
			    model_spread_constraints_none(c, prof, pod, true))
				continue;
			return false;
		default:
			return false;
		}
	}
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (prof->postfilter[id] && id != PLUGIN_DEFAULT_PREEMPTION &&
		    id != PLUGIN_DYNAMIC_RESOURCES)   /* no claims: nothing */
			return false;
	return true;
}

static bool any_pod_affinity_term(const struct cluster *c)
{
	for (int q = 0; q < c->n_pods; q++) {
		const struct pod *p = &c->pods[q];
		if (p->n_affinity || p->n_anti_affinity || p->n_affinity_preferred ||
		    p->n_anti_affinity_preferred)
			return true;
	}
	return false;
}

void enum_decisions_init(struct enum_decision_reuse *d, const struct enum_ctx *x)
{
	assert(d && x);
	memset(d, 0, sizeof *d);
	const struct cluster *c = x->c;
	if (!x->reuse.on || c->n_pdbs > 0 || c->n_claims > 0 ||
	    c->n_nodes > 64 || c->n_pods > 20 || any_pod_affinity_term(c))
		return;
	d->n_nodes = c->n_nodes;
	d->n_pods = c->n_pods;
	d->words = 1 + c->n_nodes;
	d->eligible = xcalloc((size_t)c->n_pods + 1, sizeof *d->eligible);
	bool any = false;
	for (int p = 0; p < c->n_pods; p++) {
		d->eligible[p] = x->reuse.local[p] && x->prof[p] &&
				 !x->may_be_broken[p] &&
				 scores_read_one_node(c, x->prof[p], p);
		any = any || d->eligible[p];
	}
	if (!any) {
		free(d->eligible);
		memset(d, 0, sizeof *d);
		return;
	}
	d->fixed = xcalloc((size_t)c->n_pods + 1, sizeof *d->fixed);
	d->fixed_known = xcalloc((size_t)c->n_pods + 1, sizeof *d->fixed_known);
	d->key_now = xcalloc((size_t)d->words, sizeof *d->key_now);
	d->verdict_now = xcalloc((size_t)d->n_nodes + 1, sizeof *d->verdict_now);
	d->content = xcalloc(((size_t)c->n_pods * (size_t)c->n_nodes) << c->n_pods,
			     sizeof *d->content);
	d->on = true;
}

void enum_decisions_release(struct enum_decision_reuse *d)
{
	free(d->eligible);
	free(d->fixed);
	free(d->fixed_known);
	free(d->key_now);
	free(d->verdict_now);
	free(d->content);
	free(d->keys);
	free(d->hashes);
	free(d->vals);
	free(d->table);
	memset(d, 0, sizeof *d);
}

/* Whether node n's verdict v rejects pod with prof as a fixed node does
 * (the header): UnschedulableAndUnresolvable from a filter reading only
 * the pod and the node, with only such filters before it. */
static bool fixed_verdict(const struct sched_profile *prof,
			  const struct sched_node_verdict *v)
{
	if (v->feasible || v->code != SCHED_UAU || v->rejected_by < 0 ||
	    !node_object_filter(v->rejected_by))
		return false;
	for (int i = 0; i < prof->n_filter_order; i++) {
		enum plugin_id id = prof->filter_order[i];
		if ((int)id == v->rejected_by)
			return true;
		if (prof->filter[id] && !node_object_filter(id))
			return false;
	}
	return false;
}

void enum_decisions_learn(struct enum_decision_reuse *d, const struct enum_ctx *x,
			  int pod)
{
	assert(d && x);
	if (!d->on || !d->eligible[pod] || d->fixed_known[pod])
		return;
	const struct sched_cycle_result *r = &x->mr;
	/* every node's verdict Feasibility's: not after a PreFilter
	 * rejection nor an Error */
	if (r->pod != pod || r->code == SCHED_ERROR ||
	    r->prefilter.code == SCHED_UNSCHEDULABLE ||
	    r->prefilter.code == SCHED_UAU)
		return;
	uint64_t fixed = 0;
	for (int n = 0; n < d->n_nodes; n++)
		if (r->in_prefilter_result[n] &&
		    fixed_verdict(x->prof[pod], &r->verdicts[n]))
			fixed |= UINT64_C(1) << n;
	d->fixed[pod] = fixed;
	d->fixed_known[pod] = true;
}

/* The paired verdict of (pod, node, mask) as the content table keeps it
 * (CONTENT_FEASIBLE | content id), 0 when there is none. */
static uint32_t paired(struct enum_decision_reuse *d, const struct enum_ctx *x,
		       int pod, int node, uint32_t mask)
{
	uint32_t *e = &d->content[(((size_t)pod * (size_t)d->n_nodes +
				    (size_t)node) << d->n_pods) | mask];
	if (*e)
		return *e;
	bool feasible = false;
	uint32_t id = enum_reuse_paired_content(&x->reuse, pod, node, mask,
						&feasible);
	if (!id || id >= CONTENT_FEASIBLE)
		return 0;
	*e = id | (feasible ? CONTENT_FEASIBLE : 0);
	return *e;
}

/* Builds d->key_now and hash_now for pod in s (the header's key); false
 * when there is none. */
static bool build_key(struct enum_decision_reuse *d, const struct enum_ctx *x,
		      const struct snapshot *s, int pod)
{
	if (!d->on || !x->reuse.on || !d->eligible[pod] || !d->fixed_known[pod])
		return false;
	uint32_t *k = d->key_now;
	memset(k, 0, sizeof *k * (size_t)d->words);
	for (int q = 0; q < d->n_pods; q++) {
		int at = s->pod_node[q];
		if (at >= 0)
			k[1 + at] |= UINT32_C(1) << q;
		else if (at != SNAP_PENDING || s->nominated[q] >= 0)
			return false;   /* not a placements state */
	}
	/* each node's paired verdict, where there is one: a fixed node's
	 * is needed; some other node's feasible (all of them known) makes
	 * the key read the others' verdicts rather than their pods */
	uint64_t fixed = d->fixed[pod];
	uint32_t *v = d->verdict_now;
	bool known = true, feasible = false;
	for (int n = 0; n < d->n_nodes; n++) {
		v[n] = paired(d, x, pod, n, k[1 + n]);
		if (!v[n] && (fixed >> n & 1))
			return false;
		known = known && v[n];
		feasible = feasible || (v[n] & CONTENT_FEASIBLE);
	}
	bool by_verdict = known && feasible;
	k[0] = (uint32_t)pod | (by_verdict ? KEY_BY_VERDICT : 0);
	uint64_t h = fnv64_word(FNV64_OFFSET, k[0]);
	d->by_pods_now = true;
	for (int n = 0; n < d->n_nodes; n++) {
		if ((fixed >> n & 1) ||
		    (by_verdict && !(v[n] & CONTENT_FEASIBLE))) {
			k[1 + n] = VERDICT_TAG | v[n];
			d->by_pods_now = false;
		}
		h = fnv64_word(h, k[1 + n]);
	}
	/* FNV-1a's low bits read only the words' low bits: mixed, so that
	 * the table's index (the low bits) reads every pod of every node */
	d->hash_now = splitmix64_next(&h);
	return true;
}

static void table_put(struct enum_decision_reuse *d, size_t i)
{
	size_t m = d->cap_table - 1, j = (size_t)d->hashes[i] & m;
	while (d->table[j])
		j = (j + 1) & m;
	d->table[j] = (uint32_t)i + 1;
}

static bool same_key(const uint32_t *a, const uint32_t *b, size_t words)
{
	for (size_t w = 0; w < words; w++)
		if (a[w] != b[w])
			return false;
	return true;
}

int enum_decisions_find(struct enum_decision_reuse *d, const struct enum_ctx *x,
			int pod)
{
	assert(d && x);
	if (!build_key(d, x, &x->snap, pod))
		return -1;
	if (!d->cap_table)
		return 0;
	size_t m = d->cap_table - 1, words = (size_t)d->words;
	for (size_t j = (size_t)d->hash_now & m; d->table[j]; j = (j + 1) & m) {
		size_t i = d->table[j] - 1;
		if (d->hashes[i] == d->hash_now &&
		    same_key(d->keys + i * words, d->key_now, words))
			return d->vals[i];
	}
	return 0;
}

void enum_decisions_keep(struct enum_decision_reuse *d, int value)
{
	assert(d && d->on && (value == 1 || value == 2));
	/* a key of every node's pods is the placement itself, which the
	 * walk meets once: kept, it would only take memory (a universe whose
	 * nodes all take the pod kept 4M such keys, 375 MB, for no hit) */
	if (d->n >= DECISIONS_MAX || d->by_pods_now)
		return;
	if (2 * (d->n + 1) > d->cap_table) {
		free(d->table);
		d->cap_table = d->cap_table ? 2 * d->cap_table : 1024;
		d->table = xcalloc(d->cap_table, sizeof *d->table);
		for (size_t i = 0; i < d->n; i++)
			table_put(d, i);
	}
	size_t words = (size_t)d->words;
	GROW(d->keys, (d->n + 1) * words, d->cap_keys);
	GROW2(d->hashes, d->vals, d->n + 1, d->cap);
	memcpy(d->keys + d->n * words, d->key_now, words * sizeof *d->keys);
	d->hashes[d->n] = d->hash_now;
	d->vals[d->n] = (uint8_t)value;
	table_put(d, d->n);
	d->n++;
	d->kept++;
}
