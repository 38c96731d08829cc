/*
 * invariants.c - what must hold after every step of the scheduler loop
 * (model/scheduler.h), each checked independently of how the step was
 * computed and reported by name when broken:
 *
 *   capacity            no node holds more than its allocatable: for every
 *                       resource a pod this run bound there requests, and
 *                       for the pod count (reference §2.7: the guarantee
 *                       NodeResourcesFit gives; resources nobody bound by
 *                       the run asks for may be over-committed by the
 *                       manifests themselves and are not the scheduler's)
 *   bind-feasible       a bound pod was Feasible on its node on the
 *                       placement just before the bind (seed 004:
 *                       Scheduling binds only to Feasible nodes)
 *   victim-priority     every victim had lower priority than its preemptor
 *                       (seed 004: Jeopardy; reference §3.4 step 1)
 *   nominated-feasible  once the victims are gone the preemptor is
 *                       Feasible on its nominated node (reference §3.4
 *                       step 2 promised it)
 *   termination         no placement repeats (pods, nominations and the
 *                       unschedulable pool): a repeat means preemptions go
 *                       round in a cycle; the loop stops
 *
 * A state is remembered as two independent 64-bit hashes (a 128-bit
 * fingerprint) so long runs do not keep every placement.
 */
#include "scheduler.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "cycle_state.h"
#include "pod_requests.h"
#include "affinity_prefilter.h"
#include "spread_prefilter.h"
#include "../core/dra_live.h"
#include "../core/xalloc.h"

static const char *const invariant_names[MODEL_INV_COUNT] = {
	[MODEL_INV_CAPACITY] = "capacity",
	[MODEL_INV_BIND_FEASIBLE] = "bind-feasible",
	[MODEL_INV_VICTIM_PRIORITY] = "victim-priority",
	[MODEL_INV_NOMINATED_FEASIBLE] = "nominated-feasible",
	[MODEL_INV_TERMINATION] = "termination",
};

const char *model_invariant_name(enum model_invariant inv)
{
	assert(inv >= 0 && inv < MODEL_INV_COUNT);
	return invariant_names[inv];
}

/* Records the first breach of inv, at the current step. */
static void breach(struct model_scheduler *m, enum model_invariant inv,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void breach(struct model_scheduler *m, enum model_invariant inv,
		   const char *fmt, ...)
{
	struct model_invariants *v = &m->inv;
	if (v->broken[inv])
		return;
	v->broken[inv] = true;
	v->step[inv] = m->steps;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->detail[inv], MODEL_INV_DETAIL_LEN, fmt, ap);
	va_end(ap);
}

bool model_invariants_ok(const struct model_invariants *inv)
{
	assert(inv);
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (inv->broken[i])
			return false;
	return true;
}

void model_invariants_release(struct model_invariants *inv)
{
	assert(inv);
	free(inv->hashes);
	inv->hashes = NULL;
	inv->n_states = inv->cap_states = 0;
	free(inv->flush_hashes);
	inv->flush_hashes = NULL;
	inv->n_flush_states = inv->cap_flush_states = 0;
	inv->n_seen = 0;
	free(inv->last);
	inv->last = NULL;
	free(inv->waiting_pods);
	inv->waiting_pods = NULL;
	free(inv->node_req);
	free(inv->node_asked);
	free(inv->node_pods);
	free(inv->node_nominated);
	free(inv->nom_at);
	inv->node_req = NULL;
	inv->node_asked = inv->node_pods = NULL;
	inv->node_nominated = inv->nom_at = NULL;
	inv->n_waiting_pods = 0;
}

/* ------------------------------------------------------------ capacity */

/* What the pods this run bound to node request, per resource (max over
 * them: any positive value means "someone bound here asks for it"). */
static bool node_has_placed(const struct model_scheduler *m, int node,
			    int64_t *asked, int64_t *scratch)
{
	const struct cluster *c = m->cluster;
	bool any = false;
	for (int r = 0; r < c->n_res; r++)
		asked[r] = 0;
	for (int p = 0; p < c->n_pods; p++) {
		if (!m->placed[p] || m->snap.pod_node[p] != node)
			continue;
		any = true;
		const int64_t *req = scratch;
		if (m->ctx)
			req = model_pod_table_get(&m->ctx->pods, p, NULL, NULL);
		else
			model_pod_requests(c, &c->pods[p], scratch);
		for (int r = 0; r < c->n_res; r++)
			if (req[r] > asked[r])
				asked[r] = req[r];
	}
	return any;
}

