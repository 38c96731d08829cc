/*
 * explain_table.c - `kso explain` for a person at a terminal: a row per
 * node with its RESULT and REASON first, a column for each filter some
 * node fails and one "+N passed" for the rest (-o wide: a column per
 * enabled filter, ✓ or ✗ and kube's reason); then, when scoring ran, a row
 * per feasible node with its TOTAL, the scores that differ between nodes
 * and one "+N same" (-o wide: every score plugin), and the viable mark;
 * then the outcome line: "viable: a, b", or kube's event message ("0/3
 * nodes are available: ...") when nothing fits.  On a width
 * (cli_terminal_width) the rows fit it and the other lines wrap.
 */
#include "explain.h"
#include "judge.h"
#include "table.h"
#include "../core/arena.h"
#include "../core/dra_plugin.h"
#include "../core/strbuf.h"
#include "../core/xalloc.h"
#include "../model/match.h"
#include "../yaml/emit.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define CELL_LEN 1024

/* Column headers: kube's plugin names, shortened where they are long. */
static const char *short_plugin(enum plugin_id id)
{
	switch (id) {
	case PLUGIN_NODE_UNSCHEDULABLE: return "Unschedulable";
	case PLUGIN_NODE_RESOURCES_FIT: return "ResourcesFit";
	case PLUGIN_POD_TOPOLOGY_SPREAD: return "TopologySpread";
	case PLUGIN_BALANCED_ALLOCATION: return "BalancedAllocation";
	default: return config_plugin_name(id);
	}
}

/* kube's reason texts (reference §2) and the short form a cell shows. */
static const struct {
	const char *reason;
	const char *shortened;
} short_reasons[] = {
	{"node(s) were unschedulable", "unschedulable"},
	{"node(s) didn't match the requested node name", "other node"},
	{"node(s) didn't match Pod's node affinity/selector", "affinity/selector"},
	{"node(s) didn't match scheduler-enforced node affinity", "scheduler affinity"},
	{"node(s) didn't have free ports for the requested pod ports", "ports in use"},
	{"node(s) didn't match pod topology spread constraints (missing required label)",
	 "missing topology label"},
	{"node(s) didn't match pod topology spread constraints", "max skew"},
	{"node(s) didn't match pod affinity rules", "pod affinity"},
	{"node(s) didn't match pod anti-affinity rules", "pod anti-affinity"},
	{"node(s) didn't satisfy existing pods anti-affinity rules",
	 "existing anti-affinity"},
};

void cli_explain_short_reason(const char *reason, char *buf, size_t len)
{
	assert(reason && buf && len);
	for (size_t i = 0; i < sizeof short_reasons / sizeof short_reasons[0]; i++)
		if (strcmp(reason, short_reasons[i].reason) == 0) {
			snprintf(buf, len, "%s", short_reasons[i].shortened);
			return;
		}
	const char *taint = "node(s) had untolerated taint ";
	if (strncmp(reason, taint, strlen(taint)) == 0) {
		snprintf(buf, len, "taint %s", reason + strlen(taint));
		return;
	}
	const char *nodes = "node(s) ";
	if (strncmp(reason, nodes, strlen(nodes)) == 0)
		reason += strlen(nodes);
	snprintf(buf, len, "%s", reason);
}

/* "r1, r2": a failed filter's reasons (short unless wide). */
static void reasons_text(char *cell, const struct sched_status *st, bool wide)
{
	size_t used = 0;
	cell[0] = '\0';
	for (int i = 0; i < st->n_reasons && used < CELL_LEN; i++) {
		char s[CELL_LEN];
		if (wide)
			snprintf(s, sizeof s, "%s", sched_status_reason(st, i));
		else
			cli_explain_short_reason(sched_status_reason(st, i), s,
						 sizeof s);
		used += (size_t)snprintf(cell + used, CELL_LEN - used, "%s%s",
					 i ? ", " : "", s);
	}
}

/* "✗ r1, r2" for a failed filter's reasons. */
static void fail_cell(char *cell, const struct sched_status *st, bool wide)
{
	char reasons[CELL_LEN];
	reasons_text(reasons, st, wide);
	snprintf(cell, CELL_LEN, "✗%s%.1000s", *reasons ? " " : "", reasons);
}

