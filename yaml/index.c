/*
 * index.c - duplicate detection for loaded objects (see index.h).
 * FNV-1a over "kind\0ns\0name", linear probing, load factor <= 1/2.
 */
#include "index.h"
#include "../core/fnv.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void yaml_index_init(struct yaml_index *ix)
{
	assert(ix);
	ix->slots = NULL;
	ix->cap = 0;
	ix->n = 0;
}

void yaml_index_release(struct yaml_index *ix)
{
	assert(ix);
	free(ix->slots);
	yaml_index_init(ix);
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	/* 0xff after each: ("ab","c") != ("a","bc") */
	return fnv64_word(fnv64_str(h, s), 0xff);
}

static uint64_t index_hash(const char *kind, const char *ns, const char *name)
{
	uint64_t h = fnv_str(FNV64_OFFSET, kind);
	h = fnv_str(h, ns);
	h = fnv_str(h, name);
	return h ? h : 1;   /* 0 marks an empty slot */
}

static struct yaml_index_slot *index_probe(struct yaml_index_slot *slots,
					   size_t cap, uint64_t h,
					   const char *kind, const char *ns,
					   const char *name)
{
	size_t i = (size_t)h & (cap - 1);
	for (;;) {
		struct yaml_index_slot *s = &slots[i];
		if (!s->hash)
			return s;
		if (s->hash == h && !strcmp(s->kind, kind) &&
		    !strcmp(s->ns, ns) && !strcmp(s->name, name))
			return s;
		i = (i + 1) & (cap - 1);
	}
}

static void index_grow(struct yaml_index *ix)
{
	size_t cap = ix->cap ? ix->cap * 2 : 64;
	struct yaml_index_slot *slots = calloc(cap, sizeof *slots);
	if (!slots) {
		fprintf(stderr, "kso: out of memory growing the object index\n");
		abort();
	}
	for (size_t i = 0; i < ix->cap; i++) {
		struct yaml_index_slot *old = &ix->slots[i];
		if (old->hash)
			*index_probe(slots, cap, old->hash, old->kind, old->ns,
				     old->name) = *old;
	}
	free(ix->slots);
	ix->slots = slots;
	ix->cap = cap;
}

int yaml_index_add(struct yaml_index *ix, const char *kind, const char *ns,
		   const char *name, struct source_pos pos,
		   struct source_pos *first)
{
	assert(ix && kind && ns && name && first);
	if ((ix->n + 1) * 2 > ix->cap)
		index_grow(ix);
	uint64_t h = index_hash(kind, ns, name);
	struct yaml_index_slot *s = index_probe(ix->slots, ix->cap, h, kind,
						ns, name);
	if (s->hash) {
		*first = s->pos;
		return 1;
	}
	*s = (struct yaml_index_slot){h, kind, ns, name, pos};
	ix->n++;
	return 0;
}