/* requested[r]: what the pods on node request (Go int64 sums), count
 * of them; asked[r] > 0: a pod this run bound there asks for r. */
static void check_node_capacity(struct model_scheduler *m, int node,
				const int64_t *asked, const int64_t *requested,
				int count)
{
	const struct cluster *c = m->cluster;
	const struct node *n = &c->nodes[node];
	bool found;
	int64_t pods = resource_values_get(&n->allocatable, RES_PODS, &found);
	if (count > pods) {
		breach(m, MODEL_INV_CAPACITY, "node %s holds %d pods, "
		       "allocatable pods is %lld", n->name, count,
		       (long long)pods);
		return;
	}
	for (int r = 0; r < c->n_res; r++) {
		if (r == RES_PODS || c->res_class[r] == RESCLASS_IGNORED ||
		    asked[r] <= 0)
			continue;
		int64_t alloc = resource_values_get(&n->allocatable, r, &found);
		if (requested[r] > alloc) {
			breach(m, MODEL_INV_CAPACITY, "node %s: %s requested "
			       "%lld > allocatable %lld", n->name,
			       c->res_names[r], (long long)requested[r],
			       (long long)alloc);
			return;
		}
	}
}

/* The capacity of the marked nodes in node order (mark NULL: of node
 * `only`), each that holds a pod this run bound. */
static void check_nodes(struct model_scheduler *m, const bool *mark,
			int only)
{
	const struct cluster *c = m->cluster;
	/* the scratch of the loop's context: the check runs after every
	 * step of a long enumeration (a loop without one: its own) */
	struct arena own;
	arena_init(&own);
	struct arena *a = m->ctx ? &m->ctx->scratch : &own;
	struct arena_mark at = arena_mark(a);
	int64_t *buf = arena_take_array(a, 3 * (size_t)c->n_res + 1,
					sizeof *buf);
	int64_t *asked = buf, *scratch = buf + c->n_res,
		*requested = buf + 2 * (size_t)c->n_res;
	for (int n = mark ? 0 : only; n < (mark ? c->n_nodes : only + 1); n++) {
		if ((mark && !mark[n]) || !node_has_placed(m, n, asked, scratch))
			continue;
		int count = 0;
		model_node_requested(m->ctx ? &m->ctx->pods : NULL, &m->snap,
				     n, requested, NULL, NULL, &count);
		check_node_capacity(m, n, asked, requested, count);
	}
	arena_reset(a, at);
	arena_release(&own);
}

/*
 * The sums kept (inv->kept: the loop's own run, where every change of
 * snap's bindings is a step): per node, what its pods request (Go int64
 * sums: wrapping addition is associative and subtraction undoes it, so
 * adding at each bind and subtracting at each eviction gives the sum
 * model_node_requested takes over the pods there), how many pods it
 * holds, and how many of them this run bound asking for each resource
 * (placed[] is set at a bind and never cleared).  Built from the
 * placement before the first checked step.
 */
static void sums_move(struct model_scheduler *m, int p, int node, int sign)
{
	struct model_invariants *v = &m->inv;
	const struct cluster *c = m->cluster;
	size_t nr = (size_t)c->n_res;
	const int64_t *req = model_pod_table_get(&m->ctx->pods, p, NULL, NULL);
	int64_t *sum = v->node_req + (size_t)node * nr;
	int32_t *asked = v->node_asked + (size_t)node * nr;
	for (size_t r = 0; r < nr; r++) {
		sum[r] = sign > 0 ? model_go_add(sum[r], req[r])
			 : model_go_sub(sum[r], req[r]);
		if (m->placed[p] && req[r] > 0)
			asked[r] += sign;
	}
	v->node_pods[node] += sign;
}

/* Pod p's part of node_nominated brought to placement s: counted at its
 * nominated node while it is pending there. */
static void nom_sync(struct model_scheduler *m, int p, const struct snapshot *s)
{
	struct model_invariants *v = &m->inv;
	int32_t at = s->pod_node[p] == SNAP_PENDING && s->nominated[p] >= 0
		     ? s->nominated[p] : -1;
	if (at == v->nom_at[p])
		return;
	if (v->nom_at[p] >= 0)
		v->node_nominated[v->nom_at[p]]--;
	if (at >= 0)
		v->node_nominated[at]++;
	v->nom_at[p] = at;
}

