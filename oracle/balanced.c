/*
 * balanced.c - NodeResourcesBalancedAllocation (reference §2.8): one minus
 * the standard deviation of the requested fractions, useRequested; v1.34
 * skips best-effort pods (delta §5.2).
 */
#include "internal.h"

#include <math.h>

/* v1.34's isBestEffortPod (delta §5.2): no configured resource requested;
 * PreScore then Skips (without a PreScore, Score gives 0). */
static bool best_effort(const struct oracle_res_plan *pl)
{
	for (int k = 0; k < pl->n; k++)
		if (pl->pod_req[k] != 0)
			return false;
	return true;
}

enum sched_code oracle_score_balanced(struct oracle_cycle *cy, const int *f,
				      int n, int64_t *out)
{
	const struct cluster *c = cy->c;
	const struct sched_profile *prof = cy->prof;
	const struct oracle_data *d = cy->o->d;
	const int64_t *podreq = &d->pod_req[(size_t)cy->pod * (size_t)d->n_res];
	struct oracle_res_plan pl;
	oracle_res_plan_init(c, &pl, prof->balanced_resources, prof->n_balanced_resources,
			     oracle_prof_res(cy, 1), podreq, true);
	if (config_at_least(&c->config, KUBE_1_34) && best_effort(&pl)) {
		for (int i = 0; i < n; i++)
			out[i] = 0;
		return SCHED_SKIP;
	}
	double fr[CONFIG_MAX_RESOURCES];
	for (int i = 0; i < n; i++) {
		int m = 0;
		double total = 0;
		for (int k = 0; k < pl.n; k++) {
			int64_t alloc, req;
			if (!oracle_plan_alloc_req(d, &pl, k, f[i], &alloc, &req))
				continue;
			double x = (double)req / (double)alloc;
			if (x > 1)
				x = 1;
			total += x;
			fr[m++] = x;
		}
		double std = 0;
		if (m == 2) {
			std = fabs((fr[0] - fr[1]) / 2);
		} else if (m > 2) {
			double mean = total / (double)m, sum = 0;
			for (int k = 0; k < m; k++)
				sum = sum + (fr[k] - mean) * (fr[k] - mean);
			std = sqrt(sum / (double)m);
		}
		out[i] = (int64_t)((1 - std) * 100.0);
	}
	return SCHED_SUCCESS;
}
