/*
 * cycle.c - one scheduling cycle the way kube-scheduler runs it
 * (reference §1.3-§1.7): PreFilter state, Filter over the candidate nodes
 * (with the two-pass nominated-pods rule, §1.5), scoring of the feasible
 * nodes, the viable set and selectHost, and kube's FitError message.
 *
 * Without a result record (oracle_select) nothing but the chosen node is
 * computed: the placement-independent filters come from the pod shape's
 * per-node verdicts (shape.c), the others from checks that give the code
 * without formatting reasons, and the random viable node is picked from
 * a bitmap instead of a sorted list.  Per-node buffers live in the
 * oracle (allocated once), so a cycle costs O(examined nodes) plus the
 * plugins' PreFilter work, with no allocation proportional to the
 * cluster.
 */
#include "../core/grow.h"
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*filter_fn)(struct oracle_cycle *, const struct oracle_nodeview *,
			  struct sched_status *);
typedef oracle_score_fn score_fn;

typedef enum sched_code (*check_fn)(struct oracle_cycle *, const struct oracle_nodeview *);

/* Filter plugins in the default profile's order (§1.1).  The first
 * N_STATIC_FILTERS depend on the pod's spec and the node only (their
 * verdict is the shape's, shape.c); the others have a check giving the
 * code without the reasons. */
static const struct {
	int id;
	filter_fn fn;
	check_fn check;
	uint8_t fail_bit;          /* the static ones' OSHAPE_FAIL_* */
} filters[] = {
	{PLUGIN_NODE_UNSCHEDULABLE, oracle_filter_unschedulable, NULL, OSHAPE_FAIL_UNSCHEDULABLE},
	{PLUGIN_NODE_NAME, oracle_filter_node_name, NULL, OSHAPE_FAIL_NODE_NAME},
	{PLUGIN_TAINT_TOLERATION, oracle_filter_taints, NULL, OSHAPE_FAIL_TAINTS},
	{PLUGIN_NODE_AFFINITY, oracle_filter_node_affinity, NULL, OSHAPE_FAIL_NODE_AFFINITY},
	{PLUGIN_NODE_PORTS, oracle_filter_ports, oracle_check_ports, 0},
	{PLUGIN_NODE_RESOURCES_FIT, oracle_filter_fit, oracle_check_fit, 0},
	{PLUGIN_VOLUME_RESTRICTIONS, oracle_filter_volume_restrictions, NULL, 0},
	{PLUGIN_EBS_LIMITS, oracle_filter_ebs_limits, NULL, 0},
	{PLUGIN_GCE_PD_LIMITS, oracle_filter_gce_pd_limits, NULL, 0},
	{PLUGIN_NODE_VOLUME_LIMITS, oracle_filter_volume_limits, NULL, 0},
	{PLUGIN_AZURE_DISK_LIMITS, oracle_filter_azure_disk_limits, NULL, 0},
	{PLUGIN_VOLUME_BINDING, oracle_filter_volume_binding, NULL, 0},
	{PLUGIN_VOLUME_ZONE, oracle_filter_volume_zone, NULL, 0},
	{PLUGIN_POD_TOPOLOGY_SPREAD, oracle_filter_spread, oracle_check_spread, 0},
	{PLUGIN_INTER_POD_AFFINITY, oracle_filter_interpod, oracle_check_interpod, 0},
	{PLUGIN_DYNAMIC_RESOURCES, oracle_filter_dra, NULL, 0},
};
#define N_STATIC_FILTERS 4

/* Score plugins in PreScore/Score order (§1.1; SelectorSpread last). */
static const struct {
	int id;
	score_fn fn;
} scorers[] = {
	{PLUGIN_TAINT_TOLERATION, oracle_score_taints},
	{PLUGIN_NODE_AFFINITY, oracle_score_node_affinity},
	{PLUGIN_NODE_RESOURCES_FIT, oracle_score_fit},
	{PLUGIN_POD_TOPOLOGY_SPREAD, oracle_score_spread},
	{PLUGIN_INTER_POD_AFFINITY, oracle_score_interpod},
	{PLUGIN_BALANCED_ALLOCATION, oracle_score_balanced},
	{PLUGIN_IMAGE_LOCALITY, oracle_score_images},
	{PLUGIN_SELECTOR_SPREAD, oracle_score_selector_spread},
};

#define N_FILTERS ((int)(sizeof filters / sizeof filters[0]))
#define N_SCORERS ((int)(sizeof scorers / sizeof scorers[0]))

/* The tables against core/plugins.def: every filter, and every Score
 * plugin but VolumeBinding, whose PreScore always skips. */
_Static_assert(N_FILTERS == PLUGIN_FILTERS, "a new filter plugin: list it "
	       "in filters[] at its Filter position");
_Static_assert(N_SCORERS == PLUGIN_SCORES - 1, "a new score plugin: list it "
	       "in scorers[]");

/* Does some Filter of prof run without the state its PreFilter writes?
 * Then it returns an Error (config_missing_state), which only the
 * in-order path below reports. */
static bool missing_prefilter_state(const struct sched_profile *prof)
{
	for (int i = 0; i < prof->n_filter_order; i++) {
		enum plugin_id id = prof->filter_order[i];
		if (prof->filter[id] && !prof->prefilter[id] &&
		    config_missing_state(id, true))
			return true;
	}
	return false;
}

void oracle_cycle_begin(struct oracle_cycle *cy, struct oracle *o,
			const struct sched_profile *prof, int pod)
{
	assert(cy && o && prof && pod >= 0 && pod < o->cluster->n_pods);
	memset(cy, 0, sizeof(*cy));
	cy->n_active = -1;
	cy->o = o;
	cy->c = o->cluster;
	cy->prof = prof;
	cy->pod = pod;
	cy->p = &o->cluster->pods[pod];
	cy->v134 = config_at_least(&o->cluster->config, KUBE_1_34);
	struct oracle_data *d = o->d;
	if (d->order_prof != prof) {
		d->order_prof = prof;
		d->order_custom = !config_default_filter_order(prof) ||
				  missing_prefilter_state(prof);
		for (int i = 0; i < PLUGIN_COUNT; i++)
			d->disabled[i] = !prof->filter[i];
	}
	cy->custom_order = d->order_custom;
	cy->arena = &d->cycle_arena;
	d->live_cycles++;
	/* a fresh stamp invalidates every memo slot at once */
	if (++d->stamp >= 0x7fffffffu) {
		for (int i = 0; i < d->n_memo; i++)
			memset(d->memo[i], 0, sizeof(uint32_t) * (size_t)(d->n_groups + 1));
		d->stamp = 1;
	}
	d->used_memo = 0;
	oracle_shape_begin(cy);
}

/* Bytes of the cycle arena kept for the next cycles: one minimum arena
 * block (64 KB) holds dozens of small cycles. */
#define ORACLE_CYCLE_ARENA_KEEP (48 * 1024)

void oracle_cycle_end(struct oracle_cycle *cy)
{
	struct oracle_data *d = cy->o->d;
	assert(d->live_cycles > 0 && cy->arena == &d->cycle_arena);
	if (--d->live_cycles == 0 && d->cycle_arena.total > ORACLE_CYCLE_ARENA_KEEP)
		arena_release(&d->cycle_arena);
	cy->arena = NULL;
}

/* -------------------------------------------------------------- PreFilter */

/* cy->active: the filters PreFilter did not skip, in table order; the
 * last cycle's list when it skipped the same filters. */
static void list_active(struct oracle_cycle *cy)
{
	_Static_assert(PLUGIN_FILTERS == 16, "the filters' skips are two words");
	struct oracle_data *d = cy->o->d;
	uint64_t key[2];
	memcpy(key, cy->skip, sizeof key);
	if (d->active_known && key[0] == d->active_skips[0] &&
	    key[1] == d->active_skips[1]) {
		memcpy(cy->active, d->active, sizeof cy->active);
		cy->n_active = d->n_active;
		cy->first_dynamic = d->first_dynamic;
		return;
	}
	cy->n_active = 0;
	cy->first_dynamic = -1;
	for (int i = 0; i < N_FILTERS; i++) {
		if (cy->skip[filters[i].id])
			continue;
		if (i >= N_STATIC_FILTERS && cy->first_dynamic < 0)
			cy->first_dynamic = cy->n_active;
		cy->active[cy->n_active++] = (uint8_t)i;
	}
	if (cy->first_dynamic < 0)
		cy->first_dynamic = cy->n_active;
	memcpy(d->active_skips, key, sizeof key);
	memcpy(d->active, cy->active, sizeof d->active);
	d->n_active = cy->n_active;
	d->first_dynamic = cy->first_dynamic;
	d->active_known = true;
}

/* RunPreFilterPlugins: plugins disabled in the profile count as skipped;
 * an UnschedulableAndUnresolvable stops at once.  Returns the rejecting
 * plugin, or -1. */
