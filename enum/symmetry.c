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
 * A column is kept packed as a key (enum.h) that compares as the column
 * does, so a walk over placements updates two words a moved pod and
 * tests a placement in O(pods of a class + nodes of a class).
 *
 * Reachable states (4 bytes a pod) are canonicalized by brute force: the
 * least encoding over every node permutation within classes, pods of a
 * class sorted; the class size is |G| / |stabilizer|.
 */
#include "../core/limits.h"
#include "enum.h"
#include "../core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Node permutations beyond ENUM_MAX_PERMS (core/limits.h) are not
 * enumerated (node symmetry of reachable states is then off; pod
 * symmetry stays). */

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
			total = total > ENUM_MAX_PERMS ? total : total * f;
		}
	if (total > ENUM_MAX_PERMS) {
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

/* The previous member of i's class in cls[0..i-1], or -1 (i is the
 * class's lowest member, its id). */
static int prev_member(const int *cls, int i)
{
	for (int j = i - 1; j >= 0; j--)
		if (cls[j] == cls[i])
			return j;
	return -1;
}

/* The column keys' fields (enum.h): class ordinals in order from the top
 * of word 0 down, each wide enough to count all its members, a field
 * that does not fit in what is left of a word starting the next word. */
static void build_key_fields(struct enum_symmetry *s)
{
	int k = s->n_pod_classes;
	s->key_field = xcalloc((size_t)k + 1, sizeof *s->key_field);
	s->key_words = 1;
	int used = 0;   /* bits of the current word taken, from the top */
	for (int c = 0; c < k; c++) {
		int bits = 1;
		while ((UINT64_C(1) << bits) <= (uint64_t)s->class_members[c])
			bits++;
		if (used + bits > 64) {
			s->key_words++;
			used = 0;
		}
		used += bits;
		s->key_field[c].word = s->key_words - 1;
		s->key_field[c].shift = 64 - used;
		s->key_field[c].mask = (UINT64_C(1) << bits) - 1;   /* bits <= 32 */
	}
}

/* The tables of enum_symmetry (enum.h) from the final classes (after
 * build_perms, which may drop node classes). */
static void build_tables(struct enum_symmetry *s)
{
	int n_fact = (s->n_pods > s->n_nodes ? s->n_pods : s->n_nodes) + 1;
	s->fact = xcalloc((size_t)n_fact, sizeof *s->fact);
	for (int i = 0; i < n_fact; i++)
		s->fact[i] = factorial(i);
	s->pod_ord = xcalloc((size_t)s->n_pods + 1, sizeof(int));
	s->pod_prev = xcalloc((size_t)s->n_pods + 1, sizeof(int));
	s->node_prev = xcalloc((size_t)s->n_nodes + 1, sizeof(int));
	s->node_next = xcalloc((size_t)s->n_nodes + 1, sizeof(int));
	s->node_members = xcalloc((size_t)s->n_nodes + 1, sizeof(int));
	s->class_members = xcalloc((size_t)s->n_pods + 1, sizeof(int));
	s->n_pod_classes = 0;
	for (int p = 0; p < s->n_pods; p++) {
		/* class ids are the lowest member's index (enum.h) */
		assert(s->pod_class[p] <= p && s->pod_class[s->pod_class[p]] == s->pod_class[p]);
		s->pod_prev[p] = prev_member(s->pod_class, p);
		s->pod_ord[p] = s->pod_prev[p] < 0 ? s->n_pod_classes++
				: s->pod_ord[s->pod_prev[p]];
		s->class_members[s->pod_ord[p]]++;
	}
	for (int n = 0; n < s->n_nodes; n++) {
		assert(s->node_class[n] <= n &&
		       s->node_class[s->node_class[n]] == s->node_class[n]);
		s->node_prev[n] = prev_member(s->node_class, n);
		s->node_next[n] = -1;
		if (s->node_prev[n] >= 0)
			s->node_next[s->node_prev[n]] = n;
		s->node_members[s->node_class[n]]++;
	}
	s->pods_after = xcalloc((size_t)s->n_pods + 1, sizeof(int));
	s->nodes_after = xcalloc((size_t)s->n_nodes + 1, sizeof(int));
	s->pod_multi = xcalloc((size_t)s->n_pods + 1, sizeof(int));
	s->node_multi = xcalloc((size_t)s->n_nodes + 1, sizeof(int));
	for (int p = 0; p < s->n_pods; p++)
		if (s->pod_prev[p] >= 0)
			s->pods_after[s->n_pods_after++] = p;
	for (int c = 0; c < s->n_pod_classes; c++)
		if (s->class_members[c] >= 2)
			s->pod_multi[s->n_pod_multi++] = c;
	for (int n = 0; n < s->n_nodes; n++) {
		if (s->node_prev[n] >= 0)
			s->nodes_after[s->n_nodes_after++] = n;
		if (s->node_members[n] >= 2)
			s->node_multi[s->n_node_multi++] = n;
	}
	build_key_fields(s);
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
	build_tables(s);
}

void enum_symmetry_release(struct enum_symmetry *s)
{
	free(s->node_class);
	free(s->pod_class);
	free(s->node_perms);
	free(s->fact);
	free(s->pod_ord);
	free(s->pod_prev);
	free(s->node_prev);
	free(s->node_next);
	free(s->node_members);
	free(s->class_members);
	free(s->pods_after);
	free(s->nodes_after);
	free(s->pod_multi);
	free(s->node_multi);
	free(s->key_field);
	memset(s, 0, sizeof *s);
}

/* ---------------------------------------------------------- placements */

/* Column k's key of placement key[] (enum_placement_keys). */
static const uint64_t *column(const struct enum_symmetry *s, const uint64_t *key,
			      int k)
{
	return key + (size_t)k * (size_t)s->key_words;
}

#define column_cmp enum_placement_column_cmp

/* M[c][k] (file comment): pods of class ordinal c at column k. */
static int count_at(const struct enum_symmetry *s, const uint64_t *key, int k,
		    int c)
{
	const struct enum_key_field *f = &s->key_field[c];
	return (int)(column(s, key, k)[f->word] >> f->shift & f->mask);
}

void enum_placement_keys(const struct enum_symmetry *s, const int *d,
			 uint64_t *key)
{
	assert(s && d && key);
	memset(key, 0, sizeof *key * (size_t)s->key_words * (size_t)(s->n_nodes + 1));
	for (int p = 0; p < s->n_pods; p++) {
		const struct enum_key_field *f = &s->key_field[s->pod_ord[p]];
		key[d[p] * s->key_words + f->word] += UINT64_C(1) << f->shift;
	}
}

/* A placement's keys, on the heap: the enumerator's walk keeps its own
 * (enum_placement_keys into a worker's buffer); these entry points serve
 * the rest. */
static uint64_t *key_buf(const struct enum_symmetry *s)
{
	size_t n = (size_t)s->key_words * (size_t)(s->n_nodes + 1);
	return xcalloc(n + 1, sizeof(uint64_t));
}

/* Pods of each class in non-decreasing digit order. */
static bool pods_ordered(const struct enum_symmetry *s, const int *d)
{
	return enum_placement_pods_ordered(s, d);
}

/* Pod arrangements: n_c! / prod_k M[c][k]! over the pod classes (1 for
 * a single pod). */
static uint64_t pod_arrangements(const struct enum_symmetry *s,
				 const uint64_t *key)
{
	uint64_t size = 1;
	int cols = s->n_nodes + 1;
	for (int i = 0; i < s->n_pod_multi; i++) {
		int c = s->pod_multi[i];
		uint64_t denom = 1;
		for (int col = 0; col < cols; col++)
			denom *= s->fact[count_at(s, key, col, c)];
		size *= s->fact[s->class_members[c]] / denom;
	}
	return size;
}

/* size_of for keys whose columns are ordered (enum_placement_ordered): equal
 * columns of a node class are then consecutive members, so each run's
 * length is its multiplicity - one comparison a member instead of
 * size_of's look back over the class. */
uint64_t enum_placement_size_ordered(const struct enum_symmetry *s,
				     const uint64_t *key)
{
	uint64_t size = pod_arrangements(s, key);
	for (int i = 0; i < s->n_node_multi; i++) {
		int n = s->node_multi[i];
		uint64_t denom = 1;
		int run = 1;
		for (int a = n; a >= 0; a = s->node_next[a]) {
			int b = s->node_next[a];
			if (b >= 0 && column_cmp(s, key, a, b) == 0) {
				run++;
				continue;
			}
			denom *= s->fact[run];
			run = 1;
		}
		size *= s->fact[s->node_members[n]] / denom;
	}
	return size;
}

/* The class size of the placement whose keys are key. */
static uint64_t size_of(const struct enum_symmetry *s, const uint64_t *key)
{
	uint64_t size = pod_arrangements(s, key);
	/* distinct column orders within each node class (1 for a single
	 * node) */
	for (int i = 0; i < s->n_node_multi; i++) {
		int n = s->node_multi[i];
		uint64_t denom = 1;
		for (int a = n; a >= 0; a = s->node_next[a]) {
			/* count a's column once: at its first occurrence */
			bool first = true;
			for (int b = s->node_prev[a]; b >= 0 && first; b = s->node_prev[b])
				if (column_cmp(s, key, a, b) == 0)
					first = false;
			if (!first)
				continue;
			int mult = 0;
			for (int b = a; b >= 0; b = s->node_next[b])
				mult += column_cmp(s, key, a, b) == 0;
			denom *= s->fact[mult];
		}
		size *= s->fact[s->node_members[n]] / denom;
	}
	return size;
}

bool enum_placement_class_keyed(const struct enum_symmetry *s, const int *d,
				const uint64_t *key, uint64_t *size)
{
	assert(s && d && key);
	if (!enum_placement_ordered(s, d, key))
		return false;
	if (size)
		*size = enum_placement_size_ordered(s, key);
	return true;
}

int enum_placement_skip(const struct enum_symmetry *s, const int *d)
{
	assert(s && d);
	int k = -1;
	for (int i = 0; i < s->n_pods_after; i++) {
		int p = s->pods_after[i], q = s->pod_prev[p];
		if (d[q] > d[p] && q > k)
			k = q;
	}
	return k;
}

/* enum_placement_class_keyed on keys worked out from d. */
static bool class_test(const struct enum_symmetry *s, const int *d,
		       uint64_t *size)
{
	if (!pods_ordered(s, d))
		return false;
	if (!size && s->n_nodes_after == 0)
		return true;
	uint64_t *key = key_buf(s);
	enum_placement_keys(s, d, key);
	bool ok = enum_placement_class_keyed(s, d, key, size);
	free(key);
	return ok;
}

bool enum_placement_canonical(const struct enum_symmetry *s, const int *d)
{
	assert(s && d);
	return class_test(s, d, NULL);
}

uint64_t enum_placement_class_size(const struct enum_symmetry *s, const int *d)
{
	assert(s && d);
	uint64_t *key = key_buf(s);
	enum_placement_keys(s, d, key);
	uint64_t size = size_of(s, key);
	free(key);
	return size;
}

bool enum_placement_class_of(const struct enum_symmetry *s, const int *d,
			     uint64_t *size)
{
	assert(s && d && size);
	return class_test(s, d, size);
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
