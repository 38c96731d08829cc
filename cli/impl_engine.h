/*
 * impl_engine.h - a scheduler under test, run in another process
 * (kso-impl/1, impl.h), as an engine of the registry (core/engine.h,
 * cli/loop.c): it decides only - no explain mode, so no cycle or preempt
 * of its own - and is a loop engine alone, opened with the command line
 * and the seconds per answer of struct engine_loop_opts.
 *
 * Each cycle of its loop engine asks the process for the pod's decision
 * on the loop's placement (every request carries the whole cluster, so
 * the hooks that keep an engine's own placement are not needed) and
 * gives the answer the loop's shape: a bind is a cycle whose one viable
 * node is the bound one (the cycle returns it); a preemption or an
 * "unschedulable" is a failed cycle, and the loop's preempt then gets
 * the preemption (with the nominations kube clears, §3.6); a process that
 * fails makes every later cycle an Error.  The answer as the process gave
 * it stays readable for a judge (cli_impl_answer).
 */
#ifndef KSO_CLI_IMPL_ENGINE_H
#define KSO_CLI_IMPL_ENGINE_H

#include "../core/engine.h"
#include "impl.h"

/* impl_engine: the registry's entry ("impl"). */
extern const struct engine impl_engine;

/* cli_impl_answer: the answer of le's last cycle (le opened by
 * impl_engine.open), or NULL when the process failed (*err then says
 * why, when err is not NULL). */
const struct impl_answer *cli_impl_answer(const struct loop_engine *le,
					  const struct error **err);

/* cli_impl_name: the process's "implementation" (init_ok). */
const char *cli_impl_name(const struct loop_engine *le);

#endif
