/*
 * explain_preemption.c - the "preemption" part of `kso explain` (the hook
 * declared in cli/explain.h): when no node is feasible, what kube's
 * DefaultPreemption would do (model_preempt_kube, reference §3) next to
 * the spec's least-Casualty Preemption (model_preempt_minimal, seed 004),
 * and whether they differ (reference §5(g)).  kube's answer comes from
 * the engine explain runs (its core/engine.h preempt); the minimal answer
 * is always the model's.
 *
 * JSON value of "preemption" (null when the cycle was not a FitError or
 * the profile has no DefaultPreemption):
 *   {"eligible": bool, "node": "<kube's node>"|"", "victims": ["ns/name"..],
 *    "pdb_violations": n, "nominated_nodes_equal": ["<node>"..],
 *    "candidates": [{"node", "victims", "pdb_violations",
 *                    "casualty" (pickOneNodeForPreemption's criteria,
 *                                as "minimal"'s below)}..],
 *    "cleared_nominations": ["ns/name"..], "message": "<PostFilter msg>",
 *    "minimal": {"node": ""|"<node>", "victims": [..],
 *                "casualty": null|{"pdb_violations", "highest_priority",
 *                                  "priority_sum" (the victims'
 *                                  priorities added up),
 *                                  "kube_priority_sum" (what kube's
 *                                  pickOneNodeForPreemption compares:
 *                                  each priority + 2^31), "victims",
 *                                  "earliest_start": n|null}}
 *               or {"error": "..."},
 *    "differs": bool}
 */
#include "explain.h"

#include <assert.h>
#include <string.h>
#include <stdlib.h>

#include "../model/preemption.h"
#include "../core/xalloc.h"
#include "../oracle/oracle.h"

/* Both answers for one explained cycle. */
struct answers {
	struct sched_preemption kube;
	struct sched_preemption minimal;
	struct error err;
	int minimal_rc;
	bool *possible;       /* [n_nodes] nodes kube may nominate, over every
			       * walk offset and final tie; NULL: too many
			       * dry runs to work out (POSSIBLE_MAX_DRY_RUNS) */
	int n_offsets;        /* the offsets that were tried */
};

/* Working out every possible node costs |potential| preemptions of up to
 * numCandidates dry runs each; past this many dry runs explain leaves it
 * out (and says so). */
#define POSSIBLE_MAX_DRY_RUNS 2000000

static bool applies(const struct cli_explain *x)
{
	return x->result->code == SCHED_UNSCHEDULABLE &&
	       x->profile->postfilter[PLUGIN_DEFAULT_PREEMPTION];
}

/* kube's answer with the walk starting at potential[offset] (§3.3). */
static void kube_at(const struct cli_explain *x, uint64_t offset,
		    struct sched_preemption *out)
{
	struct sched_preempt_opts o = {.offset_draw = offset};
	if (x->live)
		oracle_preempt(x->live, x->profile, x->pod, x->result, offset, out);
	else
		x->engine->preempt(x->profile, x->snap, x->pod, x->result, &o, out);
}

static void mark_answer(bool *possible, const struct sched_preemption *k)
{
	if (k->node < 0)
		return;
	possible[k->node] = true;
	for (int i = 0; i < k->n_ties; i++)
		possible[k->ties[i]] = true;
}

void cli_kube_preempt(const struct cli_explain *x, struct sched_preemption *k)
{
	assert(x && x->result && k);
	if (applies(x))
		kube_at(x, 0, k);
}

/*
 * Every node kube may nominate: the walk starts at a random offset into
 * the potential nodes (§3.3) and the last tie of §3.5 is Go map order.
 * A walk that always covers every potential node (numCandidates = their
 * number) finds the same candidates from any offset: the chosen node and
 * its ties.  Otherwise one preemption per offset.
 */
bool *cli_kube_preemption(const struct cli_explain *x,
			  struct sched_preemption *k, int *n_offsets)
{
	assert(x && k && n_offsets);
	const struct cluster *c = x->cluster;
	cli_kube_preempt(x, k);
	*n_offsets = 0;
	if (k->node < 0)
		return NULL;
	int np = 0;
	for (int n = 0; n < c->n_nodes; n++)
		np += x->result->verdicts[n].code == SCHED_UNSCHEDULABLE;
	int32_t want = model_preemption_num_candidates(x->profile, np);
	*n_offsets = want < np ? np : 1;
	if ((int64_t)*n_offsets * want > POSSIBLE_MAX_DRY_RUNS)
		return NULL;
	bool *possible = xcalloc((size_t)c->n_nodes + 1, sizeof(bool));
	mark_answer(possible, k);
	for (int off = 1; off < *n_offsets; off++) {
		struct sched_preemption other;
		sched_preemption_init(&other);
		kube_at(x, (uint64_t)off, &other);
		mark_answer(possible, &other);
		sched_preemption_release(&other);
	}
	return possible;
}

