/*
 * preemption_kube.c - kube-scheduler v1.30's DefaultPreemption PostFilter,
 * step by step (reference §3.1-§3.6; S/framework/preemption/preemption.go,
 * S/framework/plugins/defaultpreemption/default_preemption.go).
 *
 * The spec's Preemption asks for the least Casualty over every node and
 * every subset (model/preemption_minimal.c); kube answers greedily
 * (reference §5(g)): per node it evicts every lower-priority pod, then
 * gives back ("reprieves") each one that the preemptor can live with, and
 * picks the node lexicographically among a sample of candidates.
 *
 * Determinism: kube's candidate walk starts at a random offset, evaluates
 * nodes in parallel and breaks the last tie of §3.5 by map order.  kso
 * walks sequentially from opts->offset_draw % |potential| (0 unless the
 * caller draws one from a seed) and gives the last tie to the first
 * candidate in the candidate list (non-violating, then violating, each in
 * walk order).
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

/* ---------------------------------------------------- SelectVictimsOnNode */

/* The pods on node (NodeInfo.Pods order: pod index) with priority strictly
 * below the preemptor's. */
static int lower_priority_pods(const struct snapshot *s, int pod, int node,
			       int *out)
{
	const struct cluster *c = s->cluster;
	int n = 0;
	for (int q = 0; q < c->n_pods; q++)
		if (q != pod && s->pod_node[q] == node &&
		    c->pods[q].priority < c->pods[pod].priority)
			out[n++] = q;
	return n;
}

/* The cycle being edited: the view, the AddPod/RemovePod calls made so
 * far, in order, and the cycle's state they were applied to (kube's
 * SelectVictimsOnNode works on a clone of the cycle state).  cy points
 * into the edit itself: an edit stays where edit_init put it.  The view
 * and the deltas live in the state's scratch arena, given back with the
 * clone. */
struct edit {
	struct snapshot view;
	struct model_delta *deltas;
	struct model_cycle cy;
	struct model_cycle_state state;
};

static void edit_init(struct edit *e, const struct model_cycle_state *state,
		      const struct snapshot *s, int max_deltas)
{
	model_cycle_state_clone(&e->state, state);
	struct arena *scratch = e->state.scratch;
	size_t np = (size_t)s->cluster->n_pods;
	e->view.cluster = s->cluster;
	e->view.pod_node = arena_take_array(scratch, np + 1, sizeof(int32_t));
	e->view.nominated = arena_take_array(scratch, np + 1, sizeof(int32_t));
	e->view.dra = s->dra;   /* borrowed: the dry run leaves claims as they are */
	snapshot_assign(&e->view, s);
	e->deltas = arena_take_array(scratch, (size_t)max_deltas + 1,
				     sizeof *e->deltas);
	e->cy = (struct model_cycle){
		.cluster = s->cluster, .profile = state->profile,
		.pod = state->pod, .base = s, .view = &e->view,
		.deltas = e->deltas, .n_deltas = 0, .state = &e->state,
	};
}

static void edit_release(struct edit *e)
{
	model_cycle_state_release(&e->state);
}

/* RemovePod (sign -1: the pod is gone from the node copy) or AddPod (+1). */
static void edit_move(struct edit *e, int pod, int node, int sign)
{
	e->view.pod_node[pod] = sign > 0 ? node : SNAP_GONE;
	e->deltas[e->cy.n_deltas++] =
		(struct model_delta){.pod = pod, .node = node, .sign = sign};
	if (sign > 0)
		model_cycle_state_add_pod(&e->state, pod, node);
	else
		model_cycle_state_remove_pod(&e->state, pod, node);
}

/* RunFilterPluginsWithNominatedPods on the edited cycle (why: the
 * node's status when the pod does not fit, or NULL). */
static bool edit_fits(const struct edit *e, int node, struct sched_status *why)
{
	return model_dry_run_fits(&e->cy, node, why);
}

/* §3.4 step 5, one pod: add it back; if the preemptor no longer fits,
 * remove it again and it is a victim. */
static bool reprieve(struct edit *e, int q, int node)
{
	edit_move(e, q, node, +1);
	if (edit_fits(e, node, NULL))
		return true;
	edit_move(e, q, node, -1);
	return false;
}

