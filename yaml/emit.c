/*
 * emit.c - the one YAML writer (emit.h): block YAML in kubectl's style,
 * and whether the text reads back as the tree it was printed from.
 */
#include "emit.h"
#include "utf8.h"

#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ comments */

void yaml_emit_comment(struct strbuf *b, const char *fmt, ...)
{
	va_list ap, again;
	va_start(ap, fmt);
	va_copy(again, ap);
	int k = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (k < 0)
		abort();
	char *text = malloc((size_t)k + 1);
	if (!text)
		abort();
	vsnprintf(text, (size_t)k + 1, fmt, again);
	va_end(again);
	/* what libyaml would not read as printable text becomes spaces,
	 * byte for byte */
	unsigned char *t = (unsigned char *)text;
	for (size_t i = 0, n = (size_t)k; i < n;) {
		size_t len = 1;
		if (t[i] >= 0x80) {
			size_t p = yaml_printable_utf8(t + i, n - i);
			if (p) {
				i += p;
				continue;
			}
			unsigned cp;
			len = yaml_utf8_decode(t + i, n - i, &cp);
			len = len ? len : 1;
		} else if (t[i] >= 0x20 && t[i] != 0x7f) {
			i++;
			continue;
		}
		memset(t + i, ' ', len);
		i += len;
	}
	strbuf_puts(b, "# ");
	strbuf_add(b, text, (size_t)k);
	strbuf_puts(b, "\n");
	free(text);
}

/* ------------------------------------------------------------ printing */

/* The printer: the text, and (when check) whether the parser (tree.h)
 * would read the text back as the tree printed.  It would not when the
 * printer changes a scalar: quotes a plain one that needs_quotes (or, as
 * a value, holds ",[]{}"), prints an empty plain one as null.  Beyond
 * those, only the plainly safe is counted as reading back: ASCII text
 * (no UTF-8 line breaks to fold), keys well under the parser's
 * 1024-character implicit keys, no plain "<<" key (a merge key when
 * read), depth and node count far from the parser's limits. */
struct emitter {
	struct strbuf *b;      /* the text goes here, or to f */
	FILE *f;               /* both NULL: only the check, no text */
	bool check;
	bool exact;              /* with check: the text reads back so far */
	uint64_t nodes;          /* with check: nodes printed */
};

#define READ_BACK_MAX_KEY 1000
#define READ_BACK_MAX_DEPTH (YAML_MAX_DEPTH / 2)

static void put(struct emitter *e, const char *s, size_t n)
{
	if (e->b)
		strbuf_add(e->b, s, n);
	else if (e->f)
		fwrite_unlocked(s, 1, n, e->f);   /* the caller owns f */
}

/* "\uXXXX" for code point u (at most 0xFFFF). */
static void put_u(struct emitter *e, unsigned u)
{
	char esc[7];
	snprintf(esc, sizeof esc, "\\u%04X", u & 0xffffu);
	put(e, esc, 6);
}

/* How many bytes at s[0..left) the quoted form escapes as one \uXXXX,
 * the code point in *u: a character libyaml would not read as printable
 * text (utf8.h: NEL and the C1 controls, LS, PS, the BOM); 0 for a
 * printable one or bytes that are no character, copied as they are. */
static size_t unicode_escape(const unsigned char *s, size_t left, unsigned *u)
{
	if (yaml_printable_utf8(s, left))
		return 0;
	size_t k = yaml_utf8_decode(s, left, u);
	return *u <= 0xffff ? k : 0;
}

/* n in double quotes, escaped as emit.h says: runs of characters that
 * need nothing are copied whole. */
static void emit_quoted(struct emitter *e, const struct ynode *n)
{
	if (!e->b && !e->f)
		return;
	const unsigned char *s = (const unsigned char *)n->str;
	put(e, "\"", 1);
	size_t run = 0;
	for (size_t i = 0; i < n->len;) {
		unsigned char c = s[i];
		unsigned u = 0;
		size_t k = 0;
		if (c >= 0x20 && c != '"' && c != '\\' && c != 0x7f &&
		    (c < 0x80 || !(k = unicode_escape(s + i, n->len - i, &u)))) {
			i++;
			continue;
		}
		put(e, n->str + run, i - run);
		if (k) {
			put_u(e, u);
		} else if (c == '"' || c == '\\') {
			char esc[2] = {'\\', (char)c};
			put(e, esc, 2);
		} else if (c == '\n') {
			put(e, "\\n", 2);
		} else if (c == '\t') {
			put(e, "\\t", 2);
		} else {
			put_u(e, c);
		}
		i += k ? k : 1;
		run = i;
	}
	put(e, n->str + run, n->len - run);
	put(e, "\"", 1);
}

