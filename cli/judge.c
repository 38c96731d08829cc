/*
 * judge.c - the verdict on another scheduler's decision (judge.h), from
 * kso's cycle (reference §1.3-§1.7) and kube's DefaultPreemption (§3).
 */
#include "judge.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../model/preemption.h"
#include "../core/xalloc.h"

static const char *const names[JUDGMENT_COUNT] = {
	[JUDGMENT_OK] = "ok",
	[JUDGMENT_NOT_VIABLE] = "not-viable",
	[JUDGMENT_INFEASIBLE] = "infeasible",
	[JUDGMENT_SHOULD_HAVE_FIT] = "should-have-fit",
	[JUDGMENT_SHOULD_NOT_PREEMPT] = "should-not-preempt",
	[JUDGMENT_SHOULD_HAVE_PREEMPTED] = "should-have-preempted",
	[JUDGMENT_WRONG_PREEMPTION_NODE] = "wrong-preemption-node",
	[JUDGMENT_VICTIMS_DIFFER] = "victims-differ",
	[JUDGMENT_MESSAGE_DIFFERS] = "message-differs",
	[JUDGMENT_EXPLAIN_DIFFERS] = "explain-differs",
	[JUDGMENT_REFUSED] = "refused",
};

const char *judgment_name(enum judgment_kind k)
{
	assert(k >= 0 && k < JUDGMENT_COUNT);
	return names[k];
}

/* "a,b,c": names of nodes[0..n) into buf. */
void judge_answer_text(const struct cluster *c, const struct impl_answer *a,
		       char *buf, size_t len)
{
	char pods[512];
	switch (a->action) {
	case IMPL_BIND:
		snprintf(buf, len, "bind %s", c->nodes[a->node].name);
		return;
	case IMPL_PREEMPT:
		cluster_pod_list(c, a->victims, a->n_victims, pods, sizeof pods);
		snprintf(buf, len, "preempt on %s: %s", c->nodes[a->node].name, pods);
		return;
	case IMPL_UNSCHEDULABLE:
		snprintf(buf, len, "unschedulable: %s", a->message);
		return;
	case IMPL_REFUSED:
		snprintf(buf, len, "error: %s", a->message);
		return;
	}
}

static void set(struct judgment *v, enum judgment_kind k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set(struct judgment *v, enum judgment_kind k, const char *fmt, ...)
{
	v->kind = k;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(v->detail, sizeof v->detail, fmt, ap);
	va_end(ap);
}

static bool in(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* "Plugin: first reason" of plugin id's status on node verdict v. */
static size_t put_failure(const struct sched_node_verdict *v, int id,
			  char *buf, size_t len)
{
	const struct sched_status *st = &v->status[id];
	int k = snprintf(buf, len, "%s: %s", config_plugin_name(id),
			 st->n_reasons ? sched_status_reason(st, 0) : "rejected");
	return k < 0 ? 0 : (size_t)k;
}

/* The reasons kso's cycle rejected node n, for a verdict's detail: the
 * filter kube records first, then every other filter that rejects the
 * node too (kso runs them all, DEVIATIONS B3), in Filter order - a
 * scheduler missing two filters learns of both. */
static void rejection(const struct cli_explain *x, int n, char *buf, size_t len)
{
	const struct sched_node_verdict *v = &x->result->verdicts[n];
	if (!x->result->in_prefilter_result[n]) {
		/* read after "is rejected by": no filter ran on the node */
		snprintf(buf, len, "PreFilter, whose PreFilterResult leaves it "
			 "out (the nodes a required node affinity names by "
			 "metadata.name), so no filter runs on it");
		return;
	}
	if (v->rejected_by < 0) {
		snprintf(buf, len, "not evaluated");
		return;
	}
	size_t used = put_failure(v, v->rejected_by, buf, len);
	const struct sched_profile *p = x->profile;
	int more = 0;
	for (int k = 0; k < p->n_filter_order && used < len; k++) {
		int id = p->filter_order[k];
		if (id == v->rejected_by || !v->failed[id])
			continue;
		int w = snprintf(buf + used, len - used, more++ ? "; " :
				 " (also rejected by ");
		used += w < 0 ? 0 : (size_t)w;
		if (used < len)
			used += put_failure(v, id, buf + used, len - used);
	}
	if (more && used < len)
		snprintf(buf + used, len - used, ")");
}

/* Into buf: the Score plugins on which the best node b beats node n,
 * largest difference first, with both nodes' weighted scores - what
 * makes n lose. */
static void score_difference(const struct cli_explain *x, int n, int b,
			     char *buf, size_t len)
{
	const struct sched_cycle_result *r = x->result;
	const struct cluster *c = x->cluster;
	int ids[PLUGIN_COUNT], m = 0;
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		int64_t mine = r->scores[(size_t)n * PLUGIN_COUNT + (size_t)id];
		int64_t best = r->scores[(size_t)b * PLUGIN_COUNT + (size_t)id];
		if (x->profile->score[id] && best > mine)
			ids[m++] = id;
	}
	/* insertion sort by difference, descending (stable: plugin order) */
	for (int i = 1; i < m; i++)
		for (int j = i; j > 0; j--) {
			const int64_t *s = r->scores;
			int64_t dj = s[(size_t)b * PLUGIN_COUNT + (size_t)ids[j]] -
				     s[(size_t)n * PLUGIN_COUNT + (size_t)ids[j]];
			int64_t dp = s[(size_t)b * PLUGIN_COUNT + (size_t)ids[j - 1]] -
				     s[(size_t)n * PLUGIN_COUNT + (size_t)ids[j - 1]];
			if (dj <= dp)
				break;
			int t = ids[j];
			ids[j] = ids[j - 1];
			ids[j - 1] = t;
		}
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < m && used < len; i++) {
		int w = snprintf(buf + used, len - used, "%s%s %s %lld < %s %lld",
				 i ? ", " : "", config_plugin_name(ids[i]),
				 c->nodes[n].name, (long long)r->scores[
				 (size_t)n * PLUGIN_COUNT + (size_t)ids[i]],
				 c->nodes[b].name, (long long)r->scores[
				 (size_t)b * PLUGIN_COUNT + (size_t)ids[i]]);
		used += w < 0 ? 0 : (size_t)w;
	}
}

