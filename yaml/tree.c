/*
 * tree.c - libyaml's event stream built into a tree of positioned nodes
 * (yaml/tree.h), hardened against hostile input.
 *
 * The builder is iterative: an explicit stack of open collections, never
 * deeper than YAML_MAX_DEPTH, so no input can exhaust the C stack.  Aliases
 * share the anchored node.  Every node carries two numbers computed once,
 * when it is complete: its expanded size (nodes after expanding every alias
 * below it) and its height (collection levels below it, aliases expanded).
 * An alias adds the size and height of its target, so an alias bomb is
 * refused by arithmetic before anything is expanded, and a consumer that
 * walks the tree (even recursively, through aliases) sees at most
 * YAML_MAX_NODES nodes and YAML_MAX_DEPTH levels.  Every work item is O(1)
 * or O(n log n) in the input, so refusal comes in bounded time.
 */
#include "tree.h"
#include "../core/fnv.h"
#include "block_events.h"
#include "json_events.h"
#include "../core/xalloc.h"
#include "../core/grow.h"

#include <assert.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>


/* ------------------------------------------------------------ growable vectors */

/* A malloc'd vector of node pointers, used while a collection is open. */
struct nodevec {
	struct ynode **v;
	size_t n, cap;
};

static void nodevec_push(struct nodevec *nv, struct ynode *node)
{
	GROW(nv->v, nv->n + 1, nv->cap);
	nv->v[nv->n++] = node;
}

/* ------------------------------------------------------------------ anchors */

/* One anchor of the current document.  An anchor may be redefined (YAML
 * 1.2, and Go's yaml as kubectl uses it): the latest definition wins, and
 * gen tells an open collection whether its definition is still the latest. */
struct anchor {
	char *name;               /* malloc'd; NULL: empty slot */
	struct ynode *node;
	uint64_t size;            /* expanded size of node */
	int height;               /* collection levels in node, expanded */
	bool complete;            /* false while the anchored collection is open */
	uint64_t gen;             /* definition serial number */
};

/* Open-addressing hash table; the hash is seeded per parse so a crafted
 * file cannot force every anchor into one chain. */
struct anchors {
	struct anchor *slots;
	size_t cap, n;
	uint64_t seed;
	uint64_t next_gen;
};

static uint64_t anchors_hash(const struct anchors *t, const char *s)
{
	uint64_t h = fnv64_str(1469598103934665603ull ^ t->seed, s);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 32);
}

static struct anchor *anchors_slot(const struct anchors *t, const char *name)
{
	size_t mask = t->cap - 1;
	size_t i = (size_t)anchors_hash(t, name) & mask;
	while (t->slots[i].name && strcmp(t->slots[i].name, name) != 0)
		i = (i + 1) & mask;
	return &t->slots[i];
}

static void anchors_grow(struct anchors *t)
{
	struct anchors old = *t;
	t->cap = old.cap ? old.cap * 2 : 64;
	t->slots = calloc(t->cap, sizeof *t->slots);
	if (!t->slots) {
		fprintf(stderr, "kso: out of memory (anchors)\n");
		abort();
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].name)
			*anchors_slot(t, old.slots[i].name) = old.slots[i];
	free(old.slots);
}

static struct anchor *anchors_find(const struct anchors *t, const char *name)
{
	if (t->cap == 0)
		return NULL;
	struct anchor *a = anchors_slot(t, name);
	return a->name ? a : NULL;
}

/* Defines (or redefines) name; returns its entry with a fresh gen. */
static struct anchor *anchors_define(struct anchors *t, const char *name)
{
	if ((t->n + 1) * 2 > t->cap)
		anchors_grow(t);
	struct anchor *a = anchors_slot(t, name);
	if (!a->name) {
		size_t len = strlen(name);
		a->name = xrealloc(NULL, len + 1);
		memcpy(a->name, name, len + 1);
		t->n++;
	}
	a->gen = ++t->next_gen;
	a->complete = false;
	return a;
}

/* Anchors are scoped to one document. */
static void anchors_clear(struct anchors *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].name);
	free(t->slots);
	t->slots = NULL;
	t->cap = t->n = 0;
}

/* ------------------------------------------------------------------ builder */

