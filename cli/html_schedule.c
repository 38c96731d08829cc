/*
 * html_schedule.c - `kso schedule -o html`: the scheduler loop's run
 * (reference §1.2, §1.3, §3) drawn from schedule's JSON tree
 * (cli/cmd_schedule.c):
 *   - the summary and any broken invariant;
 *   - the run as a timeline: a strip with one mark per step coloured by
 *     its action, then each step (pod, action, node, victims, message);
 *   - each node's fill per resource, before and after the run (bars of
 *     requested over allocatable, from "nodes", cli/node_fill.h);
 *   - the pods left pending with their reasons.
 * Nodes the run changed come first; past HTML_FILL_ROWS the others are
 * folded into one line each.
 */
#include "html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/tree.h"
#include "../core/xalloc.h"

#define HTML_FILL_ROWS 80
#define HTML_FILL_RESOURCES 6     /* resource columns drawn */
#define STRIP_WIDTH 1200

/* ------------------------------------------------------------ summary */

static void facts(FILE *f, const struct ynode *sum, const struct ynode *root)
{
	fprintf(f, "<div class=\"facts\" id=\"summary\"><div><b>steps</b> %"
		   PRId64 "</div><div><b>bound</b> %" PRId64 "</div><div><b>"
		   "pending</b> %" PRId64 "</div><div><b>evicted</b> %" PRId64
		   "</div><div><b>stopped</b> ",
		html_int(sum, "steps"), html_int(sum, "bound"),
		html_int(sum, "pending"), html_int(sum, "evicted"));
	html_escape(f, html_str(sum, "stopped"));
	const struct ynode *inv = html_get(sum, "invariants");
	fprintf(f, "</div><div><b>invariants</b> %s</div>",
		html_bool(inv, "ok") ? "<span class=\"badge\">held</span>" :
		"<span class=\"badge bad\">broken</span>");
	if (*html_str(sum, "kube_version")) {
		fputs("<div><b>kube-scheduler</b> v", f);
		html_escape(f, html_str(sum, "kube_version"));
		fputs("</div>", f);
	}
	if (*html_str(root, "implementation")) {
		fputs("<div><b>scheduler under test</b> ", f);
		html_escape(f, html_str(root, "implementation"));
		fputs("</div>", f);
	}
	fputs("</div>\n", f);
	const struct ynode *broken = html_get(inv, "broken");
	for (int i = 0; broken && i < broken->n; i++) {
		const struct ynode *b = broken->items[i];
		fprintf(f, "<div class=\"box bad\"><b>invariant broken at step %"
			   PRId64 ":</b> ", html_int(b, "step"));
		html_escape(f, html_str(b, "name"));
		fputs(": ", f);
		html_escape(f, html_str(b, "detail"));
		fputs("</div>\n", f);
	}
}

/* ----------------------------------------------------------- timeline */

static const char *action_class(const char *action)
{
	if (!strcmp(action, "bind"))
		return "pass";
	if (!strcmp(action, "preempt"))
		return "unsched";
	return "uau";
}

static const char *action_fill(const char *action)
{
	if (!strcmp(action, "bind"))
		return "#16a34a";
	if (!strcmp(action, "preempt"))
		return "#d97706";
	return "#dc2626";
}

/* One mark per step, coloured by action, the step on hover. */
static void strip(FILE *f, const struct ynode *steps)
{
	int n = steps->n;
	double w = n ? (double)STRIP_WIDTH / n : 0;
	if (w > 24)
		w = 24;
	fprintf(f, "<svg id=\"strip\" width=\"%d\" height=\"30\" viewBox=\"0 0 "
		   "%d 30\" role=\"img\" aria-label=\"the run, a mark per "
		   "step\">", STRIP_WIDTH, STRIP_WIDTH);
	for (int i = 0; i < n; i++) {
		const struct ynode *s = steps->items[i];
		const char *action = html_str(s, "action");
		fprintf(f, "<rect x=\"%.2f\" y=\"4\" width=\"%.2f\" height=\"22\" "
			   "fill=\"%s\"><title>step %" PRId64 ": ", i * w,
			w > 2 ? w - 1 : w, action_fill(action),
			html_int(s, "step"));
		html_escape(f, html_str(s, "pod"));
		fputs(" ", f);
		html_escape(f, action);
		fputs(" ", f);
		html_escape(f, html_str(s, "node"));
		fputs("</title></rect>", f);
	}
	fputs("</svg>\n", f);
}

