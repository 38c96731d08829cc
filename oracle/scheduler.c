/*
 * scheduler.c - the oracle's scheduler loop (oracle/scheduler.h): kube's
 * scheduling queue and cycle (reference §1.2, §1.3, §1.7, §3.6) with the
 * model's loop semantics (model/scheduler_step.c), so both engines take
 * the same steps:
 *
 *   activeQ      PrioritySort: priority desc, then the queue timestamp
 *                (0 = as created, else the order of the failure that
 *                parked the pod), then creationTimestamp (a missing one
 *                last), then manifest order;
 *   a failure    parks the pod in the unschedulable pool with a fresh
 *                queue timestamp; every bind or eviction moves the whole
 *                pool back to activeQ (kso's reading of
 *                MoveAllToActiveOrBackoffQueue);
 *   selectHost   the viable node whose name sorts first, or one drawn
 *                from the seed (--tie random); the nominated node when
 *                the cycle's fast path chose it;
 *   PostFilter   oracle_preempt from offset 0 or a seeded one; victims
 *                are deleted, lower nominations cleared, the pod
 *                nominated and requeued.
 * The random draws come from the same splitmix64 sequence as the model's,
 * in the same order, so seeded runs agree too.
 */
#include "scheduler.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "../core/splitmix.h"

/* splitmix64, the model loop's generator (model/scheduler_step.c). */
static int *copy_ints(const int *a, int n)
{
	int *d = xmalloc(sizeof(int) * (size_t)(n + 1));
	if (n)
		memcpy(d, a, sizeof(int) * (size_t)n);
	return d;
}

/* ------------------------------------------------------------- activeQ */

/* PrioritySort Less with the queue timestamps (a strict total order). */
static bool before(const struct oracle_scheduler *os, int a, int b)
{
	const struct pod *pa = &os->o.cluster->pods[a], *pb = &os->o.cluster->pods[b];
	if (pa->priority != pb->priority)
		return pa->priority > pb->priority;
	const int64_t *at = os->rec.queued_at;
	if (at[a] != at[b])
		return at[a] < at[b];
	if (pa->creation.has != pb->creation.has)
		return pa->creation.has;
	if (pa->creation.has && pa->creation.seconds != pb->creation.seconds)
		return pa->creation.seconds < pb->creation.seconds;
	return a < b;
}