/* An open collection. */
struct frame {
	struct ynode *node;
	struct nodevec kids;      /* sequence items; map key, value, key, ... */
	uint64_t size;            /* 1 + expanded sizes of the kids so far */
	int height;               /* 1 + tallest kid so far */
	char *anchor;             /* malloc'd anchor name, or NULL */
	uint64_t anchor_gen;
};

struct builder {
	const char *file;
	const unsigned char *input;   /* for locating reader errors */
	size_t input_len;
	struct arena *arena;
	struct error *err;
	int depth;
	int high;                     /* the deepest depth reached: the frames
				       * above it were never written */
	uint64_t total;               /* nodes so far, aliases expanded */
	struct anchors anchors;
	struct nodevec docs;
	struct ynode *root;           /* of the current document */
	int line0, col0;              /* where the input starts in its file
				       * (0-based; col0 on its first line) */
	/* last: a builder is zeroed up to here only - a log's every JSON
	 * value is parsed on its own, and zeroing 200 frames each time was
	 * a twentieth of kso check's time */
	struct frame stack[YAML_MAX_DEPTH];
};

/* The file's 1-based line and column of a position of the input (0-based
 * line and column within the input). */
static int file_line(const struct builder *b, size_t line)
{
	return (int)line + 1 + b->line0;
}

static int file_col(const struct builder *b, size_t line, size_t col)
{
	return (int)col + 1 + (line == 0 ? b->col0 : 0);
}

static int build_error(struct builder *b, const yaml_mark_t *m,
		       const char *what)
{
	return error_at(b->err, b->file, file_line(b, m->line),
			file_col(b, m->line, m->column), NULL, "%s", what);
}

/* A key or anchor name as it may appear inside a one-line message:
 * printable ASCII kept, anything else shown as '?', long names cut. */
