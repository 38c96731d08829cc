/*
 * html_report.c - `kso report DB`: an enumerator database drawn from the
 * report's value tree (cli/cmd_report.c):
 *   - each run's plan (universe, mode, options, shard) and totals;
 *   - the issues by kind, counts first, then each issue with its detail,
 *     its minimized scenario and, from a reachable run, its trace drawn
 *     as the cluster after each step with the step's pod and node
 *     highlighted;
 *   - the state space of each scenario (states and symmetry classes);
 *   - the quirk-visible findings with v1.30's answer and each quirk's
 *     side by side.
 */
#include "html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/tree.h"

#define CHART_WIDTH 1200
#define CHART_HEIGHT 140

/* --------------------------------------------------------------- runs */

static void run_row(FILE *f, const struct ynode *r)
{
	fprintf(f, "<tr><td class=\"n\">%" PRId64 "</td><td>", html_int(r, "id"));
	html_escape(f, html_str(r, "universe_name"));
	fputs("</td><td>", f);
	html_escape(f, html_str(r, "mode"));
	fputs("</td><td class=\"mono\">", f);
	html_escape(f, html_str(r, "options"));
	fputs(" ", f);
	html_escape(f, html_str(r, "shard"));
	fprintf(f, "</td><td>%s</td><td class=\"n\">%" PRId64 " / %" PRId64
		   "</td><td class=\"n\">%" PRId64 " (%" PRId64 ")</td><td "
		   "class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64 "</td>"
		   "<td class=\"n\">%" PRId64 "</td><td class=\"n\">%" PRId64
		   "</td><td class=\"n\">%" PRId64 "</td><td class=\"n\">%"
		   PRId64 "</td><td class=\"mono\">",
		html_int(r, "complete") ? "<span class=\"badge\">complete"
		"</span>" : "<span class=\"badge warn\">partial</span>",
		html_int(r, "items"), html_int(r, "items_total"),
		html_int(r, "states"), html_int(r, "classes"),
		html_int(r, "decisions"), html_int(r, "disagreements"),
		html_int(r, "violations"), html_int(r, "findings"),
		html_int(r, "preemptions"), html_int(r, "preemptions_unchecked"));
	html_escape(f, html_str(r, "started"));
	fputs(" &#x2013; ", f);
	html_escape(f, html_str(r, "ended"));
	fputs("</td></tr>\n", f);
}

static void runs(FILE *f, const struct ynode *rs)
{
	fputs("<h2>Runs: the plan and the totals</h2>\n", f);
	if (!rs || !rs->n) {
		fputs("<p>No run in the database.</p>\n", f);
		return;
	}
	fputs("<table id=\"runs\"><thead><tr><th>run</th><th>universe</th>"
	      "<th>mode</th><th>options</th><th>status</th><th>work items</th>"
	      "<th>states (classes)</th><th>decisions</th><th>disagree&#xAD;"
	      "ments</th><th>violations</th><th>findings</th><th>preemp&#xAD;"
	      "tions</th><th>unchecked</th><th>when</th></tr></thead><tbody>\n",
	      f);
	for (int i = 0; i < rs->n; i++)
		run_row(f, rs->items[i]);
	fputs("</tbody></table>\n", f);
}

/* ------------------------------------------------------------- kinds */

static void kinds(FILE *f, const struct ynode *k)
{
	fputs("<h2>Issues by kind</h2>\n", f);
	if (!k || !k->n) {
		fputs("<div class=\"box ok\" id=\"no-issues\">No disagreement, "
		      "violation or finding: model, oracle and the checks agree "
		      "on every state.</div>\n", f);
		return;
	}
	int64_t max = 1;
	for (int i = 0; i < k->n; i++)
		if (html_scalar_int(k->items[i]) > max)
			max = html_scalar_int(k->items[i]);
	fputs("<table id=\"kinds\"><thead><tr><th>kind</th><th>states</th><th>"
	      "</th></tr></thead><tbody>\n", f);
	for (int i = 0; i < k->n; i++) {
		int64_t n = html_scalar_int(k->items[i]);
		fputs("<tr><td><a href=\"#kind-", f);
		html_escape(f, k->keys[i]->str);
		fputs("\">", f);
		html_escape(f, k->keys[i]->str);
		fprintf(f, "</a></td><td class=\"n\">%" PRId64 "</td><td><svg "
			   "width=\"300\" height=\"14\" viewBox=\"0 0 300 14\" "
			   "role=\"img\"><rect width=\"%.1f\" height=\"14\" fill="
			   "\"#dc2626\"/></svg></td></tr>\n", n, 300.0 * n / max);
	}
	fputs("</tbody></table>\n", f);
}