static void step_row(FILE *f, const struct ynode *s)
{
	const char *action = html_str(s, "action");
	fprintf(f, "<tr class=\"step %s\"><td class=\"n\">%" PRId64 "</td><td>",
		action, html_int(s, "step"));
	html_escape(f, html_str(s, "pod"));
	fprintf(f, "</td><td class=\"%s\">", action_class(action));
	html_escape(f, action);
	if (html_bool(s, "nominated_fast_path"))
		fputs(" <span class=\"muted\">(nominated node)</span>", f);
	fputs("</td><td>", f);
	html_escape(f, html_str(s, "node"));
	fputs("</td><td>", f);
	html_join(f, html_get(s, "victims"), ", ");
	fputs("</td><td class=\"mono\">", f);
	html_escape(f, html_str(s, "message"));
	const struct ynode *im = html_get(s, "impl");
	if (im) {
		fputs("<br><span class=\"badge grey\">impl</span> ", f);
		html_escape(f, html_str(im, "answer"));
		fputs(": ", f);
		html_escape(f, html_str(im, "verdict"));
		fputs(" ", f);
		html_escape(f, html_str(im, "detail"));
	}
	fputs("</td></tr>\n", f);
}

static void timeline(FILE *f, const struct ynode *steps)
{
	fputs("<h2>The run, step by step</h2>\n<p class=\"legend\"><span "
	      "class=\"pass\">bind</span><span class=\"unsched\">preempt "
	      "(victims evicted, the pod nominated)</span><span class=\"uau\">"
	      "unschedulable</span></p>\n", f);
	if (!steps || !steps->n) {
		fputs("<p>No step: no pending pod to schedule.</p>\n", f);
		return;
	}
	strip(f, steps);
	fputs("<input class=\"filter\" data-for=\"steps\" placeholder=\"filter "
	      "steps\" aria-label=\"filter steps\">\n<table id=\"steps\" "
	      "class=\"sortable\"><thead><tr><th>step</th><th>pod</th>"
	      "<th>action</th><th>node</th><th>victims</th><th>message</th>"
	      "</tr></thead><tbody>\n", f);
	for (int i = 0; i < steps->n; i++)
		step_row(f, steps->items[i]);
	fputs("</tbody></table>\n", f);
}

/* --------------------------------------------------------------- fill */