static void printable(char *out, size_t cap, const char *s, size_t len)
{
	size_t o = 0;
	assert(cap > 4);
	for (size_t i = 0; i < len && o + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		out[o++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (o + 4 >= cap) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
}

/* Adds n expanded nodes to the running total, refusing past the limit. */
static int count_nodes(struct builder *b, uint64_t n, const yaml_mark_t *m,
		       bool alias)
{
	b->total += n;
	if (b->total <= YAML_MAX_NODES)
		return 0;
	return build_error(b, m, alias ? "too many nodes (alias expansion)"
				       : "too many nodes (more than 2000000)");
}

static struct ynode *new_node(struct builder *b, enum ynode_kind kind,
			      const yaml_mark_t *m)
{
	struct ynode *n = arena_alloc(b->arena, sizeof *n);
	n->kind = kind;
	n->line = file_line(b, m->line);
	n->col = file_col(b, m->line, m->column);
	n->str = "";
	return n;
}

/* Hangs a complete node (its expanded size and height given) under the
 * open collection, or makes it the document root.  line/col is where the
 * node (or the alias standing for it) appears, for messages. */
static int attach(struct builder *b, struct ynode *node, uint64_t size,
		  int height, int line, int col)
{
	if (b->depth == 0) {
		b->root = node;
		return 0;
	}
	struct frame *f = &b->stack[b->depth - 1];
	bool is_key = f->node->kind == YNODE_MAP && f->kids.n % 2 == 0;
	if (is_key && node->kind != YNODE_SCALAR)
		return error_at(b->err, b->file, line, col, NULL,
				"map key must be a scalar");
	nodevec_push(&f->kids, node);
	f->size += size;
	if (height + 1 > f->height)
		f->height = height + 1;
	return 0;
}

static bool is_string_tag(const yaml_char_t *tag)
{
	return tag && (strcmp((const char *)tag, "!") == 0 ||
		       strcmp((const char *)tag, "tag:yaml.org,2002:str") == 0);
}

/* Records a complete anchored node, unless a later definition of the
 * same name has replaced this one meanwhile. */
static void anchor_complete(struct builder *b, const char *name, uint64_t gen,
			    struct ynode *node, uint64_t size, int height)
{
	struct anchor *a = anchors_find(&b->anchors, name);
	if (!a || a->gen != gen)
		return;
	a->node = node;
	a->size = size;
	a->height = height;
	a->complete = true;
}

static int on_scalar(struct builder *b, const yaml_event_t *ev)
{
	const yaml_mark_t *m = &ev->start_mark;
	if (ev->data.scalar.length > YAML_MAX_SCALAR)
		return build_error(b, m, "scalar longer than 1048576 bytes");
	if (count_nodes(b, 1, m, false))
		return -1;
	struct ynode *n = new_node(b, YNODE_SCALAR, m);
	n->len = ev->data.scalar.length;
	n->str = arena_strndup(b->arena, (const char *)ev->data.scalar.value,
			       n->len);
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
		    is_string_tag(ev->data.scalar.tag);
	if (ev->data.scalar.anchor) {
		const char *name = (const char *)ev->data.scalar.anchor;
		struct anchor *a = anchors_define(&b->anchors, name);
		anchor_complete(b, name, a->gen, n, 1, 0);
	}
	return attach(b, n, 1, 0, n->line, n->col);
}

static int on_collection_start(struct builder *b, const yaml_event_t *ev,
			       enum ynode_kind kind)
{
	const yaml_mark_t *m = &ev->start_mark;
	if (b->depth >= YAML_MAX_DEPTH)
		return build_error(b, m, "nesting deeper than 200 levels");
	if (count_nodes(b, 1, m, false))
		return -1;
	const yaml_char_t *anchor = kind == YNODE_MAP
		? ev->data.mapping_start.anchor
		: ev->data.sequence_start.anchor;
	struct frame *f = &b->stack[b->depth++];
	if (b->depth > b->high)
		b->high = b->depth;
	memset(f, 0, sizeof *f);
	f->node = new_node(b, kind, m);
	f->size = 1;
	f->height = 1;
	if (anchor) {
		struct anchor *a = anchors_define(&b->anchors,
						  (const char *)anchor);
		f->anchor = xrealloc(NULL, strlen(a->name) + 1);
		strcpy(f->anchor, a->name);
		f->anchor_gen = a->gen;
	}
	return 0;
}

/* Orders map keys by their bytes, then by position. */
struct keyref {
	const struct ynode *key;
	size_t index;
};

static int keyref_cmp(const void *pa, const void *pb)
{
	const struct keyref *a = pa, *b = pb;
	size_t n = a->key->len < b->key->len ? a->key->len : b->key->len;
	int c = memcmp(a->key->str, b->key->str, n);
	if (c)
		return c;
	if (a->key->len != b->key->len)
		return a->key->len < b->key->len ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

static bool same_key(const struct ynode *a, const struct ynode *b)
{
	return a->len == b->len && memcmp(a->str, b->str, a->len) == 0;
}

/* The first key (in document order) that repeats an earlier one, or -1.
 * Sorting keeps this O(n log n) whatever the keys are. */
static long first_duplicate(struct ynode *const *keys, size_t n)
{
	if (n <= 16) {
		for (size_t j = 1; j < n; j++)
			for (size_t i = 0; i < j; i++)
				if (same_key(keys[i], keys[j]))
					return (long)j;
		return -1;
	}
	struct keyref *refs = xrealloc(NULL, n * sizeof *refs);
	for (size_t i = 0; i < n; i++)
		refs[i] = (struct keyref){keys[i], i};
	qsort(refs, n, sizeof *refs, keyref_cmp);
	long best = -1;
	for (size_t i = 1; i < n; i++)
		if (same_key(refs[i - 1].key, refs[i].key) &&
		    (best < 0 || refs[i].index < (size_t)best))
			best = (long)refs[i].index;
	free(refs);
	return best;
}

/* YAML 1.1 merge keys, as Go's yaml (and so kubectl) accepts them: a plain
 * "<<" key whose value is a map, or a sequence of maps, lends those maps'
 * keys to the enclosing map.  Keys written in the map win over merged
 * ones, and earlier merged maps win over later ones.  The merged nodes
 * were already counted (they arrive through aliases or are written out),
 * so the limits still hold. */
static bool is_merge_key(const struct ynode *k)
{
	return !k->quoted && k->len == 2 && memcmp(k->str, "<<", 2) == 0;
}

/* Checks one merge value; adds its key count to *total. */
static int merge_source_count(struct builder *b, const struct ynode *v,
			      size_t *total)
{
	if (v->kind == YNODE_MAP) {
		*total += (size_t)v->n;
		return 0;
	}
	if (v->kind == YNODE_SEQ) {
		for (int i = 0; i < v->n; i++) {
			if (v->items[i]->kind != YNODE_MAP)
				return error_at(b->err, b->file,
						v->items[i]->line,
						v->items[i]->col, NULL,
						"merge value must be a map or a "
						"sequence of maps");
			*total += (size_t)v->items[i]->n;
		}
		return 0;
	}
	return error_at(b->err, b->file, v->line, v->col, NULL,
			"merge value must be a map or a sequence of maps");
}

/* Candidate keys in order of precedence. */
struct merged {
	struct ynode **keys, **items;
	size_t n;
};

static void merged_add_map(struct merged *m, const struct ynode *src)
{
	for (int i = 0; i < src->n; i++) {
		m->keys[m->n] = src->keys[i];
		m->items[m->n++] = src->items[i];
	}
}

/* Keeps the first candidate of each key (sorting: O(n log n)), in
 * precedence order, as the node's keys. */
static void merged_commit(struct builder *b, struct merged *m,
			  struct ynode *node)
{
	struct keyref *refs = xrealloc(NULL, (m->n ? m->n : 1) * sizeof *refs);
	bool *keep = xrealloc(NULL, m->n ? m->n : 1);
	for (size_t i = 0; i < m->n; i++) {
		refs[i] = (struct keyref){m->keys[i], i};
		keep[i] = false;
	}
	qsort(refs, m->n, sizeof *refs, keyref_cmp);
	for (size_t i = 0; i < m->n; i++)
		if (i == 0 || !same_key(refs[i - 1].key, refs[i].key))
			keep[refs[i].index] = true;
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		n += keep[i];
	node->keys = arena_array(b->arena, n, sizeof *node->keys);
	node->items = arena_array(b->arena, n, sizeof *node->items);
	node->n = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (!keep[i])
			continue;
		node->keys[node->n] = m->keys[i];
		node->items[node->n++] = m->items[i];
	}
	free(refs);
	free(keep);
}

static int apply_merges(struct builder *b, struct ynode *node)
{
	size_t total = 0;
	bool any = false;
	for (int i = 0; i < node->n; i++) {
		if (!is_merge_key(node->keys[i])) {
			total++;
			continue;
		}
		any = true;
		if (merge_source_count(b, node->items[i], &total))
			return -1;
	}
	if (!any)
		return 0;
	struct merged m = {
		xrealloc(NULL, (total ? total : 1) * sizeof *m.keys),
		xrealloc(NULL, (total ? total : 1) * sizeof *m.items), 0};
	for (int i = 0; i < node->n; i++) {
		if (is_merge_key(node->keys[i]))
			continue;
		m.keys[m.n] = node->keys[i];
		m.items[m.n++] = node->items[i];
	}
	for (int i = 0; i < node->n; i++) {
		const struct ynode *v = node->items[i];
		if (!is_merge_key(node->keys[i]))
			continue;
		if (v->kind == YNODE_MAP)
			merged_add_map(&m, v);
		else
			for (int j = 0; j < v->n; j++)
				merged_add_map(&m, v->items[j]);
	}
	merged_commit(b, &m, node);
	free(m.keys);
	free(m.items);
	return 0;
}

/* Moves the collected kids into the node, in the arena. */
static int finish_collection(struct builder *b, struct frame *f)
{
	struct ynode *node = f->node;
	struct ynode **kids = f->kids.v;
	size_t n = f->kids.n;
	if (node->kind == YNODE_SEQ) {
		node->items = arena_memdup(b->arena, kids, n * sizeof *kids);
		node->n = (int)n;
		return 0;
	}
	assert(n % 2 == 0);
	n /= 2;
	node->keys = arena_array(b->arena, n, sizeof *node->keys);
	node->items = arena_array(b->arena, n, sizeof *node->items);
	for (size_t i = 0; i < n; i++) {
		node->keys[i] = kids[2 * i];
		node->items[i] = kids[2 * i + 1];
	}
	node->n = (int)n;
	long dup = first_duplicate(node->keys, n);
	if (dup < 0)
		return apply_merges(b, node);
	const struct ynode *k = node->keys[dup];
	char name[80];
	printable(name, sizeof name, k->str, k->len);
	return error_at(b->err, b->file, k->line, k->col, NULL,
			"duplicate key '%s'", name);
}

static void frame_free(struct frame *f)
{
	free(f->kids.v);
	free(f->anchor);
	memset(f, 0, sizeof *f);
}

static int on_collection_end(struct builder *b)
{
	assert(b->depth > 0);
	struct frame f = b->stack[--b->depth];
	memset(&b->stack[b->depth], 0, sizeof f);
	int rc = finish_collection(b, &f);
	if (rc == 0 && f.anchor)
		anchor_complete(b, f.anchor, f.anchor_gen, f.node, f.size,
				f.height);
	if (rc == 0)
		rc = attach(b, f.node, f.size, f.height, f.node->line,
			    f.node->col);
	frame_free(&f);
	return rc;
}

static int on_alias(struct builder *b, const yaml_event_t *ev)
{
	const yaml_mark_t *m = &ev->start_mark;
	const char *name = (const char *)ev->data.alias.anchor;
	struct anchor *a = anchors_find(&b->anchors, name);
	char shown[80];
	printable(shown, sizeof shown, name, strlen(name));
	if (!a)
		return error_at(b->err, b->file, file_line(b, m->line),
				file_col(b, m->line, m->column), NULL,
				"undefined alias '*%s'", shown);
	if (!a->complete)
		return error_at(b->err, b->file, file_line(b, m->line),
				file_col(b, m->line, m->column), NULL,
				"alias '*%s' refers to a node that contains it",
				shown);
	if (b->depth + a->height > YAML_MAX_DEPTH)
		return build_error(b, m, "nesting deeper than 200 levels "
				       "(alias expansion)");
	if (count_nodes(b, a->size, m, true))
		return -1;
	return attach(b, a->node, a->size, a->height, file_line(b, m->line),
		      file_col(b, m->line, m->column));
}

static void on_document_start(struct builder *b)
{
	anchors_clear(&b->anchors);
	b->root = NULL;
}

/* An empty document ("---" alone) has an empty plain scalar as its root;
 * tree.h promises NULL for it. */
static void on_document_end(struct builder *b)
{
	struct ynode *r = b->root;
	if (r && r->kind == YNODE_SCALAR && r->len == 0 && !r->quoted)
		r = NULL;
	nodevec_push(&b->docs, r);
	anchors_clear(&b->anchors);
}

static int on_event(struct builder *b, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
		on_document_start(b);
		return 0;
	case YAML_DOCUMENT_END_EVENT:
		on_document_end(b);
		return 0;
	case YAML_SCALAR_EVENT:
		return on_scalar(b, ev);
	case YAML_SEQUENCE_START_EVENT:
		return on_collection_start(b, ev, YNODE_SEQ);
	case YAML_MAPPING_START_EVENT:
		return on_collection_start(b, ev, YNODE_MAP);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_collection_end(b);
	case YAML_ALIAS_EVENT:
		return on_alias(b, ev);
	default:
		return 0;
	}
}

/* ------------------------------------------------------------ libyaml errors */

/* Line and column (1-based, columns in characters) of a byte offset, for
 * reader errors, which libyaml reports as an offset only.  CRLF is one
 * line break, as libyaml counts it. */
static void offset_position(const unsigned char *s, size_t len, size_t off,
			    int *line, int *col)
{
	size_t i = 0;
	*line = 1;
	*col = 1;
	if (off > len)
		off = len;
	if (len >= 3 && s[0] == 0xEF && s[1] == 0xBB && s[2] == 0xBF && off >= 3)
		i = 3;
	for (; i < off; i++) {
		if (s[i] == '\r' && i + 1 < off && s[i + 1] == '\n')
			continue;
		if (s[i] == '\n' || s[i] == '\r') {
			(*line)++;
			*col = 1;
		} else if ((s[i] & 0xC0) != 0x80) {
			(*col)++;
		}
	}
}

static int libyaml_error(struct builder *b, const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "invalid YAML";
	if (p->error == YAML_READER_ERROR) {
		int l, c;
		offset_position(b->input, b->input_len, p->problem_offset, &l, &c);
		int line = file_line(b, (size_t)l - 1);
		int col = file_col(b, (size_t)l - 1, (size_t)c - 1);
		if (p->problem_value >= 0)
			return error_at(b->err, b->file, line, col, NULL,
					"invalid text: %s (#%X)", problem,
					(unsigned)p->problem_value);
		return error_at(b->err, b->file, line, col, NULL,
				"invalid text: %s", problem);
	}
	if (p->error == YAML_MEMORY_ERROR)
		return error_at(b->err, b->file, 1, 1, NULL,
				"out of memory parsing YAML");
	const yaml_mark_t *m = &p->problem_mark;
	if (p->context)
		return error_at(b->err, b->file, file_line(b, m->line),
				file_col(b, m->line, m->column), NULL,
				"YAML syntax error: %s (%s)", problem,
				p->context);
	return error_at(b->err, b->file, file_line(b, m->line),
			file_col(b, m->line, m->column), NULL,
			"YAML syntax error: %s", problem);
}

/* ------------------------------------------------------------------ parsing */

static void builder_release(struct builder *b)
{
	for (int i = 0; i < b->high; i++)
		frame_free(&b->stack[i]);
	anchors_clear(&b->anchors);
	free(b->docs.v);
}

/* Feeds every event to the builder; stops at the first error. */
static int build_events(struct builder *b, yaml_parser_t *p)
{
	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(p, &ev))
			return libyaml_error(b, p);
		int rc = on_event(b, &ev);
		bool done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
		if (rc)
			return rc;
		if (done)
			return 0;
	}
}