/* ------------------------------------------------------------ a trace */

/* A pod's chip; the step's pod (or a victim) highlighted. */
static void chip(FILE *f, const char *pod, const struct ynode *step)
{
	const char *sp = html_str(step, "pod");
	size_t n = strlen(sp);
	/* "ns/name", or "ns/name>node" when pending nominated */
	bool mine = n && !strncmp(pod, sp, n) && (!pod[n] || pod[n] == '>');
	fprintf(f, "<span class=\"chip%s\">", mine ? " hl" : "");
	html_escape(f, pod);
	fputs("</span>", f);
}

static void state_card(FILE *f, const struct ynode *s)
{
	const char *node = html_str(s, "node");
	const char *action = html_str(s, "action");
	fprintf(f, "<div class=\"card\" data-step=\"%" PRId64 "\"><div "
		   "class=\"cardhead\"><b>", html_int(s, "step"));
	if (!strcmp(action, "start")) {
		fputs("start</b>: every pod pending", f);
	} else if (!strcmp(action, "decide")) {
		fputs("the state</b>: ", f);
		html_escape(f, html_str(s, "pod"));
		fputs(" to schedule", f);
	} else {
		fprintf(f, "step %" PRId64 "</b>: ", html_int(s, "step"));
		html_escape(f, html_str(s, "pod"));
		fputs(" <i>", f);
		html_escape(f, action);
		fputs("</i>", f);
		if (*node) {
			fputs(" ", f);
			html_escape(f, node);
		}
		const struct ynode *v = html_get(s, "victims");
		if (v && v->n) {
			fputs(", evicting ", f);
			html_join(f, v, ", ");
		}
	}
	fputs("</div>", f);
	const struct ynode *nodes = html_get(s, "nodes");
	for (int i = 0; nodes && i < nodes->n; i++) {
		const struct ynode *n = nodes->items[i];
		bool hl = *node && !strcmp(html_str(n, "name"), node);
		fprintf(f, "<div class=\"nodebox%s\"><span class=\"nodename\">",
			hl ? " hl" : "");
		html_escape(f, html_str(n, "name"));
		fputs("</span>", f);
		const struct ynode *pods = html_get(n, "pods");
		for (int k = 0; pods && k < pods->n; k++)
			chip(f, pods->items[k]->str, s);
		fputs("</div>", f);
	}
	const struct ynode *pending = html_get(s, "pending");
	if (pending && pending->n) {
		fputs("<div class=\"nodebox pend\"><span class=\"nodename\">"
		      "pending</span>", f);
		for (int k = 0; k < pending->n; k++)
			chip(f, pending->items[k]->str, s);
		fputs("</div>", f);
	}
	const struct ynode *evicted = html_get(s, "evicted");
	if (evicted && evicted->n) {
		fputs("<div class=\"nodebox gone\"><span class=\"nodename\">"
		      "evicted</span>", f);
		html_join(f, evicted, "<br>");
		fputs("</div>", f);
	}
	fputs("</div>\n", f);
}

static void trace(FILE *f, const struct ynode *t)
{
	if (t->n == 1 && !strcmp(html_str(t->items[0], "action"), "decide"))
		fputs("<p>The state (a placement the enumerator made), the pod "
		      "whose scheduling decision was checked highlighted.</p>\n"
		      "<div class=\"cards trace\">", f);
	else
		fprintf(f, "<p>The shortest way to this state from every pod "
			   "pending, %d step(s): the cluster after each, the "
			   "step's pod and node highlighted.</p>\n<div class=\""
			   "cards trace\">", t->n - 1);
	for (int i = 0; i < t->n; i++)
		state_card(f, t->items[i]);
	fputs("</div>\n", f);
}

/* ------------------------------------------------------------- issues */

