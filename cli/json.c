/*
 * json.c - streaming JSON writer (see json.h).  Strings are escaped per
 * RFC 8259; bytes >= 0x80 are passed through (input is UTF-8).  In YAML
 * mode the values become a YAML tree for yaml/emit.h, which prints it.
 */
#include "json.h"

#include <assert.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/fnv.h"
#include "../core/xalloc.h"
#include "../yaml/emit.h"

/* One writer owns its FILE (a memstream for a request, stdout for a
 * report): the stdio calls need not take the stream's lock each time. */
#define fputc fputc_unlocked
#define fwrite fwrite_unlocked

void json_init(struct json_out *j, FILE *f, bool compact)
{
	assert(j && f);
	memset(j, 0, offsetof(struct json_out, first));
	j->f = f;
	j->depth = 0;
	j->first[0] = true;
	j->after_key = false;
	j->compact = compact;
}

/* ------------------------------------------------------------ YAML mode */

/* Map keys repeat (every node's "name", "score", ...): a writer shares
 * its key scalars through a direct-mapped table of this many slots, the
 * last key seen in each, so that a big -o yaml does not hold one key
 * scalar per entry. */
#define YAML_KEY_SLOTS 64

void json_init_yaml(struct json_out *j, FILE *f)
{
	json_init(j, f, false);
	j->yaml = true;
	j->arena = xmalloc(sizeof *j->arena);
	arena_init(j->arena);
	j->keys_seen = arena_array(j->arena, YAML_KEY_SLOTS,
				   sizeof *j->keys_seen);
}

void json_init_yaml_quoted(struct json_out *j, FILE *f)
{
	json_init_yaml(j, f);
	j->yaml_quote = true;
}

void json_init_tree(struct json_out *j, FILE *f,
		    void (*print)(FILE *f, const struct ynode *root, void *ctx),
		    void *ctx)
{
	assert(print);
	json_init_yaml(j, f);
	j->print = print;
	j->print_ctx = ctx;
}

/* Can s be written plain and read back as this string?  Not a word
 * YAML 1.1 reads as a boolean or null, nor "<<", which as a key is a
 * merge. */
static bool yaml_plain(const char *s)
{
	static const char *const words[] = {
		"true", "True", "TRUE", "false", "False", "FALSE", "null", "Null",
		"NULL", "yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON",
		"off", "Off", "OFF", "y", "Y", "n", "N", "~", "", "<<"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		if (!strcmp(s, words[i]))
			return false;
	if (strchr("-?:,[]{}#&*!|>'\"%@` .0123456789+", s[0]))
		return false;   /* an indicator, or what may read as a number */
	size_t n = strlen(s);
	if (s[n - 1] == ' ' || s[n - 1] == ':')
		return false;
	for (const char *p = s; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c < 0x20 || c == 0x7f || c >= 0x80 || strchr("#{}[],&*!|>'\"%@`", c))
			return false;
		if (c == ':' && p[1] == ' ')
			return false;
	}
	return true;
}

/* The key scalar of key: the table's when it holds the same text. */
static struct ynode *yaml_key(struct json_out *j, const char *key)
{
	size_t slot = fnv64_str(FNV64_OFFSET, key) % YAML_KEY_SLOTS;
	struct ynode *k = j->keys_seen[slot];
	if (!k || strcmp(k->str, key) != 0) {
		k = ynode_scalar(j->arena, key, !yaml_plain(key));
		j->keys_seen[slot] = k;
	}
	return k;
}

/* n where the writer stands: the root, or the next entry of the
 * innermost open container (under the pending key in a map).  The
 * container's arrays double when full (arena memory: the old ones stay,
 * at most as much again). */
