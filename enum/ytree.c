/*
 * ytree.c - editing and printing YAML trees for the enumerator (see
 * ytree.h): the `vary` dimensions of a universe (README "Universes: what kso enum enumerates")
 * are copy-on-write edits of the manifests' trees, and every scenario is
 * printed back to YAML for the store, the printer telling whether the
 * text would read back as the trees (then they are decoded directly).
 */
#include "ytree.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- buffer */

void enum_yaml_comment(struct strbuf *b, const char *fmt, ...)
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
	unsigned char *t = (unsigned char *)text;
	for (int i = 0; i < k; i++) {
		if (t[i] < 0x20 || t[i] == 0x7f) {
			t[i] = ' ';
		} else if (t[i] == 0xc2 && i + 1 < k && t[i + 1] == 0x85) {
			t[i] = t[i + 1] = ' ';
		} else if (t[i] == 0xe2 && i + 2 < k && t[i + 1] == 0x80 &&
			   (t[i + 2] == 0xa8 || t[i + 2] == 0xa9)) {
			t[i] = t[i + 1] = t[i + 2] = ' ';
		}
	}
	strbuf_puts(b, "# ");
	strbuf_add(b, text, (size_t)k);
	strbuf_puts(b, "\n");
	free(text);
}

/* --------------------------------------------------------------- paths */

static int path_push(struct arena *a, struct enum_path *p, int *cap,
		     const char *key, int index)
{
	if (p->n == *cap) {
		int nc = *cap ? 2 * *cap : 8;
		struct enum_path_seg *s = arena_array(a, (size_t)nc, sizeof *s);
		if (p->n)
			memcpy(s, p->segs, sizeof *s * (size_t)p->n);
		p->segs = s;
		*cap = nc;
	}
	p->segs[p->n].key = key;
	p->segs[p->n].index = index;
	p->n++;
	return 0;
}

/* "[N]" suffixes after a segment: returns the rest, or NULL on error. */
static const char *parse_indexes(struct arena *a, struct enum_path *p,
				 int *cap, const char *s)
{
	while (*s == '[') {
		char *end;
		long v = strtol(s + 1, &end, 10);
		if (end == s + 1 || *end != ']' || v < 0 || v > 1000000)
			return NULL;
		path_push(a, p, cap, NULL, (int)v);
		s = end + 1;
	}
	return s;
}

static int parse_text(struct arena *a, const char *text, struct enum_path *p)
{
	int cap = 0;
	const char *s = text;
	while (*s) {
		const char *start = s, *end;
		if (*s == '"') {
			end = strchr(s + 1, '"');
			if (!end)
				return -1;
			path_push(a, p, &cap, arena_strndup(a, s + 1, (size_t)(end - s - 1)), -1);
			s = end + 1;
		} else {
			while (*s && *s != '.' && *s != '[')
				s++;
			if (s > start)
				path_push(a, p, &cap, arena_strndup(a, start, (size_t)(s - start)), -1);
			else if (*s != '[')
				return -1;
		}
		s = parse_indexes(a, p, &cap, s);
		if (!s)
			return -1;
		if (*s == '.') {
			s++;
			if (!*s)
				return -1;
		} else if (*s)
			return -1;
	}
	return p->n > 0 ? 0 : -1;
}

static bool scalar_is_int(const struct ynode *n, int *out)
{
	if (n->kind != YNODE_SCALAR || n->quoted || n->len == 0)
		return false;
	char *end;
	long v = strtol(n->str, &end, 10);
	if (*end || v < 0 || v > 1000000)
		return false;
	*out = (int)v;
	return true;
}