static bool prefilter_rejected(const struct sched_cycle_result *r)
{
	return r->prefilter.code == SCHED_UNSCHEDULABLE ||
	       r->prefilter.code == SCHED_UAU;
}

/* Filters ran on node n (not so under a PreFilter rejection or outside
 * the PreFilterResult). */
static bool filters_ran(const struct sched_cycle_result *r, int n)
{
	if (prefilter_rejected(r))
		return false;
	return r->in_prefilter_result[n] || r->verdicts[n].rejected_by >= 0 ||
	       r->verdicts[n].feasible;
}

/* A node Filter never reached: the cycle ended at an earlier node's
 * Error (DEVIATIONS.md B9). */
static bool not_evaluated(const struct sched_cycle_result *r, int n)
{
	const struct sched_node_verdict *v = &r->verdicts[n];
	return r->code == SCHED_ERROR && r->in_prefilter_result[n] &&
	       !v->feasible && v->rejected_by < 0;
}

static void result_cell(char *cell, const struct sched_cycle_result *r, int n)
{
	const struct sched_node_verdict *v = &r->verdicts[n];
	if (prefilter_rejected(r))
		snprintf(cell, CELL_LEN, "rejected at PreFilter by %s",
			 config_plugin_name(v->rejected_by));
	else if (!filters_ran(r, n))
		snprintf(cell, CELL_LEN, "not in PreFilterResult");
	else if (not_evaluated(r, n))
		snprintf(cell, CELL_LEN, "not evaluated (the cycle's Error)");
	else if (v->feasible)
		snprintf(cell, CELL_LEN, "feasible");
	else
		snprintf(cell, CELL_LEN, "rejected by %s",
			 config_plugin_name(v->rejected_by));
}

static int enabled_filters(const struct sched_profile *p, enum plugin_id *ids)
{
	int n = 0;
	for (int i = 0; i < MODEL_N_FILTERS; i++)
		if (p->filter[model_filter_ids[i]])
			ids[n++] = model_filter_ids[i];
	return n;
}

static void filter_row(struct cli_grid *g, int row, const struct cli_explain *x,
		       int n, const enum plugin_id *ids, int nf)
{
	const struct sched_cycle_result *r = x->result;
	const struct sched_node_verdict *v = &r->verdicts[n];
	cli_grid_set(g, row, 0, "%s", x->cluster->nodes[n].name);
	for (int i = 0; i < nf; i++) {
		char cell[CELL_LEN];
		if (prefilter_rejected(r) && (int)ids[i] == v->rejected_by)
			fail_cell(cell, &v->status[ids[i]], x->wide);
		else if (!filters_ran(r, n) || not_evaluated(r, n))
			snprintf(cell, CELL_LEN, "-");
		else if (v->failed[ids[i]])
			fail_cell(cell, &v->status[ids[i]], x->wide);
		else
			snprintf(cell, CELL_LEN, "✓");
		cli_grid_set(g, row, 1 + i, "%s", cell);
	}
	char cell[CELL_LEN];
	result_cell(cell, r, n);
	cli_grid_set(g, row, 1 + nf, "%s", cell);
}

/* Whether filter id fails (or rejects at PreFilter) on a shown node. */
static bool fails_somewhere(const struct cli_explain *x, enum plugin_id id)
{
	const struct sched_cycle_result *r = x->result;
	for (int n = 0; n < x->cluster->n_nodes; n++) {
		if (!cli_explain_shows(x, n))
			continue;
		const struct sched_node_verdict *v = &r->verdicts[n];
		if (prefilter_rejected(r) ? v->rejected_by == (int)id :
		    filters_ran(r, n) && !not_evaluated(r, n) && v->failed[id])
			return true;
	}
	return false;
}

/* The table's RESULT and REASON: what happened to the node in a word,
 * and why (the rejecting filter and its short reasons). */
