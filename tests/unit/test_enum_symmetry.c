/*
 * test_enum_symmetry.c - the enumerator's symmetry reduction
 * (enum/symmetry.c): the representative test of placements, class sizes,
 * and the canonical form of reachable states.  Every count is derived by
 * hand in the comment above it.
 */
#include "check.h"

#include <string.h>

#include "../../enum/enum.h"

/* Digits of index in base (nodes+1), pod 0 fastest (placements.c). */
static void digits(int nodes, int pods, int index, int *d)
{
	for (int p = 0; p < pods; p++) {
		d[p] = index % (nodes + 1);
		index /= nodes + 1;
	}
}

/* Counts representatives and sums their class sizes over every
 * placement; sizes[k] gets the size of the k-th representative. */
static int classes(const struct enum_symmetry *s, uint64_t *total, uint64_t *sizes)
{
	int n = 0, raw = 1, d[8];
	for (int p = 0; p < s->n_pods; p++)
		raw *= s->n_nodes + 1;
	*total = 0;
	for (int i = 0; i < raw; i++) {
		digits(s->n_nodes, s->n_pods, i, d);
		if (!enum_placement_canonical(s, d))
			continue;
		uint64_t k = enum_placement_class_size(s, d);
		if (sizes)
			sizes[n] = k;
		*total += k;
		n++;
	}
	return n;
}

static void two_identical_nodes_two_identical_pods(void)
{
	/* 2 nodes, 2 pods: (2+1)^2 = 9 placements.  Classes:
	 *   both pending                      1 placement
	 *   one bound, one pending            2 pods x 2 nodes = 4
	 *   both on the same node             2 (n1 or n2)
	 *   on different nodes                2 (a-n1 b-n2, a-n2 b-n1)
	 * 4 classes, 1 + 4 + 2 + 2 = 9. Visited in index order (pod 0's
	 * digit fastest) the representatives are [0,0] (pending, pending),
	 * [0,1] (a pending, b on n1), [1,1] (both on n1), [1,2]. */
	int nc[2] = {0, 0}, pc[2] = {0, 0};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 2, 2, nc, pc, true);
	uint64_t total, sizes[9];
	CHECK_EQ(classes(&s, &total, sizes), 4);
	CHECK_EQ(total, 9);
	CHECK_EQ(sizes[0], 1);
	CHECK_EQ(sizes[1], 4);
	CHECK_EQ(sizes[2], 2);
	CHECK_EQ(sizes[3], 2);
	int d[2] = {1, 0};          /* a on n1, b pending: not sorted */
	CHECK(!enum_placement_canonical(&s, d));
	d[0] = 0;
	d[1] = 2;                   /* a pending, b on n2: n2's column (1) > n1's (0) */
	CHECK(!enum_placement_canonical(&s, d));
	enum_symmetry_release(&s);
}

static void three_identical_nodes_two_identical_pods(void)
{
	/* 3 nodes, 2 pods: 4^2 = 16 placements.  Classes:
	 *   both pending 1; one bound one pending 2*3 = 6; both on one node 3;
	 *   on different nodes 3*2 = 6.  4 classes, 16 in all. */
	int nc[3] = {0, 0, 0}, pc[2] = {0, 0};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 3, 2, nc, pc, true);
	uint64_t total;
	CHECK_EQ(classes(&s, &total, NULL), 4);
	CHECK_EQ(total, 16);
	enum_symmetry_release(&s);
}

static void identical_nodes_distinct_pods(void)
{
	/* 2 identical nodes, 2 different pods: 9 placements; only nodes
	 * swap.  Classes: (-,-) 1; (-,node) 2; (node,-) 2; same node 2;
	 * different nodes 2: 5 classes, 9 in all. */
	int nc[2] = {0, 0}, pc[2] = {0, 1};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 2, 2, nc, pc, true);
	uint64_t total;
	CHECK_EQ(classes(&s, &total, NULL), 5);
	CHECK_EQ(total, 9);
	enum_symmetry_release(&s);
}