static bool sums_kept(const struct model_scheduler *m)
{
	return m->inv.kept && m->ctx && !m->opts.full_invariants;
}

static void sums_build(struct model_scheduler *m, const struct snapshot *s)
{
	struct model_invariants *v = &m->inv;
	const struct cluster *c = m->cluster;
	size_t cells = (size_t)c->n_nodes * (size_t)c->n_res + 1;
	v->node_req = xcalloc(cells, sizeof *v->node_req);
	v->node_asked = xcalloc(cells, sizeof *v->node_asked);
	v->node_pods = xcalloc((size_t)c->n_nodes + 1, sizeof *v->node_pods);
	v->node_nominated = xcalloc((size_t)c->n_nodes + 1,
				    sizeof *v->node_nominated);
	v->nom_at = xmalloc(sizeof *v->nom_at * ((size_t)c->n_pods + 1));
	for (int p = 0; p < c->n_pods; p++) {
		v->nom_at[p] = -1;
		nom_sync(m, p, s);
		if (s->pod_node[p] >= 0)
			sums_move(m, p, s->pod_node[p], +1);
	}
}

/* The kept sums as the model takes them (struct model_given). */
static struct model_node_sums sums_given(const struct model_scheduler *m)
{
	return (struct model_node_sums){
		.requested = m->inv.node_req, .pods = m->inv.node_pods,
		.nominated = m->inv.node_nominated,
	};
}

/* The capacity of node, which holds the pod the step bound (node_has_
 * placed holds), from the kept sums. */
static void check_node_kept(struct model_scheduler *m, int node)
{
	struct model_invariants *v = &m->inv;
	size_t nr = (size_t)m->cluster->n_res;
	const int32_t *placed = v->node_asked + (size_t)node * nr;
	struct arena *a = &m->ctx->scratch;
	struct arena_mark at = arena_mark(a);
	int64_t *asked = arena_take_array(a, nr + 1, sizeof *asked);
	for (size_t r = 0; r < nr; r++)
		asked[r] = placed[r] > 0;
	check_node_capacity(m, node, asked, v->node_req + (size_t)node * nr,
			    v->node_pods[node]);
	arena_reset(a, at);
}

/*
 * Only nodes holding a pod this run bound can break capacity: one pass
 * over the pods marks them, then they are checked in node order (the
 * first breach, in node order, is the one recorded).
 *
 * Incrementally (full_invariants off) only the node step st bound its
 * pod to is checked: a node breaks capacity only when a pod is added to
 * it, each step adds at most that one, the nodes the step did not touch
 * were checked at the step that last changed them, and only the first
 * breach is ever recorded - so the verdicts are the full check's, at
 * linear cost.
 */
static void check_capacity(struct model_scheduler *m,
			   const struct model_step *st)
{
	const struct cluster *c = m->cluster;
	if (!m->opts.full_invariants) {
		if (st->action == MODEL_STEP_BIND && m->placed[st->pod]) {
			assert(st->node >= 0 && st->node < c->n_nodes);
			if (sums_kept(m))
				check_node_kept(m, st->node);
			else
				check_nodes(m, NULL, st->node);
		}
		return;
	}
	bool *mark = xcalloc((size_t)c->n_nodes + 1, sizeof *mark);
	bool any = false;
	for (int p = 0; p < c->n_pods; p++)
		if (m->placed[p] && m->snap.pod_node[p] >= 0) {
			assert(m->snap.pod_node[p] < c->n_nodes);
			mark[m->snap.pod_node[p]] = true;
			any = true;
		}
	if (any)
		check_nodes(m, mark, -1);
	free(mark);
}

/* --------------------------------------------------------- feasibility */

/* why for a verdict that is not feasible: its first failing filter's
 * first reason. */
static void verdict_why(const struct sched_node_verdict *v, char *why,
			size_t len)
{
	const struct sched_status *st = &v->status[v->rejected_by];
	snprintf(why, len, "%s: %s", config_plugin_name(v->rejected_by),
		 st->n_reasons ? sched_status_reason(st, 0) : "rejected");
}

/* Feasibility(pod, node) on placement s as a fresh cycle (no deltas);
 * writes the first failing filter's first reason into why. */
