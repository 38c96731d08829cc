/*
 * vec.c - growable array for loads in progress (see vec.h).
 */
#include "vec.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/grow.h"

void yaml_vec_init(struct yaml_vec *v, size_t elem)
{
	assert(v && elem > 0);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
	v->elem = elem;
}

/* Room for one more element: the capacity doubles as GROW's does
 * (core/grow.h: grow_cap), the storage through xrealloc. */
static void vec_grow(struct yaml_vec *v)
{
	size_t cap = grow_cap(v->cap, v->n + 1);
	if (cap > SIZE_MAX / v->elem)
		xalloc_oom(SIZE_MAX);
	v->data = xrealloc(v->data, cap * v->elem);
	v->cap = cap;
}

void *yaml_vec_push(struct yaml_vec *v, const void *item)
{
	assert(v && item);
	if (v->n == v->cap)
		vec_grow(v);
	void *slot = (char *)v->data + v->n * v->elem;
	memcpy(slot, item, v->elem);
	v->n++;
	return slot;
}

void *yaml_vec_at(const struct yaml_vec *v, size_t i)
{
	assert(v && i < v->n);
	return (char *)v->data + i * v->elem;
}

void yaml_vec_release(struct yaml_vec *v)
{
	assert(v);
	free(v->data);
	v->data = NULL;
	v->n = 0;
	v->cap = 0;
}
