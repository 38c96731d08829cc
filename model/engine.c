/*
 * engine.c - the formal model as an engine (core/engine.h): one cycle
 * (reference §1.3) and DefaultPreemption (§3).
 */
#include "../core/engine.h"
#include "model.h"
#include "preemption.h"

const struct engine model_engine = {
	.name = "model",
	.explains = true,
	/* no open: the loop's own engine is the literal model */
	.cycle = model_schedule_cycle,
	.preempt = model_preempt_kube,
};