static void result_reason(char *result, char *reason,
			  const struct sched_cycle_result *r, int n)
{
	const struct sched_node_verdict *v = &r->verdicts[n];
	char reasons[CELL_LEN];
	reasons[0] = '\0';
	if (v->rejected_by >= 0)
		reasons_text(reasons, &v->status[v->rejected_by], false);
	const char *name = v->rejected_by >= 0 ?
			   config_plugin_name(v->rejected_by) : "";
	const char *sep = *reasons ? ": " : "";
	if (prefilter_rejected(r)) {
		snprintf(result, CELL_LEN, "rejected");
		snprintf(reason, CELL_LEN, "PreFilter %s%s%.900s", name, sep,
			 reasons);
	} else if (!filters_ran(r, n)) {
		snprintf(result, CELL_LEN, "skipped");
		snprintf(reason, CELL_LEN, "not in PreFilterResult");
	} else if (not_evaluated(r, n)) {
		snprintf(result, CELL_LEN, "-");
		snprintf(reason, CELL_LEN, "not evaluated (the cycle's Error)");
	} else if (v->feasible) {
		snprintf(result, CELL_LEN, "feasible");
		reason[0] = '\0';
	} else {
		snprintf(result, CELL_LEN, "rejected");
		snprintf(reason, CELL_LEN, "%s%s%.900s", name, sep, reasons);
	}
}

/* The table's rows: NODE RESULT REASON, a column for each filter some
 * node fails (✓ ✗ -), and one "+N passed" column for the rest. */
static void narrow_row(struct cli_grid *g, int row, const struct cli_explain *x,
		       int n, const enum plugin_id *fails, int nfail, int passed)
{
	const struct sched_cycle_result *r = x->result;
	const struct sched_node_verdict *v = &r->verdicts[n];
	bool ran = !prefilter_rejected(r) && filters_ran(r, n) &&
		   !not_evaluated(r, n);
	char result[CELL_LEN], reason[CELL_LEN];
	cli_grid_set(g, row, 0, "%s", x->cluster->nodes[n].name);
	result_reason(result, reason, r, n);
	cli_grid_set(g, row, 1, "%s", result);
	cli_grid_set(g, row, 2, "%s", reason);
	for (int i = 0; i < nfail; i++)
		cli_grid_set(g, row, 3 + i, "%s",
			     prefilter_rejected(r) && v->rejected_by == (int)fails[i] ?
			     "✗" : !ran ? "-" : v->failed[fails[i]] ? "✗" : "✓");
	if (passed)
		cli_grid_set(g, row, 3 + nfail, "%s", ran ? "✓" : "-");
}

static void print_narrow_filters(const struct cli_explain *x, int width,
				 const enum plugin_id *ids, int nf, FILE *f)
{
	enum plugin_id fails[MODEL_N_FILTERS];
	int nfail = 0;
	for (int i = 0; i < nf; i++)
		if (fails_somewhere(x, ids[i]))
			fails[nfail++] = ids[i];
	int passed = nf - nfail, rows = 0;
	for (int n = 0; n < x->cluster->n_nodes; n++)
		rows += cli_explain_shows(x, n);
	struct cli_grid g;
	cli_grid_init(&g, 1 + rows, 3 + nfail + (passed > 0));
	g.flex = 2;
	/* the reason whole while the width allows: the matrix after it
	 * (complete in -o wide) is the part cut */
	g.flex_min = INT_MAX;
	cli_grid_set(&g, 0, 0, "NODE");
	cli_grid_set(&g, 0, 1, "RESULT");
	cli_grid_set(&g, 0, 2, "REASON");
	for (int i = 0; i < nfail; i++)
		cli_grid_set(&g, 0, 3 + i, "%s", short_plugin(fails[i]));
	if (passed)
		cli_grid_set(&g, 0, 3 + nfail, "+%d passed", passed);
	for (int n = 0, row = 1; n < x->cluster->n_nodes; n++)
		if (cli_explain_shows(x, n))
			narrow_row(&g, row++, x, n, fails, nfail, passed);
	fprintf(f, "\nfilters (kube order; a node's result is its first failure):\n");
	cli_grid_print(&g, f, width);
	cli_grid_release(&g);
	if (!passed)
		return;
	struct strbuf b;
	strbuf_init(&b);
	strbuf_printf(&b, "+%d passed on every node:", passed);
	for (int i = 0, k = 0; i < nf; i++)
		if (!fails_somewhere(x, ids[i]))
			strbuf_printf(&b, "%s %s", k++ ? "," : "",
				      short_plugin(ids[i]));
	strbuf_puts(&b, " (-o wide: every filter's column)");
	cli_wrap(f, b.s, width, 2);
	strbuf_release(&b);
}

