/*
 * ytree.c - editing YAML trees for the enumerator (see ytree.h): the
 * `vary` dimensions of a universe (README "Universes: what kso enum
 * enumerates") are copy-on-write edits of the manifests' trees.  Every
 * scenario is printed back to YAML for the store by kso's one YAML
 * writer (yaml/emit.h), which also tells whether the text would read
 * back as the trees (then they are decoded directly).
 */
#include "ytree.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	struct ynode *k = ynode_scalar(a, key, false);
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
