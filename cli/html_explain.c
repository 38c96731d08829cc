/*
 * html_explain.c - `kso explain -o html`: one scheduling cycle (reference
 * §1.3-§1.7) drawn from explain's JSON tree (cli/explain_json.c):
 *   - the pod, its result and the FitError message (§1.7);
 *   - the node x plugin matrix: each filter's status coloured by code
 *     (pass, Unschedulable, UnschedulableAndUnresolvable, not evaluated)
 *     with its reasons on hover (title) and on click (<details>); the
 *     scores as a heat map per plugin (weighted, §1.6) with the total,
 *     and the viable nodes marked;
 *   - preemption (§3): kube's candidates with pickOneNodeForPreemption's
 *     criteria (§3.5), the chosen node and victims, the minimal answer.
 * Nodes are ordered viable first, then feasible by total, then the
 * closest to feasible (Unschedulable before UnschedulableAndUnresolvable,
 * fewest failing filters); past HTML_MATRIX_ROWS the rest are folded into
 * one line each, so a 5,000-node cluster stays a few MB.
 */
#include "html.h"

#include <stdlib.h>
#include <string.h>

#include "../yaml/tree.h"
#include "../core/xalloc.h"

/* Nodes drawn as full matrix rows; the others one folded line each. */
#define HTML_MATRIX_ROWS 60

