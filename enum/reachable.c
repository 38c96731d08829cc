/*
 * reachable.c - the `reachable` mode: from all pods pending, every state
 * the scheduler loop (model/scheduler.h, reference §1.2, §1.3, §3.6) can
 * reach, breadth-first with a visited set of canonical states, like an
 * explicit-state model checker.
 *
 * A state is the placement, the nominations, the unschedulable pool and
 * the order of the queue timestamps (enough for PrioritySort with
 * re-queued pods, model_scheduler_next), and under v1.34 the
 * ResourceClaims' status the loop writes (core/dra_live.h: each claim's
 * allocation and reservedFor), interned in a table of its own: a bind,
 * an eviction and PostFilter's deallocation change it through the loop's
 * own functions (model/dra_loop.c).  Where kube picks at random - one of
 * several claims PostFilter may deallocate, the devices its allocator's
 * pool and slice orders pick - each pick is a successor.  A state where
 * kube's next answer depends on a choice kso does not follow
 * (model_dra_check; a bind whose orders were too many to try) ends the
 * search with an error: no state of such a run is counted as judged.  Successors of a state with next
 * pod P: one bind per viable node (every tie selectHost could take; only
 * the nominated node on the fast path), or, when nothing fits, kube's
 * preemption (and each candidate tied with its choice) and the minimal
 * answer, or P parked.  A state with no next pod but pods parked has one
 * more successor when retrying them would change something (one binds,
 * preempts or loses its nomination): the 5-minute unschedulable timeout
 * (flushUnschedulablePodsLeftover), every parked pod back to activeQ with
 * its queue timestamp; when no retry would change anything the state is
 * a fixpoint, final.  Every transition is checked against the model's
 * invariants; breadth-first order makes the recorded trace a shortest
 * one.  Termination is checked on the whole graph at the end (a cycle of
 * steps is a run that never ends), and final states with more pods
 * pending than another final state are findings.
 */
#include "../core/dra_live.h"
#include "../core/grow.h"
#include "../core/limits.h"
#include "enum.h"
#include "../core/xalloc.h"
#include "../model/requeue.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum { ACT_BIND, ACT_KUBE, ACT_MINIMAL, ACT_PARK, ACT_ARRIVE, ACT_FLUSH };

/* How a state was first reached. */
struct rmeta {
	int32_t parent;        /* -1 for the initial state */
	int32_t depth;
	int16_t pod, node;
	int8_t act;
	uint64_t victims;      /* bit per pod */
	uint64_t weight;       /* class size */
};

struct graph {
	int bytes;             /* per state */
	uint8_t *enc;          /* [n * bytes] canonical encodings */
	struct rmeta *meta;
	int n, cap;
	uint32_t *slots;       /* hash set of state index + 1 */
	uint32_t n_slots;
	int32_t *edges;        /* (src, dst) pairs */
	size_t n_edges, cap_edges;
};