static bool selector_matches(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	return match_node_selector(ns, n);
}

const char *cli_explain_allocator_why(const struct cli_explain *x, int n, struct arena *a)
{
	const struct sched_node_verdict *v = &x->result->verdicts[n];
	const struct pod *p = &x->cluster->pods[x->pod];
	if (!p->n_claims || !v->failed[PLUGIN_DYNAMIC_RESOURCES])
		return NULL;
	return dra_why_no_fit(a, x->cluster, x->snap->dra, p, n, selector_matches, NULL);
}

/* Each shown node DynamicResources' allocator found no fit on: kso's
 * reading of which request failed, under kube's one reason. */
static void print_allocator(const struct cli_explain *x, FILE *f)
{
	struct arena a;
	arena_init(&a);
	bool first = true;
	for (int n = 0; n < x->cluster->n_nodes; n++) {
		const char *why = cli_explain_shows(x, n) ? cli_explain_allocator_why(x, n, &a) : NULL;
		if (!why)
			continue;
		if (first)
			fprintf(f, "\nwhy \"cannot allocate all claims\" (kso's reading of the "
				"allocator; kube prints only that reason):\n");
		first = false;
		fprintf(f, "  %s: %s\n", x->cluster->nodes[n].name, why);
	}
	arena_release(&a);
}

static void print_filters(const struct cli_explain *x, int width, FILE *f)
{
	enum plugin_id ids[MODEL_N_FILTERS];
	int nf = enabled_filters(x->profile, ids);
	if (!x->wide) {
		print_narrow_filters(x, width, ids, nf, f);
		return;
	}
	int rows = 0;
	for (int n = 0; n < x->cluster->n_nodes; n++)
		rows += cli_explain_shows(x, n);
	struct cli_grid g;
	cli_grid_init(&g, 1 + rows, 2 + nf);
	cli_grid_set(&g, 0, 0, "NODE");
	for (int i = 0; i < nf; i++)
		cli_grid_set(&g, 0, 1 + i, "%s", config_plugin_name(ids[i]));
	cli_grid_set(&g, 0, 1 + nf, "RESULT");
	for (int n = 0, row = 1; n < x->cluster->n_nodes; n++)
		if (cli_explain_shows(x, n))
			filter_row(&g, row++, x, n, ids, nf);
	fprintf(f, "\nfilters (kube order; a node's result is its first failure):\n");
	cli_grid_print(&g, f, 0);
	cli_grid_release(&g);
}

static bool is_viable(const struct sched_cycle_result *r, int n)
{
	for (int i = 0; i < r->n_viable; i++)
		if (r->viable[i] == n)
			return true;
	return false;
}

/* The score plugin's weighted score on node n, as a cell. */
static void score_cell(char *cell, const struct sched_cycle_result *r, int n,
		       enum plugin_id id)
{
	if (r->score_skipped[id])
		snprintf(cell, CELL_LEN, "skip");
	else
		snprintf(cell, CELL_LEN, "%lld",
			 (long long)r->scores[(size_t)n * PLUGIN_COUNT + id]);
}

static int first_shown_feasible(const struct cli_explain *x)
{
	for (int k = 0; k < x->result->n_feasible; k++)
		if (cli_explain_shows(x, x->result->feasible[k]))
			return x->result->feasible[k];
	return x->result->feasible[0];
}

/* Whether score id gives every shown feasible node the same cell. */
static bool score_same(const struct cli_explain *x, enum plugin_id id)
{
	const struct sched_cycle_result *r = x->result;
	char first[CELL_LEN] = "", cell[CELL_LEN];
	for (int k = 0; k < r->n_feasible; k++) {
		if (!cli_explain_shows(x, r->feasible[k]))
			continue;
		score_cell(cell, r, r->feasible[k], id);
		if (!*first)
			memcpy(first, cell, sizeof cell);
		else if (strcmp(first, cell))
			return false;
	}
	return true;
}

/* Columns: NODE, TOTAL, each score plugin (-o wide), or only those that
 * differ between nodes and one "+N same" column with the rest's sum (the
 * table), and the viable mark. */
