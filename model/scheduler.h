/*
 * scheduler.h - the scheduler loop on a snapshot: one step schedules one
 * pod (bind, preempt or give up), and invariants are checked after each.
 *
 * Spec (shared/seeds/004, 控制循环逻辑):
 *   Scheduler == \E Pod \in Unbound of highest priority:
 *     CASE SchedulingEnabled(Pod)  -> Scheduling(Pod)
 *       [] PreemptionEnabled(Pod)  -> Preemption(Pod)
 *       [] OTHER                   -> UNCHANGED Objects
 * kube v1.30 (reference §1.2, §1.3, §3.6, §5(g)(h)): the pod is the head
 * of activeQ; it binds to one of the viable nodes; when none is feasible
 * DefaultPreemption (if the profile enables it) evicts victims and only
 * nominates the pod, which stays pending and is retried later, trying its
 * nominated node first.  A pod that failed waits in the unschedulable
 * pool, with the plugins that rejected it, until a cluster event of the
 * loop (a bind, an eviction, v1.34: a nomination gone) moves it back to
 * activeQ as each release's queue does (requeue.h; behind pods of its
 * priority that did not fail: the queue timestamp is reset on failure).
 *
 * At quiescence (activeQ empty) with pods parked, kube's
 * flushUnschedulablePodsLeftover (every 30 s, a pod parked for more than
 * podMaxInUnschedulablePodsDuration, 5 minutes; v1.30.12 and v1.34.1
 * alike) moves every parked pod back with the wildcard event
 * UnschedulableTimeout: queueAfterBackoff, and its backoff (10 s at most)
 * has long expired, so to activeQ, keeping the queue timestamp of its
 * last failure (model_scheduler_flush).  The loop ends at a fixpoint (the
 * flush's retries would change nothing: every one fails as it did, with
 * no preemption and no nomination or claim changed), at quiescence with
 * nothing parked, or after max_steps.
 */
#ifndef KSO_SCHEDULER_H
#define KSO_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/engine.h"
#include "../core/limits.h"
#include "context.h"
#include "model.h"
#include "preemption.h"

struct model_spread_live;   /* spread_prefilter.h */
struct model_affinity_live;   /* affinity_prefilter.h */

/* How ties and kube's random choices are settled. */
struct model_sched_opts {
	bool tie_random;       /* selectHost: random viable node (from seed)
				* instead of the first by node name */
	bool preempt_random;   /* §3.3: random candidate offset (from seed)
				* instead of 0 */
	uint64_t seed;
	int max_steps;         /* 0: no limit */
	bool full_invariants;  /* recheck the capacity of every node holding a
				* pod the run bound after every step, not only
				* of the nodes the step put a pod on (the same
				* verdicts, quadratic; a debug check) */
	bool no_step_viable;   /* the steps list no viable nodes (st->viable
				* NULL, st->n_viable still their count): a
				* caller that prints none copies none */
};

enum model_step_action {
	MODEL_STEP_BIND,           /* bound to node */
	MODEL_STEP_PREEMPT,        /* victims evicted, pod nominated to node */
	MODEL_STEP_UNSCHEDULABLE   /* nothing changed but the pod waits */
};

/* One step.  Owns its arrays; see model_step_release. */
struct model_step {
	int pod;
	enum model_step_action action;
	int node;                  /* bind / nominated node, -1 */
	int *viable;               /* viable nodes of the cycle, node order;
				    * NULL with opts.no_step_viable */
	int n_viable;
	bool fast_path;            /* bound via the nominated node (§1.3 step 3) */
	int *victims;              /* evicted pods, most important first */
	int n_victims;
	int *cleared;              /* pods whose nomination preemption cleared */
	int n_cleared;
	char *message;             /* kube's FitError / PostFilter text, "" on bind */
	int flushed;               /* > 0: the step came after the 5-minute
				    * unschedulable timeout moved this many
				    * parked pods back (model_scheduler_flush) */
};

void model_step_release(struct model_step *st);

/* model_step_action_name: "bind", "preempt" or "unschedulable" (the
 * words of kso schedule's output and of an ITF trace's actions). */
const char *model_step_action_name(enum model_step_action a);

/* Invariants, checked after every step (invariants.c). */
enum model_invariant {
	MODEL_INV_CAPACITY,          /* no node over allocatable */
	MODEL_INV_BIND_FEASIBLE,     /* a bound pod was Feasible when bound */
	MODEL_INV_VICTIM_PRIORITY,   /* victims have lower priority */
	MODEL_INV_NOMINATED_FEASIBLE,/* the preemptor fits its node after */
	MODEL_INV_TERMINATION,       /* no state repeats */
	MODEL_INV_COUNT
};


