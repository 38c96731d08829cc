/*
 * html_check.c - `kso check -o html`: the decisions a recorded cluster's
 * scheduler took, judged (README "Judging a recorded cluster"), drawn
 * from check's JSON values - its lines, one per decision, and the
 * summary - gathered as {"decisions": [...], "summary": {...}}
 * (cli/cmd_check.c):
 *   - the summary, with the findings by kind;
 *   - the decisions over time, a strip coloured by verdict (bucketed past
 *     STRIP_BUCKETS decisions);
 *   - the findings first (every decision not ok), each expandable to the
 *     observed decision next to kso's expected answer;
 *   - then every decision, the ok ones past HTML_OK_ROWS folded.
 */
#include "html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../yaml/tree.h"
#include "../core/xalloc.h"

#define STRIP_BUCKETS 600
#define STRIP_WIDTH 1200
#define HTML_OK_ROWS 500

enum shade { SHADE_OK, SHADE_LAG, SHADE_WRONG, SHADE_INCONCLUSIVE, N_SHADES };

static const char *const shade_fill[N_SHADES] = {
	"#16a34a", "#86efac", "#dc2626", "#9ca3af"};
static const char *const shade_name[N_SHADES] = {
	"ok", "ok with lag", "finding", "inconclusive"};

static enum shade shade_of(const struct ynode *d)
{
	const char *v = html_str(d, "verdict");
	if (!strcmp(v, "ok"))
		return *html_str(d, "lag") ? SHADE_LAG : SHADE_OK;
	if (!strcmp(v, "inconclusive"))
		return SHADE_INCONCLUSIVE;
	return SHADE_WRONG;
}

static void facts(FILE *f, const struct ynode *sum)
{
	fprintf(f, "<div class=\"facts\" id=\"summary\"><div><b>decisions</b> %"
		   PRId64 "</div><div><b>ok</b> %" PRId64 " (with lag %" PRId64
		   ")</div><div><b>findings</b> %" PRId64 "</div><div><b>"
		   "inconclusive</b> %" PRId64 "</div>",
		html_int(sum, "decisions"), html_int(sum, "ok"),
		html_int(sum, "ok_with_lag"), html_int(sum, "wrong"),
		html_int(sum, "inconclusive"));
	const struct ynode *by = html_get(sum, "findings");
	for (int i = 0; by && i < by->n; i++) {
		fputs("<div><span class=\"badge bad\">", f);
		html_escape(f, by->keys[i]->str);
		fprintf(f, "</span> %" PRId64 "</div>",
			html_scalar_int(by->items[i]));
	}
	fputs("</div>\n", f);
}

/* The decisions in order, bucketed: each bar stacks its bucket's
 * verdicts. */
static void strip(FILE *f, const struct ynode *ds)
{
	int n = ds->n, nb = n < STRIP_BUCKETS ? n : STRIP_BUCKETS;
	double w = (double)STRIP_WIDTH / nb;
	if (w > 24)
		w = 24;
	fprintf(f, "<svg id=\"strip\" width=\"%d\" height=\"40\" viewBox=\"0 0 "
		   "%d 40\" role=\"img\" aria-label=\"verdicts over time\">",
		STRIP_WIDTH, STRIP_WIDTH);
	for (int b = 0; b < nb; b++) {
		int from = (int)((int64_t)b * n / nb);
		int to = (int)((int64_t)(b + 1) * n / nb);
		int count[N_SHADES] = {0};
		for (int i = from; i < to; i++)
			count[shade_of(ds->items[i])]++;
		double y = 4;
		for (int s = N_SHADES - 1; s >= 0; s--) {
			if (!count[s])
				continue;
			double h = 32.0 * count[s] / (to - from);
			fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				   "height=\"%.2f\" fill=\"%s\"><title>decisions "
				   "%" PRId64 "-%" PRId64 ": %d %s</title></rect>",
				b * w, y, w > 2 ? w - 1 : w, h, shade_fill[s],
				html_int(ds->items[from], "seq"),
				html_int(ds->items[to - 1], "seq"), count[s],
				shade_name[s]);
			y += h;
		}
	}
	fputs("</svg>\n<p class=\"legend\">", f);
	for (int s = 0; s < N_SHADES; s++)
		fprintf(f, "<span style=\"background:%s;color:%s\">%s</span>",
			shade_fill[s], s == SHADE_LAG ? "#14532d" : "#fff",
			shade_name[s]);
	fputs("</p>\n", f);
}