static void print_scores(const struct cli_explain *x, int width, FILE *f)
{
	const struct sched_cycle_result *r = x->result;
	enum plugin_id ids[MODEL_N_SCORES], same[MODEL_N_SCORES];
	int ns = 0, nsame = 0;
	for (int i = 0; i < MODEL_N_SCORES; i++) {
		enum plugin_id id = model_score_ids[i];
		if (!x->profile->score[id])
			continue;
		if (!x->wide && score_same(x, id))
			same[nsame++] = id;
		else
			ids[ns++] = id;
	}
	int rows = 0;
	for (int k = 0; k < r->n_feasible; k++)
		rows += cli_explain_shows(x, r->feasible[k]);
	int cols = 3 + ns + (nsame > 0);
	struct cli_grid g;
	cli_grid_init(&g, 1 + rows, cols);
	cli_grid_set(&g, 0, 0, "NODE");
	cli_grid_set(&g, 0, 1, "TOTAL");
	for (int i = 0; i < ns; i++)
		cli_grid_set(&g, 0, 2 + i, "%s×%lld",
			 x->wide ? config_plugin_name(ids[i]) : short_plugin(ids[i]),
			 (long long)x->profile->weight[ids[i]]);
	if (nsame)
		cli_grid_set(&g, 0, 2 + ns, "+%d same", nsame);
	for (int k = 0, row = 0; k < r->n_feasible; k++) {
		int n = r->feasible[k];
		if (!cli_explain_shows(x, n))
			continue;
		row++;
		char cell[CELL_LEN];
		cli_grid_set(&g, row, 0, "%s", x->cluster->nodes[n].name);
		cli_grid_set(&g, row, 1, "%lld", (long long)r->total[n]);
		for (int i = 0; i < ns; i++) {
			score_cell(cell, r, n, ids[i]);
			cli_grid_set(&g, row, 2 + i, "%s", cell);
		}
		long long sum = 0;
		for (int i = 0; i < nsame; i++)
			if (!r->score_skipped[same[i]])
				sum += r->scores[(size_t)n * PLUGIN_COUNT + same[i]];
		if (nsame)
			cli_grid_set(&g, row, 2 + ns, "%lld", sum);
		if (is_viable(r, n))
			cli_grid_set(&g, row, cols - 1, "← viable");
	}
	fprintf(f, "\nscores (normalized score × weight; skip = PreScore skipped, 0):\n");
	cli_grid_print(&g, f, width);
	cli_grid_release(&g);
	if (!nsame)
		return;
	struct strbuf b;
	strbuf_init(&b);
	strbuf_printf(&b, "+%d the same on every node:", nsame);
	for (int i = 0; i < nsame; i++) {
		char cell[CELL_LEN];
		score_cell(cell, r, first_shown_feasible(x), same[i]);
		strbuf_printf(&b, "%s %s×%lld %s", i ? "," : "",
			      short_plugin(same[i]),
			      (long long)x->profile->weight[same[i]], cell);
	}
	cli_wrap(f, b.s, width, 2);
	strbuf_release(&b);
}

static void print_viable(const struct cli_explain *x, FILE *f)
{
	const struct sched_cycle_result *r = x->result;
	fprintf(f, "viable: ");
	for (int i = 0; i < r->n_viable; i++)
		fprintf(f, "%s%s", i ? ", " : "",
			x->cluster->nodes[r->viable[i]].name);
	if (r->nominated_node >= 0)
		fprintf(f, " (the pod's nominated node passes every filter: "
			   "chosen without scoring)");
	else if (!r->scored)
		fprintf(f, " (the only feasible node: chosen without scoring)");
	fputc('\n', f);
}

/* The outcome: the viable set, or the event kube records. */
static void print_outcome(const struct cli_explain *x, FILE *f)
{
	const struct sched_cycle_result *r = x->result;
	char postfilter[2048];
	if (r->code == SCHED_UNSCHEDULABLE)   /* its section, if any, first */
		cli_explain_preemption(x, NULL, f, postfilter, sizeof postfilter);
	fputc('\n', f);
	switch (r->code) {
	case SCHED_SUCCESS:
		print_viable(x, f);
		return;
	case SCHED_UNSCHEDULABLE: {
		char *m = model_fit_error(r, postfilter);
		fprintf(f, "event: %s\n", m);
		free(m);
		return;
	}
	case SCHED_ERROR:
		fprintf(f, "error: %s\n", r->message ? r->message : "");
		return;
	default:
		fprintf(f, "event: %s\n", r->message ? r->message : "");
		return;
	}
}