/* With 100 nodes or more kube scores only the window of feasible nodes
 * its start index reaches: the bind of a feasible node is judged against
 * every window holding it (judge_sampling.c), and the detail says what
 * was judged and what cannot be. */
static void judge_bind_sampled(const struct cli_explain *x,
			       const struct impl_answer *a, struct judgment *v)
{
	const struct cluster *c = x->cluster;
	const char *node = c->nodes[a->node].name;
	struct judge_windows w;
	judge_sampled_windows(x, a->node, &w);
	static const char scope[] = "with %d nodes kube scores only the "
		"feasible nodes its rotating start index reaches (judged: "
		"feasibility on every node, and the scores within each window "
		"kube could sample; not judged: which window a run used)";
	char what[300];
	snprintf(what, sizeof what, scope, c->n_nodes);
	if (w.best_in > 0) {
		set(v, JUDGMENT_OK, "%s is viable in %d of the %d windows holding "
		    "it (e.g. starting at %s); %s", node, w.best_in, w.holding,
		    c->nodes[w.viable_start].name, what);
		return;
	}
	if (w.best_node < 0) {
		set(v, JUDGMENT_NOT_VIABLE, "%s is feasible but no window kube "
		    "could sample scores it; %s", node, what);
		return;
	}
	set(v, JUDGMENT_NOT_VIABLE, "%s is feasible but scores best in none of "
	    "the %d windows holding it: starting at %s it totals %lld, %s "
	    "%lld; %s", node, w.holding, c->nodes[w.example_start].name,
	    (long long)w.node_total, c->nodes[w.best_node].name,
	    (long long)w.best_total, what);
}

