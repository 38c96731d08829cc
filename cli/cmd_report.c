/*
 * cmd_report.c - `kso report DB [--run N] [--detail N] [-o html|json|yaml]`:
 * what an enumerator database (kso enum --db DB; enum/store.c) holds, as
 * one self-contained page (cli/html_report.c) or as the JSON/YAML of the
 * same values:
 *
 *   {"database": "<path>",
 *    "runs": [{"id", "universe_name", "mode", "options", "shard",
 *              "kso_version", "started", "ended", "complete", "scenarios",
 *              "items", "items_total", "states", "classes", "decisions",
 *              "agreements", "disagreements", "violations", "findings",
 *              "preemptions", "preemptions_unchecked"}...],
 *    "scenarios": [{"run", "scenario", "label", "nodes", "pods", "states",
 *                   "classes", "disagreements", "violations"}...],
 *    "kinds": {"<kind>": count, ...},
 *    "findings": [{"run", "state", "kind", "detail", "reproduce",
 *                  "scenario": "<minimized YAML>"|null,
 *                  "trace": null|[{"step", "action", "pod", "node",
 *                                  "victims", "nodes": [{"name", "pods"}],
 *                                  "pending", "evicted"}...]
 *                           (a placements-mode state: itself, one step
 *                            "decide" naming its decision's pod),
 *                  "error"?: "<why the scenario or trace is missing>"}...],
 *    "quirk_visible": [{"run", "state", "answers": [{"label",
 *                                                   "decision"}...]}...],
 *    "rejections": {"states": n, "of": m, "plugins": {"<Filter>": count}}}
 *
 * Each issue is what `kso findings` lists (enum/finding_list.h); the
 * first --detail of each kind (default 3) also get their minimized
 * scenario (`kso export`, enum/export.h) and, from a reachable-mode run,
 * the shortest trace to the state (`kso export --itf`) drawn as the
 * cluster after each step.  "scenarios" is the state space of each
 * scenario the run finished (its work items' states).  "rejections":
 * over the first REPORT_CYCLES (n) of the m stored states with a
 * decision, the model's cycle for the decision's pod run again
 * (reference §1.3-§1.4), how many nodes each filter plugin rejected
 * (the one kube reports for the node, its first failure): the database
 * stores verdicts, not which plugin gave them.
 *
 * Exit status: 0 reported, 1 the database cannot be read, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/strbuf.h"
#include "../core/grow.h"
#include "../core/xalloc.h"
#include "../enum/export.h"
#include "../enum/finding_list.h"
#include "../enum/report_rows.h"
#include "../model/model.h"
#include "../model/scheduler.h"
#include "args.h"
#include "commands.h"
#include "html.h"
#include "json.h"

struct issue {
	int64_t run, state;
	char *kind, *detail;
	bool reachable;
};

/* States whose cycle "rejections" runs again, at most (a few ms each). */
#define REPORT_CYCLES 500

struct report_args {
	long long run;
	long long detail;
	enum cli_format format;
	const char *db;
	struct issue *issues;
	int n_issues, cap;
	int64_t *decided;          /* the states with a decision */
	int n_decided, cap_decided;
	struct json_out j;
};

enum { OPT_RUN, OPT_DETAIL, OPT_OUTPUT };

static const struct cli_opt report_table[] = {
	{"run", 0, "N", "only this run's (runs.id)", OPT_RUN},
	{"detail", 0, "N", "draw the minimized scenario and trace of the "
	 "first N issues of each kind (default 3)", OPT_DETAIL},
	{"output", 'o', "html|json|yaml", "one self-contained page (default), "
	 "or its values as JSON or YAML", OPT_OUTPUT},
	{NULL, 0, NULL, NULL, 0},
};

static int take(void *ctx, int id, const char *v);

static struct cli_command report_cmd = {
	"kso report", "DB [--run N] [--detail N] [-o html|json|yaml]",
	"What an enumerator database holds (kso enum --db DB), as one page:\n"
	"each run's plan and totals, the issues by kind with their details,\n"
	"minimized scenarios and traces, the state space of each scenario, and\n"
	"the quirk-visible findings' answers side by side.\n",
	{report_table, NULL}, take, NULL};

