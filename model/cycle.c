/*
 * cycle.c - one scheduling cycle of one pod: PreFilter, Filter on every
 * node, Score, and the viable set.
 *
 * Spec (shared/seeds/004, "Scheduling"):
 *   Feasible == {Node : Feasibility(Pod, Node, Objects)}
 *   Scheduling(Pod) binds Pod to some Node in Feasible with
 *     \A Other \in Feasible : Viability(Pod, Other) <= Viability(Pod, Node)
 * kube v1.30: schedulePod / findNodesThatFitPod / prioritizeNodes
 * (reference §1.3, §1.5, §1.6, §1.7).  The model evaluates every node (no
 * numFeasibleNodesToFind sampling) and returns the whole viable set
 * instead of a random pick from it; see DEVIATIONS.md.
 */
#include "model.h"
#include "cycle_state.h"
#include "phases.h"
#include "volumes.h"
#include "match.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const enum plugin_id model_score_ids[MODEL_N_SCORES] = {
	PLUGIN_TAINT_TOLERATION, PLUGIN_NODE_AFFINITY, PLUGIN_NODE_RESOURCES_FIT,
	PLUGIN_POD_TOPOLOGY_SPREAD, PLUGIN_INTER_POD_AFFINITY,
	PLUGIN_BALANCED_ALLOCATION, PLUGIN_IMAGE_LOCALITY,
	PLUGIN_SELECTOR_SPREAD,
};

/* Every Score plugin of core/plugins.def but VolumeBinding, whose PreScore
 * always skips (so it never scores). */
_Static_assert(MODEL_N_SCORES == PLUGIN_SCORES - 1, "a new score plugin: "
	       "list it in model_score_ids and score_fn");

/* The function of a score plugin id (NULL for non-scores). */
static model_score_fn score_fn(enum plugin_id id)
{
	switch (id) {
	case PLUGIN_TAINT_TOLERATION: return model_score_taint_toleration;
	case PLUGIN_NODE_AFFINITY: return model_score_node_affinity;
	case PLUGIN_NODE_RESOURCES_FIT: return model_score_node_resources_fit;
	case PLUGIN_POD_TOPOLOGY_SPREAD: return model_score_pod_topology_spread;
	case PLUGIN_INTER_POD_AFFINITY: return model_score_inter_pod_affinity;
	case PLUGIN_BALANCED_ALLOCATION: return model_score_balanced_allocation;
	case PLUGIN_IMAGE_LOCALITY: return model_score_image_locality;
	case PLUGIN_SELECTOR_SPREAD: return model_score_selector_spread;
	default: return NULL;
	}
}

/* Nodes from..n_nodes-1 back to "nothing decided". */
static void verdicts_none_from(struct sched_cycle_result *r, int from)
{
	for (int i = from; i < r->n_nodes; i++)
		sched_verdict_none(&r->verdicts[i], SCHED_SUCCESS);
}

/* Back to "nothing decided" so one result can serve many cycles, except
 * the verdicts: every way through run_cycle writes every node's verdict
 * in full (Feasibility, verdict_none, prefilter_reject, or
 * verdicts_none_from where a cycle stops early), so clearing them first
 * would only be overwritten. */
static void result_reset(struct sched_cycle_result *r, int pod)
{
	sched_cycle_result_clear(r, pod);
}

/* The cycle failed with an Error: no node is chosen, the message is the
 * error (kube logs it and requeues the pod). */
static void cycle_error(struct sched_cycle_result *r,
		       const struct sched_status *st)
{
	r->error = *st;
	r->error.code = SCHED_ERROR;
	r->code = SCHED_ERROR;
	r->n_viable = 0;
	/* nothing was scored: drop what the plugins before the error added */
	for (int i = 0; i < r->n_nodes; i++)
		r->total[i] = 0;
	memset(r->scores, 0, sizeof *r->scores * (size_t)r->n_nodes * PLUGIN_COUNT);
	memset(r->score_skipped, 0, PLUGIN_COUNT * sizeof *r->score_skipped);
	r->message = xstrdup(st->n_reasons ? sched_status_reason(st, 0) : "error");
}