int enum_path_parse(struct arena *a, const char *file, const struct ynode *n,
		    struct enum_path *out, struct error *err)
{
	memset(out, 0, sizeof *out);
	if (!n)
		return error_plain(err, "%s: a vary dimension needs a path", file);
	if (n->kind == YNODE_SCALAR) {
		out->text = arena_strdup(a, n->str);
		if (parse_text(a, n->str, out) == 0)
			return 0;
		return error_at(err, file, n->line, n->col, "path",
				"bad field path '%s' (a.b[0].\"c.d\")", n->str);
	}
	if (n->kind != YNODE_SEQ || n->n == 0)
		return error_at(err, file, n->line, n->col, "path",
				"a field path is a string or a list of keys");
	int cap = 0;
	struct strbuf t;
	strbuf_init(&t);
	for (int i = 0; i < n->n; i++) {
		const struct ynode *k = n->items[i];
		int idx;
		if (k->kind != YNODE_SCALAR) {
			strbuf_release(&t);
			return error_at(err, file, k->line, k->col, "path",
					"a path element must be a key or an index");
		}
		if (scalar_is_int(k, &idx)) {
			path_push(a, out, &cap, NULL, idx);
			strbuf_printf(&t, "[%d]", idx);
		} else {
			path_push(a, out, &cap, k->str, -1);
			strbuf_printf(&t, "%s\"%s\"", i ? "." : "", k->str);
		}
	}
	out->text = arena_strdup(a, t.s);
	strbuf_release(&t);
	return 0;
}

/* ---------------------------------------------------------- tree edits */

struct ynode *enum_ynode_clone(struct arena *a, const struct ynode *n)
{
	if (!n)
		return NULL;
	struct ynode *c = arena_memdup(a, n, sizeof *n);
	if (n->kind == YNODE_SCALAR) {
		c->str = arena_memdup(a, n->str, n->len + 1);
		return c;
	}
	c->items = arena_array(a, (size_t)n->n + 1, sizeof *c->items);
	for (int i = 0; i < n->n; i++)
		c->items[i] = enum_ynode_clone(a, n->items[i]);
	if (n->kind == YNODE_MAP) {
		c->keys = arena_array(a, (size_t)n->n + 1, sizeof *c->keys);
		for (int i = 0; i < n->n; i++)
			c->keys[i] = enum_ynode_clone(a, n->keys[i]);
	}
	return c;
}

struct ynode *enum_ynode_scalar(struct arena *a, const char *s, bool quoted)
{
	struct ynode *n = arena_alloc(a, sizeof *n);
	n->kind = YNODE_SCALAR;
	n->str = arena_strdup(a, s);
	n->len = strlen(s);
	n->quoted = quoted;
	return n;
}

/* Nodes an edit creates (maps on the way, keys) take the position of the
 * value set, so a message about them points at the vary value. */
static struct ynode *new_map(struct arena *a, const struct ynode *at)
{
	struct ynode *n = arena_alloc(a, sizeof *n);
	n->kind = YNODE_MAP;
	n->line = at->line;
	n->col = at->col;
	n->items = arena_array(a, 1, sizeof *n->items);
	n->keys = arena_array(a, 1, sizeof *n->keys);
	return n;
}

static int map_find(const struct ynode *m, const char *key)
{
	for (int i = 0; i < m->n; i++)
		if (m->keys[i]->kind == YNODE_SCALAR && strcmp(m->keys[i]->str, key) == 0)
			return i;
	return -1;
}

/* Appends key -> value to map m (arrays are re-allocated: arena memory). */
static void map_append(struct arena *a, struct ynode *m, const char *key,
		       struct ynode *value)
{
	struct ynode *k = enum_ynode_scalar(a, key, false);
	k->line = value->line;
	k->col = value->col;
	struct ynode **items = arena_array(a, (size_t)m->n + 1, sizeof *items);
	struct ynode **keys = arena_array(a, (size_t)m->n + 1, sizeof *keys);
	if (m->n) {
		memcpy(items, m->items, sizeof *items * (size_t)m->n);
		memcpy(keys, m->keys, sizeof *keys * (size_t)m->n);
	}
	items[m->n] = value;
	keys[m->n] = k;
	m->items = items;
	m->keys = keys;
	m->n++;
}

static void seq_append(struct arena *a, struct ynode *s, struct ynode *value)
{
	struct ynode **items = arena_array(a, (size_t)s->n + 1, sizeof *items);
	if (s->n)
		memcpy(items, s->items, sizeof *items * (size_t)s->n);
	items[s->n++] = value;
	s->items = items;
}

void enum_ynode_remove_key(struct ynode *m, const char *key)
{
	if (!m || m->kind != YNODE_MAP)
		return;
	int i = map_find(m, key);
	if (i < 0)
		return;
	for (int j = i + 1; j < m->n; j++) {
		m->items[j - 1] = m->items[j];
		m->keys[j - 1] = m->keys[j];
	}
	m->n--;
}

