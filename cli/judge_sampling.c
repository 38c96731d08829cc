/*
 * judge_sampling.c - a bind judged when kube samples nodes (reference
 * §1.4, judge.h): with 100 nodes or more kube filters nodes in node-tree
 * order from nextStartNodeIndex until numFeasibleNodesToFind are
 * feasible and scores only those, normalized over them.  Which window a
 * run used depends on history (the start index), so a bind is judged
 * against every window kube could have sampled that holds the chosen
 * node: it is a legitimate pick when it is viable in one of them.
 *
 * Only windows starting at a feasible node matter (a start on an
 * infeasible node finds the same feasible nodes as the next feasible
 * start), and the windows holding a node are consecutive starts going
 * back from it: the walk stops at the first one that no longer reaches
 * it.  Each window is the oracle's sampled cycle (oracle_schedule_cycle
 * with o->next_start set), the fast path kube itself runs.
 */
#include "judge.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../core/xalloc.h"
#include "../model/model.h"
#include "../oracle/oracle.h"

/* The candidate nodes in kube's order: the node tree order, only nodes
 * inside the PreFilterResult (NodeAffinity's), as the oracle lists them.
 * Returns their number; cand has room for every node. */
static int candidates(const struct cli_explain *x, int *cand)
{
	const struct cluster *c = x->cluster;
	int *order = xmalloc(sizeof *order * ((size_t)c->n_nodes + 1));
	model_node_tree_order(c, order);
	int n = 0;
	for (int i = 0; i < c->n_nodes; i++)
		if (x->result->in_prefilter_result[order[i]])
			cand[n++] = order[i];
	free(order);
	return n;
}

/* One sampled cycle from start: is node examined (in the window), and
 * is it viable there?  The window's best node and totals into w when it
 * is the first window found holding the node without it being viable. */
static void one_window(struct oracle *o, const struct cli_explain *x, int start,
		       int start_node, int node, bool *held, bool *viable,
		       struct judge_windows *w)
{
	struct sched_cycle_result res;
	sched_cycle_result_init(&res, x->cluster);
	o->next_start = start;
	oracle_schedule_cycle(o, x->pod, &res);
	*held = res.verdicts[node].feasible;
	*viable = false;
	for (int i = 0; *held && i < res.n_viable; i++)
		*viable = *viable || res.viable[i] == node;
	if (*held && !*viable && res.n_viable > 0 && w->best_node < 0) {
		w->best_node = res.viable[0];
		w->node_total = res.total[node];
		w->best_total = res.total[res.viable[0]];
		w->example_start = start_node;
	}
	if (*viable && w->viable_start < 0)
		w->viable_start = start_node;
	sched_cycle_result_release(&res);
}

void judge_sampled_windows(const struct cli_explain *x, int node,
			   struct judge_windows *w)
{
	assert(x && w && node >= 0 && node < x->cluster->n_nodes);
	memset(w, 0, sizeof *w);
	w->best_node = w->example_start = w->viable_start = -1;
	const struct sched_cycle_result *r = x->result;
	const struct cluster *c = x->cluster;
	int *cand = xmalloc(sizeof *cand * ((size_t)c->n_nodes + 1));
	int n_cand = candidates(x, cand);
	/* positions (in cand) of the feasible nodes, and the node's */
	int *fpos = xmalloc(sizeof *fpos * ((size_t)n_cand + 1));
	int at = -1;
	for (int i = 0; i < n_cand; i++) {
		if (!r->verdicts[cand[i]].feasible)
			continue;
		if (cand[i] == node)
			at = w->n_feasible;
		fpos[w->n_feasible++] = i;
	}
	if (at >= 0) {
		struct oracle o;
		oracle_init(&o, x->snap);
		o.quiet = true;
		/* going back from the node's own position, one feasible
		 * start at a time, while the window still reaches it */
		for (int k = 0; k < w->n_feasible; k++) {
			int j = (at - k + w->n_feasible) % w->n_feasible;
			bool held, viable;
			one_window(&o, x, fpos[j], cand[fpos[j]], node, &held,
				   &viable, w);
			if (!held)
				break;
			w->holding++;
			w->best_in += viable;
		}
		oracle_release(&o);
	}
	free(fpos);
	free(cand);
}
