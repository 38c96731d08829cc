/*
 * model.h - the formal model's predicates (shared/seeds/004, with
 * kube-scheduler v1.30 semantics from shared/reference/):
 *
 *   Feasibility(Pod, Node, Snapshot) == AND of the enabled filters
 *   Viability(Pod, Node, Snapshot)   == the weighted sum of the scores
 *   viable                           == the feasible nodes of maximal total
 *
 * plus the PrioritySort queue order.  Preemption (Jeopardy, Casualty,
 * Preemption) is in model/preemption.h, the scheduler step in
 * model/scheduler.h.  Everything here is literal and slow on purpose:
 * every filter is evaluated on every node; what one cycle's plugins read
 * on every node is bound once by the cycle's PreFilter phase, as kube's
 * CycleState (cycle_state.h).
 */
#ifndef KSO_MODEL_H
#define KSO_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "plugin.h"

struct arena;                /* core/arena.h */
struct error;                /* core/error.h */
struct model_context;        /* context.h */
struct model_spread_static;  /* spread_prefilter.h */
struct model_affinity_static;   /* affinity_prefilter.h */
struct model_affinity_prefilter;   /* affinity_prefilter.h */
struct model_spread_prefilter;

/* The filter plugins in kube's Filter order and the score plugins in kube's
 * Score order (reference §1.1); SelectorSpread last (reference §6). */
#define MODEL_N_FILTERS 16
#define MODEL_N_SCORES 8
extern const enum plugin_id model_filter_ids[MODEL_N_FILTERS];
extern const enum plugin_id model_score_ids[MODEL_N_SCORES];

/* model_feasibility: Feasibility(pod, node) for the cycle cy (whose view
 * already has cy->deltas applied), with kube's nominated-pods rule
 * (reference §1.5): pass 1 with the pods nominated to node of priority >=
 * the pod's added, pass 2 without; feasible only if both pass.  Every
 * enabled filter is evaluated in kube's order (not only up to the first
 * failure); rejected_by is the one kube would report.  PreFilter-level
 * rejections (model_prefilter_*) are the caller's: see model_cycle_filter. */
void model_feasibility(const struct model_cycle *cy, int node,
		       struct sched_node_verdict *out);

/* A caller's memo of Feasibility verdicts it already knows (the
 * enumerator's verdict cache, enum/verdict_reuse.c), asked by the
 * preemption dry runs before they run the filters.  find answers
 * Feasibility(pod, node) on the placement view - base (the cycle's) with
 * pods removed from node or added back to it, the dry runs' only edits -
 * exactly as model_feasibility would with those edits as RemovePod /
 * AddPod deltas on base (which is not always the verdict on view itself:
 * QUIRK_PORTS_SET_REMOVAL): 1 feasible, 0 infeasible with *why the
 * status kube records for the node (the rejecting filter's), -1 not
 * known (the filters then run). */
struct model_verdict_memo {
	int (*find)(void *self, const struct snapshot *base,
		    const struct snapshot *view, int pod, int node,
		    struct sched_status *why);
	/* §3.4 SelectVictimsOnNode(pod, node) on base as the caller already
	 * knows it (NULL: none): true with its code, and *out (pods
	 * malloc'ed) or *st as the dry run would fill them; false: not
	 * known, the dry run runs and hands its result to keep_victims
	 * (may be NULL). */
	bool (*victims)(void *self, const struct snapshot *base, int pod,
			int node, enum sched_code *code,
			struct sched_victims *out, struct sched_status *st);
	void (*keep_victims)(void *self, const struct snapshot *base, int pod,
			     int node, enum sched_code code,
			     const struct sched_victims *v,
			     const struct sched_status *st);
	void *self;
};

/* model_dry_run_fits: whether the pod fits node in cy (whose view has its
 * deltas applied; a preemption dry run's edit of its state's base):
 * model_feasibility's feasible, from the state's memo when it knows the
 * verdict.  why (may be NULL) gets the status kube records for the node
 * when it does not fit. */
bool model_dry_run_fits(const struct model_cycle *cy, int node,
			struct sched_status *why);

/* model_feasibility_of: model_feasibility evaluating only the filters
 * with only[id] true (only == NULL: all of them); the others read as
 * passed.  The verdicts of the evaluated filters, in both passes, are
 * exactly model_feasibility's; rejected_by is the first failure among
 * them. */
void model_feasibility_of(const struct model_cycle *cy, int node,
			  const bool *only, struct sched_node_verdict *out);

/* model_schedule_cycle: one scheduling cycle of pod on placement s with
 * profile prof: PreFilter, Filter on every node, scoring when >= 2 nodes
 * are feasible, the viable set, and kube's FitError message when none is.
 * Returns 0; r must have been initialised for s->cluster. */
int model_schedule_cycle(const struct sched_profile *prof,
			 const struct snapshot *s, int pod,
			 struct sched_cycle_result *r);