/* FitError: nothing feasible; the pod is Unschedulable this cycle.  The
 * message's histogram is built in scratch (NULL: before the cycle's
 * state, an arena of its own). */
static void cycle_unschedulable(struct sched_cycle_result *r,
				struct arena *scratch)
{
	r->code = SCHED_UNSCHEDULABLE;
	r->message = model_fit_error_in(r, NULL, scratch);
}

/* kube §1.3 step 2: a PreFilter rejection gives every node that status
 * (r->prefilter), attributed to the plugin, and no Filter runs. */
static void prefilter_reject(struct sched_cycle_result *r, int plugin)
{
	for (int n = 0; n < r->n_nodes; n++) {
		struct sched_node_verdict *v = &r->verdicts[n];
		sched_verdict_none(v, r->prefilter.code);
		v->rejected_by = plugin;
		v->failed[plugin] = true;
		v->status[plugin] = r->prefilter;
		r->in_prefilter_result[n] = true;
	}
}

static bool prefilter_rejects(const struct sched_status *st)
{
	return st->code == SCHED_UNSCHEDULABLE || st->code == SCHED_UAU;
}

/* DynamicResources' PreFilter, the last one (v1.34): its rejection is
 * every node's status. */
static enum sched_code run_prefilter_dra(const struct model_cycle *cy,
					 struct sched_cycle_result *r)
{
	if (!cy->profile->prefilter[PLUGIN_DYNAMIC_RESOURCES])
		return SCHED_SUCCESS;
	struct sched_status st;
	model_prefilter_dynamic_resources(cy, &st);
	if (!prefilter_rejects(&st))
		return SCHED_SUCCESS;
	r->prefilter = st;
	prefilter_reject(r, PLUGIN_DYNAMIC_RESOURCES);
	return st.code;
}

/* kube §1.3 step 2: RunPreFilterPlugins, in the default PreFilter order,
 * for the PreFilters that can reject or restrict the nodes: NodeAffinity
 * (whenever its PreFilter is enabled, even with its Filter disabled),
 * then the volume plugins (reference §2.12).  Returns SCHED_SUCCESS when
 * the cycle goes on to Filter, else the rejection (every node then has
 * the PreFilter status) or SCHED_ERROR. */
static enum sched_code run_prefilter(const struct model_cycle *cy,
				     struct sched_cycle_result *r)
{
	const struct sched_profile *prof = cy->profile;
	bool na_restricted = false;
	if (prof->prefilter[PLUGIN_NODE_AFFINITY]) {
		model_prefilter_node_affinity(cy, r->in_prefilter_result,
					      &na_restricted, &r->prefilter);
		/* v1.34: the nodes it leaves out carry the absent status,
		 * naming the plugins that returned node names (NodeAffinity
		 * is the only one kso models) */
		if (na_restricted && config_at_least(&cy->cluster->config, KUBE_1_34))
			r->absent_reason = "node(s) didn't satisfy plugin(s) "
					   "[NodeAffinity]";
		if (prefilter_rejects(&r->prefilter)) {
			prefilter_reject(r, PLUGIN_NODE_AFFINITY);
			return r->prefilter.code;
		}
		if (r->prefilter.code == SCHED_ERROR)
			return SCHED_ERROR;
	}
	static const enum plugin_id volume_ids[] = {
		PLUGIN_VOLUME_RESTRICTIONS, PLUGIN_NODE_VOLUME_LIMITS,
		PLUGIN_VOLUME_BINDING, PLUGIN_VOLUME_ZONE,
	};
	/* each of them skips a pod without volumes */
	bool volumes = model_pod_has_volumes(&cy->cluster->pods[cy->pod]);
	for (size_t i = 0; volumes && i < sizeof volume_ids / sizeof *volume_ids; i++) {
		enum plugin_id id = volume_ids[i];
		if (!prof->prefilter[id])
			continue;
		struct sched_status st;
		switch (id) {
		case PLUGIN_VOLUME_RESTRICTIONS:
			model_prefilter_volume_restrictions(cy, &st);
			break;
		case PLUGIN_NODE_VOLUME_LIMITS:
			model_prefilter_node_volume_limits(cy, &st);
			break;
		case PLUGIN_VOLUME_BINDING:
			model_prefilter_volume_binding(cy, &st);
			break;
		default:
			model_prefilter_volume_zone(cy, &st);
			break;
		}
		if (prefilter_rejects(&st)) {
			r->prefilter = st;
			prefilter_reject(r, id);
			return st.code;
		}
	}
	return run_prefilter_dra(cy, r);
}

