/*
 * dynamic_resources.c - DynamicResources in v1.34's profile (delta
 * reference §5.9) for a pod without claims, kso's every pod (claims are
 * issue 35's): PreFilter Skip after writing an empty state; PostFilter
 * Unschedulable "no new claims to deallocate", or the state read's Error
 * "not found" when no PreFilter wrote it - it runs last, after any
 * UnschedulableAndUnresolvable PreFilter rejection has ended the PreFilter
 * loop (v1.34.1, the quirk dra-postfilter-not-found).
 */
#include "internal.h"

#include <assert.h>

void oracle_postfilter_dra(const struct oracle *o,
			   const struct sched_profile *prof,
			   const struct model_cycle_result *r,
			   struct model_status *st)
{
	assert(o && prof && r && st);
	oracle_status_ok(st);
	bool enabled = prof->prefilter[PLUGIN_DYNAMIC_RESOURCES];
	bool reached = r->prefilter.code != MODEL_UAU;
	bool quirk = config_quirk(&o->cluster->config,
				  QUIRK_DRA_POSTFILTER_NOT_FOUND);
	if (!enabled || (!reached && quirk)) {
		oracle_status_fail_str(st, MODEL_ERROR, "not found");
		return;
	}
	oracle_status_fail_str(st, MODEL_UNSCHEDULABLE,
			       "no new claims to deallocate");
}