static void yaml_add(struct json_out *j, struct ynode *n)
{
	if (j->depth == 0) {
		assert(!j->root);
		j->root = n;
		return;
	}
	struct ynode *p = j->open[j->depth];
	bool map = p->kind == YNODE_MAP;
	assert(!map == !j->key);
	if (p->n == j->room[j->depth]) {
		int room = p->n ? 2 * p->n : 4;
		struct ynode **items = arena_array(j->arena, (size_t)room,
						   sizeof *items);
		if (p->n)
			memcpy(items, p->items, sizeof *items * (size_t)p->n);
		p->items = items;
		if (map) {
			struct ynode **keys = arena_array(j->arena, (size_t)room,
							  sizeof *keys);
			if (p->n)
				memcpy(keys, p->keys, sizeof *keys * (size_t)p->n);
			p->keys = keys;
		}
		j->room[j->depth] = room;
	}
	if (map)
		p->keys[p->n] = j->key;
	p->items[p->n++] = n;
	j->key = NULL;
}

/*
 * What goes before a value and the value's text are gathered in a small
 * buffer and written with one stdio call (a long -o json writes a few
 * million values: a call per separator, indentation level and escaped
 * run was most of the writer's cost).
 */
struct json_buf {
	struct json_out *j;
	size_t n;
	char b[256];
};

/* (b is not cleared: a few hundred bytes a value) */
static void buf_start(struct json_buf *o, struct json_out *j)
{
	o->j = j;
	o->n = 0;
}

/* s[0..n) to the writer's file, through its own buffer when it has one
 * (json_buffered). */
static void out_write(struct json_out *j, const char *s, size_t n)
{
	if (!j->out) {
		fwrite(s, 1, n, j->f);
		return;
	}
	if (j->out_n + n > JSON_OUT_BUFFER) {
		fwrite(j->out, 1, j->out_n, j->f);
		j->out_n = 0;
		if (n > JSON_OUT_BUFFER) {
			fwrite(s, 1, n, j->f);
			return;
		}
	}
	memcpy(j->out + j->out_n, s, n);
	j->out_n += n;
}

static void buf_flush(struct json_buf *o)
{
	if (o->n)
		out_write(o->j, o->b, o->n);
	o->n = 0;
}

static void buf_add(struct json_buf *o, const char *s, size_t n)
{
	if (o->n + n > sizeof o->b) {
		buf_flush(o);
		if (n > sizeof o->b) {
			out_write(o->j, s, n);
			return;
		}
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

void json_buffered(struct json_out *j)
{
	assert(j);
	if (!j->yaml && !j->out)
		j->out = xmalloc(JSON_OUT_BUFFER);
}

/* A newline and two spaces per open container. */
static void json_newline(struct json_out *j, struct json_buf *o)
{
	static const char indent[] = "\n"
		"                                                                "
		"                                                                ";
	_Static_assert(sizeof indent == 2 + 2 * JSON_MAX_DEPTH,
		       "room for every level");
	if (j->compact)
		return;
	buf_add(o, indent, 1 + 2 * (size_t)j->depth);
}

/* Separator and indentation before a value or a key, into o. */
static void json_before_buf(struct json_out *j, struct json_buf *o)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->first[j->depth])
		buf_add(o, ",", 1);
	j->first[j->depth] = false;
	json_newline(j, o);
}