static uint64_t hash_bytes(const uint8_t *b, int n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (int i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static void graph_rehash(struct graph *g)
{
	uint32_t ns = g->n_slots ? 2 * g->n_slots : 1024;
	free(g->slots);
	g->slots = calloc(ns, sizeof *g->slots);
	if (!g->slots)
		abort();
	g->n_slots = ns;
	for (int i = 0; i < g->n; i++) {
		uint32_t k = (uint32_t)hash_bytes(g->enc + (size_t)i * (size_t)g->bytes, g->bytes) & (ns - 1);
		while (g->slots[k])
			k = (k + 1) & (ns - 1);
		g->slots[k] = (uint32_t)i + 1;
	}
}

/* Index of enc in g, adding it when new (*added).  */
static int graph_intern(struct graph *g, const uint8_t *enc, bool *added)
{
	if (2 * ((uint32_t)g->n + 1) > g->n_slots)
		graph_rehash(g);
	uint32_t k = (uint32_t)hash_bytes(enc, g->bytes) & (g->n_slots - 1);
	for (; g->slots[k]; k = (k + 1) & (g->n_slots - 1)) {
		int i = (int)g->slots[k] - 1;
		if (memcmp(g->enc + (size_t)i * (size_t)g->bytes, enc, (size_t)g->bytes) == 0) {
			*added = false;
			return i;
		}
	}
	if (g->n == g->cap) {
		/* enc holds g->bytes a state: grown by hand beside meta */
		GROW(g->meta, g->n + 1, g->cap);
		g->enc = xrealloc(g->enc, (size_t)g->cap * (size_t)g->bytes);
	}
	memcpy(g->enc + (size_t)g->n * (size_t)g->bytes, enc, (size_t)g->bytes);
	memset(&g->meta[g->n], 0, sizeof g->meta[g->n]);
	g->slots[k] = (uint32_t)g->n + 1;
	*added = true;
	return g->n++;
}

static void graph_edge(struct graph *g, int a, int b)
{
	/* two ints an edge */
	GROW(g->edges, 2 * (g->n_edges + 1), g->cap_edges);
	g->edges[2 * g->n_edges] = a;
	g->edges[2 * g->n_edges + 1] = b;
	g->n_edges++;
}

static void graph_release(struct graph *g)
{
	free(g->enc);
	free(g->meta);
	free(g->slots);
	free(g->edges);
}

/* ------------------------------------------------------ claims' status */

/* The claims' statuses a search met, each once (dra_live_encode's
 * words): a state keeps the index of its own, so that states with the
 * same placement and different claims are told apart and equal ones are
 * one, without the words in every state. */
struct claim_table {
	int32_t *words;
	size_t n_words, cap_words;
	size_t *off;            /* [n + 1]: status i is words[off[i]..off[i+1]) */
	int n, cap;
	uint32_t *slots;        /* hash set of index + 1 */
	uint32_t n_slots;
};

static uint64_t status_hash(const int32_t *w, size_t n)
{
	return hash_bytes((const uint8_t *)w, (int)(n * sizeof *w));
}

static const int32_t *status_words(const struct claim_table *t, int i, size_t *n)
{
	*n = t->off[i + 1] - t->off[i];
	return t->words + t->off[i];
}

static void table_rehash(struct claim_table *t)
{
	uint32_t ns = t->n_slots ? 2 * t->n_slots : 64;
	free(t->slots);
	t->slots = xcalloc(ns, sizeof *t->slots);
	t->n_slots = ns;
	for (int i = 0; i < t->n; i++) {
		size_t n;
		const int32_t *w = status_words(t, i, &n);
		uint32_t k = (uint32_t)status_hash(w, n) & (ns - 1);
		while (t->slots[k])
			k = (k + 1) & (ns - 1);
		t->slots[k] = (uint32_t)i + 1;
	}
}

/* The index of status w[0..n) in t, added when new. */
static uint32_t table_intern(struct claim_table *t, const int32_t *w, size_t n)
{
	if (2 * ((uint32_t)t->n + 1) > t->n_slots)
		table_rehash(t);
	uint32_t k = (uint32_t)status_hash(w, n) & (t->n_slots - 1);
	for (; t->slots[k]; k = (k + 1) & (t->n_slots - 1)) {
		int i = (int)t->slots[k] - 1;
		size_t m;
		const int32_t *have = status_words(t, i, &m);
		if (m == n && memcmp(have, w, n * sizeof *w) == 0)
			return (uint32_t)i;
	}
	GROW(t->words, t->n_words + n, t->cap_words);
	if (n)
		memcpy(t->words + t->n_words, w, n * sizeof *w);
	/* off has one entry more than the statuses */
	GROW(t->off, (size_t)t->n + 2, t->cap);
	t->off[t->n] = t->n_words;
	t->n_words += n;
	t->off[t->n + 1] = t->n_words;
	t->slots[k] = (uint32_t)t->n + 1;
	return (uint32_t)t->n++;
}

static void table_release(struct claim_table *t)
{
	free(t->words);
	free(t->off);
	free(t->slots);
}

/* ------------------------------------------------------------ states */

/* A decoded state: placement in x->snap plus pool and queue order, and
 * (--arrivals) the pods not created yet: SNAP_GONE in the snapshot, so
 * that nothing sees them, and absent here. */
struct rstate {
	struct snapshot *snap;
	bool *waiting;
	uint8_t *rej;          /* a waiting pod's rejecting plugins (requeue.h) */
	int64_t *queued;
	bool *absent;
};

/* The claims' part of a state: NULL when the loop changes no claim
 * (no claims, or v1.30: DynamicResources is not modelled there). */
struct claims_part {
	struct claim_table tab;
	int32_t *words;         /* scratch: dra_live_max_words */
};

#define REJ_CLAIMS_RANK 0x80   /* t[3]: DynamicResources rejected it */

static void encode(const struct cluster *c, struct claims_part *cp,
		   const struct rstate *s, uint8_t *out)
{
	if (cp) {
		size_t n = dra_live_encode(s->snap->dra, cp->words);
		uint32_t id = table_intern(&cp->tab, cp->words, n);
		memcpy(out + ENUM_STATE_BYTES * c->n_pods, &id, sizeof id);
	}
	for (int p = 0; p < c->n_pods; p++) {
		uint8_t *t = out + ENUM_STATE_BYTES * p;
		int at = s->snap->pod_node[p];
		t[0] = (uint8_t)(s->absent[p] ? 0 : at >= 0 ? at + 3
				 : at == SNAP_GONE ? 1 : 2);
		t[1] = (uint8_t)(s->snap->nominated[p] + 1);
		/* the pool with each pod's rejecting plugins: which events
		 * move it is part of the state */
		t[2] = (uint8_t)(s->waiting[p] ? 1u | (unsigned)(s->rej[p] &
			~MODEL_REJ_CLAIMS) << 1 : 0);
		/* the rank of the queue timestamp among the pods' timestamps */
		int rank = 0;
		if (s->queued[p]) {
			rank = 1;
			for (int q = 0; q < c->n_pods; q++)
				rank += s->queued[q] && s->queued[q] < s->queued[p];
		}
		t[3] = (uint8_t)(rank | (s->waiting[p] && (s->rej[p] & MODEL_REJ_CLAIMS)
					 ? REJ_CLAIMS_RANK : 0));
	}
}

static void decode(const struct cluster *c, const struct claims_part *cp,
		   const uint8_t *in, struct rstate *s)
{
	for (int p = 0; p < c->n_pods; p++) {
		const uint8_t *t = in + ENUM_STATE_BYTES * p;
		s->snap->pod_node[p] = t[0] >= 3 ? t[0] - 3
			: t[0] <= 1 ? SNAP_GONE : SNAP_PENDING;
		s->absent[p] = t[0] == 0;
		s->snap->nominated[p] = (int32_t)t[1] - 1;
		s->waiting[p] = t[2] & 1;
		s->rej[p] = (uint8_t)(t[2] >> 1 |
				      (t[3] & REJ_CLAIMS_RANK ? MODEL_REJ_CLAIMS : 0));
		s->queued[p] = t[3] & ~REJ_CLAIMS_RANK;
	}
	if (!cp)
		return;
	uint32_t id;
	memcpy(&id, in + ENUM_STATE_BYTES * c->n_pods, sizeof id);
	size_t n;
	const int32_t *w = status_words(&cp->tab, (int)id, &n);
	bool ok = dra_live_decode(s->snap->dra, c, w, n);
	assert(ok);   /* the table holds only what encode wrote */
	(void)ok;
}

static int64_t max_queued(const struct cluster *c, const int64_t *q)
{
	int64_t m = 0;
	for (int p = 0; p < c->n_pods; p++)
		m = q[p] > m ? q[p] : m;
	return m;
}

/* The pod the loop schedules next (model_scheduler_next on s). */
static int next_pod(const struct cluster *c, const struct rstate *s)
{
	struct model_scheduler m;
	memset(&m, 0, sizeof m);
	m.cluster = c;
	m.snap = *s->snap;
	m.waiting = s->waiting;
	m.queued_at = s->queued;
	return model_scheduler_next(&m);
}

/* ------------------------------------------------------- transitions */

struct search {
	struct enum_ctx *x;
	const struct cluster *c;
	struct graph g;
	struct enum_sink *sink;
	struct enum_tally *t;
	bool symmetry;
	struct enum_symmetry sym;   /* node permutations only */
	struct rstate cur, nxt;
	struct snapshot nsnap;        /* scratch for records */
	bool *nwait, *nabsent;
	uint8_t *nrej;
	int64_t *nqueued;
	bool *placed;
	uint8_t *raw, *canon;
	int32_t *queue;        /* BFS order = state index order */
	int *gone;             /* scratch: a step's pods losing a nomination */
	struct claims_part *cp;   /* NULL: no claim changes in this loop */
	/* malloc'ed: why the search stopped at a state kso cannot judge
	 * (model/dra_loop.c's words), NULL */
	char *refusal;
};

static const char *act_name(int act)
{
	return act == ACT_BIND ? "bind" : act == ACT_KUBE ? "preempt(kube)"
		: act == ACT_MINIMAL ? "preempt(minimal)"
		: act == ACT_ARRIVE ? "arrives" : act == ACT_FLUSH
		? "5-minute flush" : "unschedulable";
}

static void step_text(const struct cluster *c, int pod, int act, int node,
		      uint64_t victims, struct strbuf *b)
{
	if (act == ACT_FLUSH) {
		strbuf_puts(b, act_name(act));
		return;
	}
	strbuf_printf(b, "%s/%s %s", c->pods[pod].ns, c->pods[pod].name, act_name(act));
	if (node >= 0)
		strbuf_printf(b, " %s", c->nodes[node].name);
	for (int p = 0; p < c->n_pods && p < 64; p++)
		if (victims >> p & 1)
			strbuf_printf(b, " evict %s/%s", c->pods[p].ns, c->pods[p].name);
}

/* The shortest trace to state i, then (pod >= 0) one more step. */
static char *trace(const struct search *S, int i, int pod, int act, int node,
		   uint64_t victims)
{
	int depth = S->g.meta[i].depth;
	int *chain = calloc((size_t)depth + 1, sizeof *chain);
	if (!chain)
		abort();
	for (int k = i, d = depth; d > 0; k = S->g.meta[k].parent)
		chain[--d] = k;
	struct strbuf b;
	strbuf_init(&b);
	int n = 0;
	for (int d = 0; d < depth; d++) {
		const struct rmeta *m = &S->g.meta[chain[d]];
		strbuf_printf(&b, "%s%d. ", n ? "; " : "", n + 1);
		step_text(S->c, m->pod, m->act, m->node, m->victims, &b);
		n++;
	}
	if (pod >= 0) {
		strbuf_printf(&b, "%s%d. ", n ? "; " : "", n + 1);
		step_text(S->c, pod, act, node, victims, &b);
	}
	if (S->symmetry)
		strbuf_puts(&b, " (steps name the canonical state's objects: "
			      "identical nodes or pods may be renamed between "
			      "steps; --no-symmetry gives literal traces)");
	free(chain);
	return strbuf_take(&b);
}

/* One step of a trace as data. */
static void trace_step(const struct cluster *c, int pod, int act, int node,
		       uint64_t victims, struct enum_trace_step *out)
{
	out->pod = pod;
	out->arrive = act == ACT_ARRIVE;
	out->flush = act == ACT_FLUSH;
	out->action = act == ACT_BIND ? MODEL_STEP_BIND
		: act == ACT_PARK ? MODEL_STEP_UNSCHEDULABLE : MODEL_STEP_PREEMPT;
	out->minimal = act == ACT_MINIMAL;
	out->node = node;
	out->victims = xcalloc((size_t)c->n_pods + 1, sizeof *out->victims);
	out->n_victims = 0;
	for (int p = 0; p < c->n_pods && p < 64; p++)
		if (victims >> p & 1)
			out->victims[out->n_victims++] = p;
}

/* The shortest trace to state i as data, then (extra) one more step. */
static void trace_data(const struct search *S, int i, const struct rmeta *extra,
		       struct enum_trace *out)
{
	int depth = S->g.meta[i].depth;
	out->steps = xcalloc((size_t)depth + 2, sizeof *out->steps);
	out->n = depth + (extra != NULL);
	for (int k = i, d = depth; d > 0; k = S->g.meta[k].parent) {
		const struct rmeta *m = &S->g.meta[k];
		trace_step(S->c, m->pod, m->act, m->node, m->victims,
			   &out->steps[--d]);
	}
	if (extra)
		trace_step(S->c, extra->pod, extra->act, extra->node,
			   extra->victims, &out->steps[depth]);
}

/* extra: the step out of state that a step violation is about, or NULL. */
static void emit_record(struct search *S, int state, const struct rmeta *extra,
			const struct enum_outcome *o,
			const char *viol_name, const char *viol_detail,
			const char *viol_trace, enum enum_finding find,
			const char *find_detail)
{
	if (!S->sink->record)
		return;
	struct enum_record r;
	memset(&r, 0, sizeof r);
	r.scenario = S->x->sc->index;
	r.weight = S->g.meta[state].weight;
	r.depth = S->g.meta[state].depth;
	struct rstate tmp = {&S->nsnap, S->nwait, S->nrej, S->nqueued, S->nabsent};
	decode(S->c, S->cp, S->g.enc + (size_t)state * (size_t)S->g.bytes, &tmp);
	enum_record_state(&r, &S->nsnap, S->x->arrivals ? S->nabsent : NULL);
	if (S->cp)
		enum_record_claims(&r, &S->nsnap);
	if (o)
		enum_record_outcome(&r, S->x, o, NULL);
	if (viol_name)
		enum_record_violation(&r, viol_name, viol_detail, viol_trace);
	if (find_detail)
		enum_record_finding(&r, enum_finding_name(find), find_detail);
	if (S->x->traces)
		trace_data(S, state, extra, &r.trace);
	S->sink->record(S->sink->user, &r);
}

/* Invariants of the step from S->cur to S->nxt (state index from). */
static void check_step(struct search *S, int from, int pod, int act, int node,
		       const int *victims, int n_victims)
{
	const struct cluster *c = S->c;
	for (int p = 0; p < c->n_pods; p++)
		S->placed[p] = S->nxt.snap->pod_node[p] >= 0;
	struct model_scheduler m;
	memset(&m, 0, sizeof m);
	m.cluster = c;
	m.snap = *S->nxt.snap;       /* borrowed */
	m.placed = S->placed;
	m.waiting = S->nxt.waiting;
	m.queued_at = S->nxt.queued;
	m.steps = S->g.meta[from].depth + 1;
	struct model_step st = {
		.pod = pod, .node = node, .victims = (int *)victims,
		.n_victims = n_victims,
		.action = act == ACT_BIND ? MODEL_STEP_BIND
			: act == ACT_PARK ? MODEL_STEP_UNSCHEDULABLE : MODEL_STEP_PREEMPT,
	};
	/* termination is checked on the whole graph at the end: the step's
	 * own invariants only (no state history) */
	model_invariants_check_step(&m, S->cur.snap, &st);
	bool any = false;
	for (int i = 0; i < MODEL_INV_COUNT; i++) {
		if (i == MODEL_INV_TERMINATION || !m.inv.broken[i])
			continue;
		uint64_t vm = 0;
		for (int k = 0; k < n_victims; k++)
			vm |= UINT64_C(1) << victims[k];
		char *tr = trace(S, from, pod, act, node, vm);
		struct rmeta step = {.pod = (int16_t)pod, .node = (int16_t)node,
				     .act = (int8_t)act, .victims = vm};
		emit_record(S, from, &step, NULL, model_invariant_name(i),
			    m.inv.detail[i], tr, 0, NULL);
		free(tr);
		for (int k = 0; k < 2; k++)
			S->t[k].inv[i] += k ? 1 : S->g.meta[from].weight;
		any = true;
	}
	if (any)
		for (int k = 0; k < 2; k++)
			S->t[k].violations += k ? 1 : S->g.meta[from].weight;
	model_invariants_release(&m.inv);
}

/* s encoded into S->raw and canonicalized into S->canon; returns its
 * class size.  Node permutations act on the pods' part only: the claims'
 * status names no node of a symmetry class (search_init), so it is the
 * same in every state of the class. */
static uint64_t canonical(struct search *S, const struct rstate *s)
{
	encode(S->c, S->cp, s, S->raw);
	uint64_t w = 1;
	if (!S->symmetry) {
		memcpy(S->canon, S->raw, (size_t)S->g.bytes);
		return w;
	}
	enum_state_canonical(&S->sym, S->raw, S->canon, &w);
	size_t pods = (size_t)ENUM_STATE_BYTES * (size_t)S->c->n_pods;
	memcpy(S->canon + pods, S->raw + pods, (size_t)S->g.bytes - pods);
	return w;
}

/* Canonicalizes S->nxt, adds it (edge from), records how it was reached. */
static void add_successor(struct search *S, int from, int pod, int act,
			  int node, const int *victims, int n_victims)
{
	/* an arrival or a flush is no scheduling step: nothing to check */
	if (act != ACT_ARRIVE && act != ACT_FLUSH)
		check_step(S, from, pod, act, node, victims, n_victims);
	uint64_t w = canonical(S, &S->nxt);
	bool added;
	int i = graph_intern(&S->g, S->canon, &added);
	graph_edge(&S->g, from, i);
	if (!added)
		return;
	struct rmeta *m = &S->g.meta[i];
	m->parent = from;
	m->depth = S->g.meta[from].depth + 1;
	m->pod = (int16_t)pod;
	m->node = (int16_t)node;
	m->act = (int8_t)act;
	m->weight = w;
	for (int k = 0; k < n_victims; k++)
		m->victims |= UINT64_C(1) << victims[k];
}

/* The loop (model/scheduler.h) as far as its claims functions read it
 * (model/dra_loop.c): the cluster, state s's placement and claims'
 * status - borrowed, so what they write goes to s - and its absent pods. */
static void loop_view(const struct search *S, const struct rstate *s,
		      struct model_scheduler *m)
{
	memset(m, 0, sizeof *m);
	m->cluster = S->c;
	m->snap = *s->snap;
	m->absent = s->absent;
}

/* Keeps the first refusal the loop's claims functions gave (m->unjudged:
 * kube's answer depends on a random choice kso does not follow). */
static void take_unjudged(struct search *S, struct model_scheduler *m)
{
	if (m->unjudged && !S->refusal)
		S->refusal = m->unjudged;
	else
		free(m->unjudged);
	m->unjudged = NULL;
}

/* Pod p bound in S->nxt: Reserve and PreBind write its claims, with the
 * allocator's alternative pick (-1: the loop's own, which refuses where
 * the orders' picks matter and were not all tried). */
static void claims_bound(struct search *S, int p, int node, int pick)
{
	struct model_scheduler m;
	loop_view(S, &S->nxt, &m);
	if (pick >= 0) {
		model_dra_bound_pick(&m, p, node, pick);
		return;
	}
	model_dra_bound(&m, p, node);
	take_unjudged(S, &m);
}

/* The allocations kube may write binding p to node (model_dra_bind_picks
 * on the current state): its pool and slice orders, a Go map's and an
 * informer's, may pick different devices. */
static int bind_picks(struct search *S, int p, int node)
{
	struct model_scheduler m;
	loop_view(S, &S->cur, &m);
	return model_dra_bind_picks(&m, p, node);
}

/* Pod p deleted in S->nxt: it leaves every reservedFor (the
 * resourceclaim controller); whether a claim changed. */
static bool claims_gone(struct search *S, int p)
{
	struct model_scheduler m;
	loop_view(S, &S->nxt, &m);
	return model_dra_gone(&m, p);
}

/* DynamicResources' PostFilter (post: its answer, NULL when none ran)
 * deallocates its claim number pick in S->nxt (kube picks one of them at
 * random: the search follows each); whether a claim changed. */
static bool claims_postfilter(struct search *S, const struct sched_preemption *post,
			      int pick)
{
	if (!post)
		return false;
	struct model_scheduler m;
	loop_view(S, &S->nxt, &m);
	return model_dra_deallocate(&m, post, pick);
}

static void copy_state(struct search *S)
{
	const struct cluster *c = S->c;
	snapshot_assign(S->nxt.snap, S->cur.snap);
	memcpy(S->nxt.waiting, S->cur.waiting, sizeof *S->nxt.waiting * (size_t)c->n_pods);
	memcpy(S->nxt.rej, S->cur.rej, sizeof *S->nxt.rej * (size_t)c->n_pods);
	memcpy(S->nxt.queued, S->cur.queued, sizeof *S->nxt.queued * (size_t)c->n_pods);
	memcpy(S->nxt.absent, S->cur.absent, sizeof *S->nxt.absent * (size_t)c->n_pods);
}

/* The step's cluster events move the parked pods their rejecting
 * plugins let go (model/requeue.h, as the loop does). */
static void wake(struct search *S, const struct model_requeue_events *e)
{
	for (int q = 0; q < S->c->n_pods; q++)
		if (S->nxt.waiting[q] &&
		    model_requeue_wakes(S->c, q, S->nxt.rej[q], e)) {
			S->nxt.waiting[q] = false;
			S->nxt.rej[q] = 0;
		}
}

static void park(struct search *S, int p, uint8_t rej)
{
	S->nxt.waiting[p] = true;
	S->nxt.rej[p] = rej;
	S->nxt.queued[p] = max_queued(S->c, S->nxt.queued) + 1;
}

static void succ_bind_pick(struct search *S, int from, int p, int node, int pick)
{
	copy_state(S);
	bool had_nomination = S->nxt.snap->nominated[p] >= 0;
	S->nxt.snap->pod_node[p] = node;
	claims_bound(S, p, node, pick);
	S->nxt.snap->nominated[p] = -1;
	const struct model_requeue_events e = {
		.bound = p, .unnominated = &p, .n_unnominated = had_nomination,
		.claims_was = S->cur.snap->dra, .claims_now = S->nxt.snap->dra,
	};
	wake(S, &e);
	add_successor(S, from, p, ACT_BIND, node, NULL, 0);
}

/* Pod p bound to node: one successor per allocation kube may pick. */
static void succ_bind(struct search *S, int from, int p, int node)
{
	int picks = bind_picks(S, p, node);
	if (picks <= 1) {
		succ_bind_pick(S, from, p, node, -1);
		return;
	}
	for (int k = 0; k < picks; k++)
		succ_bind_pick(S, from, p, node, k);
}

/* How a failed pod's PostFilter went on: its answer (NULL: none ran)
 * and which of the claims it may deallocate it did. */
struct postfilter {
	const struct sched_preemption *pr;
	int pick;
};

/* kube §3.6: victims deleted, lower-priority nominations on the node
 * cleared, the pod nominated and re-queued; post: the PostFilter whose
 * claim deallocation comes first. */
static void succ_preempt(struct search *S, int from, int p, int act, int node,
			 const int *victims, int n, uint8_t rej,
			 const struct postfilter *post)
{
	const struct cluster *c = S->c;
	copy_state(S);
	claims_postfilter(S, post->pr, post->pick);
	/* the pods whose nominatedNodeName goes (v1.34's events) */
	int *gone = S->gone;
	int n_gone = 0;
	for (int i = 0; i < n; i++) {
		S->nxt.snap->pod_node[victims[i]] = SNAP_GONE;
		S->nxt.snap->nominated[victims[i]] = -1;
		claims_gone(S, victims[i]);
	}
	for (int q = 0; q < c->n_pods; q++)
		if (q != p && S->nxt.snap->pod_node[q] == SNAP_PENDING &&
		    S->nxt.snap->nominated[q] == node &&
		    c->pods[q].priority < c->pods[p].priority) {
			S->nxt.snap->nominated[q] = -1;
			gone[n_gone++] = q;
		}
	if (S->nxt.snap->nominated[p] >= 0 && S->nxt.snap->nominated[p] != node)
		gone[n_gone++] = p;
	S->nxt.snap->nominated[p] = node;
	park(S, p, rej);
	const struct model_requeue_events e = {
		.bound = -1, .deleted = victims, .n_deleted = n,
		.unnominated = gone, .n_unnominated = n_gone,
		.claims_was = S->cur.snap->dra, .claims_now = S->nxt.snap->dra,
	};
	wake(S, &e);
	add_successor(S, from, p, act, node, victims, n);
}

/* post: the PostFilter and its claim deallocation. */
static void succ_park(struct search *S, int from, int p, bool clear_own,
		      uint8_t rej, const struct postfilter *post)
{
	copy_state(S);
	bool dealloc = claims_postfilter(S, post->pr, post->pick);
	bool gone = clear_own && S->nxt.snap->nominated[p] >= 0;
	if (clear_own)
		S->nxt.snap->nominated[p] = -1;
	park(S, p, rej);
	/* v1.34: the cleared nomination and a claim deallocated are events */
	const struct model_requeue_events e = {
		.bound = -1, .unnominated = &p, .n_unnominated = gone,
		.claims_was = S->cur.snap->dra, .claims_now = S->nxt.snap->dra,
	};
	if (gone || dealloc)
		wake(S, &e);
	add_successor(S, from, p, ACT_PARK, -1, NULL, 0);
}

/* --arrivals: pod p is created, pending, queued after every pod queued
 * so far (its queue timestamp is its creation).  No pod is woken: kso's
 * cluster events are binds and evictions. */
static void succ_arrive(struct search *S, int from, int p)
{
	copy_state(S);
	S->nxt.absent[p] = false;
	S->nxt.snap->pod_node[p] = SNAP_PENDING;
	S->nxt.snap->nominated[p] = -1;
	S->nxt.queued[p] = max_queued(S->c, S->nxt.queued) + 1;
	add_successor(S, from, p, ACT_ARRIVE, -1, NULL, 0);
}

/* The arrivals out of the current state: any absent pod, or (ordered)
 * the first in manifest order.  Returns whether a pod is absent. */
static bool arrivals(struct search *S, int from)
{
	bool any = false;
	for (int p = 0; p < S->c->n_pods; p++) {
		if (!S->cur.absent[p])
			continue;
		any = true;
		succ_arrive(S, from, p);
		if (S->x->arrivals == ENUM_ARRIVE_ORDERED)
			break;
	}
	return any;
}

/* The 5-minute unschedulable timeout: every parked pod back to activeQ
 * (wildcard event, queueAfterBackoff, backoff long expired), its queue
 * timestamp kept. */
static void succ_flush(struct search *S, int from)
{
	copy_state(S);
	for (int q = 0; q < S->c->n_pods; q++) {
		S->nxt.waiting[q] = false;
		S->nxt.rej[q] = 0;
	}
	add_successor(S, from, -1, ACT_FLUSH, -1, NULL, 0);
}

/* Whether retrying parked pod q in the current state has a successor
 * other than q parked as it is: a bind, kube's or the minimal
 * preemption, its nomination cleared or a claim deallocated by
 * PostFilter.  Both engines decide it (enum_check_pod); a disagreement
 * is recorded as any other.  A retry whose answer kso does not judge
 * (model_dra_check) counts as a change: the flush's round meets it in
 * its turn, and the search stops there. */
static bool retry_changes(struct search *S, int from, int q)
{
	struct model_scheduler m;
	loop_view(S, &S->cur, &m);
	bool judged = model_dra_check(&m, q);
	free(m.unjudged);
	if (!judged)
		return true;
	struct enum_outcome o;
	enum_outcome_init(&o);
	enum_check_pod(S->x, q, &o);
	if (!o.agree) {
		enum_tally_outcome(&o, S->g.meta[from].weight, S->t);
		emit_record(S, from, NULL, &o, NULL, NULL, NULL, 0, NULL);
	}
	const struct sched_cycle_result *r = &S->x->mr;
	bool nominated = S->cur.snap->nominated[q] >= 0;
	bool changes;
	if (r->n_viable > 0)
		changes = true;
	else if (o.preempted)
		changes = (o.kube.code == SCHED_SUCCESS && o.kube.node >= 0) ||
			  (o.minimal_ok && o.minimal.node >= 0) ||
			  o.kube.n_dra_deallocs > 0 ||
			  (o.kube.clear_own_nomination && nominated);
	else   /* an Error or no nodes clears the nomination (visit) */
		changes = nominated && (r->code == SCHED_ERROR ||
					r->code == SCHED_UAU);
	enum_outcome_release(&o);
	return changes;
}

/* Whether the flush's round changes anything: every retry up to the
 * first that changes something runs on this state, so one parked pod
 * whose retry would is enough. */
static bool flush_changes(struct search *S, int from)
{
	for (int q = 0; q < S->c->n_pods; q++)
		if (S->cur.waiting[q] && retry_changes(S, from, q))
			return true;
	return false;
}

static const struct sched_victims *kube_candidate(const struct sched_preemption *k,
						  int node)
{
	for (int i = 0; i < k->n_candidates; i++)
		if (k->candidates[i].node == node)
			return &k->candidates[i];
	return NULL;
}

static bool same_answer(const struct sched_victims *a, const struct sched_victims *b)
{
	return a->node == b->node && a->n == b->n &&
	       (a->n == 0 || memcmp(a->pods, b->pods, sizeof(int) * (size_t)a->n) == 0);
}

/* The least-Casualty answer restricted to node n (the other potential
 * nodes hidden as UAU in the cycle result for the call). */
static bool minimal_on(struct search *S, int p, int n, const int *pot, int np,
		       struct sched_preemption *out)
{
	struct sched_cycle_result *r = &S->x->mr;
	const struct sched_profile *prof = model_profile_for(S->c, p);
	for (int i = 0; i < np; i++)
		if (pot[i] != n)
			r->verdicts[pot[i]].code = SCHED_UAU;
	struct error err;
	error_init(&err);
	sched_preemption_init(out);
	struct model_given given;
	enum_model_given(S->x, prof, p, &given);
	const struct model_question ask = {
		.phase = MODEL_PHASE_MINIMAL, .prof = prof, .s = S->cur.snap,
		.pod = p, .failed = r, .preemption = out, .err = &err,
	};
	bool ok = model_schedule_cycle_given(&ask, &given) == 0 &&
		  out->node >= 0;
	for (int i = 0; i < np; i++)
		r->verdicts[pot[i]].code = SCHED_UNSCHEDULABLE;
	return ok;
}

/* Every least-Casualty answer, one per node achieving the least Casualty:
 * the spec's Preemption picks any of them, and following all keeps the
 * search symmetric under node permutations (model_preempt_minimal alone
 * settles ties by node order). */
static int minimal_answers(struct search *S, int p, struct sched_preemption *ans)
{
	int n_nodes = S->c->n_nodes;
	int *pot = calloc((size_t)n_nodes + 1, sizeof *pot);
	if (!pot)
		abort();
	int np = model_preemption_potential(&S->x->mr, pot), k = 0;
	for (int i = 0; i < np; i++) {
		if (!minimal_on(S, p, pot[i], pot, np, &ans[k])) {
			sched_preemption_release(&ans[k]);
			continue;
		}
		if (k > 0) {
			int c = model_casualty_cmp(&ans[k].chosen.casualty, &ans[0].chosen.casualty);
			if (c > 0) {
				sched_preemption_release(&ans[k]);
				continue;
			}
			if (c < 0) {
				for (int j = 0; j < k; j++)
					sched_preemption_release(&ans[j]);
				ans[0] = ans[k];
				k = 0;
			}
		}
		k++;
	}
	free(pot);
	return k;
}

/* The successors of a failed pod p whose PostFilter ran, for its claim
 * deallocation post->pick. */
static void postfilter_successors(struct search *S, int from, int p,
				  const struct enum_outcome *o, uint8_t rej,
				  const struct postfilter *post)
{
	const struct sched_preemption *k = &o->kube;
	const struct sched_victims **seen =
		calloc((size_t)S->c->n_nodes * 2 + 2, sizeof *seen);
	struct sched_preemption *ans =
		calloc((size_t)S->c->n_nodes + 1, sizeof *ans);
	if (!seen || !ans)
		abort();
	int n_seen = 0;
	if (k->code == SCHED_SUCCESS && k->node >= 0) {
		seen[n_seen++] = &k->chosen;
		succ_preempt(S, from, p, ACT_KUBE, k->node, k->chosen.pods,
			     k->chosen.n, rej, post);
		for (int i = 0; i < k->n_ties; i++) {
			const struct sched_victims *v = kube_candidate(k, k->ties[i]);
			if (!v || same_answer(v, &k->chosen))
				continue;
			seen[n_seen++] = v;
			succ_preempt(S, from, p, ACT_KUBE, v->node, v->pods, v->n, rej, post);
		}
	}
	int n_min = o->minimal_ok ? minimal_answers(S, p, ans) : 0;
	for (int a = 0; a < n_min; a++) {
		bool dup = false;
		for (int i = 0; i < n_seen; i++)
			dup |= same_answer(seen[i], &ans[a].chosen);
		if (!dup) {
			seen[n_seen++] = &ans[a].chosen;
			succ_preempt(S, from, p, ACT_MINIMAL, ans[a].node,
				     ans[a].chosen.pods, ans[a].chosen.n, rej, post);
		}
	}
	if (n_seen == 0)
		succ_park(S, from, p, k->clear_own_nomination, rej, post);
	for (int a = 0; a < n_min; a++)
		sched_preemption_release(&ans[a]);
	free(ans);
	free(seen);
}

/* DynamicResources' PostFilter deallocates one of the claims it may,
 * picked at random (a Go map's order), before DefaultPreemption, whose
 * answer does not depend on the pick (its dry runs read the cycle's
 * PreFilter state): every pick, each with every preemption answer. */
static void preemption_successors(struct search *S, int from, int p,
				  const struct enum_outcome *o, uint8_t rej)
{
	int picks = o->kube.n_dra_deallocs > 1 ? o->kube.n_dra_deallocs : 1;
	for (int i = 0; i < picks; i++) {
		const struct postfilter post = {&o->kube, i};
		postfilter_successors(S, from, p, o, rej, &post);
	}
}

static void tally_state(struct search *S, int i, bool final)
{
	uint64_t w = S->g.meta[i].weight;
	S->t[0].states += w;
	S->t[1].states += 1;
	if (final) {
		S->t[0].finals += w;
		S->t[1].finals += 1;
	}
}

/* Visits state i: its decision's checks, then its successors. */
static void visit(struct search *S, int i)
{
	decode(S->c, S->cp, S->g.enc + (size_t)i * (size_t)S->g.bytes, &S->cur);
	int p = next_pod(S->c, &S->cur);
	/* arrivals interleave with the scheduler's step: both are
	 * successors (the decoded state survives them: copy_state reads it) */
	bool absent = arrivals(S, i);
	bool flush = p < 0 && flush_changes(S, i);
	if (flush)
		succ_flush(S, i);
	tally_state(S, i, p < 0 && !absent && !flush);
	if (p < 0) {
		if (S->sink->store_all)
			emit_record(S, i, NULL, NULL, NULL, NULL, NULL, 0, NULL);
		return;
	}
	/* kube's answer for p may depend on a random choice kso does not
	 * follow (model_dra_check, as the loop asks before each step) */
	struct model_scheduler m;
	loop_view(S, &S->cur, &m);
	if (!model_dra_check(&m, p)) {
		take_unjudged(S, &m);
		return;
	}
	struct enum_outcome o;
	enum_outcome_init(&o);
	enum_check_pod(S->x, p, &o);
	uint64_t w = S->g.meta[i].weight;
	enum_tally_outcome(&o, w, S->t);
	if (S->sink->store_all || enum_outcome_issue(&o))
		emit_record(S, i, NULL, &o, NULL, NULL, NULL, 0, NULL);
	const struct sched_cycle_result *r = &S->x->mr;
	if (r->n_viable > 0) {
		if (r->nominated_node >= 0)
			succ_bind(S, i, p, r->nominated_node);
		else
			for (int k = 0; k < r->n_viable; k++)
				succ_bind(S, i, p, r->viable[k]);
	} else {
		uint8_t rej = model_requeue_rejectors(S->c, r,
						      S->cur.snap->nominated[p]);
		/* an Error or "no nodes" clears the pod's nomination
		 * (kube's clearNominatedNode, as model_scheduler_step) */
		if (o.preempted)
			preemption_successors(S, i, p, &o, rej);
		else
			succ_park(S, i, p, r->code == SCHED_ERROR ||
				  r->code == SCHED_UAU, rej,
				  &(const struct postfilter){NULL, 0});
	}
	enum_outcome_release(&o);
}

/* ------------------------------------------------- whole-graph checks */

/* Kahn's algorithm: states left with a positive in-degree lie on or
 * after a cycle.  Returns the first such state, or -1. */
static int find_cycle(const struct graph *g)
{
	int *indeg = calloc((size_t)g->n + 1, sizeof *indeg);
	int *stack = calloc((size_t)g->n + 1, sizeof *stack);
	size_t *first = calloc((size_t)g->n + 2, sizeof *first);
	int32_t *adj = calloc(g->n_edges + 1, sizeof *adj);
	if (!indeg || !stack || !first || !adj)
		abort();
	for (size_t e = 0; e < g->n_edges; e++) {
		indeg[g->edges[2 * e + 1]]++;
		first[g->edges[2 * e] + 1]++;
	}
	for (int i = 0; i < g->n; i++)
		first[i + 1] += first[i];
	size_t *fill = calloc((size_t)g->n + 1, sizeof *fill);
	if (!fill)
		abort();
	for (size_t e = 0; e < g->n_edges; e++) {
		int a = g->edges[2 * e];
		adj[first[a] + fill[a]++] = g->edges[2 * e + 1];
	}
	int top = 0;
	for (int i = 0; i < g->n; i++)
		if (!indeg[i])
			stack[top++] = i;
	while (top) {
		int a = stack[--top];
		for (size_t e = first[a]; e < first[a + 1]; e++)
			if (--indeg[adj[e]] == 0)
				stack[top++] = adj[e];
	}
	int bad = -1;
	for (int i = 0; i < g->n && bad < 0; i++)
		if (indeg[i] > 0)
			bad = i;
	free(indeg);
	free(stack);
	free(first);
	free(adj);
	free(fill);
	return bad;
}

static int pending_of(const struct search *S, int i)
{
	int k = 0;
	for (int p = 0; p < S->c->n_pods; p++)
		k += S->g.enc[(size_t)i * (size_t)S->g.bytes + ENUM_STATE_BYTES * (size_t)p] == 2;
	return k;
}

/* Final states (no pod to schedule) with more pods pending than the best
 * final state. */
static void worse_finals(struct search *S, const bool *final)
{
	int best = S->c->n_pods + 1;
	for (int i = 0; i < S->g.n; i++)
		if (final[i] && pending_of(S, i) < best)
			best = pending_of(S, i);
	for (int i = 0; i < S->g.n; i++) {
		if (!final[i] || pending_of(S, i) <= best)
			continue;
		char *tr = trace(S, i, -1, 0, -1, 0);
		struct strbuf d;
		strbuf_init(&d);
		strbuf_printf(&d, "%d pod(s) pending at quiescence; another "
				"reachable final state has %d; trace: %s",
				pending_of(S, i), best, tr);
		emit_record(S, i, NULL, NULL, NULL, NULL, NULL, ENUM_FIND_WORSE_FINAL, d.s);
		strbuf_release(&d);
		free(tr);
		S->t[0].findings[ENUM_FIND_WORSE_FINAL] += S->g.meta[i].weight;
		S->t[1].findings[ENUM_FIND_WORSE_FINAL] += 1;
	}
}

/* ------------------------------------------------- greedy vs optimum
 *
 * Seed 004 (figure 4): kube-scheduler is a multi-step scheduler, locally
 * optimal at each step; a single-step scheduler placing every pod at
 * once could do better.  The single-step optimum of a scenario: among
 * the placements of its pods (each pending or on a node) in which every
 * placed pod passes every filter on that placement (its Feasibility with
 * the others where they are), the one placing the most pods, then the
 * most priority.  greedy-gap: the best final state the loop reaches, over
 * every tie-break and preemption, places fewer (or less priority).
 */

/* How good a placement is: pods placed, then their priorities summed. */
struct worth {
	int placed;
	int64_t priority;
};

static int worth_cmp(struct worth a, struct worth b)
{
	if (a.placed != b.placed)
		return a.placed < b.placed ? -1 : 1;
	return (a.priority > b.priority) - (a.priority < b.priority);
}

static struct worth worth_of(const struct cluster *c, const struct snapshot *s)
{
	struct worth w = {0, 0};
	for (int p = 0; p < c->n_pods; p++)
		if (s->pod_node[p] >= 0) {
			w.placed++;
			w.priority += c->pods[p].priority;
		}
	return w;
}

/* Whether every placed pod of s passes every filter on s: pod p's own
 * cycle on s with p taken off its node must find that node feasible. */
static bool all_filters_hold(const struct cluster *c, struct snapshot *s,
			     struct sched_cycle_result *r)
{
	for (int p = 0; p < c->n_pods; p++) {
		int n = s->pod_node[p];
		if (n < 0)
			continue;
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof)
			return false;
		s->pod_node[p] = SNAP_PENDING;
		model_engine.cycle(prof, s, p, r);
		s->pod_node[p] = n;
		if (!r->in_prefilter_result[n] || !r->verdicts[n].feasible)
			return false;
	}
	return true;
}

/* The optimum over every placement (odometer over pods: -1 .. nodes-1),
 * into best / *best_worth; worth is checked before the filters, so only
 * placements that would improve on the best so far run cycles. */
static void optimum(const struct cluster *c, struct snapshot *s,
		    struct snapshot *best, struct worth *best_worth)
{
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	for (int p = 0; p < c->n_pods; p++) {
		s->pod_node[p] = SNAP_PENDING;
		s->nominated[p] = -1;
	}
	snapshot_assign(best, s);
	*best_worth = (struct worth){0, 0};
	for (;;) {
		struct worth w = worth_of(c, s);
		if (worth_cmp(w, *best_worth) > 0 && all_filters_hold(c, s, &r)) {
			*best_worth = w;
			snapshot_assign(best, s);
		}
		int p = 0;
		while (p < c->n_pods && s->pod_node[p] == c->n_nodes - 1) {
			s->pod_node[p] = SNAP_PENDING;
			p++;
		}
		if (p == c->n_pods)
			break;
		s->pod_node[p] = s->pod_node[p] < 0 ? 0 : s->pod_node[p] + 1;
	}
	sched_cycle_result_release(&r);
}

static void placement_text(const struct cluster *c, const struct snapshot *s,
			   struct strbuf *b)
{
	bool any = false;
	for (int p = 0; p < c->n_pods; p++) {
		if (s->pod_node[p] < 0)
			continue;
		strbuf_printf(b, "%s%s/%s on %s", any ? ", " : "", c->pods[p].ns,
				c->pods[p].name, c->nodes[s->pod_node[p]].name);
		any = true;
	}
	if (!any)
		strbuf_puts(b, "nothing placed");
}

static void greedy_gap(struct search *S, const bool *final)
{
	const struct cluster *c = S->c;
	int best_state = -1;
	struct worth reached = {-1, 0};
	for (int i = 0; i < S->g.n; i++) {
		if (!final[i])
			continue;
		struct rstate tmp = {&S->nsnap, S->nwait, S->nrej, S->nqueued, S->nabsent};
		decode(c, S->cp, S->g.enc + (size_t)i * (size_t)S->g.bytes, &tmp);
		struct worth w = worth_of(c, &S->nsnap);
		if (worth_cmp(w, reached) > 0) {
			reached = w;
			best_state = i;
		}
	}
	if (best_state < 0)
		return;
	struct snapshot s, best;
	snapshot_init(&s, c);
	snapshot_init(&best, c);
	struct worth opt;
	optimum(c, &s, &best, &opt);
	if (worth_cmp(opt, reached) > 0) {
		char *tr = trace(S, best_state, -1, 0, -1, 0);
		struct strbuf d;
		strbuf_init(&d);
		strbuf_printf(&d, "the scheduler's best final state places %d pod(s) "
				"(priority %lld); placing every pod at once, %d "
				"(priority %lld) pass every filter: ", reached.placed,
				(long long)reached.priority, opt.placed,
				(long long)opt.priority);
		placement_text(c, &best, &d);
		strbuf_printf(&d, "; the scheduler's: %s", tr);
		emit_record(S, best_state, NULL, NULL, NULL, NULL, NULL,
			    ENUM_FIND_GREEDY_GAP, d.s);
		strbuf_release(&d);
		free(tr);
		S->t[0].greedy_gaps += S->g.meta[best_state].weight;
		S->t[1].greedy_gaps += 1;
	}
	snapshot_release(&best);
	snapshot_release(&s);
}

static void termination(struct search *S)
{
	int bad = find_cycle(&S->g);
	if (bad < 0)
		return;
	char *tr = trace(S, bad, -1, 0, -1, 0);
	emit_record(S, bad, NULL, NULL, model_invariant_name(MODEL_INV_TERMINATION),
		    "this state lies on or after a cycle of steps: the loop "
		    "can run forever", tr, 0, NULL);
	free(tr);
	for (int k = 0; k < 2; k++) {
		S->t[k].inv[MODEL_INV_TERMINATION] += k ? 1 : S->g.meta[bad].weight;
		S->t[k].violations += k ? 1 : S->g.meta[bad].weight;
	}
}

/* ------------------------------------------------------------- driver */

/* Whether the loop changes claims in x's scenario: it has claims and
 * runs under v1.34 (v1.30's profile has no DynamicResources here). */
static bool claims_change(const struct enum_ctx *x)
{
	return x->snap.dra && config_at_least(&x->c->config, KUBE_1_34);
}

/* Whether a node symmetry class holds a node a ResourceSlice names
 * (spec.nodeName).  Node permutations leave the claims' status as it is
 * (canonical()), which is sound when the status names no node of a
 * class: an allocation's node is the node of a node-local slice's device
 * (dra_live.c), and a slice's or an input allocation's node selector
 * mentioning a node's name keeps that node out of the classes
 * (scenario.c, node_namers); labels are equal across a class.  This
 * checks the first: a class it finds turns node symmetry off. */
static bool slice_node_in_class(const struct enum_ctx *x)
{
	const struct cluster *c = x->c;
	const int *cls = x->sc->sym.node_class;
	for (int i = 0; i < c->n_slices; i++) {
		if (!c->slices[i].node_name)
			continue;
		for (int n = 0; n < c->n_nodes; n++) {
			if (strcmp(c->nodes[n].name, c->slices[i].node_name))
				continue;
			for (int m = 0; m < c->n_nodes; m++)
				if (m != n && cls[m] == cls[n])
					return true;
		}
	}
	return false;
}

static void search_init(struct search *S, struct enum_ctx *x, bool symmetry,
			struct enum_sink *sink, struct enum_tally *t)
{
	const struct cluster *c = x->c;
	memset(S, 0, sizeof *S);
	S->x = x;
	S->c = c;
	S->sink = sink;
	S->t = t;
	if (claims_change(x)) {
		S->cp = xcalloc(1, sizeof *S->cp);
		S->cp->words = xcalloc(dra_live_max_words(x->snap.dra) + 1,
				       sizeof *S->cp->words);
		symmetry = symmetry && !slice_node_in_class(x);
	}
	S->symmetry = symmetry;
	S->g.bytes = ENUM_STATE_BYTES * c->n_pods + (S->cp ? 4 : 0);
	/* pods stay distinct: PrioritySort orders equal pods by manifest
	 * order, so the loop itself tells identical pods apart */
	int *pods = calloc((size_t)c->n_pods + 1, sizeof *pods);
	if (!pods)
		abort();
	for (int p = 0; p < c->n_pods; p++)
		pods[p] = p;
	enum_symmetry_init(&S->sym, c->n_nodes, c->n_pods, x->sc->sym.node_class,
			   pods, symmetry);
	free(pods);
	size_t n = (size_t)c->n_pods + 1;
	S->cur.snap = &x->snap;
	S->nxt.snap = &x->after;
	snapshot_clone(&S->nsnap, &x->snap);
	S->cur.waiting = calloc(n, sizeof(bool));
	S->nxt.waiting = calloc(n, sizeof(bool));
	S->cur.queued = calloc(n, sizeof(int64_t));
	S->nxt.queued = calloc(n, sizeof(int64_t));
	S->placed = calloc(n, sizeof(bool));
	S->nwait = calloc(n, sizeof(bool));
	S->nqueued = calloc(n, sizeof(int64_t));
	S->cur.absent = calloc(n, sizeof(bool));
	S->nxt.absent = calloc(n, sizeof(bool));
	S->nabsent = calloc(n, sizeof(bool));
	S->cur.rej = xcalloc(n, sizeof *S->cur.rej);
	S->nxt.rej = xcalloc(n, sizeof *S->nxt.rej);
	S->nrej = xcalloc(n, sizeof *S->nrej);
	S->gone = xcalloc(n, sizeof *S->gone);
	S->raw = calloc((size_t)S->g.bytes + 1, 1);
	S->canon = calloc((size_t)S->g.bytes + 1, 1);
	if (!S->cur.waiting || !S->nxt.waiting || !S->cur.queued ||
	    !S->nxt.queued || !S->placed || !S->nwait || !S->nqueued || !S->raw ||
	    !S->canon || !S->cur.absent || !S->nxt.absent || !S->nabsent)
		abort();
}

static void search_release(struct search *S)
{
	if (S->cp) {
		table_release(&S->cp->tab);
		free(S->cp->words);
		free(S->cp);
	}
	free(S->refusal);
	enum_symmetry_release(&S->sym);
	snapshot_release(&S->nsnap);
	free(S->cur.waiting);
	free(S->nxt.waiting);
	free(S->cur.queued);
	free(S->nxt.queued);
	free(S->placed);
	free(S->nwait);
	free(S->nqueued);
	free(S->cur.absent);
	free(S->nxt.absent);
	free(S->nabsent);
	free(S->cur.rej);
	free(S->nxt.rej);
	free(S->nrej);
	free(S->gone);
	free(S->raw);
	free(S->canon);
	graph_release(&S->g);
}

/* What the sink's progress callback has been told so far. */
struct reported {
	uint64_t expanded;
	int64_t frontier;
};

/* Tells the sink the search has expanded states and has frontier more
 * found; the callback takes differences so parallel searches add up. */
static void report(struct enum_sink *sink, struct reported *r, int expanded,
		   int frontier)
{
	if (!sink->progress)
		return;
	sink->progress(sink->progress_user, (uint64_t)expanded - r->expanded,
		       (int64_t)frontier - r->frontier);
	r->expanded = (uint64_t)expanded;
	r->frontier = frontier;
}

int enum_reachable(struct enum_ctx *x, bool symmetry, struct enum_sink *sink,
		   struct enum_tally t[2], struct error *err)
{
	assert(x && sink && t && err);
	const struct cluster *c = x->c;
	if (c->n_pods > ENUM_REACHABLE_MAX_PODS || c->n_nodes > 250)
		return error_plain(err, "reachable mode handles at most %d pods "
				   "and 250 nodes", ENUM_REACHABLE_MAX_PODS);
	x->step_invariants = false;
	struct search S;
	search_init(&S, x, symmetry, sink, t);
	/* the initial state: every pod pending (--arrivals: absent),
	 * nothing nominated or parked */
	for (int p = 0; p < c->n_pods; p++) {
		x->snap.pod_node[p] = x->arrivals ? SNAP_GONE : SNAP_PENDING;
		x->snap.nominated[p] = -1;
		S.cur.absent[p] = x->arrivals != 0;
	}
	/* and the claims as loaded */
	struct dra_live *loaded = dra_live_new(c);
	dra_live_assign(x->snap.dra, loaded);
	dra_live_free(loaded);
	uint64_t w = canonical(&S, &S.cur);
	bool added;
	int root = graph_intern(&S.g, S.canon, &added);
	S.g.meta[root].parent = -1;
	S.g.meta[root].weight = w;
	int rc = 0;
	struct reported rep = {0, 0};
	/* breadth-first: states are numbered in the order they are found */
	int done = 0;
	for (; done < S.g.n; done++) {
		if ((done & 63) == 0) {
			report(sink, &rep, done, S.g.n - done);
			if (sink->stop && *sink->stop) {
				rc = 1;
				break;
			}
		}
		visit(&S, done);
		if (S.refusal)
			break;
	}
	report(sink, &rep, done, 0);
	/* not bad input: kso cannot complete the search (exit 3) */
	if (S.refusal) {
		rc = error_plain(err, "reachable mode stops at a state it cannot judge "
				 "(state %d, depth %d): %s", done, S.g.meta[done].depth,
				 S.refusal);
		err->incomplete = 1;
	}
	if (rc == 0) {
		bool *final = calloc((size_t)S.g.n + 1, sizeof *final);
		if (!final)
			abort();
		for (size_t e = 0; e < S.g.n_edges; e++)
			final[S.g.edges[2 * e]] = true;     /* has a successor */
		for (int i = 0; i < S.g.n; i++)
			final[i] = !final[i];
		worse_finals(&S, final);
		if (x->greedy_gap)
			greedy_gap(&S, final);
		free(final);
		termination(&S);
	}
	search_release(&S);
	return rc;
}
