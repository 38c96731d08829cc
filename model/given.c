/*
 * given.c - model_schedule_cycle_given (model.h): the one door through
 * which precomputed inputs (struct model_given) enter the model, for each
 * phase of a cycle (reference §1.3: PreFilter and Filter, Score,
 * PostFilter) and the spec's least-Casualty Preemption.
 */
#include "model.h"
#include "phases.h"

#include <assert.h>

int model_schedule_cycle_given(const struct model_question *q,
			       const struct model_given *given)
{
	assert(q && q->prof && q->s && q->s->cluster);
	assert(q->pod >= 0 && q->pod < q->s->cluster->n_pods);
	switch (q->phase) {
	case MODEL_PHASE_CYCLE:
		return model_phase_cycle(q->prof, q->s, q->pod, given, q->r);
	case MODEL_PHASE_FILTER:
		model_phase_filter(q->prof, q->s, q->pod, q->node, q->only,
				   given, q->verdict);
		return 0;
	case MODEL_PHASE_POSTFILTER:
		return model_phase_postfilter(q->prof, q->s, q->pod, q->failed,
					      q->opts, given, q->preemption);
	case MODEL_PHASE_MINIMAL:
		return model_phase_minimal(q->prof, q->s, q->pod, q->failed,
					   q->opts, given, q->preemption, q->err);
	}
	assert(!"unknown phase");
	return 0;
}
