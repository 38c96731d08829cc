/*
 * checks.c - what the enumerator checks on every state (the issue's
 * "Checks on every state"):
 *
 *   agreement  the whole verdict of the oracle against the model's: the
 *              feasible set, scores, viable set and chosen node, then
 *              every node's feasibility, recorded code, rejecting plugin,
 *              failed filters and each failed filter's code and reason
 *              strings, the PreFilter and error statuses, skipped scores,
 *              the nominated fast path and the FitError message (a
 *              disagreement is a bug in one of them; its text names the
 *              first field that differs);
 *   preemption the oracle's DefaultPreemption (its engine's preempt)
 *              against the model's (model_preempt_kube), field by field:
 *              eligibility, code, PostFilter message, node, victims, PDB
 *              violations, the candidate list, the tied nodes and the
 *              cleared nominations; kube's answer against the spec's
 *              least-Casualty answer (model_preempt_minimal);
 *   invariants the model's (model/scheduler.h) after the step the
 *              scheduler would take: capacity, bind-feasible,
 *              victim-priority, nominated-feasible;
 *   findings   kube's preemption worse than the minimal one; binding the
 *              pod to a viable node breaks a bound pod's hard topology
 *              spread or pod (anti-)affinity.
 */
#include "../core/limits.h"
#include "enum.h"
#include "../core/engine.h"
#include "../core/fnv.h"
#include "../core/strbuf.h"

#include "../model/match.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const finding_names[ENUM_FIND_COUNT] = {
	[ENUM_FIND_PREEMPT_WORSE] = "preemption-worse",
	[ENUM_FIND_BREAKS_EARLIER] = "breaks-earlier",
	[ENUM_FIND_WORSE_FINAL] = "worse-final",
	[ENUM_FIND_IMPL] = "impl",
	[ENUM_FIND_GREEDY_GAP] = "greedy-gap",
	[ENUM_FIND_QUIRK_VISIBLE] = "quirk-visible",
	[ENUM_FIND_VERSION_VISIBLE] = "version-visible",
};

const char *enum_finding_name(enum enum_finding f)
{
	assert(f >= 0 && f < ENUM_FIND_COUNT);
	return finding_names[f];
}

/* ----------------------------------------------------------- context */

static bool may_break(const struct pod *q, const struct pod *p);
static void check_bind_fresh(struct enum_ctx *x, int pod, int node,
			     struct enum_outcome *out);

/* The largest memo of hard_ok verdicts a context keeps (bytes):
 * ENUM_HARD_MEMO_MAX (core/limits.h). */

void enum_ctx_init(struct enum_ctx *x, const struct enum_scenario *sc)
{
	assert(x && sc);
	memset(x, 0, sizeof *x);
	x->sc = sc;
	x->compare_version = -1;
	x->c = &sc->cluster;
	snapshot_init(&x->snap, x->c);
	for (int p = 0; p < x->c->n_pods; p++) {
		x->snap.pod_node[p] = SNAP_PENDING;
		x->snap.nominated[p] = -1;
	}
	snapshot_clone(&x->after, &x->snap);
	snapshot_clone(&x->view, &x->snap);
	/* scratch model_feasibility_of fills in full before any read: no
	 * need to clear its few KB for every scenario */
	x->verdict = xmalloc(sizeof *x->verdict);
	uint64_t states = enum_placement_count(x->c->n_nodes, x->c->n_pods);
	if (states <= ENUM_HARD_MEMO_MAX / ((uint64_t)x->c->n_pods + 1))
		x->hard_memo = xcalloc((size_t)states * (size_t)x->c->n_pods, 1);
	/* explain mode: compare() reads every node's verdict, the
	 * statuses and the messages too */
	struct error err;
	error_init(&err);
	const struct engine_loop_opts lo = {.all_nodes = true};
	if (oracle_engine.open(&x->snap, &lo, &x->oracle, &err) < 0)
		abort();   /* the oracle opens on any placement */
	sched_cycle_result_init(&x->mr, x->c);
	sched_cycle_result_init(&x->orr, x->c);
	/* keyed on the context's cluster, which outlives the cache */
	enum_spread_cache_init(&x->spread_cache, x->c);
	model_context_init(&x->model, x->c);
	size_t n = (size_t)x->c->n_pods + 1;
	x->placed = xcalloc(n, sizeof *x->placed);
	x->waiting = xcalloc(n, sizeof *x->waiting);
	x->queued_at = xcalloc(n, sizeof *x->queued_at);
	x->step_invariants = true;
	x->step_m.cluster = x->c;
	x->step_m.placed = x->placed;
	x->step_m.waiting = x->waiting;
	x->step_m.queued_at = x->queued_at;
	x->step_m.ctx = &x->model;
	x->prof = xcalloc(n, sizeof *x->prof);
	for (int p = 0; p < x->c->n_pods; p++)
		x->prof[p] = model_profile_for(x->c, p);
	int np = x->c->n_pods;
	x->may_break = xcalloc((size_t)np * (size_t)np + 1, sizeof *x->may_break);
	x->may_be_broken = xcalloc((size_t)np + 1, sizeof *x->may_be_broken);
	for (int q = 0; q < np; q++)
		for (int p = 0; p < np; p++) {
			x->may_break[q * np + p] =
				may_break(&x->c->pods[q], &x->c->pods[p]);
			x->may_be_broken[p] |= x->may_break[q * np + p];
		}
	x->pdb_spends = xcalloc((size_t)np * (size_t)x->c->n_pdbs + 1,
				sizeof *x->pdb_spends);
	model_pdb_spends(x->c, x->pdb_spends);
	enum_reuse_init(&x->reuse, x->c, x->prof, true);
	enum_decisions_init(&x->decisions, x);
}

void enum_model_given(struct enum_ctx *x, const struct sched_profile *prof,
		      int pod, struct model_given *out)
{
	*out = (struct model_given){
		.ctx = &x->model,
		.spread = enum_spread_cache_get(&x->spread_cache, prof, pod),
		.affinity = enum_affinity_cache_get(&x->spread_cache, pod),
	};
}

void enum_ctx_release(struct enum_ctx *x)
{
	assert(x);
	oracle_engine.close(&x->oracle);
	snapshot_release(&x->snap);
	snapshot_release(&x->after);
	snapshot_release(&x->view);
	free(x->verdict);
	free(x->hard_memo);
	sched_cycle_result_release(&x->mr);
	sched_cycle_result_release(&x->orr);
	enum_spread_cache_release(&x->spread_cache);
	/* a shallow copy: its arena and objects are the scenario's */
	free(x->quirk_alt);
	if (x->version_alt) {
		enum_scenario_release(x->version_alt);
		free(x->version_alt);
	}
	model_context_release(&x->model);
	free(x->placed);
	free(x->waiting);
	free(x->queued_at);
	free(x->prof);
	free(x->may_break);
	free(x->may_be_broken);
	free(x->pdb_spends);
	enum_reuse_release(&x->reuse);
	enum_decisions_release(&x->decisions);
	memset(x, 0, sizeof *x);
}

/* ----------------------------------------------------------- outcome */

/* Field by field rather than one memset: the outcome is ~5 KB of detail
 * text, initialized for every decision of every state, and a detail is
 * only read as a string (empty here) or when its flag is set. */
