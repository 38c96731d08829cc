/*
 * placements.c - the `placements` mode: every placement of a scenario's
 * pods onto its nodes (each pod on one node or pending: (nodes+1)^pods
 * states) and, in each, the scheduler's next decision for the pending pod
 * PrioritySort picks (model_next_pod), or for every pending pod.
 *
 * States are visited in odometer order (pod 0's digit fastest), so
 * neighbouring states differ in few pods and the oracle follows them
 * with a few bind/evict updates instead of a rebuild.  With symmetry only
 * the representative of each class is evaluated (enum/symmetry.c) and its
 * verdicts count with the class size.
 */
#include "enum.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t enum_placement_count(int nodes, int pods)
{
	uint64_t n = 1, base = (uint64_t)nodes + 1;
	for (int i = 0; i < pods; i++) {
		if (n > UINT64_MAX / base)
			return UINT64_MAX;
		n *= base;
	}
	return n;
}

/* kube §1.2 (as model_next_pod): the pod is one the queue would pop. */
static bool queue_eligible(const struct enum_ctx *x, const struct snapshot *s,
			   int p)
{
	const struct pod *pod = &x->c->pods[p];
	return s->pod_node[p] == SNAP_PENDING && pod->n_gates == 0 &&
	       !pod->deletion.has && x->prof[p] != NULL;
}

static void set_digits(const struct cluster *c, uint64_t index, int *d,
		       struct snapshot *s)
{
	uint64_t base = (uint64_t)c->n_nodes + 1;
	for (int p = 0; p < c->n_pods; p++) {
		d[p] = (int)(index % base);
		index /= base;
		s->pod_node[p] = d[p] ? d[p] - 1 : SNAP_PENDING;
		s->nominated[p] = -1;
	}
}

/* The odometer's next placement. */
static void next_digits(const struct cluster *c, int *d, struct snapshot *s)
{
	for (int p = 0; p < c->n_pods; p++) {
		if (++d[p] <= c->n_nodes) {
			s->pod_node[p] = d[p] - 1;
			return;
		}
		d[p] = 0;
		s->pod_node[p] = SNAP_PENDING;
	}
}

static void emit(struct enum_ctx *x, struct enum_sink *sink, uint64_t w,
		 const struct enum_outcome *o)
{
	if (!sink->record || !(sink->store_all || (o && enum_outcome_issue(o))))
		return;
	struct enum_record r;
	memset(&r, 0, sizeof r);
	r.scenario = x->sc->index;
	r.weight = w;
	enum_record_state(&r, &x->snap, NULL);
	if (o)
		enum_record_outcome(&r, x, o, NULL);
	sink->record(sink->user, &r);
}

/* Every decision of one state. */
static void eval_state(struct enum_ctx *x, bool all_pending, uint64_t w,
		       struct enum_sink *sink, struct enum_tally t[2])
{
	const struct cluster *c = x->c;
	t[0].states += w;
	t[1].states += 1;
	int first = model_next_pod_of(&x->snap, x->prof);
	if (first < 0) {
		emit(x, sink, w, NULL);
		return;
	}
	for (int p = all_pending ? 0 : first; p < c->n_pods; p++) {
		if (all_pending ? !queue_eligible(x, &x->snap, p) : p != first)
			continue;
		struct enum_outcome o;
		enum_outcome_init(&o);
		enum_check_pod(x, p, &o);
		enum_tally_outcome(&o, w, t);
		emit(x, sink, w, &o);
		enum_outcome_release(&o);
		if (!all_pending)
			break;
	}
}

int enum_placements(struct enum_ctx *x, uint64_t first, uint64_t last,
		    bool symmetry, bool all_pending, struct enum_sink *sink,
		    struct enum_tally t[2])
{
	assert(x && sink && t && first <= last);
	const struct cluster *c = x->c;
	int *d = calloc((size_t)c->n_pods + 1, sizeof *d);
	if (!d)
		abort();
	x->step_invariants = true;
	set_digits(c, first, d, &x->snap);
	int rc = 0;
	for (uint64_t i = first; i < last; i++) {
		if ((i & 255) == 0 && sink->stop && *sink->stop) {
			rc = 1;
			break;
		}
		if (i > first)
			next_digits(c, d, &x->snap);
		uint64_t w = 1;
		if (symmetry && !enum_placement_class_of(&x->sc->sym, d, &w))
			continue;
		eval_state(x, all_pending, w, sink, t);
	}
	free(d);
	return rc;
}