static int run_prefilter(struct oracle_cycle *cy, struct sched_status *st)
{
	const struct sched_profile *prof = cy->prof;
	sched_status_ok(st);
	/* the profile's disabled filters count as skipped */
	assert(cy->o->d->order_prof == prof);
	memcpy(cy->skip, cy->o->d->disabled, sizeof cy->skip);
	/* NodeAffinity's PreFilter restricts or rejects whenever it is
	 * enabled, whether or not its Filter is */
	if (prof->prefilter[PLUGIN_NODE_AFFINITY]) {
		oracle_prefilter_node_affinity(cy, st);
		if (st->code != SCHED_SUCCESS)
			return PLUGIN_NODE_AFFINITY;
		/* the result records NodeAffinity's PreFilter verdict */
		if (cy->skip[PLUGIN_NODE_AFFINITY])
			st->code = SCHED_SKIP;
	}
	/* a PreFilter that is not enabled writes no state and cannot
	 * return Skip: its Filter then runs and errs (run_filters_in_order) */
	if (prof->filter[PLUGIN_NODE_PORTS] && prof->prefilter[PLUGIN_NODE_PORTS])
		oracle_prefilter_ports(cy);
	/* Fit's request is also what nominated pods are measured against */
	oracle_prefilter_fit(cy);
	int rejector = oracle_prefilter_volumes(cy, st);
	if (rejector >= 0)
		return rejector;
	if (prof->filter[PLUGIN_POD_TOPOLOGY_SPREAD] &&
	    prof->prefilter[PLUGIN_POD_TOPOLOGY_SPREAD])
		oracle_prefilter_spread(cy);
	if (prof->filter[PLUGIN_INTER_POD_AFFINITY] &&
	    prof->prefilter[PLUGIN_INTER_POD_AFFINITY])
		oracle_prefilter_interpod(cy);
	if (prof->prefilter[PLUGIN_DYNAMIC_RESOURCES] && oracle_prefilter_dra(cy, st))
		return PLUGIN_DYNAMIC_RESOURCES;
	list_active(cy);
	return -1;
}

int oracle_cycle_prefilter(struct oracle_cycle *cy, struct sched_status *st)
{
	assert(cy && st);
	return run_prefilter(cy, st);
}

/* ----------------------------------------------------------------- Filter */

/* The outcome of the filters on one node. */
struct node_eval {
	bool feasible;
	enum sched_code code;
	int first;                        /* first failing plugin, -1 */
	bool failed[PLUGIN_SLOTS];       /* by plugin id, the padding false */
	uint32_t failed_bits;             /* the same, bit p for plugin p */
	struct sched_status *status;      /* [PLUGIN_FILTERS] or NULL */
	bool clean;                       /* status[p] is Success except where
					   * failed[p] (a previous run on e) */
};

_Static_assert(PLUGIN_COUNT <= 32, "node_eval.failed_bits holds every plugin");

/* One filter's failure into e; returns true when the run stops there. */
static bool note_failure(struct node_eval *e, int id, enum sched_code code, bool all)
{
	e->failed[id] = true;
	e->failed_bits |= 1u << id;
	if (e->first >= 0)
		return false;
	e->first = id;
	e->code = code;
	return !all;
}

/* RunFilterPlugins in a profile's own Filter order (config.h
 * filter_order): the static filters' shortcuts assume they run first, so
 * here each filter runs in turn with a status. */
static bool run_filters_in_order(struct oracle_cycle *cy,
				 const struct oracle_nodeview *v, bool all,
				 struct node_eval *e)
{
	struct sched_status local[PLUGIN_FILTERS];
	struct sched_status *st = e->status ? e->status : local;
	for (int i = 0; i < N_FILTERS; i++)
		oracle_status_ok(&st[filters[i].id]);
	memset(e->failed, 0, sizeof(e->failed));
	e->failed_bits = 0;
	e->first = -1;
	e->code = SCHED_SUCCESS;
	const struct sched_profile *prof = cy->prof;
	for (int k = 0; k < prof->n_filter_order; k++) {
		int id = prof->filter_order[k];
		if (cy->skip[id])
			continue;
		const char *missing = prof->prefilter[id] ? NULL
				      : config_missing_state(id, true);
		if (missing) {
			/* RunFilterPlugins wraps a Filter's Error (§1.4) */
			sched_status_fail(&st[id], SCHED_ERROR,
					  "running \"%s\" filter plugin: %s",
					  config_plugin_name(id), missing);
		} else {
			int i = 0;
			while (i < N_FILTERS && filters[i].id != id)
				i++;
			assert(i < N_FILTERS);
			filters[i].fn(cy, v, &st[id]);
		}
		if (st[id].code != SCHED_SUCCESS &&
		    note_failure(e, id, st[id].code, all))
			break;
	}
	e->feasible = e->first < 0;
	return e->feasible;
}

/* RunFilterPlugins on a view; every filter when all, else up to the
 * first failure.  Returns true when every filter passed.  The per-node
 * fixed cost matters (every node of every cycle comes here): a clean
 * status array has only the last run's failures reset (each status is a
 * separate cache line), and a node the shape's verdict passes skips the
 * static filters' range outright. */
static bool run_filters(struct oracle_cycle *cy, const struct oracle_nodeview *v,
			bool all, struct node_eval *e)
{
	if (cy->custom_order)
		return run_filters_in_order(cy, v, all, e);
	struct sched_status scratch;
	bool clean = e->status && e->clean;
	if (clean) {
		for (uint32_t b = e->failed_bits; b; b &= b - 1)
			oracle_status_ok(&e->status[__builtin_ctz(b)]);
	} else if (e->status) {
		for (int i = 0; i < N_FILTERS; i++)
			oracle_status_ok(&e->status[filters[i].id]);
	}
	e->first = -1;
	e->code = SCHED_SUCCESS;
	if (e->failed_bits) {
		memset(e->failed, 0, sizeof(e->failed));
		e->failed_bits = 0;
	}
	/* without statuses (or with clean ones): the shape's verdict stands
	 * for the static filters when they all pass; without statuses the
	 * checks stand for the others */
	bool quick = !e->status;
	assert(cy->n_active >= 0);   /* PreFilter listed the filters */
	int k = 0;                   /* position in cy->active */
	if (quick || clean) {
		uint8_t verdict = oracle_node_verdict(cy, v->node);
		if (verdict & OSHAPE_STATIC) {
			k = cy->first_dynamic;
		} else if (quick) {
			/* the verdict's fail bits say which static filters fail,
			 * each with UnschedulableAndUnresolvable (shape.c) */
			for (; k < cy->first_dynamic; k++) {
				int i = cy->active[k];
				if ((verdict & filters[i].fail_bit) &&
				    note_failure(e, filters[i].id, SCHED_UAU, all))
					goto done;
			}
		} else {
			/* clean statuses: only the static filters the fail
			 * bits name run, to write their status; NodeAffinity's
			 * without evaluating the pod's terms again */
			for (; k < cy->first_dynamic; k++) {
				int i = cy->active[k];
				int id = filters[i].id;
				if (!(verdict & filters[i].fail_bit))
					continue;
				if (id == PLUGIN_NODE_AFFINITY)
					oracle_filter_node_affinity_failed(cy, v, &e->status[id]);
				else
					filters[i].fn(cy, v, &e->status[id]);
				if (note_failure(e, id, e->status[id].code, all))
					goto done;
			}
		}
	}
	for (; k < cy->n_active; k++) {
		int i = cy->active[k];
		int id = filters[i].id;
		enum sched_code code;
		if (quick && filters[i].check) {
			code = filters[i].check(cy, v);
		} else {
			struct sched_status *st = e->status ? &e->status[id] : &scratch;
			if (quick)
				oracle_status_ok(st);
			filters[i].fn(cy, v, st);
			code = st->code;
		}
		if (code != SCHED_SUCCESS && note_failure(e, id, code, all))
			break;
	}
done:
	e->feasible = e->first < 0;
	return e->feasible;
}

/* Pods nominated to node with priority >= the pod's, other than the pod
 * itself, in nomination order (§1.5). */
static int nominated_for(struct oracle_cycle *cy, int node, int *out)
{
	const struct oracle_ilist *l = &cy->o->d->nodes[node].nominated;
	int n = 0;
	for (int i = 0; i < l->n; i++) {
		int q = l->v[i];
		if (q != cy->pod && cy->c->pods[q].priority >= cy->p->priority)
			out[n++] = q;
	}
	return n;
}

/* Pass 1 of §1.5: the node with the nominated pods q[0..nq) added (a
 * NodeInfo copy) and their AddPod applied to the cycle state, undone
 * afterwards (RemovePod in reverse order, critical paths restored). */
static bool run_pass1(struct oracle_cycle *cy, int node, const int *q, int nq,
		      bool all, struct node_eval *e)
{
	struct oracle_data *d = cy->o->d;
	struct oracle_node *x = &d->nodes[node];
	int64_t *req = d->scratch_req;
	memcpy(req, x->requested, sizeof(int64_t) * (size_t)d->n_res);
	void *saved = oracle_spread_save(cy);
	for (int i = 0; i < nq; i++) {
		const int64_t *qr = &d->pod_req[(size_t)q[i] * d->n_res];
		for (int r = 0; r < d->n_res; r++)
			req[r] = go_add(req[r], qr[r]);
		oracle_spread_update(cy, q[i], node, 1);
		oracle_interpod_update(cy, q[i], node, 1);
		oracle_volumes_update(cy, q[i], node, 1);
	}
	struct oracle_nodeview v1 = {node, req, x->pods.n + nq, q, nq};
	bool ok = run_filters(cy, &v1, all, e);
	for (int i = nq - 1; i >= 0; i--) {
		oracle_volumes_update(cy, q[i], node, -1);
		oracle_interpod_update(cy, q[i], node, -1);
		oracle_spread_update(cy, q[i], node, -1);
	}
	oracle_spread_restore(cy, saved);
	return ok;
}

