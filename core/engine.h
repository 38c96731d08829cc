/*
 * engine.h - one scheduler engine: what kube-scheduler v1.30 does with
 * one pending pod in one state, through the types of verdict.h.
 *
 *   cycle     one scheduling cycle in explain mode: every filter on every
 *             node, the scores, the viable set (reference §1.3-§1.7)
 *   preempt   DefaultPreemption after the failed cycle r (§3), the walk
 *             starting at opts->offset_draw
 *
 * kso has two: model_engine (model/, the literal definitions) and
 * oracle_engine (oracle/, kube's way); they must agree on every input.  A
 * scheduler under test answers only decisions, through the kso-impl/1
 * adapter (cli/impl.h), and is judged against an engine (cli/judge.h).
 *
 * struct loop_engine is the same two operations for the one scheduler
 * loop (model/scheduler.h), which changes the placement step by step:
 * an engine that keeps state of its own between cycles (the oracle keeps
 * kube's aggregates and its own copy of the placement; a scheduler in
 * another process keeps its cluster) is told of every change.
 */
#ifndef KSO_ENGINE_H
#define KSO_ENGINE_H

#include "config.h"
#include "snapshot.h"
#include "verdict.h"

struct engine {
	const char *name;          /* the --engine value */
	/* fills r (initialised for s->cluster); returns 0 */
	int (*cycle)(const struct sched_profile *prof, const struct snapshot *s,
		     int pod, struct model_cycle_result *r);
	/* fills out (initialised by the caller); returns 0 */
	int (*preempt)(const struct sched_profile *prof, const struct snapshot *s,
		       int pod, const struct model_cycle_result *r,
		       const struct model_preempt_opts *opts,
		       struct model_preemption *out);
};

/*
 * The engine the scheduler loop runs on.  cycle and preempt answer on the
 * loop's placement s; self is the engine's state, passed back to every
 * hook.  bind, evict (the pod is gone), nominate (node -1: cleared) and
 * arrive (a pod that was absent now exists) are called after the loop
 * changed its placement, so that an engine with its own copy keeps it
 * equal to s; an engine that reads s directly leaves them NULL.
 */
struct loop_engine {
	void *self;
	void (*cycle)(void *self, const struct sched_profile *prof,
		      const struct snapshot *s, int pod,
		      struct model_cycle_result *r);
	void (*preempt)(void *self, const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			const struct model_cycle_result *r, uint64_t offset_draw,
			struct model_preemption *out);
	void (*bind)(void *self, int pod, int node);
	void (*evict)(void *self, int pod);
	void (*nominate)(void *self, int pod, int node);
	void (*arrive)(void *self, int pod);
};

#endif
