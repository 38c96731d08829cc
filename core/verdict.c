/*
 * verdict.c - the owning types of verdict.h: a cycle's result and a
 * preemption's answer, their init/release pairs, and "no verdict".
 */
#include "verdict.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "xalloc.h"

void sched_verdict_none(struct sched_node_verdict *v, enum sched_code code)
{
	v->feasible = false;
	v->code = code;
	v->rejected_by = -1;
	memset(v->failed, 0, sizeof v->failed);
	for (int i = 0; i < PLUGIN_FILTERS; i++)
		sched_status_ok(&v->status[i]);
}

void sched_cycle_result_init(struct sched_cycle_result *r,
			     const struct cluster *c)
{
	assert(r && c);
	memset(r, 0, sizeof *r);
	size_t n = (size_t)c->n_nodes;
	r->pod = -1;
	r->n_nodes = c->n_nodes;
	r->in_prefilter_result = xcalloc(n, sizeof *r->in_prefilter_result);
	/* a verdict is ~8 KB of which "nothing decided" sets a few fields:
	 * zeroing the reason texts too would cost more than every cycle
	 * this result serves in a small universe */
	r->verdicts = xmalloc(n * sizeof *r->verdicts);
	for (size_t i = 0; i < n; i++)
		sched_verdict_none(&r->verdicts[i], SCHED_SUCCESS);
	r->feasible = xcalloc(n, sizeof *r->feasible);
	r->scores = xcalloc(n * PLUGIN_COUNT, sizeof *r->scores);
	r->score_skipped = xcalloc(PLUGIN_COUNT, sizeof *r->score_skipped);
	r->total = xcalloc(n, sizeof *r->total);
	r->viable = xcalloc(n, sizeof *r->viable);
	r->nominated_node = -1;
}

void sched_cycle_result_release(struct sched_cycle_result *r)
{
	assert(r);
	free(r->in_prefilter_result);
	free(r->verdicts);
	free(r->feasible);
	free(r->scores);
	free(r->score_skipped);
	free(r->total);
	free(r->viable);
	free(r->message);
	memset(r, 0, sizeof *r);
	r->pod = -1;
	r->nominated_node = -1;
}

/* The fields of r that are not per node. */
static void result_clear_head(struct sched_cycle_result *r, int pod)
{
	r->pod = pod;
	sched_status_ok(&r->prefilter);
	sched_status_ok(&r->error);
	r->absent_reason = NULL;
	memset(r->score_skipped, 0, PLUGIN_COUNT * sizeof *r->score_skipped);
	r->n_feasible = 0;
	r->n_viable = 0;
	r->scored = false;
	free(r->message);
	r->message = NULL;
	r->code = SCHED_SUCCESS;
	r->nominated_node = -1;
	r->partial_owner = NULL;
}

void sched_cycle_result_clear(struct sched_cycle_result *r, int pod)
{
	assert(r);
	size_t n = (size_t)r->n_nodes;
	result_clear_head(r, pod);
	for (size_t i = 0; i < n; i++)
		r->in_prefilter_result[i] = true;
	if (!r->scores_written)
		return;
	memset(r->scores, 0, n * PLUGIN_COUNT * sizeof *r->scores);
	memset(r->total, 0, n * sizeof *r->total);
	r->scores_written = false;
}

void sched_cycle_result_clear_nodes(struct sched_cycle_result *r, int pod,
				    const int *nodes, int n)
{
	assert(r && (nodes || n == 0));
	result_clear_head(r, pod);
	for (int i = 0; i < n; i++) {
		size_t k = (size_t)nodes[i];
		assert(nodes[i] >= 0 && nodes[i] < r->n_nodes);
		r->in_prefilter_result[k] = true;
		memset(r->scores + k * PLUGIN_COUNT, 0,
		       PLUGIN_COUNT * sizeof *r->scores);
		r->total[k] = 0;
	}
}

bool sched_same_pods(const int *a, int na, const int *b, int nb)
{
	assert((a || na == 0) && (b || nb == 0));
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		bool in = false;
		for (int k = 0; k < nb && !in; k++)
			in = b[k] == a[i];
		if (!in)
			return false;
	}
	return true;
}

void sched_preemption_init(struct sched_preemption *p)
{
	assert(p);
	memset(p, 0, sizeof *p);
	p->node = -1;
	p->chosen.node = -1;
	p->code = SCHED_UNSCHEDULABLE;
}

void sched_victims_release(struct sched_victims *v)
{
	free(v->pods);
	v->pods = NULL;
	v->n = 0;
}

void sched_preemption_release(struct sched_preemption *p)
{
	assert(p);
	sched_victims_release(&p->chosen);
	for (int i = 0; i < p->n_candidates; i++)
		sched_victims_release(&p->candidates[i]);
	free(p->candidates);
	free(p->ties);
	free(p->clear_nominated);
	free(p->message);
	free(p->dra_deallocs);
	sched_preemption_init(p);
}


char *sched_preemption_message(const char *why)
{
	assert(why);
	static const char pre[] = "preemption: ";
	size_t n = strlen(why);
	char *s = xmalloc(sizeof pre + n);
	memcpy(s, pre, sizeof pre - 1);
	memcpy(s + sizeof pre - 1, why, n + 1);
	return s;
}

bool sched_preemption_clears(const struct cluster *c,
			     const struct sched_preemption *pr)
{
	if (!config_at_least(&c->config, KUBE_1_34))
		return true;
	for (int i = 0; i < pr->chosen.n; i++)
		if (!c->pods[pr->chosen.pods[i]].deletion.has)
			return true;
	return false;
}