static void answers_run(const struct cli_explain *x, struct answers *a)
{
	sched_preemption_init(&a->kube);
	sched_preemption_init(&a->minimal);
	error_init(&a->err);
	a->possible = cli_kube_preemption(x, &a->kube, &a->n_offsets);
	a->minimal_rc = model_preempt_minimal(x->profile, x->snap, x->pod,
					      x->result, &a->minimal, &a->err);
}

static void answers_release(struct answers *a)
{
	free(a->possible);
	sched_preemption_release(&a->kube);
	sched_preemption_release(&a->minimal);
}

/* Same node and the same victims (both lists are in importance order). */
static bool differ(const struct answers *a)
{
	if (a->minimal_rc != 0)
		return false;
	const struct sched_victims *k = &a->kube.chosen, *m = &a->minimal.chosen;
	if (a->kube.node != a->minimal.node || k->n != m->n)
		return true;
	for (int i = 0; i < k->n; i++)
		if (k->pods[i] != m->pods[i])
			return true;
	return false;
}

static const char *node_name(const struct cluster *c, int n)
{
	return n >= 0 ? c->nodes[n].name : "";
}

/* ---------------------------------------------------------------- JSON */

static void json_pods(struct json_out *j, const struct cluster *c,
		      const int *pods, int n)
{
	char buf[512];
	json_begin_array(j);
	for (int i = 0; i < n; i++) {
		cluster_pod_key(c, pods[i], buf, sizeof buf);
		json_string(j, buf);
	}
	json_end_array(j);
}

/* The victims' priorities added up, as a person reads them: kube's sum
 * (sched_casualty.priority_sum) adds 2^31 to each to keep it positive. */
static long long plain_priority_sum(const struct sched_casualty *k)
{
	return (long long)k->priority_sum - (long long)k->victims * 2147483648LL;
}

static void json_casualty(struct json_out *j, const struct sched_casualty *k)
{
	json_begin_object(j);
	json_key(j, "pdb_violations");
	json_int(j, k->pdb_violations);
	json_key(j, "highest_priority");
	json_int(j, k->highest_priority);
	json_key(j, "priority_sum");
	json_int(j, plain_priority_sum(k));
	json_key(j, "kube_priority_sum");
	json_int(j, k->priority_sum);
	json_key(j, "victims");
	json_int(j, k->victims);
	json_key(j, "earliest_start");
	if (k->earliest_start == SCHED_TIME_NOW)
		json_null(j);
	else
		json_int(j, k->earliest_start);
	json_end_object(j);
}

static void json_minimal(struct json_out *j, const struct cluster *c,
			 const struct answers *a)
{
	json_begin_object(j);
	if (a->minimal_rc != 0) {
		json_key(j, "error");
		json_string(j, a->err.msg);
		json_end_object(j);
		return;
	}
	const struct sched_preemption *m = &a->minimal;
	json_key(j, "node");
	json_string(j, node_name(c, m->node));
	json_key(j, "victims");
	json_pods(j, c, m->chosen.pods, m->node >= 0 ? m->chosen.n : 0);
	json_key(j, "casualty");
	if (m->node >= 0)
		json_casualty(j, &m->chosen.casualty);
	else
		json_null(j);
	json_end_object(j);
}

static void json_candidates(struct json_out *j, const struct cluster *c,
			    const struct sched_preemption *k)
{
	json_begin_array(j);
	for (int i = 0; i < k->n_candidates; i++) {
		const struct sched_victims *v = &k->candidates[i];
		json_begin_object(j);
		json_key(j, "node");
		json_string(j, node_name(c, v->node));
		json_key(j, "victims");
		json_pods(j, c, v->pods, v->n);
		json_key(j, "pdb_violations");
		json_int(j, v->pdb_violations);
		json_key(j, "casualty");
		json_casualty(j, &v->casualty);
		json_end_object(j);
	}
	json_end_array(j);
}

static void json_answers(struct json_out *j, const struct cluster *c,
			 const struct answers *a)
{
	const struct sched_preemption *k = &a->kube;
	json_begin_object(j);
	json_key(j, "eligible");
	json_bool(j, k->eligible);
	json_key(j, "node");
	json_string(j, node_name(c, k->node));
	json_key(j, "victims");
	json_pods(j, c, k->chosen.pods, k->node >= 0 ? k->chosen.n : 0);
	json_key(j, "pdb_violations");
	json_int(j, k->node >= 0 ? k->chosen.pdb_violations : 0);
	json_key(j, "nominated_nodes_equal");
	json_begin_array(j);
	for (int i = 0; i < k->n_ties; i++)
		json_string(j, node_name(c, k->ties[i]));
	json_end_array(j);
	json_key(j, "possible_nodes");
	if (k->node >= 0 && !a->possible) {
		json_null(j);
	} else {
		json_begin_array(j);
		for (int n = 0; n < c->n_nodes && a->possible; n++)
			if (a->possible[n])
				json_string(j, node_name(c, n));
		json_end_array(j);
	}
	json_key(j, "candidates");
	json_candidates(j, c, k);
	json_key(j, "cleared_nominations");
	json_pods(j, c, k->clear_nominated, k->n_clear_nominated);
	json_key(j, "message");
	json_string(j, k->message ? k->message : "");
	json_key(j, "minimal");
	json_minimal(j, c, a);
	json_key(j, "differs");
	json_bool(j, differ(a));
	json_end_object(j);
}