void enum_outcome_init(struct enum_outcome *o)
{
	assert(o);
	o->pod = -1;
	o->agree = true;
	o->disagreement[0] = '\0';
	o->oracle_choice = -1;
	o->bind_node = -1;
	o->preempted = false;
	o->oracle_preempt_checked = false;
	/* kube, minimal and oracle_pr are valid when preempted: the
	 * preemption check initializes them (most decisions bind) */
	o->minimal_ok = false;
	for (int i = 0; i < MODEL_INV_COUNT; i++) {
		o->inv[i] = false;
		o->inv_detail[i][0] = '\0';
	}
	for (int i = 0; i < ENUM_FIND_COUNT; i++) {
		o->find[i] = false;
		o->find_detail[i][0] = '\0';
	}
	for (int q = 0; q < QUIRK_COUNT; q++)
		o->quirk_visible[q] = false;
	o->version_items = 0;
}

void enum_outcome_release(struct enum_outcome *o)
{
	/* check_preemption initializes the three and sets preempted */
	if (!o->preempted)
		return;
	sched_preemption_release(&o->kube);
	sched_preemption_release(&o->minimal);
	sched_preemption_release(&o->oracle_pr);
}

bool enum_outcome_issue(const struct enum_outcome *o)
{
	if (!o->agree)
		return true;
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (o->inv[i])
			return true;
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		if (o->find[i])
			return true;
	return false;
}

int enum_bind_node(const struct cluster *c, const struct sched_cycle_result *r)
{
	if (r->n_viable == 0)
		return -1;
	if (r->nominated_node >= 0)
		return r->nominated_node;
	int best = r->viable[0];
	for (int i = 1; i < r->n_viable; i++)
		if (strcmp(c->nodes[r->viable[i]].name, c->nodes[best].name) < 0)
			best = r->viable[i];
	return best;
}

/* --------------------------------------------------------- agreement */

static bool same_list(const int *a, int na, const int *b, int nb)
{
	return na == nb && (na == 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0);
}