/* §3.4 steps 4-6 on the removed pods lower[0..k-1] (sorted). */
static void reprieve_all(struct edit *e, int node, const int32_t *allowed,
			 const bool *spent, const int *lower, int k,
			 struct sched_victims *out)
{
	const struct cluster *c = e->cy.cluster;
	bool *viol = arena_take_array(e->state.scratch, (size_t)k, sizeof *viol);
	int n_viol = model_pdb_split_with(c, allowed, spent, lower, k, viol);
	out->pods = xmalloc(sizeof *out->pods * (size_t)k);
	out->n = 0;
	out->pdb_violations = 0;
	/* violating pods first: keeping one of them saves a budget */
	for (int pass = 1; pass >= 0; pass--)
		for (int i = 0; i < k; i++) {
			if (viol[i] != (pass == 1))
				continue;
			if (reprieve(e, lower[i], node))
				continue;
			out->pods[out->n++] = lower[i];
			out->pdb_violations += viol[i];
		}
	/* victims were appended group by group: restore one order */
	if (n_viol > 0 && n_viol < k)
		model_sort_important(c, out->pods, out->n);
	if (out->n > 0)
		model_casualty_of(c, out->pods, out->n, out->pdb_violations,
				  &out->casualty);
}

/* model_select_victims_on_node with the cycle's state on s (the failed
 * cycle's, which PostFilter receives), cloned for the node's edits. */
static enum sched_code select_victims(const struct model_cycle_state *state,
				      const struct snapshot *s, int node,
				      const int32_t *allowed,
				      const bool *spent,
				      struct sched_victims *out,
				      struct sched_status *st)
{
	assert(state && s && s->cluster && out && st && state->base == s);
	int pod = state->pod;
	const struct cluster *c = s->cluster;
	assert(node >= 0 && node < c->n_nodes);
	sched_status_ok(st);
	memset(out, 0, sizeof *out);
	out->node = node;

	/* step 1: remove every lower-priority pod */
	struct arena *scratch = state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	int *lower = arena_take_array(scratch, (size_t)c->n_pods + 1,
				      sizeof *lower);
	int k = lower_priority_pods(s, pod, node, lower);
	if (k == 0) {
		arena_reset(scratch, mark);
		sched_status_add(st, SCHED_UAU,
				 "No preemption victims found for incoming pod");
		return SCHED_UAU;
	}
	struct edit e;
	edit_init(&e, state, s, 3 * k);
	for (int i = 0; i < k; i++)
		edit_move(&e, lower[i], node, -1);

	/* step 2: with all of them gone the pod must fit */
	enum sched_code code = SCHED_SUCCESS;
	if (!edit_fits(&e, node, st)) {
		code = st->code;
	} else {
		/* step 3: most important first */
		model_sort_important(c, lower, k);
		reprieve_all(&e, node, allowed, spent, lower, k, out);
	}
	edit_release(&e);
	arena_reset(scratch, mark);
	return code;
}

enum sched_code model_select_victims_on_node(const struct sched_profile *prof,
					     const struct snapshot *s,
					     int pod, int node,
					     const int32_t *allowed,
					     struct sched_victims *out,
					     struct sched_status *st)
{
	assert(prof && s && s->cluster && out && st);
	struct model_cycle key = {
		.cluster = s->cluster, .profile = prof, .pod = pod, .base = s,
		.view = s,
	};
	struct model_cycle_state state;
	model_cycle_state_init(&state, &key, NULL);
	enum sched_code code = select_victims(&state, s, node, allowed, NULL,
					      out, st);
	model_cycle_state_release(&state);
	return code;
}

/* --------------------------------------------------------- the candidates */

/* DefaultPreemption.calculateNumCandidates (int32). */
int32_t model_preemption_num_candidates(const struct sched_profile *prof,
					int32_t n)
{
	assert(prof && n >= 0);
	int32_t k = n * prof->min_candidate_nodes_percentage / 100;
	if (k < prof->min_candidate_nodes_absolute)
		k = prof->min_candidate_nodes_absolute;
	if (k > n)
		k = n;
	return k;
}

/* The walk's state: candidate lists and the statuses of failed nodes,
 * in the PostFilter's scratch arena (given back with its state). */
struct dry_run {
	struct sched_victims *nonviolating, *violating;
	int n_nonviolating, n_violating, cap;
	struct sched_status *status;   /* [n_nodes] */
	bool *has_status;              /* [n_nodes] */
	const char *error;             /* first Error status, if any */
};

/* cap <= n_nodes (numCandidates of at most every node). */
static void dry_run_init(struct dry_run *d, struct arena *scratch,
			 int n_nodes, int cap)
{
	assert(cap <= n_nodes || n_nodes == 0);
	d->n_nonviolating = d->n_violating = 0;
	d->error = NULL;
	d->cap = cap;
	d->nonviolating = arena_take_array(scratch, (size_t)cap + 1,
					   sizeof *d->nonviolating);
	d->violating = arena_take_array(scratch, (size_t)cap + 1,
					sizeof *d->violating);
	d->status = arena_take_array(scratch, (size_t)n_nodes + 1,
				     sizeof *d->status);
	d->has_status = arena_take_array(scratch, (size_t)n_nodes + 1,
					 sizeof *d->has_status);
	memset(d->has_status, 0, sizeof *d->has_status * (size_t)n_nodes);
}

