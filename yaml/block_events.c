/*
 * block_events.c - the events libyaml would give for a block-style YAML
 * text, without libyaml (block_events.h).  kubectl's YAML, the manifests
 * people write and kso's own generators keep to a small part of YAML;
 * this scanner takes exactly that part and leaves everything else to
 * libyaml, whose errors and trees stay the reference (yaml/tree.c asks
 * it whenever this returns 1; tests/fuzz/fuzz_block.c holds the two to
 * the same trees and errors).
 *
 * Taken: printable ASCII and line feeds (UTF-8 in comments and block
 * scalars only; no tab, carriage return or control character anywhere);
 * documents separated
 * by lines "---"; block mappings of one-line keys (plain or quoted,
 * then ": "); block sequences ("- ", indentless under a key too) whose
 * entries are one-line values or compact mappings ("- name: x"); values
 * that are one-line plain scalars, single- or double-quoted scalars
 * (JSON's escapes and \0-free \u), one-line flow collections of the
 * same, or literal block scalars ("|", "|-"); comments.  Everything
 * else - multi-line flow and quoted scalars, folded and indented block
 * scalars, anchors, aliases, tags, "?" keys, empty values, "...",
 * directives, an entry on the line after its "-" - is libyaml's.
 *
 * libyaml's marks: 0-based line and column; every token is ASCII and
 * any other character sits in a comment, after the line's last token,
 * so a token's column is its byte offset in its line.  A collection's mark is its first
 * key or "-" (block) or its bracket (flow); a scalar's, its first
 * character or opening quote.
 */
#include "block_events.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/grow.h"
#include "utf8.h"

/* Past this nesting the text is libyaml's (the builder refuses at 200). */
#define BLOCK_MAX_NEST 100
/* libyaml's simple keys end within 1024 characters; well inside it. */
#define BLOCK_MAX_KEY 1000

struct bscan {
	const unsigned char *s;
	size_t len;
	size_t i;            /* the cursor */
	size_t line;         /* s[i]'s line, 0-based */
	size_t bol;          /* where that line begins */
	int (*emit)(void *ctx, const yaml_event_t *ev);   /* NULL: pass 1 */
	void *ctx;
	unsigned char *buf;  /* a quoted scalar's decoded text */
	size_t cap;
};

enum { DONE = 0, NOT_BLOCK = 1 };

/* ------------------------------------------------------------- events */

/* Hands ev, marked at line and column, to the builder. */
static int emit_mark(struct bscan *sc, yaml_event_t *ev, size_t line,
		     size_t col)
{
	if (!sc->emit)
		return DONE;   /* pass 1: the syntax only */
	ev->start_mark.line = line;
	ev->start_mark.column = col;
	ev->end_mark = ev->start_mark;
	return sc->emit(sc->ctx, ev) ? -1 : DONE;
}

/* The same at byte at of the current line. */
static int emit(struct bscan *sc, yaml_event_t *ev, size_t at)
{
	return emit_mark(sc, ev, sc->line, at - sc->bol);
}

static int emit_type(struct bscan *sc, yaml_event_type_t type, size_t at)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	if (type == YAML_MAPPING_START_EVENT || type == YAML_SEQUENCE_START_EVENT)
		ev.data.mapping_start.implicit = 1;
	return emit(sc, &ev, at);
}

static int emit_scalar(struct bscan *sc, const unsigned char *text, size_t n,
		       yaml_scalar_style_t style, size_t at)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = YAML_SCALAR_EVENT;
	ev.data.scalar.value = (yaml_char_t *)(n ? text : (const unsigned char *)"");
	ev.data.scalar.length = n;
	ev.data.scalar.plain_implicit = style == YAML_PLAIN_SCALAR_STYLE;
	ev.data.scalar.quoted_implicit = style != YAML_PLAIN_SCALAR_STYLE;
	ev.data.scalar.style = style;
	return emit(sc, &ev, at);
}

/* -------------------------------------------------------------- lines */

static bool at_end(const struct bscan *sc)
{
	return sc->i >= sc->len;
}

static unsigned char peek(const struct bscan *sc, size_t k)
{
	return sc->i + k < sc->len ? sc->s[sc->i + k] : '\n';
}