static bool in_list(const int *v, int n, int x)
{
	for (int i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

/* The first score difference on a feasible node, or false. */
static bool score_diff(const struct cluster *c, const struct sched_cycle_result *m,
		       const struct sched_cycle_result *o, char *why, size_t len)
{
	for (int i = 0; i < m->n_feasible; i++) {
		int n = m->feasible[i];
		/* nearly always equal: one compare of the row first */
		const size_t row = sizeof m->scores[0] * PLUGIN_COUNT;
		if (m->total[n] == o->total[n] &&
		    memcmp(&m->scores[n * PLUGIN_COUNT],
			   &o->scores[n * PLUGIN_COUNT], row) == 0)
			continue;
		for (int pl = 0; pl < PLUGIN_COUNT; pl++) {
			int64_t a = m->scores[n * PLUGIN_COUNT + pl];
			int64_t b = o->scores[n * PLUGIN_COUNT + pl];
			if (a == b)
				continue;
			snprintf(why, len, "score %s on %s: model %" PRId64 ", oracle %" PRId64,
				 config_plugin_name(pl), c->nodes[n].name, a, b);
			return true;
		}
		if (m->total[n] != o->total[n]) {
			snprintf(why, len, "total on %s: model %" PRId64 ", oracle %" PRId64,
				 c->nodes[n].name, m->total[n], o->total[n]);
			return true;
		}
	}
	return false;
}

static const char *plugin_or_none(int id)
{
	return id >= 0 && id < PLUGIN_COUNT ? config_plugin_name(id) : "none";
}

/* Two statuses: the same code and the same reason strings, in order.
 * Nearly always equal: the packed texts are compared at once, the field
 * name (field, then the node and plugin when given) only formatted into
 * why when they differ. */
static bool same_status(const char *field, const char *node, int plugin,
			const struct sched_status *a,
			const struct sched_status *b, char *why, size_t len)
{
	if (a->code == b->code && a->n_reasons == b->n_reasons &&
	    a->used == b->used &&
	    memcmp(a->text, b->text, a->used) == 0 &&
	    memcmp(a->off, b->off, sizeof a->off[0] * (size_t)a->n_reasons) == 0)
		return true;
	char name[128];
	if (node)
		snprintf(name, sizeof name, "%s[%s].status[%s]", field, node,
			 config_plugin_name(plugin));
	else
		snprintf(name, sizeof name, "%s", field);
	if (a->code != b->code) {
		snprintf(why, len, "%s.code: model %d, oracle %d", name,
			 (int)a->code, (int)b->code);
		return false;
	}
	int n = a->n_reasons > b->n_reasons ? a->n_reasons : b->n_reasons;
	for (int i = 0; i < n; i++) {
		const char *ra = i < a->n_reasons ? sched_status_reason(a, i) : "(none)";
		const char *rb = i < b->n_reasons ? sched_status_reason(b, i) : "(none)";
		if (i < a->n_reasons && i < b->n_reasons && !strcmp(ra, rb))
			continue;
		snprintf(why, len, "%s.reasons[%d]: model \"%.150s\", oracle "
			 "\"%.150s\"", name, i, ra, rb);
		return false;
	}
	return true;   /* same reasons, packed differently */
}

static bool same_node_verdict(const char *node, const struct sched_node_verdict *a,
			      const struct sched_node_verdict *b, char *why,
			      size_t len);

/* One node's verdict, field by field. */
static bool same_verdict(const struct cluster *c, int n,
			 const struct sched_cycle_result *m,
			 const struct sched_cycle_result *o, char *why, size_t len)
{
	const struct sched_node_verdict *a = &m->verdicts[n], *b = &o->verdicts[n];
	const char *node = c->nodes[n].name;
	if (m->in_prefilter_result[n] != o->in_prefilter_result[n]) {
		snprintf(why, len, "verdict[%s].in_prefilter_result: model %d, "
			 "oracle %d", node, m->in_prefilter_result[n],
			 o->in_prefilter_result[n]);
		return false;
	}
	return same_node_verdict(node, a, b, why, len);
}

/* Two verdicts of one node (named node), field by field but the
 * PreFilterResult. */
static bool same_node_verdict(const char *node, const struct sched_node_verdict *a,
			      const struct sched_node_verdict *b, char *why,
			      size_t len)
{
	if (a->feasible != b->feasible || a->code != b->code ||
	    a->rejected_by != b->rejected_by) {
		snprintf(why, len, "verdict[%s]: model %s/%d/%s, oracle %s/%d/%s "
			 "(feasible/code/rejected_by)", node,
			 a->feasible ? "feasible" : "rejected", (int)a->code,
			 plugin_or_none(a->rejected_by),
			 b->feasible ? "feasible" : "rejected", (int)b->code,
			 plugin_or_none(b->rejected_by));
		return false;
	}
	/* the failed sets nearly always match: one compare, then only the
	 * failed filters' statuses */
	bool same_failed = memcmp(a->failed, b->failed, sizeof a->failed) == 0;
	if (same_failed && a->feasible)
		return true;
	if (same_failed) {
		/* the failed filters (true bytes of failed[]) in turn */
		const bool *end = a->failed + PLUGIN_COUNT;
		for (const bool *f = a->failed;
		     (f = memchr(f, true, (size_t)(end - f))) != NULL; f++) {
			int id = (int)(f - a->failed);
			if (!same_status("verdict", node, id, &a->status[id],
					 &b->status[id], why, len))
				return false;
		}
		return true;
	}
	for (int id = 0; id < PLUGIN_COUNT; id++) {
		if (a->failed[id] != b->failed[id]) {
			snprintf(why, len, "verdict[%s].failed[%s]: model %d, oracle %d",
				 node, config_plugin_name(id), a->failed[id],
				 b->failed[id]);
			return false;
		}
		if (a->failed[id] &&
		    !same_status("verdict", node, id, &a->status[id],
				 &b->status[id], why, len))
			return false;
	}
	return true;
}

/* Everything else both engines report for the cycle: per-node verdicts,
 * the PreFilter and error statuses, skipped scores, the nominated fast
 * path and the message. */
static bool same_cycle(const struct cluster *c, const struct sched_cycle_result *m,
		       const struct sched_cycle_result *o, const bool *paired,
		       char *why, size_t len)
{
	if (m->code == SCHED_UAU && c->n_nodes == 0)
		return true;
	/* a paired node's verdict is the one both engines gave for the same
	 * pod, node and pods on it, compared when it was paired
	 * (enum/verdict_reuse.c), and given to both this time */
	for (int n = 0; n < c->n_nodes; n++)
		if (!(paired && paired[n]) && !same_verdict(c, n, m, o, why, len))
			return false;
	if (!same_status("prefilter", NULL, 0, &m->prefilter, &o->prefilter,
			 why, len) ||
	    !same_status("error", NULL, 0, &m->error, &o->error, why, len))
		return false;
	/* nearly always equal: one compare of the arrays first */
	bool skipped_same = !m->scored ||
		memcmp(m->score_skipped, o->score_skipped,
		       sizeof *m->score_skipped * PLUGIN_COUNT) == 0;
	for (int id = 0; !skipped_same && id < PLUGIN_COUNT; id++)
		if (m->score_skipped[id] != o->score_skipped[id]) {
			snprintf(why, len, "score_skipped[%s]: model %d, oracle %d",
				 config_plugin_name(id), m->score_skipped[id],
				 o->score_skipped[id]);
			return false;
		}
	if (m->nominated_node != o->nominated_node) {
		snprintf(why, len, "nominated_node: model %d, oracle %d",
			 m->nominated_node, o->nominated_node);
		return false;
	}
	const char *ma = m->message ? m->message : "", *ob = o->message ? o->message : "";
	if (strcmp(ma, ob)) {
		snprintf(why, len, "message: model \"%.300s\", oracle \"%.300s\"",
			 ma, ob);
		return false;
	}
	return true;
}

static void compare(const struct cluster *c, const struct sched_cycle_result *m,
		    const struct sched_cycle_result *o, int choice,
		    const bool *paired, struct enum_outcome *out)
{
	char a[200], b[200];
	char *why = out->disagreement;
	size_t len = sizeof out->disagreement;
	out->agree = false;
	if (!same_list(m->feasible, m->n_feasible, o->feasible, o->n_feasible)) {
		cluster_node_list(c, m->feasible, m->n_feasible, a, sizeof a);
		cluster_node_list(c, o->feasible, o->n_feasible, b, sizeof b);
		snprintf(why, len, "feasible: model {%s}, oracle {%s}", a, b);
		return;
	}
	if (m->scored != o->scored) {
		snprintf(why, len, "scoring: model %s, oracle %s",
			 m->scored ? "scored" : "did not score",
			 o->scored ? "scored" : "did not score");
		return;
	}
	if (m->scored && score_diff(c, m, o, why, len))
		return;
	if (!same_list(m->viable, m->n_viable, o->viable, o->n_viable)) {
		cluster_node_list(c, m->viable, m->n_viable, a, sizeof a);
		cluster_node_list(c, o->viable, o->n_viable, b, sizeof b);
		snprintf(why, len, "viable: model {%s}, oracle {%s}", a, b);
		return;
	}
	if (m->n_viable ? !in_list(m->viable, m->n_viable, choice) : choice >= 0) {
		cluster_node_list(c, m->viable, m->n_viable, a, sizeof a);
		snprintf(why, len, "oracle chose %s, model viable {%s}",
			 choice >= 0 ? c->nodes[choice].name : "no node", a);
		return;
	}
	if (m->code != o->code) {
		snprintf(why, len, "cycle code: model %d, oracle %d", (int)m->code,
			 (int)o->code);
		return;
	}
	if (!same_cycle(c, m, o, paired, why, len))
		return;
	out->agree = true;
}

/* ------------------------------------------------ reuse across states */

/* The stored verdicts the oracle has just worked out afresh and agrees
 * with become pairs: later states give them to both engines and compare
 * them no more (enum/verdict_reuse.c). */
static void pair_verdicts(struct enum_ctx *x)
{
	struct enum_verdict_reuse *u = &x->reuse;
	char why[ENUM_DETAIL_LEN];
	if (!u->on || x->orr.code == SCHED_ERROR)
		return;
	for (int n = 0; n < x->c->n_nodes; n++)
		if (u->pairable_now[n] &&
		    same_verdict(x->c, n, &x->mr, &x->orr, why, sizeof why))
			enum_reuse_pair(u, n);
}

/* A verdict in a few words: feasible/code/rejecting plugin and the
 * rejecting status's first reason. */
static void verdict_text(const struct sched_node_verdict *v, char *buf, size_t len)
{
	const struct sched_status *st = v->rejected_by >= 0 &&
		v->rejected_by < PLUGIN_FILTERS ? &v->status[v->rejected_by] : NULL;
	snprintf(buf, len, "%s/%d/%s \"%.100s\"",
		 v->feasible ? "feasible" : "rejected", (int)v->code,
		 plugin_or_none(v->rejected_by),
		 st && st->n_reasons ? sched_status_reason(st, 0) : "");
}

/* A sampled state (enum_reuse_sampled): both engines decided it afresh;
 * each verdict reuse would have given must be the fresh one (the model's,
 * which compare() holds the oracle's to).  A difference is a disagreement
 * of reuse with the engines, "reuse: ..." (a cache keyed on too little). */
static void check_sampled(struct enum_ctx *x, int pod, struct enum_outcome *out)
{
	const struct cluster *c = x->c;
	char why[ENUM_DETAIL_LEN];
	/* the verdicts first: the scores and the message follow from them */
	for (int n = 0; n < c->n_nodes; n++) {
		struct sched_node_verdict *v = x->verdict;
		if (!enum_reuse_stored(&x->reuse, n, v) ||
		    same_node_verdict(c->nodes[n].name, v, &x->mr.verdicts[n],
				      why, sizeof why))
			continue;
		char a[160], b[160];
		verdict_text(v, a, sizeof a);
		verdict_text(&x->mr.verdicts[n], b, sizeof b);
		out->agree = false;
		snprintf(out->disagreement, sizeof out->disagreement,
			 "reuse: %s/%s on %s: stored %s, fresh %s",
			 c->pods[pod].ns, c->pods[pod].name, c->nodes[n].name, a, b);
		return;
	}
	for (int n = 0; n < c->n_nodes; n++) {
		if (!enum_reuse_scores_differ(&x->reuse, n, &x->mr, why, sizeof why))
			continue;
		out->agree = false;
		snprintf(out->disagreement, sizeof out->disagreement,
			 "reuse: %s/%s on %s: %.300s", c->pods[pod].ns,
			 c->pods[pod].name, c->nodes[n].name, why);
		return;
	}
	if (enum_reuse_message_differs(&x->reuse, &x->mr, why, sizeof why)) {
		out->agree = false;
		snprintf(out->disagreement, sizeof out->disagreement,
			 "reuse: %s/%s: %.420s", c->pods[pod].ns,
			 c->pods[pod].name, why);
	}
}

/* -------------------------------------------------------- invariants */

/* The model's invariants after one step (st applied to x->after, which
 * started as x->snap); records every breach but termination.  placed and
 * waiting stay all false between calls: only a bind sets placed[pod],
 * and it is cleared again here. */
static void step_invariants(struct enum_ctx *x, const struct model_step *st,
			    const struct sched_node_verdict *bind_verdict,
			    struct enum_outcome *out)
{
	bool bind = st->action == MODEL_STEP_BIND;
	if (bind)
		x->placed[st->pod] = true;
	struct model_scheduler *m = &x->step_m;
	m->snap = x->after;           /* borrowed: never released through m */
	m->steps = 1;
	m->bind_verdict = bind_verdict;
	memset(m->inv.broken, 0, sizeof m->inv.broken);
	/* termination needs a run's history: a fresh m has none, so only
	 * the step's own invariants can break here */
	model_invariants_check_step(m, &x->snap, st);
	if (bind)
		x->placed[st->pod] = false;
	for (int i = 0; i < MODEL_INV_COUNT; i++) {
		if (i == MODEL_INV_TERMINATION || !m->inv.broken[i] || out->inv[i])
			continue;
		out->inv[i] = true;
		snprintf(out->inv_detail[i], ENUM_DETAIL_LEN, "%s", m->inv.detail[i]);
	}
	assert(!m->inv.hashes);
}

/* Whether out records some broken invariant. */
static bool any_broken(const struct enum_outcome *out)
{
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		if (out->inv[i])
			return true;
	return false;
}

/* The step invariants of binding pod to node, through the memo of binds
 * found to break nothing (enum_reuse_bind_ok: keyed on the pod, the node
 * and the pods bound there, with a feasible verdict).  A sampled state
 * checks afresh, and a memo it contradicts is a disagreement of its own
 * ("reuse: ..."). */
static void check_bind(struct enum_ctx *x, int pod, int node, bool sampled,
		       struct enum_outcome *out)
{
	const struct sched_node_verdict *v = &x->mr.verdicts[node];
	uint8_t *memo = v->feasible && !any_broken(out)
			? enum_reuse_bind_ok(&x->reuse, &x->snap, pod, node) : NULL;
	if (memo && *memo && !sampled)
		return;
	check_bind_fresh(x, pod, node, out);
	if (!memo)
		return;
	bool broken = any_broken(out);
	if (!broken) {
		*memo = 1;
		return;
	}
	if (!*memo || !out->agree)
		return;
	const struct cluster *c = x->c;
	out->agree = false;
	snprintf(out->disagreement, sizeof out->disagreement,
		 "reuse: binding %s/%s to %s: stored no broken invariant, fresh "
		 "broken", c->pods[pod].ns, c->pods[pod].name, c->nodes[node].name);
}

static void check_bind_fresh(struct enum_ctx *x, int pod, int node,
			     struct enum_outcome *out)
{
	snapshot_assign(&x->after, &x->snap);
	x->after.pod_node[pod] = node;
	x->after.nominated[pod] = -1;
	struct model_step st = {.pod = pod, .action = MODEL_STEP_BIND, .node = node};
	/* node is viable in x->mr, the model's cycle for pod on x->snap
	 * (enum_check_pod): its verdict is model_feasibility of that very
	 * (profile, pod, node, placement, no deltas), which the bind check
	 * would otherwise compute again */
	assert(x->mr.pod == pod);
	step_invariants(x, &st, &x->mr.verdicts[node], out);
}

static void check_preempt(struct enum_ctx *x, int pod,
			  const struct sched_preemption *pr,
			  struct enum_outcome *out)
{
	snapshot_assign(&x->after, &x->snap);
	for (int i = 0; i < pr->chosen.n; i++) {
		x->after.pod_node[pr->chosen.pods[i]] = SNAP_GONE;
		x->after.nominated[pr->chosen.pods[i]] = -1;
	}
	for (int i = 0; i < pr->n_clear_nominated; i++)
		x->after.nominated[pr->clear_nominated[i]] = -1;
	x->after.nominated[pod] = pr->node;
	struct model_step st = {
		.pod = pod, .action = MODEL_STEP_PREEMPT, .node = pr->node,
		.victims = pr->chosen.pods, .n_victims = pr->chosen.n,
	};
	/* through the set of steps found to break nothing (verdict_reuse.c's
	 * preempt_ok); a sampled state checks afresh and a remembered step
	 * it finds broken is a disagreement of its own */
	bool sampled = x->reuse.sampled_now;
	uint64_t key = any_broken(out) ? 0
		: enum_reuse_preempt_key(&x->reuse, &x->snap, &x->after, pod,
					 pr->node);
	bool seen = key && enum_reuse_preempt_seen(&x->reuse, key);
	if (seen && !sampled)
		return;
	step_invariants(x, &st, NULL, out);
	if (!key)
		return;
	if (!any_broken(out)) {
		enum_reuse_preempt_remember(&x->reuse, key);
		return;
	}
	if (!seen || !out->agree)
		return;
	const struct cluster *c = x->c;
	out->agree = false;
	snprintf(out->disagreement, sizeof out->disagreement,
		 "reuse: preempting for %s/%s on %s: stored no broken invariant, "
		 "fresh broken", c->pods[pod].ns, c->pods[pod].name,
		 c->nodes[pr->node].name);
}

/* ------------------------------------------------- breaks-earlier */

/* Whether binding p can break bound pod q's hard constraints at all:
 * p counts for one of q's DoNotSchedule spread constraints (same
 * namespace, selector matching p; matchLabelKeys only narrow it), or
 * matches a selector of q's required anti-affinity.  Adding a pod never
 * breaks a required affinity.  A cheap filter before the model's
 * filters run. */
static bool may_break(const struct pod *q, const struct pod *p)
{
	for (int i = 0; i < q->n_spread; i++)
		if (q->spread[i].do_not_schedule && !strcmp(q->ns, p->ns) &&
		    match_label_selector(&q->spread[i].selector, &p->labels))
			return true;
	for (int i = 0; i < q->n_anti_affinity; i++)
		if (match_label_selector(&q->anti_affinity[i].selector, &p->labels))
			return true;
	return false;
}

/* The first of PodTopologySpread and InterPodAffinity (in that order)
 * that Feasibility of pod q with prof on node of s reports failed, -1
 * when neither; its status in *st.  Only those two filters are evaluated
 * (MODEL_PHASE_FILTER), nominated pods' two-pass rule included, in the
 * cycle's state on s, its PodTopologySpread part summed from the
 * context's cached pod-only part of q. */
static int hard_failure(struct enum_ctx *x, const struct sched_profile *prof,
			const struct snapshot *s, int q, int node,
			const struct sched_status **st)
{
	static const enum plugin_id hard[] = {
		PLUGIN_POD_TOPOLOGY_SPREAD, PLUGIN_INTER_POD_AFFINITY,
	};
	static const bool only[PLUGIN_COUNT] = {
		[PLUGIN_POD_TOPOLOGY_SPREAD] = true,
		[PLUGIN_INTER_POD_AFFINITY] = true,
	};
	struct sched_node_verdict *v = x->verdict;
	struct model_given given;
	enum_model_given(x, prof, q, &given);
	const struct model_question ask = {
		.phase = MODEL_PHASE_FILTER, .prof = prof, .s = s, .pod = q,
		.node = node, .only = only, .verdict = v,
	};
	model_schedule_cycle_given(&ask, &given);
	for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++)
		if (v->failed[hard[i]]) {
			*st = &v->status[hard[i]];
			return hard[i];
		}
	return -1;
}

/* Whether bound pod q's topology spread and pod (anti-)affinity filters
 * pass on its node in placement s (q itself taken off for the check);
 * the failing plugin and reason go to why. */
static bool hard_ok(struct enum_ctx *x, const struct snapshot *s, int q,
		    char *why, size_t len)
{
	const struct sched_profile *prof = x->prof[q];
	if (!prof)
		return true;
	int node = s->pod_node[q];
	struct snapshot *view = &x->view;
	snapshot_assign(view, s);
	view->pod_node[q] = SNAP_PENDING;
	view->nominated[q] = -1;
	const struct sched_status *st = NULL;
	int bad = hard_failure(x, prof, view, q, node, &st);
	if (bad >= 0)
		snprintf(why, len, "%s: %s", config_plugin_name(bad),
			 st->n_reasons ? sched_status_reason(st, 0) : "rejected");
	return bad < 0;
}

/* The memo slot of hard_ok(s, q), or NULL: a placement without
 * nominations or deleted pods (every placements-mode state) is numbered
 * like the odometer, pod 0's digit fastest.  hard_ok is a function of
 * the cluster, q and s's placement (the model's Feasibility is pure), so
 * within one context (one scenario) a remembered verdict is exactly the
 * one a new evaluation would give. */
static uint8_t *hard_slot(const struct enum_ctx *x, const struct snapshot *s, int q)
{
	if (!x->hard_memo)
		return NULL;
	const struct cluster *c = x->c;
	uint64_t index = 0, base = (uint64_t)c->n_nodes + 1;
	for (int p = c->n_pods - 1; p >= 0; p--) {
		if (s->nominated[p] != -1 || s->pod_node[p] < SNAP_PENDING)
			return NULL;
		index = index * base + (uint64_t)(s->pod_node[p] + 1);
	}
	return &x->hard_memo[index * (uint64_t)c->n_pods + (uint64_t)q];
}

/* hard_ok through the memo; why is written whenever false is returned
 * (a broken verdict is evaluated again for its reason: it is rare). */
static bool hard_ok_memo(struct enum_ctx *x, const struct snapshot *s, int q,
			 char *why, size_t len)
{
	uint8_t *slot = hard_slot(x, s, q);
	if (slot && *slot == 1)
		return true;
	bool ok = hard_ok(x, s, q, why, len);
	if (slot)
		*slot = ok ? 1 : 2;
	return ok;
}

static void check_breaks_earlier(struct enum_ctx *x, int pod,
				 struct enum_outcome *out)
{
	const struct cluster *c = x->c;
	const struct sched_cycle_result *r = &x->mr;
	char why[256];
	if (!x->may_be_broken[pod])
		return;   /* no pod's hard constraint counts pod at all */
	for (int q = 0; q < c->n_pods && !out->find[ENUM_FIND_BREAKS_EARLIER]; q++) {
		if (q == pod || x->snap.pod_node[q] < 0 ||
		    !x->may_break[q * c->n_pods + pod])
			continue;
		uint8_t *before = hard_slot(x, &x->snap, q);
		if (before && *before == 2)
			continue;
		if (!hard_ok_memo(x, &x->snap, q, why, sizeof why))
			continue;
		for (int i = 0; i < r->n_viable; i++) {
			snapshot_assign(&x->after, &x->snap);
			x->after.pod_node[pod] = r->viable[i];
			if (hard_ok_memo(x, &x->after, q, why, sizeof why))
				continue;
			out->find[ENUM_FIND_BREAKS_EARLIER] = true;
			snprintf(out->find_detail[ENUM_FIND_BREAKS_EARLIER], ENUM_DETAIL_LEN,
				 "binding %s/%s to %s breaks %s/%s on %s: %s",
				 c->pods[pod].ns, c->pods[pod].name,
				 c->nodes[r->viable[i]].name, c->pods[q].ns,
				 c->pods[q].name, c->nodes[x->snap.pod_node[q]].name, why);
			break;
		}
	}
}

/* -------------------------------------------------------- preemption */

static void casualty_text(const struct sched_victims *v, char *buf, size_t len)
{
	const struct sched_casualty *k = &v->casualty;
	snprintf(buf, len, "pdb=%d prio=%d sum=%" PRId64 " victims=%d",
		 k->pdb_violations, (int)k->highest_priority, k->priority_sum,
		 k->victims);
}

/* The names of objects v[0..n) (pods, or claims) into buf, commas
 * between. */
static void names_into(const struct cluster *c, bool claims, const int *v, int n,
		       char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < n && k + 1 < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s", i ? "," : "",
				      claims ? c->claims[v[i]].name : c->pods[v[i]].name);
	if (k >= len)
		buf[len - 1] = '\0';
}

