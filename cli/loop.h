/*
 * loop.h - the engine registry (core/engine.h), the --engine option every
 * command spells the same way, and the one scheduler loop
 * (model/scheduler.h) on a registered engine's loop engine.  kso schedule
 * and kso replay run their steps through it; explain, check, corpus and
 * the judges ask an engine's cycle directly.
 */
#ifndef KSO_CLI_LOOP_H
#define KSO_CLI_LOOP_H

#include <stdbool.h>

#include "args.h"
#include "../core/engine.h"
#include "../model/scheduler.h"

/* cli_engine_find: the registered engine that explains named name
 * ("oracle", the default, or "model"), or NULL. */
const struct engine *cli_engine_find(const char *name);

/* cli_engine_default: the engine a command uses without --engine (the
 * oracle). */
const struct engine *cli_engine_default(void);

/* The --engine entry of a command's option table (args.h), with the id
 * the command gives it; cli_engine_take reads its value. */
#define CLI_ENGINE_OPTION(id) \
	{"engine", 0, "oracle|model", "kso's engine that answers (default " \
	 "oracle, or the one a trace names)", (id)}

/* cli_engine_take: --engine v into *out; 0, or 2 after the usage error
 * (one text for every command) printed for cmd. */
int cli_engine_take(const struct cli_command *cmd, const char *v,
		    const struct engine **out);

struct cli_loop {
	struct model_scheduler m;   /* the loop: placement, pool, steps,
				     * invariants - what the printers read */
	const struct engine *e;     /* whose loop engine answers (m.engine,
				     * opened by e->open unless NULL); NULL:
				     * the caller's (cli_loop_init_on) */
};

/* cli_loop_init: the loop on a copy of s (s is not changed) with opts,
 * on engine e's loop engine opened with o.  Returns 0, or -1 with err set
 * (nothing to release).  Aborts on out-of-memory. */
int cli_loop_init(struct cli_loop *l, const struct snapshot *s,
		  const struct model_sched_opts *opts, const struct engine *e,
		  const struct engine_loop_opts *o, struct error *err);
void cli_loop_release(struct cli_loop *l);

/* cli_loop_init_on: the loop on a copy of s with opts, on loop engine le
 * (copied), which the caller opened and closes after cli_loop_release
 * (l->e is NULL). */
void cli_loop_init_on(struct cli_loop *l, const struct snapshot *s,
		      const struct model_sched_opts *opts,
		      const struct loop_engine *le);

/* cli_loop_step: model_scheduler_step on l's engine: returns 1 and fills
 * st (pair with model_step_release), or 0 once the loop is done. */
int cli_loop_step(struct cli_loop *l, struct model_step *st);

#endif
