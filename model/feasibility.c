/*
 * feasibility.c - Feasibility(Pod, Node, Snapshot): every enabled filter of
 * the profile on one node, with kube's nominated-pods rule.
 *
 * Spec (shared/seeds/004 §1): Feasibility(Pod, Node, Snapshot) ==
 * Filter_1(Pod, Node, Snapshot) /\ Filter_2(...) /\ ...
 * kube v1.30 (reference §1.4, §1.5): RunFilterPlugins in the Filter order
 * of §1.1, stopping at the first non-success, inside
 * RunFilterPluginsWithNominatedPods (two passes).  The model evaluates every
 * filter (not only up to the first failure) so explain can show all of
 * them; the status kube would record is the first failure.
 */
#include "model.h"
#include "cycle_state.h"
#include "phases.h"
#include "volumes.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const enum plugin_id model_filter_ids[MODEL_N_FILTERS] = {
	PLUGIN_NODE_UNSCHEDULABLE, PLUGIN_NODE_NAME, PLUGIN_TAINT_TOLERATION,
	PLUGIN_NODE_AFFINITY, PLUGIN_NODE_PORTS, PLUGIN_NODE_RESOURCES_FIT,
	PLUGIN_VOLUME_RESTRICTIONS, PLUGIN_EBS_LIMITS, PLUGIN_GCE_PD_LIMITS,
	PLUGIN_NODE_VOLUME_LIMITS, PLUGIN_AZURE_DISK_LIMITS,
	PLUGIN_VOLUME_BINDING, PLUGIN_VOLUME_ZONE,
	PLUGIN_POD_TOPOLOGY_SPREAD, PLUGIN_INTER_POD_AFFINITY,
	PLUGIN_DYNAMIC_RESOURCES,
};

/* The function of each filter plugin id (NULL for non-filters): a table
 * rather than a switch, read once per filter per node. */
static const model_filter_fn filter_fns[PLUGIN_COUNT] = {
	[PLUGIN_NODE_UNSCHEDULABLE] = model_filter_node_unschedulable,
	[PLUGIN_NODE_NAME] = model_filter_node_name,
	[PLUGIN_TAINT_TOLERATION] = model_filter_taint_toleration,
	[PLUGIN_NODE_AFFINITY] = model_filter_node_affinity,
	[PLUGIN_NODE_PORTS] = model_filter_node_ports,
	[PLUGIN_NODE_RESOURCES_FIT] = model_filter_node_resources_fit,
	[PLUGIN_VOLUME_RESTRICTIONS] = model_filter_volume_restrictions,
	[PLUGIN_EBS_LIMITS] = model_filter_ebs_limits,
	[PLUGIN_GCE_PD_LIMITS] = model_filter_gce_pd_limits,
	[PLUGIN_NODE_VOLUME_LIMITS] = model_filter_node_volume_limits,
	[PLUGIN_AZURE_DISK_LIMITS] = model_filter_azure_disk_limits,
	[PLUGIN_VOLUME_BINDING] = model_filter_volume_binding,
	[PLUGIN_VOLUME_ZONE] = model_filter_volume_zone,
	[PLUGIN_POD_TOPOLOGY_SPREAD] = model_filter_pod_topology_spread,
	[PLUGIN_INTER_POD_AFFINITY] = model_filter_inter_pod_affinity,
	[PLUGIN_DYNAMIC_RESOURCES] = model_filter_dynamic_resources,
};

/* The filter ids are the ids below PLUGIN_FILTERS (core/config.h), the
 * ones a verdict keeps statuses for. */
_Static_assert(MODEL_N_FILTERS == PLUGIN_FILTERS, "a new filter plugin: "
	       "list it in model_filter_ids and filter_fns, below "
	       "PLUGIN_FILTERS");

/* A Skip from a filter is not a rejection: kube only knows Skip from
 * PreFilter, and a skipped plugin's Filter does not run (= passes). */
static bool status_failed(const struct sched_status *st)
{
	return st->code != SCHED_SUCCESS && st->code != SCHED_SKIP;
}

/* The filters the profile does not run at all (a release without some,
 * or a configuration disabling them) pass: their statuses Success.  A set
 * of the listed ids first, so that it costs order's length plus the
 * filters', not their product: v1.34's default profile lists fewer
 * filters than kso models and takes this way on every node. */
static void not_in_order(const enum plugin_id *order, int n_order,
			 struct sched_status st[PLUGIN_FILTERS])
{
	uint32_t in = 0;
	for (int k = 0; k < n_order; k++)
		in |= 1u << order[k];
	for (int i = 0; i < MODEL_N_FILTERS; i++) {
		enum plugin_id id = model_filter_ids[i];
		if (!(in >> id & 1u))
			sched_status_ok(&st[id]);
	}
}