/* candidateList.add: each list keeps at most cap entries. */
static void dry_run_add(struct dry_run *d, struct sched_victims *v)
{
	struct sched_victims *list = v->pdb_violations ? d->violating
						       : d->nonviolating;
	int *n = v->pdb_violations ? &d->n_violating : &d->n_nonviolating;
	if (*n < d->cap)
		list[(*n)++] = *v;
	else
		sched_victims_release(v);
}

/* §3.3 checkNode for one potential node. */
static void dry_run_node(struct dry_run *d,
			 const struct model_cycle_state *state,
			 const struct snapshot *s, int node,
			 const int32_t *allowed, const bool *spent)
{
	struct sched_victims v;
	struct sched_status st;
	enum sched_code code;
	const struct model_verdict_memo *m = state->memo;
	if (!m || !m->victims ||
	    !m->victims(m->self, s, state->pod, node, &code, &v, &st)) {
		code = select_victims(state, s, node, allowed, spent, &v, &st);
		if (m && m->keep_victims)
			m->keep_victims(m->self, s, state->pod, node, code, &v,
					&st);
	}
	if (code == SCHED_SUCCESS && v.n > 0) {
		dry_run_add(d, &v);
		return;
	}
	if (code == SCHED_SUCCESS) {
		sched_victims_release(&v);
		sched_status_ok(&st);
		sched_status_fail(&st, SCHED_ERROR,
				  "expected at least one victim pod on node \"%s\"",
				  s->cluster->nodes[node].name);
	}
	d->status[node] = st;
	d->has_status[node] = true;
	if (st.code == SCHED_ERROR && !d->error)
		d->error = d->status[node].n_reasons
				   ? sched_status_reason(&d->status[node], 0) : "error";
}

/* DryRunPreemption: walk potential[(offset + i) % n] until there is a
 * non-violating candidate and numCandidates in all, each node on a clone
 * of the failed cycle's state on s. */
static void dry_run(struct dry_run *d, const struct model_cycle_state *state,
		    const struct snapshot *s, const int *potential, int n,
		    uint64_t offset_draw, const int32_t *allowed,
		    const bool *spent)
{
	int offset = (int)(offset_draw % (uint64_t)n);
	int32_t want = model_preemption_num_candidates(state->profile, n);
	for (int i = 0; i < n; i++) {
		dry_run_node(d, state, s, potential[(offset + i) % n], allowed,
			     spent);
		if (d->n_nonviolating > 0 &&
		    d->n_nonviolating + d->n_violating >= want)
			break;
	}
}

/* §3.5 pickOneNodeForPreemption: the candidate of least Casualty; the
 * first in list order among equals.  Fills ties with the other equals. */
static int pick_one(const struct sched_victims *cand, int n, int *ties,
		    int *n_ties)
{
	int best = 0;
	for (int i = 1; i < n; i++)
		if (model_casualty_cmp(&cand[i].casualty,
				       &cand[best].casualty) < 0)
			best = i;
	*n_ties = 0;
	for (int i = 0; i < n; i++)
		if (i != best && model_casualty_cmp(&cand[i].casualty,
						    &cand[best].casualty) == 0)
			ties[(*n_ties)++] = cand[i].node;
	return best;
}

/* §3.6: pods nominated to node with lower priority lose their nomination. */
void model_lower_nominated(const struct snapshot *s, int pod, int node,
			   struct sched_preemption *out)
{
	assert(s && out && pod >= 0 && node >= 0);
	const struct cluster *c = s->cluster;
	free(out->clear_nominated);
	out->clear_nominated = NULL;   /* taken with the first pod listed */
	out->n_clear_nominated = 0;
	bool clears = sched_preemption_clears(c, out);
	for (int q = 0; clears && q < c->n_pods; q++) {
		if (q == pod || s->nominated[q] != node ||
		    s->pod_node[q] != SNAP_PENDING || !model_in_nominator(c, q) ||
		    c->pods[q].priority >= c->pods[pod].priority)
			continue;
		if (!out->clear_nominated)
			out->clear_nominated = xmalloc(sizeof(int) * (size_t)c->n_pods);
		out->clear_nominated[out->n_clear_nominated++] = q;
	}
}

static void copy_victims(struct sched_victims *dst,
			 const struct sched_victims *src)
{
	*dst = *src;
	dst->pods = xmalloc(sizeof *dst->pods * (size_t)(src->n + 1));
	if (src->n)
		memcpy(dst->pods, src->pods, sizeof *dst->pods * (size_t)src->n);
}