/* --------------------------------------------------------------- table */

static void table_answer(FILE *f, const struct cluster *c, const char *who,
			 const struct sched_preemption *p)
{
	char buf[512];
	fprintf(f, "  %-8s node %s, evict", who, node_name(c, p->node));
	for (int i = 0; i < p->chosen.n; i++) {
		cluster_pod_key(c, p->chosen.pods[i], buf, sizeof buf);
		fprintf(f, "%s %s", i ? "," : "", buf);
	}
	const struct sched_casualty *k = &p->chosen.casualty;
	/* kube compares sum(priority + 2^31); a person reads the plain sum
	 * (the JSON's kube_priority_sum keeps kube's) */
	long long plain = plain_priority_sum(k);
	fprintf(f, "\n           casualty: %d PDB violation(s), highest "
		   "priority %d, priorities summing to %lld, %d victim(s)\n",
		k->pdb_violations, (int)k->highest_priority, plain, k->victims);
}

/* The nodes kube may nominate, when the walk's offset matters. */
static void table_possible(FILE *f, const struct cluster *c,
			   const struct answers *a)
{
	if (a->n_offsets <= 1)
		return;
	if (!a->possible) {
		fprintf(f, "           kube's possible nodes over its %d walk "
			   "offsets: not worked out (too many dry runs)\n",
			a->n_offsets);
		return;
	}
	fprintf(f, "           kube may nominate, over its %d walk offsets:",
		a->n_offsets);
	for (int n = 0; n < c->n_nodes; n++)
		if (a->possible[n])
			fprintf(f, " %s", node_name(c, n));
	fprintf(f, "\n");
}

static void table_answers(FILE *f, const struct cluster *c,
			  const struct answers *a)
{
	const struct sched_preemption *k = &a->kube;
	fprintf(f, "\npreemption:\n");
	if (k->node >= 0) {
		table_answer(f, c, "kube:", k);
		if (k->n_ties) {
			fprintf(f, "           equal on every criterion kube "
				   "compares candidates by:");
			for (int i = 0; i < k->n_ties; i++)
				fprintf(f, " %s", node_name(c, k->ties[i]));
			fprintf(f, " (kube picks among them at random; kso the "
				   "first)\n");
		}
		table_possible(f, c, a);
	} else {
		fprintf(f, "  kube:    no preemption (%s)\n",
			k->message ? k->message : "");
	}
	if (a->minimal_rc != 0)
		fprintf(f, "  minimal: not computed: %s\n", a->err.msg);
	else if (a->minimal.node >= 0)
		table_answer(f, c, "minimal:", &a->minimal);
	else
		fprintf(f, "  minimal: no node and subset of lower-priority "
			   "pods makes the pod feasible\n");
	if (differ(a))
		fprintf(f, "  the answers differ: kube's greedy reprieve "
			   "(evict every lower-priority pod, then give back "
			   "what fits) is not the least Casualty\n");
	else if (a->minimal_rc == 0)
		fprintf(f, "  the answers agree\n");
}

void cli_explain_preemption(const struct cli_explain *x, struct json_out *j,
			    FILE *f, char *postfilter, size_t len)
{
	assert(x && x->result && x->snap && x->profile);
	if (len)
		postfilter[0] = '\0';
	if (!applies(x)) {
		if (j)
			json_null(j);
		/* another PostFilter plugin than DefaultPreemption (v1.34's
		 * DynamicResources) still has its say in the message */
		if (len && x->result->code == SCHED_UNSCHEDULABLE &&
		    config_has_postfilter(x->profile)) {
			struct sched_preemption k;
			sched_preemption_init(&k);
			kube_at(x, 0, &k);
			snprintf(postfilter, len, "%s", k.message ? k.message : "");
			sched_preemption_release(&k);
		}
		return;
	}
	struct answers a;
	answers_run(x, &a);
	if (len && a.kube.message)
		snprintf(postfilter, len, "%s", a.kube.message);
	if (j)
		json_answers(j, x->cluster, &a);
	else if (f)
		table_answers(f, x->cluster, &a);
	answers_release(&a);
}