/* RunFilterPluginsWithNominatedPods: pass 1 with the nominated pods, then
 * pass 2 on the node alone when pods were added and pass 1 passed.  In
 * all mode (explain) pass 2 always runs and a filter has failed when it
 * failed in either pass; the recorded failure is pass 1's if any. */
static bool eval_node(struct oracle_cycle *cy, int node, bool all, struct node_eval *e)
{
	struct oracle_data *d = cy->o->d;
	struct oracle_node *x = &d->nodes[node];
	struct oracle_nodeview v = {node, x->requested, x->pods.n, NULL, 0};
	int *q = NULL;
	int nq = 0;
	if (x->nominated.n) {
		q = arena_array(cy->arena, (size_t)x->nominated.n, sizeof(int));
		nq = nominated_for(cy, node, q);
	}
	if (nq == 0)
		return run_filters(cy, &v, all, e);
	bool ok = run_pass1(cy, node, q, nq, all, e);
	if (!all)
		return ok && run_filters(cy, &v, all, e);
	struct node_eval e2 = {0};
	if (e->status) {
		e2.status = arena_array(cy->arena, PLUGIN_FILTERS, sizeof(struct sched_status));
		e2.clean = true;   /* zeroed: every status Success */
	}
	run_filters(cy, &v, all, &e2);
	for (uint32_t b = e2.failed_bits & ~e->failed_bits; b; b &= b - 1) {
		int id = __builtin_ctz(b);
		e->failed[id] = true;
		if (e->status)
			oracle_status_copy(&e->status[id], &e2.status[id]);
	}
	e->failed_bits |= e2.failed_bits;
	if (e->first < 0) {
		e->first = e2.first;
		e->code = e2.code;
	}
	e->feasible = e->first < 0;
	return e->feasible;
}

int oracle_cycle_filter_node(struct oracle_cycle *cy, int node,
			     struct sched_status *status)
{
	assert(cy && node >= 0 && node < cy->c->n_nodes);
	/* decided without statuses; a failure is evaluated again to fill
	 * the reported plugin's status (evaluation changes no state) */
	struct node_eval e = {0};
	if (eval_node(cy, node, false, &e))
		return -1;
	if (status) {
		struct node_eval full = {0};
		full.status = status;
		eval_node(cy, node, false, &full);
		assert(full.first == e.first);
	}
	return e.first;
}

bool oracle_cycle_resources_only(const struct oracle_cycle *cy)
{
	assert(cy->n_active >= 0);   /* PreFilter listed the filters */
	if (cy->custom_order)
		return false;
	for (int k = cy->first_dynamic; k < cy->n_active; k++)
		if (filters[cy->active[k]].id != PLUGIN_NODE_RESOURCES_FIT)
			return false;
	return true;
}

int oracle_cycle_fit_prefix(const struct oracle_cycle *cy)
{
	assert(cy->n_active >= 0);   /* PreFilter listed the filters */
	if (cy->custom_order)
		return -1;
	int k = cy->first_dynamic;
	if (k < cy->n_active && filters[cy->active[k]].id == PLUGIN_NODE_RESOURCES_FIT)
		k++;
	return k;
}

int oracle_cycle_nominated_sum(struct oracle_cycle *cy, int node, int64_t *sum)
{
	struct oracle_data *d = cy->o->d;
	const struct oracle_ilist *l = &d->nodes[node].nominated;
	int nq = 0;
	/* nominated_for's pods, summed as they come */
	for (int i = 0; i < l->n; i++) {
		int q = l->v[i];
		if (q == cy->pod || cy->c->pods[q].priority < cy->p->priority)
			continue;
		if (nq++ == 0)
			memset(sum, 0, sizeof(int64_t) * (size_t)d->n_res);
		const int64_t *qr = &d->pod_req[(size_t)q * d->n_res];
		for (int r = 0; r < d->n_res; r++)
			sum[r] = go_add(sum[r], qr[r]);
	}
	return nq;
}

bool oracle_cycle_fits_sums(struct oracle_cycle *cy, int node,
			    const int64_t *requested, int n_pods,
			    const int64_t *nominated, int nq)
{
	if (!(oracle_node_verdict(cy, node) & OSHAPE_STATIC))
		return false;
	if (cy->first_dynamic == cy->n_active)
		return true;   /* Fit does not run either */
	struct oracle_data *d = cy->o->d;
	if (nq) {
		/* pass 1 (§1.5): the nominated pods' requests added (Go's
		 * int64 sums: the order of the additions does not matter) */
		int64_t *req = d->scratch_req;
		for (int r = 0; r < d->n_res; r++)
			req[r] = go_add(requested[r], nominated[r]);
		struct oracle_nodeview v1 = {node, req, n_pods + nq, NULL, 0};
		if (oracle_check_fit(cy, &v1) != SCHED_SUCCESS)
			return false;
	}
	struct oracle_nodeview v = {node, requested, n_pods, NULL, 0};
	return oracle_check_fit(cy, &v) == SCHED_SUCCESS;
}

static enum sched_code fits_dynamic(struct oracle_cycle *cy, int node, int from, int to);

/* kube's fast path for one node when no status is recorded: the
 * placement-independent filters from the shape's verdict, then the others
 * as codes.  A node with nominated pods takes the two-pass path.  Returns
 * the first failing filter's code (SCHED_ERROR ends the cycle, as
 * RunFilterPlugins' Error does), SCHED_SUCCESS when the node fits. */
static enum sched_code fits_fast(struct oracle_cycle *cy, int node,
				 struct sched_status *scratch)
{
	if (!(oracle_node_verdict(cy, node) & OSHAPE_STATIC))
		return SCHED_UAU;
	struct oracle_data *d = cy->o->d;
	const struct oracle_node *x = &d->nodes[node];
	if (x->nominated.n) {
		struct node_eval e = {0};
		e.status = scratch;   /* may be NULL */
		eval_node(cy, node, false, &e);
		return e.code;
	}
	return fits_dynamic(cy, node, cy->first_dynamic, cy->n_active);
}

/* The filters cy->active[from..to) on a node without nominated pods, as
 * codes: the first failing one's, SCHED_SUCCESS when none fails. */
static enum sched_code fits_dynamic(struct oracle_cycle *cy, int node, int from, int to)
{
	const struct oracle_node *x = &cy->o->d->nodes[node];
	struct oracle_nodeview v = {node, x->requested, x->pods.n, NULL, 0};
	for (int k = from; k < to; k++) {
		int i = cy->active[k];
		enum sched_code code;
		if (filters[i].check) {
			code = filters[i].check(cy, &v);
		} else {
			/* a filter without a check (the volume plugins, which
			 * skip every pod without claims) runs with a status */
			struct sched_status st;
			oracle_status_ok(&st);
			filters[i].fn(cy, &v, &st);
			code = st.code;
		}
		if (code != SCHED_SUCCESS)
			return code;
	}
	return SCHED_SUCCESS;
}

static void reverse_ints(int *v, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		int x = v[i];
		v[i] = v[j];
		v[j] = x;
	}
}

/* Two ascending runs v[0..at) and v[at..n), the second wholly below the
 * first (a walk that wrapped around a node order ascending by index), or
 * one: put in order by rotating; false when v is not so. */
static bool rotate_runs(int *v, int n)
{
	int at = 0;
	for (int i = 1; i < n; i++) {
		if (v[i] > v[i - 1])
			continue;
		if (at)
			return false;
		at = i;
	}
	if (!at)
		return true;
	if (v[n - 1] > v[0])
		return false;
	reverse_ints(v, at);
	reverse_ints(v + at, n - at);
	reverse_ints(v, n);
	return true;
}

/* Distinct node indexes ascending: insertion sort when short; a list in
 * order already or as two rotated runs (the sampled walk's, when the
 * node tree order ascends by index, as for nodes listed zone by zone in
 * turn) rotated in place; else through a bitmap over the nodes (bits:
 * the oracle's, kept all zero): O(n + nodes / 64), a few words per 64
 * nodes. */
