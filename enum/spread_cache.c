/*
 * spread_cache.c - the enumerator's cache of the pod-only PreFilter
 * parts of PodTopologySpread (model_spread_static,
 * model/spread_prefilter.h) and InterPodAffinity (model_affinity_static,
 * model/affinity_prefilter.h) across the states of one scenario, given
 * to the model's cycles and PostFilters (struct model_given,
 * model/model.h).
 *
 * An entry is a function of (cluster, profile, pod), which do not change
 * while a scenario's context lives, so one built for an earlier state is
 * exactly what a later state's cycle would build (reference §2.10,
 * §2.11; the lemma beside model_spread_prefilter_init_static).
 */
#include "enum.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdlib.h>

void enum_spread_cache_init(struct enum_spread_cache *k, const struct cluster *c)
{
	assert(k && c);
	k->c = c;
	k->by_pod = xcalloc((size_t)c->n_pods + 1, sizeof *k->by_pod);
	k->affinity_by_pod = xcalloc((size_t)c->n_pods + 1,
				     sizeof *k->affinity_by_pod);
}

void enum_spread_cache_release(struct enum_spread_cache *k)
{
	assert(k);
	for (int p = 0; k->by_pod && p < k->c->n_pods; p++) {
		model_spread_static_free(k->by_pod[p]);
		model_affinity_static_free(k->affinity_by_pod[p]);
	}
	free(k->by_pod);
	free(k->affinity_by_pod);
	k->by_pod = NULL;
	k->affinity_by_pod = NULL;
}

const struct model_spread_static *enum_spread_cache_get(struct enum_spread_cache *k,
							const struct sched_profile *prof,
							int pod)
{
	assert(k && k->by_pod && prof && pod >= 0 && pod < k->c->n_pods);
	struct model_spread_static **e = &k->by_pod[pod];
	if (*e && (*e)->profile != prof) {
		model_spread_static_free(*e);
		*e = NULL;
	}
	if (!*e)
		*e = model_spread_static_new(k->c, prof, pod);
	return *e;
}

const struct model_affinity_static *enum_affinity_cache_get(struct enum_spread_cache *k,
							    int pod)
{
	assert(k && k->affinity_by_pod && pod >= 0 && pod < k->c->n_pods);
	struct model_affinity_static **e = &k->affinity_by_pod[pod];
	if (!*e)
		*e = model_affinity_static_new(k->c, pod);
	return *e;
}