void yaml_emit_controls_escaped(struct strbuf *b, const char *s)
{
	struct emitter e = {.b = b};
	const unsigned char *u8 = (const unsigned char *)s;
	size_t len = strlen(s), run = 0;
	for (size_t i = 0; i < len;) {
		unsigned char c = u8[i];
		unsigned u = 0;
		size_t k = 0;
		if (c >= 0x20 && c != 0x7f &&
		    (c < 0x80 || !(k = unicode_escape(u8 + i, len - i, &u)))) {
			i++;
			continue;
		}
		put(&e, s + run, i - run);
		if (k)
			put_u(&e, u);
		else if (c == '\n')
			put(&e, "\\n", 2);
		else if (c == '\t')
			put(&e, "\\t", 2);
		else
			put_u(&e, c);
		i += k ? k : 1;
		run = i;
	}
	put(&e, s + run, len - run);
}

/* What the printer asks of a scalar's characters, gathered in one pass:
 * flow: one of ",[]{}" before the first NUL (as strpbrk finds);
 * inner: what needs_quotes looks for past the first character; odd: a
 * byte no text that reads back holds (NUL, non-ASCII); control: one
 * plain text must not hold; escapes: the bytes a quoted print escapes. */
struct scalar_scan {
	bool flow, inner, odd, control;
	size_t escapes;
};

/* What each byte is to scan_scalar; most printable ASCII is nothing. */
enum {
	CH_ODD = 1, CH_NUL = 2, CH_CONTROL = 4, CH_NEWLINE = 8, CH_ESCAPE = 16,
	CH_FLOW = 32, CH_COLON = 64, CH_SPACE = 128,
};
#define CH_C (CH_CONTROL | CH_ESCAPE)
#define CH_HIGH16 CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, \
	CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD, CH_ODD
static const unsigned char char_class[256] = {
	CH_ODD | CH_NUL, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C,
	CH_C | CH_NEWLINE, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C,
	CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C, CH_C,
	CH_C, CH_C,
	[' '] = CH_SPACE, ['"'] = CH_ESCAPE, ['\\'] = CH_ESCAPE,
	[','] = CH_FLOW, ['['] = CH_FLOW, [']'] = CH_FLOW, ['{'] = CH_FLOW,
	['}'] = CH_FLOW, [':'] = CH_COLON, [0x7f] = CH_C,
	[0x80] = CH_HIGH16, CH_HIGH16, CH_HIGH16, CH_HIGH16, CH_HIGH16,
	CH_HIGH16, CH_HIGH16, CH_HIGH16,
};

static struct scalar_scan scan_scalar(const struct ynode *n)
{
	struct scalar_scan r = {0};
	const unsigned char *s = (const unsigned char *)n->str;
	bool nul = false;
	for (size_t i = 0; i < n->len; i++) {
		unsigned f = char_class[s[i]];
		if (!f)
			continue;
		r.odd |= f & CH_ODD;
		r.control |= f & CH_CONTROL;
		r.escapes += (f & CH_ESCAPE) != 0;
		r.inner |= (f & (CH_NUL | CH_NEWLINE)) ||
			   ((f & CH_COLON) && s[i + 1] == ' ') ||
			   ((f & CH_SPACE) && s[i + 1] == '#');
		r.flow |= (f & CH_FLOW) && !nul;
		nul |= f & CH_NUL;
	}
	return r;
}

/* A plain scalar the loader would read differently in block context:
 * one holding a NUL, starting with an indicator (but "-1"), with a space
 * at either end, holding ": ", " #" or a newline, or ending with ':'.
 * The pass over the characters is scan_scalar's. */
static bool needs_quotes(const struct ynode *n, const struct scalar_scan *r)
{
	const char *s = n->str;
	if (n->len == 0)
		return false;
	if (s[0] && strchr("-?:,[]{}#&*!|>'\"%@`", s[0]) &&
	    !(s[0] == '-' && isdigit((unsigned char)s[1])))
		return true;
	return r->inner || isspace((unsigned char)s[0]) ||
	       isspace((unsigned char)s[n->len - 1]) || s[n->len - 1] == ':';
}

/* Scalar n printed quoted (quote) or raw: does it read back as n?  Only
 * ASCII text counts: printable ASCII and spaces when plain, any ASCII
 * but NUL when quoted (the rest is escaped, at most \uXXXX for one byte,
 * which bounds the printed length of a key). */
static void check_scanned(struct emitter *e, const struct ynode *n, bool key,
			  bool quote, const struct scalar_scan *r)
{
	e->nodes++;
	bool ascii = !r->odd && (quote || !r->control);
	size_t printed = quote ? n->len + 2 + 5 * r->escapes : n->len;
	if (quote != n->quoted || (!quote && n->len == 0) ||
	    n->len > YAML_MAX_SCALAR || !ascii ||
	    (key && printed >= READ_BACK_MAX_KEY) ||
	    (key && !quote && n->len == 2 && !memcmp(n->str, "<<", 2)))
		e->exact = false;
}

