/*
 * test_given_scores.c - core/verdict.h's sched_given_cover (every score
 * plugin at once) against its definition, sched_given_covers (one plugin):
 * a plugin's given scores stand for its Score when every feasible node has
 * them, and for a normalized plugin (its NormalizeScore reads the whole
 * scored set) only when no other node has them.  The expected sets are
 * worked out by hand from that rule for the tables below.
 */
#include "check.h"

#include "../../core/verdict.h"

/* bits of three plugins: A plain, B and C normalized */
enum { A = 1, B = 4, C = 9 };
#define BIT(id) (UINT32_C(1) << (id))

int main(void)
{
	/* five nodes; node 0 and 3 have A, B and C, node 1 has A and C,
	 * node 2 has B only, node 4 nothing */
	const uint32_t known[5] = {
		BIT(A) | BIT(B) | BIT(C), BIT(A) | BIT(C), BIT(B),
		BIT(A) | BIT(B) | BIT(C), 0,
	};
	int64_t raw[5 * PLUGIN_COUNT] = {0};
	struct sched_given_scores g = {known, raw, BIT(B) | BIT(C)};

	/* feasible {0, 3}: A on both (plain: covered); B on both but also
	 * on node 2 outside (normalized: not covered); C on both and on
	 * node 1 outside (not covered) */
	const int f03[] = {0, 3};
	CHECK_EQ(sched_given_cover(&g, f03, 2, 5), BIT(A));
	/* feasible {0, 1, 3}: A on all three (covered); C on all three and
	 * on no other node (covered); B missing on node 1 */
	const int f013[] = {0, 1, 3};
	CHECK_EQ(sched_given_cover(&g, f013, 3, 5), BIT(A) | BIT(C));
	/* feasible {0, 2, 3}: B on all three and nowhere else (covered);
	 * A and C missing on node 2 */
	const int f023[] = {0, 2, 3};
	CHECK_EQ(sched_given_cover(&g, f023, 3, 5), BIT(B));
	/* the same set out of node order: the per-plugin way, same answer */
	const int f320[] = {3, 2, 0};
	CHECK_EQ(sched_given_cover(&g, f320, 3, 5), BIT(B));
	const int f310[] = {3, 1, 0};
	CHECK_EQ(sched_given_cover(&g, f310, 3, 5), BIT(A) | BIT(C));
	/* node 4 feasible: it has nothing, so nothing is covered */
	const int f04[] = {0, 4};
	CHECK_EQ(sched_given_cover(&g, f04, 2, 5), 0);
	/* no feasible node, or no given scores: nothing */
	CHECK_EQ(sched_given_cover(&g, f03, 0, 5), 0);
	CHECK_EQ(sched_given_cover(NULL, f03, 2, 5), 0);

	/* every plugin id and every feasible subset of the five nodes in
	 * node order: the one-pass set is the per-plugin answers' */
	for (int set = 1; set < 32; set++) {
		int f[5], n = 0;
		for (int k = 0; k < 5; k++)
			if (set >> k & 1)
				f[n++] = k;
		uint32_t want = 0;
		for (int id = 0; id < PLUGIN_COUNT; id++)
			if (sched_given_covers(&g, id, f, n, 5))
				want |= BIT(id);
		CHECK_EQ(sched_given_cover(&g, f, n, 5), want);
	}
	return check_done("test_given_scores");
}
