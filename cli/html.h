/*
 * html.h - `-o html`: one self-contained HTML page (inline CSS and SVG,
 * nothing from the network, readable without JavaScript) drawn from the
 * value tree a command builds for -o json (cli/json.h json_init_tree), so
 * the page shows exactly the values the JSON holds.
 *
 * This file is the page's frame and its one escaping function; each kind
 * of report has its renderer (cli/html_explain.c, html_schedule.c,
 * html_check.c, html_report.c) reading the tree with the accessors below.
 */
#ifndef KSO_CLI_HTML_H
#define KSO_CLI_HTML_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct ynode;

/* html_escape: s as HTML text or attribute value: & < > " ' as entities;
 * control characters (C0, DEL, C1) and the invisible marks that reorder
 * or hide text (bidi embeddings, overrides, isolates and marks,
 * zero-width characters, line/paragraph separators, BOM) as visible
 * "\uXXXX", so a name can neither become markup nor reorder what is
 * around it.  The only way any renderer writes input text. */
void html_escape(FILE *f, const char *s);

/* html_page_begin / html_page_end: the document around a report: title
 * (escaped) and the shared style sheet and the small sort/filter script
 * (tables of class "sortable", inputs of class "filter"). */
void html_page_begin(FILE *f, const char *title);
void html_page_end(FILE *f);

/* html_tag: <TAG ATTRS>text</TAG> with text escaped; attrs is literal
 * markup written by kso (may be ""), never input text. */
void html_tag(FILE *f, const char *tag, const char *attrs, const char *text);

/* html_heat_style: an inline background style for v on a scale of 0..max
 * (pale to deep blue), written as ` style="..."`. */
void html_heat_style(FILE *f, int64_t v, int64_t max);

/* Tree accessors: the value under key of map m as text ("" when absent
 * or not a scalar), as an integer (0 when absent or not a number), as a
 * boolean (the plain scalar "true"), or the node (NULL when absent; also
 * for a null value). */
const char *html_str(const struct ynode *m, const char *key);
int64_t html_int(const struct ynode *m, const char *key);
bool html_bool(const struct ynode *m, const char *key);
const struct ynode *html_get(const struct ynode *m, const char *key);
/* html_scalar_int: a scalar's text as an integer (0 when not one). */
int64_t html_scalar_int(const struct ynode *n);

/* html_join: the scalars of sequence seq, escaped, separated by sep
 * (literal markup); empty when seq is NULL or empty. */
void html_join(FILE *f, const struct ynode *seq, const char *sep);

/* html_out_init: j for -o format on f: JSON, YAML, or (CLI_HTML) the
 * value tree handed to render at json_end. */
struct json_out;
void html_out_init(struct json_out *j, FILE *f, unsigned format,
		   void (*render)(FILE *f, const struct ynode *root, void *ctx));

/* The renderers (print functions for json_init_tree; ctx unused). */
void html_explain(FILE *f, const struct ynode *root, void *ctx);
void html_schedule(FILE *f, const struct ynode *root, void *ctx);
void html_check(FILE *f, const struct ynode *root, void *ctx);
void html_report(FILE *f, const struct ynode *root, void *ctx);

#endif