static void json_open(struct json_out *j, char c)
{
	if (j->yaml) {
		struct ynode *n = arena_alloc(j->arena, sizeof *n);
		n->kind = c == '{' ? YNODE_MAP : YNODE_SEQ;
		yaml_add(j, n);
		assert(j->depth + 1 < JSON_MAX_DEPTH);
		j->open[++j->depth] = n;
		j->room[j->depth] = 0;
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	buf_add(&o, &c, 1);
	buf_flush(&o);
	assert(j->depth + 1 < JSON_MAX_DEPTH);
	j->depth++;
	j->first[j->depth] = true;
}

static void json_close(struct json_out *j, char c)
{
	assert(j->depth > 0);
	if (j->yaml) {
		j->depth--;
		return;
	}
	bool empty = j->first[j->depth];
	j->depth--;
	struct json_buf o;
	buf_start(&o, j);
	if (!empty)
		json_newline(j, &o);
	buf_add(&o, &c, 1);
	buf_flush(&o);
}

void json_begin_object(struct json_out *j) { json_open(j, '{'); }
void json_end_object(struct json_out *j) { json_close(j, '}'); }
void json_begin_array(struct json_out *j) { json_open(j, '['); }
void json_end_array(struct json_out *j) { json_close(j, ']'); }

/* A string as JSON into o: runs of characters that need no escape are
 * copied whole. */
static void json_escaped(struct json_buf *o, const char *s)
{
	buf_add(o, "\"", 1);
	const unsigned char *p = (const unsigned char *)s, *run = p;
	for (;; p++) {
		unsigned char ch = *p;
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		if (p > run)
			buf_add(o, (const char *)run, (size_t)(p - run));
		run = p + 1;
		char u[8];
		switch (ch) {
		case '\0': buf_add(o, "\"", 1); return;
		case '"': buf_add(o, "\\\"", 2); break;
		case '\\': buf_add(o, "\\\\", 2); break;
		case '\n': buf_add(o, "\\n", 2); break;
		case '\r': buf_add(o, "\\r", 2); break;
		case '\t': buf_add(o, "\\t", 2); break;
		case '\b': buf_add(o, "\\b", 2); break;
		case '\f': buf_add(o, "\\f", 2); break;
		default:
			snprintf(u, sizeof u, "\\u%04x", ch);
			buf_add(o, u, 6);
		}
	}
}

void json_key(struct json_out *j, const char *key)
{
	assert(key);
	if (j->yaml) {
		j->key = yaml_key(j, key);
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	json_escaped(&o, key);
	buf_add(&o, j->compact ? ":" : ": ", j->compact ? 1 : 2);
	buf_flush(&o);
	j->after_key = true;
}

void json_string(struct json_out *j, const char *s)
{
	if (j->yaml) {
		s = s ? s : "";
		/* quoted unless plain text reads back as this string */
		bool quoted = j->yaml_quote || !yaml_plain(s);
		yaml_add(j, ynode_scalar(j->arena, s, quoted));
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	json_escaped(&o, s ? s : "");
	buf_flush(&o);
}

void json_int(struct json_out *j, int64_t v)
{
	if (j->yaml) {
		char num[24];
		snprintf(num, sizeof num, "%" PRId64, v);
		yaml_add(j, ynode_scalar(j->arena, num, false));
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	char buf[24], *p = buf + sizeof buf;
	/* digits from the magnitude as unsigned, so INT64_MIN works */
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	buf_add(&o, p, (size_t)(buf + sizeof buf - p));
	buf_flush(&o);
}

void json_bool(struct json_out *j, bool v)
{
	if (j->yaml) {
		yaml_add(j, ynode_scalar(j->arena, v ? "true" : "false", false));
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	buf_add(&o, v ? "true" : "false", v ? 4 : 5);
	buf_flush(&o);
}

void json_null(struct json_out *j)
{
	if (j->yaml) {
		yaml_add(j, ynode_scalar(j->arena, "null", false));
		return;
	}
	struct json_buf o;
	buf_start(&o, j);
	json_before_buf(j, &o);
	buf_add(&o, "null", 4);
	buf_flush(&o);
}

void json_end(struct json_out *j)
{
	assert(j->depth == 0);
	if (j->yaml) {
		if (j->print)
			j->print(j->f, j->root, j->print_ctx);
		else if (j->root)
			yaml_emit_file(j->f, j->root);
		arena_release(j->arena);
		free(j->arena);
		j->arena = NULL;
		j->root = NULL;
		j->key = NULL;
		return;
	}
	out_write(j, "\n", 1);
	if (j->out) {
		fwrite(j->out, 1, j->out_n, j->f);
		free(j->out);
		j->out = NULL;
		j->out_n = 0;
	}
}