/* The observed decision and kso's expected answer, side by side. */
static void compare(FILE *f, const struct ynode *d)
{
	const struct ynode *o = html_get(d, "observed");
	const struct ynode *e = html_get(d, "expected");
	fputs("<table class=\"compare\"><thead><tr><th>observed (the log)</th>"
	      "<th>expected (kube's answer in the state before)</th></tr>"
	      "</thead><tbody><tr><td>", f);
	html_escape(f, html_str(o, "action"));
	if (*html_str(o, "node")) {
		fputs(" on <b>", f);
		html_escape(f, html_str(o, "node"));
		fputs("</b>", f);
	}
	const struct ynode *victims = html_get(o, "victims");
	if (victims && victims->n) {
		fputs(", evicting ", f);
		html_join(f, victims, ", ");
	}
	if (*html_str(o, "message")) {
		fputs("<br><span class=\"mono\">", f);
		html_escape(f, html_str(o, "message"));
		fputs("</span>", f);
	}
	fputs("</td><td>", f);
	if (!e) {
		fputs("<span class=\"muted\">kso's cycle did not run</span>", f);
	} else {
		if (html_bool(e, "sampled"))
			fputs("<span class=\"muted\">kube samples nodes: the bind "
			      "is judged by its node alone</span><br>", f);
		fputs("viable: <b>", f);
		html_join(f, html_get(e, "viable"), ", ");
		if (html_int(e, "n_viable"))
			fprintf(f, " &#x2026; (%" PRId64 " in all)",
				html_int(e, "n_viable"));
		fputs("</b><br>feasible: ", f);
		html_join(f, html_get(e, "feasible"), ", ");
		if (html_int(e, "n_feasible"))
			fprintf(f, " &#x2026; (%" PRId64 " in all)",
				html_int(e, "n_feasible"));
	}
	fputs("</td></tr></tbody></table>\n<p class=\"mono\">", f);
	html_escape(f, html_str(d, "detail"));
	fputs("</p>", f);
	if (*html_str(d, "reproduce")) {
		fputs("<p>reproduce: <span class=\"mono\">", f);
		html_escape(f, html_str(d, "reproduce"));
		fputs("</span></p>", f);
	}
}

static void finding(FILE *f, const struct ynode *d, bool open)
{
	fprintf(f, "<details class=\"finding\" data-seq=\"%" PRId64 "\"%s>"
		   "<summary><span class=\"badge %s\">", html_int(d, "seq"),
		open ? " open" : "",
		shade_of(d) == SHADE_WRONG ? "bad" : "grey");
	html_escape(f, html_str(d, "verdict"));
	fprintf(f, "</span> #%" PRId64 " (resourceVersion %" PRId64 ") ",
		html_int(d, "seq"), html_int(d, "resourceVersion"));
	html_escape(f, html_str(d, "pod"));
	fputs(": ", f);
	html_escape(f, html_str(d, "decision"));
	fputs("</summary>\n", f);
	compare(f, d);
	fputs("</details>\n", f);
}

static void decision_row(FILE *f, const struct ynode *d)
{
	enum shade s = shade_of(d);
	fprintf(f, "<tr class=\"%s\"><td class=\"n\">%" PRId64 "</td><td "
		   "class=\"n\">%" PRId64 "</td><td>",
		s == SHADE_WRONG ? "finding" : "", html_int(d, "seq"),
		html_int(d, "resourceVersion"));
	html_escape(f, html_str(d, "pod"));
	fputs("</td><td>", f);
	html_escape(f, html_str(d, "decision"));
	fprintf(f, "</td><td class=\"%s\">", s == SHADE_WRONG ? "uau" :
		s == SHADE_INCONCLUSIVE ? "skip" : "pass");
	html_escape(f, html_str(d, "verdict"));
	if (*html_str(d, "lag")) {
		fputs(" (", f);
		html_escape(f, html_str(d, "lag"));
		fputs(")", f);
	}
	fputs("</td><td>", f);
	html_escape(f, html_str(d, "detail"));
	fputs("</td></tr>\n", f);
}

static void decisions(FILE *f, const struct ynode *ds)
{
	fputs("<h2>Every decision</h2>\n<input class=\"filter\" data-for=\""
	      "decisions\" placeholder=\"filter decisions\" aria-label=\"filter "
	      "decisions\">\n<table id=\"decisions\" class=\"sortable\"><thead>"
	      "<tr><th>#</th><th>resourceVersion</th><th>pod</th><th>decision"
	      "</th><th>verdict</th><th>detail</th></tr></thead><tbody>\n", f);
	int ok = 0, folded = 0;
	for (int i = 0; i < ds->n; i++) {
		bool plain = shade_of(ds->items[i]) <= SHADE_LAG;
		if (plain && ok++ >= HTML_OK_ROWS) {
			folded++;
			continue;
		}
		decision_row(f, ds->items[i]);
	}
	fputs("</tbody></table>\n", f);
	if (folded)
		fprintf(f, "<p class=\"muted\">and %d more ok decisions, not "
			   "listed (kso check -o json has each).</p>\n", folded);
}

void html_check(FILE *f, const struct ynode *root, void *ctx)
{
	(void)ctx;
	const struct ynode *ds = html_get(root, "decisions");
	const struct ynode *sum = html_get(root, "summary");
	html_page_begin(f, "kso check");
	fputs("<h1>kso check: a recorded cluster's scheduling decisions, "
	      "judged</h1>\n", f);
	facts(f, sum);
	if (!ds || !ds->n) {
		fputs("<p>No scheduling decision in the log.</p>\n", f);
		html_page_end(f);
		return;
	}
	fputs("<h2>Decisions over time</h2>\n", f);
	strip(f, ds);
	int n = 0;
	for (int i = 0; i < ds->n; i++)
		n += shade_of(ds->items[i]) >= SHADE_WRONG;
	fprintf(f, "<h2 id=\"findings\">Findings and inconclusive decisions "
		   "(%d)</h2>\n", n);
	if (!n)
		fputs("<p>None: every decision is what kube-scheduler may do "
		      "in the state before it.</p>\n", f);
	int shown = 0;
	for (int i = 0; i < ds->n; i++)
		if (shade_of(ds->items[i]) >= SHADE_WRONG)
			finding(f, ds->items[i], shown++ == 0);
	decisions(f, ds);
	html_page_end(f);
}