/* To the start of the line after the one s[j] is on (or the end). */
static void next_line(struct bscan *sc, size_t j)
{
	const unsigned char *nl = memchr(sc->s + j, '\n', sc->len - j);
	if (!nl) {
		sc->i = sc->len;
		return;
	}
	sc->i = (size_t)(nl - sc->s) + 1;
	sc->line++;
	sc->bol = sc->i;
}

/* At a line start: past the lines of spaces or a comment alone, to the
 * next content line; returns its indentation (the cursor at its start),
 * or -1 at the end of the text. */
static long next_indent(struct bscan *sc)
{
	while (!at_end(sc)) {
		size_t j = sc->i;
		while (j < sc->len && sc->s[j] == ' ')
			j++;
		if (j < sc->len && sc->s[j] != '\n' && sc->s[j] != '#')
			return (long)(j - sc->i);
		next_line(sc, j);
	}
	return -1;
}

/* After a value: spaces, then a comment (after at least one space) or
 * nothing up to the line's end; the cursor to the next line. */
static int end_of_line(struct bscan *sc)
{
	size_t j = sc->i;
	while (j < sc->len && sc->s[j] == ' ')
		j++;
	if (j < sc->len && sc->s[j] == '#' && j == sc->i)
		return NOT_BLOCK;
	if (j < sc->len && sc->s[j] != '#' && sc->s[j] != '\n')
		return NOT_BLOCK;
	next_line(sc, j);
	return DONE;
}

/* The line at the cursor (its start, indentation 0) is a document
 * marker: 1 for "---" with nothing but a comment after it, 2 for any
 * other "---" or "..." line (libyaml's), 0 for none. */
static int doc_marker(const struct bscan *sc)
{
	const unsigned char *p = sc->s + sc->i;
	size_t left = sc->len - sc->i;
	if (left < 3 || (memcmp(p, "---", 3) && memcmp(p, "...", 3)) ||
	    (left > 3 && p[3] != ' ' && p[3] != '\n'))
		return 0;
	if (p[0] == '.')
		return 2;
	size_t j = 3;
	while (j < left && p[j] == ' ')
		j++;
	return j == left || p[j] == '\n' || (p[j] == '#' && j > 3) ? 1 : 2;
}

/* "- " (or "-" at the line's end) at the cursor: a sequence entry. */
static bool is_dash(const struct bscan *sc)
{
	return peek(sc, 0) == '-' && (peek(sc, 1) == ' ' || peek(sc, 1) == '\n');
}

/* ------------------------------------------------------------ scalars */

/* A character no plain scalar may start with here (c followed by next):
 * YAML's indicators, but "-" before a non-space ("-1"). */
static bool plain_cannot_start(unsigned char c, unsigned char next)
{
	if (c == '-')
		return next == ' ' || next == '\n';
	return strchr("?:,[]{}#&*!|>'\"%@`", c) != NULL;
}

/* A plain scalar at the cursor in block context: it ends at ": ", at a
 * ':' ending the line, at " #" or at the line's end.  [*start, *end) is
 * its text, trailing spaces dropped; the cursor is left at *end. */
static int plain_block(struct bscan *sc, size_t *start, size_t *end)
{
	if (plain_cannot_start(peek(sc, 0), peek(sc, 1)))
		return NOT_BLOCK;
	size_t j = sc->i;
	while (j < sc->len && sc->s[j] != '\n') {
		unsigned char c = sc->s[j];
		if (c >= 0x80)
			return NOT_BLOCK;
		if (c == ':' && (j + 1 == sc->len || sc->s[j + 1] == ' ' ||
				 sc->s[j + 1] == '\n'))
			break;
		if (c == '#' && sc->s[j - 1] == ' ')
			break;
		j++;
	}
	while (j > sc->i && sc->s[j - 1] == ' ')
		j--;
	*start = sc->i;
	*end = j;
	sc->i = j;
	return DONE;
}

/* A plain scalar at the cursor inside a flow collection: it ends at ',',
 * ']', '}' or ": " (a ':' before anything else is its text, as in
 * "pause:3.9"); anything else it could meet (a line end, " #", a
 * bracket of its own) is libyaml's. */
