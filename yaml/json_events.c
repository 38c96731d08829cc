/*
 * json_events.c - the events libyaml would give for a JSON text, without
 * libyaml (json_events.h): `kubectl get -o json` exports are JSON, and
 * libyaml's general YAML scanner was most of the time spent loading them.
 *
 * Only what is certain to read the same is taken: one object or array
 * with JSON's whitespace (no tab), strings of printable characters and
 * JSON's escapes (no surrogate halves), numbers, true, false and null.
 * Anything else - a tab, a comment, a second document, YAML's flow
 * syntax, a control or line-break character in a string, text that is
 * not UTF-8 - is left to libyaml, whose errors and trees stay the
 * reference.  The marks are libyaml's: 0-based line and column, columns
 * counted in characters, CRLF one line break.
 */
#include "json_events.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/xalloc.h"
#include "../core/grow.h"
#include "utf8.h"

#define JSON_MAX_NEST 256   /* past YAML_MAX_DEPTH: the builder refuses first */

struct scan {
	const unsigned char *s;
	size_t len, i;
	size_t line, col;          /* of s[i] */
	int (*emit)(void *ctx, const yaml_event_t *ev);
	void *ctx;
	unsigned char *buf;        /* a string's decoded text */
	size_t cap;
};

enum { DONE = 0, NOT_JSON = 1 };

static int emit(struct scan *sc, yaml_event_t *ev, size_t line, size_t col)
{
	if (!sc->emit)
		return DONE;   /* the first pass: the syntax only */
	ev->start_mark.line = line;
	ev->start_mark.column = col;
	ev->end_mark = ev->start_mark;
	return sc->emit(sc->ctx, ev) ? -1 : DONE;
}

static int emit_type(struct scan *sc, yaml_event_type_t type, size_t line,
		     size_t col)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = type;
	return emit(sc, &ev, line, col);
}

static int emit_scalar(struct scan *sc, const unsigned char *text, size_t n,
		       bool quoted, size_t line, size_t col)
{
	yaml_event_t ev;
	memset(&ev, 0, sizeof ev);
	ev.type = YAML_SCALAR_EVENT;
	ev.data.scalar.value = (yaml_char_t *)text;
	ev.data.scalar.length = n;
	ev.data.scalar.plain_implicit = !quoted;
	ev.data.scalar.quoted_implicit = quoted;
	ev.data.scalar.style = quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
				      : YAML_PLAIN_SCALAR_STYLE;
	return emit(sc, &ev, line, col);
}

/* JSON's whitespace but tab; false on a tab (YAML's rules for tabs are
 * not JSON's). */
static bool skip_space(struct scan *sc)
{
	while (sc->i < sc->len) {
		unsigned char c = sc->s[sc->i];
		if (c == ' ') {
			sc->i++;
			sc->col++;
		} else if (c == '\n' || c == '\r') {
			sc->i += c == '\r' && sc->i + 1 < sc->len &&
				 sc->s[sc->i + 1] == '\n' ? 2 : 1;
			sc->line++;
			sc->col = 0;
		} else {
			return c != '\t';
		}
	}
	return true;
}

static void put(struct scan *sc, size_t *n, unsigned char c)
{
	GROW(sc->buf, *n + 1, sc->cap);
	sc->buf[(*n)++] = c;
}

static void put_utf8(struct scan *sc, size_t *n, unsigned cp)
{
	unsigned char u[3];
	size_t len = yaml_utf8_encode(cp, u);
	for (size_t k = 0; k < len; k++)
		put(sc, n, u[k]);
}

/* A string at s[i] == '"': its text decoded into sc->buf, as a quoted
 * scalar. */