static void judge_bind(const struct cli_explain *x, const struct impl_answer *a,
		       struct judgment *v)
{
	const struct sched_cycle_result *r = x->result;
	const struct cluster *c = x->cluster;
	const char *node = c->nodes[a->node].name;
	char buf[512];
	if (v->sampled && x->node_only && r->verdicts[a->node].feasible &&
	    r->in_prefilter_result[a->node]) {
		set(v, JUDGMENT_OK, "%s is feasible; with %d nodes kube scores a "
		    "sample, so only feasibility is judged", node, c->n_nodes);
		return;
	}
	if (v->sampled && r->verdicts[a->node].feasible &&
	    r->in_prefilter_result[a->node] && r->nominated_node < 0) {
		judge_bind_sampled(x, a, v);
		return;
	}
	if (in(r->viable, r->n_viable, a->node)) {
		v->tie = r->n_viable > 1;
		cluster_node_list(c, r->viable, r->n_viable, buf, sizeof buf);
		set(v, JUDGMENT_OK, "%s is viable (viable: %s)", node, buf);
		return;
	}
	if (r->verdicts[a->node].feasible && r->in_prefilter_result[a->node]) {
		cluster_node_list(c, r->viable, r->n_viable, buf, sizeof buf);
		char why[600] = "";
		if (r->n_viable)
			score_difference(x, a->node, r->viable[0], why, sizeof why);
		set(v, JUDGMENT_NOT_VIABLE, "%s is feasible but scores %lld, the "
		    "viable nodes (%s) %lld; weighted scores that decide: %s",
		    node, (long long)r->total[a->node], buf,
		    r->n_viable ? (long long)r->total[r->viable[0]] : 0LL, why);
		return;
	}
	rejection(x, a->node, buf, sizeof buf);
	set(v, JUDGMENT_INFEASIBLE, "%s is rejected by %s", node, buf);
}

/* Victims as a set (the order of a preemption answer is not compared). */
static bool same_set(const int *a, int na, const int *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (!in(b, nb, a[i]))
			return false;
	return true;
}

enum sched_code judge_kube_victims(const struct cli_explain *x, int node,
				   struct sched_victims *out)
{
	assert(x && out && node >= 0 && node < x->cluster->n_nodes);
	struct sched_status st;
	int32_t *allowed = xcalloc((size_t)x->cluster->n_pdbs + 1, sizeof *allowed);
	model_pdb_allowed(x->snap, allowed);
	memset(out, 0, sizeof *out);
	enum sched_code code = model_select_victims_on_node(x->profile, x->snap,
							    x->pod, node, allowed,
							    out, &st);
	free(allowed);
	return code;
}