static int plain_flow(struct bscan *sc, size_t *start, size_t *end)
{
	if (plain_cannot_start(peek(sc, 0), peek(sc, 1)))
		return NOT_BLOCK;
	size_t j = sc->i;
	for (;; j++) {
		if (j >= sc->len || sc->s[j] == '\n' || sc->s[j] >= 0x80 || sc->s[j] == '[' ||
		    sc->s[j] == '{' || (sc->s[j] == '#' && sc->s[j - 1] == ' '))
			return NOT_BLOCK;
		if (sc->s[j] == ',' || sc->s[j] == ']' || sc->s[j] == '}')
			break;
		if (sc->s[j] == ':') {
			/* ": " ends it; libyaml refuses ':' before a flow
			 * indicator or '?'; any other ':' is its text */
			unsigned char next = j + 1 < sc->len ? sc->s[j + 1] : '\n';
			if (next == ' ')
				break;
			if (strchr(",?[]{}\n", next))
				return NOT_BLOCK;
		}
	}
	while (j > sc->i && sc->s[j - 1] == ' ')
		j--;
	*start = sc->i;
	*end = j;
	sc->i = j;
	return DONE;
}

static void put(struct bscan *sc, size_t *n, unsigned char c)
{
	GROW(sc->buf, *n + 1, sc->cap);
	sc->buf[(*n)++] = c;
}

/* A double-quoted scalar's escape at s[i] == '\\' into buf: JSON's
 * escapes, YAML's \0-free one-character ones and \u of a code point
 * that is not NUL or a surrogate half; the cursor after it. */
static int escape(struct bscan *sc, size_t *n)
{
	static const char from[] = "\"\\/bfnrtave ", to[] = "\"\\/\b\f\n\r\t\a\v\x1b ";
	unsigned char e = peek(sc, 1);
	const char *at = e != '\n' ? strchr(from, e) : NULL;
	if (at && *at) {
		put(sc, n, (unsigned char)to[at - from]);
		sc->i += 2;
		return DONE;
	}
	if (e != 'u')
		return NOT_BLOCK;
	unsigned cp = 0;
	for (size_t k = 2; k < 6; k++) {
		int h = yaml_hex_digit(peek(sc, k));
		if (h < 0)
			return NOT_BLOCK;
		cp = cp << 4 | (unsigned)h;
	}
	if (cp == 0 || (cp >= 0xD800 && cp <= 0xDFFF))
		return NOT_BLOCK;
	unsigned char u[3];
	size_t len = yaml_utf8_encode(cp, u);
	for (size_t k = 0; k < len; k++)
		put(sc, n, u[k]);
	sc->i += 6;
	return DONE;
}

/* A single- or double-quoted scalar at the cursor, closed on its line:
 * its text decoded into sc->buf (*n bytes), the cursor after it. */
static int quoted(struct bscan *sc, size_t *n)
{
	unsigned char q = peek(sc, 0);
	*n = 0;
	sc->i++;
	for (;;) {
		unsigned char c = peek(sc, 0);
		if (c == '\n' || c >= 0x80)
			return NOT_BLOCK;   /* a line end, the text's, or not ASCII */
		if (c == q && q == '\'' && peek(sc, 1) == '\'') {
			put(sc, n, '\'');
			sc->i += 2;
		} else if (c == q) {
			sc->i++;
			return DONE;
		} else if (c == '\\' && q == '"') {
			if (escape(sc, n))
				return NOT_BLOCK;
		} else {
			put(sc, n, c);
			sc->i++;
		}
	}
}

/* A scalar at the cursor (quoted, or plain in block or flow context),
 * emitted. */
static int scalar(struct bscan *sc, bool flow)
{
	size_t at = sc->i;
	unsigned char c = peek(sc, 0);
	if (c == '\'' || c == '"') {
		size_t n;
		if (quoted(sc, &n))
			return NOT_BLOCK;
		return emit_scalar(sc, sc->buf, n, c == '\'' ? YAML_SINGLE_QUOTED_SCALAR_STYLE
					      : YAML_DOUBLE_QUOTED_SCALAR_STYLE, at);
	}
	size_t start, end;
	if ((flow ? plain_flow : plain_block)(sc, &start, &end) || end == start)
		return NOT_BLOCK;
	return emit_scalar(sc, sc->s + start, end - start, YAML_PLAIN_SCALAR_STYLE, at);
}

