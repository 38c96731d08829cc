/*
 * symmetry.c - the symmetry reduction of the enumerator: interchangeable
 * nodes (equal manifests apart from the name) and interchangeable pods
 * (equal manifests apart from the name) act on states by permutation; a
 * class (orbit) is evaluated once, through one representative, and
 * counted with its size.
 *
 * Placements (d[p] = 0 pending, k on node k-1).  Let M[c][k] be the
 * number of pods of pod class c at column k (pending or a node).  Pod
 * permutations within classes keep M; node permutations within classes
 * permute M's node columns.  The representative of a class is the state
 * whose pods of each class sit in non-decreasing digit order and whose
 * node columns within each node class are in non-increasing order
 * (compared as vectors over the pod classes): exactly one per class.
 * Its size is
 *     prod_c  n_c! / prod_k M[c][k]!                  (pod arrangements)
 *   * prod_K  |K|! / prod_v mult_K(v)!                (distinct column orders)
 * where mult_K(v) counts the nodes of node class K whose column is v.
 *
 * Reachable states (4 bytes a pod) are canonicalized by brute force: the
 * least encoding over every node permutation within classes, pods of a
 * class sorted; the class size is |G| / |stabilizer|.
 */
#include "enum.h"
#include "../model/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node permutations beyond this are not enumerated (node symmetry of
 * reachable states is then off; pod symmetry stays). */
#define MAX_PERMS 5040

static uint64_t factorial(int n)
{
	uint64_t f = 1;
	for (int i = 2; i <= n; i++)
		f = f > UINT64_MAX / (uint64_t)i ? UINT64_MAX : f * (uint64_t)i;
	return f;
}

static int class_size(const int *cls, int n, int c)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += cls[i] == c;
	return k;
}

/* Every permutation of nodes within classes, by recursion over nodes:
 * node i goes to an unused node of its class. */
static void perms_rec(struct enum_symmetry *s, int i, int *cur, bool *used)
{
	if (i == s->n_nodes) {
		memcpy(&s->node_perms[(size_t)s->n_perms * (size_t)s->n_nodes], cur,
		       sizeof *cur * (size_t)s->n_nodes);
		s->n_perms++;
		return;
	}
	for (int j = 0; j < s->n_nodes; j++) {
		if (used[j] || s->node_class[j] != s->node_class[i])
			continue;
		used[j] = true;
		cur[i] = j;
		perms_rec(s, i + 1, cur, used);
		used[j] = false;
	}
}

static void build_perms(struct enum_symmetry *s)
{
	uint64_t total = 1;
	for (int i = 0; i < s->n_nodes; i++)
		if (s->node_class[i] == i) {
			uint64_t f = factorial(class_size(s->node_class, s->n_nodes, i));
			total = total > MAX_PERMS ? total : total * f;
		}
	if (total > MAX_PERMS) {
		/* identity only: reachable states keep pod symmetry alone */
		for (int i = 0; i < s->n_nodes; i++)
			s->node_class[i] = i;
		total = 1;
	}
	s->node_perms = xcalloc((size_t)total * (size_t)(s->n_nodes + 1), sizeof(int));
	int *cur = xcalloc((size_t)s->n_nodes + 1, sizeof *cur);
	bool *used = xcalloc((size_t)s->n_nodes + 1, sizeof *used);
	s->n_perms = 0;
	perms_rec(s, 0, cur, used);
	free(cur);
	free(used);
	s->group_order = total;
	for (int i = 0; i < s->n_pods; i++)
		if (s->pod_class[i] == i)
			s->group_order *= factorial(class_size(s->pod_class, s->n_pods, i));
}

void enum_symmetry_init(struct enum_symmetry *s, int n_nodes, int n_pods,
			const int *node_class, const int *pod_class, bool on)
{
	assert(s && n_nodes >= 0 && n_pods >= 0);
	memset(s, 0, sizeof *s);
	s->n_nodes = n_nodes;
	s->n_pods = n_pods;
	s->node_class = xcalloc((size_t)n_nodes + 1, sizeof(int));
	s->pod_class = xcalloc((size_t)n_pods + 1, sizeof(int));
	for (int i = 0; i < n_nodes; i++)
		s->node_class[i] = on ? node_class[i] : i;
	for (int i = 0; i < n_pods; i++)
		s->pod_class[i] = on ? pod_class[i] : i;
	build_perms(s);
}

