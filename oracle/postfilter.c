/*
 * postfilter.c - RunPostFilterPlugins (reference §3; the delta reference
 * §4): the profile's PostFilter plugins after a FitError, v1.34's
 * DynamicResources first, then DefaultPreemption.  A Success ends it
 * with no message; an Error ends it with that error and no preemption;
 * the Unschedulable reasons join with ", ".
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int oracle_preempt(struct oracle *o, const struct sched_profile *prof, int pod,
		   const struct sched_cycle_result *r, uint64_t offset_draw,
		   struct sched_preemption *out)
{
	assert(o && prof && r && out);
	struct sched_status dra;
	bool has_dra = prof->postfilter[PLUGIN_DYNAMIC_RESOURCES];
	int *dealloc = NULL, n_dealloc = 0;
	if (has_dra) {
		oracle_postfilter_dra(o, prof, r, &dra, &dealloc, &n_dealloc);
		if (dra.code == SCHED_ERROR) {
			out->code = SCHED_ERROR;
			out->message = xstrdup(sched_status_reason(&dra, 0));
			return 0;
		}
	}
	if (prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
		oracle_default_preemption(o, prof, pod, r, offset_draw, out);
	} else {
		out->code = SCHED_UNSCHEDULABLE;
		out->message = xstrdup("");
	}
	/* the deallocation is written whatever preemption does next */
	out->dra_deallocs = dealloc;
	out->n_dra_deallocs = n_dealloc;
	/* quiet: decisions without text (oracle.h) */
	if (!has_dra || out->code != SCHED_UNSCHEDULABLE || !out->message)
		return 0;
	const char *why = sched_status_reason(&dra, 0);
	size_t len = strlen(why) + 2 + strlen(out->message) + 1;
	char *m = xmalloc(len);
	snprintf(m, len, out->message[0] ? "%s, %s" : "%s%s", why, out->message);
	free(out->message);
	out->message = m;
	return 0;
}
