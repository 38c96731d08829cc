/*
 * util.c - the oracle's small containers: a string-interning hash map and
 * a growable int list (see internal.h).
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *oracle_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fprintf(stderr, "kso: out of memory\n");
		abort();
	}
	return p;
}

void *oracle_xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p) {
		fprintf(stderr, "kso: out of memory\n");
		abort();
	}
	return p;
}

void *oracle_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (!q) {
		fprintf(stderr, "kso: out of memory\n");
		abort();
	}
	return q;
}

/* FNV-1a: strings here are short label values and image names. */
static uint32_t strmap_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

void oracle_strmap_init(struct oracle_strmap *m)
{
	assert(m);
	m->cap = 16;
	m->n = 0;
	m->keys = oracle_xcalloc(m->cap, sizeof(*m->keys));
	m->ids = oracle_xcalloc(m->cap, sizeof(*m->ids));
}

void oracle_strmap_release(struct oracle_strmap *m)
{
	free(m->keys);
	free(m->ids);
	m->keys = NULL;
	m->ids = NULL;
	m->n = 0;
	m->cap = 0;
}

static uint32_t strmap_slot(const struct oracle_strmap *m, const char *s)
{
	uint32_t i = strmap_hash(s) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], s) != 0)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int oracle_strmap_find(const struct oracle_strmap *m, const char *s)
{
	uint32_t i = strmap_slot(m, s);
	return m->keys[i] ? m->ids[i] : -1;
}

static void strmap_grow(struct oracle_strmap *m)
{
	struct oracle_strmap big = {
		.cap = m->cap * 2, .n = m->n,
	};
	big.keys = oracle_xcalloc(big.cap, sizeof(*big.keys));
	big.ids = oracle_xcalloc(big.cap, sizeof(*big.ids));
	for (uint32_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		uint32_t j = strmap_slot(&big, m->keys[i]);
		big.keys[j] = m->keys[i];
		big.ids[j] = m->ids[i];
	}
	oracle_strmap_release(m);
	*m = big;
}

int oracle_strmap_intern(struct oracle_strmap *m, const char *s)
{
	assert(m && s);
	uint32_t i = strmap_slot(m, s);
	if (m->keys[i])
		return m->ids[i];
	m->keys[i] = s;
	m->ids[i] = m->n++;
	if ((uint32_t)m->n * 2 > m->cap)
		strmap_grow(m);
	return m->n - 1;
}

void oracle_ilist_push(struct oracle_ilist *l, int x)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4;
		l->v = oracle_xrealloc(l->v, sizeof(int) * (size_t)l->cap);
	}
	l->v[l->n++] = x;
}

bool oracle_ilist_remove(struct oracle_ilist *l, int x)
{
	for (int i = 0; i < l->n; i++) {
		if (l->v[i] != x)
			continue;
		/* keep order: nominated pods are added in this order (§1.5) */
		memmove(&l->v[i], &l->v[i + 1], sizeof(int) * (size_t)(l->n - i - 1));
		l->n--;
		return true;
	}
	return false;
}

void oracle_ilist_release(struct oracle_ilist *l)
{
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