static void pod_names(const struct cluster *c, const int *v, int n,
		      char *buf, size_t len)
{
	names_into(c, false, v, n, buf, len);
}

static void claim_names(const struct cluster *c, const int *v, int n,
			char *buf, size_t len)
{
	names_into(c, true, v, n, buf, len);
}

/* Two victim lists: node, pods in order, PDB violations. */
static bool same_victims(const struct cluster *c, const char *field,
			 const struct sched_victims *a,
			 const struct sched_victims *b, char *why, size_t len)
{
	if (a->node == b->node && a->pdb_violations == b->pdb_violations &&
	    same_list(a->pods, a->n, b->pods, b->n))
		return true;
	char pa[200], pb[200];
	pod_names(c, a->pods, a->n, pa, sizeof pa);
	pod_names(c, b->pods, b->n, pb, sizeof pb);
	snprintf(why, len, "%s: model %s [%s] pdb=%d, oracle %s [%s] pdb=%d",
		 field, a->node >= 0 ? c->nodes[a->node].name : "none", pa,
		 a->pdb_violations, b->node >= 0 ? c->nodes[b->node].name : "none",
		 pb, b->pdb_violations);
	return false;
}

/* The whole kube answer, field by field; the first difference into why. */
static bool same_preemption(const struct cluster *c,
			    const struct sched_preemption *m,
			    const struct sched_preemption *o, char *why,
			    size_t len)
{
	if (m->eligible != o->eligible || m->code != o->code ||
	    m->node != o->node) {
		snprintf(why, len, "preemption: model eligible=%d code=%d node=%s, "
			 "oracle eligible=%d code=%d node=%s", m->eligible,
			 (int)m->code, m->node >= 0 ? c->nodes[m->node].name : "none",
			 o->eligible, (int)o->code,
			 o->node >= 0 ? c->nodes[o->node].name : "none");
		return false;
	}
	const char *ma = m->message ? m->message : "", *ob = o->message ? o->message : "";
	if (strcmp(ma, ob)) {
		snprintf(why, len, "preemption.message: model \"%.300s\", oracle "
			 "\"%.300s\"", ma, ob);
		return false;
	}
	if (m->node >= 0 &&
	    !same_victims(c, "preemption.victims", &m->chosen, &o->chosen, why, len))
		return false;
	/* the claim DynamicResources' PostFilter deallocates: the next state
	 * (reachable mode) is built from the model's */
	if (!same_list(m->dra_deallocs, m->n_dra_deallocs, o->dra_deallocs,
		       o->n_dra_deallocs)) {
		char a[200], b[200];
		claim_names(c, m->dra_deallocs, m->n_dra_deallocs, a, sizeof a);
		claim_names(c, o->dra_deallocs, o->n_dra_deallocs, b, sizeof b);
		snprintf(why, len, "preemption.dra_deallocate: model [%s], oracle [%s]",
			 a, b);
		return false;
	}
	if (m->n_candidates != o->n_candidates) {
		snprintf(why, len, "preemption.candidates: model %d, oracle %d",
			 m->n_candidates, o->n_candidates);
		return false;
	}
	for (int i = 0; i < m->n_candidates; i++) {
		const struct sched_victims *a = &m->candidates[i], *b = &o->candidates[i];
		/* nearly always equal: the field's name only for a difference */
		if (a->node == b->node && a->pdb_violations == b->pdb_violations &&
		    same_list(a->pods, a->n, b->pods, b->n))
			continue;
		char field[64];
		snprintf(field, sizeof field, "preemption.candidates[%d]", i);
		same_victims(c, field, a, b, why, len);
		return false;
	}
	char a[200], b[200];
	if (!same_list(m->ties, m->n_ties, o->ties, o->n_ties)) {
		cluster_node_list(c, m->ties, m->n_ties, a, sizeof a);
		cluster_node_list(c, o->ties, o->n_ties, b, sizeof b);
		snprintf(why, len, "preemption.ties: model {%s}, oracle {%s}", a, b);
		return false;
	}
	if (!same_list(m->clear_nominated, m->n_clear_nominated,
		       o->clear_nominated, o->n_clear_nominated) ||
	    m->clear_own_nomination != o->clear_own_nomination) {
		pod_names(c, m->clear_nominated, m->n_clear_nominated, a, sizeof a);
		pod_names(c, o->clear_nominated, o->n_clear_nominated, b, sizeof b);
		snprintf(why, len, "preemption.cleared_nominations: model [%s] own=%d, "
			 "oracle [%s] own=%d", a, m->clear_own_nomination, b,
			 o->clear_own_nomination);
		return false;
	}
	return true;
}