static void sort_nodes(int *v, int n, uint64_t *bits)
{
	if (n >= 48 && rotate_runs(v, n))
		return;
	if (n < 48) {
		for (int i = 1; i < n; i++) {
			int x = v[i], j = i;
			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return;
	}
	int max = 0;
	for (int i = 0; i < n; i++) {
		bits[v[i] >> 6] |= 1ULL << (v[i] & 63);
		if (v[i] > max)
			max = v[i];
	}
	int k = 0;
	for (int w = 0; w <= max >> 6; w++) {
		for (uint64_t x = bits[w]; x; x &= x - 1)
			v[k++] = w * 64 + __builtin_ctzll(x);
		bits[w] = 0;
	}
	assert(k == n);   /* the indexes were distinct */
}

/* --------------------------------------------------------------- results */

/* failed[0..PLUGIN_COUNT) as a bit set (bit p for plugin p), eight bools
 * at a time: multiplying a little-endian word of 0/1 bytes by
 * 0x0102040810204080 gathers byte i's bit into bit 56 + i (no two
 * partial products meet in the top byte), so each word costs a load, a
 * multiply and a shift. */
static uint32_t failed_bits(const bool *failed)
{
	_Static_assert(sizeof(bool) == 1, "bools are bytes");
	_Static_assert(PLUGIN_COUNT <= 32, "the set fits 32 bits");
	uint32_t m = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* three whole 8-byte words (a constant-size copy, inlined; written
	 * out, as the compiler does not unroll the loop): the sets are
	 * PLUGIN_SLOTS long, their padding false; the multiply gathers each
	 * byte's low bit into the top byte */
	_Static_assert(PLUGIN_SLOTS == 24, "failed[] is three words");
	const uint64_t gather = 0x0102040810204080ULL;
	uint64_t w[3];
	memcpy(w, failed, sizeof w);
	m = (uint32_t)((w[0] * gather) >> 56) |
	    (uint32_t)((w[1] * gather) >> 56) << 8 |
	    (uint32_t)((w[2] * gather) >> 56) << 16;
#else
	for (int i = 0; i < PLUGIN_COUNT; i++)
		m |= (uint32_t)failed[i] << i;
#endif
	return m;
}

/* A verdict back to "nothing failed".  Only the statuses of failed
 * plugins (and the reported one) are reset: both engines write a failure
 * into status[p] only together with failed[p] (the model may leave Skip
 * in a passing plugin's status, which reads as passing), and every
 * reader looks at failed or reported plugins only.  Each status is 3 KB
 * apart: touching all of them for 5,000 nodes dominated a failed cycle. */
static void verdict_clear(struct sched_node_verdict *v, enum sched_code code)
{
	for (uint32_t b = failed_bits(v->failed); b; b &= b - 1)
		oracle_status_ok(&v->status[__builtin_ctz(b)]);
	if (v->rejected_by >= 0 && v->rejected_by < PLUGIN_FILTERS)
		oracle_status_ok(&v->status[v->rejected_by]);
	v->feasible = false;
	v->code = code;
	v->rejected_by = -1;
	memset(v->failed, 0, sizeof(v->failed));
}

/* Any node's entries in the cycle's result may now be set. */
static void mark_all_dirty(struct oracle_data *d)
{
	for (int i = 0; i < d->n_dirty; i++)
		d->is_dirty[d->dirty[i]] = false;
	d->n_dirty = -1;
}

/* A node whose entries in the cycle's result may now be set. */
static void mark_dirty(struct oracle_data *d, int node)
{
	if (d->n_dirty < 0 || d->is_dirty[node])
		return;
	d->is_dirty[node] = true;
	d->dirty[d->n_dirty++] = node;
}

/*
 * Nothing decided yet (model/model.h's conventions).  A sampled cycle
 * (sampled: not all mode) clears the verdicts itself: only those the
 * last sampled cycle on r marked dirty when it was the last to write r
 * (r->partial_owner still names this oracle), else every one.  All mode leaves the verdicts to find_feasible and
 * prefilter_reject, which write every node's.
 */
static void result_reset(struct oracle_data *d, struct sched_cycle_result *r,
			 int pod, bool sampled)
{
	if (!d->dirty) {
		d->dirty = xmalloc(sizeof *d->dirty * ((size_t)d->n_nodes + 1));
		d->is_dirty = xcalloc((size_t)d->n_nodes + 1, sizeof *d->is_dirty);
		d->n_dirty = -1;
	}
	if (sampled && r->partial_owner == d && d->dirty_of == r &&
	    d->n_dirty >= 0) {
		for (int i = 0; i < d->n_dirty; i++) {
			verdict_clear(&r->verdicts[d->dirty[i]], SCHED_SUCCESS);
			d->is_dirty[d->dirty[i]] = false;
		}
		if (d->dirty_scored) {
			sched_cycle_result_clear_nodes(r, pod, d->dirty, d->n_dirty);
		} else {
			/* no score nor total was written: the head and the
			 * PreFilterResult flags are all there is to reset */
			sched_cycle_result_clear_nodes(r, pod, NULL, 0);
			for (int i = 0; i < d->n_dirty; i++)
				r->in_prefilter_result[d->dirty[i]] = true;
		}
	} else {
		for (int n = 0; sampled && n < r->n_nodes; n++)
			verdict_clear(&r->verdicts[n], SCHED_SUCCESS);
		mark_all_dirty(d);
		sched_cycle_result_clear(r, pod);
	}
	d->dirty_of = sampled ? r : NULL;
	d->n_dirty = sampled ? 0 : -1;
	d->dirty_scored = false;
	r->partial_owner = sampled ? d : NULL;
}

/* FitError.Error(): "0/N nodes are available: <histogram>." where the
 * histogram is "count reason" of every rejected node's status, sorted as
 * strings (fit_message.c); a PreFilter rejection replaces it with its
 * reasons joined by ", ". */
static char *fit_error(struct oracle_cycle *cy, const struct sched_status *pre,
		       const struct sched_status *const *node_status, int n_status,
		       const char *absent_reason)
{
	int n_all = cy->c->n_nodes;
	if (pre) {
		size_t need = 64;
		for (int i = 0; i < pre->n_reasons; i++)
			need += strlen(sched_status_reason(pre, i)) + 2;
		char *msg = xmalloc(need);
		size_t len = (size_t)snprintf(msg, need, "0/%d nodes are available:", n_all);
		for (int i = 0; i < pre->n_reasons; i++)
			len += (size_t)snprintf(msg + len, need - len, "%s%s", i ? ", " : " ",
						sched_status_reason(pre, i));
		if (pre->n_reasons)
			snprintf(msg + len, need - len, ".");
		return msg;
	}
	struct oracle_histo h;
	oracle_histo_init(&h);
	for (int i = 0; i < n_status; i++)
		for (int k = 0; k < node_status[i]->n_reasons; k++)
			oracle_histo_add(&h, sched_status_reason(node_status[i], k), 1);
	/* v1.34 (FitError.Error): every node without a status of its own -
	 * outside the PreFilterResult - counts with the absent status */
	if (absent_reason && n_all > n_status)
		oracle_histo_add(&h, absent_reason, n_all - n_status);
	char *msg = oracle_histo_message(&h, n_all);
	oracle_histo_release(&h);
	return msg;
}

/* ---------------------------------------------------------------- scoring */

static void cycle_error(struct sched_cycle_result *r, const char *why);

/* prioritizeNodes: every enabled score plugin on the feasible nodes;
 * weighted scores into r (when given) and totals into total[].  Returns
 * false, with the cycle's Error in r, when a normalized score lies
 * outside [0, 100]: RunScorePlugins checks node by node, each node's
 * plugins in Score order (in parallel: kso names the first feasible
 * node's); only Go's int64 wrap-around reaches it with valid input. */
static bool score_nodes(struct oracle_cycle *cy, const int *f, int n,
			int64_t *total, struct sched_cycle_result *r)
{
	int64_t *s = cy->o->d->scratch_score;
	int bad_i = n, bad_id = 0;
	int64_t bad_score = 0;
	for (int i = 0; i < n; i++)
		total[i] = 0;
	const struct sched_given_scores *g = r ? cy->o->given_scores : NULL;
	uint32_t given = sched_given_cover(g, f, n, cy->c->n_nodes);
	for (int k = 0; k < N_SCORERS; k++) {
		int id = scorers[k].id;
		if (!cy->prof->score[id])
			continue;
		/* a scorer that succeeds writes every s[i]; scores given
		 * for every node (o->given_scores) are the scorer's own */
		enum sched_code code = SCHED_SUCCESS;
		if (given >> id & 1)
			for (int i = 0; i < n; i++)
				s[i] = g->raw[(size_t)f[i] * PLUGIN_COUNT + (size_t)id];
		else if (cy->score_mult && (id == PLUGIN_NODE_RESOURCES_FIT ||
					    id == PLUGIN_BALANCED_ALLOCATION))
			/* one node per class: the class's kept raw score */
			code = oracle_nclass_score(cy, id == PLUGIN_BALANCED_ALLOCATION,
						   scorers[k].fn, f, n, s);
		else
			code = scorers[k].fn(cy, f, n, s);
		if (code == SCHED_SKIP) {
			/* without a PreScore nothing skips: Score gives 0 */
			if (r && cy->prof->prescore[id])
				r->score_skipped[id] = true;
			continue;
		}
		int64_t w = cy->prof->weight[id] ? cy->prof->weight[id] : 1;
		if (r)
			cy->o->d->dirty_scored = true;
		/* one pass over the nodes: the totals, the result's scores,
		 * and the node first in f with an invalid score, the first
		 * plugin's for that node (only nodes before the one found so
		 * far: once found here, i < bad_i holds for no later i) */
		int64_t *rs = r ? r->scores : NULL;
		if (r)
			r->scores_written = true;
		for (int i = 0; i < n; i++) {
			int64_t x = s[i];
			/* outside [0, 100]: a negative x is a huge unsigned */
			if ((uint64_t)x > 100 && i < bad_i) {
				bad_i = i;
				bad_id = id;
				bad_score = x;
			}
			total[i] += x * w;
			if (rs)
				rs[(size_t)f[i] * PLUGIN_COUNT + (size_t)id] = x * w;
		}
	}
	if (bad_i == n)
		return true;
	if (r) {   /* nothing was scored: an Error cycle carries no scores */
		memset(r->scores, 0, sizeof *r->scores * (size_t)r->n_nodes * PLUGIN_COUNT);
		memset(r->score_skipped, 0, PLUGIN_COUNT * sizeof *r->score_skipped);
	}
	char why[SCHED_STATUS_TEXT];
	snprintf(why, sizeof why, "applying score defaultWeights on Score "
		 "plugins: plugin \"%s\" returns an invalid score %lld, it "
		 "should in the range of [0, 100] after normalizing",
		 config_plugin_name(bad_id), (long long)bad_score);
	cycle_error(r, why);
	return false;
}

/* --------------------------------------------------------------- the cycle */

/* The per-node buffers one cycle at a time uses, allocated once. */
static void scratch_init(struct oracle_data *d)
{
	if (d->scratch_nodes)
		return;
	size_t n = (size_t)d->n_nodes + 1;
	d->scratch_nodes = xmalloc(sizeof(int) * n);
	d->scratch_viable = xmalloc(sizeof(int) * n);
	d->scratch_total = xmalloc(sizeof(int64_t) * n);
	d->scratch_cand = xmalloc(sizeof(int) * n);
	d->scratch_score = xmalloc(sizeof(int64_t) * n);
	d->scratch_rejected = xmalloc(sizeof(*d->scratch_rejected) * (n + 1));
	d->scratch_bits = xcalloc(n / 64 + 1, sizeof(uint64_t));
}

static void record(struct oracle_data *d, struct sched_cycle_result *r,
		   int node, const struct node_eval *e)
{
	if (!r)
		return;
	mark_dirty(d, node);
	struct sched_node_verdict *v = &r->verdicts[node];
	v->feasible = e->feasible;
	v->code = e->code;
	v->rejected_by = e->first;
	memcpy(v->failed, e->failed, sizeof(v->failed));
}

struct cycle_run {
	int *feasible;
	int n_feasible;
	/* node classes answer for their nodes (classes_usable); feasible[i]
	 * is then scored as d->nc->reps[d->nc->frep[i]] (walk_classes) */
	bool classes;
	const struct sched_status **rejected;   /* recorded status per rejected node */
	int n_rejected;
	int nominated_ok;                        /* feasible nominated node, or -1 */
	int error_node;                          /* a Filter's Error aborted the
						  * cycle at this node, or -1 */
	struct sched_status *error;              /* that Error (error_node >= 0):
						  * the caller's, so that a run's
						  * start zeroes no status text */
	struct sched_status *status;             /* [PLUGIN_FILTERS] when r is NULL */
};

/* A node whose verdict r already holds (o->given): feasible or rejected
 * list as filter_one would fill them from the same verdict.  A given
 * verdict is never an Error (enum/verdict_reuse.c keeps none).  Inline:
 * the enumerator's walk takes it for nearly every node. */
static inline bool given_one(struct oracle_cycle *cy, struct sched_cycle_result *r,
			     struct cycle_run *run, int node, bool candidate)
{
	struct sched_node_verdict *v = &r->verdicts[node];
	assert(v->code != SCHED_ERROR && cy->o->all_nodes);
	if (v->feasible && candidate)
		run->feasible[run->n_feasible++] = node;
	else if (!v->feasible && !cy->o->quiet)
		run->rejected[run->n_rejected++] = &v->status[v->rejected_by];
	return v->feasible;
}

/* One node: filters, verdict, feasible or rejected list. */
static bool filter_one(struct oracle_cycle *cy, struct sched_cycle_result *r,
		       struct cycle_run *run, int node, bool candidate)
{
	if (r && cy->o->given && cy->o->given[node])
		return given_one(cy, r, run, node, candidate);
	struct node_eval e = {0};
	/* quiet: the codes alone, as without a result (run->status NULL) */
	bool text = r && !cy->o->quiet;
	e.status = text ? r->verdicts[node].status : run->status;
	if (r) {
		/* a verdict already recorded this cycle (the nominated node
		 * examined again) is cleared first; then every status is
		 * Success.  A sampled cycle's reset left every verdict it does
		 * not list as dirty clear already. */
		struct oracle_data *d = cy->o->d;
		if (d->n_dirty < 0 || d->dirty_of != r || d->is_dirty[node])
			verdict_clear(&r->verdicts[node], SCHED_SUCCESS);
		e.clean = text;
	}
	bool ok = eval_node(cy, node, cy->o->all_nodes, &e);
	record(cy->o->d, r, node, &e);
	if (e.code == SCHED_ERROR) {
		/* RunFilterPlugins' Error ends the cycle (§1.4): keep it */
		struct sched_status *st = e.status;
		if (!st) {
			st = arena_array(cy->arena, PLUGIN_FILTERS, sizeof *st);
			struct node_eval again = {0};
			again.status = st;
			eval_node(cy, node, cy->o->all_nodes, &again);
		}
		*run->error = st[e.first];
		run->error_node = node;
		return false;
	}
	if (ok && candidate) {
		run->feasible[run->n_feasible++] = node;
	} else if (!ok && text) {
		/* the FitError message is only written into a result */
		run->rejected[run->n_rejected++] = &e.status[e.first];
	}
	return ok;
}

/* May node classes (node_class.c) answer for their nodes in this
 * sampled cycle without a result?  Every filter that runs and every
 * score must read only what a class keys on: not the volume plugins nor
 * DynamicResources (the node's volumes, CSINode, ResourceSlices), not
 * SelectorSpread (its zone sums count the nodes themselves), not a custom
 * filter order (every filter evaluated, statuses kept), and the pod must
 * read no node's name nor a unique key's value. */
static bool classes_usable(struct oracle_cycle *cy)
{
	if (cy->o->no_node_classes || cy->custom_order ||
	    cy->prof->score[PLUGIN_SELECTOR_SPREAD])
		return false;
	for (int k = 0; k < cy->n_active; k++) {
		switch (filters[cy->active[k]].id) {
		case PLUGIN_NODE_UNSCHEDULABLE:
		case PLUGIN_NODE_NAME:
		case PLUGIN_TAINT_TOLERATION:
		case PLUGIN_NODE_AFFINITY:
		case PLUGIN_NODE_PORTS:
		case PLUGIN_NODE_RESOURCES_FIT:
		case PLUGIN_POD_TOPOLOGY_SPREAD:
		case PLUGIN_INTER_POD_AFFINITY:
			continue;
		default:
			return false;
		}
	}
	return oracle_nclass_pod_ok(cy);
}

/* A new cycle's epoch for the class memos (all stale at once). */
static void classes_begin(struct oracle_nclasses *nc)
{
	if (++nc->epoch == 0) {
		for (int c = 0; c < nc->n_cls; c++)
			nc->hot[c].rep_stamp = 0;
		nc->epoch = 1;
	}
}

/* The class's index in reps, its first feasible node n made its
 * representative when it has none this cycle. */
static int class_rep(struct oracle_nclasses *nc, int c, int n, int *nr)
{
	struct oracle_nclass_hot *m = &nc->hot[c];
	if (m->rep_stamp != nc->epoch) {
		m->rep_stamp = nc->epoch;
		m->rep = *nr;
		nc->reps[*nr] = n;
		nc->mult[(*nr)++] = 0;
		/* the scores read the class's memo (node_class.c) once the
		 * walk is done: its lines asked for now, while the walk goes
		 * on, arrive by then (a few hundred classes a cycle at
		 * 50,000 nodes, each a cold miss otherwise) */
		const char *p = (const char *)&nc->memo[c];
		for (size_t k = 0; k < sizeof nc->memo[c]; k += 64)
			__builtin_prefetch(p + k);
	}
	return m->rep;
}

/* walk_classes' first meeting of class c this cycle at node n, one
 * without nominated pods: the class's Filter code - the prefix's
 * (oracle_cycle_fit_prefix) kept from an earlier cycle of the same
 * filter key xkey, then the filters after it, active[rest..) - and the
 * class's entry in nc->walk, which the walk's fast path reads from then
 * on: its index in reps when the code is Success, else NC_WALK_FAIL. */
static enum sched_code class_code(struct oracle_cycle *cy, struct cycle_run *run,
				  int c, int n, uint32_t xkey, int rest, int *nr)
{
	struct oracle_nclasses *nc = cy->o->d->nc;
	struct oracle_nclass_hot *m = &nc->hot[c];
	enum sched_code code;
	if (!xkey) {
		code = fits_fast(cy, n, run->status);
	} else {
		if (m->xkey == xkey) {
			code = (enum sched_code)m->xcode;
		} else {
			code = !(oracle_node_verdict(cy, n) & OSHAPE_STATIC)
				? SCHED_UAU
				: fits_dynamic(cy, n, cy->first_dynamic, rest);
			m->xkey = xkey;
			m->xcode = (uint8_t)code;
		}
		if (code == SCHED_SUCCESS && rest < cy->n_active)
			code = fits_dynamic(cy, n, rest, cy->n_active);
	}
	if (code == SCHED_ERROR)
		return code;
	nc->walk[c + 1] = code == SCHED_SUCCESS ? class_rep(nc, c, n, nr) : NC_WALK_FAIL;
	GROW(nc->walked, (size_t)nc->n_walked + 1, nc->cap_walked);
	nc->walked[nc->n_walked++] = c;
	return code;
}

/* walk_classes' fast path over cand[j..to): nodes whose class the walk
 * has met this cycle (walk[class + 1] not NC_WALK_UNKNOWN), the feasible
 * ones appended to feasible (*nf of them, frep[i] their class's index
 * in reps, mult counting them), until a node that needs the slow path,
 * to, or want feasible nodes.  Returns the position reached (the slow
 * node's).  A function of its own so that its dozen values stay in
 * registers (the walk's body at 50,000 nodes is most of a cycle). */
static int walk_run(const int *cand, int j, int to, const int *node_class,
		    const int32_t *walk, int *mult, int *frep, int *feasible,
		    int *nf_io, int want)
{
	int nf = *nf_io;
	for (; j < to; j++) {
		int n = cand[j];
		int r = walk[node_class[n] + 1];
		if (r < 0) {
			if (r == NC_WALK_FAIL)
				continue;
			break;
		}
		mult[r]++;
		frep[nf] = r;
		feasible[nf++] = n;
		if (nf == want) {
			j++;
			break;
		}
	}
	*nf_io = nf;
	return j;
}

/* find_feasible's walk (from cand[at], until want nodes are feasible)
 * with node classes: fits_fast computed on the first node of each class
 * this cycle and reused for the others; a node with nominated pods is
 * filtered itself (§1.5: its first pass adds them).  Each feasible
 * node's class joins the scored representatives (nc->reps, the first
 * feasible node of each class in walk order, nc->mult how many feasible
 * nodes each stands for) and nc->frep[i] is feasible[i]'s.  The walk is
 * the candidates' range from at, wrapping once: two straight runs, where
 * a node of a class met before costs a load of its class and of the
 * class's nc->walk entry (a node with nominated pods has no class kept,
 * node_class.c, so it takes the slow path each time).  Returns the nodes
 * processed; *nom_seen says whether nom was one of them. */
static int walk_classes(struct oracle_cycle *cy, struct cycle_run *run,
			const int *cand, int n_cand, int at, int want, int nom,
			bool *nom_seen)
{
	struct oracle *o = cy->o;
	struct oracle_nclasses *nc = o->d->nc;
	/* a code kept from an earlier cycle of the same filter key */
	const uint32_t xkey = oracle_nclass_filter_key(cy);
	const int rest = oracle_cycle_fit_prefix(cy);
	/* the arrays in locals (the per-node path is a few loads): only a
	 * new class moves nc->walk */
	const int *node_class = nc->node_class;
	const int32_t *walk = nc->walk;
	int *mult = nc->mult, *frep = nc->frep;
	int *feasible = run->feasible;
	int nf = run->n_feasible, nr = 0, i = 0;
	assert(nc->n_walked == 0);
	for (int seg = 0; seg < 2 && nf < want; seg++) {
		int from = seg ? 0 : at, to = seg ? at : n_cand;
		int j = from;
		for (; j < to && nf < want; j++) {
			j = walk_run(cand, j, to, node_class, walk, mult, frep,
				     feasible, &nf, want);
			if (j == to || nf == want)
				break;
			/* a class not met yet this cycle, not known, or a
			 * node with nominated pods */
			int n = cand[j];
			int c = oracle_nclass_of(o, n);
			walk = nc->walk;
			enum sched_code code;
			if (nc->nominated[n])
				code = fits_fast(cy, n, run->status);
			else if (walk[c + 1] != NC_WALK_UNKNOWN)
				code = walk[c + 1] >= 0 ? SCHED_SUCCESS : SCHED_UNSCHEDULABLE;
			else
				code = class_code(cy, run, c, n, xkey, rest, &nr);
			walk = nc->walk;
			if (code != SCHED_SUCCESS) {
				if (code == SCHED_ERROR) {
					run->error_node = n;
					i += j - from + 1;
					goto out;
				}
				continue;
			}
			int r = class_rep(nc, c, n, &nr);
			mult[r]++;
			frep[nf] = r;
			feasible[nf++] = n;
		}
		i += j - from;
	}
out:
	/* the walk entries back to unknown for the next cycle */
	for (int k = 0; k < nc->n_walked; k++)
		nc->walk[nc->walked[k] + 1] = NC_WALK_UNKNOWN;
	nc->n_walked = 0;
	run->n_feasible = nf;
	nc->n_reps = nr;
	/* the processed nodes are cand[at], ..., i of them wrapping */
	bool seen = false;
	for (int k = 0, j = at; nom >= 0 && k < i && !seen; k++, j = j + 1 == n_cand ? 0 : j + 1)
		seen = cand[j] == nom;
	*nom_seen = seen;
	return i;
}

/* All mode (explain, like the model): every node is filtered, the
 * nominated node even outside the PreFilterResult; then a feasible
 * nominated node is the answer.  Fast mode (kube): the nominated node
 * first, then nodes in node-tree order from nextStartNodeIndex until
 * numFeasibleNodesToFind are found. */
static void find_feasible(struct oracle_cycle *cy, struct sched_cycle_result *r,
			  struct cycle_run *run)
{
	struct oracle *o = cy->o;
	struct oracle_data *d = o->d;
	int n_all = d->n_nodes;
	int nom = o->snap.nominated[cy->pod];
	run->nominated_ok = -1;
	run->error_node = -1;
	run->feasible = d->scratch_nodes;
	/* only a result records rejections (the FitError message) */
	run->rejected = r ? d->scratch_rejected : NULL;
	/* a result keeps the statuses in its verdicts; all mode without a
	 * result in this array; otherwise none is kept: NULL makes
	 * run_filters use its own scratch */
	run->status = !r && o->all_nodes
		? arena_array(cy->arena, PLUGIN_FILTERS, sizeof(struct sched_status))
		: NULL;
	if (o->all_nodes) {
		/* the given verdicts are read here, without filter_one's
		 * call: most nodes of the enumerator's cycles have one */
		const bool *given = r ? o->given : NULL;
		for (int n = 0; n < n_all; n++) {
			bool in = !cy->na_has_result || cy->na_allowed[n];
			if (!in && r)
				r->in_prefilter_result[n] = false;
			if (!in && n != nom) {
				if (r)
					verdict_clear(&r->verdicts[n], SCHED_UAU);
				continue;
			}
			bool ok = given && given[n] ? given_one(cy, r, run, n, in)
						    : filter_one(cy, r, run, n, in);
			if (ok && n == nom)
				run->nominated_ok = nom;
			if (run->error_node >= 0) {
				/* the nodes after it get no verdict */
				for (int m = n + 1; r && m < n_all; m++)
					verdict_clear(&r->verdicts[m], SCHED_SUCCESS);
				return;
			}
		}
		return;
	}
	const struct sched_status *nom_status = NULL;
	bool nom_failed = false;
	if (nom >= 0) {
		if (filter_one(cy, r, run, nom, false)) {
			run->nominated_ok = nom;
			return;
		}
		if (run->error_node >= 0)
			return;
		/* its status stays in the diagnosis unless the loop below
		 * examines the node again (then that status replaces it) */
		nom_status = run->n_rejected ? run->rejected[0] : NULL;
		run->n_rejected = 0;
		nom_failed = true;
	}
	bool nom_seen = false;
	/* without a PreFilterResult every node is a candidate, in tree order */
	const int *cand = d->order;
	int n_cand = n_all;
	if (cy->na_has_result) {
		int *list = d->scratch_cand;
		n_cand = 0;
		for (int i = 0; i < n_all; i++) {
			int n = d->order[i];
			if (!cy->na_allowed[n]) {
				if (r) {
					mark_dirty(d, n);
					r->in_prefilter_result[n] = false;
					if (n != nom)
						verdict_clear(&r->verdicts[n], SCHED_UAU);
				}
				continue;
			}
			list[n_cand++] = n;
		}
		cand = list;
	}
	run->classes = !r && !cy->custom_order && classes_usable(cy);
	if (run->classes)
		classes_begin(oracle_nclasses(o));
	int want = oracle_num_to_find(cy->c, cy->prof, n_cand);
	int start = n_cand ? o->next_start % n_cand : 0;
	int processed = 0;
	int at = start;
	if (run->classes) {
		processed = walk_classes(cy, run, cand, n_cand, start, want, nom, &nom_seen);
		if (run->error_node >= 0)
			return;
	}
	for (int i = 0; !run->classes && i < n_cand && run->n_feasible < want; i++) {
		int n = cand[at];
		if (++at == n_cand)
			at = 0;
		nom_seen = nom_seen || n == nom;
		if (r || cy->custom_order) {
			filter_one(cy, r, run, n, true);
		} else {
			enum sched_code code = fits_fast(cy, n, run->status);
			if (code == SCHED_SUCCESS)
				run->feasible[run->n_feasible++] = n;
			else if (code == SCHED_ERROR)
				run->error_node = n;   /* its status: a cycle into r */
		}
		processed++;
		if (run->error_node >= 0)
			return;
	}
	if (nom_status && !nom_seen)
		run->rejected[run->n_rejected++] = nom_status;
	/* kube counts len(diagnosis.NodeToStatusMap), where the nominated
	 * node's status stays although the loop never reached it */
	if (nom_failed && !nom_seen)
		processed++;
	if (n_all)
		o->next_start = (o->next_start + processed) % n_all;
}

/* The k-th smallest of the distinct node indexes v[0..n) through a
 * bitmap over the nodes: O(n + nodes/64), no sort. */
static int kth_node(struct oracle_data *d, const int *v, int n, int k)
{
	uint64_t *bits = d->scratch_bits;
	for (int i = 0; i < n; i++)
		bits[v[i] >> 6] |= 1ULL << (v[i] & 63);
	int found = -1;
	for (int w = 0; found < 0; w++) {
		int c = __builtin_popcountll(bits[w]);
		if (k >= c) {
			k -= c;
			continue;
		}
		uint64_t x = bits[w];
		for (; k > 0; k--)
			x &= x - 1;
		found = w * 64 + __builtin_ctzll(x);
	}
	for (int i = 0; i < n; i++)
		bits[v[i] >> 6] = 0;
	return found;
}

/* selectHost: a seeded random pick among the viable nodes in node order;
 * sorted says viable already is in node order.  A loop that picks by
 * itself (o->viable_as_set) takes no pick from an unsorted list: the
 * first node stands for it, the draw made all the same so that the
 * generator's state is the same. */
static int select_host(struct oracle *o, const int *viable, int n, bool sorted)
{
	if (n == 1)
		return viable[0];
	int k = (int)(oracle_rand(o) % (uint64_t)n);
	if (!sorted && o->viable_as_set)
		return viable[0];
	return sorted ? viable[k] : kth_node(o->d, viable, n, k);
}

/* PreFilter rejected: every node gets that status, attributed to the
 * plugin; no Filter runs. */
static void prefilter_reject(struct oracle_cycle *cy, struct sched_cycle_result *r,
			     const struct sched_status *pre, int rejector)
{
	oracle_status_copy(&r->prefilter, pre);
	mark_all_dirty(cy->o->d);
	for (int n = 0; n < cy->c->n_nodes; n++) {
		struct sched_node_verdict *v = &r->verdicts[n];
		verdict_clear(v, pre->code);
		v->rejected_by = rejector;
		v->failed[rejector] = true;
		oracle_status_copy(&v->status[rejector], pre);
	}
	r->code = SCHED_UNSCHEDULABLE;
	if (!cy->o->quiet)
		r->message = fit_error(cy, pre, NULL, 0, NULL);
}

/* The cycle ends with an Error: why is its message. */
static void cycle_error(struct sched_cycle_result *r, const char *why)
{
	if (!r)
		return;
	oracle_status_ok(&r->error);
	sched_status_add(&r->error, SCHED_ERROR, why);
	r->code = SCHED_ERROR;
	r->n_viable = 0;
	r->message = xstrdup(why);
}

/* NodeAffinity's PreScore parses the preferred terms up front; one that
 * does not parse fails the cycle with an Error (reference §2.5), before
 * any Score runs, whether or not its Score is enabled. */
static bool prescore_error(struct oracle_cycle *cy, struct sched_cycle_result *r)
{
	char inner[SCHED_STATUS_TEXT];
	if (!cy->prof->prescore[PLUGIN_NODE_AFFINITY] ||
	    !oracle_preferred_parse_error(cy->p->node_preferred,
					 cy->p->n_node_preferred,
					 inner, sizeof inner))
		return false;
	/* RunPreScorePlugins wraps the plugin's error */
	char why[SCHED_STATUS_TEXT + 64];
	snprintf(why, sizeof why, "running PreScore plugin \"NodeAffinity\": %s",
		 inner);
	cycle_error(r, why);
	return true;
}

/* RunScorePlugins' Error (§1.6): the first Score plugin, in Score order,
 * that runs without its PreScore and cannot do without its state, or
 * NodeAffinity's Score doing its PreScore's parse itself.  Neither
 * depends on the node, so the first node's error is every node's. */
static bool score_error(struct oracle_cycle *cy, struct sched_cycle_result *r)
{
	const struct sched_profile *prof = cy->prof;
	for (int k = 0; k < N_SCORERS; k++) {
		int id = scorers[k].id;
		if (!prof->score[id] || prof->prescore[id])
			continue;
		char inner[SCHED_STATUS_TEXT];
		const char *missing = config_missing_state(id, false);
		if (missing)
			snprintf(inner, sizeof inner, "%s", missing);
		else if (id != PLUGIN_NODE_AFFINITY ||
			 !oracle_preferred_parse_error(cy->p->node_preferred,
						      cy->p->n_node_preferred,
						      inner, sizeof inner))
			continue;
		char why[SCHED_STATUS_TEXT + 128];
		snprintf(why, sizeof why, "running Score plugins: plugin \"%s\" "
			 "failed with: %s", config_plugin_name(id), inner);
		cycle_error(r, why);
		return true;
	}
	return false;
}

/* What a cycle without a result decided (oracle_loop_cycle): the viable
 * nodes (in d->scratch_viable, in node order) and whether the
 * nominated node's fast path chose. */
struct cycle_decision {
	int n_viable;
	int nominated;
};

/* Scoring and the viable set over run's feasible nodes (node order). */
static int choose(struct oracle_cycle *cy, struct sched_cycle_result *r,
		  struct cycle_run *run, struct cycle_decision *dec)
{
	int nf = run->n_feasible;
	struct oracle_data *d = cy->o->d;
	int *viable = d->scratch_viable;
	int n_viable = 0;
	if (run->nominated_ok >= 0) {
		viable[n_viable++] = run->nominated_ok;
		if (r)
			r->nominated_node = run->nominated_ok;
	} else if (nf == 1) {
		viable[n_viable++] = run->feasible[0];
	} else if (!config_has_score(cy->prof)) {
		/* prioritizeNodes without Score plugins: no PreScore, every
		 * node 1, so every node is viable (node order already) */
		for (int i = 0; i < nf; i++) {
			viable[n_viable++] = run->feasible[i];
			if (r)
				r->total[run->feasible[i]] = 1;
		}
		if (r) {
			d->dirty_scored = true;
			r->scored = true;
		}
	} else if (prescore_error(cy, r) || score_error(cy, r)) {
		return -1;
	} else {
		int64_t *total = d->scratch_total;
		/* with classes, one node per class is scored: total[] is then
		 * per class (frep), every feasible node taking its class's */
		const int *scored = run->feasible;
		int n_scored = nf;
		const int *rep_of = NULL;
		if (run->classes) {
			n_scored = d->nc->n_reps;
			scored = d->nc->reps;
			rep_of = d->nc->frep;
			cy->score_mult = d->nc->mult;
		}
		bool scored_ok = score_nodes(cy, scored, n_scored, total, r);
		cy->score_mult = NULL;
		if (!scored_ok)
			return -1;
		int64_t best = INT64_MIN;
		if (r) {
			d->dirty_scored = true;
			r->scores_written = true;
		}
		if (rep_of) {
			/* by classes (never into a result): the best total
			 * among the classes, then the feasible nodes of the
			 * best ones in feasible order, as the per-node loop
			 * lists them */
			assert(!r);
			for (int k = 0; k < n_scored; k++)
				best = total[k] > best ? total[k] : best;
			uint8_t *top = arena_array(cy->arena, (size_t)n_scored, 1);
			for (int k = 0; k < n_scored; k++)
				top[k] = total[k] == best;
			for (int i = 0; i < nf; i++) {
				viable[n_viable] = run->feasible[i];
				n_viable += top[rep_of[i]];
			}
		} else {
			for (int i = 0; i < nf; i++) {
				int64_t t = total[i];
				if (r)
					r->total[run->feasible[i]] = t;
				if (t > best) {
					best = t;
					n_viable = 0;
				}
				if (t == best)
					viable[n_viable++] = run->feasible[i];
			}
		}
		/* a result lists the viable nodes in node order, and so does
		 * a decision (the loop's result then takes them as they are);
		 * the pick is the k-th in node order either way - unless the
		 * loop reads a decision's as a set (o->viable_as_set) */
		if (r)
			r->scored = true;
		if (r || (dec && !cy->o->viable_as_set))
			sort_nodes(viable, n_viable, d->scratch_bits);
	}
	if (r) {
		memcpy(r->viable, viable, sizeof(int) * (size_t)n_viable);
		r->n_viable = n_viable;
	}
	if (dec) {
		dec->n_viable = n_viable;
		dec->nominated = run->nominated_ok;
	}
	return select_host(cy->o, viable, n_viable,
			   r || (dec && !cy->o->viable_as_set));
}

static int run_cycle(struct oracle *o, const struct sched_profile *prof, int pod,
		     struct sched_cycle_result *r, struct cycle_decision *dec)
{
	const struct cluster *c = o->cluster;
	/* in all mode every verdict is cleared again below: by
	 * prefilter_reject, or by find_feasible (each node filtered or
	 * outside the PreFilterResult) */
	if (r)
		result_reset(o->d, r, pod, !o->all_nodes);
	if (c->n_nodes == 0) {
		if (r) {
			r->code = SCHED_UAU;
			r->message = strdup("no nodes available to schedule pods");
		}
		return -1;
	}
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, o, prof, pod);
	struct sched_status pre;
	int rejector = run_prefilter(&cy, &pre);
	if (r)
		oracle_status_copy(&r->prefilter, &pre);
	if (rejector >= 0) {
		if (r)
			prefilter_reject(&cy, r, &pre, rejector);
		oracle_cycle_end(&cy);
		return -1;
	}
	struct sched_status error;
	struct cycle_run run = {.error = &error};
	scratch_init(o->d);
	find_feasible(&cy, r, &run);
	/* v1.34: the nodes outside NodeAffinity's PreFilterResult (the only
	 * plugin kso models that returns node names) carry this status */
	if (r && cy.v134 && cy.na_has_result)
		r->absent_reason = "node(s) didn't satisfy plugin(s) [NodeAffinity]";
	/* only a result lists the feasible nodes; scoring is order-blind */
	if (r)
		sort_nodes(run.feasible, run.n_feasible, o->d->scratch_bits);
	if (r) {
		memcpy(r->feasible, run.feasible, sizeof(int) * (size_t)run.n_feasible);
		r->n_feasible = run.n_feasible;
	}
	int chosen = -1;
	if (run.error_node >= 0) {
		if (r) {
			oracle_status_copy(&r->error, run.error);
			r->error.code = SCHED_ERROR;
			r->code = SCHED_ERROR;
			r->message = xstrdup(run.error->n_reasons
					     ? sched_status_reason(run.error, 0)
					     : "error");
		}
	} else if (run.n_feasible == 0 && run.nominated_ok < 0) {
		if (r) {
			r->code = SCHED_UNSCHEDULABLE;
			if (!o->quiet && o->given_message)
				r->message = xstrdup(o->given_message);
			else if (!o->quiet)
				r->message = fit_error(&cy, NULL, run.rejected,
						       run.n_rejected,
						       r->absent_reason);
		}
	} else {
		chosen = choose(&cy, r, &run, dec);
	}
	oracle_cycle_end(&cy);
	return chosen;
}

