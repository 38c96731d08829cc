/*
 * scheduler.h - the oracle's scheduler loop: the model's loop semantics
 * (model/scheduler.h: queue order, retry rules, nominated pods, tie
 * policy, invariants) run the way kube-scheduler runs them (reference
 * §1.2, §1.3, §3): activeQ as a heap ordered by PrioritySort, an
 * unschedulable pool flushed back on every bind or eviction, one
 * oracle_schedule_cycle per step on incrementally updated aggregates
 * (with kube's node sampling unless all_nodes), oracle_preempt when no
 * node fits.
 *
 * Sampling (reference §1.4) only limits the nodes examined when the
 * cluster has 100 nodes or more (numFeasibleNodesToFind returns every
 * node below that), so on smaller clusters the oracle's steps equal the
 * model's byte for byte whether or not all_nodes is set.
 *
 * The loop keeps its record in a struct model_scheduler (placement
 * mirror, unschedulable pool, queue timestamps, steps, invariants) so the
 * printers and the invariant checks of model/invariants.c read both
 * engines the same way.
 */
#ifndef KSO_ORACLE_SCHEDULER_H
#define KSO_ORACLE_SCHEDULER_H

#include <stdbool.h>

#include "../model/scheduler.h"
#include "oracle.h"

struct oracle_scheduler {
	struct model_scheduler rec;   /* the record (rec.snap mirrors o.snap) */
	struct oracle o;              /* aggregates and the placement */
	int *heap;                    /* activeQ: pod indexes, a binary heap */
	int n_heap;
	int *pool;                    /* unschedulable pods, parked */
	int n_pool;
};

/* oracle_scheduler_init: the loop on a copy of s (s is not changed) with
 * the model's options; all_nodes turns kube's node sampling off.  Pair
 * with oracle_scheduler_release.  Aborts on out-of-memory. */
void oracle_scheduler_init(struct oracle_scheduler *os, const struct snapshot *s,
			   const struct model_sched_opts *opts, bool all_nodes);
void oracle_scheduler_release(struct oracle_scheduler *os);

/* oracle_scheduler_next: the head of activeQ, or -1 at quiescence. */
int oracle_scheduler_next(const struct oracle_scheduler *os);

/* oracle_scheduler_step: one step, as model_scheduler_step: returns 1 and
 * fills st (pair with model_step_release), or 0 at quiescence, after
 * max_steps, or once the termination invariant stopped the loop. */
int oracle_scheduler_step(struct oracle_scheduler *os, struct model_step *st);

#endif