/* Casualty key k (1-5, pickOneNodeForPreemption's order) of c as text. */
static void casualty_value(const struct sched_casualty *c, int k, char *buf,
			   size_t len)
{
	switch (k) {
	case 1:
		snprintf(buf, len, "%d", c->pdb_violations);
		return;
	case 2:
		snprintf(buf, len, "%d", (int)c->highest_priority);
		return;
	case 3:
		/* kube sums priority + MaxInt32 + 1 per victim; the sum of
		 * the priorities themselves orders the same for one count */
		snprintf(buf, len, "%lld", (long long)(c->priority_sum -
			 (int64_t)c->victims * ((int64_t)1 << 31)));
		return;
	case 4:
		snprintf(buf, len, "%d", c->victims);
		return;
	default:
		if (c->earliest_start == SCHED_TIME_NOW) {
			snprintf(buf, len, "none (now)");
			return;
		}
		time_t t = (time_t)c->earliest_start;
		struct tm tm;
		gmtime_r(&t, &tm);
		strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
}

/* Which pickOneNodeForPreemption criterion (reference §3.5) puts kube's
 * node kn before node n, with both values, into buf; when n is no
 * candidate at all, why. */
static void preemption_difference(const struct cli_explain *x,
				  const struct sched_preemption *k, int n,
				  char *buf, size_t len)
{
	static const char *const keys[] = {
		NULL, "fewest PDB violations", "lowest highest victim priority",
		"lowest sum of victim priorities", "fewest victims",
		"latest start time of the highest-priority victims",
	};
	const struct cluster *c = x->cluster;
	const char *kn = c->nodes[k->node].name, *nn = c->nodes[n].name;
	if (x->result->verdicts[n].code != SCHED_UNSCHEDULABLE) {
		/* only nodes whose status is exactly Unschedulable are
		 * potential nodes (§3.2) */
		char why[400];
		rejection(x, n, why, sizeof why);
		snprintf(buf, len, "kube tries no preemption on %s: its status "
			 "is UnschedulableAndUnresolvable (%s)", nn, why);
		return;
	}
	struct sched_victims mine;
	enum sched_code code = judge_kube_victims(x, n, &mine);
	if (code != SCHED_SUCCESS || mine.n == 0) {
		snprintf(buf, len, "%s is no candidate: evicting every "
			 "lower-priority pod there does not make the pod fit", nn);
		free(mine.pods);
		return;
	}
	const struct sched_casualty *a = &k->chosen.casualty, *b = &mine.casualty;
	for (int key = 1; key <= 5; key++) {
		char va[64], vb[64];
		casualty_value(a, key, va, sizeof va);
		casualty_value(b, key, vb, sizeof vb);
		if (strcmp(va, vb)) {
			snprintf(buf, len, "criterion %d (%s): %s %s, %s %s", key,
				 keys[key], kn, va, nn, vb);
			free(mine.pods);
			return;
		}
	}
	snprintf(buf, len, "%s ties with %s on every criterion, but kube's "
		 "candidate walk (numCandidates from a random offset) never "
		 "reaches %s", nn, kn, nn);
	free(mine.pods);
}

static void judge_preempt(const struct cli_explain *x, const struct impl_answer *a,
			  const struct sched_preemption *k, const bool *possible,
			  struct judgment *v)
{
	const struct cluster *c = x->cluster;
	const char *node = c->nodes[a->node].name;
	char buf[512];
	if (x->result->n_viable > 0) {
		cluster_node_list(c, x->result->viable, x->result->n_viable, buf, sizeof buf);
		set(v, JUDGMENT_SHOULD_HAVE_FIT, "preempts on %s although %s fit%s",
		    node, buf, x->result->n_viable > 1 ? "" : "s");
		return;
	}
	if (k->node < 0) {
		set(v, JUDGMENT_SHOULD_NOT_PREEMPT, "kube finds no preemption "
		    "candidate: %s", k->message ? k->message : "");
		return;
	}
	bool could = possible ? possible[a->node] : a->node == k->node ||
		     in(k->ties, k->n_ties, a->node);
	if (!could) {
		preemption_difference(x, k, a->node, buf, sizeof buf);
		set(v, JUDGMENT_WRONG_PREEMPTION_NODE, "kube nominates %s (or a node "
		    "tied with it), never %s; %s", c->nodes[k->node].name, node,
		    buf);
		return;
	}
	/* kube's victims on the node the implementation chose */
	struct sched_victims want;
	enum sched_code code = judge_kube_victims(x, a->node, &want);
	if (code != SCHED_SUCCESS ||
	    !same_set(want.pods, want.n, a->victims, a->n_victims)) {
		char got[512];
		cluster_pod_list(c, want.pods, code == SCHED_SUCCESS ? want.n : 0, buf,
			  sizeof buf);
		cluster_pod_list(c, a->victims, a->n_victims, got, sizeof got);
		set(v, JUDGMENT_VICTIMS_DIFFER, "on %s kube evicts [%s], not [%s]",
		    node, buf, got);
	} else {
		v->tie = k->n_ties > 0 || a->node != k->node;
		set(v, JUDGMENT_OK, "kube may nominate %s and evict the same pods",
		    node);
	}
	free(want.pods);
}

static void judge_unschedulable(const struct cli_explain *x,
				const struct impl_answer *a,
				const struct sched_preemption *k, bool strict,
				struct judgment *v)
{
	const struct cluster *c = x->cluster;
	char buf[512];
	if (x->result->n_viable > 0) {
		cluster_node_list(c, x->result->viable, x->result->n_viable, buf, sizeof buf);
		set(v, JUDGMENT_SHOULD_HAVE_FIT, "%s fit%s", buf,
		    x->result->n_viable > 1 ? "" : "s");
		return;
	}
	if (k->node >= 0) {
		cluster_pod_list(c, k->chosen.pods, k->chosen.n, buf, sizeof buf);
		set(v, JUDGMENT_SHOULD_HAVE_PREEMPTED, "kube preempts on %s: %s",
		    c->nodes[k->node].name, buf);
		return;
	}
	char *want = cli_event_message(x->result, k->message);
	if (strict && strcmp(want, a->message))
		set(v, JUDGMENT_MESSAGE_DIFFERS, "kube's message is \"%.900s\"", want);
	else
		set(v, JUDGMENT_OK, "nothing fits and kube finds no preemption candidate");
	free(want);
}

/* What kube records for filter plugin id on node n (the simulator's
 * filterResult): "passed", the plugin's reasons joined as Status.Message()
 * joins them, or NULL when kube does not run it there (outside the
 * PreFilterResult, not enabled, or after the rejecting filter). */
static const char *filter_record(const struct cli_explain *x, int n, int id,
				 char *buf, size_t len)
{
	const struct sched_cycle_result *r = x->result;
	const struct sched_node_verdict *v = &r->verdicts[n];
	if (id < 0 || !r->in_prefilter_result[n] ||
	    (r->nominated_node >= 0 && n != r->nominated_node) ||
	    r->prefilter.code == SCHED_UNSCHEDULABLE || r->prefilter.code == SCHED_UAU)
		return NULL;
	const struct sched_profile *p = x->profile;
	for (int k = 0; k < p->n_filter_order; k++) {
		int f = p->filter_order[k];
		if (f != id) {
			if (f == v->rejected_by)
				return NULL;   /* kube stopped before id */
			continue;
		}
		if (f != v->rejected_by)
			return "passed";
		const struct sched_status *st = &v->status[f];
		size_t used = 0;
		buf[0] = '\0';
		for (int i = 0; i < st->n_reasons && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 i ? ", " : "",
						 sched_status_reason(st, i));
		return buf;
	}
	return NULL;
}

/* The first explain entry kube would not record, into v. */
static void judge_explain(const struct cli_explain *x, const struct impl_answer *a,
			  struct judgment *v)
{
	const struct sched_cycle_result *r = x->result;
	const struct cluster *c = x->cluster;
	for (int i = 0; i < a->n_explain; i++) {
		const struct impl_explain_entry *e = &a->explain[i];
		const char *node = c->nodes[e->node].name;
		char want[600];
		if (e->unmodelled)
			continue;
		if (!e->score) {
			const char *rec = filter_record(x, e->node, e->plugin, want,
							sizeof want);
			if (!rec) {
				set(v, JUDGMENT_EXPLAIN_DIFFERS, "filterResult %s %s: kube "
				    "does not run that filter on %s", node,
				    e->plugin_name, node);
				return;
			}
			if (strcmp(rec, e->value)) {
				set(v, JUDGMENT_EXPLAIN_DIFFERS, "filterResult %s %s is "
				    "\"%.300s\", kube's \"%.300s\"", node,
				    e->plugin_name, e->value, rec);
				return;
			}
			continue;
		}
		if (v->sampled)
			continue;   /* normalization ran over kube's sample */
		bool scored = r->scored && e->plugin >= 0 &&
			      x->profile->score[e->plugin] &&
			      r->verdicts[e->node].feasible &&
			      r->in_prefilter_result[e->node];
		if (!scored) {
			set(v, JUDGMENT_EXPLAIN_DIFFERS, "finalScoreResult %s %s: kube "
			    "does not score %s with it%s", node, e->plugin_name, node,
			    !r->scored ? " (it scores only when two nodes or more "
			    "are feasible)" : "");
			return;
		}
		snprintf(want, sizeof want, "%lld", (long long)
			 r->scores[(size_t)e->node * PLUGIN_COUNT + (size_t)e->plugin]);
		if (strcmp(want, e->value)) {
			set(v, JUDGMENT_EXPLAIN_DIFFERS, "finalScoreResult %s %s is "
			    "%.64s, kube's %s", node, e->plugin_name, e->value, want);
			return;
		}
	}
}

static void judge_action(const struct cli_explain *x, const struct impl_answer *a,
			 bool strict, struct judgment *v);

void judge_decision(const struct cli_explain *x, const struct impl_answer *a,
		    bool strict, struct judgment *v)
{
	judge_action(x, a, strict, v);
	if (v->kind == JUDGMENT_OK && a->n_explain > 0)
		judge_explain(x, a, v);
}

static void judge_action(const struct cli_explain *x, const struct impl_answer *a,
			 bool strict, struct judgment *v)
{
	assert(x && x->result && a && v);
	memset(v, 0, sizeof *v);
	v->sampled = x->cluster->n_nodes >= 100;
	if (a->action == IMPL_REFUSED) {
		set(v, JUDGMENT_REFUSED, "the implementation answered with an error: "
		    "%.900s", a->message);
		return;
	}
	if (a->action == IMPL_BIND) {
		judge_bind(x, a, v);
		return;
	}
	struct sched_preemption k;
	sched_preemption_init(&k);
	int n_offsets = 0;
	/* when a node fits, both verdicts are should-have-fit before kube's
	 * preemption is looked at: it is not run */
	bool *possible = x->result->n_viable > 0 ? NULL
		: cli_kube_preemption(x, &k, &n_offsets);
	if (a->action == IMPL_PREEMPT)
		judge_preempt(x, a, &k, possible, v);
	else
		judge_unschedulable(x, a, &k, strict, v);
	free(possible);
	sched_preemption_release(&k);
}
