/*
 * test_oracle_decisions_only.c - the oracle's quiet mode (oracle.h, struct
 * oracle.quiet: decisions without text) against the oracle with text:
 * for every fixture scenario, pods scheduled one after another (each
 * chosen node bound in both oracles, so later cycles see fuller
 * placements), every cycle and every preemption must decide alike -
 * feasible, scores, totals, viable, codes, each verdict's code,
 * rejected_by and failed[], the preemption's code, node, victims and
 * candidates - while quiet builds no message and writes no filter
 * status.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fixture_walk.h"
#include "../../model/model.h"
#include "../../model/preemption.h"
#include "../../oracle/oracle.h"

static int cycles_compared, preemptions_compared, fixtures_compared;

static bool same_ints(const int *a, int na, const int *b, int nb)
{
	return na == nb && (na == 0 || memcmp(a, b, sizeof(int) * (size_t)na) == 0);
}

/* a (with text) and b (quiet) decide alike; b carries no text. */
static void compare_cycle(const struct cluster *c, const struct sched_cycle_result *a,
			  const struct sched_cycle_result *b)
{
	CHECK_EQ(b->code, a->code);
	CHECK(same_ints(a->feasible, a->n_feasible, b->feasible, b->n_feasible));
	CHECK(same_ints(a->viable, a->n_viable, b->viable, b->n_viable));
	CHECK_EQ(b->scored, a->scored);
	CHECK_EQ(b->nominated_node, a->nominated_node);
	size_t n = (size_t)c->n_nodes;
	CHECK(memcmp(a->scores, b->scores, sizeof(*a->scores) * n * PLUGIN_COUNT) == 0);
	CHECK(memcmp(a->total, b->total, sizeof(*a->total) * n) == 0);
	for (size_t i = 0; i < n; i++) {
		const struct sched_node_verdict *x = &a->verdicts[i], *y = &b->verdicts[i];
		CHECK_EQ(y->feasible, x->feasible);
		CHECK_EQ(y->code, x->code);
		CHECK_EQ(y->rejected_by, x->rejected_by);
		CHECK(memcmp(x->failed, y->failed, sizeof(x->failed)) == 0);
		/* a failure reported by a Filter plugin has its reasons in
		 * the loud result only */
		if (x->rejected_by >= 0 && a->prefilter.code == SCHED_SUCCESS &&
		    x->code != SCHED_UAU) {
			CHECK(x->status[x->rejected_by].n_reasons > 0);
			CHECK_EQ(y->status[y->rejected_by].n_reasons, 0);
		}
	}
	if (a->code == SCHED_UNSCHEDULABLE) {
		CHECK(a->message != NULL);
		CHECK(b->message == NULL);
	}
	cycles_compared++;
}

static void compare_preemption(const struct sched_preemption *a,
			       const struct sched_preemption *b)
{
	CHECK_EQ(b->eligible, a->eligible);
	CHECK_EQ(b->code, a->code);
	CHECK_EQ(b->node, a->node);
	CHECK_EQ(b->n_candidates, a->n_candidates);
	CHECK_EQ(b->clear_own_nomination, a->clear_own_nomination);
	if (a->node >= 0)
		CHECK(same_ints(a->chosen.pods, a->chosen.n, b->chosen.pods, b->chosen.n));
	for (int i = 0; i < a->n_candidates && i < b->n_candidates; i++) {
		CHECK_EQ(b->candidates[i].node, a->candidates[i].node);
		CHECK(same_ints(a->candidates[i].pods, a->candidates[i].n,
				b->candidates[i].pods, b->candidates[i].n));
	}
	/* a FitError of an eligible pod: the loud message only */
	if (a->eligible && a->code == SCHED_UNSCHEDULABLE && a->node < 0) {
		CHECK(a->message != NULL &&
		      strncmp(a->message, "preemption: 0/", 14) == 0);
		CHECK(b->message == NULL);
	}
	preemptions_compared++;
}

static void diff_fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load(path, &c))
		return;
	struct snapshot s;
	snapshot_init(&s, &c);
	struct oracle loud, quiet;
	oracle_init(&loud, &s);
	oracle_init(&quiet, &s);
	loud.all_nodes = quiet.all_nodes = true;
	quiet.quiet = true;
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, &c);
	sched_cycle_result_init(&b, &c);
	for (int p = 0; p < c.n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(&c, p);
		if (s.pod_node[p] != SNAP_PENDING || !prof)
			continue;
		int ca = oracle_schedule_cycle(&loud, p, &a);
		int cb = oracle_schedule_cycle(&quiet, p, &b);
		CHECK_EQ(cb, ca);
		compare_cycle(&c, &a, &b);
		if (a.code == SCHED_UNSCHEDULABLE && prof->postfilter[PLUGIN_DEFAULT_PREEMPTION]) {
			struct sched_preemption pa, pb;
			sched_preemption_init(&pa);
			sched_preemption_init(&pb);
			oracle_preempt(&loud, prof, p, &a, 0, &pa);
			oracle_preempt(&quiet, prof, p, &b, 0, &pb);
			compare_preemption(&pa, &pb);
			sched_preemption_release(&pa);
			sched_preemption_release(&pb);
		}
		/* both oracles move on to the same fuller placement */
		if (ca >= 0) {
			oracle_bind(&loud, p, ca);
			oracle_bind(&quiet, p, ca);
		}
	}
	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	oracle_release(&loud);
	oracle_release(&quiet);
	snapshot_release(&s);
	cluster_release(&c);
	fixtures_compared++;
}

int main(void)
{
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, diff_fixture);
	printf("test_oracle_decisions_only: %d cycles, %d preemptions in %d fixtures\n",
	       cycles_compared, preemptions_compared, fixtures_compared);
	CHECK(cycles_compared > 100);
	CHECK(preemptions_compared > 10);
	return check_done("test_oracle_decisions_only");
}