static int string(struct scan *sc)
{
	size_t line = sc->line, col = sc->col, n = 0;
	sc->i++;
	sc->col++;
	for (;;) {
		if (sc->i >= sc->len)
			return NOT_JSON;
		unsigned char c = sc->s[sc->i];
		if (c == '"') {
			sc->i++;
			sc->col++;
			return emit_scalar(sc, n ? sc->buf : (const unsigned char *)"",
					   n, true, line, col);
		}
		if (c >= 0x80) {
			size_t k = yaml_printable_utf8(sc->s + sc->i, sc->len - sc->i);
			if (!k)
				return NOT_JSON;
			for (size_t j = 0; j < k; j++)
				put(sc, &n, sc->s[sc->i + j]);
			sc->i += k;
			sc->col++;
			continue;
		}
		if (c < 0x20 || c == 0x7F)
			return NOT_JSON;
		if (c != '\\') {
			put(sc, &n, c);
			sc->i++;
			sc->col++;
			continue;
		}
		if (sc->i + 1 >= sc->len)
			return NOT_JSON;
		unsigned char e = sc->s[sc->i + 1];
		static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
		const char *at = e ? strchr(from, e) : NULL;
		if (at) {
			put(sc, &n, (unsigned char)to[at - from]);
			sc->i += 2;
			sc->col += 2;
			continue;
		}
		if (e != 'u' || sc->i + 6 > sc->len)
			return NOT_JSON;
		unsigned cp = 0;
		for (int k = 2; k < 6; k++) {
			int h = yaml_hex_digit(sc->s[sc->i + k]);
			if (h < 0)
				return NOT_JSON;
			cp = cp << 4 | (unsigned)h;
		}
		if (cp >= 0xD800 && cp <= 0xDFFF)
			return NOT_JSON;   /* a surrogate pair: libyaml decides */
		put_utf8(sc, &n, cp);
		sc->i += 6;
		sc->col += 6;
	}
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/* A number, true, false or null: a plain scalar of its text. */
static int bare(struct scan *sc)
{
	const unsigned char *s = sc->s + sc->i;
	size_t left = sc->len - sc->i, n = 0;
	static const char *const words[] = {"true", "false", "null"};
	for (int w = 0; w < 3 && !n; w++) {
		size_t k = strlen(words[w]);
		if (left >= k && !memcmp(s, words[w], k))
			n = k;
	}
	if (!n) {
		n += n < left && s[n] == '-';
		if (n < left && s[n] == '0')
			n++;
		else if (n < left && s[n] >= '1' && s[n] <= '9')
			while (n < left && is_digit(s[n]))
				n++;
		else
			return NOT_JSON;
		if (n < left && s[n] == '.') {
			if (++n >= left || !is_digit(s[n]))
				return NOT_JSON;
			while (n < left && is_digit(s[n]))
				n++;
		}
		if (n < left && (s[n] == 'e' || s[n] == 'E')) {
			n++;
			n += n < left && (s[n] == '+' || s[n] == '-');
			if (n >= left || !is_digit(s[n]))
				return NOT_JSON;
			while (n < left && is_digit(s[n]))
				n++;
		}
	}
	/* what follows must end the value as JSON and YAML both see it */
	if (n < left && !strchr(" \r\n,]}", s[n]))
		return NOT_JSON;
	size_t line = sc->line, col = sc->col;
	sc->i += n;
	sc->col += n;
	return emit_scalar(sc, s, n, false, line, col);
}

static int value(struct scan *sc, int depth);

/* An object or array at s[i]; close is '}' or ']'. */
static int collection(struct scan *sc, int depth, bool map)
{
	if (depth > JSON_MAX_NEST)
		return NOT_JSON;
	int rc = emit_type(sc, map ? YAML_MAPPING_START_EVENT :
			   YAML_SEQUENCE_START_EVENT, sc->line, sc->col);
	if (rc)
		return rc;
	unsigned char close = map ? '}' : ']';
	sc->i++;
	sc->col++;
	if (!skip_space(sc))
		return NOT_JSON;
	bool first = true;
	for (;;) {
		if (sc->i >= sc->len)
			return NOT_JSON;
		if (sc->s[sc->i] == close && first)
			break;
		if (map) {
			size_t key_at = sc->i, key_line = sc->line;
			if (sc->s[sc->i] != '"' || (rc = string(sc)) ||
			    !skip_space(sc))
				return rc ? rc : NOT_JSON;
			/* YAML's simple keys have their ':' on their own line
			 * and within 1024 characters; else libyaml's */
			if (sc->i - key_at > 1000 || sc->line != key_line)
				return NOT_JSON;
			if (sc->i >= sc->len || sc->s[sc->i] != ':')
				return NOT_JSON;
			sc->i++;
			sc->col++;
			if (!skip_space(sc))
				return NOT_JSON;
		}
		if ((rc = value(sc, depth + 1)) || !skip_space(sc))
			return rc ? rc : NOT_JSON;
		first = false;
		if (sc->i < sc->len && sc->s[sc->i] == close)
			break;
		if (sc->i >= sc->len || sc->s[sc->i] != ',')
			return NOT_JSON;
		sc->i++;
		sc->col++;
		if (!skip_space(sc))
			return NOT_JSON;
	}
	sc->i++;
	sc->col++;
	return emit_type(sc, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT,
			 sc->line, sc->col);
}

static int value(struct scan *sc, int depth)
{
	if (sc->i >= sc->len)
		return NOT_JSON;
	switch (sc->s[sc->i]) {
	case '{':
		return collection(sc, depth, true);
	case '[':
		return collection(sc, depth, false);
	case '"':
		return string(sc);
	default:
		return bare(sc);
	}
}

/* One pass over the text, with the events to sc->emit (none when NULL). */
static int scan(struct scan *sc)
{
	if (!skip_space(sc) || sc->i >= sc->len ||
	    (sc->s[sc->i] != '{' && sc->s[sc->i] != '['))
		return NOT_JSON;
	int rc = emit_type(sc, YAML_DOCUMENT_START_EVENT, sc->line, sc->col);
	if (!rc)
		rc = value(sc, 1);
	if (!rc && (!skip_space(sc) || sc->i != sc->len))
		rc = NOT_JSON;   /* more after the value: libyaml's to judge */
	if (!rc)
		rc = emit_type(sc, YAML_DOCUMENT_END_EVENT, sc->line, sc->col);
	return rc;
}

int yaml_json_events(const unsigned char *s, size_t len,
		     int (*emit_fn)(void *ctx, const yaml_event_t *ev),
		     void *ctx)
{
	assert((s || !len) && emit_fn);
	/* The whole text is checked before the first event: the builder
	 * may refuse an early part (a duplicate key) of a text libyaml
	 * refuses as a whole (bytes that are not UTF-8 further on), and
	 * libyaml's error is the one to give then. */
	struct scan sc = {s, len, 0, 0, 0, NULL, ctx, NULL, 0};
	int rc = scan(&sc);
	if (rc == DONE) {
		struct scan pass = {s, len, 0, 0, 0, emit_fn, ctx, sc.buf, sc.cap};
		rc = scan(&pass);
		sc.buf = pass.buf;
	}
	free(sc.buf);
	return rc;
}