/* ------------------------------------------------------------- flow */

static void skip_spaces(struct bscan *sc)
{
	while (peek(sc, 0) == ' ' && !at_end(sc))
		sc->i++;
}

static int flow_value(struct bscan *sc, int depth);

/* A one-line flow collection at the cursor ('[' or '{'). */
static int flow(struct bscan *sc, int depth)
{
	if (depth > BLOCK_MAX_NEST)
		return NOT_BLOCK;
	bool map = peek(sc, 0) == '{';
	unsigned char close = map ? '}' : ']';
	int rc = emit_type(sc, map ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT,
			   sc->i);
	sc->i++;
	skip_spaces(sc);
	for (bool first = true; !rc; first = false) {
		if (first && peek(sc, 0) == close)
			break;
		if (map) {
			unsigned char c = peek(sc, 0);
			if (c == '[' || c == '{')
				return NOT_BLOCK;
			if ((rc = scalar(sc, true)))
				return rc;
			skip_spaces(sc);
			if (peek(sc, 0) != ':' || peek(sc, 1) != ' ')
				return NOT_BLOCK;
			sc->i++;
			skip_spaces(sc);
		}
		if ((rc = flow_value(sc, depth)))
			return rc;
		skip_spaces(sc);
		if (peek(sc, 0) == close)
			break;
		if (peek(sc, 0) != ',')
			return NOT_BLOCK;
		sc->i++;
		skip_spaces(sc);
		if (peek(sc, 0) == close)
			return NOT_BLOCK;   /* a trailing comma */
	}
	if (rc)
		return rc;
	sc->i++;
	return emit_type(sc, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT, sc->i);
}

static int flow_value(struct bscan *sc, int depth)
{
	unsigned char c = peek(sc, 0);
	if (c == '[' || c == '{')
		return flow(sc, depth + 1);
	return scalar(sc, true);
}

/* ------------------------------------------------------------ block */

static int block_node(struct bscan *sc, size_t n, int depth);

/*
 * A literal block scalar ("|" or "|-", nothing else on its line) at the
 * cursor, under a block whose indentation is n: kubectl writes
 * multi-line strings (last-applied-configuration, ConfigMap data) so.
 * Its indentation is its first line's, which must be deeper than n and
 * not follow an empty line (libyaml's rules for those are its own).
 * Each line gives its text past that indentation and a line break;
 * lines of fewer spaces alone give a line break; the first line with
 * less indentation and some text ends it.  "|" keeps one final line
 * break (if the last line had one), "|-" none.  The cursor is left at
 * the start of the line that ends it.
 */
static int block_scalar(struct bscan *sc, size_t n)
{
	size_t mark_line = sc->line, mark_col = sc->i - sc->bol;
	bool strip = peek(sc, 1) == '-';
	sc->i += strip ? 2 : 1;
	if (peek(sc, 0) != '\n' || at_end(sc))
		return NOT_BLOCK;   /* an indicator, a comment: libyaml's */
	next_line(sc, sc->i);
	size_t indent = 0;
	while (sc->i + indent < sc->len && sc->s[sc->i + indent] == ' ')
		indent++;
	if (indent <= n || sc->i + indent >= sc->len ||
	    sc->s[sc->i + indent] == '\n')
		return NOT_BLOCK;   /* empty, or a leading empty line */
	size_t len = 0, pending = 0;   /* breaks after the last text line */
	while (!at_end(sc)) {
		size_t j = sc->i, sp = 0;
		while (j < sc->len && sc->s[j] == ' ' && sp < indent) {
			j++;
			sp++;
		}
		bool blank = j >= sc->len || sc->s[j] == '\n';
		if (sp < indent && !blank)
			break;      /* less indented text: the end */
		if (blank) {
			pending += j < sc->len;
		} else {
			for (; pending; pending--)
				put(sc, &len, '\n');
			const unsigned char *nl = memchr(sc->s + j, '\n', sc->len - j);
			size_t end = nl ? (size_t)(nl - sc->s) : sc->len;
			for (size_t k = j; k < end; k++)
				put(sc, &len, sc->s[k]);
			pending = nl != NULL;
		}
		next_line(sc, j);
	}
	if (!strip && pending)
		put(sc, &len, '\n');
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = YAML_SCALAR_EVENT;
	ev.data.scalar.value = (yaml_char_t *)(len ? sc->buf : (unsigned char *)"");
	ev.data.scalar.length = len;
	ev.data.scalar.quoted_implicit = 1;
	ev.data.scalar.style = YAML_LITERAL_SCALAR_STYLE;
	return emit_mark(sc, &ev, mark_line, mark_col);
}

