/*
 * loop.h - the engines a command names with --engine (core/engine.h),
 * and the scheduler loop (model/scheduler.h) on one of them: the literal
 * model, or the oracle plugged in through oracle_loop_engine (struct
 * loop_engine).  kso schedule and kso replay run their steps through it;
 * explain, check, corpus and the judges ask the engine directly.
 */
#ifndef KSO_CLI_LOOP_H
#define KSO_CLI_LOOP_H

#include <stdbool.h>

#include "../core/engine.h"
#include "../model/scheduler.h"
#include "../oracle/oracle.h"

/* cli_engine_find: the engine --engine names, or NULL: "oracle" (the
 * default) or "model".  The one place that lists them. */
const struct engine *cli_engine_find(const char *name);

/* cli_engine_default: the engine a command uses without --engine (the
 * oracle). */
const struct engine *cli_engine_default(void);

struct cli_loop {
	struct model_scheduler m;   /* the loop: placement, pool, steps,
				     * invariants - what the printers read */
	bool oracle;                /* the oracle answers */
	struct oracle o;            /* when oracle: its aggregates and its
				     * copy of m's placement */
};

/* cli_loop_init: the loop on a copy of s (s is not changed) with opts,
 * on engine e (cli_engine_find); all_nodes turns the oracle's node
 * sampling off (reference §1.4; it only samples at 100 nodes or more).
 * l must not move until cli_loop_release.  Aborts on out-of-memory. */
void cli_loop_init(struct cli_loop *l, const struct snapshot *s,
		   const struct model_sched_opts *opts, const struct engine *e,
		   bool all_nodes);
void cli_loop_release(struct cli_loop *l);

/* cli_loop_step: model_scheduler_step on l's engine: returns 1 and fills
 * st (pair with model_step_release), or 0 once the loop is done. */
int cli_loop_step(struct cli_loop *l, struct model_step *st);

#endif
