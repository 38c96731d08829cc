/*
 * util.c - the oracle's small containers: a string-interning hash map and
 * a growable int list (see internal.h).
 */
#include "internal.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/fnv.h"
#include "../core/grow.h"

/* FNV-1a: strings here are short label values and image names. */
static uint32_t strmap_hash(const char *s)
{
	return fnv32_str(FNV32_OFFSET, s);
}

void oracle_strmap_init(struct oracle_strmap *m)
{
	assert(m);
	m->cap = 16;
	m->n = 0;
	m->keys = xcalloc(m->cap, sizeof(*m->keys));
	m->ids = xcalloc(m->cap, sizeof(*m->ids));
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
	big.keys = xcalloc(big.cap, sizeof(*big.keys));
	big.ids = xcalloc(big.cap, sizeof(*big.ids));
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
	GROW(l->v, l->n + 1, l->cap);
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

/* ------------------------------------------------------- node counters */

static uint32_t ncount_hash(int node)
{
	return (uint32_t)node * 2654435761u;
}

/* Slots, nodes and counts in one allocation (slot first), so a counter
 * costs one malloc per growth and one free. */
static void ncount_grow(struct oracle_ncount *m)
{
	int cap = m->cap ? 2 * m->cap : 8;
	_Static_assert(sizeof(int32_t) == sizeof(int), "three int arrays in one block");
	int *block = xcalloc((size_t)cap * 3, sizeof(int));
	int *node = block + cap;
	int32_t *cnt = (int32_t *)(block + 2 * cap);
	if (m->n) {
		memcpy(node, m->node, sizeof(int) * (size_t)m->n);
		memcpy(cnt, m->cnt, sizeof(int32_t) * (size_t)m->n);
	}
	free(m->slot);
	m->slot = block;
	m->node = node;
	m->cnt = cnt;
	m->cap = cap;
	for (int i = 0; i < m->n; i++) {
		uint32_t k = ncount_hash(m->node[i]) & (uint32_t)(cap - 1);
		while (m->slot[k])
			k = (k + 1) & (uint32_t)(cap - 1);
		m->slot[k] = i + 1;
	}
}

void oracle_ncount_add(struct oracle_ncount *m, int node, int delta)
{
	assert(m && node >= 0);
	if (m->cap) {
		uint32_t k = ncount_hash(node) & (uint32_t)(m->cap - 1);
		for (; m->slot[k]; k = (k + 1) & (uint32_t)(m->cap - 1))
			if (m->node[m->slot[k] - 1] == node) {
				m->cnt[m->slot[k] - 1] += delta;
				return;
			}
	}
	/* entries are never removed: a count back at 0 stays listed */
	if ((m->n + 1) * 2 > m->cap)
		ncount_grow(m);
	uint32_t k = ncount_hash(node) & (uint32_t)(m->cap - 1);
	while (m->slot[k])
		k = (k + 1) & (uint32_t)(m->cap - 1);
	m->node[m->n] = node;
	m->cnt[m->n] = delta;
	m->slot[k] = ++m->n;
}

int32_t oracle_ncount_get(const struct oracle_ncount *m, int node)
{
	if (!m->cap)
		return 0;
	uint32_t k = ncount_hash(node) & (uint32_t)(m->cap - 1);
	for (; m->slot[k]; k = (k + 1) & (uint32_t)(m->cap - 1))
		if (m->node[m->slot[k] - 1] == node)
			return m->cnt[m->slot[k] - 1];
	return 0;
}

void oracle_ncount_release(struct oracle_ncount *m)
{
	free(m->slot);   /* the nodes and counts too (ncount_grow) */
	memset(m, 0, sizeof(*m));
}

/* ------------------------------------------------- identity of specs */

uint64_t oracle_hash_mix(uint64_t h, uint64_t x)
{
	h ^= x;
	h *= 0x100000001b3ULL;
	return h;
}

uint64_t oracle_hash_str(uint64_t h, const char *s)
{
	for (; s && *s; s++)
		h = oracle_hash_mix(h, (unsigned char)*s);
	return oracle_hash_mix(h, 0xff);
}

uint64_t oracle_hash_labels(uint64_t h, const struct labels *l)
{
	h = oracle_hash_mix(h, (uint64_t)l->n);
	for (int i = 0; i < l->n; i++)
		h = oracle_hash_str(oracle_hash_str(h, l->items[i].key), l->items[i].value);
	return h;
}

uint64_t oracle_hash_reqs(uint64_t h, const struct requirement *r, int n)
{
	h = oracle_hash_mix(h, (uint64_t)n);
	for (int i = 0; i < n; i++) {
		h = oracle_hash_str(oracle_hash_mix(h, (uint64_t)r[i].op), r[i].key);
		for (int j = 0; j < r[i].n_values; j++)
			h = oracle_hash_str(h, r[i].values[j]);
	}
	return h;
}

bool oracle_str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

bool oracle_labels_eq(const struct labels *a, const struct labels *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (!oracle_str_eq(a->items[i].key, b->items[i].key) ||
		    !oracle_str_eq(a->items[i].value, b->items[i].value))
			return false;
	return true;
}

bool oracle_reqs_eq(const struct requirement *a, int na, const struct requirement *b,
		    int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++) {
		if (a[i].op != b[i].op || a[i].n_values != b[i].n_values ||
		    a[i].int_value != b[i].int_value || !oracle_str_eq(a[i].key, b[i].key))
			return false;
		for (int j = 0; j < a[i].n_values; j++)
			if (!oracle_str_eq(a[i].values[j], b[i].values[j]))
				return false;
	}
	return true;
}

/* ------------------------------------------------------------ statuses */

void oracle_status_fail_str(struct sched_status *st, enum sched_code code,
			    const char *reason)
{
	sched_status_add(st, code, reason);
}
