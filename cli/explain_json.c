/*
 * explain_json.c - `kso explain -o json`: one scheduling cycle as a JSON
 * document with deterministic bytes (cli/json.h), nodes in cluster order:
 *
 *   {"pod": "ns/name", "profile": "default-scheduler",
 *    "filter_plugins": ["<FilterPlugin>", ...]   (the profile's, run order),
 *    "score_plugins": {"<ScorePlugin>": weight, ...},
 *    "nodes": {"<node>": {"feasible": bool, "rejected_by": "<plugin>"|"",
 *                         "failed_filters": [...], "reasons": [...],
 *                         "filters": {"<FilterPlugin>": {"code", "reasons"}}
 *                                    (each failing filter, with its own
 *                                     reasons),
 *                         "code": "Unschedulable"|..., "in_prefilter_result": bool,
 *                         "allocator": "..." (only where DynamicResources'
 *                                    allocator found no fit: kso's reading
 *                                    of which request failed and why),
 *                         "scores": {"<ScorePlugin>": score x weight, ...},
 *                         "total": n}, ...},
 *    "scored": bool, "viable": ["<node>", ...], "preemption": null|{...},
 *    "code": "...", "message": "<event message>"|"",
 *    "quirks_off": ["<quirk>", ...]}   (only when --quirk turned one off)
 *
 * The engine's name is deliberately not printed: `--engine oracle` and
 * `--engine model` must print byte-identical documents.
 *
 * "reasons" are the reason texts kube records for the node (those of the
 * rejecting filter); "scores" holds every enabled score plugin when scoring
 * ran (a skipped plugin as 0) and is empty otherwise.
 */
#include "explain.h"
#include "../core/arena.h"
#include "dump_json.h"
#include "judge.h"
#include "html.h"

#include <assert.h>
#include <stdlib.h>

#include "../core/xalloc.h"

static const char *code_name(enum sched_code c)
{
	switch (c) {
	case SCHED_SUCCESS: return "Success";
	case SCHED_UNSCHEDULABLE: return "Unschedulable";
	case SCHED_UAU: return "UnschedulableAndUnresolvable";
	case SCHED_SKIP: return "Skip";
	case SCHED_ERROR: return "Error";
	}
	return "?";
}

static void json_reasons(struct json_out *j, const struct sched_node_verdict *v)
{
	json_key(j, "reasons");
	json_begin_array(j);
	if (v->rejected_by >= 0) {
		const struct sched_status *st = &v->status[v->rejected_by];
		for (int i = 0; i < st->n_reasons; i++)
			json_string(j, sched_status_reason(st, i));
	}
	json_end_array(j);
}

static void json_failed(struct json_out *j, const struct sched_node_verdict *v)
{
	json_key(j, "failed_filters");
	json_begin_array(j);
	for (int i = 0; i < MODEL_N_FILTERS; i++)
		if (v->failed[model_filter_ids[i]])
			json_string(j, config_plugin_name(model_filter_ids[i]));
	json_end_array(j);
}

/* Every enabled score plugin when the node was scored, else nothing. */
static void json_scores(struct json_out *j, const struct cli_explain *x, int n)
{
	const struct sched_cycle_result *r = x->result;
	bool scored = r->scored && r->verdicts[n].feasible &&
		      r->in_prefilter_result[n];
	json_key(j, "scores");
	json_begin_object(j);
	for (int i = 0; scored && i < MODEL_N_SCORES; i++) {
		enum plugin_id id = model_score_ids[i];
		if (!x->profile->score[id])
			continue;
		json_key(j, config_plugin_name(id));
		json_int(j, r->scores[(size_t)n * PLUGIN_COUNT + id]);
	}
	json_end_object(j);
}

/* Every filter of the profile that fails on the node (explain runs them
 * all, not only to the first failure), each with its code and its own
 * reasons: the matrix of -o html. */
static void json_filters(struct json_out *j, const struct cli_explain *x,
			 const struct sched_node_verdict *v)
{
	json_key(j, "filters");
	json_begin_object(j);
	for (int i = 0; i < x->profile->n_filter_order; i++) {
		enum plugin_id id = x->profile->filter_order[i];
		const struct sched_status *st = &v->status[id];
		if (!v->failed[id])
			continue;
		json_key(j, config_plugin_name(id));
		json_begin_object(j);
		json_key(j, "code");
		json_string(j, code_name(st->code));
		json_key(j, "reasons");
		json_begin_array(j);
		for (int k = 0; k < st->n_reasons; k++)
			json_string(j, sched_status_reason(st, k));
		json_end_array(j);
		json_end_object(j);
	}
	json_end_object(j);
}

/* The profile's filters in run order and its score plugins' weights. */
static void json_plugins(struct json_out *j, const struct sched_profile *p)
{
	json_key(j, "filter_plugins");
	json_begin_array(j);
	for (int i = 0; i < p->n_filter_order; i++)
		json_string(j, config_plugin_name(p->filter_order[i]));
	json_end_array(j);
	json_key(j, "score_plugins");
	json_begin_object(j);
	for (int i = 0; i < MODEL_N_SCORES; i++) {
		enum plugin_id id = model_score_ids[i];
		if (!p->score[id])
			continue;
		json_key(j, config_plugin_name(id));
		json_int(j, p->weight[id]);
	}
	json_end_object(j);
}