static void issue(FILE *f, const struct ynode *is, bool open)
{
	fprintf(f, "<details class=\"issue\" data-state=\"%" PRId64 "\"%s>"
		   "<summary><b>state %" PRId64 "</b> (run %" PRId64 "): ",
		html_int(is, "state"), open ? " open" : "",
		html_int(is, "state"), html_int(is, "run"));
	const char *d = html_str(is, "detail");
	html_escape(f, d);
	fputs("</summary>\n<p>reproduce: <span class=\"mono\">", f);
	html_escape(f, html_str(is, "reproduce"));
	fputs("</span></p>\n", f);
	if (*html_str(is, "error")) {
		fputs("<p class=\"muted\">", f);
		html_escape(f, html_str(is, "error"));
		fputs("</p>\n", f);
	}
	const struct ynode *t = html_get(is, "trace");
	if (t && t->kind == YNODE_SEQ && t->n)
		trace(f, t);
	if (*html_str(is, "scenario")) {
		fputs("<details class=\"scenario\"><summary>the minimized scenario "
		      "(kso explain reads it)</summary><pre class=\"mono\">", f);
		html_escape(f, html_str(is, "scenario"));
		fputs("</pre></details>\n", f);
	}
	fputs("</details>\n", f);
}

static void issues(FILE *f, const struct ynode *k, const struct ynode *list)
{
	for (int i = 0; k && i < k->n; i++) {
		const char *kind = k->keys[i]->str;
		fputs("<h3 id=\"kind-", f);
		html_escape(f, kind);
		fputs("\">", f);
		html_escape(f, kind);
		fprintf(f, " (%" PRId64 ")</h3>\n", html_scalar_int(k->items[i]));
		int shown = 0;
		for (int n = 0; list && n < list->n; n++) {
			const struct ynode *is = list->items[n];
			if (strcmp(html_str(is, "kind"), kind))
				continue;
			issue(f, is, shown++ == 0);
		}
	}
}

/* -------------------------------------------------------- state space */