/*
 * struct model_given: the one way precomputed inputs enter the model.
 * Each is a pure function of what the model is asked about, worked out by
 * a caller that evaluates many cycles (the enumerator keeps them across
 * states, enum/), so that giving it changes no answer, only the work:
 *
 *   ctx       a model context of the cycle's cluster (context.h): NodeInfo's
 *             cached requests of every pod, and the scratch arena the
 *             cycle works in (the caller's thread's).  NULL: the cycle
 *             makes its own.
 *   spread    model_spread_static_new(cluster, prof, pod) (spread_prefilter.h),
 *             the pod-only part of PodTopologySpread's PreFilter.  NULL:
 *             the cycle builds it.
 *   affinity  model_affinity_static_new(cluster, pod) (affinity_prefilter.h),
 *             the pod-only part of InterPodAffinity's PreFilter.  NULL:
 *             the cycle evaluates each term match it needs.
 *   spread_state  the PreFilter state of PodTopologySpread for (prof, pod) on
 *             the cycle's base itself: init_static(spread, base) in every
 *             field the Filter reads, kept by a caller that follows one
 *             placement bind by bind (model_spread_live_get,
 *             spread_prefilter.h); copied into the cycle's state.  NULL:
 *             built from spread (or from nothing).
 *   spread_skip  true: PodTopologySpread's PreFilter Skips for (prof,
 *             pod), the pod having no hard constraint
 *             (model_spread_constraints_none); no part of it is built.
 *   affinity_state  the PreFilter state of InterPodAffinity for pod on
 *             the cycle's base itself, in every count Filter reads, and
 *             affinity_skip its Skip, kept by a caller that follows one
 *             placement bind by bind (model_affinity_live_get,
 *             affinity_prefilter.h); read in place by a cycle without
 *             deltas (which never changes it), copied into the state of
 *             one with.  NULL: built from affinity (or from nothing).
 *   node_sums the sums of cy->base (struct model_node_sums), kept by the
 *             caller: NodeResourcesFit reads a node's Used from them and
 *             the nominated-pods pass (§1.5) is skipped where no pending
 *             pod is nominated, on the cycle's own base (no deltas); a
 *             pass with deltas sums as without them.  NULL: summed.
 *   verdicts  MODEL_PHASE_CYCLE only: verdicts[n] true says r->verdicts[n]
 *             already holds exactly what model_feasibility writes for
 *             (prof, pod, node n) on s, and the cycle takes it instead of
 *             evaluating the node.  Spec: Feasible == {Node :
 *             Feasibility(Pod, Node, Objects)}: the rest of the cycle
 *             reads the verdicts, not how they were found.  NULL: every
 *             node is evaluated.
 *   scores    MODEL_PHASE_CYCLE only: score plugins' scores of nodes for
 *             (prof, pod) on s, each what the plugin's Score and
 *             NormalizeScore give that node (struct sched_given_scores,
 *             core/verdict.h); a plugin whose scores every feasible node
 *             has is not run.  Spec: Viability(Pod, Node) is a sum of
 *             the plugins' scores, whoever worked them out.  NULL: every
 *             plugin runs.
 *   fit_message  MODEL_PHASE_CYCLE only: the FitError message (§1.3) of
 *             the cycle when no node is feasible, given with every
 *             node's verdict (verdicts): the message is a function of
 *             the nodes' statuses.  NULL: built from them.
 *   dry_verdicts  MODEL_PHASE_POSTFILTER and MODEL_PHASE_MINIMAL: the
 *             verdicts of the dry runs' edited placements the caller
 *             already knows (struct model_verdict_memo): each dry run
 *             asks it before running the filters (§3.4 step 2 and the
 *             reprieves; the least-Casualty search's subsets).  Spec:
 *             Feasibility(Pod, Node, Objects \ Pods) is the same
 *             function whoever evaluates it.  NULL: every one is run.
 *
 * model_schedule_cycle_given is the one function that takes them.
 */
/* What model_node_requested sums for each node of a placement and how
 * many of its pending pods are nominated to each node, kept by a caller
 * that follows the placement step by step (invariants.c): requested
 * [node * n_res + r] (Go int64 sums over the pods bound there, with the
 * context's pod table), pods[node] their count, nominated[node] the pods
 * with status.nominatedNodeName = node that are pending. */
struct model_node_sums {
	const int64_t *requested;
	const int32_t *pods;
	const int32_t *nominated;
};

struct model_given {
	struct model_context *ctx;
	const struct model_spread_static *spread;
	const struct model_affinity_static *affinity;
	const struct model_spread_prefilter *spread_state;
	bool spread_skip;
	const struct model_affinity_prefilter *affinity_state;
	bool affinity_skip;
	const struct model_node_sums *node_sums;
	const bool *verdicts;
	const struct sched_given_scores *scores;
	const char *fit_message;
	const struct model_verdict_memo *dry_verdicts;
};