/* kube §1.3 steps 3-5: Filter on every candidate node, feasible list in
 * node order; a node with given[n] (given may be NULL) keeps the verdict
 * r already holds (model_schedule_cycle_given).  Returns the index of a
 * node whose filter errored (the nodes after it left with no verdict), or
 * -1. */
static int run_filters(const struct model_cycle *cy, const bool *given,
		       struct sched_cycle_result *r)
{
	for (int n = 0; n < r->n_nodes; n++) {
		struct sched_node_verdict *v = &r->verdicts[n];
		/* the nominated node is tried first even outside the
		 * PreFilterResult (evaluateNominatedNode runs before it) */
		bool nominated = cy->base->nominated[cy->pod] == n;
		if (!r->in_prefilter_result[n] && !nominated) {
			sched_verdict_none(v, SCHED_UAU);
			continue;
		}
		if (!given || !given[n])
			model_feasibility(cy, n, v);
		if (v->code == SCHED_ERROR) {
			verdicts_none_from(r, n + 1);
			return n;
		}
		if (v->feasible && r->in_prefilter_result[n])
			r->feasible[r->n_feasible++] = n;
	}
	return -1;
}

/*
 * kube §1.6 (RunScorePlugins, after every Score and NormalizeScore): each
 * normalized score must lie in [0, MaxNodeScore], checked node by node,
 * each node's plugins in Score order; the first that does not is the
 * cycle's Error.  (kube checks the nodes in parallel, so with several bad
 * nodes its report may name another; kso names the first feasible node.)
 * Reachable with valid input only through Go's int64 wrap-around, e.g. a
 * request past 2^63 (core/go_quantity.h).
 */
struct bad_score {
	int node;              /* index into the feasible list, -1: none */
	enum plugin_id id;
	int64_t score;
};

static void note_bad_scores(struct bad_score *b, enum plugin_id id,
			    const int64_t *raw, int n)
{
	for (int i = 0; i < n && (b->node < 0 || i < b->node); i++)
		if (raw[i] < 0 || raw[i] > 100) {
			*b = (struct bad_score){i, id, raw[i]};
			return;
		}
}

/* kube §1.6: PreScore/Score/NormalizeScore of one plugin over the feasible
 * nodes, weighted into r; given's scores instead when bit id of covered
 * (sched_given_cover) says they are there.  Returns false (err set) when
 * the cycle errors. */
static bool score_plugin(const struct model_cycle *cy, enum plugin_id id,
			 const struct sched_given_scores *given, uint32_t covered,
			 struct sched_cycle_result *r, int64_t *raw,
			 struct bad_score *bad, struct sched_status *err)
{
	sched_status_ok(err);
	for (int i = 0; i < r->n_feasible; i++)
		raw[i] = 0;
	bool prescore = cy->profile->prescore[id];
	const char *missing = prescore ? NULL : config_missing_state(id, false);
	if (missing) {
		/* Score without its PreScore's state (§1.6) */
		sched_status_fail(err, SCHED_ERROR, "running Score plugins: plugin "
				  "\"%s\" failed with: %s", config_plugin_name(id),
				  missing);
		return false;
	}
	enum sched_code code = SCHED_SUCCESS;
	if (covered >> id & 1)
		for (int i = 0; i < r->n_feasible; i++)
			raw[i] = given->raw[(size_t)r->feasible[i] * PLUGIN_COUNT + id];
	else
		code = score_fn(id)(cy, r->feasible, r->n_feasible, raw, err);
	if (code == SCHED_ERROR && !prescore) {
		/* the error of a Score falling back to its PreScore's work */
		char why[SCHED_STATUS_TEXT];
		snprintf(why, sizeof why, "%s",
			 err->n_reasons ? sched_status_reason(err, 0) : "error");
		sched_status_ok(err);
		sched_status_fail(err, SCHED_ERROR, "running Score plugins: plugin "
				  "\"%s\" failed with: %s", config_plugin_name(id),
				  why);
	}
	if (code == SCHED_ERROR)
		return false;
	if (code == SCHED_SKIP && prescore) {
		r->score_skipped[id] = true;
		return true;
	}
	if (code == SCHED_SKIP)
		return true;   /* no PreScore to skip it: Score gives 0 */
	note_bad_scores(bad, id, raw, r->n_feasible);
	int64_t w = cy->profile->weight[id];
	r->scores_written = true;
	for (int i = 0; i < r->n_feasible; i++) {
		int n = r->feasible[i];
		r->scores[(size_t)n * PLUGIN_COUNT + id] = raw[i] * w;
		r->total[n] += raw[i] * w;
	}
	return true;
}