static void seq_remove(struct ynode *s, int i)
{
	for (int j = i + 1; j < s->n; j++)
		s->items[j - 1] = s->items[j];
	s->n--;
}

/* A copy of n sharing its children (arrays copied, so the copy's
 * children can be replaced without touching n). */
static struct ynode *shallow(struct arena *a, const struct ynode *n)
{
	struct ynode *c = arena_memdup(a, n, sizeof *n);
	if (n->kind == YNODE_SCALAR)
		return c;
	c->items = arena_array(a, (size_t)n->n + 1, sizeof *c->items);
	if (n->n)
		memcpy(c->items, n->items, sizeof *c->items * (size_t)n->n);
	if (n->kind == YNODE_MAP) {
		c->keys = arena_array(a, (size_t)n->n + 1, sizeof *c->keys);
		if (n->n)
			memcpy(c->keys, n->keys, sizeof *c->keys * (size_t)n->n);
	}
	return c;
}

/* The last step of a path: cur's copy with the field set or removed. */
static int set_last(struct arena *a, const struct ynode *cur,
		    const struct enum_path_seg *seg, const struct ynode *value,
		    const struct ynode **out, char *why, size_t len)
{
	struct ynode *v = (struct ynode *)value;   /* shared, never changed */
	struct ynode *c;
	if (seg->key) {
		if (cur->kind != YNODE_MAP) {
			snprintf(why, len, "'%s' is under a non-map value", seg->key);
			return -1;
		}
		int i = map_find(cur, seg->key);
		if (!v && i < 0)
			return 0;
		c = shallow(a, cur);
		if (!v)
			enum_ynode_remove_key(c, seg->key);
		else if (i >= 0)
			c->items[i] = v;
		else
			map_append(a, c, seg->key, v);
		*out = c;
		return 0;
	}
	if (cur->kind != YNODE_SEQ || seg->index > cur->n ||
	    (!v && seg->index >= cur->n)) {
		if (!v && cur->kind == YNODE_SEQ)
			return 0;
		snprintf(why, len, "index [%d] is out of range", seg->index);
		return -1;
	}
	c = shallow(a, cur);
	if (!v)
		seq_remove(c, seg->index);
	else if (seg->index == cur->n)
		seq_append(a, c, v);
	else
		c->items[seg->index] = v;
	*out = c;
	return 0;
}

/* Segments i.. of p under cur (value NULL: removing); *out gets cur's
 * edited copy, or cur itself when nothing changes.  Missing maps on the
 * way (or null values in their place) are created when setting; when
 * removing, a missing field leaves cur as it is. */
static int set_from(struct arena *a, const struct ynode *cur,
		    const struct enum_path *p, int i, const struct ynode *value,
		    const struct ynode **out, char *why, size_t len)
{
	const struct enum_path_seg *seg = &p->segs[i];
	*out = cur;
	if (i + 1 == p->n)
		return set_last(a, cur, seg, value, out, why, len);
	const struct ynode *child;
	int at;
	if (seg->key) {
		if (cur->kind != YNODE_MAP) {
			snprintf(why, len, "'%s' is under a non-map value", seg->key);
			return value ? -1 : 0;
		}
		at = map_find(cur, seg->key);
		if (at >= 0 && !(value && ynode_is_null(cur->items[at])))
			child = cur->items[at];
		else if (!value)
			return 0;
		else
			child = new_map(a, value);
	} else {
		if (cur->kind != YNODE_SEQ || seg->index >= cur->n) {
			if (!value)
				return 0;
			snprintf(why, len, "index [%d] is out of range", seg->index);
			return -1;
		}
		at = seg->index;
		child = cur->items[at];
	}
	const struct ynode *edited;
	if (set_from(a, child, p, i + 1, value, &edited, why, len))
		return -1;
	if (at >= 0 && edited == cur->items[at])
		return 0;
	struct ynode *c = shallow(a, cur);
	if (at >= 0)
		c->items[at] = (struct ynode *)edited;
	else
		map_append(a, c, seg->key, (struct ynode *)edited);
	*out = c;
	return 0;
}

int enum_ynode_set(struct arena *a, const struct ynode **root,
		   const struct enum_path *p, const struct ynode *value,
		   char *why, size_t len)
{
	assert(a && root && *root && p && p->n > 0 && why && len > 0);
	why[0] = '\0';
	if (value && ynode_is_null(value))
		value = NULL;
	const struct ynode *out;
	if (set_from(a, *root, p, 0, value, &out, why, len))
		return -1;
	*root = out;
	return 0;
}

