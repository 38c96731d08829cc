/*
 * spread_state_eq.h - the unit tests' one comparison of two
 * PodTopologySpread PreFilter states (model/spread_prefilter.h): the same
 * constraints, pair counts, domain counts, self-match flags and critical
 * paths.  Shared by test_spread_pod_part.c and test_spread_live.c.
 */
#ifndef KSO_TEST_SPREAD_STATE_EQ_H
#define KSO_TEST_SPREAD_STATE_EQ_H

#include <stdbool.h>
#include <string.h>

#include "../../model/spread_prefilter.h"

static inline bool spread_state_eq(const struct model_spread_prefilter *a,
				   const struct model_spread_prefilter *b)
{
	if (a->cs->n != b->cs->n || a->pairs.n != b->pairs.n)
		return false;
	for (int k = 0; k < a->pairs.n; k++) {
		const struct model_spread_pair *x = &a->pairs.items[k],
					       *y = &b->pairs.items[k];
		if (x->slot != y->slot || x->count != y->count ||
		    strcmp(x->value, y->value) != 0)
			return false;
	}
	for (int i = 0; i < a->cs->n; i++) {
		if (a->domains[i] != b->domains[i] || a->self[i] != b->self[i])
			return false;
		for (int j = 0; j < 2; j++)
			if (a->paths[i][j].num != b->paths[i][j].num ||
			    strcmp(a->paths[i][j].value, b->paths[i][j].value) != 0)
				return false;
	}
	return true;
}

#endif