/* kube §1.6 step 1: PreScore of every plugin with it enabled, before
 * any Score; of the modelled ones only NodeAffinity's can fail (a
 * preferred term the parser refuses), also when its Score is disabled,
 * and before any Score plugin's error. */
static bool run_prescores(const struct model_cycle *cy,
			  struct sched_status *err)
{
	const struct sched_profile *prof = cy->profile;
	if (!prof->prescore[PLUGIN_NODE_AFFINITY])
		return true;
	const struct pod *p = &cy->cluster->pods[cy->pod];
	char why[SCHED_STATUS_TEXT];
	if (!match_preferred_parse_error(p->node_preferred, p->n_node_preferred,
					 why, sizeof why))
		return true;
	/* RunPreScorePlugins wraps the plugin's error */
	sched_status_ok(err);
	sched_status_fail(err, SCHED_ERROR, "running PreScore plugin "
			  "\"NodeAffinity\": %s", why);
	return false;
}

/* kube §1.6: every enabled score plugin in Score order (given: scores
 * worked out before, struct model_given, may be NULL). */
static bool run_scores(const struct model_cycle *cy,
		       const struct sched_given_scores *given,
		       struct sched_cycle_result *r, struct sched_status *err)
{
	if (!config_has_score(cy->profile)) {
		/* prioritizeNodes without Score plugins: no PreScore, every
		 * node 1 (reference §1.6) */
		for (int i = 0; i < r->n_feasible; i++)
			r->total[r->feasible[i]] = 1;
		r->scored = true;
		return true;
	}
	if (!run_prescores(cy, err)) {
		r->scored = false;
		return false;
	}
	struct arena *scratch = cy->state->scratch;
	struct arena_mark mark = arena_mark(scratch);
	int64_t *raw = arena_take_array(scratch, (size_t)r->n_feasible,
					sizeof *raw);
	bool ok = true;
	struct bad_score bad = {-1, PLUGIN_COUNT, 0};
	/* the plugins whose scores are given (sched_given_covers) */
	uint32_t covered = sched_given_cover(given, r->feasible, r->n_feasible,
					     r->n_nodes);
	for (int i = 0; i < MODEL_N_SCORES && ok; i++) {
		enum plugin_id id = model_score_ids[i];
		if (cy->profile->score[id])
			ok = score_plugin(cy, id, given, covered, r, raw, &bad, err);
	}
	arena_reset(scratch, mark);
	if (ok && bad.node >= 0) {
		sched_status_ok(err);
		sched_status_fail(err, SCHED_ERROR, "applying score defaultWeights "
				  "on Score plugins: plugin \"%s\" returns an "
				  "invalid score %lld, it should in the range of "
				  "[0, 100] after normalizing",
				  config_plugin_name(bad.id), (long long)bad.score);
		ok = false;
	}
	r->scored = ok;
	return ok;
}

/*
 * Spec: viable == {Node \in Feasible : \A Other \in Feasible :
 *                  Viability(Pod, Other) <= Viability(Pod, Node)}
 * kube §1.7 picks one of these uniformly at random; the model keeps all.
 */
