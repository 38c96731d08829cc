/*
 * fit.c - NodeResourcesFit (reference §2.7): the request check against
 * allocatable minus requested, and the LeastAllocated / MostAllocated /
 * RequestedToCapacityRatio scores; plus the shared resource lookup that
 * NodeResourcesBalancedAllocation (§2.8, balanced.c) uses.
 */
#include "internal.h"

#include <math.h>
#include <string.h>

/* An extended resource the profile's ignoredResources /
 * ignoredResourceGroups exclude from the check. */
static bool fit_ignored(const struct sched_profile *prof, const char *name)
{
	if (!strchr(name, '/') || strstr(name, "kubernetes.io/"))
		return false;
	for (int i = 0; i < prof->n_fit_ignored_resources; i++)
		if (strcmp(prof->fit_ignored_resources[i], name) == 0)
			return true;
	size_t plen = (size_t)(strchr(name, '/') - name);
	for (int i = 0; i < prof->n_fit_ignored_groups; i++) {
		const char *g = prof->fit_ignored_groups[i];
		if (strlen(g) == plen && strncmp(g, name, plen) == 0)
			return true;
	}
	return false;
}

/* The resources Filter compares with the node's free amount into
 * list[1..], their number into list[0].  Whether a resource is compared
 * depends on the pod's request, the resource's class and the profile's
 * ignored names only, never on the node. */
static void list_fit_resources(const struct oracle_cycle *cy, int *list)
{
	const struct cluster *c = cy->c;
	int n = 0;
	for (int r = RES_CPU; r < c->n_res; r++) {
		bool fixed = r <= RES_EPHEMERAL;
		if (fixed ? cy->req[r] <= 0 : c->res_class[r] != RESCLASS_SCALAR ||
						cy->req[r] == 0)
			continue;
		if (!fixed && fit_ignored(cy->prof, c->res_names[r]))
			continue;
		list[1 + n++] = r;
	}
	list[0] = n;
}

/* cy->fit_res: list_fit_resources' list, kept per pod and profile when
 * the profile is one of the cluster's (both fixed), else worked out for
 * the cycle - once per cycle or pod instead of once per node. */
static void fit_resources(struct oracle_cycle *cy)
{
	struct oracle_data *d = cy->o->d;
	size_t len = (size_t)cy->c->n_res + 2;
	int pi = oracle_profile_index(cy->c, cy->prof);
	int *list;
	if (pi < 0) {
		list = arena_array(cy->arena, len, sizeof(int));
		list_fit_resources(cy, list);
	} else {
		size_t np = (size_t)cy->c->config.n_profiles;
		if (!d->fit_res)
			d->fit_res = arena_array(&d->arena, (size_t)d->n_pods * np + 1,
						 sizeof *d->fit_res);
		int **slot = &d->fit_res[(size_t)cy->pod * np + (size_t)pi];
		if (!*slot) {
			*slot = arena_array(&d->arena, len, sizeof(int));
			list_fit_resources(cy, *slot);
		}
		list = *slot;
	}
	cy->fit_res = list + 1;
	cy->n_fit_res = list[0];
}

/* PreFilter: the pod's PodRequests (computed at oracle_init, see
 * oracle_data.pod_req); "requests something" is a non-zero cpu, memory or
 * ephemeral-storage request or any scalar resource key (OPOD_SCALAR). */
void oracle_prefilter_fit(struct oracle_cycle *cy)
{
	const struct oracle_data *d = cy->o->d;
	cy->req = &d->pod_req[(size_t)cy->pod * (size_t)d->n_res];
	cy->req_any = cy->req[RES_CPU] || cy->req[RES_MEMORY] ||
		      cy->req[RES_EPHEMERAL] || (d->pod_flags[cy->pod] & OPOD_SCALAR);
	fit_resources(cy);
}

/* A shortfall of resource r: from v1.34 (delta reference §5.1) one the
 * node's allocatable alone cannot hold is unresolvable. */