struct model_invariants {
	bool broken[MODEL_INV_COUNT];
	char detail[MODEL_INV_COUNT][MODEL_INV_DETAIL_LEN];  /* first breach */
	int step[MODEL_INV_COUNT];                           /* its step, 1-based */
	/* states seen since the last 5-minute flush (the whole run before
	 * the first), for the termination check */
	uint64_t *hashes;            /* fingerprint set, 3 words a slot:
				      * the two hashes and the state's index */
	int n_states, cap_states;
	/* the quiescent states each flush started from: a flush changes
	 * something (model_scheduler_flush), so one of them coming back is
	 * a run that never ends; within a round the states after its flush
	 * may repeat states before it (pods parked again as they were) */
	uint64_t *flush_hashes;
	int n_flush_states, cap_flush_states;
	int n_seen;                  /* states checked in the whole run */
	/* when termination broke: the index of the state the loop came back
	 * to, counting the states the check saw in order (0 the initial one,
	 * then one per step and per arrival: the states of an ITF trace of
	 * the run, whose lasso it is - cli/itf.c) */
	int loop_state;
	/* the fingerprint kept up to date: each pod's (node, nomination,
	 * waiting) as last hashed, and the two sums of their mixes */
	uint32_t *last;              /* [3 * n_pods], NULL before the first */
	uint64_t sum[2];
	/* the pods whose hashed waiting flag is set: a step wakes any of
	 * them without naming them (a bind or an eviction empties the
	 * pool), so the incremental fingerprint rereads these */
	int *waiting_pods;           /* [n_pods] */
	int n_waiting_pods;
	/* kept: the loop's own run (model_scheduler_init), every change of
	 * snap's bindings a step: the capacity check reads per-node sums
	 * kept step by step instead of summing every pod (invariants.c) */
	bool kept;
	int64_t *node_req;           /* [n_nodes * n_res] requests of the
				      * pods on each node, Go int64 sums */
	int32_t *node_pods;          /* [n_nodes] pods on each node */
	int32_t *node_asked;         /* [n_nodes * n_res] pods this run
				      * bound there asking for each */
	int32_t *node_nominated;     /* [n_nodes] pending pods nominated there */
	int32_t *nom_at;             /* [n_pods] the node a pod is counted
				      * nominated to, -1 */
};

/* model_invariant_name: "capacity", "bind-feasible", ... */
const char *model_invariant_name(enum model_invariant inv);

/*
 * A decision a replay asks of the next step (kso replay, kso export
 * --itf).  kube leaves some choices open and a recorded run took one of
 * them: selectHost may take any viable node (§1.7), and the preemption
 * candidates tied with kube's on every key of §3.5 are as much kube's
 * answer (the candidate walk starts at a random offset, §3.3).  The step
 * takes the wanted one when the engine allows it - the engine's draws are
 * still made, so a seeded run stays in step - and otherwise decides as
 * usual.  force applies a wanted bind or preemption whatever the engine
 * would do (the trace of a search that also follows the spec's minimal
 * preemption); the cycle still runs, for the viable set and the message.
 * A forced "unschedulable" takes the loop's own failure path (kube's
 * message with PostFilter's), so the caller checks the step's action.
 */
struct model_want {
	bool set;
	bool force;
	enum model_step_action action;
	int node;                  /* bind / preemption node, -1 */
	const int *victims;        /* sorted by pod index; borrowed */
	int n_victims;
};

/* A pod of activeQ with what queue order compares of it (its priority,
 * queue timestamp and creation time, taken when it joined). */
struct model_queue_key {
	int64_t queued_at;
	int64_t created;             /* creationTimestamp seconds, if any */
	int32_t priority;
	bool has_created;
	int pod;
};

