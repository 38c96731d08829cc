/*
 * scheduler_step.c - one step of the scheduler loop on a snapshot
 * (shared/seeds/004 "Scheduler"; reference §1.2, §1.3, §1.5, §3.6,
 * §5(g)(h)).
 *
 * Spec:
 *   Scheduler == LET Unbound == {Pod : ~Bound(Pod)} IN
 *     \E Pod \in {P \in Unbound : \A O \in Unbound : O.prio <= P.prio}:
 *       CASE SchedulingEnabled(Pod) -> Scheduling(Pod)
 *         [] PreemptionEnabled(Pod) -> Preemption(Pod)
 *         [] OTHER                  -> UNCHANGED Objects
 * kso follows kube where they differ (§5(g)(h)): the pod is the head of
 * activeQ, not of all unbound pods; Preemption is kube's DefaultPreemption
 * (model_preempt_kube), which evicts and only nominates; the nominated pod
 * binds in a later step.
 *
 * Choices kso makes where kube is random: selectHost takes the viable
 * node whose name sorts first (or a seeded random one); the preemption
 * candidate walk starts at offset 0 (or a seeded random one).
 *
 * This is the one loop of kso: the engine (struct loop_engine,
 * core/engine.h) answers the cycles and the preemptions, the literal
 * model's by default, the oracle's (oracle_loop_engine) when a caller
 * plugs it in, so both take their steps here.
 */
#include "scheduler.h"
#include "../core/xalloc.h"
#include "../core/splitmix.h"
#include "../core/dra_live.h"
#include "requeue.h"
#include "spread_prefilter.h"
#include "affinity_prefilter.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* splitmix64: a small, well-mixed generator; the whole run is a function
 * of the seed. */
void model_step_release(struct model_step *st)
{
	assert(st);
	free(st->viable);
	free(st->victims);
	free(st->cleared);
	free(st->message);
	memset(st, 0, sizeof *st);
	st->node = -1;
}

/* ----------------------------------------------------------- the queue */

/* kube §1.2: in activeQ: pending, ungated, not being deleted, scheduled by
 * one of the profiles, and not parked in the unschedulable pool. */
static bool in_active_queue(const struct model_scheduler *m, int p)
{
	const struct pod *pod = &m->cluster->pods[p];
	return m->snap.pod_node[p] == SNAP_PENDING && pod->n_gates == 0 && !pod->dra_gated &&
	       !pod->deletion.has && !m->waiting[p] &&
	       model_profile_for(m->cluster, p) != NULL;
}

/* PrioritySort with queue timestamps: a pod that failed was re-queued
 * "now", after every pod of its priority that has not failed since. */
static bool queue_before(const struct model_scheduler *m, int a, int b)
{
	const struct pod *pa = &m->cluster->pods[a], *pb = &m->cluster->pods[b];
	if (pa->priority != pb->priority)
		return pa->priority > pb->priority;
	if (m->queued_at[a] != m->queued_at[b])
		return m->queued_at[a] < m->queued_at[b];
	return model_queue_less(m->cluster, a, b);
}

int model_scheduler_next(const struct model_scheduler *m)
{
	assert(m);
	int best = -1;
	for (int p = 0; p < m->cluster->n_pods; p++)
		if (in_active_queue(m, p) && (best < 0 || queue_before(m, p, best)))
			best = p;
	return best;
}

int model_scheduler_head(const struct model_scheduler *m)
{
	assert(m);
	return m->n_heap ? m->heap[0].pod : -1;
}

/* Pod p's queue_before key as it stands: its queue timestamp changes
 * only while it is out of activeQ (park, arrive), so a key taken at the
 * push holds until the pop. */
static struct model_queue_key queue_key(const struct model_scheduler *m, int p)
{
	const struct pod *pod = &m->cluster->pods[p];
	return (struct model_queue_key){
		.queued_at = m->queued_at[p], .created = pod->creation.seconds,
		.priority = pod->priority, .has_created = pod->creation.has,
		.pod = p,
	};
}