int oracle_schedule_cycle(struct oracle *o, int pod, struct sched_cycle_result *r)
{
	assert(o && r && pod >= 0 && pod < o->cluster->n_pods);
	assert(r->n_nodes == o->cluster->n_nodes);
	const struct cluster *c = o->cluster;
	const struct sched_profile *prof =
		config_find_profile(&c->config, c->pods[pod].scheduler_name);
	if (!prof) {
		result_reset(o->d, r, pod, true);
		return -2;
	}
	int chosen = run_cycle(o, prof, pod, r, NULL);
	if (o->test_hook)
		o->test_hook(r, o->test_hook_arg);
	return chosen;
}

/*
 * The loop's cycle: decided first without a result record (kube's fast
 * path, oracle_select's), which gives the same sampling, feasibility,
 * scores, viable set and random draw as a cycle into r (the verdicts'
 * codes come from the same checks, statuses aside); a cycle that binds
 * then needs only r's head and viable nodes.  One that does not (nothing
 * feasible, an Error) is run again into r from the same start and seed,
 * for the statuses, the FitError message and the verdicts preemption
 * reads.  r's per-node entries keep what the last cycle into r wrote, and
 * its dirty nodes stay the ones listed (nothing else writes r between
 * two such cycles), so the next cycle into r resets them as before.
 * After a cycle without a viable node the next one goes into r directly.
 */
