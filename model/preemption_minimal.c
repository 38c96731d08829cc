/*
 * preemption_minimal.c - the spec's Preemption(Pod): the exhaustive
 * least-Casualty choice (shared/seeds/004, 抢占流程; reference §5(g) says
 * how kube differs).
 *
 * Spec:
 *   Preemptable == {Node : \E Pods \in SUBSET Jeopardy(Pod, Node):
 *                          Feasibility(Pod, Node, Objects \ Pods)}
 *   Preemption(Pod) == \E Node \in Preemptable, Pods \in SUBSET Jeopardy:
 *       \A OtherNode, OtherPods : Casualty(Pods) <= Casualty(OtherPods)
 *       /\ Objects' = Objects \ Pods
 * kso reads it with kube's notion of where preemption can help: only
 * nodes whose status in the failed cycle is exactly Unschedulable (a UAU
 * node cannot be fixed by evicting pods), and only non-empty subsets (an
 * empty one is no preemption: the node was infeasible).  Feasibility is
 * model_feasibility with the subset removed (RemovePod deltas in pod index
 * order), so nominated pods count as in kube (§1.5).
 *
 * Exhaustive on purpose: feasibility is not monotone in the removed set
 * (pod affinity to a victim), so every subset is a candidate.  Casualty is
 * cheap and every proper superset of a subset has a strictly larger one
 * (key 4), so a subset is only checked for feasibility when its Casualty
 * could beat the best found so far.  Nodes with more than
 * MODEL_MINIMAL_MAX_VICTIMS candidate victims are refused (2^20 subsets).
 */
#include "preemption.h"
#include "cycle_state.h"
#include "phases.h"
#include "model.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The best (node, subset) so far. */
struct best {
	bool found;
	int node;
	int pods[MODEL_MINIMAL_MAX_VICTIMS];    /* pod index order */
	int n;
	int pdb_violations;
	struct sched_casualty casualty;
};

/* One subset of a node's Jeopardy: the pods (index order), the same
 * sorted most important first, and its Casualty. */
struct subset {
	int pods[MODEL_MINIMAL_MAX_VICTIMS];
	int sorted[MODEL_MINIMAL_MAX_VICTIMS];
	int n;
	int pdb_violations;
	struct sched_casualty casualty;
};

static void subset_of(const struct cluster *c, const int32_t *allowed,
		      const bool *spent, const int *jeopardy, int k,
		      uint32_t mask, struct subset *sub)
{
	sub->n = 0;
	for (int i = 0; i < k; i++)
		if (mask & (1u << i))
			sub->pods[sub->n++] = jeopardy[i];
	memcpy(sub->sorted, sub->pods, sizeof sub->pods[0] * (size_t)sub->n);
	model_sort_important(c, sub->sorted, sub->n);
	bool viol[MODEL_MINIMAL_MAX_VICTIMS];
	sub->pdb_violations = model_pdb_split_with(c, allowed, spent,
						   sub->sorted, sub->n, viol);
	model_casualty_of(c, sub->sorted, sub->n, sub->pdb_violations,
			  &sub->casualty);
}

/* Would sub on node win over the best so far?  Less Casualty wins; on a
 * tie the earlier node, then the lexicographically smaller index list. */
static bool beats(const struct best *b, int node, const struct subset *sub)
{
	if (!b->found)
		return true;
	int d = model_casualty_cmp(&sub->casualty, &b->casualty);
	if (d != 0)
		return d < 0;
	if (node != b->node)
		return node < b->node;
	for (int i = 0; i < sub->n && i < b->n; i++)
		if (sub->pods[i] != b->pods[i])
			return sub->pods[i] < b->pods[i];
	return sub->n < b->n;
}

/* Feasibility(Pod, Node, S \ Pods) on view (s with sub's pods gone):
 * the cycle's state on s (state) cloned, with RemovePod of each. */
static bool filters_without(const struct model_cycle_state *state,
			    const struct snapshot *s,
			    const struct snapshot *view, int node,
			    const struct subset *sub)
{
	struct model_delta deltas[MODEL_MINIMAL_MAX_VICTIMS];
	struct model_cycle_state without;
	model_cycle_state_clone(&without, state);
	for (int i = 0; i < sub->n; i++) {
		deltas[i] = (struct model_delta){
			.pod = sub->pods[i], .node = node, .sign = -1};
		model_cycle_state_remove_pod(&without, sub->pods[i], node);
	}
	struct model_cycle cy = {
		.cluster = s->cluster, .profile = state->profile,
		.pod = state->pod, .base = s, .view = view, .deltas = deltas,
		.n_deltas = sub->n, .state = &without,
	};
	struct sched_node_verdict v;
	model_feasibility(&cy, node, &v);
	model_cycle_state_release(&without);
	return v.feasible;
}

/* Feasibility(Pod, Node, S \ Pods), reusing view (a copy of s): from
 * the state's memo of verdicts when it knows it (before the state is
 * cloned for nothing), else from the filters. */