static int take(void *ctx, int id, const char *v)
{
	struct report_args *a = ctx;
	char *end;
	long long *n = id == OPT_RUN ? &a->run : &a->detail;
	switch (id) {
	case OPT_RUN:
	case OPT_DETAIL:
		errno = 0;
		*n = strtoll(v, &end, 10);
		if (end == v || *end || errno || *n < (id == OPT_RUN))
			return cli_usage_error(&report_cmd, "--%s takes %s, not "
					       "'%s'", id == OPT_RUN ? "run" :
					       "detail", id == OPT_RUN ?
					       "a run id (1, 2, ...)" :
					       "a count (0, 1, ...)", v);
		return 0;
	case OPT_OUTPUT:
		return cli_format_take(&report_cmd, v, CLI_HTML | CLI_JSON |
				       CLI_YAML, &a->format);
	}
	return 2;
}

/* ------------------------------------------------------------ the rows */

static void row_json(void *ctx, const struct enum_report_row *r)
{
	struct json_out *j = ctx;
	json_begin_object(j);
	for (int i = 0; i < r->n; i++) {
		json_key(j, r->names[i]);
		if (r->number[i])
			json_int(j, r->value[i]);
		else if (r->text[i])
			json_string(j, r->text[i]);
		else
			json_null(j);
	}
	json_end_object(j);
}

static int rows_json(struct report_args *a, const char *key,
		     enum enum_report_table t, struct error *err)
{
	json_key(&a->j, key);
	json_begin_array(&a->j);
	long n = enum_report_rows(a->db, t, a->run, row_json, &a->j, err);
	json_end_array(&a->j);
	return n < 0 ? -1 : 0;
}

static void keep_issue(void *ctx, const struct enum_finding_row *r)
{
	struct report_args *a = ctx;
	GROW(a->issues, a->n_issues + 1, a->cap);
	a->issues[a->n_issues++] = (struct issue){
		r->run, r->state, xstrdup(r->kind), xstrdup(r->detail),
		r->reachable};
}

/* ------------------------------------------------------------- a trace */

/* The cluster after each step of tr from initial: the pods on each node,
 * the pending ones (">NODE": nominated there), the evicted. */
struct trace_walk {
	const struct cluster *c;
	int32_t *at;          /* [n_pods] node, SNAP_PENDING, SNAP_GONE */
	int32_t *nominated;   /* [n_pods] node or -1 */
	bool *arrived;        /* [n_pods] created (--arrivals) */
};