/* A bound pod: why it stays - kube-scheduler schedules pending pods
 * only, and a filter its node fails today (a taint added since, a label
 * removed) moves nothing - and its node's filters for it now, the pod
 * taken off the node, as if it were placed again. */
static void print_bound(const struct cli_explain *x, int width, FILE *f)
{
	const struct sched_cycle_result *r = x->result;
	int n = x->bound_node;
	const char *node = x->cluster->nodes[n].name;
	fprintf(f, "\nbound to %s (spec.nodeName): kube-scheduler schedules "
		"pending pods only and never moves a bound one, so it stays "
		"whatever the filters say now.\n", node);
	print_filters(x, width, f);
	const struct sched_node_verdict *v = &r->verdicts[n];
	char reasons[CELL_LEN] = "";
	if (v->rejected_by >= 0)
		reasons_text(reasons, &v->status[v->rejected_by], true);
	fputc('\n', f);
	if (v->feasible)
		fprintf(f, "%s passes every filter for it today: placed now, it "
			"could go there again.\n", node);
	else if (prefilter_rejected(r) || v->rejected_by >= 0)
		fprintf(f, "%s fails %s for it today (%s): it stays all the same "
			"(evicting is not the scheduler's job: a NoExecute taint "
			"is the taint manager's, a node going away the node "
			"controller's).\n", node, config_plugin_name(v->rejected_by),
			*reasons ? reasons : "rejected");
	else
		fprintf(f, "%s is not in the cycle's PreFilterResult for it "
			"today: it stays all the same.\n", node);
}

/* The report on f: rows fitted to width by the table printer, every
 * other line wrapped to it (continuation lines indented two more). */
static void report(const struct cli_explain *x, int width, FILE *f);

void cli_explain_table(const struct cli_explain *x, FILE *out)
{
	assert(x && x->result && out);
	int width = x->wide ? 0 : cli_terminal_width(out);
	if (width <= 0) {
		report(x, 0, out);
		return;
	}
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		xalloc_oom(0);
	report(x, width, f);
	fclose(f);
	for (char *line = text, *nl; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		*nl = '\0';
		cli_wrap(out, line, width, (int)strspn(line, " ") + 2);
	}
	free(text);
}

static void report(const struct cli_explain *x, int width, FILE *f)
{
	const struct pod *pod = &x->cluster->pods[x->pod];
	char off[512];
	quirks_off_text(x->cluster->config.quirks_off, ", ", off, sizeof off);
	enum kube_version v = x->cluster->config.kube_version;
	fprintf(f, "pod %s/%s (priority %d, profile %s, engine %s%s%s%s%s)\n",
		pod->ns, pod->name, (int)pod->priority, x->profile->name,
		x->engine->name, v != KUBE_1_30 ? "; kube " : "",
		v != KUBE_1_30 ? config_kube_version_name(v) : "",
		*off ? "; quirks off: " : "", off);
	if (x->bound) {
		print_bound(x, width, f);
		return;
	}
	if (x->cluster->n_nodes > 0) {
		print_filters(x, width, f);
		print_allocator(x, f);
	}
	if (x->result->scored)
		print_scores(x, width, f);
	print_outcome(x, f);
	if (x->impl) {
		char ans[2048];
		judge_answer_text(x->cluster, x->impl, ans, sizeof ans);
		/* the answer and the detail carry the implementation's text:
		 * its control characters escaped, as in every table */
		struct strbuf name, a, d;
		strbuf_init(&name);
		strbuf_init(&a);
		strbuf_init(&d);
		yaml_emit_controls_escaped(&name, x->impl_name);
		yaml_emit_controls_escaped(&a, ans);
		yaml_emit_controls_escaped(&d, x->verdict->detail);
		fprintf(f, "\nimplementation %s: %s\nverdict: %s%s - %s\n",
			name.s ? name.s : "", a.s ? a.s : "", judgment_name(x->verdict->kind),
			x->verdict->tie ? " (tie)" : "", d.s ? d.s : "");
		strbuf_release(&name);
		strbuf_release(&a);
		strbuf_release(&d);
	}
}