void oracle_loop_hold(struct oracle *o, bool on)
{
	assert(o);
	if (on) {
		o->held_start = o->next_start;
		o->held_seed = o->seed;
		o->held_failed = o->d->loop_failed;
		return;
	}
	o->next_start = o->held_start;
	o->seed = o->held_seed;
	o->d->loop_failed = o->held_failed;
}

int oracle_loop_cycle(struct oracle *o, int pod, struct sched_cycle_result *r)
{
	assert(o && r && pod >= 0 && pod < o->cluster->n_pods);
	assert(r->n_nodes == o->cluster->n_nodes);
	const struct sched_profile *prof =
		config_find_profile(&o->cluster->config, o->cluster->pods[pod].scheduler_name);
	struct oracle_data *d = o->d;
	/* after a cycle without a viable node the next is run into r at
	 * once: failures come in runs (a full cluster, a wave of
	 * preemptors), each of which would be decided twice */
	if (!prof || o->all_nodes || o->given || o->given_scores || o->test_hook ||
	    d->loop_failed) {
		int chosen = oracle_schedule_cycle(o, pod, r);
		d->loop_failed = r->n_viable == 0;
		return chosen;
	}
	int start = o->next_start;
	uint64_t seed = o->seed;
	struct cycle_decision dec = {0, -1};
	int chosen = run_cycle(o, prof, pod, NULL, &dec);
	if (chosen < 0 || dec.n_viable == 0) {
		o->next_start = start;
		o->seed = seed;
		d->loop_failed = true;
		return oracle_schedule_cycle(o, pod, r);
	}
	const void *owner = r->partial_owner;
	sched_cycle_result_clear_nodes(r, pod, NULL, 0);
	r->partial_owner = owner;
	memcpy(r->viable, d->scratch_viable, sizeof(int) * (size_t)dec.n_viable);
	r->n_viable = dec.n_viable;
	r->nominated_node = dec.nominated;
	r->code = SCHED_SUCCESS;
	return chosen;
}