/* The loop's state.  Pair model_scheduler_init / model_scheduler_release. */
struct model_scheduler {
	const struct cluster *cluster;
	struct snapshot snap;         /* the placement, changed by each step */
	struct snapshot before;       /* snap as the current step found it:
				       * kept equal to snap between steps by
				       * model_scheduler_end_step, which
				       * copies only the pods a step changed */
	struct model_sched_opts opts;
	uint64_t rng;
	bool *waiting;                /* [n_pods] in the unschedulable pool */
	uint8_t *rejectors;           /* [n_pods] a waiting pod's rejecting
				       * plugins (MODEL_REJ_*, requeue.h) */
	int64_t *queued_at;           /* [n_pods] queue timestamp: 0 = as
				       * created, else order of failure */
	int64_t clock;
	bool *placed;                 /* [n_pods] bound by this run */
	int steps;
	/* the 5-minute unschedulable timeout (model_scheduler_flush) */
	uint64_t changes;             /* state changes so far (binds,
				       * preemptions, nominations or claims
				       * changed, arrivals) */
	uint64_t step_changes;        /* changes when the current step's
				       * cycle ran */
	uint64_t *parked_changes;     /* [n_pods] changes when a parked
				       * pod's failed cycle ran: a pod parked
				       * with nothing changed since fails
				       * its retry the same way */
	uint64_t flush_changes;       /* changes at the last flush */
	int flushes;                  /* flushes done */
	int flushed;                  /* pods the last flush moved, until
				       * the next step reports them */
	bool fixpoint;                /* ended with pods parked whose
				       * retries would change nothing */
	bool stopped;                 /* termination invariant stopped it */
	/* malloc'ed, NULL: the loop stopped at a state where kube's answer
	 * depends on its random choices and kso does not give one of them
	 * (dra_loop.c); no further step */
	char *unjudged;
	struct model_invariants inv;
	struct sched_cycle_result result;   /* scratch for each cycle */
	/* the engine the steps ask: the literal model after
	 * model_scheduler_init; a caller may put another in its place
	 * (oracle_loop_engine) before the first step */
	struct loop_engine engine;
	/* activeQ as a binary heap in queue order (queue_before) and the
	 * unschedulable pool: the pods model_scheduler_next would find, kept
	 * so that a step does not scan every pod */
	struct model_queue_key *heap;
	int n_heap;
	int *pool, n_pool;
	/* [n_nodes] each node's place among the nodes sorted by name as
	 * strings, then by index (so no two share one): select_host's "name
	 * sorts first" as an integer comparison; NULL: compared as strings.
	 * rank_node: the node at each place. */
	int *name_rank;
	int *rank_node;
	/* Replay: the decision the next step should take; set before the
	 * step, cleared by it (see struct model_want). */
	struct model_want want;
	/* [n_pods] pods not created yet (a trace of kso enum --arrivals):
	 * SNAP_GONE in snap until model_scheduler_arrive.  The caller marks
	 * them after model_scheduler_init on a snapshot that has them gone. */
	bool *absent;
	/* Optional, borrowed, NULL unless a caller sets it for one
	 * model_invariants_check: the verdict model_feasibility gave for the
	 * checked step's (pod, node) on `before`, under the pod's profile and
	 * with no deltas.  The bind-feasible check then reads it instead of
	 * recomputing the same pure function. */
	const struct sched_node_verdict *bind_verdict;
	/* Optional, borrowed, NULL unless a caller sets it: a model context
	 * of the cluster (context.h) whose pod table the capacity check reads
	 * each pod's PodRequests from instead of converting them again, and
	 * the bind-feasible check's cycle is given (struct model_given). */
	struct model_context *ctx;
	struct model_context *own_ctx;   /* model_scheduler_init's, or NULL */
	/* model_scheduler_init's, or NULL: PodTopologySpread's PreFilter
	 * states of snap kept bind by bind (spread_prefilter.h), which the
	 * invariants' Feasibility checks read instead of recounting; valid
	 * because every change of snap's bindings is a step */
	struct model_spread_live *spread_live;
	/* the same for InterPodAffinity's PreFilter states
	 * (affinity_prefilter.h) */
	struct model_affinity_live *affinity_live;
};

/* model_scheduler_init: the loop on a copy of s (s is not changed). */
void model_scheduler_init(struct model_scheduler *m, const struct snapshot *s,
			  const struct model_sched_opts *opts);
void model_scheduler_release(struct model_scheduler *m);

/* model_scheduler_next: the pod the next step schedules (head of activeQ:
 * pending, ungated, not being deleted, with a profile, not waiting;
 * PrioritySort with the queue timestamps), or -1 at quiescence: the
 * definition, a scan of every pod, which needs only cluster, snap,
 * waiting and queued_at.  model_scheduler_head is the loop's heap top,
 * the same pod. */
int model_scheduler_next(const struct model_scheduler *m);
int model_scheduler_head(const struct model_scheduler *m);

/* model_scheduler_queue: the pods of activeQ in the order the loop takes
 * them into out[] (room for n_pods); returns how many. */
int model_scheduler_queue(const struct model_scheduler *m, int *out);

