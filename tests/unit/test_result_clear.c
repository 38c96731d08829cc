/*
 * test_result_clear.c - core/verdict.c's sched_cycle_result_clear on a
 * result that serves many cycles: the scores and totals a scoring cycle
 * wrote (it sets scores_written) are all back to 0 after the clear, and
 * so they stay across clears of cycles that score nothing; the head is
 * "nothing decided" for the new pod either way.
 */
#include "check.h"

#include "../../core/objects.h"
#include "../../core/verdict.h"

static int64_t sum_scores(const struct sched_cycle_result *r)
{
	int64_t s = 0;
	for (int i = 0; i < r->n_nodes * PLUGIN_COUNT; i++)
		s += r->scores[i] != 0;
	for (int n = 0; n < r->n_nodes; n++)
		s += r->total[n] != 0;
	return s;
}

int main(void)
{
	struct cluster c;
	memset(&c, 0, sizeof c);
	c.n_nodes = 3;
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	CHECK(!r.scores_written);

	/* a cycle scores nodes 0 and 2 with one plugin (weight 2: 50 -> 100,
	 * 30 -> 60), as the engines' scoring writes them */
	r.scores_written = true;
	r.scores[0 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION] = 100;
	r.scores[2 * PLUGIN_COUNT + PLUGIN_TAINT_TOLERATION] = 60;
	r.total[0] = 100;
	r.total[2] = 60;
	r.n_feasible = 2;
	r.scored = true;
	CHECK_EQ(sum_scores(&r), 4);

	sched_cycle_result_clear(&r, 1);
	CHECK_EQ(sum_scores(&r), 0);
	CHECK(!r.scores_written);
	CHECK_EQ(r.pod, 1);
	CHECK_EQ(r.n_feasible, 0);
	CHECK(!r.scored);

	/* a cycle that scores nothing, then the next clear: still all 0 */
	r.in_prefilter_result[1] = false;
	sched_cycle_result_clear(&r, 2);
	CHECK_EQ(sum_scores(&r), 0);
	CHECK_EQ(r.pod, 2);
	CHECK(r.in_prefilter_result[1]);

	sched_cycle_result_release(&r);
	return check_done("test_result_clear");
}