const struct ynode *enum_ynode_get(const struct ynode *root,
				   const struct enum_path *p)
{
	const struct ynode *cur = root;
	for (int i = 0; cur && i < p->n; i++) {
		const struct enum_path_seg *s = &p->segs[i];
		if (s->key) {
			if (cur->kind != YNODE_MAP)
				return NULL;
			int k = map_find(cur, s->key);
			cur = k >= 0 ? cur->items[k] : NULL;
		} else {
			if (cur->kind != YNODE_SEQ || s->index >= cur->n)
				return NULL;
			cur = cur->items[s->index];
		}
	}
	return cur;
}

/* ----------------------------------------------------------- comparing */

static bool scalar_equal(const struct ynode *a, const struct ynode *b)
{
	return a->quoted == b->quoted && a->len == b->len &&
	       memcmp(a->str, b->str, a->len) == 0;
}

bool enum_ynode_equal(const struct ynode *a, const struct ynode *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->n != b->n)
		return false;
	if (a->kind == YNODE_SCALAR)
		return scalar_equal(a, b);
	if (a->kind == YNODE_SEQ) {
		for (int i = 0; i < a->n; i++)
			if (!enum_ynode_equal(a->items[i], b->items[i]))
				return false;
		return true;
	}
	for (int i = 0; i < a->n; i++) {
		int j = map_find(b, a->keys[i]->str);
		if (j < 0 || !enum_ynode_equal(a->items[i], b->items[j]))
			return false;
	}
	return true;
}

bool enum_ynode_mentions(const struct ynode *n, const char *s)
{
	if (!n)
		return false;
	if (n->kind == YNODE_SCALAR)
		return strcmp(n->str, s) == 0;
	for (int i = 0; i < n->n; i++) {
		if (n->kind == YNODE_MAP && enum_ynode_mentions(n->keys[i], s))
			return true;
		if (enum_ynode_mentions(n->items[i], s))
			return true;
	}
	return false;
}

/* Does scalar n read as s, as strcmp compares (up to n's first NUL)? */
static bool scalar_is(const struct ynode *n, const char *s, size_t len)
{
	return n->len >= len && n->str[0] == s[0] && n->str[len] == '\0' &&
	       memcmp(n->str, s, len) == 0;
}

static void mentions_any(const struct ynode *n, const char *const *s,
			 const size_t *len, int count, bool *found)
{
	if (!n)
		return;
	if (n->kind == YNODE_SCALAR) {
		for (int k = 0; k < count; k++)
			if (!found[k] && scalar_is(n, s[k], len[k]))
				found[k] = true;
		return;
	}
	for (int i = 0; i < n->n; i++) {
		if (n->kind == YNODE_MAP)
			mentions_any(n->keys[i], s, len, count, found);
		mentions_any(n->items[i], s, len, count, found);
	}
}

void enum_ynode_mentions_any(const struct ynode *n, const char *const *s,
			     int count, bool *found)
{
	assert(count >= 0 && (count == 0 || (s && found)));
	size_t len[count + 1];
	for (int k = 0; k < count; k++)
		len[k] = strlen(s[k]);
	mentions_any(n, s, len, count, found);
}

/* ------------------------------------------------------------ printing */

/* The printer: the text, and (when check) whether the parser
 * (yaml/tree.h) would read the text back as the tree printed.  It would
 * not when the printer changes a scalar: quotes a plain one that
 * needs_quotes (or, as a value, holds ",[]{}"), prints an empty plain one
 * as null.  Beyond those, only the plainly safe is counted as reading
 * back: ASCII text (no UTF-8 line breaks to fold), keys well under the
 * parser's 1024-character implicit keys, no plain "<<" key (a merge key
 * when read), depth and node count far from the parser's limits. */
struct emitter {
	struct strbuf *b;      /* NULL: only the check, no text */
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
}

/* n in double quotes, escaped: runs of plain characters are copied
 * whole. */