/* RunFilterPlugins turns a Filter's Error into "running "Name" filter
 * plugin: <error>" (§1.4). */
static void wrap_error(enum plugin_id id, struct sched_status *st)
{
	/* the whole error (kube cuts none): st's text is rewritten below */
	char *error = xstrdup(st->n_reasons ? sched_status_reason(st, 0) : "");
	sched_status_ok(st);
	sched_status_fail(st, SCHED_ERROR, "running \"%s\" filter plugin: %s",
			  config_plugin_name(id), error);
	free(error);
}

/* One RunFilterPlugins pass, but evaluating every enabled filter (of
 * only[], when not NULL).  Fills st[id] for the filter ids (success for a
 * filter not evaluated) and leaves the other ids' statuses alone;
 * failed[] is true exactly for the filters that failed.  With
 * failed_only, a filter that did not fail reads success (its Skip and any
 * reasons dropped).  Returns the plugin id of the first non-success in
 * the profile's Filter order (the status kube records), or -1. */
static int filter_pass(const struct model_cycle *cy, int node, const bool *only,
		       bool failed_only, struct sched_status st[PLUGIN_FILTERS],
		       bool failed[PLUGIN_COUNT])
{
	/* read once: the stores into st[] may alias them for the compiler */
	const struct sched_profile *prof = cy->profile;
	const enum plugin_id *order = prof->filter_order;
	const int n_order = prof->n_filter_order;
	const uint32_t skip = cy->state->skip_filters;
	_Static_assert(PLUGIN_COUNT <= 32, "plugin ids fit a 32-bit set");
	int first = -1;
	memset(failed, 0, PLUGIN_COUNT * sizeof *failed);
	for (int i = 0; i < n_order; i++) {
		enum plugin_id id = order[i];
		/* kube runs no Filter whose PreFilter returned Skip */
		if (!prof->filter[id] || (skip >> id & 1u) || (only && !only[id])) {
			sched_status_ok(&st[id]);
			continue;
		}
		/* a Filter sets its status in full (plugin.h) */
		const char *missing = prof->prefilter[id] ? NULL
				      : config_missing_state(id, true);
		if (missing) {
			/* Filter without its PreFilter's state: an Error */
			sched_status_ok(&st[id]);
			sched_status_fail(&st[id], SCHED_ERROR, "%s", missing);
		} else {
			filter_fns[id](cy, node, &st[id]);
		}
		if (!status_failed(&st[id])) {
			if (failed_only)
				sched_status_ok(&st[id]);
			continue;
		}
		if (st[id].code == SCHED_ERROR)
			wrap_error(id, &st[id]);
		failed[id] = true;
		if (first < 0)
			first = id;
	}
	if (n_order < MODEL_N_FILTERS)
		not_in_order(order, n_order, st);
	return first;
}

/* kube §1.5: q is in Q = pods nominated to node, not yet bound, held by
 * the nominator, with prio(q) >= prio(P) and q != P.  Manifest order
 * stands for the nominator's insertion order (see DEVIATIONS.md). */
static bool in_q(const struct model_cycle *cy, int node, int q)
{
	const struct cluster *c = cy->cluster;
	const struct snapshot *v = cy->view;
	return q != cy->pod && v->nominated[q] == node &&
	       v->pod_node[q] == SNAP_PENDING && model_in_nominator(c, q) &&
	       c->pods[q].priority >= c->pods[cy->pod].priority;
}

/* Pass 1 of §1.5: the cycle with every q in Q placed on node, each as an
 * AddPod delta appended after cy->deltas: kube clones the cycle state,
 * which already holds cy's updates, and calls AddPod for each q in turn,
 * in Q's order; so does this.  Returns the first failing filter of the
 * pass, or -1. */
static int filter_pass_nominated(const struct model_cycle *cy, int node,
				 const bool *only, int nq,
				 struct sched_status st[PLUGIN_FILTERS],
				 bool failed[PLUGIN_COUNT])
{
	struct snapshot view;
	snapshot_clone(&view, cy->view);
	int n_deltas = cy->n_deltas + nq;
	struct model_delta *deltas = xmalloc(sizeof *deltas * (size_t)n_deltas);
	if (cy->n_deltas)
		memcpy(deltas, cy->deltas, sizeof *deltas * (size_t)cy->n_deltas);
	struct model_cycle_state state;
	model_cycle_state_clone(&state, cy->state);
	int k = cy->n_deltas;
	for (int q = 0; q < cy->cluster->n_pods; q++) {
		if (!in_q(cy, node, q))
			continue;
		view.pod_node[q] = node;
		deltas[k++] = (struct model_delta){.pod = q, .node = node, .sign = 1};
		model_cycle_state_add_pod(&state, q, node);
	}
	assert(k == n_deltas);
	struct model_cycle with = *cy;
	with.view = &view;
	with.deltas = deltas;
	with.n_deltas = n_deltas;
	with.state = &state;
	int first = filter_pass(&with, node, only, false, st, failed);
	model_cycle_state_release(&state);
	free(deltas);
	snapshot_release(&view);
	return first;
}