/* The JSON scanner's events into the builder (json_events.h). */
static int json_event(void *ctx, const yaml_event_t *ev)
{
	return on_event(ctx, ev);
}

/* Back to an empty builder, after the JSON scanner gave up. */
static void builder_reset(struct builder *b)
{
	builder_release(b);
	memset(&b->docs, 0, sizeof b->docs);
	b->depth = 0;
	b->total = 0;
	b->root = NULL;
}

/* A JSON text through the JSON scanner and block YAML of the common
 * kind through the block scanner (unless libyaml_only), anything else
 * (or text neither takes) through libyaml. */
static int build(struct builder *b, size_t len, bool libyaml_only)
{
	if (!libyaml_only) {
		int rc = yaml_json_events(b->input, len, json_event, b);
		if (rc <= 0)
			return rc;
		builder_reset(b);
		rc = yaml_block_events(b->input, len, json_event, b);
		if (rc <= 0)
			return rc;
		builder_reset(b);
	}
	int rc;
	yaml_parser_t p;
	if (!yaml_parser_initialize(&p))
		return error_plain(b->err, "%s: cannot initialise libyaml", b->file);
	yaml_parser_set_input_string(&p, b->input, len);
	rc = build_events(b, &p);
	yaml_parser_delete(&p);
	return rc;
}