/* The oracle's preemption against the model's kube answer. */
static void compare_preemption(const struct cluster *c, struct enum_outcome *out)
{
	if (!out->agree)
		return;
	out->agree = same_preemption(c, &out->kube, &out->oracle_pr,
				     out->disagreement, sizeof out->disagreement);
}

static void check_preemption(struct enum_ctx *x, const struct sched_profile *prof,
			     int pod, struct enum_outcome *out)
{
	const struct sched_cycle_result *r = &x->mr;
	out->preempted = true;
	sched_preemption_init(&out->kube);
	sched_preemption_init(&out->minimal);
	sched_preemption_init(&out->oracle_pr);
	/* kube's and the minimal search's PDB budgets and given inputs: both are
	 * functions of (prof, pod, x->snap), which nothing changes until
	 * the two are done; worked out once for both */
	int32_t allowed_stack[16];
	int32_t *allowed = x->c->n_pdbs <= 16 ? allowed_stack
		: xmalloc(sizeof *allowed * (size_t)x->c->n_pdbs);
	model_pdb_allowed(&x->snap, allowed);
	struct model_given given;
	enum_model_given(x, prof, pod, &given);
	given.dry_verdicts = enum_reuse_dry_verdicts(&x->reuse);
	struct sched_preempt_opts opts = {
		.offset_draw = 0, .pdb_allowed = allowed,
		.pdb_spends = x->pdb_spends,
	};
	struct model_question ask = {
		.phase = MODEL_PHASE_POSTFILTER, .prof = prof, .s = &x->snap,
		.pod = pod, .failed = r, .opts = &opts, .preemption = &out->kube,
	};
	model_schedule_cycle_given(&ask, &given);
	/* the oracle answers from its own failed cycle, as kube would */
	x->oracle.preempt(x->oracle.self, prof, &x->snap, pod, &x->orr, 0,
			  &out->oracle_pr);
	out->oracle_preempt_checked = true;
	compare_preemption(x->c, out);
	struct error err;
	error_init(&err);
	ask.phase = MODEL_PHASE_MINIMAL;
	ask.preemption = &out->minimal;
	ask.err = &err;
	out->minimal_ok = model_schedule_cycle_given(&ask, &given) == 0;
	if (allowed != allowed_stack)
		free(allowed);
	if (out->kube.code == SCHED_SUCCESS && out->kube.node >= 0 &&
	    x->step_invariants)
		check_preempt(x, pod, &out->kube, out);
	if (!out->minimal_ok || out->minimal.node < 0)
		return;
	bool worse = out->kube.node < 0 ||
		     model_casualty_cmp(&out->kube.chosen.casualty,
					&out->minimal.chosen.casualty) > 0;
	if (!worse)
		return;
	char a[160] = "no candidate", b[160];
	if (out->kube.node >= 0)
		casualty_text(&out->kube.chosen, a, sizeof a);
	casualty_text(&out->minimal.chosen, b, sizeof b);
	out->find[ENUM_FIND_PREEMPT_WORSE] = true;
	snprintf(out->find_detail[ENUM_FIND_PREEMPT_WORSE], ENUM_DETAIL_LEN,
		 "kube on %s (%s), minimal on %s (%s)",
		 out->kube.node >= 0 ? x->c->nodes[out->kube.node].name : "-", a,
		 x->c->nodes[out->minimal.node].name, b);
}

