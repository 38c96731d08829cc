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
#define fputs(s, f) fwrite_unlocked((s), 1, strlen(s), (f))

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

static void json_newline(struct json_out *j)
{
	if (j->compact)
		return;
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

/* Separator and indentation before a value or a key. */
static void json_before(struct json_out *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth == 0)
		return;
	if (!j->first[j->depth])
		fputc(',', j->f);
	j->first[j->depth] = false;
	json_newline(j);
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
	json_before(j);
	fputc(c, j->f);
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
	if (!empty)
		json_newline(j);
	fputc(c, j->f);
}

void json_begin_object(struct json_out *j) { json_open(j, '{'); }
void json_end_object(struct json_out *j) { json_close(j, '}'); }
void json_begin_array(struct json_out *j) { json_open(j, '['); }
void json_end_array(struct json_out *j) { json_close(j, ']'); }

/* A string as JSON: runs of characters that need no escape are written
 * with one fwrite (a request carries thousands of keys and names; one
 * stdio call per character was most of kso's cost per request). */
static void json_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	const unsigned char *p = (const unsigned char *)s, *run = p;
	for (;; p++) {
		unsigned char ch = *p;
		if (ch >= 0x20 && ch != '"' && ch != '\\')
			continue;
		if (p > run)
			fwrite(run, 1, (size_t)(p - run), f);
		run = p + 1;
		switch (ch) {
		case '\0': fputc('"', f); return;
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default: fprintf(f, "\\u%04x", ch);
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
	json_before(j);
	json_escaped(j->f, key);
	fputs(j->compact ? ":" : ": ", j->f);
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
	json_before(j);
	json_escaped(j->f, s ? s : "");
}

void json_int(struct json_out *j, int64_t v)
{
	if (j->yaml) {
		char num[24];
		snprintf(num, sizeof num, "%" PRId64, v);
		yaml_add(j, ynode_scalar(j->arena, num, false));
		return;
	}
	json_before(j);
	char buf[24], *p = buf + sizeof buf;
	/* digits from the magnitude as unsigned, so INT64_MIN works */
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--p = '-';
	fwrite(p, 1, (size_t)(buf + sizeof buf - p), j->f);
}

void json_bool(struct json_out *j, bool v)
{
	if (j->yaml) {
		yaml_add(j, ynode_scalar(j->arena, v ? "true" : "false", false));
		return;
	}
	json_before(j);
	fputs(v ? "true" : "false", j->f);
}

void json_null(struct json_out *j)
{
	if (j->yaml) {
		yaml_add(j, ynode_scalar(j->arena, "null", false));
		return;
	}
	json_before(j);
	fputs("null", j->f);
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
	fputc('\n', j->f);
}
