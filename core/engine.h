/*
 * engine.h - one scheduler engine: what kube-scheduler does with one
 * pending pod in one state, through the types of verdict.h.  The engines
 * are registered in one table (cli/loop.c), which --engine chooses from.
 *
 *   cycle     one scheduling cycle in explain mode: every filter on every
 *             node, the scores, the viable set (reference §1.3-§1.7)
 *   preempt   DefaultPreemption after the failed cycle r (§3), the walk
 *             starting at opts->offset_draw
 *   open      the engine of the one scheduler loop (struct loop_engine
 *   close     below), opened on the loop's starting placement
 *
 * kso has two engines that explain: model_engine (model/, the literal
 * definitions) and oracle_engine (oracle/, kube's way); they must agree on
 * every input.  A scheduler under test answers decisions only, through
 * the kso-impl/1 adapter (impl_engine, cli/impl_engine.h): it has no
 * cycle or preempt, only a loop engine, and is judged against an engine
 * that explains (cli/judge.h).
 *
 * struct loop_engine is the same two operations for the one scheduler
 * loop (model/scheduler.h), which changes the placement step by step:
 * an engine that keeps state of its own between cycles (the oracle keeps
 * kube's aggregates and its own copy of the placement; a scheduler in
 * another process keeps its cluster) is told of every change.  The
 * enumerator (enum/) holds the oracle the same way, but visits states in
 * any order: it tells the engine where the placement now is (sync),
 * where selectHost's ties are drawn from (seed) and which verdicts it
 * worked out in earlier states it is given back (given).
 */
#ifndef KSO_ENGINE_H
#define KSO_ENGINE_H

#include "config.h"
#include "error.h"
#include "snapshot.h"
#include "verdict.h"

struct loop_engine;

/* What opening a loop engine may need besides the placement. */
struct engine_loop_opts {
	bool all_nodes;            /* no node sampling (the oracle's, §1.4) */
	bool no_node_classes;      /* the oracle's node classes off */
	/* the loop reads a cycle's viable nodes as a set only and picks
	 * among them itself (kso schedule printing no viable list, ties to
	 * the first name): a cycle that binds may list them in any order,
	 * and its own pick (the cycle's return) is any of them */
	bool viable_as_set;
	const char *command;       /* a scheduler in another process: its
				    * command line (kso-impl/1) */
	double timeout_s;          /* ... and seconds per answer */
};

struct engine {
	const char *name;          /* the --engine value */
	/* cycle and preempt answer in explain mode (every node, every
	 * plugin); false: the engine decides only, and both are NULL */
	bool explains;
	/* fills r (initialised for s->cluster); returns 0 */
	int (*cycle)(const struct sched_profile *prof, const struct snapshot *s,
		     int pod, struct sched_cycle_result *r);
	/* fills out (initialised by the caller); returns 0 */
	int (*preempt)(const struct sched_profile *prof, const struct snapshot *s,
		       int pod, const struct sched_cycle_result *r,
		       const struct sched_preempt_opts *opts,
		       struct sched_preemption *out);
	/* open: *le, the engine of a scheduler loop starting from placement
	 * s (which the loop then changes, telling *le of each change).
	 * Returns 0, or -1 with err set.  NULL: the loop's own engine, the
	 * literal model reading the loop's placement. */
	int (*open)(const struct snapshot *s, const struct engine_loop_opts *o,
		    struct loop_engine *le, struct error *err);
	/* close: releases what open made; NULL when open is */
	void (*close)(struct loop_engine *le);
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
	/* returns the node the engine's own selectHost picks among r's
	 * viable nodes (kube binds that one); -1 when none is viable, the
	 * cycle errored, or the engine leaves selectHost to the loop (the
	 * literal model: model/scheduler.h picks); -2 when no profile
	 * schedules the pod */
	int (*cycle)(void *self, const struct sched_profile *prof,
		     const struct snapshot *s, int pod,
		     struct sched_cycle_result *r);
	void (*preempt)(void *self, const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			const struct sched_cycle_result *r, uint64_t offset_draw,
			struct sched_preemption *out);
	void (*bind)(void *self, int pod, int node);
	void (*evict)(void *self, int pod);
	void (*nominate)(void *self, int pod, int node);
	void (*arrive)(void *self, int pod);
	/* sync: the placement is now s, reached from the last one by any
	 * changes at all (a pod may even go back to pending); the engine
	 * catches up at a cost in the pods that differ.  seed: selectHost's
	 * random draws start again from seed.  Both NULL for an engine that
	 * reads s directly or cannot be moved (a scheduler in another
	 * process). */
	void (*sync)(void *self, const struct snapshot *s);
	void (*seed)(void *self, uint64_t seed);
	/* given (explain mode; NULL for an engine without it): the result
	 * the next cycles fill already holds the verdict of each node with
	 * known[n], this engine's own answer for the same pod, node and
	 * pods on the node met in an earlier state (the enumerator's reuse
	 * across states, enum/verdict_reuse.c); the cycle keeps it instead
	 * of filtering the node again.  known is borrowed until the next
	 * given; NULL: every node is filtered. */
	void (*given)(void *self, const bool *known);
	/* given_scores (explain mode; NULL for an engine without it): the
	 * next cycles take score plugins' scores from g (struct
	 * sched_given_scores, verdict.h), this engine's own for the same
	 * pod, node and pods on the node met in an earlier state, instead
	 * of running a plugin whose scores every feasible node has.  g is
	 * borrowed until the next given_scores; NULL: every plugin runs. */
	void (*given_scores)(void *self, const struct sched_given_scores *g);
	/* given_message (explain mode; NULL for an engine without it): the
	 * FitError message of the next cycles where no node is feasible,
	 * this engine's own for the same verdicts of every node met in an
	 * earlier state (the message is a function of the nodes' statuses).
	 * Borrowed until the next given_message; NULL: built. */
	void (*given_message)(void *self, const char *message);
	/* no_reuse (NULL for an engine that reuses nothing of its own): from
	 * now on every answer is worked out afresh, none taken from an
	 * earlier call (the oracle's preemption dry runs) */
	void (*no_reuse)(void *self);
	/* placement: the engine's own copy of the placement, which the hooks
	 * keep equal to the loop's (checked in debug builds); NULL for an
	 * engine that keeps none or cannot show it */
	const struct snapshot *(*placement)(const void *self);
	/* hold (NULL for an engine that must not be asked questions kube
	 * did not ask - a scheduler in another process - or whose cycles
	 * move no state of their own, the literal model): on, the engine
	 * remembers the state its cycles move (kube's sampling start,
	 * selectHost's draws); off, it goes back to it.  The cycles and
	 * preemptions in between are the loop's questions at the 5-minute
	 * flush (model/scheduler.h model_scheduler_flush). */
	void (*hold)(void *self, bool on);
};

#endif