/* ------------------------------------------------------------ driver */

/* The oracle's tie-break seed for deciding pod in x's state: a function
 * of the scenario, the placement, the nominations and the pod only (FNV-1a
 * over them), so that the stored oracle choice is the same whatever
 * thread, shard or resumed run evaluates the state (issue 18 item 2). */
static uint64_t state_seed(const struct enum_ctx *x, int pod)
{
	uint64_t h = fnv64_word(FNV64_OFFSET, (uint64_t)x->sc->index);
	h = fnv64_word(h, (uint64_t)(uint32_t)pod);
	for (int p = 0; p < x->c->n_pods; p++) {
		h = fnv64_word(h, (uint64_t)(uint32_t)x->snap.pod_node[p]);
		h = fnv64_word(h, (uint64_t)(uint32_t)x->snap.nominated[p]);
	}
	return h;
}

/* --impl: the implementation's answer for this decision, judged; a wrong
 * one (or a failure) is an "impl" finding "VERDICT: detail", stored as
 * kind "impl-VERDICT" (record.c). */
static void check_impl(struct enum_ctx *x, int pod, struct enum_outcome *out)
{
	char verdict[64], detail[ENUM_DETAIL_LEN - 80];
	x->judge->ask(x->judge_self, x, pod, verdict, sizeof verdict, detail,
		      sizeof detail);
	if (!strcmp(verdict, "ok"))
		return;
	out->find[ENUM_FIND_IMPL] = true;
	snprintf(out->find_detail[ENUM_FIND_IMPL], ENUM_DETAIL_LEN, "%s: %s",
		 verdict, detail);
}

/* A decision as text: "bind to N1|N2" (the viable set), "preempt on N
 * evicting P Q" (victims in pod order, whatever order they were
 * reprieved in), "unschedulable" or "error". */
