/*
 * preemption.h - Preemption: the spec's predicates (shared/seeds/004,
 * "抢占流程") and kube-scheduler v1.30's DefaultPreemption PostFilter
 * (shared/reference/kube-scheduler-v1.30.md §3, §5(g)).
 *
 * Spec:
 *   Jeopardy(Pod, Node, S)  == the pods on Node that Pod may evict
 *   PreemptionEnabled(Pod)  == \E Node, Pods \in SUBSET Jeopardy(Pod, Node):
 *                                 Feasibility(Pod, Node, S \ Pods)
 *   Preemption(Pod)         == evict a (Node, Pods) of least Casualty(Pods)
 * The spec leaves Casualty to "Pod Disruption Budgets"; kso defines it as
 * the tuple kube orders candidates by (§3.5), so the two answers are
 * comparable: model_preempt_minimal is the exhaustive least-Casualty
 * choice, model_preempt_kube is kube's greedy per-node reprieve (§3.4) and
 * lexicographic node pick (§3.5) over a sampled candidate list (§3.3).
 *
 * Both work on one failed cycle (struct sched_cycle_result from
 * model_schedule_cycle): only nodes whose recorded status is exactly
 * Unschedulable are considered (UAU nodes and nodes outside a
 * PreFilterResult are not).  Nothing here changes the placement; the
 * scheduler step (model/scheduler.h) applies the result.
 */
#ifndef KSO_PREEMPTION_H
#define KSO_PREEMPTION_H

#include <stdbool.h>
#include <stdint.h>

#include "../core/error.h"
#include "../core/limits.h"
#include "model.h"

/* The exhaustive search refuses nodes with more candidate victims than
 * MODEL_MINIMAL_MAX_VICTIMS (core/limits.h). */

/* ------------------------------------------------------------ Jeopardy */

/* model_jeopardy: Jeopardy(pod, node, s): the pods bound to node on s with
 * priority strictly lower than pod's, in pod index order, into out (room
 * for c->n_pods).  Empty when pod has preemptionPolicy Never (such a pod
 * never preempts, reference §3.1).  Returns the count. */
int model_jeopardy(const struct snapshot *s, int pod, int node, int *out);

/* model_preemption_eligible: kube's PodEligibleToPreemptOthers (§3.1) for
 * the failed cycle r of pod on s.  Returns true when preemption may run;
 * otherwise false and why (NUL-terminated, kube's text) gets the reason:
 * preemptionPolicy Never, or the pod's nominated node (not UAU in r) holds
 * a lower-priority pod that is terminating.  kso has no pod conditions, so
 * "terminating by preemption" is read as "deletionTimestamp set"
 * (DEVIATIONS: kube also requires a DisruptionTarget condition). */
bool model_preemption_eligible(const struct snapshot *s, int pod,
			       const struct sched_cycle_result *r,
			       char *why, int why_len);

/* model_preemption_potential: §3.2: writes into out (room for n_nodes) the
 * nodes, in node order, whose recorded status in r is exactly
 * Unschedulable.  Returns the count. */
int model_preemption_potential(const struct sched_cycle_result *r, int *out);

/* ---------------------------------------------------------------- PDBs */

/* model_pdb_selects: the scheduler's PDB match (filterPodsWithPDBViolation):
 * same namespace, pod has labels, selector neither nil nor {}, and it
 * matches the pod's labels. */
bool model_pdb_selects(const struct cluster *c, int pdb, int pod);

/* model_pdb_allowed: status.disruptionsAllowed of every PDB of s's cluster
 * into out[0..n_pdbs-1]: the manifest's value when given, else computed as
 * the disruption controller would on placement s (see pdb.c). */
void model_pdb_allowed(const struct snapshot *s, int32_t *out);

/* model_pdb_split: §3.4 step 4 over pods[0..n-1] (already in
 * MoreImportantPod order) with the budgets allowed[] (copied, not
 * changed): violating[i] tells whether pods[i] violates a PDB.  Returns
 * the number of violating pods. */
int model_pdb_split(const struct cluster *c, const int32_t *allowed,
		    const int *pods, int n, bool *violating);

/* model_pdb_spends: for every pod p and PDB b of c, whether p spends a
 * disruption of b in model_pdb_split (b selects p and does not list it in
 * disruptedPods) into out[p * n_pdbs + b]: a function of the cluster. */
void model_pdb_spends(const struct cluster *c, bool *out);

/* model_pdb_split_with: model_pdb_split reading model_pdb_spends(c) from
 * spent (borrowed) instead of matching again; spent NULL: matched here. */