static int parse(const char *name, const unsigned char *buf, size_t len,
		 int line, int col, struct arena *arena, struct ydoc_set *set,
		 struct error *err, bool libyaml_only);

int yaml_parse_buffer(const char *name, const unsigned char *buf, size_t len,
		      struct arena *arena, struct ydoc_set *set,
		      struct error *err)
{
	return yaml_parse_buffer_at(name, buf, len, 1, 1, arena, set, err);
}

int yaml_parse_buffer_at(const char *name, const unsigned char *buf,
			 size_t len, int line, int col, struct arena *arena,
			 struct ydoc_set *set, struct error *err)
{
	return parse(name, buf, len, line, col, arena, set, err, false);
}

int yaml_parse_buffer_yaml(const char *name, const unsigned char *buf,
			   size_t len, int line, int col, struct arena *arena,
			   struct ydoc_set *set, struct error *err)
{
	return parse(name, buf, len, line, col, arena, set, err, true);
}

static int parse(const char *name, const unsigned char *buf, size_t len,
		 int line, int col, struct arena *arena, struct ydoc_set *set,
		 struct error *err, bool libyaml_only)
{
	assert(name && (buf || len == 0) && arena && set && err);
	assert(line >= 1 && col >= 1);
	static const unsigned char empty[1];
	struct builder *b = malloc(sizeof *b);
	if (!b) {
		fprintf(stderr, "kso: out of memory\n");
		abort();
	}
	memset(b, 0, offsetof(struct builder, stack));
	b->file = arena_strdup(arena, name);
	b->input = buf ? buf : empty;
	b->input_len = len;
	b->arena = arena;
	b->err = err;
	b->anchors.seed = (uint64_t)(uintptr_t)b ^ ((uint64_t)len << 17);
	b->line0 = line - 1;
	b->col0 = col - 1;

