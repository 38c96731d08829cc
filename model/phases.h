/*
 * phases.h - inside model/ only: the phases of one scheduling cycle
 * (reference §1.3; PostFilter §3) that model_schedule_cycle_given
 * (model.h, the one door for precomputed inputs) answers, each taking those inputs (struct model_given; NULL:
 * none).  Outside model/, ask model_schedule_cycle_given, or the plain
 * functions of model.h and preemption.h.
 */
#ifndef KSO_MODEL_PHASES_H
#define KSO_MODEL_PHASES_H

#include "model.h"
#include "preemption.h"

/* MODEL_PHASE_CYCLE (cycle.c): model_schedule_cycle. */
int model_phase_cycle(const struct sched_profile *prof,
		      const struct snapshot *s, int pod,
		      const struct model_given *given,
		      struct sched_cycle_result *r);

/* MODEL_PHASE_FILTER (feasibility.c): model_feasibility_of on the
 * cycle's state on s. */
void model_phase_filter(const struct sched_profile *prof,
			const struct snapshot *s, int pod, int node,
			const bool *only, const struct model_given *given,
			struct sched_node_verdict *out);

/* MODEL_PHASE_POSTFILTER (postfilter.c): model_preempt_kube; and its
 * DefaultPreemption (preemption_kube.c): model_default_preemption.  Their
 * given's verdicts are not read. */
int model_phase_postfilter(const struct sched_profile *prof,
			   const struct snapshot *s, int pod,
			   const struct sched_cycle_result *r,
			   const struct sched_preempt_opts *opts,
			   const struct model_given *given,
			   struct sched_preemption *out);
int model_phase_default_preemption(const struct sched_profile *prof,
				   const struct snapshot *s, int pod,
				   const struct sched_cycle_result *r,
				   const struct sched_preempt_opts *opts,
				   const struct model_given *given,
				   struct sched_preemption *out);

/* MODEL_PHASE_MINIMAL (preemption_minimal.c): model_preempt_minimal with
 * what opts lends (pdb_allowed, pdb_spends) (NULL: nothing); given's
 * verdicts are not read. */
int model_phase_minimal(const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			const struct sched_cycle_result *r,
			const struct sched_preempt_opts *opts,
			const struct model_given *given,
			struct sched_preemption *out, struct error *err);

#endif