/* model_scheduler_step: one step, after the 5-minute flush when activeQ
 * is empty (model_scheduler_flush).  Returns 1 and fills st (pair with
 * model_step_release) when a pod was scheduled, 0 at quiescence (nothing
 * parked), at a fixpoint, after max_steps, or when the termination
 * invariant stopped the loop (st is then untouched).  Invariants are
 * checked after the step. */
int model_scheduler_step(struct model_scheduler *m, struct model_step *st);

/* model_scheduler_flush: at quiescence (activeQ empty) with pods parked,
 * the 5-minute unschedulable timeout: when retrying the parked pods in
 * queue order would change something (one of them binds, preempts, or
 * has a nomination or a claim changed; the literal model's cycles
 * decide, on the current state) every parked pod moves to activeQ and
 * the count is returned (the next step reports it in st->flushed);
 * otherwise the state is a fixpoint (m->fixpoint) and 0 is returned, as
 * it is when activeQ is not empty, nothing is parked, or the loop
 * stopped.  A flush after which the loop came back to quiescence with
 * nothing changed (an engine that disagrees with the model) is a
 * fixpoint too.  model_scheduler_step flushes by itself; a caller that
 * looks at the head before a step calls this first. */
int model_scheduler_flush(struct model_scheduler *m);

/* model_scheduler_arrive: absent pod p is created: pending, queued after
 * every pod queued so far, no pod woken (kso's cluster events are binds
 * and evictions), the termination check told of the new state.  Not a
 * step (m->steps is unchanged). */
void model_scheduler_arrive(struct model_scheduler *m, int p);

/* model_scheduler_end_step: what every loop (this one, the oracle's)
 * does after applying step st to m->snap: counts it, checks the
 * invariants against m->before (stopping the loop when termination
 * breaks), then brings m->before up to m->snap for the pods the step
 * changed (its pod, victims and cleared nominations). */
void model_scheduler_end_step(struct model_scheduler *m,
			      const struct model_step *st);

/* model_invariants_check: the checks after step st (already applied to
 * m->snap); before is the placement before it.  Records breaches in
 * m->inv.  Returns false when the termination invariant broke (the loop
 * must stop). */
bool model_invariants_check(struct model_scheduler *m,
			    const struct snapshot *before,
			    const struct model_step *st);

/* model_invariants_check_step: model_invariants_check without the
 * termination invariant (the state history is neither read nor grown):
 * the invariants of step st alone. */
void model_invariants_check_step(struct model_scheduler *m,
				 const struct snapshot *before,
				 const struct model_step *st);

/* model_invariants_flush: the termination check at a 5-minute flush from
 * the current (quiescent) state: false, with the invariant broken, when
 * an earlier flush started from this state; else the state is kept and
 * the history of single states starts again for the flush's round. */
bool model_invariants_flush(struct model_scheduler *m);

/* model_invariants_release: frees the state history. */
void model_invariants_release(struct model_invariants *inv);

/* model_invariants_ok: no invariant broken. */
bool model_invariants_ok(const struct model_invariants *inv);

/* dra_loop.c - DynamicResources' writes between cycles (v1.34):
 * model_dra_check before pod p's cycle (false: m->unjudged set, no
 * step); model_dra_bound after p bound to node (Reserve, PreBind);
 * model_dra_postfilter after p's PostFilter (its deallocation; true when
 * a claim changed); model_dra_gone after p was deleted (true when a
 * claim changed). */
bool model_dra_check(struct model_scheduler *m, int p);
void model_dra_bound(struct model_scheduler *m, int p, int node);
bool model_dra_postfilter(struct model_scheduler *m, int p, const struct sched_preemption *pr);
/* model_dra_bind_picks: how many allocations kube may write binding p to
 * node (its pool and slice orders pick different devices): 1 when no
 * choice, 0 when there are more orders than kso tries; model_dra_bound_pick:
 * model_dra_bound with allocation pick (< model_dra_bind_picks) and no
 * refusal - the reachable search follows each. */
int model_dra_bind_picks(struct model_scheduler *m, int p, int node);
void model_dra_bound_pick(struct model_scheduler *m, int p, int node, int pick);
/* model_dra_deallocate: PostFilter's deallocation of pr's claim number
 * pick (of pr->n_dra_deallocs: kube's random pick, which the reachable
 * search follows each way); true when a claim changed. */
bool model_dra_deallocate(struct model_scheduler *m, const struct sched_preemption *pr,
			  int pick);
bool model_dra_gone(struct model_scheduler *m, int p);

#endif
