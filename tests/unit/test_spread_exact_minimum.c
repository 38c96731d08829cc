/*
 * test_spread_exact_minimum.c - the intended-semantics branch of the
 * PodTopologySpread critical paths (MODEL_QUIRK_SPREAD_APPROX_CRITICAL_PATHS
 * = 0, core/quirks.h): after AddPod/RemovePod, p[0] of each constraint is
 * the true minimum of its domains' counts, not kube's patched critical
 * path.  v1.30 runs the other branch, so the build never reaches this
 * function; it is tested here on its own (the file is included for its
 * static function).  Counts chosen by hand: slot 0 has domains with 3,
 * 1, 4 matching pods (minimum 1), slot 1 has 2 and 0 (minimum 0), while
 * the stale critical paths say 5 and 7.
 */
#include "check.h"

#include "../../model/filter_pod_topology_spread.c"

int main(void)
{
	struct model_spread_prefilter st;
	memset(&st, 0, sizeof st);
	struct model_spread_constraints cs;
	memset(&cs, 0, sizeof cs);
	cs.n = 2;
	st.cs = &cs;
	st.paths = st.inline_paths;
	st.paths[0][0].num = 5;
	st.paths[1][0].num = 7;
	model_spread_pairs_init(&st.pairs);
	static const struct {
		int slot;
		const char *value;
		int64_t count;
	} counts[] = {
		{0, "a", 3}, {0, "b", 1}, {0, "c", 4}, {1, "x", 2}, {1, "y", 0},
	};
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
		int k = model_spread_pairs_add(&st.pairs, counts[i].slot,
					       counts[i].value, NULL);
		st.pairs.items[k].count = counts[i].count;
	}
	pts_exact_minimum(&st);
	CHECK_EQ(st.paths[0][0].num, 1);
	CHECK_EQ(st.paths[1][0].num, 0);
	model_spread_pairs_release(&st.pairs);
	return check_done("test_spread_exact_minimum");
}
