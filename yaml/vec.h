/*
 * vec.h - a malloc'ed growable array used while a load is in progress
 * (objects are collected here, then copied into the cluster's arena in one
 * piece when the load succeeds).  Aborts on out-of-memory, like the arena.
 */
#ifndef KSO_YAML_VEC_H
#define KSO_YAML_VEC_H

#include <stddef.h>

struct yaml_vec {
	void *data;
	size_t n;      /* elements in use */
	size_t cap;    /* elements allocated */
	size_t elem;   /* size of one element */
};

/* yaml_vec_init: an empty vector of elements of size elem. Pair with
 * yaml_vec_release(). */
void yaml_vec_init(struct yaml_vec *v, size_t elem);

/* yaml_vec_push: appends a copy of *item; returns the stored element (valid
 * until the next push). */
void *yaml_vec_push(struct yaml_vec *v, const void *item);

/* yaml_vec_at: element i (i < n). */
void *yaml_vec_at(const struct yaml_vec *v, size_t i);

/* yaml_vec_release: frees the storage; the vector is empty after. */
void yaml_vec_release(struct yaml_vec *v);

#endif