static enum sched_code shortfall(const struct oracle_cycle *cy, int64_t req,
				 int64_t alloc)
{
	return cy->v134 && req > alloc ? SCHED_UAU : SCHED_UNSCHEDULABLE;
}

/* The Filter's code alone: Unschedulable on any shortfall (v1.30: the
 * first one decides; v1.34: UnschedulableAndUnresolvable when any is). */
enum sched_code oracle_check_fit(struct oracle_cycle *cy, const struct oracle_nodeview *v)
{
	const struct cluster *c = cy->c;
	const struct oracle_data *d = cy->o->d;
	size_t nr = (size_t)c->n_res;
	const int64_t *alloc = &d->alloc[(size_t)v->node * nr];
	const int64_t *used = v->requested;
	enum sched_code code = SCHED_SUCCESS;
	if ((int64_t)v->n_pods + 1 > alloc[RES_PODS]) {
		if (!cy->v134)
			return SCHED_UNSCHEDULABLE;
		code = SCHED_UNSCHEDULABLE;
	}
	if (!cy->req_any)
		return code;
	for (int i = 0; i < cy->n_fit_res; i++) {
		int r = cy->fit_res[i];
		if (cy->req[r] <= go_sub(alloc[r], used[r]))
			continue;
		enum sched_code k = shortfall(cy, cy->req[r], alloc[r]);
		if (!cy->v134 || k == SCHED_UAU)
			return k;
		code = SCHED_UNSCHEDULABLE;
	}
	return code;
}

/* Filter (§2.7): pod count, then cpu, memory, ephemeral-storage, then the
 * scalar resources (in resource-index order), every shortfall a reason. */
void oracle_filter_fit(struct oracle_cycle *cy, const struct oracle_nodeview *v,
		       struct sched_status *st)
{
	const struct cluster *c = cy->c;
	const struct oracle_data *d = cy->o->d;
	size_t nr = (size_t)c->n_res;
	const int64_t *alloc = &d->alloc[(size_t)v->node * nr];
	const int64_t *used = v->requested;
	if ((int64_t)v->n_pods + 1 > alloc[RES_PODS])
		oracle_status_fail_str(st, SCHED_UNSCHEDULABLE, "Too many pods");
	if (!cy->req_any)
		return;
	static const char *const fixed[] = {
		[RES_CPU] = "Insufficient cpu",
		[RES_MEMORY] = "Insufficient memory",
		[RES_EPHEMERAL] = "Insufficient ephemeral-storage",
	};
	/* cpu, memory, ephemeral-storage, then the scalar ones in index
	 * order: fit_res is ascending and the fixed three come first */
	for (int i = 0; i < cy->n_fit_res; i++) {
		int r = cy->fit_res[i];
		if (cy->req[r] <= go_sub(alloc[r], used[r]))
			continue;
		enum sched_code k = shortfall(cy, cy->req[r], alloc[r]);
		if (r <= RES_EPHEMERAL)
			oracle_status_fail_str(st, k, fixed[r]);
		else   /* "Insufficient %s" */
			sched_status_add_join(st, k, (const char *[]){"Insufficient ",
								       c->res_names[r]}, 2);
	}
}

static int64_t least_requested(int64_t req, int64_t cap)
{
	if (cap == 0 || req > cap)
		return 0;
	return go_mul(go_sub(cap, req), 100) / cap;
}

static int64_t most_requested(int64_t req, int64_t cap)
{
	if (cap == 0)
		return 0;
	if (req > cap)
		req = cap;
	return go_mul(req, 100) / cap;
}

/* BuildBrokenLinearFunction over the shape scaled x10. */
static int64_t broken_linear(const struct sched_profile *prof, int64_t p)
{
	const struct shape_point *s = prof->shape;
	for (int i = 0; i < prof->n_shape; i++) {
		if (p > s[i].utilization)
			continue;
		if (i == 0)
			return s[0].score * 10;
		return s[i - 1].score * 10 +
		       (s[i].score * 10 - s[i - 1].score * 10) * (p - s[i - 1].utilization) /
			       (s[i].utilization - s[i - 1].utilization);
	}
	return prof->n_shape ? s[prof->n_shape - 1].score * 10 : 0;
}