static void select_viable(struct sched_cycle_result *r)
{
	int64_t best = 0;
	for (int i = 0; i < r->n_feasible; i++) {
		int64_t t = r->total[r->feasible[i]];
		if (i == 0 || t > best)
			best = t;
	}
	r->n_viable = 0;
	for (int i = 0; i < r->n_feasible; i++)
		if (r->total[r->feasible[i]] == best)
			r->viable[r->n_viable++] = r->feasible[i];
}

/* kube §1.3 step 2, the PreFilter phase: the PreFilters that can reject
 * or restrict the nodes (run_prefilter), then, when none did, the cycle's
 * state every Filter and Score reads (cycle_state.h) into *state, and
 * cy->state pointed at it (pair with model_cycle_state_release).  Returns
 * false when the cycle ended here (r says how). */
static bool prefilter_phase(struct model_cycle *cy,
			    const struct model_given *given,
			    struct model_cycle_state *state,
			    struct sched_cycle_result *r)
{
	enum sched_code pre = run_prefilter(cy, r);
	if (pre == SCHED_ERROR) {
		verdicts_none_from(r, 0);
		cycle_error(r, &r->prefilter);
		return false;
	}
	if (pre != SCHED_SUCCESS) {
		cycle_unschedulable(r, NULL);
		return false;
	}
	model_cycle_state_init(state, cy, given);
	cy->state = state;
	return true;
}

/* Filter, Score and the viable set of cy (after its PreFilter phase)
 * into r (reset but for the given verdicts, see run_filters), with the
 * verdicts and scores given (may be NULL). */
static void run_cycle(const struct model_cycle *cy,
		      const struct model_given *given,
		      struct sched_cycle_result *r)
{
	int bad = run_filters(cy, given ? given->verdicts : NULL, r);
	if (bad >= 0) {
		const struct sched_node_verdict *v = &r->verdicts[bad];
		cycle_error(r, &v->status[v->rejected_by]);
		return;
	}

	/* kube §1.3 step 3: a feasible nominated node is the result at once */
	int nom = cy->base->nominated[cy->pod];
	if (nom >= 0 && r->verdicts[nom].feasible) {
		r->nominated_node = nom;
		r->viable[0] = nom;
		r->n_viable = 1;
		return;
	}
	if (r->n_feasible == 0 && given && given->fit_message) {
		r->code = SCHED_UNSCHEDULABLE;
		r->message = xstrdup(given->fit_message);
		return;
	}
	if (r->n_feasible == 0) {
		cycle_unschedulable(r, cy->state->scratch);
		return;
	}
	/* kube §1.3 step 7: one feasible node is chosen without scoring */
	if (r->n_feasible == 1) {
		r->viable[0] = r->feasible[0];
		r->n_viable = 1;
		return;
	}

	struct sched_status err;
	if (!run_scores(cy, given ? given->scores : NULL, r, &err)) {
		cycle_error(r, &err);
		return;
	}
	select_viable(r);
}

int model_schedule_cycle(const struct sched_profile *prof,
			 const struct snapshot *s, int pod,
			 struct sched_cycle_result *r)
{
	return model_phase_cycle(prof, s, pod, NULL, r);
}

int model_phase_cycle(const struct sched_profile *prof,
		      const struct snapshot *s, int pod,
		      const struct model_given *given,
		      struct sched_cycle_result *r)
{
	assert(prof && s && s->cluster && r);
	const struct cluster *c = s->cluster;
	assert(r->n_nodes == c->n_nodes);
	assert(pod >= 0 && pod < c->n_pods);
	result_reset(r, pod);

	/* kube §1.3 step 1 */
	if (c->n_nodes == 0) {
		r->code = SCHED_UAU;
		r->message = xstrdup("no nodes available to schedule pods");
		return 0;
	}

	struct model_cycle cy = {
		.cluster = c, .profile = prof, .pod = pod,
		.base = s, .view = s, .deltas = NULL, .n_deltas = 0,
	};
	struct model_cycle_state state;
	if (!prefilter_phase(&cy, given, &state, r))
		return 0;
	run_cycle(&cy, given, r);
	model_cycle_state_release(&state);
	return 0;
}