	int rc = build(b, len, libyaml_only);
	if (rc == 0) {
		set->file = b->file;
		set->n_docs = (int)b->docs.n;
		set->docs = arena_memdup(arena, b->docs.v,
					 b->docs.n * sizeof *b->docs.v);
	}
	builder_release(b);
	free(b);
	return rc ? -1 : 0;
}

/* Reads all of f, refusing more than max bytes (reading one byte past
 * the cap is how we know). */
static int read_all(FILE *f, const char *name, size_t max, unsigned char **out,
		    size_t *out_len, struct error *err)
{
	const size_t limit = max + 1;
	size_t cap = 64 * 1024, n = 0;
	unsigned char *buf = xrealloc(NULL, cap);
	for (;;) {
		if (n == cap) {
			if (cap == limit)
				break;
			cap = cap * 2 < limit ? cap * 2 : limit;
			buf = xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(f)) {
		int e = errno;
		free(buf);
		return error_plain(err, "%s: cannot read: %s", name,
				   strerror(e ? e : EIO));
	}
	if (n > max) {
		free(buf);
		return error_plain(err, "%s: file too large (more than %zu MiB)",
				   name, max >> 20);
	}
	*out = buf;
	*out_len = n;
	return 0;
}

int yaml_read_file(const char *path, size_t max, unsigned char **out,
		   size_t *len, struct error *err)
{
	assert(path && out && len && err);
	bool is_stdin = strcmp(path, "-") == 0;
	const char *name = is_stdin ? "<stdin>" : path;
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		/* a signal while a FIFO's open blocks: kso stopped, the input
		 * is not at fault */
		err->incomplete = errno == EINTR;
		return error_plain(err, "%s: cannot open: %s", name,
				   strerror(errno));
	}
	errno = 0;
	int rc = read_all(f, name, max, out, len, err);
	if (!is_stdin)
		fclose(f);
	return rc;
}