static bool feasible_on(const struct model_scheduler *m,
			const struct snapshot *s, int pod, int node,
			char *why, size_t len)
{
	const struct sched_profile *prof = model_profile_for(m->cluster, pod);
	assert(prof);
	struct model_cycle cy = {
		.cluster = m->cluster, .profile = prof, .pod = pod,
		.base = s, .view = s, .deltas = NULL, .n_deltas = 0,
	};
	struct model_cycle_state state;
	struct model_given given = {.ctx = m->ctx};
	struct model_node_sums sums;
	if (sums_kept(m) && m->inv.node_req) {
		sums = sums_given(m);
		given.node_sums = &sums;
	}
	/* the loop's placement s: its spread state kept, not recounted */
	/* (a pod without a hard constraint, most of them, Skips: known
	 * without building its constraints twice, in the kept states and
	 * the cycle's own) */
	if (m->spread_live && !m->opts.full_invariants &&
	    prof->prefilter[PLUGIN_POD_TOPOLOGY_SPREAD]) {
		given.spread_skip = model_spread_constraints_none(m->cluster,
								  prof, pod, true);
		if (!given.spread_skip)
			given.spread_state = model_spread_live_get(m->spread_live,
								   prof, pod, s);
	}
	/* and its InterPodAffinity state */
	if (m->affinity_live && !m->opts.full_invariants &&
	    prof->prefilter[PLUGIN_INTER_POD_AFFINITY])
		given.affinity_state = model_affinity_live_get(m->affinity_live,
							       pod, s,
							       &given.affinity_skip);
	model_cycle_state_init(&state, &cy, &given);
	cy.state = &state;
	/* model_feasibility sets every field: no need to clear (or malloc)
	 * the verdict, a few KB, on every step */
	struct sched_node_verdict verdict;
	struct sched_node_verdict *v = &verdict;
	model_feasibility(&cy, node, v);
	model_cycle_state_release(&state);
	if (!v->feasible)
		verdict_why(v, why, len);
	return v->feasible;
}

static void check_bind(struct model_scheduler *m, const struct snapshot *before,
		       const struct model_step *st)
{
	char why[160];
	/* m->bind_verdict is Feasibility(pod, node) on before, no deltas:
	 * exactly what feasible_on would compute again */
	if (m->bind_verdict) {
		if (m->bind_verdict->feasible)
			return;
		verdict_why(m->bind_verdict, why, sizeof why);
	} else if (feasible_on(m, before, st->pod, st->node, why, sizeof why)) {
		return;
	}
	const struct pod *p = &m->cluster->pods[st->pod];
	breach(m, MODEL_INV_BIND_FEASIBLE, "pod %s/%s bound to %s, where it "
	       "was not feasible (%s)", p->ns, p->name,
	       m->cluster->nodes[st->node].name, why);
}

static void check_preemption(struct model_scheduler *m,
			     const struct model_step *st)
{
	const struct cluster *c = m->cluster;
	const struct pod *p = &c->pods[st->pod];
	for (int i = 0; i < st->n_victims; i++) {
		const struct pod *v = &c->pods[st->victims[i]];
		if (v->priority < p->priority)
			continue;
		breach(m, MODEL_INV_VICTIM_PRIORITY, "pod %s/%s (priority %d) "
		       "evicted %s/%s (priority %d)", p->ns, p->name,
		       (int)p->priority, v->ns, v->name, (int)v->priority);
	}
	char why[160];
	if (!feasible_on(m, &m->snap, st->pod, st->node, why, sizeof why))
		breach(m, MODEL_INV_NOMINATED_FEASIBLE, "pod %s/%s nominated "
		       "to %s does not fit there after the evictions (%s)",
		       p->ns, p->name, c->nodes[st->node].name, why);
}

/* ---------------------------------------------------------- termination */

/* A pod's part of the fingerprint: its words mixed (splitmix64's
 * finalizer) under one of two keys. */