/* "allocator": kso's reading of DynamicResources' "cannot allocate all
 * claims" on node n, only where the allocator found no fit. */
static void json_allocator(struct json_out *j, const struct cli_explain *x, int n)
{
	struct arena a;
	arena_init(&a);
	const char *why = cli_explain_allocator_why(x, n, &a);
	if (why) {
		json_key(j, "allocator");
		json_string(j, why);
	}
	arena_release(&a);
}

static void json_node(struct json_out *j, const struct cli_explain *x, int n)
{
	const struct sched_node_verdict *v = &x->result->verdicts[n];
	json_key(j, x->cluster->nodes[n].name);
	json_begin_object(j);
	json_key(j, "feasible");
	json_bool(j, v->feasible);
	json_key(j, "rejected_by");
	json_string(j, v->rejected_by >= 0 ? config_plugin_name(v->rejected_by)
					   : "");
	json_failed(j, v);
	json_reasons(j, v);
	json_filters(j, x, v);
	json_key(j, "code");
	json_string(j, code_name(v->code));
	json_key(j, "in_prefilter_result");
	json_bool(j, x->result->in_prefilter_result[n]);
	json_allocator(j, x, n);
	json_scores(j, x, n);
	json_key(j, "total");
	json_int(j, x->result->total[n]);
	json_end_object(j);
}

static void json_viable(struct json_out *j, const struct cli_explain *x)
{
	json_key(j, "viable");
	cli_json_node_names(j, x->cluster, x->result->viable, x->result->n_viable);
}

/* The event message; a FitError gets PostFilter's message appended. */
static void json_message(struct json_out *j, const struct cli_explain *x,
			 const char *postfilter)
{
	json_key(j, "message");
	char *m = cli_event_message(x->result, postfilter);
	json_string(j, m);
	free(m);
}

char *cli_event_message(const struct sched_cycle_result *r,
			const char *postfilter)
{
	assert(r);
	if (r->code == SCHED_UNSCHEDULABLE)
		return model_fit_error(r, postfilter);
	return xstrdup(r->message ? r->message : "");
}

/* "impl": the implementation's answer and kso's verdict on it. */
static void json_impl(struct json_out *j, const struct cli_explain *x)
{
	const struct impl_answer *a = x->impl;
	const struct cluster *c = x->cluster;
	static const char *const actions[] = {"bind", "preempt", "unschedulable",
					      "error"};
	json_key(j, "impl");
	json_begin_object(j);
	json_key(j, "implementation");
	json_string(j, x->impl_name);
	json_key(j, "action");
	json_string(j, actions[a->action]);
	json_key(j, "node");
	json_string(j, a->node >= 0 ? c->nodes[a->node].name : "");
	json_key(j, "victims");
	json_begin_array(j);
	for (int i = 0; i < a->n_victims; i++) {
		char buf[512];
		json_string(j, cluster_pod_key(c, a->victims[i], buf, sizeof buf));
	}
	json_end_array(j);
	json_key(j, "message");
	json_string(j, a->message ? a->message : "");
	json_key(j, "verdict");
	json_string(j, judgment_name(x->verdict->kind));
	json_key(j, "tie");
	json_bool(j, x->verdict->tie);
	json_key(j, "sampled");
	json_bool(j, x->verdict->sampled);
	json_key(j, "detail");
	json_string(j, x->verdict->detail);
	json_end_object(j);
}

void cli_explain_json(const struct cli_explain *x, unsigned format, FILE *f)
{
	assert(x && x->result && f);
	const struct pod *pod = &x->cluster->pods[x->pod];
	struct json_out j;
	html_out_init(&j, f, format, html_explain);
	json_begin_object(&j);
	json_key(&j, "pod");
	char name[1024];
	snprintf(name, sizeof name, "%s/%s", pod->ns, pod->name);
	json_string(&j, name);
	if (x->bound) {
		json_key(&j, "bound_node");
		json_string(&j, x->cluster->nodes[x->bound_node].name);
	}
	json_key(&j, "profile");
	json_string(&j, x->profile->name);
	json_plugins(&j, x->profile);
	json_key(&j, "nodes");
	json_begin_object(&j);
	for (int n = 0; n < x->cluster->n_nodes; n++)
		if (cli_explain_shows(x, n))
			json_node(&j, x, n);
	json_end_object(&j);
	json_key(&j, "scored");
	json_bool(&j, x->result->scored);
	json_viable(&j, x);
	char postfilter[2048] = "";
	json_key(&j, "preemption");
	if (x->bound)          /* nothing to preempt for: it is placed */
		json_null(&j);
	else
		cli_explain_preemption(x, &j, f, postfilter, sizeof postfilter);
	json_key(&j, "code");
	json_string(&j, code_name(x->result->code));
	json_message(&j, x, postfilter);
	if (x->impl)
		json_impl(&j, x);
	cli_json_switches(&j, x->cluster);
	json_end_object(&j);
	json_end(&j);
}