static void decision_text(const struct cluster *c, const struct sched_cycle_result *r,
			  const struct sched_preemption *pr, char *buf, size_t len)
{
	struct strbuf b;
	strbuf_init(&b);
	if (r->code == SCHED_SUCCESS) {
		strbuf_puts(&b, "bind to");
		for (int i = 0; i < r->n_viable; i++)
			strbuf_printf(&b, "%s%s", i ? "|" : " ", c->nodes[r->viable[i]].name);
	} else if (r->code == SCHED_ERROR) {
		strbuf_puts(&b, "error");
	} else if (pr && pr->code == SCHED_ERROR) {
		strbuf_puts(&b, "preemption error");
	} else if (pr && pr->node >= 0) {
		strbuf_printf(&b, "preempt on %s evicting", c->nodes[pr->node].name);
		for (int p = 0; p < c->n_pods; p++)
			for (int i = 0; i < pr->chosen.n; i++)
				if (pr->chosen.pods[i] == p)
					strbuf_printf(&b, " %s", c->pods[p].name);
	} else {
		strbuf_puts(&b, "unschedulable");
	}
	snprintf(buf, len, "%s", b.s);
	strbuf_release(&b);
}

/* The decision of pod in x's state with quirks_off: the oracle's cycle
 * and, after a FitError, its DefaultPreemption, on x->quirk_alt. */
static void quirk_decision(struct enum_ctx *x, const struct sched_profile *prof,
			   int pod, uint32_t quirks_off, char *buf, size_t len)
{
	struct cluster *alt = x->quirk_alt;
	alt->config.quirks_off = quirks_off;
	/* the same profile of the copy's configuration */
	const struct sched_profile *ap = &alt->config.profiles[prof - x->c->config.profiles];
	struct snapshot s = {alt, x->snap.pod_node, x->snap.nominated, x->snap.dra};
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, alt);
	oracle_engine.cycle(ap, &s, pod, &r);
	struct sched_preemption pr;
	sched_preemption_init(&pr);
	bool preempt = r.code == SCHED_UNSCHEDULABLE && config_has_postfilter(ap);
	if (preempt) {
		struct sched_preempt_opts opts = {.offset_draw = 0};
		oracle_engine.preempt(ap, &s, pod, &r, &opts, &pr);
	}
	decision_text(alt, &r, preempt ? &pr : NULL, buf, len);
	sched_preemption_release(&pr);
	sched_cycle_result_release(&r);
}

/* Two of pod p's spread constraints (its own, or prof's List defaults
 * when it has none and some workload may select it) have one class and
 * one topologyKey (QUIRK_SPREAD_SHARED_KEY). */
static bool shares_a_key(const struct sched_profile *prof, const struct pod *p,
			 bool defaults_apply)
{
	for (int i = 0; i < p->n_spread; i++)
		for (int j = 0; j < i; j++)
			if (p->spread[i].do_not_schedule == p->spread[j].do_not_schedule &&
			    !strcmp(p->spread[i].topology_key, p->spread[j].topology_key))
				return true;
	if (p->n_spread > 0 || !defaults_apply || prof->spread_system_defaulting)
		return false;
	const struct default_spread_constraint *d = prof->default_constraints;
	for (int i = 0; i < prof->n_default_constraints; i++)
		for (int j = 0; j < i; j++)
			if (d[i].do_not_schedule == d[j].do_not_schedule &&
			    !strcmp(d[i].topology_key, d[j].topology_key))
				return true;
	return false;
}

/* Some (anti-)affinity term of p has a namespaceSelector that is neither
 * nil nor {} (QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR: a sound superset of
 * the NotIn / DoesNotExist-only ones). */
static bool negative_ns_selector(const struct pod *p)
{
	const struct pod_affinity_term *req[2] = {p->affinity, p->anti_affinity};
	int n_req[2] = {p->n_affinity, p->n_anti_affinity};
	const struct weighted_pod_affinity_term *pref[2] =
		{p->affinity_preferred, p->anti_affinity_preferred};
	int n_pref[2] = {p->n_affinity_preferred, p->n_anti_affinity_preferred};
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n_req[k]; i++)
			if (req[k][i].ns_selector.present)
				return true;
		for (int i = 0; i < n_pref[k]; i++)
			if (pref[k][i].term.ns_selector.present)
				return true;
	}
	return false;
}

/* Whether switching quirk q can change pod's decision in x's state at
 * all: each quirk lives in one plugin's code path, which these inputs
 * never enter otherwise (a sound skip: the decision is then v1.30's). */
static bool quirk_may_matter(const struct enum_ctx *x, int pod, int q,
			     const struct enum_outcome *out)
{
	const struct cluster *c = x->c;
	const struct pod *p = &c->pods[pod];
	switch (q) {
	case QUIRK_PORTS_SET_REMOVAL:   /* RemovePod (preemption) of a pod
					 * whose port the pod wants */
		if (!out->preempted)
			return false;
		for (int i = 0; i < p->n_init_containers + p->n_containers; i++) {
			const struct container *k = pod_port_container(p, i,
				config_at_least(&c->config, KUBE_1_34));
			for (int j = 0; k && j < k->n_ports; j++)
				if (k->ports[j].host_port > 0)
					return true;
		}
		return false;
	case QUIRK_VICTIM_ORDER_NOW:    /* the reprieve order */
		return out->preempted;
	case QUIRK_DRA_POSTFILTER_NOT_FOUND:   /* a PreFilter rejection */
		return x->mr.code == SCHED_UNSCHEDULABLE &&
		       x->mr.prefilter.code == SCHED_UAU;
	case QUIRK_AFFINITY_FIRST_POD_COUNTS:
		return p->n_affinity > 0;
	case QUIRK_NONZERO_IGNORES_SIDECARS:
		return x->has_sidecar;
	case QUIRK_SPREAD_EMPTY_SELECTOR:   /* an explicit {} selector */
		for (int i = 0; i < p->n_spread; i++)
			if (p->spread[i].selector.present &&
			    p->spread[i].selector.match_labels.n == 0 &&
			    p->spread[i].selector.n_exprs == 0)
				return true;
		return false;
	case QUIRK_SPREAD_EMPTY_DOMAIN:   /* scoring by the system defaults,
					   * whose selector needs a workload */
		return p->n_spread == 0 && c->n_workloads > 0 &&
		       x->prof[pod]->spread_system_defaulting;
	case QUIRK_AFFINITY_NEGATIVE_NS_SELECTOR:   /* a term of the pod's
						     * with a namespaceSelector */
		return negative_ns_selector(p);
	case QUIRK_SPREAD_APPROX_CRITICAL_PATHS:   /* AddPod / RemovePod */
		if (p->n_spread == 0 && c->n_workloads == 0)
			return false;
		if (out->preempted)
			return true;
		for (int i = 0; i < c->n_pods; i++)
			if (i != pod && x->snap.nominated[i] >= 0)
				return true;
		return false;
	default:   /* two constraints of one class and key */
		return shares_a_key(x->prof[pod], p, c->n_workloads > 0);
	}
}

/*
 * --compare-quirks: pod's decision in x's state again with each quirk the
 * scenario models as v1.30 does switched off, one at a time.  A quirk is
 * visible where the decision (the viable set, or DefaultPreemption's node
 * and victims, or unschedulable) differs from v1.30's (x->mr and
 * out->kube, which the cross-check has compared with the oracle's).
 */
