/*
 * index.h - the set of object identities seen by a load (kind, namespace,
 * name) with where each was first defined, to report duplicates the way
 * the API server refuses them ("already exists").  malloc'ed open
 * addressing; keys are borrowed (they live in the cluster's arena).
 */
#ifndef KSO_YAML_INDEX_H
#define KSO_YAML_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "../core/objects.h"

struct yaml_index_slot {
	uint64_t hash;                 /* 0 = empty slot */
	const char *kind, *ns, *name;
	struct source_pos pos;
};

struct yaml_index {
	struct yaml_index_slot *slots;
	size_t cap;                    /* power of two, or 0 */
	size_t n;
};

/* yaml_index_init / yaml_index_release: an empty index; release frees it. */
void yaml_index_init(struct yaml_index *ix);
void yaml_index_release(struct yaml_index *ix);

/* yaml_index_add: records (kind, ns, name) first seen at pos.  Returns 0
 * when new, 1 when already present (then *first is the earlier position and
 * nothing is recorded).  ns is "" for cluster-scoped kinds. */
int yaml_index_add(struct yaml_index *ix, const char *kind, const char *ns,
		   const char *name, struct source_pos pos,
		   struct source_pos *first);

#endif