/* v of resource res as a person reads it: cores, binary bytes, a count. */
static void amount(FILE *f, const char *res, int64_t v)
{
	if (!strcmp(res, "cpu")) {
		if (v % 1000 == 0)
			fprintf(f, "%" PRId64, v / 1000);
		else
			fprintf(f, "%.3g", (double)v / 1000);
		return;
	}
	if (!strcmp(res, "memory") || !strcmp(res, "ephemeral-storage") ||
	    !strncmp(res, "hugepages-", 10)) {
		static const char *const units[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi"};
		double x = (double)v;
		int u = 0;
		while (x >= 1024 && u < 5) {
			x /= 1024;
			u++;
		}
		fprintf(f, x == (int64_t)x ? "%.0f%s" : "%.1f%s", x, units[u]);
		return;
	}
	fprintf(f, "%" PRId64, v);
}

static double fraction(int64_t v, int64_t of)
{
	if (of <= 0)
		return v > 0 ? 1 : 0;
	double x = (double)v / (double)of;
	return x > 1 ? 1 : x < 0 ? 0 : x;
}

/* Before (pale) over after (deep) as bars of allocatable, and the
 * numbers. */
static void fill_cell(FILE *f, const struct ynode *node, const char *res,
		      bool bars)
{
	const struct ynode *alloc = html_get(node, "allocatable");
	if (!html_get(alloc, res)) {
		fputs("<td></td>", f);
		return;
	}
	int64_t a = html_int(alloc, res);
	int64_t b = html_int(html_get(node, "requested_before"), res);
	int64_t z = html_int(html_get(node, "requested_after"), res);
	fprintf(f, "<td class=\"fill\" data-v=\"%.4f\">", fraction(z, a));
	if (bars)
		fprintf(f, "<svg width=\"150\" "
		   "height=\"20\" viewBox=\"0 0 150 20\" role=\"img\"><rect "
		   "width=\"150\" height=\"20\" fill=\"#eef1f5\"/><rect y=\"1\" "
		   "width=\"%.1f\" height=\"8\" fill=\"#93b4e8\"/><rect y=\"11\" "
		   "width=\"%.1f\" height=\"8\" fill=\"%s\"/></svg>",
		150 * fraction(b, a), 150 * fraction(z, a),
		z > a ? "#dc2626" : "#1d4ed8");
	fputs("<span class=\"mono\">", f);
	amount(f, res, b);
	fputs(" &#x2192; ", f);
	amount(f, res, z);
	fputs(" / ", f);
	amount(f, res, a);
	fputs("</span></td>", f);
}

static bool changed(const struct ynode *node)
{
	const struct ynode *b = html_get(node, "requested_before");
	const struct ynode *a = html_get(node, "requested_after");
	for (int i = 0; b && a && i < b->n && i < a->n; i++)
		if (strcmp(b->items[i]->str, a->items[i]->str))
			return true;
	return false;
}

/* The resources drawn: cpu, memory and pods first, then the others in
 * the order the nodes list them, at most HTML_FILL_RESOURCES. */
static int resources(const struct ynode *nodes, const char **out)
{
	static const char *const first[] = {"cpu", "memory", "pods"};
	int n = 0;
	for (int i = 0; i < 3; i++)
		out[n++] = first[i];
	for (int k = 0; k < nodes->n && n < HTML_FILL_RESOURCES; k++) {
		const struct ynode *a = html_get(nodes->items[k], "allocatable");
		for (int i = 0; a && i < a->n && n < HTML_FILL_RESOURCES; i++) {
			bool seen = false;
			for (int r = 0; r < n && !seen; r++)
				seen = !strcmp(out[r], a->keys[i]->str);
			if (!seen)
				out[n++] = a->keys[i]->str;
		}
	}
	return n;
}

/* A node's row: bars (folded rows: the numbers alone). */
static void fill_row(FILE *f, const struct ynode *node, const char **res,
		     int n_res, bool bars)
{
	fputs("<tr data-node=\"", f);
	html_escape(f, html_str(node, "name"));
	fputs("\"><td>", f);
	html_escape(f, html_str(node, "name"));
	fputs("</td>", f);
	for (int r = 0; r < n_res; r++)
		fill_cell(f, node, res[r], bars);
	fputs("</tr>\n", f);
}

static void fill_head(FILE *f, const char *id, const char **res, int n_res)
{
	fprintf(f, "<table id=\"%s\" class=\"sortable\"><thead><tr><th>node"
		   "</th>", id);
	for (int r = 0; r < n_res; r++)
		html_tag(f, "th", "", res[r]);
	fputs("</tr></thead><tbody>\n", f);
}

static void fill(FILE *f, const struct ynode *nodes)
{
	if (!nodes || !nodes->n)
		return;
	const char *res[HTML_FILL_RESOURCES];
	int n_res = resources(nodes, res);
	/* the nodes the run changed first, each group in cluster order */
	int *order = xcalloc((size_t)nodes->n, sizeof *order), n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int k = 0; k < nodes->n; k++)
			if (changed(nodes->items[k]) == (pass == 0))
				order[n++] = k;
	int shown = n < HTML_FILL_ROWS ? n : HTML_FILL_ROWS;
	fputs("<h2>Each node's fill, before and after</h2>\n<p class=\"legend\">"
	      "requested of allocatable, per resource: <span style=\""
	      "background:#93b4e8\">before</span><span style=\"background:"
	      "#1d4ed8;color:#fff\">after</span> (nodes the run changed "
	      "first)</p>\n", f);
	fill_head(f, "fill", res, n_res);
	for (int i = 0; i < shown; i++)
		fill_row(f, nodes->items[order[i]], res, n_res, true);
	fputs("</tbody></table>\n", f);
	if (shown < n) {
		fprintf(f, "<details id=\"folded\"><summary>%d more nodes "
			   "(folded)</summary>\n", n - shown);
		fill_head(f, "fill-folded", res, n_res);
		for (int i = shown; i < n; i++)
			fill_row(f, nodes->items[order[i]], res, n_res, false);
		fputs("</tbody></table></details>\n", f);
	}
	free(order);
}

/* ------------------------------------------------------------ pending */

static void pending(FILE *f, const struct ynode *sum)
{
	const struct ynode *p = html_get(sum, "pending_pods");
	fputs("<h2>Pods left pending</h2>\n", f);
	if (!p || !p->n) {
		fputs("<p>None: every pod the loop tried is bound.</p>\n", f);
		return;
	}
	fputs("<table id=\"pending\"><thead><tr><th>pod</th><th>reason</th>"
	      "</tr></thead><tbody>\n", f);
	for (int i = 0; i < p->n; i++) {
		fputs("<tr><td>", f);
		html_escape(f, html_str(p->items[i], "pod"));
		fputs("</td><td class=\"mono\">", f);
		html_escape(f, html_str(p->items[i], "reason"));
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_schedule(FILE *f, const struct ynode *root, void *ctx)
{
	(void)ctx;
	const struct ynode *sum = html_get(root, "summary");
	html_page_begin(f, "kso schedule");
	fputs("<h1>kso schedule: the scheduler loop, run to quiescence</h1>\n", f);
	facts(f, sum, root);
	timeline(f, html_get(root, "steps"));
	pending(f, sum);
	fill(f, html_get(root, "nodes"));
	html_page_end(f);
}
