/*
 * engine.c - the oracle as an engine (core/engine.h): explain mode (every
 * node, every filter) and kube's DefaultPreemption.
 */
#include "../core/engine.h"
#include "oracle.h"

const struct engine oracle_engine = {
	.name = "oracle",
	.cycle = oracle_explain_cycle,
	.preempt = oracle_preempt_kube,
};
