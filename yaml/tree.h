/*
 * tree.h - a YAML document as a tree of positioned nodes, built from
 * libyaml's event stream.
 *
 * This is the only place kso touches libyaml.  Building is hardened against
 * hostile input: nesting deeper than YAML_MAX_DEPTH, scalars longer than
 * YAML_MAX_SCALAR, more than YAML_MAX_NODES nodes (counting every alias
 * expansion, so an alias bomb is refused without being expanded) and
 * libyaml's own syntax errors all come back as one error with the file,
 * line and column.  Aliases are resolved by sharing the anchored node.
 * Line and column are 1-based.  A UTF-8 BOM and CRLF line ends are
 * accepted (libyaml handles both).
 */
#ifndef KSO_YAML_TREE_H
#define KSO_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/error.h"

#define YAML_MAX_DEPTH 200
#define YAML_MAX_SCALAR (1u << 20)        /* 1 MiB */
#define YAML_MAX_NODES 20000000           /* after alias expansion */
/* Whole files are read into memory; past this, refuse rather than thrash
 * (or read /dev/zero for ever). */
#define YAML_MAX_FILE ((size_t)256 << 20)

enum ynode_kind {
	YNODE_SCALAR,
	YNODE_SEQ,
	YNODE_MAP
};

struct ynode {
	enum ynode_kind kind;
	int line, col;                 /* 1-based start of the node */
	/* scalar */
	const char *str;               /* NUL-terminated value (may hold NULs: see len) */
	size_t len;
	bool quoted;                   /* single/double quoted, literal or folded */
	/* sequence: items; map: keys[i] -> items[i] */
	struct ynode **items;
	struct ynode **keys;           /* map keys (scalars; others are an error) */
	int n;
};

/* A file (or stdin) parsed into its documents. */
struct ydoc_set {
	const char *file;              /* name used in messages */
	struct ynode **docs;           /* root of each document (NULL: empty document) */
	int n_docs;
};

/* yaml_read_file: the whole of path ("-": stdin) into *out (malloc'ed,
 * *len bytes; the caller frees it).  Returns 0, or -1 with err set
 * ("PATH: cannot open: ...", "...: cannot read: ...", or "file too large"
 * past max bytes). */
int yaml_read_file(const char *path, size_t max, unsigned char **out,
		   size_t *len, struct error *err);

/* yaml_parse_file: reads path ("-" for stdin) and builds every document
 * into set, allocating from arena (the caller owns the arena).  Returns 0,
 * or -1 with err set to "FILE:LINE:COL: what is wrong". */
int yaml_parse_file(const char *path, struct arena *arena,
		    struct ydoc_set *set, struct error *err);

/* yaml_parse_buffer: the same from memory; name is used in messages. */
int yaml_parse_buffer(const char *name, const unsigned char *buf, size_t len,
		      struct arena *arena, struct ydoc_set *set,
		      struct error *err);

/* yaml_parse_buffer_at: the same for text that starts at line, col (1-based)
 * of the file called name, so nodes and errors carry the file's positions
 * (a value cut out of a larger file, such as one JSON value of a log). */
int yaml_parse_buffer_at(const char *name, const unsigned char *buf,
			 size_t len, int line, int col, struct arena *arena,
			 struct ydoc_set *set, struct error *err);

/* yaml_parse_buffer_yaml: yaml_parse_buffer_at through libyaml alone,
 * without the JSON scanner that takes JSON texts (json_events.h): the
 * reference tests/fuzz/fuzz_json.c holds that scanner to. */
int yaml_parse_buffer_yaml(const char *name, const unsigned char *buf,
			   size_t len, int line, int col, struct arena *arena,
			   struct ydoc_set *set, struct error *err);

/* ynode_get / ynode_get_len: the value under key (of len bytes) in a map
 * node, or NULL (also NULL when m is NULL or not a map). */
const struct ynode *ynode_get_len(const struct ynode *m, const char *key,
				 size_t len);

/* Inline so a literal key's length is a constant. */
static inline const struct ynode *ynode_get(const struct ynode *m,
					    const char *key)
{
	return ynode_get_len(m, key, strlen(key));
}

/* ynode_str: the scalar text under key in map m, or NULL when m has no
 * such key or its value is not a scalar. */
static inline const char *ynode_str(const struct ynode *m, const char *key)
{
	const struct ynode *v = ynode_get(m, key);
	return v && v->kind == YNODE_SCALAR ? v->str : NULL;
}

/* ynode_identical: a and b (either may be NULL) are the same tree as
 * parsed: kinds, positions, keys in order, scalars of the same bytes and
 * quoting - what the scanners standing in for libyaml must give
 * (tests/unit/test_block_events.c, tests/fuzz/fuzz.h). */
bool ynode_identical(const struct ynode *a, const struct ynode *b);

/* ynode_scalar: a new plain (quoted false) or quoted scalar holding a
 * copy of s, in a (position 0:0). */
struct ynode *ynode_scalar(struct arena *a, const char *s, bool quoted);

/* ynode_same: ynode_identical with positions aside - what a printed tree
 * must read back as (yaml/emit.h). */
bool ynode_same(const struct ynode *a, const struct ynode *b);

/* ynode_is_null: true for a plain scalar "", "~", "null", "Null", "NULL".
 * YAML 1.1/1.2 core null: only plain scalars; a missing node (NULL) is
 * not a null scalar.  Inline: asked of every value read, most are not. */
static inline bool ynode_is_null(const struct ynode *n)
{
	if (!n || n->kind != YNODE_SCALAR || n->quoted)
		return false;
	if (n->len && n->str[0] != '~' && n->str[0] != 'n' && n->str[0] != 'N')
		return false;
	return n->len == 0 || strcmp(n->str, "~") == 0 ||
	       strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	       strcmp(n->str, "NULL") == 0;
}

#endif