static void heap_push(struct oracle_scheduler *os, int p)
{
	int i = os->n_heap++;
	int *h = os->heap;
	while (i > 0 && before(os, p, h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = p;
}

static int heap_pop(struct oracle_scheduler *os)
{
	int *h = os->heap;
	int top = h[0];
	int last = h[--os->n_heap];
	int i = 0, n = os->n_heap;
	for (;;) {
		int l = 2 * i + 1, best = last, at = -1;
		if (l < n && before(os, h[l], best))
			best = h[l], at = l;
		if (l + 1 < n && before(os, h[l + 1], best))
			best = h[l + 1], at = l + 1;
		if (at < 0)
			break;
		h[i] = best;
		i = at;
	}
	if (n > 0)
		h[i] = last;
	return top;
}

/* kube §1.2: pending pods, ungated, not being deleted, of a profile. */
static bool queueable(const struct oracle_scheduler *os, int p)
{
	const struct cluster *c = os->o.cluster;
	const struct pod *pod = &c->pods[p];
	return os->o.snap.pod_node[p] == SNAP_PENDING && pod->n_gates == 0 &&
	       !pod->deletion.has &&
	       config_find_profile(&c->config, pod->scheduler_name) != NULL;
}

/* A failed pod waits in the pool with a fresh queue timestamp. */
static void park(struct oracle_scheduler *os, int p)
{
	os->rec.waiting[p] = true;
	os->rec.queued_at[p] = ++os->rec.clock;
	os->pool[os->n_pool++] = p;
}

/* A bind or an eviction: every parked pod back to activeQ. */
static void wake_all(struct oracle_scheduler *os)
{
	for (int i = 0; i < os->n_pool; i++) {
		os->rec.waiting[os->pool[i]] = false;
		heap_push(os, os->pool[i]);
	}
	os->n_pool = 0;
}

/* ------------------------------------------------------------ lifecycle */

void oracle_scheduler_init(struct oracle_scheduler *os, const struct snapshot *s,
			   const struct model_sched_opts *opts, bool all_nodes)
{
	assert(os && s && s->cluster && opts);
	const struct cluster *c = s->cluster;
	memset(os, 0, sizeof(*os));
	model_scheduler_init(&os->rec, s, opts);
	oracle_init(&os->o, s);
	os->o.all_nodes = all_nodes;
	os->heap = xmalloc(sizeof(int) * (size_t)(c->n_pods + 1));
	os->pool = xmalloc(sizeof(int) * (size_t)(c->n_pods + 1));
	for (int p = 0; p < c->n_pods; p++)
		if (queueable(os, p))
			heap_push(os, p);
}

void oracle_scheduler_release(struct oracle_scheduler *os)
{
	assert(os);
	model_scheduler_release(&os->rec);
	oracle_release(&os->o);
	free(os->heap);
	free(os->pool);
	memset(os, 0, sizeof(*os));
}

int oracle_scheduler_next(const struct oracle_scheduler *os)
{
	assert(os);
	return os->n_heap ? os->heap[0] : -1;
}

/* ---------------------------------------------------------- the actions */

/* selectHost made deterministic as the model makes it. */
static int select_host(struct oracle_scheduler *os, const struct model_cycle_result *r)
{
	assert(r->n_viable > 0);
	const struct cluster *c = os->o.cluster;
	if (os->rec.opts.tie_random)
		return r->viable[splitmix64_next(&os->rec.rng) % (uint64_t)r->n_viable];
	int best = r->viable[0];
	for (int i = 1; i < r->n_viable; i++)
		if (strcmp(c->nodes[r->viable[i]].name, c->nodes[best].name) < 0)
			best = r->viable[i];
	return best;
}

/* §1.3 step 9: assumed at once; the pod leaves the nominator. */
static void do_bind(struct oracle_scheduler *os, int p, const struct model_cycle_result *r,
		    struct model_step *st)
{
	int node = r->nominated_node >= 0 ? r->nominated_node : select_host(os, r);
	oracle_bind(&os->o, p, node);
	os->rec.snap.pod_node[p] = node;
	os->rec.snap.nominated[p] = -1;
	os->rec.placed[p] = true;
	st->action = MODEL_STEP_BIND;
	st->node = node;
	st->fast_path = r->nominated_node >= 0;
	st->message = xstrdup("");
	wake_all(os);
}

/* §3.6: victims deleted, lower nominations on the node cleared, the pod
 * nominated; it is requeued and the deletions wake it. */
static void apply_preemption(struct oracle_scheduler *os, int p,
			     const struct model_preemption *pr,
			     const struct model_cycle_result *r, struct model_step *st)
{
	struct snapshot *rs = &os->rec.snap;
	for (int i = 0; i < pr->chosen.n; i++) {
		int v = pr->chosen.pods[i];
		oracle_evict(&os->o, v);
		oracle_nominate(&os->o, v, -1);
		rs->pod_node[v] = SNAP_GONE;
		rs->nominated[v] = -1;
	}
	for (int i = 0; i < pr->n_clear_nominated; i++) {
		oracle_nominate(&os->o, pr->clear_nominated[i], -1);
		rs->nominated[pr->clear_nominated[i]] = -1;
	}
	oracle_nominate(&os->o, p, pr->node);
	rs->nominated[p] = pr->node;
	st->action = MODEL_STEP_PREEMPT;
	st->node = pr->node;
	st->victims = copy_ints(pr->chosen.pods, pr->chosen.n);
	st->n_victims = pr->chosen.n;
	st->cleared = copy_ints(pr->clear_nominated, pr->n_clear_nominated);
	st->n_cleared = pr->n_clear_nominated;
	/* PostFilter succeeded: the FitError carries no PostFilter message */
	st->message = xstrdup(r->message ? r->message : "");
	park(os, p);
	wake_all(os);
}

/* FitError.Error() with PostFilter's message appended after a space. */
static char *with_postfilter(const char *fit, const char *post)
{
	if (!post || !post[0])
		return xstrdup(fit);
	size_t len = strlen(fit) + strlen(post) + 2;
	char *s = xmalloc(len);
	snprintf(s, len, "%s %s", fit, post);
	return s;
}

/* Nothing feasible: DefaultPreemption when the profile has it and the
 * cycle was a FitError; the pod stays pending either way. */
static void no_fit(struct oracle_scheduler *os, int p, const struct sched_profile *prof,
		   const struct model_cycle_result *r, struct model_step *st)
{
	st->action = MODEL_STEP_UNSCHEDULABLE;
	const char *fit = r->message ? r->message : "";
	if (r->code != MODEL_UNSCHEDULABLE || !prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
		st->message = xstrdup(fit);
		park(os, p);
		return;
	}
	struct model_preemption pr;
	model_preemption_init(&pr);
	uint64_t draw = os->rec.opts.preempt_random ? splitmix64_next(&os->rec.rng) : 0;
	oracle_preempt(&os->o, prof, p, r, draw, &pr);
	if (pr.code == MODEL_SUCCESS && pr.node >= 0) {
		apply_preemption(os, p, &pr, r, st);
	} else {
		if (pr.clear_own_nomination) {
			oracle_nominate(&os->o, p, -1);
			os->rec.snap.nominated[p] = -1;
		}
		st->message = with_postfilter(fit, pr.message);
		park(os, p);
	}
	model_preemption_release(&pr);
}

/* The record's placement is the oracle's for pod p (checked in debug
 * builds for the pods a step changed). */
static inline bool mirrors_pod(const struct oracle_scheduler *os, int p)
{
	const struct snapshot *a = &os->o.snap, *b = &os->rec.snap;
	return a->pod_node[p] == b->pod_node[p] &&
	       (a->pod_node[p] != SNAP_PENDING || a->nominated[p] == b->nominated[p]);
}

static inline bool mirrors(const struct oracle_scheduler *os,
			   const struct model_step *st)
{
	bool ok = mirrors_pod(os, st->pod);
	for (int i = 0; ok && i < st->n_victims; i++)
		ok = mirrors_pod(os, st->victims[i]);
	for (int i = 0; ok && i < st->n_cleared; i++)
		ok = mirrors_pod(os, st->cleared[i]);
	return ok;
}

int oracle_scheduler_step(struct oracle_scheduler *os, struct model_step *st)
{
	assert(os && st);
	struct model_scheduler *m = &os->rec;
	if (m->stopped || (m->opts.max_steps > 0 && m->steps >= m->opts.max_steps))
		return 0;
	if (os->n_heap == 0)
		return 0;
	int p = heap_pop(os);
	const struct cluster *c = os->o.cluster;
	const struct sched_profile *prof =
		config_find_profile(&c->config, c->pods[p].scheduler_name);
	assert(prof);
	struct model_cycle_result *r = &m->result;
	oracle_schedule_cycle(&os->o, p, r);

	memset(st, 0, sizeof(*st));
	st->pod = p;
	st->node = -1;
	st->viable = copy_ints(r->viable, r->n_viable);
	st->n_viable = r->n_viable;
	if (r->n_viable > 0)
		do_bind(os, p, r, st);
	else
		no_fit(os, p, prof, r, st);
	assert(mirrors(os, st));
	model_scheduler_end_step(m, st);
	return 1;
}