static void two_node_classes(void)
{
	/* n1 = n2, n3 different; 1 pod: 4 placements, classes pending (1),
	 * on n1 or n2 (2), on n3 (1): 3 classes.  With two identical pods:
	 * 16 placements; classes by how many pods are on {n1,n2} as a
	 * multiset and on n3:
	 *   pending, pending                           1
	 *   one pending + one on n1|n2                 2*2 = 4
	 *   one pending + one on n3                    2
	 *   both on one of n1|n2                       2
	 *   one on n1, one on n2                       2
	 *   one on n1|n2, one on n3                    2*2 = 4
	 *   both on n3                                 1
	 * 7 classes, 1+4+2+2+2+4+1 = 16. */
	int nc[3] = {0, 0, 2}, pc1[1] = {0}, pc2[2] = {0, 0};
	struct enum_symmetry s;
	uint64_t total;
	enum_symmetry_init(&s, 3, 1, nc, pc1, true);
	CHECK_EQ(classes(&s, &total, NULL), 3);
	CHECK_EQ(total, 4);
	enum_symmetry_release(&s);
	enum_symmetry_init(&s, 3, 2, nc, pc2, true);
	CHECK_EQ(classes(&s, &total, NULL), 7);
	CHECK_EQ(total, 16);
	enum_symmetry_release(&s);
}

static void symmetry_off(void)
{
	/* on = false: every placement is its own class of size 1 */
	int nc[2] = {0, 0}, pc[2] = {0, 0};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 2, 2, nc, pc, false);
	uint64_t total;
	CHECK_EQ(classes(&s, &total, NULL), 9);
	CHECK_EQ(total, 9);
	enum_symmetry_release(&s);
}

static void reachable_states(void)
{
	/* 2 identical nodes, 1 pod (4 bytes: node+3, nominated+1, waiting,
	 * queue rank).  On n1 and on n2 are one class of 2 whose canonical
	 * form is the least encoding, "on n1" (3); pending nominated to n2
	 * becomes nominated to n1 (1), class 2; plain pending is alone. */
	int nc[2] = {0, 0}, pc[1] = {0};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 2, 1, nc, pc, true);
	uint8_t on_n2[4] = {4, 0, 0, 0}, out[4];
	uint64_t orbit;
	enum_state_canonical(&s, on_n2, out, &orbit);
	CHECK_EQ(out[0], 3);
	CHECK_EQ(orbit, 2);
	uint8_t nominated_n2[4] = {2, 2, 1, 1};
	enum_state_canonical(&s, nominated_n2, out, &orbit);
	CHECK_EQ(out[0], 2);
	CHECK_EQ(out[1], 1);
	CHECK_EQ(orbit, 2);
	uint8_t pending[4] = {2, 0, 0, 0};
	enum_state_canonical(&s, pending, out, &orbit);
	CHECK_EQ(orbit, 1);
	enum_symmetry_release(&s);

	/* 2 identical nodes, 2 identical pods: (a on n2, b pending) has the
	 * canonical form (a pending, b on n1): tuples sorted per class
	 * (pending = 2 before on-n1 = 3); its class is the 4 placements
	 * "one bound, one pending". */
	int pc2[2] = {0, 0};
	enum_symmetry_init(&s, 2, 2, nc, pc2, true);
	uint8_t st[8] = {4, 0, 0, 0, 2, 0, 0, 0}, o2[8];
	enum_state_canonical(&s, st, o2, &orbit);
	CHECK_EQ(o2[0], 2);
	CHECK_EQ(o2[4], 3);
	CHECK_EQ(orbit, 4);
	enum_symmetry_release(&s);
}

/* ------------------------------------------- against brute-force orbits */

#define BF_MAX 5   /* nodes and pods of the brute-force cases */

/* Every placement d' = (pod perm sigma, node perm tau) . d, by recursion
 * over the pods: pod p's digit moves to an unused pod sigma(p) of its
 * class; placements are numbered like the odometer. */
static void orbit_rec(const struct enum_symmetry *s, const int *d, const int *tau,
		      int p, int *out, bool *used, bool *seen)
{
	if (p == s->n_pods) {
		int index = 0;
		for (int q = s->n_pods - 1; q >= 0; q--)
			index = index * (s->n_nodes + 1) + out[q];
		seen[index] = true;
		return;
	}
	for (int q = 0; q < s->n_pods; q++) {
		if (used[q] || s->pod_class[q] != s->pod_class[p])
			continue;
		used[q] = true;
		out[q] = d[p] ? tau[d[p] - 1] + 1 : 0;
		orbit_rec(s, d, tau, p + 1, out, used, seen);
		used[q] = false;
	}
}

/* Classes from a code: element i joins the class of the lowest j < i
 * with the same code[] value (ids are the lowest member, enum.h). */
static void classes_of(const int *code, int n, int *cls)
{
	for (int i = 0; i < n; i++) {
		cls[i] = i;
		for (int j = 0; j < i; j++)
			if (code[j] == code[i]) {
				cls[i] = j;
				break;
			}
	}
}

