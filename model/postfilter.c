/*
 * postfilter.c - RunPostFilterPlugins (reference §3; v1.34: the delta
 * reference §4, §5.9) after a FitError: the profile's PostFilter plugins
 * in order - DynamicResources (v1.34's profile) before DefaultPreemption,
 * as v1.34's default MultiPoint list has them.  The first Success wins
 * (its message ""), an Error ends the run with that error, and each
 * Unschedulable adds its reasons: the message is every reason joined
 * ", ", so v1.34's failed preemption reads "no new claims to deallocate,
 * preemption: 0/N nodes are available: ...".
 */
#include "phases.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "<reasons>, <message>": DynamicResources' reasons before the next
 * plugin's message (or alone when it said nothing). */
static char *joined(const struct sched_status *first, const char *message)
{
	const char *reason = sched_status_reason(first, 0);
	if (!message || !message[0])
		return xstrdup(reason);
	size_t len = strlen(reason) + 2 + strlen(message) + 1;
	char *s = xmalloc(len);
	snprintf(s, len, "%s, %s", reason, message);
	return s;
}

int model_preempt_kube(const struct sched_profile *prof,
		       const struct snapshot *s, int pod,
		       const struct sched_cycle_result *r,
		       const struct sched_preempt_opts *opts,
		       struct sched_preemption *out)
{
	return model_phase_postfilter(prof, s, pod, r, opts, NULL, out);
}

int model_phase_postfilter(const struct sched_profile *prof,
			   const struct snapshot *s, int pod,
			   const struct sched_cycle_result *r,
			   const struct sched_preempt_opts *opts,
			   const struct model_given *given,
			   struct sched_preemption *out)
{
	assert(prof && s && s->cluster && r && out);
	struct sched_status dra;
	bool has_dra = prof->postfilter[PLUGIN_DYNAMIC_RESOURCES];
	int *dealloc = NULL, n_dealloc = 0;
	if (has_dra) {
		model_postfilter_dynamic_resources(s, prof, r, &dra, &dealloc, &n_dealloc);
		if (dra.code == SCHED_ERROR) {
			/* the loop stops: no preemption, the nomination
			 * stays (schedulingCycle gets no PostFilterResult) */
			out->code = SCHED_ERROR;
			out->message = xstrdup(sched_status_reason(&dra, 0));
			return 0;
		}
	}
	if (prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
		model_phase_default_preemption(prof, s, pod, r, opts, given,
					       out);
	} else {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = xstrdup("");
	}
	/* the deallocation is written whatever preemption does next */
	out->dra_deallocs = dealloc;
	out->n_dra_deallocs = n_dealloc;
	if (has_dra && out->code == SCHED_UNSCHEDULABLE) {
		char *m = joined(&dra, out->message);
		free(out->message);
		out->message = m;
	}
	return 0;
}
