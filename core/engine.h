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

#endif
