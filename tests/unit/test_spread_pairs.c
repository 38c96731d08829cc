/*
 * test_spread_pairs.c - the (constraint, topology value) table of
 * PodTopologySpread (model/spread_constraints.h) past its first room:
 * 2,000 domains over two constraints (a zone per node on a big cluster)
 * make it grow and re-index several times, on the heap and in a scratch
 * arena; every pair keeps its index, is found again, and a copy answers
 * the same.
 */
#include "check.h"

#include <stdio.h>

#include "../../model/spread_constraints.h"

#define DOMAINS 1000

static char names[DOMAINS][16];

/* The table with its storage from a (NULL: the heap). */
static void pairs_in(struct arena *a)
{
	struct model_spread_pairs t;
	model_spread_pairs_init(&t, a);
	int idx[2][DOMAINS];
	for (int v = 0; v < DOMAINS; v++) {
		snprintf(names[v], sizeof names[v], "zone-%d", v);
		for (int s = 0; s < 2; s++) {
			bool is_new = false;
			idx[s][v] = model_spread_pairs_add(&t, s, names[v], &is_new);
			CHECK(is_new);
		}
	}
	CHECK_EQ(t.n, 2 * DOMAINS);
	/* added in order: (slot 0, v) then (slot 1, v) */
	CHECK_EQ(idx[0][0], 0);
	CHECK_EQ(idx[1][0], 1);
	CHECK_EQ(idx[1][DOMAINS - 1], 2 * DOMAINS - 1);
	int found = 0, again_new = 0;
	for (int v = 0; v < DOMAINS; v++)
		for (int s = 0; s < 2; s++) {
			found += model_spread_pairs_find(&t, s, names[v]) == idx[s][v];
			bool is_new = true;
			int k = model_spread_pairs_add(&t, s, names[v], &is_new);
			again_new += is_new || k != idx[s][v];
		}
	CHECK_EQ(found, 2 * DOMAINS);
	CHECK_EQ(again_new, 0);
	CHECK_EQ(model_spread_pairs_find(&t, 0, "zone-x"), -1);
	CHECK_EQ(model_spread_pairs_find(&t, 2, "zone-1"), -1);
	struct model_spread_pairs c;
	model_spread_pairs_copy(&c, &t, a);
	int same = 0;
	for (int v = 0; v < DOMAINS; v++)
		same += model_spread_pairs_find(&c, 1, names[v]) == idx[1][v];
	CHECK_EQ(same, DOMAINS);
	model_spread_pairs_release(&c);
	model_spread_pairs_release(&t);
}

int main(void)
{
	pairs_in(NULL);
	struct arena a;
	arena_init(&a);
	struct arena_mark m = arena_mark(&a);
	pairs_in(&a);
	arena_reset(&a, m);
	pairs_in(&a);
	arena_release(&a);
	return check_done("test_spread_pairs");
}