/* A value on the line of its key or "-" (the cursor at it), under a
 * block of indentation n: a flow collection or a scalar, then the line's
 * end, or a literal block scalar and its lines. */
static int inline_value(struct bscan *sc, size_t n, int depth)
{
	unsigned char c = peek(sc, 0);
	if (c == '|')
		return block_scalar(sc, n);
	int rc = c == '[' || c == '{' ? flow(sc, depth) : scalar(sc, false);
	return rc ? rc : end_of_line(sc);
}

/* A key at the cursor: a one-line scalar, then ": " (or ':' ending the
 * line).  Emitted; the cursor after the ':'. */
static int key(struct bscan *sc)
{
	size_t at = sc->i;
	unsigned char c = peek(sc, 0);
	if (c == '[' || c == '{')
		return NOT_BLOCK;
	int rc = scalar(sc, false);
	if (rc)
		return rc;
	skip_spaces(sc);
	if (peek(sc, 0) != ':' || (peek(sc, 1) != ' ' && peek(sc, 1) != '\n') ||
	    sc->i - at > BLOCK_MAX_KEY)
		return NOT_BLOCK;
	sc->i++;
	return DONE;
}

/* Whether the cursor is at a key (a scalar followed by ": "): looked at
 * without an event or a move. */
static bool at_key(struct bscan *sc)
{
	struct bscan look = *sc;
	look.emit = NULL;
	int rc = key(&look);
	sc->buf = look.buf;   /* the scratch may have grown */
	sc->cap = look.cap;
	return rc == DONE;
}

/* A block sequence whose first "-" is at the cursor, column n; an
 * indentless one (under a key of a mapping at column n) ends at the
 * first line at n that is not an entry.  The cursor is left at the next
 * content line's start, or the end. */
static int block_seq(struct bscan *sc, size_t n, bool indentless, int depth)
{
	int rc = emit_type(sc, YAML_SEQUENCE_START_EVENT, sc->i);
	while (!rc) {
		if (peek(sc, 1) != ' ')
			return NOT_BLOCK;   /* "-" alone: its entry below it */
		sc->i++;
		skip_spaces(sc);
		unsigned char c = peek(sc, 0);
		if (c == '\n' || c == '#' || is_dash(sc))
			return NOT_BLOCK;
		size_t k = sc->i - sc->bol;
		if (c != '[' && c != '{' && at_key(sc))
			rc = block_node(sc, k, depth + 1);
		else
			rc = inline_value(sc, n, depth + 1);
		if (rc)
			return rc;
		long m = next_indent(sc);
		if (m < (long)n)
			break;
		if (m > (long)n)
			return NOT_BLOCK;
		sc->i += n;
		if (n == 0 && doc_marker(sc))
			break;
		if (!is_dash(sc)) {
			if (indentless)
				break;
			return NOT_BLOCK;
		}
	}
	if (rc)
		return rc;
	if (!at_end(sc))
		sc->i = sc->bol;
	return emit_type(sc, YAML_SEQUENCE_END_EVENT, sc->i);
}

/* A block mapping whose first key is at the cursor, column n; the
 * cursor is left at the next content line's start, or the end. */