static uint64_t pod_mix(int p, const uint32_t *w, uint64_t key)
{
	uint64_t z = key ^ ((uint64_t)(uint32_t)p << 32) ^ w[0];
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z ^= (uint64_t)w[1] << 17 ^ (uint64_t)w[2] << 41;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static const uint64_t hash_keys[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};

/* Pod p's part of the fingerprint brought up to date: its old mix
 * taken out of the sums, its current (node, nomination, waiting) mixed
 * in (first: there is no old mix). */
static void fingerprint_pod(const struct model_scheduler *m,
			    struct model_invariants *v, int p, bool first)
{
	/* a waiting pod with its rejecting plugins: which events move it
	 * is part of the state (requeue.h) */
	uint32_t wait = m->waiting[p]
		? 1u | (m->rejectors ? (uint32_t)m->rejectors[p] << 1 : 0) : 0;
	uint32_t w[3] = {(uint32_t)m->snap.pod_node[p],
			 (uint32_t)m->snap.nominated[p], wait};
	uint32_t *old = &v->last[3 * (size_t)p];
	if (!first && old[0] == w[0] && old[1] == w[1] && old[2] == w[2])
		return;
	for (int k = 0; k < 2; k++) {
		if (!first)
			v->sum[k] -= pod_mix(p, old, hash_keys[k]);
		v->sum[k] += pod_mix(p, w, hash_keys[k]);
	}
	memcpy(old, w, sizeof w);
}

/* The pods step st can have changed: its pod, victims and cleared
 * nominations (neither loop changes another pod's node or nomination),
 * and the pods that were waiting (a step's events may wake them).
 * Only the step's pod can start waiting: a waiting pod is not in
 * activeQ, so it was not waiting before its own step. */
static void fingerprint_step(const struct model_scheduler *m,
			     struct model_invariants *v,
			     const struct model_step *st)
{
	int n = v->n_waiting_pods;
	v->n_waiting_pods = 0;
	for (int i = 0; i < n; i++) {
		int p = v->waiting_pods[i];
		fingerprint_pod(m, v, p, false);
		if (m->waiting[p])
			v->waiting_pods[v->n_waiting_pods++] = p;
	}
	assert(st->pod >= 0 && st->pod < m->cluster->n_pods);
	fingerprint_pod(m, v, st->pod, false);
	if (m->waiting[st->pod])
		v->waiting_pods[v->n_waiting_pods++] = st->pod;
	for (int i = 0; i < st->n_victims; i++)
		fingerprint_pod(m, v, st->victims[i], false);
	for (int i = 0; i < st->n_cleared; i++)
		fingerprint_pod(m, v, st->cleared[i], false);
}

/*
 * The state's fingerprint: two sums over the pods of their mixed (node,
 * nomination, waiting) - a sum, so that a step updates it in time
 * proportional to the pods it changed (fingerprint_step), not a rehash
 * of every pod.  The first state, a state not reached by a step, and
 * full_invariants compare every pod with its last mix instead.
 */
static void state_fingerprint(struct model_scheduler *m,
			      const struct model_step *st, uint64_t out[2])
{
	const struct cluster *c = m->cluster;
	struct model_invariants *v = &m->inv;
	bool first = !v->last;
	if (first) {
		v->last = xcalloc(3 * (size_t)c->n_pods + 1, sizeof *v->last);
		v->waiting_pods = xcalloc((size_t)c->n_pods + 1,
					  sizeof *v->waiting_pods);
		v->sum[0] = v->sum[1] = 0;
	}
	if (!first && st && !m->opts.full_invariants) {
		fingerprint_step(m, v, st);
	} else {
		v->n_waiting_pods = 0;
		for (int p = 0; p < c->n_pods; p++) {
			fingerprint_pod(m, v, p, first);
			if (m->waiting[p])
				v->waiting_pods[v->n_waiting_pods++] = p;
		}
	}
	/* the claims' status is part of the state: a PostFilter's
	 * deallocation changes no pod */
	out[0] = v->sum[0] + dra_live_hash(m->snap.dra, hash_keys[0]);
	out[1] = v->sum[1] + dra_live_hash(m->snap.dra, hash_keys[1]);
}

/* Open-addressing set of fingerprints (*hashes: [3i], [3i+1]; the pair
 * 0,0 marks an empty slot) with the index of the state each was seen as
 * ([3i+2]), *n of them in *cap slots.  Returns that index when fp was
 * already in, else adds fp with index and returns -1. */
static int seen_before(uint64_t **hashes, int *n, int *cap, uint64_t a,
		       uint64_t b, int index)
{
	if (a == 0 && b == 0)
		a = 1;
	if (2 * (*n + 1) > *cap) {
		int new_cap = *cap ? 2 * *cap : 64;
		uint64_t *old = *hashes;
		int old_cap = *cap;
		*hashes = xcalloc((size_t)new_cap * 3, sizeof **hashes);
		*cap = new_cap;
		*n = 0;
		for (int i = 0; i < old_cap; i++)
			if (old[3 * i] || old[3 * i + 1])
				seen_before(hashes, n, cap, old[3 * i],
					    old[3 * i + 1], (int)old[3 * i + 2]);
		free(old);
	}
	size_t mask = (size_t)*cap - 1;
	for (size_t i = (size_t)(a ^ (b >> 7)) & mask;; i = (i + 1) & mask) {
		uint64_t *slot = &(*hashes)[3 * i];
		if (slot[0] == 0 && slot[1] == 0) {
			slot[0] = a;
			slot[1] = b;
			slot[2] = (uint64_t)index;
			(*n)++;
			return -1;
		}
		if (slot[0] == a && slot[1] == b)
			return (int)slot[2];
	}
}

static bool check_termination(struct model_scheduler *m,
			      const struct model_step *st)
{
	uint64_t fp[2];
	state_fingerprint(m, st, fp);
	struct model_invariants *v = &m->inv;
	/* every state before the first repeat was new: the count of states
	 * seen is this one's index */
	int earlier = seen_before(&v->hashes, &v->n_states, &v->cap_states,
				  fp[0], fp[1], v->n_seen++);
	if (earlier < 0)
		return true;
	v->loop_state = earlier;
	breach(m, MODEL_INV_TERMINATION, "the state after step %d repeats an "
	       "earlier one: pods keep preempting each other; stopped",
	       m->steps);
	return false;
}

bool model_invariants_flush(struct model_scheduler *m)
{
	assert(m);
	struct model_invariants *v = &m->inv;
	uint64_t fp[2];
	/* a full pass: the flush changed no pod's (node, nomination) */
	state_fingerprint(m, NULL, fp);
	int earlier = seen_before(&v->flush_hashes, &v->n_flush_states,
				  &v->cap_flush_states, fp[0], fp[1],
				  v->n_seen - 1);
	if (earlier >= 0) {
		v->loop_state = earlier;
		breach(m, MODEL_INV_TERMINATION, "the state after step %d, "
		       "where the 5-minute unschedulable timeout moves the "
		       "parked pods back, repeats an earlier such state: the "
		       "pods keep changing each other's nominations; stopped",
		       m->steps);
		return false;
	}
	if (v->hashes)
		memset(v->hashes, 0, sizeof *v->hashes * 3 * (size_t)v->cap_states);
	v->n_states = 0;
	return true;
}

/* The loop's kept spread states and node sums follow pod p from node
 * `from` to node `to` (either < 0: not bound there). */
static void live_move(struct model_scheduler *m, int p, int from, int to)
{
	if (m->spread_live && !m->opts.full_invariants) {
		if (from >= 0)
			model_spread_live_move(m->spread_live, p, from, -1);
		if (to >= 0)
			model_spread_live_move(m->spread_live, p, to, +1);
	}
	if (m->affinity_live && !m->opts.full_invariants) {
		if (from >= 0)
			model_affinity_live_move(m->affinity_live, p, from, -1);
		if (to >= 0)
			model_affinity_live_move(m->affinity_live, p, to, +1);
	}
	if (sums_kept(m)) {
		if (from >= 0)
			sums_move(m, p, from, -1);
		if (to >= 0)
			sums_move(m, p, to, +1);
	}
}

void model_invariants_check_step(struct model_scheduler *m,
				 const struct snapshot *before,
				 const struct model_step *st)
{
	assert(m && before && st);
	if (sums_kept(m) && !m->inv.node_req)
		sums_build(m, before);
	/* the bind is checked on before, then the kept states follow it;
	 * the preemption on the placement after its evictions */
	if (st->action == MODEL_STEP_BIND) {
		check_bind(m, before, st);
		live_move(m, st->pod, before->pod_node[st->pod], st->node);
	}
	for (int i = 0; i < st->n_victims; i++)
		live_move(m, st->victims[i], before->pod_node[st->victims[i]], -1);
	/* the pods whose nomination a step can change (fingerprint_step) */
	if (sums_kept(m)) {
		nom_sync(m, st->pod, &m->snap);
		for (int i = 0; i < st->n_victims; i++)
			nom_sync(m, st->victims[i], &m->snap);
		for (int i = 0; i < st->n_cleared; i++)
			nom_sync(m, st->cleared[i], &m->snap);
	}
	if (st->action == MODEL_STEP_PREEMPT)
		check_preemption(m, st);
	check_capacity(m, st);
}

bool model_invariants_check(struct model_scheduler *m,
			    const struct snapshot *before,
			    const struct model_step *st)
{
	assert(m && before);
	if (st)
		model_invariants_check_step(m, before, st);
	return check_termination(m, st);
}