static int64_t ratio_score(const struct sched_profile *prof, int64_t req, int64_t cap)
{
	if (cap == 0 || req > cap)
		return broken_linear(prof, 100);
	return broken_linear(prof, go_mul(req, 100) / cap);
}

void oracle_prof_res_init(struct oracle *o)
{
	const struct sched_config *cfg = &o->cluster->config;
	struct oracle_data *d = o->d;
	d->prof_res = arena_array(&d->arena,
				  (size_t)cfg->n_profiles * 2 * CONFIG_MAX_RESOURCES + 1,
				  sizeof(int));
	for (int pi = 0; pi < cfg->n_profiles; pi++) {
		const struct sched_profile *p = &cfg->profiles[pi];
		int *fit = &d->prof_res[(size_t)pi * 2 * CONFIG_MAX_RESOURCES];
		int *bal = fit + CONFIG_MAX_RESOURCES;
		for (int k = 0; k < p->n_fit_resources; k++)
			fit[k] = oracle_res_index(o->cluster, p->fit_resources[k].name);
		for (int k = 0; k < p->n_balanced_resources; k++)
			bal[k] = oracle_res_index(o->cluster, p->balanced_resources[k].name);
	}
}

void oracle_res_plan_init(const struct cluster *c, struct oracle_res_plan *pl,
			  const struct resource_weight *names, int n, const int *idx,
			  const int64_t *podreq, bool use_requested)
{
	pl->n = n;
	pl->use_requested = use_requested;
	for (int k = 0; k < n; k++) {
		int r = idx ? idx[k] : oracle_res_index(c, names[k].name);
		pl->res[k] = r;
		/* a name no object uses is skipped like an ignored class */
		pl->cls[k] = r >= 0 ? c->res_class[r] : RESCLASS_IGNORED;
		pl->pod_req[k] = r >= 0 ? podreq[r] : 0;
		pl->weight[k] = names[k].weight;
	}
}

/* Score: the strategy's weighted mean over the configured resources,
 * pod side with the 100m / 200Mi defaults, node side NonZeroRequested. */
enum sched_code oracle_score_fit(struct oracle_cycle *cy, const int *f, int n,
				 int64_t *out)
{
	const struct cluster *c = cy->c;
	const struct sched_profile *prof = cy->prof;
	const struct oracle_data *d = cy->o->d;
	const int64_t *podreq = &d->pod_req_nm[(size_t)cy->pod * (size_t)d->n_res];
	struct oracle_res_plan pl;
	oracle_res_plan_init(c, &pl, prof->fit_resources, prof->n_fit_resources,
			     oracle_prof_res(cy, 0), podreq, false);
	for (int i = 0; i < n; i++) {
		int64_t score = 0, wsum = 0;
		for (int k = 0; k < pl.n; k++) {
			int64_t alloc, req, w = pl.weight[k], s;
			if (!oracle_plan_alloc_req(d, &pl, k, f[i], &alloc, &req))
				continue;
			switch (prof->fit_strategy) {
			case FIT_MOST_ALLOCATED:
				s = most_requested(req, alloc);
				break;
			case FIT_REQUESTED_TO_CAPACITY_RATIO:
				s = ratio_score(prof, req, alloc);
				if (s <= 0)
					continue;
				break;
			default:
				s = least_requested(req, alloc);
				break;
			}
			score = go_add(score, go_mul(s, w));
			wsum = go_add(wsum, w);
		}
		if (wsum == 0)
			out[i] = 0;
		else if (prof->fit_strategy == FIT_REQUESTED_TO_CAPACITY_RATIO)
			out[i] = (int64_t)round((double)score / (double)wsum);
		else
			out[i] = score / wsum;
	}
	return SCHED_SUCCESS;
}

int oracle_res_index(const struct cluster *c, const char *name)
{
	for (int r = 0; r < c->n_res; r++)
		if (strcmp(c->res_names[r], name) == 0)
			return r;
	return -1;
}