/* A key in block context, or a value (in flow context, where ",[]{}"
 * end a plain scalar, so those are quoted too). */
static void emit_scalar(struct emitter *e, const struct ynode *n, bool key)
{
	struct scalar_scan r = scan_scalar(n);
	bool quote = n->quoted || (!key && r.flow) || needs_quotes(n, &r);
	if (e->check)
		check_scanned(e, n, key, quote, &r);
	if (quote)
		emit_quoted(e, n);
	else if (n->len == 0)
		put(e, "null", 4);
	else
		put(e, n->str, n->len);
}

static void indent(struct emitter *e, int spaces)
{
	static const char blank[] = "                                ";
	for (size_t left = (size_t)spaces; left > 0;) {
		size_t k = left < sizeof blank - 1 ? left : sizeof blank - 1;
		put(e, blank, k);
		left -= k;
	}
}

/* A map or sequence with entries: printed in block style. */
static bool has_entries(const struct ynode *n)
{
	return n && n->kind != YNODE_SCALAR && n->n > 0;
}

static void emit_flow(struct emitter *e, const struct ynode *n)
{
	if (!n) {
		put(e, "null", 4);
		e->exact = false;
		return;
	}
	if (n->kind == YNODE_SCALAR) {
		emit_scalar(e, n, false);
		return;
	}
	bool map = n->kind == YNODE_MAP;
	if (e->check) {
		e->nodes++;
		/* only labels print full flow collections: their keys are
		 * printed as in block context, which is not checked here */
		if (n->n)
			e->exact = false;
	}
	put(e, map ? "{" : "[", 1);
	for (int i = 0; i < n->n; i++) {
		if (i)
			put(e, ", ", 2);
		if (map) {
			emit_scalar(e, n->keys[i], true);
			put(e, ": ", 2);
		}
		emit_flow(e, n->items[i]);
	}
	put(e, map ? "}" : "]", 1);
}

static void emit_block(struct emitter *e, const struct ynode *n, int col,
		       int depth, bool inline_first);

/* The value after "key:" (in_seq false) or "-" (true), the entry at
 * column col: a scalar or an empty container on the same line; a map
 * below the key, indented, or on the dash's line ("- key: v"); a
 * sequence below the key at the key's column, or on the dash's line
 * ("- - v"). */
static void emit_after(struct emitter *e, const struct ynode *v, int col,
		       int depth, bool in_seq)
{
	if (!has_entries(v)) {
		put(e, " ", 1);
		emit_flow(e, v);
		put(e, "\n", 1);
		return;
	}
	if (in_seq) {
		put(e, " ", 1);
		emit_block(e, v, col + 2, depth + 1, true);
		return;
	}
	put(e, "\n", 1);
	emit_block(e, v, v->kind == YNODE_MAP ? col + 2 : col, depth + 1, false);
}

/* n's entries at column col, the first on the current line when
 * inline_first; a scalar or empty container alone on its line. */
static void emit_block(struct emitter *e, const struct ynode *n, int col,
		       int depth, bool inline_first)
{
	if (!has_entries(n)) {
		if (!inline_first)
			indent(e, col);
		emit_flow(e, n);
		put(e, "\n", 1);
		return;
	}
	if (e->check) {
		e->nodes++;
		if (depth > READ_BACK_MAX_DEPTH)
			e->exact = false;
	}
	for (int i = 0; i < n->n; i++) {
		if (i || !inline_first)
			indent(e, col);
		if (n->kind == YNODE_MAP) {
			emit_scalar(e, n->keys[i], true);
			put(e, ":", 1);
		} else {
			put(e, "-", 1);
		}
		emit_after(e, n->items[i], col, depth, n->kind == YNODE_SEQ);
	}
}

void yaml_emit(struct strbuf *b, const struct ynode *n)
{
	assert(b);
	struct emitter e = {.b = b};
	emit_block(&e, n, 0, 0, false);
}

void yaml_emit_file(FILE *f, const struct ynode *n)
{
	assert(f);
	struct emitter e = {.f = f};
	emit_block(&e, n, 0, 0, false);
}

bool yaml_emit_exact(struct strbuf *b, const struct ynode *doc,
		     uint64_t *nodes)
{
	assert(nodes);
	if (!doc || doc->kind != YNODE_MAP) {
		if (b)
			yaml_emit(b, doc);
		return false;
	}
	struct emitter e = {.b = b, .check = true, .exact = true, .nodes = *nodes};
	emit_block(&e, doc, 0, 0, false);
	*nodes = e.nodes;
	return e.exact && e.nodes <= YAML_MAX_NODES / 2;
}

void yaml_emit_flow(struct strbuf *b, const struct ynode *n)
{
	assert(b);
	struct emitter e = {.b = b};
	emit_flow(&e, n);
}
