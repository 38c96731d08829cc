/*
 * ytree.h - editing YAML trees (yaml/tree.h) for the enumerator: a
 * universe's `vary` dimensions are applied to the manifests' trees before
 * decoding, and each scenario is printed back to YAML text (yaml/emit.h),
 * which the store keeps; the loader (yaml/load.h) decodes the edited
 * trees themselves when the printer says the text reads back as them.
 *
 * Nodes made here live in an arena the caller owns.  Trees are never
 * changed in place: an edit copies the nodes on its path and shares the
 * rest, so a universe's trees serve every scenario as they are.
 */
#ifndef KSO_ENUM_YTREE_H
#define KSO_ENUM_YTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/arena.h"
#include "../core/error.h"
#include "../core/strbuf.h"
#include "../yaml/emit.h"
#include "../yaml/tree.h"

/* One step of a field path: a map key, or a sequence index (key NULL). */
struct enum_path_seg {
	const char *key;
	int index;
};

/* A field path such as spec.containers[0].resources.requests.cpu. */
struct enum_path {
	struct enum_path_seg *segs;
	int n;
	const char *text;          /* as written, for messages */
};

/* enum_path_parse: parses a path given as text (segments split at '.',
 * "[N]" indexes a sequence, a segment in double quotes may hold dots:
 * metadata.labels."topology.kubernetes.io/zone") or as a YAML sequence of
 * keys and integer indexes.  Allocates from a.  Returns 0, or -1 with err
 * set at the node's position in file. */
int enum_path_parse(struct arena *a, const char *file, const struct ynode *n,
		    struct enum_path *out, struct error *err);

/* enum_ynode_clone: a deep copy of n in a (NULL for NULL).  Aliased nodes
 * are copied once per reference. */
struct ynode *enum_ynode_clone(struct arena *a, const struct ynode *n);

/* enum_ynode_set: sets the field at p under *root (a map) to value,
 * creating missing maps on the way; value NULL (or a plain null scalar)
 * removes the field.  Copy on write: *root becomes an edited copy that
 * shares every node off the path (and value itself) with the original,
 * which is not changed; nothing to remove leaves *root as it was.  New
 * nodes come from a, so the result lives as long as a and the original
 * and value do.  Returns 0, or -1 with why (len bytes) saying what is
 * wrong (an index out of range, a key under a scalar). */
int enum_ynode_set(struct arena *a, const struct ynode **root,
		   const struct enum_path *p, const struct ynode *value,
		   char *why, size_t len);

/* enum_ynode_get: the node at p under root, or NULL when absent. */
const struct ynode *enum_ynode_get(const struct ynode *root,
				   const struct enum_path *p);

/* enum_ynode_remove_key: removes key from map m in place (m must be the
 * caller's own copy, its arrays too); no-op when absent or m is not a
 * map. */
void enum_ynode_remove_key(struct ynode *m, const char *key);

/* enum_ynode_equal: structural equality, map keys in any order, scalar
 * text and quoting compared. */
bool enum_ynode_equal(const struct ynode *a, const struct ynode *b);

/* enum_ynode_mentions: true when some scalar (key or value) in n equals s. */
bool enum_ynode_mentions(const struct ynode *n, const char *s);

/* enum_ynode_mentions_any: found[k] = true for each of the count strings
 * s[k] that some scalar (key or value) in n equals (as
 * enum_ynode_mentions compares); found[k] already true stays true.  One
 * walk of n for all of them. */
void enum_ynode_mentions_any(const struct ynode *n, const char *const *s,
			     int count, bool *found);

/* enum_ynode_place: sets every node of n (a clone) to line:col, so
 * messages about a copied value point where it is used. */
void enum_ynode_place(struct ynode *n, int line, int col);

#endif
