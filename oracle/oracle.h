/*
 * oracle.h - the fast, kube-scheduler-shaped implementation of one
 * scheduling cycle (reference kube-scheduler-v1.30.md §1.3-§1.7, §2).
 *
 * The model (model/model.h) states every predicate literally and evaluates
 * it from scratch; the oracle computes the same answers the way
 * kube-scheduler does: per-node aggregates kept up to date incrementally
 * (NodeInfo), PreFilter/PreScore state computed once per cycle and updated
 * by AddPod/RemovePod, node sampling with a rotating start index.  In
 * all_nodes mode it evaluates every node and every filter so its
 * struct sched_cycle_result can be compared field by field with
 * model_schedule_cycle's.
 */
#ifndef KSO_ORACLE_H
#define KSO_ORACLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/verdict.h"
#include "../core/config.h"
#include "../core/snapshot.h"

struct oracle_data;

struct oracle {
	const struct cluster *cluster;
	struct snapshot snap;       /* the oracle's own placement (owned) */
	bool all_nodes;             /* explain mode: every node, every filter, no sampling */
	bool quiet;                 /* decisions without text: see oracle_init */
	/* every preemption's dry runs computed afresh, none reused from an
	 * earlier preemption (preemption.c, dry_reuse): the guard that the
	 * reuse changes no answer */
	bool no_dry_reuse;
	/* every node of a sampled cycle filtered and scored on its own, none
	 * answered by its node class (node_class.c): the guard that the
	 * classes change no answer */
	bool no_node_classes;
	uint64_t seed;              /* random state (selectHost ties); advances */
	/* engine_loop_opts' viable_as_set (core/engine.h): oracle_loop_cycle
	 * leaves a binding cycle's r->viable in the order found, and its
	 * selectHost takes the first listed (the draw is still made) */
	bool viable_as_set;
	/* all_nodes mode, NULL otherwise: given[n] says that the result the
	 * next oracle_schedule_cycle fills already holds node n's verdict,
	 * this oracle's own answer for the same pod, node and pods on the
	 * node in an earlier state (the enumerator's reuse across states,
	 * enum/verdict_reuse.c); the cycle keeps it instead of filtering
	 * the node again.  Borrowed; the caller clears it. */
	const bool *given;
	/* all_nodes mode, NULL otherwise: score plugins' scores the next
	 * cycles take instead of running the plugin where every feasible
	 * node has them (struct sched_given_scores, core/verdict.h; the
	 * enumerator's reuse across states, enum/score_reuse.c).  Borrowed;
	 * the caller clears it. */
	const struct sched_given_scores *given_scores;
	/* all_nodes mode, NULL otherwise: the FitError message of the next
	 * cycles when no node is feasible, this oracle's own for the same
	 * nodes' verdicts (all given) in an earlier state; borrowed */
	const char *given_message;
	int next_start;             /* kube's nextStartNodeIndex (§1.4) */
	/* what oracle_loop_hold(o, true) remembered */
	int held_start;
	uint64_t held_seed;
	bool held_failed;
	struct oracle_data *d;      /* aggregates; see oracle/internal.h */
	/* Tests only (NULL otherwise): called with every result
	 * oracle_schedule_cycle has filled, so a test can plant a fault in
	 * one engine and see the enumerator's cross-check report it. */
	void (*test_hook)(struct sched_cycle_result *r, void *arg);
	/* ... and with every answer oracle_preempt has filled */
	void (*test_preempt_hook)(struct sched_preemption *p, void *arg);
	void *test_hook_arg;
};

/* oracle_init: builds NodeInfo aggregates, image table and pod groups for
 * placement s of s->cluster (copied: later changes go through
 * oracle_bind/evict/nominate).  all_nodes and quiet start false, seed
 * 0.  Pair with oracle_release().  Aborts on out-of-memory.
 *
 * quiet (set by a caller that compares decisions only, like kso enum):
 * oracle_schedule_cycle and oracle_preempt fill every decision field as
 * usual - feasible, scores, totals, viable, codes, each verdict's code,
 * rejected_by and failed[] - but no text: the Filter plugins' statuses
 * are not written (a verdict's status stays Success where failed[] is
 * set), r->message and a failed preemption's message are NULL, and a preemption without candidates does not redo its dry
 * runs to collect the statuses its FitError would list. */
void oracle_init(struct oracle *o, const struct snapshot *s);

/* oracle_release: frees everything o owns. */
void oracle_release(struct oracle *o);

/* oracle_bind: pod (pending or nominated) is now bound to node; every
 * aggregate is updated in O(pod size).  The pod leaves the nominator. */
void oracle_bind(struct oracle *o, int pod, int node);

/* oracle_evict: pod is deleted (SNAP_GONE); aggregates updated. */
void oracle_evict(struct oracle *o, int pod);

/* oracle_arrive: a pod that was not in the cluster (SNAP_GONE: a replay
 * of kso enum --arrivals) is created, pending and nominated nowhere. */
void oracle_arrive(struct oracle *o, int pod);

/* oracle_nominate: sets the pod's nominated node (-1 clears it). */
void oracle_nominate(struct oracle *o, int pod, int node);

