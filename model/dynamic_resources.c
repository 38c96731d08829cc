/*
 * dynamic_resources.c - DynamicResources, in v1.34's profile (delta
 * reference §1, §5.9; dynamicresources/dynamicresources.go), for a pod
 * without resource claims:
 *   PreFilter  writes an empty cycle state, then Skip: its Filter,
 *              Reserve and PreBind do not run;
 *   PostFilter reads that state: Unschedulable "no new claims to
 *              deallocate" - or, when the state was never written, the
 *              Error of CycleState.Read, "not found".
 * It is the last PreFilter plugin, so its state is missing exactly when
 * an earlier PreFilter returned UnschedulableAndUnresolvable (or a
 * PreFilterResult left no node): RunPreFilterPlugins stops there (v1.34.1;
 * the quirk dra-postfilter-not-found, core/quirks.h), or when the profile
 * disables its PreFilter.
 * kso reads no claims yet: every pod is such a pod.  A pod with claims
 * (allocation, its Filter, PostFilter deallocation) is issue 35's, and
 * goes here.
 */
#include "model.h"

#include <assert.h>

/* PreFilter ran and wrote the state: enabled, and no PreFilter before
 * it (every other one) rejected the pod UnschedulableAndUnresolvable -
 * an Unschedulable rejection lets the rest run (reference §1.3 step 2). */
static bool state_written(const struct sched_profile *prof,
			  const struct model_cycle_result *r)
{
	return prof->prefilter[PLUGIN_DYNAMIC_RESOURCES] &&
	       r->prefilter.code != MODEL_UAU;
}

void model_postfilter_dynamic_resources(const struct cluster *c,
					const struct sched_profile *prof,
					const struct model_cycle_result *r,
					struct model_status *out)
{
	assert(c && prof && r && out);
	model_status_ok(out);
	bool written = state_written(prof, r);
	/* the quirk off: a rejection's missing state reads as no claims */
	if (!written && prof->prefilter[PLUGIN_DYNAMIC_RESOURCES] &&
	    !config_quirk(&c->config, QUIRK_DRA_POSTFILTER_NOT_FOUND))
		written = true;
	if (!written) {
		model_status_add(out, MODEL_ERROR, "not found");
		return;
	}
	model_status_add(out, MODEL_UNSCHEDULABLE, "no new claims to deallocate");
}
