/*
 * scheduler.c - the oracle as the engine of kso's scheduler loop
 * (model/scheduler_step.c, reference §1.2, §1.3, §1.7, §3.6): the loop,
 * its queue, its tie rules and its invariants are the model's; the
 * oracle answers each cycle (oracle_schedule_cycle on its incrementally
 * updated aggregates, with kube's node sampling unless all_nodes) and
 * each preemption (oracle_preempt), and follows every placement change
 * the loop makes (oracle_bind, oracle_evict, oracle_nominate).
 */
#include "scheduler.h"

#include <assert.h>
#include <string.h>

#include "internal.h"

/* ------------------------------------------------------ the engine hooks */

/* The oracle answers on its own placement, which the hooks below keep
 * equal to the loop's (s). */
static void cycle(void *self, const struct sched_profile *prof,
		  const struct snapshot *s, int pod, struct model_cycle_result *r)
{
	(void)prof;
	(void)s;
	oracle_schedule_cycle(self, pod, r);
}

static void preempt(void *self, const struct sched_profile *prof,
		    const struct snapshot *s, int pod,
		    const struct model_cycle_result *r, uint64_t offset_draw,
		    struct model_preemption *out)
{
	(void)s;
	oracle_preempt(self, prof, pod, r, offset_draw, out);
}

static void bind(void *self, int pod, int node)
{
	oracle_bind(self, pod, node);
}

static void evict(void *self, int pod)
{
	oracle_evict(self, pod);
}

static void nominate(void *self, int pod, int node)
{
	oracle_nominate(self, pod, node);
}

static void arrive(void *self, int pod)
{
	oracle_arrive(self, pod);
}

/* ------------------------------------------------------------ lifecycle */

void oracle_scheduler_init(struct oracle_scheduler *os, const struct snapshot *s,
			   const struct model_sched_opts *opts, bool all_nodes)
{
	assert(os && s && s->cluster && opts);
	memset(os, 0, sizeof(*os));
	model_scheduler_init(&os->rec, s, opts);
	oracle_init(&os->o, s);
	os->o.all_nodes = all_nodes;
	os->rec.engine = (struct model_loop_engine){
		.self = &os->o, .cycle = cycle, .preempt = preempt,
		.bind = bind, .evict = evict, .nominate = nominate,
		.arrive = arrive,
	};
}

void oracle_scheduler_release(struct oracle_scheduler *os)
{
	assert(os);
	model_scheduler_release(&os->rec);
	oracle_release(&os->o);
	memset(os, 0, sizeof(*os));
}

/* The loop's placement is the oracle's for pod p (checked in debug
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
	int stepped = model_scheduler_step(&os->rec, st);
	assert(!stepped || mirrors(os, st));
	return stepped;
}