static int block_map(struct bscan *sc, size_t n, int depth)
{
	int rc = emit_type(sc, YAML_MAPPING_START_EVENT, sc->i);
	while (!rc) {
		if ((rc = key(sc)))
			return rc;
		skip_spaces(sc);
		if (peek(sc, 0) == '\n' || peek(sc, 0) == '#') {
			/* the value is on the lines below */
			if ((rc = end_of_line(sc)))
				return rc;
			long m = next_indent(sc);
			if (m < (long)n)
				return NOT_BLOCK;   /* an empty value */
			sc->i += (size_t)m;
			if (m == (long)n && !is_dash(sc))
				return NOT_BLOCK;
			rc = m == (long)n ? block_seq(sc, n, true, depth + 1)
				: block_node(sc, (size_t)m, depth + 1);
		} else {
			rc = inline_value(sc, n, depth + 1);
		}
		if (rc)
			return rc;
		long m = next_indent(sc);
		if (m < (long)n)
			break;
		if (m > (long)n)
			return NOT_BLOCK;   /* a continuation, or libyaml's error */
		sc->i += n;
		if (n == 0 && doc_marker(sc))
			break;
		if (is_dash(sc))
			return NOT_BLOCK;
	}
	if (rc)
		return rc;
	if (!at_end(sc))
		sc->i = sc->bol;
	return emit_type(sc, YAML_MAPPING_END_EVENT, sc->i);
}

/* A block mapping or sequence at the cursor, column n. */
static int block_node(struct bscan *sc, size_t n, int depth)
{
	if (depth > BLOCK_MAX_NEST)
		return NOT_BLOCK;
	return is_dash(sc) ? block_seq(sc, n, false, depth) : block_map(sc, n, depth);
}

/* ---------------------------------------------------------- documents */

/* Past the "---" line at the cursor. */
static void skip_marker(struct bscan *sc)
{
	next_line(sc, sc->i);
}

/* One pass over the text, with the events to sc->emit (none when NULL). */
static int scan(struct bscan *sc)
{
	long m = next_indent(sc);
	bool marker = m == 0 && doc_marker(sc) == 1;
	if (m == 0 && doc_marker(sc) == 2)
		return NOT_BLOCK;
	if (marker)
		skip_marker(sc);
	for (;;) {
		m = next_indent(sc);
		if (m < 0 && !marker)
			return DONE;   /* no (more) document */
		int rc = emit_type(sc, YAML_DOCUMENT_START_EVENT, sc->i);
		if (!rc && (m < 0 || (m == 0 && doc_marker(sc) == 1))) {
			/* "---" with nothing after it: a null document */
			rc = emit_scalar(sc, NULL, 0, YAML_PLAIN_SCALAR_STYLE, sc->i);
		} else if (!rc) {
			if (m != 0 || doc_marker(sc) == 2)
				return NOT_BLOCK;
			rc = block_node(sc, 0, 1);
		}
		if (rc)
			return rc;
		m = next_indent(sc);
		if (m > 0 || (m == 0 && doc_marker(sc) != 1))
			return NOT_BLOCK;   /* a second node, or "..." */
		if ((rc = emit_type(sc, YAML_DOCUMENT_END_EVENT, sc->i)))
			return rc;
		if (m < 0)
			return DONE;
		skip_marker(sc);
		marker = true;
	}
}

/* Printable ASCII, line feeds and UTF-8 characters libyaml reads as
 * ordinary text (which the scanner then only takes inside comments). */
static bool readable(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (s[i] >= 0x80) {
			size_t k = yaml_printable_utf8(s + i, len - i);
			if (!k)
				return false;
			i += k - 1;
		} else if ((s[i] < 0x20 && s[i] != '\n') || s[i] == 0x7F) {
			return false;
		}
	}
	return true;
}

int yaml_block_events(const unsigned char *s, size_t len,
		      int (*emit_fn)(void *ctx, const yaml_event_t *ev),
		      void *ctx)
{
	assert((s || !len) && emit_fn);
	if (!readable(s, len))
		return NOT_BLOCK;
	/* The whole text is checked before the first event (the builder
	 * may refuse an early part of a text libyaml refuses as a whole,
	 * and libyaml's error is the one to give then). */
	struct bscan sc = {s, len, 0, 0, 0, NULL, ctx, NULL, 0};
	int rc = scan(&sc);
	if (rc == DONE) {
		struct bscan pass = {s, len, 0, 0, 0, emit_fn, ctx, sc.buf, sc.cap};
		rc = scan(&pass);
		sc.buf = pass.buf;
	}
	free(sc.buf);
	return rc;
}