/* What model_schedule_cycle_given is asked about the cycle of pod on
 * placement s with profile prof: one of the cycle's phases (reference
 * §1.3), each bound to the cycle's state (cycle_state.h) as the PreFilter
 * phase leaves it on s. */
enum model_phase {
	/* PreFilter, Filter on every node, Score, the viable set:
	 * model_schedule_cycle, into r */
	MODEL_PHASE_CYCLE,
	/* Filter on one node: model_feasibility_of(node, only) into
	 * verdict, nothing else (r is not used) */
	MODEL_PHASE_FILTER,
	/* PostFilter after the failed cycle: kube's plugins in order
	 * (model_preempt_kube, preemption.h) into preemption, with opts */
	MODEL_PHASE_POSTFILTER,
	/* the spec's least-Casualty Preemption after the failed cycle:
	 * model_preempt_minimal with what opts lends (its offset_draw is
	 * kube's alone) into preemption; err */
	MODEL_PHASE_MINIMAL,
};

struct model_question {
	enum model_phase phase;
	const struct sched_profile *prof;
	const struct snapshot *s;
	int pod;
	/* CYCLE: the result, filled (initialised for s->cluster) */
	struct sched_cycle_result *r;
	/* POSTFILTER, MINIMAL: the failed cycle of pod on s */
	const struct sched_cycle_result *failed;
	/* FILTER: the node, the filters evaluated (NULL: all), the verdict */
	int node;
	const bool *only;
	struct sched_node_verdict *verdict;
	/* POSTFILTER, MINIMAL: borrowed (NULL: none), and the answer
	 * (initialised by the caller) */
	const struct sched_preempt_opts *opts;
	struct sched_preemption *preemption;
	struct error *err;          /* MINIMAL: why it refused */
};

/* model_schedule_cycle_given: the answer to q, with the precomputed
 * inputs given holds (NULL: none; the answer is the plain function's,
 * model_schedule_cycle, model_feasibility_of, model_preempt_kube,
 * model_preempt_minimal).  Returns 0, or -1 when MINIMAL refused (err
 * set). */
int model_schedule_cycle_given(const struct model_question *q,
			       const struct model_given *given);

/* model_fit_error: kube's FitError message for a result with no feasible
 * node ("0/N nodes are available: <PreFilter message>." or "... <histogram
 * of filter reasons>.", then " <postfilter>" when postfilter is non-empty,
 * e.g. "preemption: ...").  Returns a malloc'ed string the caller frees;
 * aborts on out-of-memory. */
char *model_fit_error(const struct sched_cycle_result *r,
		      const char *postfilter);

/* model_fit_error_of: FitError.Error() over the statuses a preemption
 * recorded: st[n] for each node n with has[n], N the number of those
 * (kube: len(nodeToStatusMap)), then the same histogram as
 * model_fit_error, its histogram built in scratch.  Returns a malloc'ed
 * string the caller frees; aborts on out-of-memory. */
char *model_fit_error_of(int n_nodes, const struct sched_status *st,
			 const bool *has, struct arena *scratch);

/* model_fit_error_in: model_fit_error building its histogram in scratch
 * (a cycle's, see cycle_state.h); model_fit_error uses an arena of its
 * own. */
char *model_fit_error_in(const struct sched_cycle_result *r,
			 const char *postfilter, struct arena *scratch);

/* model_queue_less: PrioritySort: a before b (priority desc, then
 * creation time, then manifest order). */
bool model_queue_less(const struct cluster *c, int a, int b);

/* model_next_pod: the pending, ungated pod of c's profile that PrioritySort
 * puts first on placement s, or -1 when there is none. */
int model_next_pod(const struct sched_config *cfg, const struct snapshot *s);

/* model_next_pod_of: model_next_pod(&s->cluster->config, s) with prof[p]
 * = model_profile_for(s->cluster, p) for every pod, as the caller worked
 * them out once (borrowed). */
int model_next_pod_of(const struct snapshot *s,
		      const struct sched_profile *const *prof);

/* model_in_nominator: pod p can be held as a nominated pod by the
 * scheduler (a profile schedules it and it is not gated); only such pods
 * count as nominated pods in Filter (reference §1.5) and have their
 * nomination cleared by preemption (§3.6). */
bool model_in_nominator(const struct cluster *c, int p);

/* model_profile_for: the profile that schedules pod p (its schedulerName),
 * or NULL when no profile has that name. */
const struct sched_profile *model_profile_for(const struct cluster *c, int p);

/* model_node_tree_order: writes the node tree order (reference §1.4; the
 * snapshot's node list) into out[0..c->n_nodes): zones round-robin, zones
 * in first-seen order, nodes of a zone in manifest order. */
void model_node_tree_order(const struct cluster *c, int *out);

/* model_engine: the model as an engine (core/engine.h). */
extern const struct engine model_engine;

#endif