/*
 * Spec: Feasibility(Pod, Node) == AND of the filters.
 * kube §1.5: if Q is non-empty, pass 1 runs the filters with Q added; if it
 * rejects, that is the node's status; otherwise pass 2 runs them on the
 * cycle as given, and the node passes only if both pass.  So a filter has
 * failed if it failed in either pass, and the reported (first) failure is
 * pass 1's when pass 1 failed, else pass 2's.
 */
void model_feasibility(const struct model_cycle *cy, int node,
		       struct sched_node_verdict *out)
{
	model_feasibility_of(cy, node, NULL, out);
}

/* Each filter's verdict in each pass is a function of the cycle and the
 * node alone, so leaving filters out changes no other filter's verdict;
 * only rejected_by is then the first failure among those evaluated. */
void model_feasibility_of(const struct model_cycle *cy, int node,
			  const bool *only, struct sched_node_verdict *out)
{
	assert(cy && cy->cluster && cy->profile && cy->view && out);
	assert(node >= 0 && node < cy->cluster->n_nodes);
	assert(cy->pod >= 0 && cy->pod < cy->cluster->n_pods);

	/* the non-filter ids and the padding false; filter_pass sets the
	 * filter ids */
	memset(out->failed + PLUGIN_FILTERS, 0, PLUGIN_SLOTS - PLUGIN_FILTERS);

	int nq = 0;
	/* in_q(q) needs q pending, nominated to node and not the pod: none
	 * such but maybe the pod itself (the sums count every pending pod
	 * nominated there), no q */
	const struct model_node_sums *sums = model_cycle_sums(cy);
	int self = cy->view->pod_node[cy->pod] == SNAP_PENDING &&
		   cy->view->nominated[cy->pod] == node;
	for (int q = 0; (!sums || sums->nominated[node] > self) &&
	     q < cy->cluster->n_pods; q++)
		nq += cy->view->nominated[q] == node && in_q(cy, node, q);
	int first1 = -1, first2;
	if (nq > 0) {
		/* pass 1 writes straight into out; pass 2 into scratch */
		first1 = filter_pass_nominated(cy, node, only, nq, out->status,
					       out->failed);
	}

	if (nq == 0) {
		/* no pass 1 (Q is empty): pass 2's verdicts are the node's;
		 * as below, a verdict is kept only where the filter failed */
		first2 = filter_pass(cy, node, only, true, out->status,
				     out->failed);
	} else {
		/* pass 2's statuses: filter_pass sets the filter ids, the only
		 * ones read (failed2 is false for the others) */
		struct sched_status st2[PLUGIN_FILTERS];
		bool failed2[PLUGIN_COUNT] = {0};
		first2 = filter_pass(cy, node, only, false, st2, failed2);
		for (int i = 0; i < MODEL_N_FILTERS; i++) {
			int id = model_filter_ids[i];
			if (out->failed[id] || !failed2[id])
				continue;
			/* failed only without the nominated pods: pass 2's */
			out->failed[id] = true;
			out->status[id] = st2[id];
		}
	}

	out->rejected_by = first1 >= 0 ? first1 : first2;
	out->feasible = out->rejected_by < 0;
	out->code = out->feasible ? SCHED_SUCCESS
				  : out->status[out->rejected_by].code;
}

bool model_dry_run_fits(const struct model_cycle *cy, int node,
			struct sched_status *why)
{
	const struct model_verdict_memo *m = cy->state->memo;
	int known = m ? m->find(m->self, cy->base, cy->view, cy->pod, node, why)
		      : -1;
	if (known >= 0)
		return known == 1;
	struct sched_node_verdict v;
	model_feasibility(cy, node, &v);
	if (!v.feasible && why)
		*why = v.status[v.rejected_by];
	return v.feasible;
}

void model_phase_filter(const struct sched_profile *prof,
			const struct snapshot *s, int pod, int node,
			const bool *only, const struct model_given *given,
			struct sched_node_verdict *out)
{
	struct model_cycle cy = {
		.cluster = s->cluster, .profile = prof, .pod = pod,
		.base = s, .view = s,
	};
	struct model_cycle_state state;
	model_cycle_state_init(&state, &cy, given);
	cy.state = &state;
	model_feasibility_of(&cy, node, only, out);
	model_cycle_state_release(&state);
}