void enum_symmetry_release(struct enum_symmetry *s)
{
	free(s->node_class);
	free(s->pod_class);
	free(s->node_perms);
	memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------- placements */

/* Compares the columns of nodes a and b over the pod classes: the number
 * of pods of each class (in class order) on each node. */
static int column_cmp(const struct enum_symmetry *s, const int *d, int a, int b)
{
	for (int c = 0; c < s->n_pods; c++) {
		if (s->pod_class[c] != c)
			continue;
		int ka = 0, kb = 0;
		for (int p = c; p < s->n_pods; p++) {
			if (s->pod_class[p] != c)
				continue;
			ka += d[p] == a + 1;
			kb += d[p] == b + 1;
		}
		if (ka != kb)
			return ka > kb ? -1 : 1;
	}
	return 0;
}

bool enum_placement_canonical(const struct enum_symmetry *s, const int *d)
{
	/* pods of a class in non-decreasing digit order */
	for (int p = 0; p < s->n_pods; p++) {
		int c = s->pod_class[p];
		if (c == p)
			continue;
		/* the previous member of the class */
		int q = p - 1;
		while (s->pod_class[q] != c)
			q--;
		if (d[q] > d[p])
			return false;
	}
	/* node columns of a class in non-increasing order */
	for (int n = 0; n < s->n_nodes; n++) {
		int c = s->node_class[n];
		if (c == n)
			continue;
		int m = n - 1;
		while (s->node_class[m] != c)
			m--;
		if (column_cmp(s, d, m, n) > 0)
			return false;
	}
	return true;
}

uint64_t enum_placement_class_size(const struct enum_symmetry *s, const int *d)
{
	uint64_t size = 1;
	int cols = s->n_nodes + 1;
	/* pod arrangements: n_c! / prod_k M[c][k]! */
	for (int c = 0; c < s->n_pods; c++) {
		if (s->pod_class[c] != c)
			continue;
		int n_c = 0;
		uint64_t denom = 1;
		for (int k = 0; k < cols; k++) {
			int m = 0;
			for (int p = c; p < s->n_pods; p++)
				m += s->pod_class[p] == c && d[p] == k;
			n_c += m;
			denom *= factorial(m);
		}
		size *= factorial(n_c) / denom;
	}
	/* distinct column orders within each node class */
	for (int k = 0; k < s->n_nodes; k++) {
		if (s->node_class[k] != k)
			continue;
		int members = 0;
		uint64_t denom = 1;
		for (int a = k; a < s->n_nodes; a++) {
			if (s->node_class[a] != k)
				continue;
			members++;
			/* count a's column once: at its first occurrence */
			bool first = true;
			for (int b = k; b < a && first; b++)
				if (s->node_class[b] == k && column_cmp(s, d, a, b) == 0)
					first = false;
			if (!first)
				continue;
			int mult = 0;
			for (int b = k; b < s->n_nodes; b++)
				mult += s->node_class[b] == k && column_cmp(s, d, a, b) == 0;
			denom *= factorial(mult);
		}
		size *= factorial(members) / denom;
	}
	return size;
}

/* ----------------------------------------------------- reachable states */

static int tuple_cmp(const void *a, const void *b)
{
	return memcmp(a, b, ENUM_STATE_BYTES);
}

/* st with node permutation perm applied (node i -> perm[i]) and the pods
 * of each class sorted, into out. */
static void apply_perm(const struct enum_symmetry *s, const int *perm,
		       const uint8_t *st, uint8_t *out, uint8_t *scratch)
{
	int np = s->n_pods;
	for (int p = 0; p < np; p++) {
		const uint8_t *t = st + ENUM_STATE_BYTES * p;
		uint8_t *o = out + ENUM_STATE_BYTES * p;
		memcpy(o, t, ENUM_STATE_BYTES);
		if (t[0] >= 3)
			o[0] = (uint8_t)(perm[t[0] - 3] + 3);
		if (t[1] >= 1)
			o[1] = (uint8_t)(perm[t[1] - 1] + 1);
	}
	for (int c = 0; c < np; c++) {
		if (s->pod_class[c] != c)
			continue;
		int k = 0;
		for (int p = c; p < np; p++)
			if (s->pod_class[p] == c)
				memcpy(scratch + ENUM_STATE_BYTES * k++, out + ENUM_STATE_BYTES * p,
				       ENUM_STATE_BYTES);
		if (k < 2)
			continue;
		qsort(scratch, (size_t)k, ENUM_STATE_BYTES, tuple_cmp);
		k = 0;
		for (int p = c; p < np; p++)
			if (s->pod_class[p] == c)
				memcpy(out + ENUM_STATE_BYTES * p, scratch + ENUM_STATE_BYTES * k++,
				       ENUM_STATE_BYTES);
	}
}

/* prod over pod classes and equal tuples of mult!: the pod permutations
 * that fix a sorted encoding. */
static uint64_t pod_stabilizer(const struct enum_symmetry *s, const uint8_t *sorted)
{
	uint64_t r = 1;
	for (int p = 0; p < s->n_pods; p++) {
		int run = 1;
		for (int q = p + 1; q < s->n_pods; q++)
			if (s->pod_class[q] == s->pod_class[p] &&
			    memcmp(sorted + ENUM_STATE_BYTES * q, sorted + ENUM_STATE_BYTES * p,
				   ENUM_STATE_BYTES) == 0)
				run++;
		/* count each equal group once: at its first member */
		bool first = true;
		for (int q = 0; q < p && first; q++)
			if (s->pod_class[q] == s->pod_class[p] &&
			    memcmp(sorted + ENUM_STATE_BYTES * q, sorted + ENUM_STATE_BYTES * p,
				   ENUM_STATE_BYTES) == 0)
				first = false;
		if (first)
			r *= factorial(run);
	}
	return r;
}

void enum_state_canonical(const struct enum_symmetry *s, const uint8_t *st,
			  uint8_t *out, uint64_t *orbit)
{
	size_t bytes = (size_t)ENUM_STATE_BYTES * (size_t)s->n_pods;
	uint8_t *cand = xcalloc(bytes + 1, 1), *scratch = xcalloc(bytes + 1, 1);
	uint8_t *ident = xcalloc(bytes + 1, 1);
	uint64_t stab = 0;
	for (int i = 0; i < s->n_perms; i++) {
		apply_perm(s, &s->node_perms[(size_t)i * (size_t)s->n_nodes], st, cand, scratch);
		if (i == 0) {
			/* perm 0 is the identity (perms_rec tries j = i first) */
			memcpy(ident, cand, bytes);
			memcpy(out, cand, bytes);
		} else if (memcmp(cand, out, bytes) < 0)
			memcpy(out, cand, bytes);
		if (memcmp(cand, ident, bytes) == 0)
			stab++;
	}
	if (orbit)
		*orbit = s->group_order / (stab * pod_stabilizer(s, ident));
	free(cand);
	free(scratch);
	free(ident);
}