static bool feasible_without(const struct model_cycle_state *state,
			     const struct snapshot *s, struct snapshot *view,
			     int node, const struct subset *sub)
{
	for (int i = 0; i < sub->n; i++)
		view->pod_node[sub->pods[i]] = SNAP_GONE;
	const struct model_verdict_memo *m = state->memo;
	int known = m ? m->find(m->self, s, view, state->pod, node, NULL) : -1;
	bool fits = known >= 0 ? known == 1
		: filters_without(state, s, view, node, sub);
	for (int i = 0; i < sub->n; i++)
		view->pod_node[sub->pods[i]] = node;
	return fits;
}

static void search_node(const struct model_cycle_state *state,
			const struct snapshot *s, struct snapshot *view,
			int node, const int *jeopardy, int k,
			const int32_t *allowed, const bool *spent,
			struct best *b)
{
	struct subset sub;
	for (uint32_t mask = 1; mask < (1u << k); mask++) {
		subset_of(s->cluster, allowed, spent, jeopardy, k, mask, &sub);
		if (!beats(b, node, &sub) ||
		    !feasible_without(state, s, view, node, &sub))
			continue;
		b->found = true;
		b->node = node;
		b->n = sub.n;
		memcpy(b->pods, sub.pods, sizeof b->pods);
		b->pdb_violations = sub.pdb_violations;
		b->casualty = sub.casualty;
	}
}

static void set_result(struct sched_preemption *out, const struct cluster *c,
		       const struct best *b)
{
	if (!b->found) {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = xstrdup("no subset of lower-priority pods on a "
				      "node makes the pod feasible");
		return;
	}
	out->node = b->node;
	out->chosen.node = b->node;
	out->chosen.n = b->n;
	out->chosen.pods = xmalloc(sizeof(int) * (size_t)b->n);
	memcpy(out->chosen.pods, b->pods, sizeof(int) * (size_t)b->n);
	model_sort_important(c, out->chosen.pods, out->chosen.n);
	out->chosen.pdb_violations = b->pdb_violations;
	out->chosen.casualty = b->casualty;
	out->code = SCHED_SUCCESS;
	out->message = xstrdup("");
}

/* A node whose Jeopardy is too large for the exhaustive search. */
static int too_many(const struct snapshot *s, int pod, const int *potential,
		    int np, int *jeopardy, struct error *err)
{
	const struct cluster *c = s->cluster;
	for (int i = 0; i < np; i++) {
		int k = model_jeopardy(s, pod, potential[i], jeopardy);
		if (k > MODEL_MINIMAL_MAX_VICTIMS)
			return error_plain(err,
				"minimal preemption of pod %s/%s: node %s has "
				"%d candidate victims, more than the %d the "
				"exhaustive search allows",
				c->pods[pod].ns, c->pods[pod].name,
				c->nodes[potential[i]].name, k,
				MODEL_MINIMAL_MAX_VICTIMS);
	}
	return 0;
}

int model_preempt_minimal(const struct sched_profile *prof,
			  const struct snapshot *s, int pod,
			  const struct sched_cycle_result *r,
			  struct sched_preemption *out, struct error *err)
{
	return model_phase_minimal(prof, s, pod, r, NULL, NULL, out, err);
}

int model_phase_minimal(const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			const struct sched_cycle_result *r,
			const struct sched_preempt_opts *opts,
			const struct model_given *given,
			struct sched_preemption *out, struct error *err)
{
	assert(prof && s && s->cluster && r && out && err);
	const struct cluster *c = s->cluster;
	out->eligible = !c->pods[pod].preempt_never;
	/* every subset's cycle has s as base: the failed cycle's state on
	 * s, cloned for each; the search's lists in its scratch arena */
	struct model_cycle key = {
		.cluster = c, .profile = prof, .pod = pod, .base = s, .view = s,
	};
	struct model_cycle_state state;
	model_cycle_state_init(&state, &key, given);
	struct arena *scratch = state.scratch;
	size_t nn = (size_t)c->n_nodes + 1, np1 = (size_t)c->n_pods + 1;
	int *potential = arena_take_array(scratch, nn, sizeof *potential);
	int *jeopardy = arena_take_array(scratch, np1, sizeof *jeopardy);
	int np = model_preemption_potential(r, potential);
	int rc = too_many(s, pod, potential, np, jeopardy, err);
	if (rc == 0) {
		const int32_t *allowed = opts ? opts->pdb_allowed : NULL;
		if (!allowed) {
			int32_t *own = arena_take_array(scratch,
							(size_t)c->n_pdbs + 1,
							sizeof *own);
			model_pdb_allowed(s, own);
			allowed = own;
		}
		struct snapshot view = {
			.cluster = c,
			.pod_node = arena_take_array(scratch, np1, sizeof(int32_t)),
			.nominated = arena_take_array(scratch, np1, sizeof(int32_t)),
			.dra = s->dra,   /* borrowed */
		};
		snapshot_assign(&view, s);
		struct best b = {.found = false, .node = -1};
		for (int i = 0; i < np; i++) {
			int k = model_jeopardy(s, pod, potential[i], jeopardy);
			search_node(&state, s, &view, potential[i],
				    jeopardy, k, allowed,
				    opts ? opts->pdb_spends : NULL, &b);
		}
		set_result(out, c, &b);
	}
	model_cycle_state_release(&state);
	return rc;
}
