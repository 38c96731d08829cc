/*
 * loop.h - the scheduler loop (model/scheduler.h) on the engine a command
 * names with --engine: the literal model, or the oracle plugged in
 * through oracle_loop_engine (core/engine.h struct loop_engine).  kso
 * schedule and kso replay run their steps through it.
 */
#ifndef KSO_CLI_LOOP_H
#define KSO_CLI_LOOP_H

#include <stdbool.h>

#include "../model/scheduler.h"
#include "../oracle/oracle.h"

struct cli_loop {
	struct model_scheduler m;   /* the loop: placement, pool, steps,
				     * invariants - what the printers read */
	bool oracle;                /* the oracle answers */
	struct oracle o;            /* when oracle: its aggregates and its
				     * copy of m's placement */
};

/* cli_loop_init: the loop on a copy of s (s is not changed) with opts; on
 * the oracle when oracle, whose all_nodes turns kube's node sampling off
 * (reference §1.4; it only samples at 100 nodes or more).  l must not
 * move until cli_loop_release.  Aborts on out-of-memory. */
void cli_loop_init(struct cli_loop *l, const struct snapshot *s,
		   const struct model_sched_opts *opts, bool oracle,
		   bool all_nodes);
void cli_loop_release(struct cli_loop *l);

/* cli_loop_step: model_scheduler_step on l's engine: returns 1 and fills
 * st (pair with model_step_release), or 0 once the loop is done. */
int cli_loop_step(struct cli_loop *l, struct model_step *st);

#endif