int oracle_select(struct oracle *o, int pod)
{
	assert(o && pod >= 0 && pod < o->cluster->n_pods);
	const struct cluster *c = o->cluster;
	const struct sched_profile *prof =
		config_find_profile(&c->config, c->pods[pod].scheduler_name);
	if (!prof)
		return -2;
	return run_cycle(o, prof, pod, NULL, NULL);
}

int oracle_check_node(struct oracle *o, const struct sched_profile *prof,
		      int pod, int node, struct sched_cycle_result *r)
{
	assert(o && prof && r && pod >= 0 && pod < o->cluster->n_pods);
	assert(node >= 0 && node < o->cluster->n_nodes);
	struct oracle_data *d = o->d;
	result_reset(d, r, pod, true);
	struct oracle_cycle cy;
	oracle_cycle_begin(&cy, o, prof, pod);
	struct sched_status pre;
	int rejector = run_prefilter(&cy, &pre);
	oracle_status_copy(&r->prefilter, &pre);
	if (rejector >= 0) {
		prefilter_reject(&cy, r, &pre, rejector);
		oracle_cycle_end(&cy);
		return -1;
	}
	bool in = !cy.na_has_result || cy.na_allowed[node];
	int nom = o->snap.nominated[pod];
	mark_dirty(d, node);
	r->in_prefilter_result[node] = in;
	bool feasible = false;
	if (!in && node != nom) {
		verdict_clear(&r->verdicts[node], SCHED_UAU);
	} else {
		/* kube's way on one node: the filters in order up to the
		 * first that fails (the nominated node is filtered even
		 * outside the PreFilterResult, as in a full cycle) */
		struct sched_status error;
		struct cycle_run run = {.error = &error};
		scratch_init(d);
		run.feasible = d->scratch_nodes;
		run.rejected = d->scratch_rejected;
		run.error_node = -1;
		bool all = o->all_nodes;
		o->all_nodes = false;
		feasible = filter_one(&cy, r, &run, node, in);
		o->all_nodes = all;
		if (run.error_node >= 0) {
			oracle_status_copy(&r->error, run.error);
			r->error.code = SCHED_ERROR;
			r->code = SCHED_ERROR;
			r->message = xstrdup(run.error->n_reasons
					     ? sched_status_reason(run.error, 0)
					     : "error");
			feasible = false;
		} else if (feasible && node == nom) {
			/* a feasible nominated node is kube's answer */
			r->viable[0] = node;
			r->n_viable = 1;
			r->nominated_node = node;
			r->code = SCHED_SUCCESS;
		}
		if (feasible && in) {
			r->feasible[0] = node;
			r->n_feasible = 1;
		}
	}
	oracle_cycle_end(&cy);
	return feasible ? 0 : -1;
}

int oracle_explain_cycle(const struct sched_profile *prof, const struct snapshot *s,
			 int pod, struct sched_cycle_result *r)
{
	assert(prof && s && s->cluster && r);
	struct oracle o;
	oracle_init(&o, s);
	o.all_nodes = true;
	run_cycle(&o, prof, pod, r, NULL);
	oracle_release(&o);
	return 0;
}