/* For every placement of every class structure of up to 3 nodes and 4
 * pods: the class size equals the orbit's size counted by applying
 * every pod and node permutation within classes, exactly one member of
 * each orbit is canonical, and the sizes of the canonical placements
 * sum to (nodes+1)^pods. */
static void brute_force_orbits(void)
{
	static const int codes[][BF_MAX] = {
		{0, 0, 0, 0}, {0, 1, 2, 3}, {0, 0, 1, 1}, {0, 1, 0, 1},
		{0, 1, 1, 1}, {1, 0, 0, 2}, {0, 0, 0, 1},
	};
	int n_codes = (int)(sizeof codes / sizeof codes[0]);
	for (int nodes = 1; nodes <= 3; nodes++)
	for (int pods = 1; pods <= 4; pods++)
	for (int nci = 0; nci < n_codes; nci++)
	for (int pci = 0; pci < n_codes; pci++) {
		int nc[BF_MAX], pc[BF_MAX];
		classes_of(codes[nci], nodes, nc);
		classes_of(codes[pci], pods, pc);
		struct enum_symmetry s;
		enum_symmetry_init(&s, nodes, pods, nc, pc, true);
		int raw = 1;
		for (int p = 0; p < pods; p++)
			raw *= nodes + 1;
		bool seen[1024];
		int reps_in_orbit_bad = 0, size_bad = 0, of_bad = 0;
		uint64_t total = 0, of_total = 0;
		for (int i = 0; i < raw; i++) {
			int d[BF_MAX], out[BF_MAX];
			bool used[BF_MAX] = {0};
			digits(nodes, pods, i, d);
			memset(seen, 0, sizeof seen);
			for (int t = 0; t < s.n_perms; t++)
				orbit_rec(&s, d, &s.node_perms[t * nodes], 0, out, used, seen);
			uint64_t orbit = 0;
			int reps = 0;
			for (int j = 0; j < raw; j++) {
				if (!seen[j])
					continue;
				orbit++;
				int e[BF_MAX];
				digits(nodes, pods, j, e);
				reps += enum_placement_canonical(&s, e);
			}
			reps_in_orbit_bad += reps != 1;
			size_bad += enum_placement_class_size(&s, d) != orbit;
			if (enum_placement_canonical(&s, d))
				total += enum_placement_class_size(&s, d);
			/* the one-pass form: representative iff canonical,
			 * and then the brute-force orbit size */
			uint64_t w = 0;
			bool rep = enum_placement_class_of(&s, d, &w);
			of_bad += rep != enum_placement_canonical(&s, d) ||
				  (rep && w != orbit) || (!rep && w != 0);
			of_total += rep ? w : 0;
		}
		CHECK_EQ(reps_in_orbit_bad, 0);
		CHECK_EQ(size_bad, 0);
		CHECK_EQ(total, raw);
		CHECK_EQ(of_bad, 0);
		CHECK_EQ(of_total, raw);
		enum_symmetry_release(&s);
	}
}

/* A walk in odometer order that moves keys pod by pod
 * (enum_placement_key_move) holds, at every placement, the keys worked
 * out from scratch, and the keyed test answers as enum_placement_class_of:
 * 3 nodes of which 2 alike, pods a a b (a class of 2 and a single).
 * Total of the class sizes: all 4^3 = 64 placements. */
static void walked_keys(void)
{
	int nc[3] = {0, 0, 2}, pc[3] = {0, 0, 2};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 3, 3, nc, pc, true);
	CHECK_EQ(s.key_words, 1);
	int d[3] = {0, 0, 0};
	uint64_t key[4], fresh[4], total = 0;
	enum_placement_keys(&s, d, key);
	int bad_keys = 0, bad_test = 0;
	for (int i = 0; i < 64; i++) {
		if (i > 0) {
			/* the odometer of enum/placements.c */
			for (int p = 0; p < 3; p++) {
				int v = d[p] < 3 ? d[p] + 1 : 0;
				enum_placement_key_move(&s, key, p, d[p], v);
				d[p] = v;
				if (v)
					break;
			}
		}
		enum_placement_keys(&s, d, fresh);
		bad_keys += memcmp(key, fresh, sizeof key) != 0;
		uint64_t w1 = 0, w2 = 0;
		bool a = enum_placement_class_keyed(&s, d, key, &w1);
		bool b = enum_placement_class_of(&s, d, &w2);
		bad_test += a != b || w1 != w2;
		total += a ? w1 : 0;
	}
	CHECK_EQ(bad_keys, 0);
	CHECK_EQ(bad_test, 0);
	CHECK_EQ(total, 64);
	enum_symmetry_release(&s);
}

