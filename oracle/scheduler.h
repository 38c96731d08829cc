/*
 * scheduler.h - the oracle as the engine of kso's one scheduler loop
 * (model/scheduler.h: queue order, retry rules, nominated pods, tie
 * policy, invariants): each step's cycle is oracle_schedule_cycle on
 * incrementally updated aggregates (with kube's node sampling unless
 * all_nodes), each preemption oracle_preempt.
 *
 * Sampling (reference §1.4) only limits the nodes examined when the
 * cluster has 100 nodes or more (numFeasibleNodesToFind returns every
 * node below that), so on smaller clusters the oracle's steps equal the
 * model's byte for byte whether or not all_nodes is set.
 */
#ifndef KSO_ORACLE_SCHEDULER_H
#define KSO_ORACLE_SCHEDULER_H

#include <stdbool.h>

#include "../model/scheduler.h"
#include "oracle.h"

struct oracle_scheduler {
	struct model_scheduler rec;   /* the loop, running on o */
	struct oracle o;              /* aggregates and the placement */
};

/* oracle_scheduler_init: the loop on a copy of s (s is not changed) with
 * the model's options; all_nodes turns kube's node sampling off.  Pair
 * with oracle_scheduler_release.  Aborts on out-of-memory. */
void oracle_scheduler_init(struct oracle_scheduler *os, const struct snapshot *s,
			   const struct model_sched_opts *opts, bool all_nodes);
void oracle_scheduler_release(struct oracle_scheduler *os);

/* oracle_scheduler_step: one step, as model_scheduler_step: returns 1 and
 * fills st (pair with model_step_release), or 0 at quiescence, after
 * max_steps, or once the termination invariant stopped the loop. */
int oracle_scheduler_step(struct oracle_scheduler *os, struct model_step *st);

#endif