/* The result when the walk found candidates. */
static void choose(struct sched_preemption *out, const struct snapshot *s,
		   int pod, struct dry_run *d)
{
	int n = d->n_nonviolating + d->n_violating;
	out->candidates = xmalloc(sizeof *out->candidates * (size_t)n);
	memcpy(out->candidates, d->nonviolating,
	       sizeof *out->candidates * (size_t)d->n_nonviolating);
	memcpy(out->candidates + d->n_nonviolating, d->violating,
	       sizeof *out->candidates * (size_t)d->n_violating);
	out->n_candidates = n;
	out->ties = xmalloc(sizeof *out->ties * (size_t)n);
	int best = pick_one(out->candidates, n, out->ties, &out->n_ties);
	copy_victims(&out->chosen, &out->candidates[best]);
	out->node = out->chosen.node;
	model_lower_nominated(s, pod, out->node, out);
	out->code = SCHED_SUCCESS;
	out->message = xstrdup("");
}

/* No candidate: an Error if some node errored, else a FitError over the
 * recorded statuses; either way the pod's nomination is cleared. */
static void no_candidate(struct sched_preemption *out, int n_nodes,
			 const struct dry_run *d, struct arena *scratch)
{
	out->clear_own_nomination = true;
	if (d->error) {
		out->code = SCHED_ERROR;
		out->message = sched_preemption_message(d->error);
		return;
	}
	char *fit = model_fit_error_of(n_nodes, d->status, d->has_status,
				       scratch);
	out->code = SCHED_UNSCHEDULABLE;
	out->message = sched_preemption_message(fit);
	free(fit);
}

/* §3.2 over the snapshot's node list: the potential nodes in node tree
 * order (§1.4), which is the order the §3.3 walk goes through them. */
static int potential_in_tree_order(const struct cluster *c,
				   const struct model_cycle_state *st,
				   const struct sched_cycle_result *r, int *out)
{
	/* with at most one potential node, every order is the same */
	int np = model_preemption_potential(r, out);
	if (np <= 1)
		return np;
	const int *order = st->node_tree;
	np = 0;
	for (int i = 0; i < c->n_nodes; i++)
		if (r->verdicts[order[i]].code == SCHED_UNSCHEDULABLE)
			out[np++] = order[i];
	return np;
}

int model_default_preemption(const struct sched_profile *prof,
			     const struct snapshot *s, int pod,
			     const struct sched_cycle_result *r,
			     const struct sched_preempt_opts *opts,
			     struct sched_preemption *out)
{
	return model_phase_default_preemption(prof, s, pod, r, opts, NULL, out);
}

int model_phase_default_preemption(const struct sched_profile *prof,
				   const struct snapshot *s, int pod,
				   const struct sched_cycle_result *r,
				   const struct sched_preempt_opts *opts,
				   const struct model_given *given,
				   struct sched_preemption *out)
{
	assert(prof && s && s->cluster && r && out);
	const struct cluster *c = s->cluster;
	char why[128];
	out->eligible = model_preemption_eligible(s, pod, r, why, sizeof why);
	if (!out->eligible) {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = sched_preemption_message(why);
		return 0;
	}

	/* PostFilter receives the failed cycle's state on s */
	struct model_cycle key = {
		.cluster = c, .profile = prof, .pod = pod, .base = s, .view = s,
	};
	struct model_cycle_state state;
	model_cycle_state_init(&state, &key, given);
	struct arena *scratch = state.scratch;
	int *potential = arena_take_array(scratch, (size_t)c->n_nodes + 1,
					  sizeof *potential);
	int np = potential_in_tree_order(c, &state, r, potential);
	struct dry_run d;
	dry_run_init(&d, scratch, c->n_nodes,
		     np > 0 ? model_preemption_num_candidates(prof, np) : 1);
	/* nodes where preemption cannot help (§3.2) */
	for (int n = 0; n < c->n_nodes; n++) {
		if (r->verdicts[n].code == SCHED_UNSCHEDULABLE)
			continue;
		sched_status_ok(&d.status[n]);
		sched_status_add(&d.status[n], SCHED_UAU,
				 "Preemption is not helpful for scheduling");
		d.has_status[n] = true;
	}
	if (np > 0) {
		const int32_t *allowed = opts ? opts->pdb_allowed : NULL;
		if (!allowed) {
			int32_t *own = arena_take_array(scratch,
							(size_t)c->n_pdbs + 1,
							sizeof *own);
			model_pdb_allowed(s, own);
			allowed = own;
		}
		dry_run(&d, &state, s, potential, np,
			opts ? opts->offset_draw : 0, allowed,
			opts ? opts->pdb_spends : NULL);
	}
	if (d.n_nonviolating + d.n_violating > 0)
		choose(out, s, pod, &d);
	else
		no_candidate(out, c->n_nodes, &d, scratch);
	model_cycle_state_release(&state);
	return 0;
}