/* 70 distinct pods need 70 one-bit fields: two key words, pods 64..69 in
 * the second.  On 2 alike nodes, a column sorts first when it holds the
 * first pod (in pod order) the two columns differ in; with node 1
 * holding pod 68 and node 2 pod 69 the columns are in order, swapped
 * they are not (the difference is in word 2 alone). */
static void keys_over_two_words(void)
{
	enum { PODS = 70 };
	int nc[2] = {0, 0}, pc[PODS], d[PODS] = {0};
	for (int p = 0; p < PODS; p++)
		pc[p] = p;
	struct enum_symmetry s;
	enum_symmetry_init(&s, 2, PODS, nc, pc, true);
	CHECK_EQ(s.key_words, 2);
	d[68] = 1;
	d[69] = 2;
	CHECK(enum_placement_canonical(&s, d));
	/* the class: the same with the nodes swapped */
	CHECK_EQ(enum_placement_class_size(&s, d), 2);
	d[68] = 2;
	d[69] = 1;
	CHECK(!enum_placement_canonical(&s, d));
	/* both on node 1: the class is that and both on node 2 */
	d[68] = 1;
	d[69] = 1;
	CHECK(enum_placement_canonical(&s, d));
	CHECK_EQ(enum_placement_class_size(&s, d), 2);
	d[69] = 0;
	d[0] = 2;
	/* node 1 {68} against node 2 {0}: pod 0 comes first, so node 2's
	 * column sorts first and the order is wrong */
	CHECK(!enum_placement_canonical(&s, d));
	enum_symmetry_release(&s);
}

/* enum_placement_skip on 3 distinct nodes (digits 0..3) and 3 alike
 * pods: d = {3,2,1} has pods 0,1 and 1,2 out of order, the highest
 * first member of such a pair is pod 1; {2,1,3} only pods 0,1 (k = 0);
 * {0,1,3} none (-1).  A walk that jumps as enum/placements.c does meets
 * every representative - the multisets of 3 digits out of 4, C(6,3) =
 * 20 - whose class sizes add up to all 4^3 = 64 placements, and passes
 * over some placements without testing them. */
static void skipped_walk(void)
{
	int nc[3] = {0, 1, 2}, pc[3] = {0, 0, 0};
	struct enum_symmetry s;
	enum_symmetry_init(&s, 3, 3, nc, pc, true);
	CHECK_EQ(enum_placement_skip(&s, (const int[]){3, 2, 1}), 1);
	CHECK_EQ(enum_placement_skip(&s, (const int[]){2, 1, 3}), 0);
	CHECK_EQ(enum_placement_skip(&s, (const int[]){0, 1, 3}), -1);
	int d[3] = {0, 0, 0}, reps = 0, tested = 0;
	uint64_t key[4], total = 0;
	enum_placement_keys(&s, d, key);
	for (uint64_t i = 0; i < 64; i++) {
		if (i > 0)
			for (int p = 0; p < 3; p++) {
				int v = d[p] < 3 ? d[p] + 1 : 0;
				enum_placement_key_move(&s, key, p, d[p], v);
				d[p] = v;
				if (v)
					break;
			}
		tested++;
		if (!enum_placement_ordered(&s, d, key)) {
			/* digits 0..k to their last value: the next step carries */
			uint64_t n = 0;
			for (int p = enum_placement_skip(&s, d); p >= 0; p--) {
				n = n * 4 + (uint64_t)(3 - d[p]);
				enum_placement_key_move(&s, key, p, d[p], 3);
				d[p] = 3;
			}
			i += n;
			continue;
		}
		reps++;
		total += enum_placement_size_ordered(&s, key);
	}
	CHECK_EQ(reps, 20);
	CHECK_EQ(total, 64);
	CHECK(tested < 64);
	enum_symmetry_release(&s);
}

int main(void)
{
	two_identical_nodes_two_identical_pods();
	three_identical_nodes_two_identical_pods();
	identical_nodes_distinct_pods();
	two_node_classes();
	symmetry_off();
	reachable_states();
	brute_force_orbits();
	walked_keys();
	keys_over_two_words();
	skipped_walk();
	return check_done("test_enum_symmetry");
}