/* oracle_schedule_cycle: one scheduling cycle of pod (pending) on o's
 * placement with the profile of its schedulerName, filling r (initialised
 * with sched_cycle_result_init for o->cluster) as model_schedule_cycle
 * would.  With o->all_nodes every node and every filter is evaluated;
 * otherwise kube's fast path runs (nominated-node first, sampling from
 * next_start, first failing filter only, next_start advanced) and only
 * examined nodes get verdicts.  Returns the selected node (seeded random
 * choice among r->viable), or -1 when no node fits or the cycle errored,
 * or -2 when no profile schedules the pod.  Between two sampled cycles
 * on the same r nothing but o writes r: the second resets only the nodes
 * the first wrote. */
int oracle_schedule_cycle(struct oracle *o, int pod, struct sched_cycle_result *r);

/* oracle_loop_cycle: oracle_schedule_cycle for the scheduler loop, whose
 * cycle reads no per-node entry of a cycle that binds: when a node is
 * viable, r gets its head (code, viable nodes, nominated node; no
 * feasible list, scores nor verdicts: the per-node entries keep what the
 * last full cycle into r wrote; the viable nodes in node order unless
 * o->viable_as_set); otherwise, or with all_nodes, given,
 * given_scores or a test hook, the whole result as oracle_schedule_cycle
 * fills it.  The
 * same decisions, sampling and random draws as oracle_schedule_cycle. */
int oracle_loop_cycle(struct oracle *o, int pod, struct sched_cycle_result *r);

/* oracle_loop_hold: on, o remembers the state its loop cycles move
 * (kube's nextStartNodeIndex, selectHost's draws, whether the last cycle
 * failed); off, it goes back to it: the cycles in between were questions
 * (the scheduler loop's look ahead at the 5-minute flush,
 * model/scheduler.h model_scheduler_flush), not cycles kube ran. */
void oracle_loop_hold(struct oracle *o, bool on);

/* oracle_explain_cycle: the `kso explain --engine oracle` entry point, with
 * the shape of cli_cycle_fn (cli/explain.h): an oracle built from s in
 * all_nodes mode runs one cycle of pod with prof into r.  Returns 0. */
int oracle_explain_cycle(const struct sched_profile *prof, const struct snapshot *s,
			 int pod, struct sched_cycle_result *r);

/* oracle_check_node: whether node is feasible for pod (pending) on o's
 * placement with profile prof, the way kube filters one node: PreFilter,
 * then the filters in order up to the first that fails (with the
 * node's nominated pods, §1.4).  Fills only what that decides in r (a
 * result for o->cluster, reset as a sampled cycle resets it): r->prefilter,
 * node's verdict and in_prefilter_result (every node's when PreFilter
 * rejects), r->feasible = {node} when it is feasible and inside the
 * PreFilterResult, r->viable = {node} when it is moreover the pod's
 * nominated node (kube's answer then); no scores.  What kso check judges
 * a bind by when kube samples nodes.  Returns 0 when feasible, else -1. */
int oracle_check_node(struct oracle *o, const struct sched_profile *prof,
		      int pod, int node, struct sched_cycle_result *r);

/* oracle_select: the fast path without a result record: the node kube
 * would pick for pod, or -1 when none fits, -2 without profile. */
int oracle_select(struct oracle *o, int pod);

/* oracle_default_preemption: DefaultPreemption's PostFilter (reference
 * §3.1-§3.6)
 * for pod on o's placement after its failed cycle r (a result for o's
 * current placement, e.g. from oracle_schedule_cycle) with profile prof:
 * candidate walk from offset_draw % |potential| (see sched_preempt_opts),
 * SelectVictimsOnNode as dry runs on copies of the node aggregate and of
 * the PreFilter state.  Fills out (sched_preemption_init'ed by the
 * caller) exactly as model_preempt_kube would.  o's placement and
 * aggregates are unchanged afterwards (the caller applies the result).
 * Returns 0.
 * oracle_preempt: every PostFilter plugin of prof in kube's order
 * (postfilter.c): v1.34's DynamicResources, then DefaultPreemption, as
 * model_preempt_kube runs them. */
int oracle_default_preemption(struct oracle *o, const struct sched_profile *prof,
			      int pod, const struct sched_cycle_result *r,
			      uint64_t offset_draw, struct sched_preemption *out);
int oracle_preempt(struct oracle *o, const struct sched_profile *prof, int pod,
		   const struct sched_cycle_result *r, uint64_t offset_draw,
		   struct sched_preemption *out);

/* oracle_preempt_kube: oracle_preempt with model_preempt_kube's shape: an
 * oracle built from placement s answers.  Returns 0. */
int oracle_preempt_kube(const struct sched_profile *prof, const struct snapshot *s,
			int pod, const struct sched_cycle_result *r,
			const struct sched_preempt_opts *opts, struct sched_preemption *out);

/* oracle_engine: the oracle as an engine (core/engine.h). */
extern const struct engine oracle_engine;

/* oracle_loop_engine: o as the engine of the scheduler loop
 * (core/engine.h struct loop_engine): each cycle is
 * oracle_schedule_cycle on o's incrementally updated aggregates (kube's
 * node sampling unless o->all_nodes), each preemption oracle_preempt, and
 * every placement change of the loop is mirrored into o.  o must hold the
 * loop's initial placement and outlive the loop. */
struct loop_engine oracle_loop_engine(struct oracle *o);

#endif