int model_pdb_split_with(const struct cluster *c, const int32_t *allowed,
			 const bool *spent, const int *pods, int n,
			 bool *violating);

/* ------------------------------------------------------------ Casualty */

/* model_more_important: util.MoreImportantPod(a, b): higher priority, or
 * equal priority and earlier start time, a missing one being "now" at
 * each call - true both ways for two such pods (QUIRK_VICTIM_ORDER_NOW;
 * with the quirk off, remaining ties go to the lower pod index). */
bool model_more_important(const struct cluster *c, int a, int b);

/* model_sort_important: sorts pods[0..n-1] as kube's
 * sort.Slice(pods, MoreImportantPod) does, most important first. */
void model_sort_important(const struct cluster *c, int *pods, int n);

/* model_casualty_of: the Casualty of victims[0..n-1] (n >= 1, any order)
 * with pdb_violations as given. */
void model_casualty_of(const struct cluster *c, const int *victims, int n,
		       int pdb_violations, struct sched_casualty *out);

/* model_casualty_cmp: < 0 when a is better (less Casualty) than b, 0 when
 * they tie on every key, > 0 otherwise.  The first differing key decides
 * (the order of §3.5). */
int model_casualty_cmp(const struct sched_casualty *a,
		       const struct sched_casualty *b);

/* --------------------------------------------------------- the answers */

/* model_select_victims_on_node: §3.4 SelectVictimsOnNode(pod, node) on s
 * with profile prof.  On success returns SCHED_SUCCESS and fills out
 * (out->pods malloc'ed, possibly n == 0); otherwise returns the status
 * code and st says why (UAU "No preemption victims found for incoming
 * pod", or the filter status after removing every lower-priority pod).
 * allowed[] are the PDB budgets (model_pdb_allowed). */
enum sched_code model_select_victims_on_node(const struct sched_profile *prof,
					     const struct snapshot *s,
					     int pod, int node,
					     const int32_t *allowed,
					     struct sched_victims *out,
					     struct sched_status *st);

/* model_preemption_num_candidates: §3.3 numCandidates for n potential
 * nodes: max(n * minCandidateNodesPercentage / 100,
 * minCandidateNodesAbsolute), at most n (int32 as kube). */
int32_t model_preemption_num_candidates(const struct sched_profile *prof,
					int32_t n);

/* model_default_preemption: DefaultPreemption's PostFilter (§3.1-§3.6)
 * for pod after the failed cycle r on s.  Fills out (initialised by the
 * caller).  Returns 0; the outcome is in out->code / out->node.
 * Deterministic: the offset comes from opts and the final tie of §3.5
 * goes to the first candidate in the candidate list (kube: map order).
 * model_preempt_kube: every PostFilter plugin of prof in kube's order
 * (postfilter.c): v1.34's DynamicResources, then DefaultPreemption; out
 * as model_default_preemption's, its message the joined reasons; an
 * Error (v1.34.1's "not found") leaves node -1 and every nomination. */
/* model_lower_nominated: out->clear_nominated (replaced) becomes the pods
 * other than pod nominated to node with a lower priority than pod's:
 * the nominations a preemption onto node clears (§3.6); none under v1.34
 * when every victim of out->chosen (set before) is terminating already
 * (sched_preemption_clears). */
void model_lower_nominated(const struct snapshot *s, int pod, int node,
			   struct sched_preemption *out);

int model_default_preemption(const struct sched_profile *prof,
			     const struct snapshot *s, int pod,
			     const struct sched_cycle_result *r,
			     const struct sched_preempt_opts *opts,
			     struct sched_preemption *out);
int model_preempt_kube(const struct sched_profile *prof,
		       const struct snapshot *s, int pod,
		       const struct sched_cycle_result *r,
		       const struct sched_preempt_opts *opts,
		       struct sched_preemption *out);

/* model_preempt_minimal: the spec's Preemption(pod): over every node whose
 * status in r is Unschedulable and every non-empty subset of its Jeopardy
 * after whose removal pod is Feasible, the one of least Casualty; ties go
 * to the earlier node (node order), then to the lexicographically
 * smallest list of pod indexes.  out->node = -1 when no subset works (or
 * the pod is not eligible).  Returns 0, or -1 with err set when a node has
 * more than MODEL_MINIMAL_MAX_VICTIMS candidate victims. */
int model_preempt_minimal(const struct sched_profile *prof,
			  const struct snapshot *s, int pod,
			  const struct sched_cycle_result *r,
			  struct sched_preemption *out, struct error *err);

#endif
