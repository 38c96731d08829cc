/*
 * html.c - the frame of every -o html page and its one escaping function
 * (see html.h).  The style sheet keeps every cell's text inside its cell
 * at 1280 px (long names and reasons wrap anywhere, plugin names stand
 * vertical in the matrix headers); the script only sorts and filters
 * tables, so the page reads the same without it.
 */
#include "html.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "json.h"
#include "../yaml/tree.h"

/* ------------------------------------------------------------- escaping */

/* The length of the UTF-8 sequence at p that must be shown as "\uXXXX",
 * with its code point in *cp; 0 when it is an ordinary character.  C1
 * controls, the bidi marks (U+061C ALM, U+200E/F LRM/RLM, U+202A-202E
 * embeddings and overrides, U+2066-2069 isolates), zero-width characters
 * (U+200B-200D, U+2060-2064, U+FEFF) and U+2028/2029 (line breaks to
 * JavaScript). */
static int invisible(const unsigned char *p, unsigned *cp)
{
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
		*cp = p[1];
		return 2;
	}
	if (p[0] == 0xd8 && p[1] == 0x9c) {
		*cp = 0x061c;
		return 2;
	}
	if (p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
		*cp = 0xfeff;
		return 3;
	}
	if (p[0] != 0xe2 || (p[1] != 0x80 && p[1] != 0x81) || p[2] < 0x80 ||
	    p[2] > 0xbf)
		return 0;
	*cp = 0x2000u | ((unsigned)(p[1] & 0x3f) << 6) | (p[2] & 0x3fu);
	bool hide = (*cp >= 0x200b && *cp <= 0x200f) ||
		    (*cp >= 0x2028 && *cp <= 0x202e) ||
		    (*cp >= 0x2060 && *cp <= 0x2069);
	return hide ? 3 : 0;
}

void html_escape(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : ""), *run = p;
	for (;;) {
		unsigned char ch = *p;
		unsigned cp = ch;
		int n = ch >= 0x80 ? invisible(p, &cp) : 0;
		bool plain = ch >= 0x20 && ch != 0x7f && !strchr("&<>\"'", ch);
		if (ch && (ch < 0x80 ? plain : n == 0)) {
			p++;
			continue;
		}
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		if (!ch)
			return;
		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fprintf(f, "\\u%04X", cp);
		}
		p += n ? n : 1;
		run = p;
	}
}

/* ---------------------------------------------------------------- frame */

static const char style[] =
	"*{box-sizing:border-box}"
	"body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;"
	"margin:16px;color:#1d2330;background:#fff}"
	"h1{font-size:20px;margin:0 0 8px}"
	"h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #d0d5dd;"
	"padding-bottom:3px}"
	"h3{font-size:14px;margin:14px 0 6px}"
	"table{border-collapse:collapse;margin:4px 0 10px;max-width:100%}"
	"td,th{border:1px solid #d0d5dd;padding:3px 6px;vertical-align:top;"
	"text-align:left;overflow-wrap:break-word;unicode-bidi:isolate}"
	/* free text may break anywhere (a cell's narrowest is then one
	 * letter, so the table gives the room to the names) */
	"td.mono,td.result,td.wrap,.why,.reason{overflow-wrap:anywhere}"
	"th{background:#f2f4f7;font-weight:600}"
	"th.v{writing-mode:vertical-rl;transform:rotate(180deg);"
	"white-space:nowrap;vertical-align:bottom;padding:6px 3px;"
	"font-weight:500}"
	"td.n{text-align:right;font-variant-numeric:tabular-nums}"
	"td.c{text-align:center;min-width:26px}"
	".pass{background:#dcf2dc;color:#1b6b1b}"
	".unsched{background:#ffdf9e;color:#6b4400}"
	".uau{background:#f7b4b4;color:#7a0d0d}"
	".skip,.ne{background:#eceef1;color:#6b7280}"
	".err{background:#e0b4f7}"
	"tr.viable>td{font-weight:700}"
	"tr.viable>td:first-child{box-shadow:inset 4px 0 #16a34a}"
	".badge{display:inline-block;padding:0 5px;margin:0 2px;"
	"border-radius:3px;font-size:11px;font-weight:700;color:#fff;"
	"background:#16a34a;white-space:nowrap}"
	".badge.bad{background:#dc2626}.badge.warn{background:#d97706}"
	".badge.grey{background:#6b7280}"
	".box{border-left:4px solid #d97706;background:#fff7e6;padding:6px 10px;"
	"margin:8px 0;overflow-wrap:anywhere}"
	".box.ok{border-color:#16a34a;background:#ecfdf3}"
	".box.bad{border-color:#dc2626;background:#fef2f2}"
	".facts{display:flex;flex-wrap:wrap;gap:6px 18px;margin:6px 0}"
	".facts div{overflow-wrap:anywhere;max-width:100%}"
	".facts b{color:#475467;font-weight:600}"
	".legend span{display:inline-block;padding:0 6px;margin-right:6px;"
	"border:1px solid #d0d5dd}"
	".muted{color:#6b7280}"
	".mono{font-family:ui-monospace,'DejaVu Sans Mono',monospace;"
	"font-size:12px}"
	"details>summary{cursor:pointer}"
	"td details>summary{list-style:none}"
	".why{display:block;font-size:12px;font-weight:400;min-width:12em}"
	".mono{overflow-wrap:anywhere}"
	"svg{display:block;max-width:100%}"
	".cards{display:flex;flex-wrap:wrap;gap:8px;margin:6px 0}"
	".card{border:1px solid #d0d5dd;border-radius:4px;padding:4px 6px;"
	"max-width:100%;overflow-wrap:anywhere}"
	".cardhead{font-size:12px;margin-bottom:3px}"
	".nodebox{display:inline-block;vertical-align:top;border:1px solid "
	"#c4cad4;border-radius:3px;margin:2px;padding:2px 5px;min-width:5em;"
	"max-width:100%;font-size:12px}"
	".nodebox.hl{border:2px solid #d97706;background:#fff7e6}"
	".nodebox.pend{border-style:dashed}.nodebox.gone{color:#6b7280;"
	"border-style:dotted}"
	".nodename{display:block;font-weight:700;color:#475467}"
	".chip{display:block}.chip.hl{background:#fde68a;font-weight:700}"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f7f8fa;"
	"padding:6px;max-height:30em;overflow:auto}"
	"input.filter{margin:4px 0;padding:3px 6px;width:260px}"
	"@media print{input.filter{display:none}}";

