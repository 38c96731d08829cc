/*
 * balanced.c - NodeResourcesBalancedAllocation (reference §2.8): one minus
 * the standard deviation of the requested fractions, useRequested.
 */
#include "internal.h"

#include <math.h>

enum model_code oracle_score_balanced(struct oracle_cycle *cy, const int *f,
				      int n, int64_t *out)
{
	const struct cluster *c = cy->c;
	const struct sched_profile *prof = cy->prof;
	int64_t *podreq = arena_array(&cy->arena, (size_t)c->n_res + 1, sizeof(int64_t));
	oracle_pod_requests(c, cy->p, false, podreq, NULL);
	int nres = prof->n_balanced_resources;
	int *ri = arena_array(&cy->arena, (size_t)nres + 1, sizeof(int));
	double *fr = arena_array(&cy->arena, (size_t)nres + 1, sizeof(double));
	for (int k = 0; k < nres; k++)
		ri[k] = oracle_res_index(c, prof->balanced_resources[k].name);
	for (int i = 0; i < n; i++) {
		int m = 0;
		double total = 0;
		for (int k = 0; k < nres; k++) {
			int64_t alloc, req;
			if (!oracle_fit_alloc_req(cy, f[i], ri[k], ri[k] >= 0 ? podreq[ri[k]] : 0,
						  true, &alloc, &req))
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
	return MODEL_SUCCESS;
}