struct row {
	const char *name;
	const struct ynode *node;
	int index;          /* cluster order */
	int rank;           /* 0 viable, 1 feasible, 2 Unschedulable,
			     * 3 UnschedulableAndUnresolvable, 4 not evaluated */
	int failing;        /* filters failing */
	int64_t total;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_row(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;
	if (a->rank != b->rank)
		return a->rank - b->rank;
	if (a->rank <= 1 && a->total != b->total)
		return a->total > b->total ? -1 : 1;
	if (a->failing != b->failing)
		return a->failing - b->failing;
	return a->index - b->index;
}

static int node_rank(const struct ynode *node, bool viable)
{
	if (viable)
		return 0;
	if (html_bool(node, "feasible"))
		return 1;
	if (!html_bool(node, "in_prefilter_result"))
		return 4;
	return strcmp(html_str(node, "code"), "Unschedulable") ? 3 : 2;
}

/* The nodes in reading order (malloc'ed [nodes->n]). */
static struct row *rows_of(const struct ynode *nodes, const struct ynode *viable)
{
	int nv = viable && viable->kind == YNODE_SEQ ? viable->n : 0;
	const char **names = xcalloc((size_t)nv + 1, sizeof *names);
	for (int i = 0; i < nv; i++)
		names[i] = viable->items[i]->str;
	qsort(names, (size_t)nv, sizeof *names, cmp_str);
	struct row *rows = xcalloc((size_t)nodes->n + 1, sizeof *rows);
	for (int i = 0; i < nodes->n; i++) {
		struct row *r = &rows[i];
		r->name = nodes->keys[i]->str;
		r->node = nodes->items[i];
		r->index = i;
		bool v = nv && bsearch(&r->name, names, (size_t)nv,
				       sizeof *names, cmp_str);
		r->rank = node_rank(r->node, v);
		const struct ynode *failed = html_get(r->node, "failed_filters");
		r->failing = failed ? failed->n : 0;
		r->total = html_int(r->node, "total");
	}
	free(names);
	qsort(rows, (size_t)nodes->n, sizeof *rows, cmp_row);
	return rows;
}

/* ---------------------------------------------------------- the header */

static void facts(FILE *f, const struct ynode *root, const struct row *rows,
		  int n)
{
	int count[5] = {0};
	for (int i = 0; i < n; i++)
		count[rows[i].rank]++;
	fputs("<div class=\"facts\">", f);
	fputs("<div><b>profile</b> ", f);
	html_escape(f, html_str(root, "profile"));
	fputs("</div><div><b>result</b> ", f);
	html_escape(f, html_str(root, "code"));
	fprintf(f, "</div><div><b>nodes</b> %d: %d viable, %d feasible, "
		   "%d Unschedulable, %d UnschedulableAndUnresolvable",
		n, count[0], count[0] + count[1], count[2], count[3]);
	if (count[4])
		fprintf(f, ", %d outside the PreFilterResult", count[4]);
	fputs("</div>", f);
	const char *v = html_str(root, "kube_version");
	if (*v) {
		fputs("<div><b>kube-scheduler</b> v", f);
		html_escape(f, v);
		fputs("</div>", f);
	}
	const struct ynode *q = html_get(root, "quirks_off");
	if (q) {
		fputs("<div><b>quirks off</b> ", f);
		html_join(f, q, ", ");
		fputs("</div>", f);
	}
	fputs("</div>\n", f);
}

static void verdict_box(FILE *f, const struct ynode *root)
{
	const struct ynode *viable = html_get(root, "viable");
	const char *msg = html_str(root, "message");
	if (*html_str(root, "bound_node")) {
		fputs("<div class=\"box\" id=\"bound\"><b>bound</b> to ", f);
		html_escape(f, html_str(root, "bound_node"));
		fputs(": explained on its node with the pod taken off it; "
		      "kube-scheduler never moves a bound pod</div>\n", f);
	}
	if (viable && viable->n) {
		fputs("<div class=\"box ok\" id=\"viable\"><b>viable</b> "
		      "(kube binds to one of these): ", f);
		html_join(f, viable, ", ");
		fputs("</div>\n", f);
	}
	if (*msg) {
		fputs("<div class=\"box bad\" id=\"message\"><b>", f);
		html_escape(f, strcmp(html_str(root, "code"), "Unschedulable") ?
			       "message" : "FitError");
		fputs("</b> <span class=\"mono\">", f);
		html_escape(f, msg);
		fputs("</span></div>\n", f);
	}
}

/* ---------------------------------------------------------- the matrix */

static const char *code_class(const char *code)
{
	if (!strcmp(code, "Unschedulable"))
		return "unsched";
	if (!strcmp(code, "UnschedulableAndUnresolvable"))
		return "uau";
	if (!strcmp(code, "Error"))
		return "err";
	return "skip";
}

static const char *code_mark(const char *code)
{
	if (!strcmp(code, "Unschedulable"))
		return "&#x2717;";              /* ✗ */
	if (!strcmp(code, "UnschedulableAndUnresolvable"))
		return "&#x2298;";              /* ⊘ */
	if (!strcmp(code, "Error"))
		return "!";
	return "&#x2013;";                      /* – skipped */
}

/* One filter's cell: pass, or its code with the reasons on hover and
 * click. */
static void filter_cell(FILE *f, const struct row *r, const char *plugin)
{
	if (!html_bool(r->node, "in_prefilter_result")) {
		fputs("<td class=\"c ne\" title=\"not evaluated: outside the "
		      "PreFilterResult\">&#xB7;</td>", f);
		return;
	}
	const struct ynode *st = html_get(html_get(r->node, "filters"), plugin);
	if (!st) {
		fputs("<td class=\"c pass\" title=\"pass\">&#x2713;</td>", f);
		return;
	}
	const char *code = html_str(st, "code");
	const struct ynode *reasons = html_get(st, "reasons");
	fprintf(f, "<td class=\"c %s\" title=\"", code_class(code));
	html_escape(f, code);
	if (reasons && reasons->n) {
		fputs(": ", f);
		html_join(f, reasons, "; ");
	}
	fprintf(f, "\"><details><summary>%s</summary><span class=\"why\">",
		code_mark(code));
	html_escape(f, code);
	if (reasons && reasons->n) {
		fputs(": ", f);
		html_join(f, reasons, "; ");
	}
	fputs("</span></details></td>", f);
}

/* The largest weighted score of each score plugin and of the totals. */
static void score_max(const struct row *rows, int n, const struct ynode *sp,
		      int64_t *max)
{
	for (int i = 0; i < n; i++) {
		const struct ynode *s = html_get(rows[i].node, "scores");
		for (int k = 0; sp && k < sp->n; k++) {
			int64_t v = html_int(s, sp->keys[k]->str);
			max[k] = v > max[k] ? v : max[k];
		}
		int64_t t = rows[i].total;
		max[sp ? sp->n : 0] = t > max[sp ? sp->n : 0] ? t :
				      max[sp ? sp->n : 0];
	}
}

static void result_cell(FILE *f, const struct row *r)
{
	fputs("<td class=\"result\">", f);
	switch (r->rank) {
	case 0: fputs("<span class=\"badge\">viable</span>", f); break;
	case 1: fputs("feasible", f); break;
	case 4: fputs("<span class=\"muted\">not evaluated (outside the "
		      "PreFilterResult)</span>", f); break;
	default:
		fputs("rejected by <b>", f);
		html_escape(f, html_str(r->node, "rejected_by"));
		fputs("</b>: <span class=\"reason\">", f);
		html_join(f, html_get(r->node, "reasons"), "; ");
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

static void matrix_row(FILE *f, const struct row *r, const struct ynode *fp,
		       const struct ynode *sp, const int64_t *max)
{
	fprintf(f, "<tr class=\"%s\" data-node=\"", r->rank == 0 ? "viable" :
		r->rank == 1 ? "feasible" : "rejected");
	html_escape(f, r->name);
	fprintf(f, "\"><td class=\"node\" data-v=\"%d\">", r->index);
	html_escape(f, r->name);
	if (r->rank == 0)
		fputs(" <span class=\"badge\" title=\"viable\">&#x2605;</span>", f);
	fputs("</td>", f);
	for (int k = 0; fp && k < fp->n; k++)
		filter_cell(f, r, fp->items[k]->str);
	const struct ynode *s = html_get(r->node, "scores");
	bool scored = s && s->n > 0;
	for (int k = 0; sp && k < sp->n; k++) {
		if (!scored) {
			fputs("<td class=\"n ne\"></td>", f);
			continue;
		}
		int64_t v = html_int(s, sp->keys[k]->str);
		fputs("<td class=\"n\"", f);
		html_heat_style(f, v, max[k]);
		fprintf(f, ">%lld</td>", (long long)v);
	}
	if (scored) {
		fputs("<td class=\"n total\"", f);
		html_heat_style(f, r->total, max[sp ? sp->n : 0]);
		fprintf(f, ">%lld</td>", (long long)r->total);
	} else {
		fputs("<td class=\"n ne\"></td>", f);
	}
	result_cell(f, r);
	fputs("</tr>\n", f);
}

static void matrix_head(FILE *f, const struct ynode *fp, const struct ynode *sp)
{
	fprintf(f, "<thead><tr><th rowspan=\"2\">node</th><th colspan=\"%d\">"
		   "filters, in the order they run</th><th colspan=\"%d\">"
		   "scores, weighted</th><th rowspan=\"2\">result</th></tr>\n<tr>",
		fp ? fp->n : 0, (sp ? sp->n : 0) + 1);
	for (int k = 0; fp && k < fp->n; k++)
		html_tag(f, "th", "class=\"v filter\"", fp->items[k]->str);
	for (int k = 0; sp && k < sp->n; k++) {
		fputs("<th class=\"v score\">", f);
		html_escape(f, sp->keys[k]->str);
		fputs(" &#xD7;", f);
		html_escape(f, sp->items[k]->str);
		fputs("</th>", f);
	}
	fputs("<th class=\"v\">total</th></tr></thead>\n", f);
}

static void legend(FILE *f)
{
	fputs("<p class=\"legend\"><span class=\"pass\">&#x2713; pass</span>"
	      "<span class=\"unsched\">&#x2717; Unschedulable</span>"
	      "<span class=\"uau\">&#x2298; UnschedulableAndUnresolvable</span>"
	      "<span class=\"ne\">&#xB7; not evaluated (outside the "
	      "PreFilterResult)</span> scores: weighted (score &#xD7; weight), darker is "
	      "higher; <span class=\"badge\">&#x2605;</span> viable. Click a "
	      "&#x2717; for the reason.</p>\n", f);
}

/* The nodes past the matrix, one line each: result and first reason. */
static void folded(FILE *f, const struct row *rows, int from, int n)
{
	if (from >= n)
		return;
	fprintf(f, "<details id=\"folded\"><summary>%d more nodes, each "
		   "farther from viable (folded)</summary>\n<table class=\""
		   "sortable\"><thead><tr><th>node</th><th>total</th>"
		   "<th>result</th></tr></thead><tbody>\n", n - from);
	for (int i = from; i < n; i++) {
		const struct row *r = &rows[i];
		fputs("<tr><td>", f);
		html_escape(f, r->name);
		if (r->rank <= 1)
			fprintf(f, "</td><td class=\"n\">%lld</td>",
				(long long)r->total);
		else
			fputs("</td><td></td>", f);
		result_cell(f, r);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></details>\n", f);
}

static void matrix(FILE *f, const struct ynode *root, const struct row *rows,
		   int n)
{
	const struct ynode *fp = html_get(root, "filter_plugins");
	const struct ynode *sp = html_get(root, "score_plugins");
	int64_t *max = xcalloc((size_t)(sp ? sp->n : 0) + 1, sizeof *max);
	score_max(rows, n, sp, max);
	int shown = n < HTML_MATRIX_ROWS ? n : HTML_MATRIX_ROWS;
	fputs("<h2>Filters and scores, node by plugin</h2>\n", f);
	legend(f);
	if (shown < n)
		fprintf(f, "<p>The %d nodes nearest to viable; the other %d "
			   "are folded below.</p>\n", shown, n - shown);
	fputs("<input class=\"filter\" data-for=\"matrix\" placeholder=\""
	      "filter nodes\" aria-label=\"filter nodes\">\n"
	      "<table id=\"matrix\" class=\"sortable matrix\">", f);
	matrix_head(f, fp, sp);
	fputs("<tbody>\n", f);
	for (int i = 0; i < shown; i++)
		matrix_row(f, &rows[i], fp, sp, max);
	fputs("</tbody></table>\n", f);
	folded(f, rows, shown, n);
	free(max);
}

/* ---------------------------------------------------------- preemption */

static void casualty_cells(FILE *f, const struct ynode *k)
{
	if (!k) {
		fputs("<td></td><td></td><td></td><td></td><td></td>", f);
		return;
	}
	fprintf(f, "<td class=\"n\">%lld</td><td class=\"n\">%lld</td>"
		   "<td class=\"n\">%lld</td><td class=\"n\">%lld</td>",
		(long long)html_int(k, "pdb_violations"),
		(long long)html_int(k, "highest_priority"),
		(long long)html_int(k, "priority_sum"),
		(long long)html_int(k, "victims"));
	const struct ynode *e = html_get(k, "earliest_start");
	if (e)
		fprintf(f, "<td class=\"n\">%lld</td>",
			(long long)html_scalar_int(e));
	else
		fputs("<td class=\"muted\">now</td>", f);
}

static void candidates(FILE *f, const struct ynode *pre)
{
	const struct ynode *c = html_get(pre, "candidates");
	if (!c || !c->n)
		return;
	const char *chosen = html_str(pre, "node");
	fputs("<h3>Candidates (pickOneNodeForPreemption)</h3>\n<p>kube keeps "
	      "the candidates best on each criterion in turn: fewest PDB "
	      "violations, then lowest highest victim priority, then smallest "
	      "sum of victim priorities, then fewest victims, then the latest "
	      "start among the highest-priority victims; among what ties "
	      "on all five kube takes the first of its candidate map, an "
	      "order Go leaves random (kso: the first listed).</p>\n<table id=\"candidates\"><thead><tr>"
	      "<th>node</th><th>victims</th><th>1. PDB violations</th>"
	      "<th>2. highest priority</th><th>3. priority sum</th>"
	      "<th>4. victims</th><th>5. earliest start (Unix s)</th>"
	      "</tr></thead><tbody>\n", f);
	for (int i = 0; i < c->n; i++) {
		const struct ynode *v = c->items[i];
		bool pick = !strcmp(html_str(v, "node"), chosen);
		fprintf(f, "<tr%s><td>", pick ? " class=\"viable chosen\"" : "");
		html_escape(f, html_str(v, "node"));
		if (pick)
			fputs(" <span class=\"badge\">chosen</span>", f);
		fputs("</td><td>", f);
		html_join(f, html_get(v, "victims"), ", ");
		fputs("</td>", f);
		casualty_cells(f, html_get(v, "casualty"));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void minimal(FILE *f, const struct ynode *pre)
{
	const struct ynode *m = html_get(pre, "minimal");
	if (!m)
		return;
	fputs("<p><b>least casualty</b> (the spec's Preemption): ", f);
	if (*html_str(m, "error"))
		html_escape(f, html_str(m, "error"));
	else if (!*html_str(m, "node"))
		fputs("no node and subset of lower-priority pods makes the pod "
		      "feasible", f);
	else {
		fputs("node ", f);
		html_escape(f, html_str(m, "node"));
		fputs(", evict ", f);
		html_join(f, html_get(m, "victims"), ", ");
	}
	fprintf(f, "%s</p>\n", html_bool(pre, "differs") ?
		" <span class=\"badge warn\">differs from kube</span>" : "");
}

static void preemption(FILE *f, const struct ynode *root)
{
	const struct ynode *pre = html_get(root, "preemption");
	if (!pre)
		return;
	fputs("<h2>Preemption (DefaultPreemption)</h2>\n<div class=\"facts\">"
	      "<div><b>eligible</b> ", f);
	fputs(html_bool(pre, "eligible") ? "yes" : "no", f);
	fputs("</div><div id=\"preempt-node\"><b>kube nominates</b> ", f);
	const char *node = html_str(pre, "node");
	html_escape(f, *node ? node : "no node");
	if (*node) {
		fputs("</div><div id=\"victims\"><b>victims</b> ", f);
		html_join(f, html_get(pre, "victims"), ", ");
	}
	const struct ynode *ties = html_get(pre, "nominated_nodes_equal");
	if (ties && ties->n) {
		fputs("</div><div><b>equal on every criterion</b> ", f);
		html_join(f, ties, ", ");
	}
	fputs("</div></div>\n", f);
	if (*html_str(pre, "message")) {
		fputs("<p class=\"mono\">", f);
		html_escape(f, html_str(pre, "message"));
		fputs("</p>\n", f);
	}
	candidates(f, pre);
	minimal(f, pre);
}

/* --impl: the implementation's answer and kso's verdict on it. */
static void impl(FILE *f, const struct ynode *root)
{
	const struct ynode *im = html_get(root, "impl");
	if (!im)
		return;
	bool ok = !strcmp(html_str(im, "verdict"), "ok");
	fputs("<h2>Scheduler under test</h2>\n", f);
	fprintf(f, "<div class=\"box %s\"><b>", ok ? "ok" : "bad");
	html_escape(f, html_str(im, "implementation"));
	fputs("</b> answered ", f);
	html_escape(f, html_str(im, "action"));
	fputs(" ", f);
	html_escape(f, html_str(im, "node"));
	fputs(": <b>", f);
	html_escape(f, html_str(im, "verdict"));
	fputs("</b> ", f);
	html_escape(f, html_str(im, "detail"));
	if (*html_str(im, "message")) {
		fputs("<br>its message: <span class=\"mono\">", f);
		html_escape(f, html_str(im, "message"));
		fputs("</span>", f);
	}
	fputs("</div>\n", f);
}

void html_explain(FILE *f, const struct ynode *root, void *ctx)
{
	(void)ctx;
	const struct ynode *nodes = html_get(root, "nodes");
	int n = nodes && nodes->kind == YNODE_MAP ? nodes->n : 0;
	struct row *rows = n ? rows_of(nodes, html_get(root, "viable")) : NULL;
	char title[600];
	snprintf(title, sizeof title, "kso explain %s", html_str(root, "pod"));
	html_page_begin(f, title);
	fputs("<h1>kso explain: pod ", f);
	html_escape(f, html_str(root, "pod"));
	fputs("</h1>\n", f);
	facts(f, root, rows, n);
	verdict_box(f, root);
	impl(f, root);
	if (n)
		matrix(f, root, rows, n);
	preemption(f, root);
	html_page_end(f);
	free(rows);
}