static void growth(FILE *f, const struct ynode *sc)
{
	if (!sc || !sc->n)
		return;
	int64_t max = 1;
	for (int i = 0; i < sc->n; i++)
		if (html_int(sc->items[i], "states") > max)
			max = html_int(sc->items[i], "states");
	double w = (double)CHART_WIDTH / sc->n;
	if (w > 40)
		w = 40;
	fprintf(f, "<h2>State space per scenario</h2>\n<p>States each scenario "
		   "of the run holds (the bar; symmetry classes evaluated, the "
		   "dark part), scenario by scenario; largest %" PRId64 ".</p>\n"
		   "<svg id=\"growth\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d "
		   "%d\" role=\"img\" aria-label=\"states per scenario\">",
		max, CHART_WIDTH, CHART_HEIGHT, CHART_WIDTH, CHART_HEIGHT);
	for (int i = 0; i < sc->n; i++) {
		const struct ynode *s = sc->items[i];
		int64_t st = html_int(s, "states"), cl = html_int(s, "classes");
		double h = (CHART_HEIGHT - 4) * (double)st / max;
		double hc = (CHART_HEIGHT - 4) * (double)cl / max;
		fprintf(f, "<g><title>scenario %" PRId64 " (run %" PRId64 ") ",
			html_int(s, "scenario"), html_int(s, "run"));
		html_escape(f, html_str(s, "label"));
		fprintf(f, ": %" PRId64 " states, %" PRId64 " classes</title>"
			   "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\""
			   " fill=\"#93b4e8\"/><rect x=\"%.2f\" y=\"%.2f\" width="
			   "\"%.2f\" height=\"%.2f\" fill=\"#1d4ed8\"/></g>",
			st, cl, i * w, CHART_HEIGHT - h, w > 2 ? w - 1 : w, h,
			i * w, CHART_HEIGHT - hc, w > 2 ? w - 1 : w, hc);
	}
	fputs("</svg>\n<details><summary>each scenario</summary><table id=\""
	      "scenarios\" class=\"sortable\"><thead><tr><th>run</th><th>"
	      "scenario</th><th>label</th><th>nodes</th><th>pods</th><th>states"
	      "</th><th>classes</th><th>disagreements</th><th>violations</th>"
	      "</tr></thead><tbody>\n", f);
	for (int i = 0; i < sc->n; i++) {
		const struct ynode *s = sc->items[i];
		fprintf(f, "<tr><td class=\"n\">%" PRId64 "</td><td class=\"n\">%"
			   PRId64 "</td><td>", html_int(s, "run"),
			html_int(s, "scenario"));
		html_escape(f, html_str(s, "label"));
		fputs("</td>", f);
		static const char *const cols[] = {"nodes", "pods", "states",
						   "classes", "disagreements",
						   "violations"};
		for (int c = 0; c < 6; c++)
			if (html_get(s, cols[c]))
				fprintf(f, "<td class=\"n\">%" PRId64 "</td>",
					html_int(s, cols[c]));
			else
				fputs("<td class=\"muted\">not stored</td>", f);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></details>\n", f);
}

/* --------------------------------------------------------- rejections */

static void rejections(FILE *f, const struct ynode *r)
{
	if (!r)
		return;
	const struct ynode *p = html_get(r, "plugins");
	fprintf(f, "<h2>Which filters rejected how often</h2>\n<p>Nodes each "
		   "filter plugin rejected (the plugin kube reports for the "
		   "node: its first failure), in the model's cycle for the "
		   "decision of %" PRId64 " of the %" PRId64 " stored states with "
		   "one.</p>\n", html_int(r, "states"), html_int(r, "of"));
	if (!p || !p->n) {
		fputs("<p>No node rejected.</p>\n", f);
		return;
	}
	int64_t max = 1;
	for (int i = 0; i < p->n; i++)
		if (html_scalar_int(p->items[i]) > max)
			max = html_scalar_int(p->items[i]);
	fputs("<table id=\"rejections\" class=\"sortable\"><thead><tr><th>"
	      "plugin</th><th>nodes rejected</th><th></th></tr></thead><tbody>\n",
	      f);
	for (int i = 0; i < p->n; i++) {
		int64_t n = html_scalar_int(p->items[i]);
		fputs("<tr><td>", f);
		html_escape(f, p->keys[i]->str);
		fprintf(f, "</td><td class=\"n\">%" PRId64 "</td><td><svg width=\""
			   "300\" height=\"14\" viewBox=\"0 0 300 14\" role=\"img\">"
			   "<rect width=\"%.1f\" height=\"14\" fill=\"#d97706\"/>"
			   "</svg></td></tr>\n", n, 300.0 * n / max);
	}
	fputs("</tbody></table>\n", f);
}

/* ------------------------------------------------------------- quirks */

/* Findings whose answers stand side by side: id names the table, head
 * the section's title and what it compares (static HTML). */
static void side_by_side(FILE *f, const struct ynode *q, const char *id,
			 const char *head)
{
	if (!q || !q->n)
		return;
	fprintf(f, "%s\n<table id=\"%s\"><thead><tr><th>state</th><th>answers"
		"</th></tr></thead><tbody>\n", head, id);
	for (int i = 0; i < q->n; i++) {
		const struct ynode *e = q->items[i];
		fprintf(f, "<tr><td class=\"n\">%" PRId64 "</td><td><table class=\""
			   "side\"><tr>", html_int(e, "state"));
		const struct ynode *a = html_get(e, "answers");
		for (int k = 0; a && k < a->n; k++)
			html_tag(f, "th", "", html_str(a->items[k], "label"));
		fputs("</tr><tr>", f);
		for (int k = 0; a && k < a->n; k++)
			html_tag(f, "td", "class=\"mono\"",
				 html_str(a->items[k], "decision"));
		fputs("</tr></table></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void html_report(FILE *f, const struct ynode *root, void *ctx)
{
	(void)ctx;
	char title[600];
	snprintf(title, sizeof title, "kso report %s", html_str(root, "database"));
	html_page_begin(f, title);
	fputs("<h1>kso report: ", f);
	html_escape(f, html_str(root, "database"));
	fputs("</h1>\n", f);
	runs(f, html_get(root, "runs"));
	kinds(f, html_get(root, "kinds"));
	issues(f, html_get(root, "kinds"), html_get(root, "findings"));
	side_by_side(f, html_get(root, "quirk_visible"), "quirks",
		     "<h2>Quirk-visible findings, side by side</h2>\n<p>v1.30's "
		     "decision next to the decision with each quirk switched off "
		     "(kso enum --compare-quirks).</p>");
	side_by_side(f, html_get(root, "version_visible"), "versions",
		     "<h2>Version-visible findings, side by side</h2>\n<p>The "
		     "delta items a difference comes from, each release's decision "
		     "and the first field that differs (kso enum "
		     "--compare-versions).</p>");
	rejections(f, html_get(root, "rejections"));
	growth(f, html_get(root, "scenarios"));
	html_page_end(f);
}