static void json_state(struct json_out *j, const struct trace_walk *w)
{
	const struct cluster *c = w->c;
	char key[600];
	json_key(j, "nodes");
	json_begin_array(j);
	for (int n = 0; n < c->n_nodes; n++) {
		json_begin_object(j);
		json_key(j, "name");
		json_string(j, c->nodes[n].name);
		json_key(j, "pods");
		json_begin_array(j);
		for (int p = 0; p < c->n_pods; p++)
			if (w->at[p] == n)
				json_string(j, cluster_pod_key(c, p, key, sizeof key));
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	for (int k = 0; k < 2; k++) {
		json_key(j, k ? "evicted" : "pending");
		json_begin_array(j);
		for (int p = 0; p < c->n_pods; p++) {
			if (!w->arrived[p] || w->at[p] != (k ? SNAP_GONE : SNAP_PENDING))
				continue;
			cluster_pod_key(c, p, key, sizeof key);
			if (!k && w->nominated[p] >= 0) {
				char both[700];
				snprintf(both, sizeof both, "%s>%s", key,
					 c->nodes[w->nominated[p]].name);
				json_string(j, both);
			} else {
				json_string(j, key);
			}
		}
		json_end_array(j);
	}
}

static void apply_step(struct trace_walk *w, const struct enum_trace_step *s)
{
	if (s->flush)
		return;    /* parked pods back to activeQ: no placement changes */
	if (s->arrive) {
		w->arrived[s->pod] = true;
		w->at[s->pod] = SNAP_PENDING;
		return;
	}
	if (s->action == MODEL_STEP_BIND) {
		w->at[s->pod] = s->node;
		w->nominated[s->pod] = -1;
	} else if (s->action == MODEL_STEP_PREEMPT) {
		for (int i = 0; i < s->n_victims; i++)
			w->at[s->victims[i]] = SNAP_GONE;
		w->nominated[s->pod] = s->node;
	}
}

static void json_step(struct json_out *j, const struct trace_walk *w,
		      const struct enum_trace_step *s, int i)
{
	const struct cluster *c = w->c;
	char key[600];
	json_begin_object(j);
	json_key(j, "step");
	json_int(j, i);
	json_key(j, "action");
	json_string(j, !s ? "start" : s->arrive ? "arrive" : s->flush ? "flush"
		    : model_step_action_name(s->action));
	json_key(j, "pod");
	json_string(j, s && s->pod >= 0 ? cluster_pod_key(c, s->pod, key, sizeof key)
		    : "");
	json_key(j, "node");
	json_string(j, s && !s->arrive && s->node >= 0 ? c->nodes[s->node].name
						       : "");
	json_key(j, "victims");
	json_begin_array(j);
	for (int v = 0; s && v < s->n_victims; v++)
		json_string(j, cluster_pod_key(c, s->victims[v], key, sizeof key));
	json_end_array(j);
	json_state(j, w);
	json_end_object(j);
}

/* "trace": the reachable search's shortest way to the state; 0, or -1
 * with err set (then nothing written). */
static int json_trace(struct json_out *j, const struct report_args *a,
		      const struct issue *is, struct error *err)
{
	struct enum_scenario sc;
	struct snapshot initial;
	struct enum_trace tr;
	if (enum_export_trace(a->db, is->state, &sc, &initial, &tr, err) < 0) {
		enum_trace_release(&tr);
		enum_scenario_release(&sc);
		return -1;
	}
	const struct cluster *c = &sc.cluster;
	size_t n = (size_t)c->n_pods + 1;
	struct trace_walk w = {c, xcalloc(n, sizeof(int32_t)),
			       xcalloc(n, sizeof(int32_t)), xcalloc(n, sizeof(bool))};
	for (int p = 0; p < c->n_pods; p++) {
		w.at[p] = initial.pod_node[p];
		w.nominated[p] = initial.nominated[p];
		w.arrived[p] = initial.pod_node[p] != SNAP_GONE;
	}
	json_key(j, "trace");
	json_begin_array(j);
	json_step(j, &w, NULL, 0);
	for (int i = 0; i < tr.n; i++) {
		apply_step(&w, &tr.steps[i]);
		json_step(j, &w, &tr.steps[i], i + 1);
	}
	json_end_array(j);
	free(w.at);
	free(w.nominated);
	free(w.arrived);
	snapshot_release(&initial);
	enum_trace_release(&tr);
	enum_scenario_release(&sc);
	return 0;
}

/* "trace" of a placements-mode state: the state alone, one step
 * "decide" naming the pod its decision is about.  0, or -1 with err set
 * (then nothing written). */
static int json_placed(struct json_out *j, const struct report_args *a,
		       const struct issue *is, struct error *err)
{
	struct enum_scenario sc;
	struct snapshot snap;
	int pod;
	if (enum_export_state(a->db, is->state, &sc, &snap, &pod, err) < 0) {
		enum_scenario_release(&sc);
		return -1;
	}
	const struct cluster *c = &sc.cluster;
	bool *arrived = xcalloc((size_t)c->n_pods + 1, sizeof *arrived);
	for (int p = 0; p < c->n_pods; p++)
		arrived[p] = true;
	struct trace_walk w = {c, snap.pod_node, snap.nominated, arrived};
	char key[600];
	json_key(j, "trace");
	json_begin_array(j);
	json_begin_object(j);
	json_key(j, "step");
	json_int(j, 0);
	json_key(j, "action");
	json_string(j, "decide");
	json_key(j, "pod");
	json_string(j, pod >= 0 ? cluster_pod_key(c, pod, key, sizeof key) : "");
	json_key(j, "node");
	json_string(j, "");
	json_key(j, "victims");
	json_begin_array(j);
	json_end_array(j);
	json_state(j, &w);
	json_end_object(j);
	json_end_array(j);
	free(arrived);
	snapshot_release(&snap);
	enum_scenario_release(&sc);
	return 0;
}

/* ---------------------------------------------------------- the issues */

static void reproduce(struct strbuf *b, const char *db, const struct issue *r)
{
	strbuf_puts(b, "kso export ");
	strbuf_shell_word(b, db);
	strbuf_printf(b, " %lld", (long long)r->state);
	if (r->reachable)
		strbuf_puts(b, " --itf");
}

/* The scenario and trace of an issue drawn in full. */
static void json_detail(struct report_args *a, const struct issue *is)
{
	struct json_out *j = &a->j;
	struct error err;
	error_init(&err);
	struct strbuf yaml;
	strbuf_init(&yaml);
	char why[ERROR_MSG_MAX] = "";
	json_key(j, "scenario");
	if (enum_export_text(a->db, is->state, &yaml, &err) == 0) {
		json_string(j, yaml.s ? yaml.s : "");
	} else {
		json_null(j);
		snprintf(why, sizeof why, "%s", err.msg);
	}
	strbuf_release(&yaml);
	if ((is->reachable ? json_trace(j, a, is, &err)
			   : json_placed(j, a, is, &err)) < 0) {
		json_key(j, "trace");
		json_null(j);
		if (!*why)
			snprintf(why, sizeof why, "%s", err.msg);
	}
	if (*why) {
		json_key(j, "error");
		json_string(j, why);
	}
}

static int kind_seen(const struct report_args *a, int upto, const char *kind)
{
	int n = 0;
	for (int i = 0; i < upto; i++)
		n += !strcmp(a->issues[i].kind, kind);
	return n;
}

static void json_issues(struct report_args *a)
{
	struct json_out *j = &a->j;
	json_key(j, "kinds");
	json_begin_object(j);
	for (int i = 0; i < a->n_issues; i++) {
		const char *k = a->issues[i].kind;
		if (kind_seen(a, i, k))
			continue;
		json_key(j, k);
		json_int(j, kind_seen(a, a->n_issues, k));
	}
	json_end_object(j);
	json_key(j, "findings");
	json_begin_array(j);
	for (int i = 0; i < a->n_issues; i++) {
		const struct issue *is = &a->issues[i];
		struct strbuf cmd;
		strbuf_init(&cmd);
		reproduce(&cmd, a->db, is);
		json_begin_object(j);
		json_key(j, "run");
		json_int(j, is->run);
		json_key(j, "state");
		json_int(j, is->state);
		json_key(j, "kind");
		json_string(j, is->kind);
		json_key(j, "detail");
		json_string(j, is->detail);
		json_key(j, "reproduce");
		json_string(j, cmd.s);
		if (kind_seen(a, i, is->kind) < a->detail) {
			json_detail(a, is);
		} else {
			json_key(j, "scenario");
			json_null(j);
			json_key(j, "trace");
			json_null(j);
		}
		json_end_object(j);
		strbuf_release(&cmd);
	}
	json_end_array(j);
}

/* A quirk-visible finding's detail, "v1.30: D; QUIRK off: D; ...", as
 * its answers side by side. */
static void json_answers(struct json_out *j, const char *detail)
{
	json_begin_array(j);
	const char *p = detail;
	while (*p) {
		while (*p == ' ')
			p++;
		size_t len = strcspn(p, ";");
		const char *colon = memchr(p, ':', len);
		if (len && colon) {
			char label[256], decision[2048];
			snprintf(label, sizeof label, "%.*s", (int)(colon - p), p);
			const char *d = colon + 1 + (colon[1] == ' ');
			snprintf(decision, sizeof decision, "%.*s",
				 (int)(p + len - d), d);
			json_begin_object(j);
			json_key(j, "label");
			json_string(j, label);
			json_key(j, "decision");
			json_string(j, decision);
			json_end_object(j);
		}
		p += len + (p[len] == ';');
	}
	json_end_array(j);
}

/* The findings of one kind whose detail is answers side by side:
 * quirk-visible ("v1.30: D; QUIRK off: D; ...") under key, or
 * version-visible ("delta items: ...; v1.30: D; v1.34: D; first
 * difference: ...") - every part a column. */
static void json_side_by_side(struct report_args *a, const char *key,
			      const char *kind)
{
	struct json_out *j = &a->j;
	json_key(j, key);
	json_begin_array(j);
	for (int i = 0; i < a->n_issues; i++) {
		const struct issue *is = &a->issues[i];
		if (strcmp(is->kind, kind))
			continue;
		json_begin_object(j);
		json_key(j, "run");
		json_int(j, is->run);
		json_key(j, "state");
		json_int(j, is->state);
		json_key(j, "answers");
		json_answers(j, is->detail);
		json_end_object(j);
	}
	json_end_array(j);
}

/* ---------------------------------------------------------- rejections */

static void keep_decided(void *ctx, const struct enum_report_row *r)
{
	struct report_args *a = ctx;
	GROW(a->decided, a->n_decided + 1, a->cap_decided);
	a->decided[a->n_decided++] = r->value[0];
}

/* Adds to count[plugin] the nodes each plugin rejected in the cycle of
 * state id's decision pod.  0, or -1 with err set. */
static int count_rejections(const struct report_args *a, int64_t id,
			    int64_t *count, struct error *err)
{
	struct enum_scenario sc;
	struct snapshot snap;
	int pod;
	if (enum_export_state(a->db, id, &sc, &snap, &pod, err) < 0) {
		enum_scenario_release(&sc);
		return -1;
	}
	const struct cluster *c = &sc.cluster;
	const struct sched_profile *prof = pod >= 0 ? model_profile_for(c, pod)
						    : NULL;
	if (prof) {
		struct sched_cycle_result r;
		sched_cycle_result_init(&r, c);
		model_engine.cycle(prof, &snap, pod, &r);
		for (int n = 0; n < c->n_nodes; n++)
			if (r.verdicts[n].rejected_by >= 0)
				count[r.verdicts[n].rejected_by]++;
		sched_cycle_result_release(&r);
	}
	snapshot_release(&snap);
	enum_scenario_release(&sc);
	return 0;
}

static int json_rejections(struct report_args *a, struct error *err)
{
	if (enum_report_rows(a->db, ENUM_REPORT_DECISION_STATES, a->run,
			     keep_decided, a, err) < 0)
		return -1;
	int64_t count[PLUGIN_COUNT] = {0};
	int n = a->n_decided < REPORT_CYCLES ? a->n_decided : REPORT_CYCLES;
	for (int i = 0; i < n; i++)
		if (count_rejections(a, a->decided[i], count, err) < 0)
			return -1;
	struct json_out *j = &a->j;
	json_key(j, "rejections");
	json_begin_object(j);
	json_key(j, "states");
	json_int(j, n);
	json_key(j, "of");
	json_int(j, a->n_decided);
	json_key(j, "plugins");
	json_begin_object(j);
	for (int id = 0; id < PLUGIN_COUNT; id++)
		if (count[id]) {
			json_key(j, config_plugin_name(id));
			json_int(j, count[id]);
		}
	json_end_object(j);
	json_end_object(j);
	return 0;
}

/* ----------------------------------------------------------- the report */

static int report(struct report_args *a, struct error *err)
{
	long n = enum_finding_list(a->db, NULL, a->run, keep_issue, a, err);
	if (n < 0)
		return -1;
	/* written whole once the database has been read: one that fails
	 * half way prints its error only, no partial report */
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	if (!mem)
		abort();
	html_out_init(&a->j, mem, a->format, html_report);
	json_begin_object(&a->j);
	json_key(&a->j, "database");
	json_string(&a->j, a->db);
	int rc = rows_json(a, "runs", ENUM_REPORT_RUNS, err);
	if (rc == 0)
		rc = rows_json(a, "scenarios", ENUM_REPORT_SCENARIOS, err);
	if (rc == 0) {
		json_issues(a);
		json_side_by_side(a, "quirk_visible", "quirk-visible");
		json_side_by_side(a, "version_visible", "version-visible");
		rc = json_rejections(a, err);
	}
	json_end_object(&a->j);
	json_end(&a->j);
	fclose(mem);
	if (rc == 0)
		fwrite(text, 1, len, stdout);
	free(text);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = {.run = -1, .detail = 3, .format = CLI_HTML};
	report_cmd.ctx = &a;
	char **pos;
	int n_pos;
	int rc = cli_parse(&report_cmd, argc, argv, &pos, &n_pos);
	if (rc >= 0)
		return rc;
	if (n_pos != 1) {
		free(pos);
		return cli_usage_error(&report_cmd, "need one database");
	}
	a.db = pos[0];
	free(pos);
	struct error err;
	error_init(&err);
	rc = report(&a, &err);
	for (int i = 0; i < a.n_issues; i++) {
		free(a.issues[i].kind);
		free(a.issues[i].detail);
	}
	free(a.issues);
	free(a.decided);
	if (rc < 0) {
		fprintf(stderr, "kso report: %s\n", err.msg);
		return 1;
	}
	return 0;
}