/* queue_before on two keys: PrioritySort, the queue timestamps, then
 * model_queue_less (creation time, a pod without one after, manifest
 * order). */
static bool key_before(const struct model_queue_key *a,
		       const struct model_queue_key *b)
{
	if (a->priority != b->priority)
		return a->priority > b->priority;
	if (a->queued_at != b->queued_at)
		return a->queued_at < b->queued_at;
	if (a->has_created != b->has_created)
		return a->has_created;
	if (a->has_created && a->created != b->created)
		return a->created < b->created;
	return a->pod < b->pod;
}

/* activeQ keeps each pod's key beside it: a comparison reads the heap
 * alone, not two pods' records (at 500,000 pending pods the heap's
 * levels walked each pop missed the cache on every pod it compared). */
static void heap_push(struct model_scheduler *m, int p)
{
	struct model_queue_key k = queue_key(m, p);
	int i = m->n_heap++;
	struct model_queue_key *h = m->heap;
	while (i > 0 && key_before(&k, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = k;
}

/* The top of heap h[0..*n) in queue order, taken off it. */
static int heap_take(struct model_queue_key *h, int *n_heap)
{
	int top = h[0].pod;
	struct model_queue_key last = h[--*n_heap];
	int i = 0, n = *n_heap;
	for (;;) {
		int l = 2 * i + 1, at = -1;
		const struct model_queue_key *best = &last;
		if (l < n && key_before(&h[l], best))
			best = &h[l], at = l;
		if (l + 1 < n && key_before(&h[l + 1], best))
			best = &h[l + 1], at = l + 1;
		if (at < 0)
			break;
		h[i] = *best;
		i = at;
	}
	if (n > 0)
		h[i] = last;
	return top;
}

static int heap_pop(struct model_scheduler *m)
{
	return heap_take(m->heap, &m->n_heap);
}

int model_scheduler_queue(const struct model_scheduler *m, int *out)
{
	assert(m && out);
	int n = m->n_heap;
	struct model_queue_key *h = xmalloc(sizeof *h * ((size_t)n + 1));
	memcpy(h, m->heap, sizeof *h * (size_t)n);
	int k = 0;
	while (n > 0)
		out[k++] = heap_take(h, &n);
	free(h);
	return k;
}

/* The step's cluster events move the parked pods whose rejecting
 * plugins say they may fit now (requeue.h), in pool order; the rest stay. */
static void wake(struct model_scheduler *m, const struct model_requeue_events *e)
{
	int kept = 0;
	for (int i = 0; i < m->n_pool; i++) {
		int q = m->pool[i];
		if (!model_requeue_wakes(m->cluster, q, m->rejectors[q], e)) {
			m->pool[kept++] = q;
			continue;
		}
		m->waiting[q] = false;
		m->rejectors[q] = 0;
		heap_push(m, q);
	}
	m->n_pool = kept;
}

/* The pod failed this cycle: parked with a fresh queue timestamp and the
 * plugins that rejected it. */
static void park(struct model_scheduler *m, int p, uint8_t rejectors)
{
	m->waiting[p] = true;
	m->rejectors[p] = rejectors;
	m->parked_changes[p] = m->step_changes;
	m->queued_at[p] = ++m->clock;
	m->pool[m->n_pool++] = p;
}

/* --------------------------------------------------------- the engine */

/* The model's selectHost is the loop's own (select_host below): it
 * picks no node itself. */
static int model_engine_cycle(void *self, const struct sched_profile *prof,
			      const struct snapshot *s, int pod,
			      struct sched_cycle_result *r)
{
	const struct model_scheduler *m = self;
	const struct model_given given = {.ctx = m->ctx};
	const struct model_question q = {
		.phase = MODEL_PHASE_CYCLE, .prof = prof, .s = s, .pod = pod,
		.r = r,
	};
	model_schedule_cycle_given(&q, &given);
	return -1;
}

static void model_engine_preempt(void *self, const struct sched_profile *prof,
				 const struct snapshot *s, int pod,
				 const struct sched_cycle_result *r,
				 uint64_t offset_draw,
				 struct sched_preemption *out)
{
	const struct model_scheduler *m = self;
	const struct model_given given = {.ctx = m->ctx};
	struct sched_preempt_opts o = {.offset_draw = offset_draw};
	const struct model_question q = {
		.phase = MODEL_PHASE_POSTFILTER, .prof = prof, .s = s,
		.pod = pod, .failed = r, .opts = &o,
		.preemption = out,
	};
	model_schedule_cycle_given(&q, &given);
}

const char *model_step_action_name(enum model_step_action a)
{
	switch (a) {
	case MODEL_STEP_BIND: return "bind";
	case MODEL_STEP_PREEMPT: return "preempt";
	case MODEL_STEP_UNSCHEDULABLE: return "unschedulable";
	}
	return "?";
}

/* A node and its name, sorted by name (name_ranks). */
struct named {
	const char *name;
	int node;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : (x->node > y->node) - (x->node < y->node);
}

/* m->name_rank and m->rank_node: rank[a] < rank[b] exactly when a's name
 * sorts before b's, or the names are equal and a < b (name_before). */
static void name_ranks(struct model_scheduler *m)
{
	const struct cluster *c = m->cluster;
	int n = c->n_nodes;
	struct named *v = xmalloc(sizeof *v * ((size_t)n + 1));
	m->name_rank = xmalloc(sizeof *m->name_rank * ((size_t)n + 1));
	m->rank_node = xmalloc(sizeof *m->rank_node * ((size_t)n + 1));
	for (int i = 0; i < n; i++)
		v[i] = (struct named){c->nodes[i].name, i};
	qsort(v, (size_t)n, sizeof *v, named_cmp);
	for (int i = 0; i < n; i++) {
		m->name_rank[v[i].node] = i;
		m->rank_node[i] = v[i].node;
	}
	free(v);
}

void model_scheduler_init(struct model_scheduler *m, const struct snapshot *s,
			  const struct model_sched_opts *opts)
{
	assert(m && s && s->cluster && opts);
	const struct cluster *c = s->cluster;
	memset(m, 0, sizeof *m);
	m->cluster = c;
	snapshot_clone(&m->snap, s);
	snapshot_clone(&m->before, s);
	m->opts = *opts;
	m->rng = opts->seed;
	size_t n = (size_t)c->n_pods;
	m->waiting = xcalloc(n, sizeof *m->waiting);
	m->rejectors = xcalloc(n + 1, sizeof *m->rejectors);
	m->queued_at = xcalloc(n, sizeof *m->queued_at);
	m->placed = xcalloc(n, sizeof *m->placed);
	m->parked_changes = xcalloc(n + 1, sizeof *m->parked_changes);
	m->absent = xcalloc(n + 1, sizeof *m->absent);
	sched_cycle_result_init(&m->result, c);
	m->own_ctx = xmalloc(sizeof *m->own_ctx);
	model_context_init(m->own_ctx, c);
	m->ctx = m->own_ctx;
	m->spread_live = model_spread_live_new(c);
	m->affinity_live = model_affinity_live_new(c);
	m->inv.kept = true;
	m->engine = (struct loop_engine){
		.self = m, .cycle = model_engine_cycle,
		.preempt = model_engine_preempt,
	};
	m->heap = xmalloc(sizeof *m->heap * (n + 1));
	m->pool = xmalloc(sizeof *m->pool * (n + 1));
	name_ranks(m);
	for (int p = 0; p < c->n_pods; p++)
		if (in_active_queue(m, p))
			heap_push(m, p);
	/* the initial state is the first one the termination check knows */
	model_invariants_check(m, &m->snap, NULL);
}

void model_scheduler_release(struct model_scheduler *m)
{
	assert(m);
	snapshot_release(&m->snap);
	snapshot_release(&m->before);
	free(m->waiting);
	free(m->rejectors);
	free(m->queued_at);
	free(m->placed);
	free(m->parked_changes);
	free(m->absent);
	free(m->heap);
	free(m->pool);
	free(m->name_rank);
	free(m->rank_node);
	free(m->unjudged);
	sched_cycle_result_release(&m->result);
	model_invariants_release(&m->inv);
	model_spread_live_free(m->spread_live);
	model_affinity_live_free(m->affinity_live);
	if (m->own_ctx) {
		model_context_release(m->own_ctx);
		free(m->own_ctx);
	}
	memset(m, 0, sizeof *m);
}

/* ---------------------------------------------------------- the actions */

static int *copy_ints(const int *a, int n)
{
	int *d = xcalloc((size_t)n, sizeof *d);
	if (n)
		memcpy(d, a, sizeof *d * (size_t)n);
	return d;
}

/* Whether node a's name sorts before node b's; equal names (the loader
 * refuses them; a test's cluster may have them), the first in node
 * order. */
static bool name_before(const struct model_scheduler *m, int a, int b)
{
	int d = strcmp(m->cluster->nodes[a].name, m->cluster->nodes[b].name);
	return d < 0 || (d == 0 && a < b);
}

/* The viable node whose name sorts first, whatever the order r lists
 * them in (an engine may list them as found: engine_loop_opts'
 * viable_as_set): the least rank, one load and compare a node - the
 * step's largest cost outside the engine when thousands of nodes tie. */
static int first_by_name(const struct model_scheduler *m,
			 const struct sched_cycle_result *r)
{
	const int *v = r->viable, *rank = m->name_rank;
	if (!rank) {
		int best = v[0];
		for (int i = 1; i < r->n_viable; i++)
			if (name_before(m, v[i], best))
				best = v[i];
		return best;
	}
	int least = rank[v[0]];
	for (int i = 1; i < r->n_viable; i++) {
		int k = rank[v[i]];
		least = k < least ? k : least;
	}
	return m->rank_node[least];
}

/* selectHost (§1.7) made deterministic: the viable node whose name sorts
 * first, or one drawn from the seed (r's viable nodes in node order); a
 * replay's wanted node when it is viable. */
static int select_host(struct model_scheduler *m,
		       const struct sched_cycle_result *r)
{
	assert(r->n_viable > 0);
	int best;
	if (m->opts.tie_random)
		best = r->viable[splitmix64_next(&m->rng) % (uint64_t)r->n_viable];
	else
		best = first_by_name(m, r);
	bool want = m->want.set && m->want.action == MODEL_STEP_BIND;
	for (int i = 0; want && i < r->n_viable; i++)
		if (r->viable[i] == m->want.node)
			return m->want.node;
	return best;
}

/* The placement changes, mirrored into an engine that keeps its own. */
static void set_node(struct model_scheduler *m, int p, int node)
{
	struct loop_engine *e = &m->engine;
	m->snap.pod_node[p] = node;
	if (node >= 0 && e->bind)
		e->bind(e->self, p, node);
	else if (node == SNAP_GONE && e->evict)
		e->evict(e->self, p);
}

static void set_nominated(struct model_scheduler *m, int p, int node)
{
	m->snap.nominated[p] = node;
	if (m->engine.nominate)
		m->engine.nominate(m->engine.self, p, node);
}

/* Spec Scheduling(Pod): Pod.Spec.NodeName' = Node.Name for a viable Node.
 * kube §1.3 step 9: assumed at once, removed from the nominator. */
static void do_bind(struct model_scheduler *m, int p, int node,
		    const struct sched_cycle_result *r, struct model_step *st)
{
	/* a pod leaving the unscheduled pods with a nominated node (v1.34's
	 * deletePodFromSchedulingQueue) */
	bool had_nomination = m->snap.nominated[p] >= 0;
	set_node(m, p, node);
	/* Reserve / PreBind write its claims' status */
	struct dra_live *was = dra_live_clone(m->snap.dra);
	model_dra_bound(m, p, node);
	m->snap.nominated[p] = -1;   /* binding took the pod off the nominator */
	m->placed[p] = true;
	m->changes++;
	st->action = MODEL_STEP_BIND;
	st->node = node;
	st->fast_path = r->nominated_node == node;
	st->message = xstrdup("");
	const struct model_requeue_events e = {
		.bound = p, .unnominated = &p, .n_unnominated = had_nomination,
		.claims_was = was, .claims_now = m->snap.dra,
	};
	wake(m, &e);
	dra_live_free(was);
}

/* kube §3.6: victims are deleted, lower-priority nominations on the node
 * cleared, the pod nominated; it is requeued and the deletions wake it.
 * was: the claims' status before the step (PostFilter may have
 * deallocated one already; core/dra_live.h). */
static void apply_preemption(struct model_scheduler *m, int p,
			     const struct sched_preemption *pr,
			     const struct sched_cycle_result *r,
			     const struct dra_live *was, struct model_step *st)
{
	uint8_t rejectors = model_requeue_rejectors(m->cluster, r,
						    m->snap.nominated[p]);
	/* the pods whose nominatedNodeName goes: those cleared, and the
	 * preemptor's own when it moves to another node */
	int *gone = xmalloc(sizeof *gone * ((size_t)pr->n_clear_nominated + 1));
	int n_gone = 0;
	for (int i = 0; i < pr->n_clear_nominated; i++)
		if (m->snap.nominated[pr->clear_nominated[i]] >= 0)
			gone[n_gone++] = pr->clear_nominated[i];
	if (m->snap.nominated[p] >= 0 && m->snap.nominated[p] != pr->node)
		gone[n_gone++] = p;
	/* a victim's claims unreserved or deallocated */
	for (int i = 0; i < pr->chosen.n; i++) {
		set_node(m, pr->chosen.pods[i], SNAP_GONE);
		set_nominated(m, pr->chosen.pods[i], -1);
		model_dra_gone(m, pr->chosen.pods[i]);
	}
	for (int i = 0; i < pr->n_clear_nominated; i++)
		set_nominated(m, pr->clear_nominated[i], -1);
	set_nominated(m, p, pr->node);
	m->changes++;
	st->action = MODEL_STEP_PREEMPT;
	st->node = pr->node;
	st->victims = copy_ints(pr->chosen.pods, pr->chosen.n);
	st->n_victims = pr->chosen.n;
	st->cleared = copy_ints(pr->clear_nominated, pr->n_clear_nominated);
	st->n_cleared = pr->n_clear_nominated;
	/* PostFilter succeeded: no PostFilter message in the FitError */
	st->message = xstrdup(r->message ? r->message : "");
	park(m, p, rejectors);
	const struct model_requeue_events e = {
		.bound = -1, .deleted = st->victims, .n_deleted = st->n_victims,
		.unnominated = gone, .n_unnominated = n_gone,
		.claims_was = was, .claims_now = m->snap.dra,
	};
	wake(m, &e);
	free(gone);
}

/* Whether victims v[0..n) are the wanted ones (as sets). */
static bool wanted_victims(const struct model_want *w, const int *v, int n)
{
	return sched_same_pods(w->victims, w->n_victims, v, n);
}

/* pr's answer replaced by the candidate on node with victims v[0..n):
 * its victims, its node and the nominations a preemption there clears. */
static void choose_candidate(const struct model_scheduler *m, int p,
			     struct sched_preemption *pr, int node,
			     const int *v, int n)
{
	int *pods = copy_ints(v, n);
	free(pr->chosen.pods);
	pr->chosen.pods = pods;
	pr->chosen.n = n;
	pr->chosen.node = node;
	pr->node = node;
	model_lower_nominated(&m->snap, p, node, pr);
}

/* A replay wanting one of the candidates tied with kube's answer (§3.5:
 * equally kube's) gets it. */
static void take_wanted_tie(const struct model_scheduler *m, int p,
			    struct sched_preemption *pr)
{
	const struct model_want *w = &m->want;
	if (!w->set || w->action != MODEL_STEP_PREEMPT ||
	    (pr->node == w->node &&
	     wanted_victims(w, pr->chosen.pods, pr->chosen.n)))
		return;
	for (int t = 0; t < pr->n_ties; t++) {
		if (pr->ties[t] != w->node)
			continue;
		for (int k = 0; k < pr->n_candidates; k++) {
			const struct sched_victims *c = &pr->candidates[k];
			if (c->node == w->node && wanted_victims(w, c->pods, c->n)) {
				choose_candidate(m, p, pr, c->node, c->pods, c->n);
				return;
			}
		}
	}
}

/* A forced replay step: the wanted bind or preemption applied as it is
 * (the cycle r gave the viable set and the message).  A forced
 * "unschedulable" is not applied here: the loop's own failure path gives
 * it, with PostFilter's message (model_scheduler_step). */
static void apply_wanted(struct model_scheduler *m, int p,
			 const struct sched_cycle_result *r,
			 struct model_step *st)
{
	const struct model_want *w = &m->want;
	if (w->action == MODEL_STEP_BIND) {
		assert(w->node >= 0);
		do_bind(m, p, w->node, r, st);
		return;
	}
	if (w->action == MODEL_STEP_PREEMPT) {
		struct sched_preemption pr;
		sched_preemption_init(&pr);
		pr.code = SCHED_SUCCESS;
		choose_candidate(m, p, &pr, w->node, w->victims, w->n_victims);
		struct dra_live *was = dra_live_clone(m->snap.dra);
		apply_preemption(m, p, &pr, r, was, st);
		dra_live_free(was);
		sched_preemption_release(&pr);
		return;
	}
	assert(!"apply_wanted: a bind or a preemption");
}

/* FitError.Error() (the cycle's message) with PostFilter's message
 * appended after a space. */
static char *with_postfilter(const char *fit, const char *post)
{
	if (!post || !post[0])
		return xstrdup(fit);
	size_t len = strlen(fit) + strlen(post) + 2;
	char *s = xmalloc(len);
	snprintf(s, len, "%s %s", fit, post);
	return s;
}

/* Nothing feasible: DefaultPreemption when the profile has it (§1.3 step
 * 6); the pod stays pending either way. */
static void no_fit(struct model_scheduler *m, int p,
		   const struct sched_profile *prof,
		   const struct sched_cycle_result *r, struct model_step *st)
{
	st->action = MODEL_STEP_UNSCHEDULABLE;
	const char *fit = r->message ? r->message : "";
	uint8_t rejectors = model_requeue_rejectors(m->cluster, r,
						    m->snap.nominated[p]);
	/* an Error or "no nodes" is not a FitError: PostFilter does not run,
	 * and kube's schedulingCycle answers clearNominatedNode, so the pod
	 * loses its nomination (v1.30.12 and v1.34.1); a FitError with no
	 * PostFilter plugin leaves it as it is */
	if (r->code != SCHED_UNSCHEDULABLE || !config_has_postfilter(prof)) {
		bool gone = r->code != SCHED_UNSCHEDULABLE &&
			    m->snap.nominated[p] >= 0;
		if (gone)
			set_nominated(m, p, -1);
		st->message = xstrdup(fit);
		park(m, p, rejectors);
		m->changes += gone;
		/* v1.34: the cleared nomination is an event */
		const struct model_requeue_events e = {
			.bound = -1, .unnominated = &p, .n_unnominated = 1,
		};
		if (gone)
			wake(m, &e);
		return;
	}
	struct sched_preemption pr;
	sched_preemption_init(&pr);
	uint64_t draw = m->opts.preempt_random ? splitmix64_next(&m->rng) : 0;
	m->engine.preempt(m->engine.self, prof, &m->snap, p, r, draw, &pr);
	/* a claim deallocated is an event: the pod retries against it */
	struct dra_live *was = dra_live_clone(m->snap.dra);
	bool dealloc = model_dra_postfilter(m, p, &pr);
	if (pr.code == SCHED_SUCCESS && pr.node >= 0)
		take_wanted_tie(m, p, &pr);
	if (pr.code == SCHED_SUCCESS && pr.node >= 0) {
		apply_preemption(m, p, &pr, r, was, st);
	} else {
		bool gone = pr.clear_own_nomination && m->snap.nominated[p] >= 0;
		if (pr.clear_own_nomination)
			set_nominated(m, p, -1);
		st->message = with_postfilter(fit, pr.message);
		park(m, p, rejectors);
		m->changes += gone || dealloc;
		/* v1.34: the cleared nomination and a claim deallocated are
		 * events */
		const struct model_requeue_events e = {
			.bound = -1, .unnominated = &p, .n_unnominated = gone,
			.claims_was = was, .claims_now = m->snap.dra,
		};
		if (gone || dealloc)
			wake(m, &e);
	}
	dra_live_free(was);
	sched_preemption_release(&pr);
}

/* ------------------------------------------- the 5-minute timeout */

/* Whether retrying parked pod p on the current state changes it: p
 * binds, preempts, has a claim deallocated or loses its nomination.  A
 * pod whose failed cycle ran on this very state fails the same way.  The
 * loop's engine answers when it can be held (its sampling start and
 * draws put back after), else the literal model (a scheduler under test
 * is not asked questions kube would not ask it). */
static bool retry_changes(struct model_scheduler *m, int p)
{
	if (m->parked_changes[p] == m->changes)
		return false;
	if (!model_dra_check(m, p)) {
		/* the round's own step meets it, in its turn */
		free(m->unjudged);
		m->unjudged = NULL;
		return true;
	}
	const struct sched_profile *prof = model_profile_for(m->cluster, p);
	struct sched_cycle_result *r = &m->result;
	const struct loop_engine *e = &m->engine;
	bool held = e->hold != NULL;
	if (held)
		e->hold(e->self, true);
	if (held)
		e->cycle(e->self, prof, &m->snap, p, r);
	else
		model_engine_cycle(m, prof, &m->snap, p, r);
	bool nominated = m->snap.nominated[p] >= 0;
	bool changes = r->n_viable > 0;
	if (!changes && r->code != SCHED_UNSCHEDULABLE)
		changes = nominated;     /* clearNominatedNode (no_fit) */
	else if (!changes && config_has_postfilter(prof)) {
		struct sched_preemption pr;
		sched_preemption_init(&pr);
		if (held)
			e->preempt(e->self, prof, &m->snap, p, r, 0, &pr);
		else
			model_engine_preempt(m, prof, &m->snap, p, r, 0, &pr);
		changes = (pr.code == SCHED_SUCCESS && pr.node >= 0) ||
			  pr.n_dra_deallocs > 0 ||
			  (pr.clear_own_nomination && nominated);
		sched_preemption_release(&pr);
	}
	if (held)
		e->hold(e->self, false);
	return changes;
}

/* Whether the flush's round changes anything.  Every retry up to the
 * first that changes something runs on the current state, so one pod
 * that would change it, in any order, is enough. */
static bool round_changes(struct model_scheduler *m)
{
	for (int i = 0; i < m->n_pool; i++)
		if (retry_changes(m, m->pool[i]))
			return true;
	return false;
}

/* flushUnschedulablePodsLeftover: the wildcard UnschedulableTimeout event
 * gives every parked pod queueAfterBackoff (isPodWorthRequeuing, both
 * releases); its backoff expired minutes ago, so it goes to activeQ
 * with the timestamp of its last failure (PrioritySort orders the
 * retries by priority, then by when each failed). */
int model_scheduler_flush(struct model_scheduler *m)
{
	assert(m);
	if (m->n_heap > 0 || m->n_pool == 0 || m->stopped || m->unjudged ||
	    m->fixpoint ||
	    (m->opts.max_steps > 0 && m->steps >= m->opts.max_steps))
		return 0;
	/* the last flush's round came back with nothing changed (an engine
	 * answering otherwise than the model: a scheduler under test), or
	 * no retry would change anything */
	if ((m->flushes > 0 && m->flush_changes == m->changes) ||
	    !round_changes(m)) {
		m->fixpoint = true;
		return 0;
	}
	if (!model_invariants_flush(m)) {
		m->stopped = true;
		return 0;
	}
	int n = m->n_pool;
	for (int i = 0; i < n; i++) {
		int q = m->pool[i];
		m->waiting[q] = false;
		m->rejectors[q] = 0;
		heap_push(m, q);
	}
	m->n_pool = 0;
	m->flushes++;
	m->flush_changes = m->changes;
	m->flushed = n;
	return n;
}

int model_scheduler_step(struct model_scheduler *m, struct model_step *st)
{
	assert(m && st);
	if (m->stopped ||
	    (m->opts.max_steps > 0 && m->steps >= m->opts.max_steps))
		return 0;
	if (m->n_heap == 0)
		model_scheduler_flush(m);
	if (m->n_heap == 0 || m->unjudged)
		return 0;
	if (!model_dra_check(m, model_scheduler_head(m)))
		return 0;
	m->step_changes = m->changes;
	int p = heap_pop(m);
	/* the heap's top is the pod the definition finds (checked where a
	 * scan of every pod is cheap) */
	assert(m->cluster->n_pods > 64 || model_scheduler_next(m) == p);
	const struct sched_profile *prof = model_profile_for(m->cluster, p);
	assert(prof);
	struct sched_cycle_result *r = &m->result;
	m->engine.cycle(m->engine.self, prof, &m->snap, p, r);

	memset(st, 0, sizeof *st);
	st->pod = p;
	st->node = -1;
	st->flushed = m->flushed;
	m->flushed = 0;
	if (!m->opts.no_step_viable)
		st->viable = copy_ints(r->viable, r->n_viable);
	st->n_viable = r->n_viable;
	if (m->want.set && m->want.force &&
	    m->want.action != MODEL_STEP_UNSCHEDULABLE)
		apply_wanted(m, p, r, st);
	else if (r->n_viable > 0)
		do_bind(m, p, r->nominated_node >= 0 ? r->nominated_node
			: select_host(m, r), r, st);
	else
		no_fit(m, p, prof, r, st);
	m->want.set = false;
	model_scheduler_end_step(m, st);
	return 1;
}

void model_scheduler_arrive(struct model_scheduler *m, int p)
{
	assert(m && p >= 0 && p < m->cluster->n_pods && m->absent[p]);
	assert(m->snap.pod_node[p] == SNAP_GONE);
	m->absent[p] = false;
	m->fixpoint = false;
	m->snap.pod_node[p] = SNAP_PENDING;
	m->snap.nominated[p] = -1;
	if (m->engine.arrive)
		m->engine.arrive(m->engine.self, p);
	m->queued_at[p] = ++m->clock;
	m->changes++;
	if (in_active_queue(m, p))
		heap_push(m, p);
	m->before.pod_node[p] = SNAP_PENDING;
	m->before.nominated[p] = -1;
	/* a state no step led to: the termination check rehashes it */
	model_invariants_check(m, &m->before, NULL);
}

static void sync_pod(struct model_scheduler *m, int p)
{
	m->before.pod_node[p] = m->snap.pod_node[p];
	m->before.nominated[p] = m->snap.nominated[p];
}

void model_scheduler_end_step(struct model_scheduler *m,
			      const struct model_step *st)
{
	assert(m && st);
	m->steps++;
	if (!model_invariants_check(m, &m->before, st))
		m->stopped = true;
	sync_pod(m, st->pod);
	for (int i = 0; i < st->n_victims; i++)
		sync_pod(m, st->victims[i]);
	for (int i = 0; i < st->n_cleared; i++)
		sync_pod(m, st->cleared[i]);
	dra_live_assign(m->before.dra, m->snap.dra);
}