int yaml_parse_file(const char *path, struct arena *arena,
		    struct ydoc_set *set, struct error *err)
{
	assert(path && arena && set && err);
	const char *name = strcmp(path, "-") == 0 ? "<stdin>" : path;
	unsigned char *buf = NULL;
	size_t len = 0;
	if (yaml_read_file(path, YAML_MAX_FILE, &buf, &len, err) < 0)
		return -1;
	int rc = yaml_parse_buffer(name, buf, len, arena, set, err);
	free(buf);
	return rc;
}

/* ------------------------------------------------------------------ queries */

const struct ynode *ynode_get_len(const struct ynode *m, const char *key,
				 size_t len)
{
	assert(key);
	if (!m || m->kind != YNODE_MAP)
		return NULL;
	for (int i = 0; i < m->n; i++) {
		const struct ynode *k = m->keys[i];
		if (k->len != len)
			continue;
		/* the first byte first: most keys of one length differ there */
		if (len && (k->str[0] != key[0] ||
			    memcmp(k->str + 1, key + 1, len - 1) != 0))
			continue;
		return m->items[i];
	}
	return NULL;
}


/* ynode_identical and ynode_same: positions compared or not. */
static bool same_tree(const struct ynode *a, const struct ynode *b,
		      bool positions)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->n != b->n ||
	    (positions && (a->line != b->line || a->col != b->col)))
		return false;
	if (a->kind == YNODE_SCALAR)
		return a->len == b->len && a->quoted == b->quoted &&
		       !memcmp(a->str, b->str, a->len);
	for (int i = 0; i < a->n; i++)
		if ((a->kind == YNODE_MAP &&
		     !same_tree(a->keys[i], b->keys[i], positions)) ||
		    !same_tree(a->items[i], b->items[i], positions))
			return false;
	return true;
}

struct ynode *ynode_scalar(struct arena *a, const char *s, bool quoted)
{
	assert(a && s);
	struct ynode *n = arena_alloc(a, sizeof *n);
	n->kind = YNODE_SCALAR;
	n->len = strlen(s);
	n->str = arena_strndup(a, s, n->len);
	n->quoted = quoted;
	return n;
}

bool ynode_identical(const struct ynode *a, const struct ynode *b)
{
	return same_tree(a, b, true);
}

bool ynode_same(const struct ynode *a, const struct ynode *b)
{
	return same_tree(a, b, false);
}