static void emit_quoted(struct emitter *e, const struct ynode *n)
{
	if (!e->b)
		return;
	struct strbuf *b = e->b;
	strbuf_add(b, "\"", 1);
	size_t run = 0;
	for (size_t i = 0; i < n->len; i++) {
		unsigned char c = (unsigned char)n->str[i];
		if (c != '"' && c != '\\' && c >= 0x20 && c != 0x7f)
			continue;
		strbuf_add(b, n->str + run, i - run);
		run = i + 1;
		if (c == '"' || c == '\\') {
			char esc[2] = {'\\', (char)c};
			strbuf_add(b, esc, 2);
		} else if (c == '\n') {
			strbuf_add(b, "\\n", 2);
		} else if (c == '\t') {
			strbuf_add(b, "\\t", 2);
		} else {
			static const char hex[] = "0123456789abcdef";
			char esc[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
			strbuf_add(b, esc, 4);
		}
	}
	strbuf_add(b, n->str + run, n->len - run);
	strbuf_add(b, "\"", 1);
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
 * but NUL when quoted (the rest is escaped, at most \xNN for one byte,
 * which bounds the printed length of a key). */
static void check_scanned(struct emitter *e, const struct ynode *n, bool key,
			  bool quote, const struct scalar_scan *r)
{
	e->nodes++;
	bool ascii = !r->odd && (quote || !r->control);
	size_t printed = quote ? n->len + 2 + 3 * r->escapes : n->len;
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

static void indent(struct emitter *e, int depth)
{
	static const char spaces[] = "                                ";
	for (size_t left = 2 * (size_t)depth; left > 0;) {
		size_t k = left < sizeof spaces - 1 ? left : sizeof spaces - 1;
		put(e, spaces, k);
		left -= k;
	}
}

static bool is_empty_container(const struct ynode *n)
{
	return n->kind != YNODE_SCALAR && n->n == 0;
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

static void emit_block(struct emitter *e, const struct ynode *n, int depth,
		       bool inline_first);

/* The value after "key:" or "-": inline when a scalar or empty; a map
 * under "-" starts on the dash's line ("- key: v"). */
static void emit_value(struct emitter *e, const struct ynode *v, int depth,
		       bool dash)
{
	if (v->kind == YNODE_SCALAR || is_empty_container(v)) {
		put(e, " ", 1);
		emit_flow(e, v);
		put(e, "\n", 1);
		return;
	}
	if (dash && v->kind == YNODE_MAP) {
		put(e, " ", 1);
		emit_block(e, v, depth + 1, true);
		return;
	}
	put(e, "\n", 1);
	emit_block(e, v, depth + 1, false);
}

static void emit_block(struct emitter *e, const struct ynode *n, int depth,
		       bool inline_first)
{
	if (n->kind == YNODE_SCALAR || is_empty_container(n)) {
		if (!inline_first)
			indent(e, depth);
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
			indent(e, depth);
		if (n->kind == YNODE_MAP) {
			emit_scalar(e, n->keys[i], true);
			put(e, ":", 1);
		} else {
			put(e, "-", 1);
		}
		emit_value(e, n->items[i], depth, n->kind == YNODE_SEQ);
	}
}

void enum_yaml_emit(struct strbuf *b, const struct ynode *n)
{
	if (!n) {
		strbuf_puts(b, "null\n");
		return;
	}
	struct emitter e = {.b = b};
	emit_block(&e, n, 0, false);
}

bool enum_yaml_emit_exact(struct strbuf *b, const struct ynode *doc,
			  uint64_t *nodes)
{
	assert(nodes);
	if (!doc || doc->kind != YNODE_MAP) {
		if (b)
			enum_yaml_emit(b, doc);
		return false;
	}
	struct emitter e = {.b = b, .check = true, .exact = true, .nodes = *nodes};
	emit_block(&e, doc, 0, false);
	*nodes = e.nodes;
	return e.exact && e.nodes <= YAML_MAX_NODES / 2;
}

void enum_yaml_flow(struct strbuf *b, const struct ynode *n)
{
	struct emitter e = {.b = b};
	emit_flow(&e, n);
}

void enum_ynode_place(struct ynode *n, int line, int col)
{
	if (!n)
		return;
	n->line = line;
	n->col = col;
	for (int i = 0; i < (n->kind == YNODE_SCALAR ? 0 : n->n); i++) {
		enum_ynode_place(n->items[i], line, col);
		if (n->kind == YNODE_MAP)
			enum_ynode_place(n->keys[i], line, col);
	}
}