static void check_quirks(struct enum_ctx *x, const struct sched_profile *prof,
			 int pod, struct enum_outcome *out)
{
	if (!x->quirk_alt) {
		x->quirk_alt = xmalloc(sizeof *x->quirk_alt);
		*x->quirk_alt = *x->c;
		for (int i = 0; i < x->c->n_pods; i++)
			for (int k = 0; k < x->c->pods[i].n_init_containers; k++)
				x->has_sidecar |= x->c->pods[i].init_containers[k].restart_always;
	}
	char kube[ENUM_DETAIL_LEN / 2] = "", alt[ENUM_DETAIL_LEN / 2];
	char *detail = out->find_detail[ENUM_FIND_QUIRK_VISIBLE];
	size_t used = 0;
	for (int q = 0; q < QUIRK_COUNT; q++) {
		uint32_t off = x->c->config.quirks_off;
		if (!(config_quirks_of(x->c->config.kube_version) >> q & 1) ||
		    quirk_off_in(off, q) || !quirk_may_matter(x, pod, q, out))
			continue;   /* intended already, or the same decision */
		if (!kube[0])   /* v1.30's, once some quirk may change it */
			decision_text(x->c, &x->mr, out->preempted ? &out->kube : NULL,
				      kube, sizeof kube);
		quirk_decision(x, prof, pod, off | UINT32_C(1) << q, alt, sizeof alt);
		if (!strcmp(kube, alt))
			continue;
		out->quirk_visible[q] = true;
		out->find[ENUM_FIND_QUIRK_VISIBLE] = true;
		if (used == 0)
			used = (size_t)snprintf(detail, ENUM_DETAIL_LEN, "v1.30: %s;", kube);
		if (used < ENUM_DETAIL_LEN)
			used += (size_t)snprintf(detail + used, ENUM_DETAIL_LEN - used,
						 " %s off: %s;", quirk_name(q), alt);
	}
	if (used > 0 && used < ENUM_DETAIL_LEN)
		detail[used - 1] = '\0';   /* the last ';' */
}

void enum_tally_add(struct enum_tally *dst, const struct enum_tally *src)
{
	const uint64_t *s = (const uint64_t *)src;
	uint64_t *d = (uint64_t *)dst;
	for (size_t i = 0; i < sizeof *src / sizeof(uint64_t); i++)
		d[i] += s[i];
}

void enum_tally_outcome(const struct enum_outcome *o, uint64_t w,
			struct enum_tally t[2])
{
	uint64_t ws[2] = {w, 1};
	bool broken = false, findings = false;
	for (int i = 0; i < MODEL_INV_COUNT; i++)
		broken |= o->inv[i];
	for (int i = 0; i < ENUM_FIND_COUNT; i++)
		findings |= o->find[i];
	for (int k = 0; k < 2; k++) {
		t[k].decisions += ws[k];
		if (o->agree)
			t[k].agree += ws[k];
		else
			t[k].disagree += ws[k];
		/* most decisions break nothing and find nothing */
		if (broken) {
			t[k].violations += ws[k];
			for (int i = 0; i < MODEL_INV_COUNT; i++)
				if (o->inv[i])
					t[k].inv[i] += ws[k];
		}
		for (int i = 0; findings && i < ENUM_FIND_COUNT; i++)
			if (o->find[i])
				*enum_tally_finding_slot(&t[k], i) += ws[k];
		for (int q = 0; o->find[ENUM_FIND_QUIRK_VISIBLE] && q < QUIRK_COUNT; q++)
			if (o->quirk_visible[q])
				t[k].quirk_states[q] += ws[k];
		for (int i = 0; o->find[ENUM_FIND_VERSION_VISIBLE] && i < ENUM_VDELTA_COUNT; i++)
			if (o->version_items >> i & 1)
				t[k].version_items[i] += ws[k];
		if (o->preempted) {
			t[k].preemptions += ws[k];
			if (!o->oracle_preempt_checked)
				t[k].preempt_unchecked += ws[k];
		}
	}
}

/* A kept clean decision (decision_reuse.c) as this state's outcome: it
 * agreed, broke and found nothing, and went to preemption or not. */
static void reuse_decision(int value, struct enum_outcome *out)
{
	if (value != 2)
		return;
	out->preempted = true;
	out->oracle_preempt_checked = true;
	sched_preemption_init(&out->kube);
	sched_preemption_init(&out->minimal);
	sched_preemption_init(&out->oracle_pr);
}

/* After pod's decision made in full: kept when clean and its key new; in
 * a sampled state, a kept value (known, 0 none) the fresh decision
 * contradicts is a disagreement of its own ("reuse: ..."). */
static void keep_decision(struct enum_ctx *x, int pod, bool sampled, int known,
			  struct enum_outcome *out)
{
	struct enum_decision_reuse *d = &x->decisions;
	enum_decisions_learn(d, x, pod);
	int value = enum_outcome_issue(out) ? 0 : 1 + out->preempted;
	if (sampled && known > 0 && known != value && out->agree) {
		const struct pod *p = &x->c->pods[pod];
		out->agree = false;
		snprintf(out->disagreement, sizeof out->disagreement,
			 "reuse: deciding %s/%s: stored clean, %s; fresh %s",
			 p->ns, p->name, known == 2 ? "preempted" : "no preemption",
			 value == 0 ? "not clean" : value == 2 ? "preempted"
			 : "no preemption");
		return;
	}
	/* the key again: this decision may have paired verdicts it reads */
	if (value && enum_decisions_find(d, x, pod) == 0)
		enum_decisions_keep(d, value);
}

void enum_check_pod(struct enum_ctx *x, int pod, struct enum_outcome *out)
{
	assert(x && out && pod >= 0 && pod < x->c->n_pods);
	const struct cluster *c = x->c;
	const struct sched_profile *prof = x->prof[pod];
	assert(prof);
	out->pod = pod;
	uint64_t seed = state_seed(x, pod);
	bool sampled = enum_reuse_sampled(&x->reuse, seed);
	int known = x->decision_reuse
		    ? enum_decisions_find(&x->decisions, x, pod) : -1;
	if (known > 0 && !sampled) {
		x->decisions.hits++;
		reuse_decision(known, out);
		return;
	}
	struct model_given given;
	enum_model_given(x, prof, pod, &given);
	enum_reuse_cycle(&x->reuse, prof, &x->snap, pod, &given, &x->mr);
	struct loop_engine *o = &x->oracle;
	o->sync(o->self, &x->snap);
	o->seed(o->self, seed);
	const bool *paired = enum_reuse_give_pairs(&x->reuse, &x->orr);
	o->given(o->self, paired);
	o->given_scores(o->self, enum_reuse_give_scores(&x->reuse));
	o->given_message(o->self, enum_reuse_give_message(&x->reuse));
	out->oracle_choice = o->cycle(o->self, prof, &x->snap, pod, &x->orr);
	o->given(o->self, NULL);
	o->given_scores(o->self, NULL);
	o->given_message(o->self, NULL);
	enum_reuse_oracle_done(&x->reuse, &x->orr);
	compare(c, &x->mr, &x->orr, out->oracle_choice, paired, out);
	pair_verdicts(x);
	if (sampled && out->agree)
		check_sampled(x, pod, out);
	out->bind_node = enum_bind_node(c, &x->mr);
	if (out->bind_node >= 0) {
		if (x->step_invariants)
			check_bind(x, pod, out->bind_node, sampled, out);
		check_breaks_earlier(x, pod, out);
	} else if (x->mr.code == SCHED_UNSCHEDULABLE &&
		   prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
		check_preemption(x, prof, pod, out);
	}
	if (x->judge && x->judge_self)
		check_impl(x, pod, out);
	if (x->compare_quirks)
		check_quirks(x, prof, pod, out);
	if (x->compare_version >= 0)
		enum_check_versions(x, pod, out);
	if (x->decision_reuse)
		keep_decision(x, pod, sampled, known, out);
}