/* Click a header of a "sortable" table to sort its rows by that column
 * (numbers as numbers; again to reverse); type in an input of class
 * "filter" to keep the rows of table data-for that contain the text. */
static const char script[] =
	"document.querySelectorAll('table.sortable').forEach(function(t){"
	"t.querySelectorAll('thead th').forEach(function(h,i){"
	"h.style.cursor='pointer';h.addEventListener('click',function(){"
	"var b=t.tBodies[0],r=Array.prototype.slice.call(b.rows),"
	"d=h.dataset.dir==='a'?-1:1;h.dataset.dir=d>0?'a':'d';"
	"function k(x){var c=x.cells[i];if(!c)return'';"
	"var v=c.dataset.v!==undefined?c.dataset.v:c.textContent;"
	"return isNaN(parseFloat(v))?v:parseFloat(v)}"
	"r.sort(function(x,y){var a=k(x),c=k(y);"
	"return (a<c?-1:a>c?1:0)*d});r.forEach(function(x){b.appendChild(x)})"
	"})})});"
	"document.querySelectorAll('input.filter').forEach(function(f){"
	"f.addEventListener('input',function(){"
	"var t=document.getElementById(f.dataset.for),q=f.value.toLowerCase();"
	"Array.prototype.forEach.call(t.tBodies[0].rows,function(r){"
	"r.style.display=r.textContent.toLowerCase().indexOf(q)<0?'none':''"
	"})})});";

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"viewport\" content=\"width=device-width\">"
	      "<meta name=\"generator\" content=\"kso\">"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\""
	      "default-src 'none'; style-src 'unsafe-inline'; "
	      "script-src 'unsafe-inline'; img-src data:\"><title>", f);
	html_escape(f, title);
	fprintf(f, "</title><style>%s</style></head>\n<body>\n", style);
}

void html_page_end(FILE *f)
{
	fprintf(f, "<script>%s</script>\n</body></html>\n", script);
}

void html_tag(FILE *f, const char *tag, const char *attrs, const char *text)
{
	fprintf(f, "<%s%s%s>", tag, attrs && *attrs ? " " : "", attrs ? attrs : "");
	html_escape(f, text);
	fprintf(f, "</%s>", tag);
}

void html_heat_style(FILE *f, int64_t v, int64_t max)
{
	int pct = max > 0 && v > 0 ? (int)(v * 100 / max) : 0;
	if (pct > 100)
		pct = 100;
	/* lightness 97% (0) to 62% (max): dark text stays readable */
	fprintf(f, " style=\"background:hsl(212,80%%,%d%%)\"", 97 - pct * 35 / 100);
}

/* ------------------------------------------------------------ the tree */

const struct ynode *html_get(const struct ynode *m, const char *key)
{
	const struct ynode *v = ynode_get(m, key);
	return ynode_is_null(v) ? NULL : v;
}

const char *html_str(const struct ynode *m, const char *key)
{
	const struct ynode *v = html_get(m, key);
	return v && v->kind == YNODE_SCALAR ? v->str : "";
}

int64_t html_scalar_int(const struct ynode *n)
{
	if (!n || n->kind != YNODE_SCALAR || n->quoted)
		return 0;
	return strtoll(n->str, NULL, 10);
}

int64_t html_int(const struct ynode *m, const char *key)
{
	return html_scalar_int(html_get(m, key));
}

bool html_bool(const struct ynode *m, const char *key)
{
	const struct ynode *v = html_get(m, key);
	return v && v->kind == YNODE_SCALAR && !v->quoted &&
	       !strcmp(v->str, "true");
}

void html_join(FILE *f, const struct ynode *seq, const char *sep)
{
	if (!seq || seq->kind != YNODE_SEQ)
		return;
	for (int i = 0; i < seq->n; i++) {
		if (i)
			fputs(sep, f);
		if (seq->items[i]->kind == YNODE_SCALAR)
			html_escape(f, seq->items[i]->str);
	}
}

void html_out_init(struct json_out *j, FILE *f, unsigned format,
		   void (*render)(FILE *f, const struct ynode *root, void *ctx))
{
	if (format == CLI_HTML)
		json_init_tree(j, f, render, NULL);
	else if (format == CLI_YAML)
		json_init_yaml(j, f);
	else
		json_init(j, f, false);
}
