/*
 * engine.c - the oracle as an engine (core/engine.h): explain mode (every
 * node, every filter) and kube's DefaultPreemption; and as the engine of
 * the scheduler loop (reference §1.2, §1.3, §1.7, §3.6), answering on its
 * own aggregates, which the loop's placement changes keep in step.
 */
#include "../core/engine.h"
#include "oracle.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../core/dra_live.h"
#include "../core/xalloc.h"

static int loop_open(const struct snapshot *s, const struct engine_loop_opts *o,
		     struct loop_engine *le, struct error *err);
static void loop_close(struct loop_engine *le);

const struct engine oracle_engine = {
	.name = "oracle",
	.explains = true,
	.cycle = oracle_explain_cycle,
	.preempt = oracle_preempt_kube,
	.open = loop_open,
	.close = loop_close,
};

/* ------------------------------------------------ the scheduler loop's */

/* The oracle answers on its own placement, which the hooks below keep
 * equal to the loop's (s); the claims' status, which the loop changes
 * with no hook, is copied from s before each answer. */
static int loop_cycle(void *self, const struct sched_profile *prof,
		      const struct snapshot *s, int pod,
		      struct sched_cycle_result *r)
{
	(void)prof;
	struct oracle *o = self;
	dra_live_assign(o->snap.dra, s->dra);
	return oracle_loop_cycle(self, pod, r);
}

static void loop_preempt(void *self, const struct sched_profile *prof,
			 const struct snapshot *s, int pod,
			 const struct sched_cycle_result *r, uint64_t offset_draw,
			 struct sched_preemption *out)
{
	struct oracle *o = self;
	dra_live_assign(o->snap.dra, s->dra);
	oracle_preempt(self, prof, pod, r, offset_draw, out);
}

static void loop_hold(void *self, bool on)
{
	oracle_loop_hold(self, on);
}

static void loop_bind(void *self, int pod, int node)
{
	oracle_bind(self, pod, node);
}

static void loop_evict(void *self, int pod)
{
	oracle_evict(self, pod);
}

static void loop_nominate(void *self, int pod, int node)
{
	oracle_nominate(self, pod, node);
}

static void loop_arrive(void *self, int pod)
{
	oracle_arrive(self, pod);
}

/* oracle.h has no "unbind": an evicted pod is SNAP_GONE, which the
 * aggregates treat as off every node, like a pending pod without a
 * nomination; the placement entry is then set back to pending. */
static void unbind(struct oracle *o, int p)
{
	oracle_nominate(o, p, -1);
	oracle_evict(o, p);
	o->snap.pod_node[p] = SNAP_PENDING;
}

/* Every pod whose node differs first (binding, unbinding, deleting),
 * then the nominations. */
static void loop_sync(void *self, const struct snapshot *t)
{
	struct oracle *o = self;
	int n = o->cluster->n_pods;
	for (int p = 0; p < n; p++) {
		int want = t->pod_node[p], have = o->snap.pod_node[p];
		if (want == have)
			continue;
		if (want >= 0)
			oracle_bind(o, p, want);
		else if (want == SNAP_PENDING)
			unbind(o, p);
		else
			oracle_evict(o, p);
	}
	/* most placements the loop goes to nominate nothing differently:
	 * one compare of the whole arrays then */
	if (memcmp(o->snap.nominated, t->nominated, sizeof *t->nominated * (size_t)n) != 0)
		for (int p = 0; p < n; p++)
			if (o->snap.nominated[p] != t->nominated[p])
				oracle_nominate(o, p, t->nominated[p]);
	dra_live_assign(o->snap.dra, t->dra);
}

static void loop_seed(void *self, uint64_t seed)
{
	struct oracle *o = self;
	o->seed = seed;
}

static void loop_given(void *self, const bool *known)
{
	struct oracle *o = self;
	o->given = known;
}

static void loop_given_scores(void *self, const struct sched_given_scores *g)
{
	struct oracle *o = self;
	o->given_scores = g;
}

static void loop_given_message(void *self, const char *message)
{
	struct oracle *o = self;
	o->given_message = message;
}

static void loop_no_reuse(void *self)
{
	struct oracle *o = self;
	o->no_dry_reuse = true;
}

static const struct snapshot *loop_placement(const void *self)
{
	const struct oracle *o = self;
	return &o->snap;
}

struct loop_engine oracle_loop_engine(struct oracle *o)
{
	assert(o);
	return (struct loop_engine){
		.self = o, .cycle = loop_cycle, .preempt = loop_preempt,
		.bind = loop_bind, .evict = loop_evict,
		.nominate = loop_nominate, .arrive = loop_arrive,
		.sync = loop_sync, .seed = loop_seed, .given = loop_given,
		.given_scores = loop_given_scores,
		.given_message = loop_given_message, .no_reuse = loop_no_reuse,
		.placement = loop_placement, .hold = loop_hold,
	};
}

/* The oracle of a loop: its aggregates built from the loop's starting
 * placement, held until loop_close. */
static int loop_open(const struct snapshot *s, const struct engine_loop_opts *o,
		     struct loop_engine *le, struct error *err)
{
	(void)err;
	assert(s && o && le);
	struct oracle *or = xmalloc(sizeof *or);
	oracle_init(or, s);
	or->all_nodes = o->all_nodes;
	or->no_node_classes = o->no_node_classes;
	or->viable_as_set = o->viable_as_set;
	*le = oracle_loop_engine(or);
	return 0;
}

static void loop_close(struct loop_engine *le)
{
	assert(le && le->self);
	oracle_release(le->self);
	free(le->self);
	le->self = NULL;
}
