/*
 * test_oracle_sampled.c - kube's sampled Filter pass (reference §1.4:
 * numFeasibleNodesToFind, nextStartNodeIndex) run again and again on one
 * reused cycle result.  The oracle then resets only the nodes its last
 * cycle wrote (oracle/cycle.c result_reset); whatever it resets, a reused
 * result must read exactly as a freshly initialised one: every node's
 * verdict, status, PreFilterResult flag, scores and total.
 *
 * 300 nodes of 1 cpu: kube's adaptive percentage is 50 - 300/125 = 48,
 * so a cycle stops after max(100, 300 * 48 / 100) = 144 feasible nodes,
 * starting where the last cycle stopped.  Every third node carries an
 * untolerated NoSchedule taint, so the cycles reject different nodes;
 * each pod requests 600m, so a node holds one pod and the nodes the
 * pods take change what the next cycle examines.
 */
#define TB_MAX_NODES 300
#define TB_MAX_PODS 40
#include <stdio.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "../../oracle/oracle.h"

static const char *tb_name(struct cluster *c, const char *prefix, int i)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%s%03d", prefix, i);
	return arena_strdup(&c->arena, buf);
}

/* Every per-node entry of a and b equal (statuses of the failed and the
 * reported plugin included), and the cycle's own fields. */
static bool same_everywhere(const struct sched_cycle_result *a,
			    const struct sched_cycle_result *b)
{
	if (a->code != b->code || a->n_feasible != b->n_feasible ||
	    a->n_viable != b->n_viable || a->scored != b->scored)
		return false;
	for (int n = 0; n < a->n_nodes; n++) {
		const struct sched_node_verdict *va = &a->verdicts[n];
		const struct sched_node_verdict *vb = &b->verdicts[n];
		if (va->feasible != vb->feasible || va->code != vb->code ||
		    va->rejected_by != vb->rejected_by ||
		    memcmp(va->failed, vb->failed, sizeof va->failed) ||
		    a->in_prefilter_result[n] != b->in_prefilter_result[n] ||
		    a->total[n] != b->total[n])
			return false;
		for (int k = 0; k < PLUGIN_COUNT; k++) {
			size_t at = (size_t)n * PLUGIN_COUNT + (size_t)k;
			if (a->scores[at] != b->scores[at])
				return false;
			if ((va->failed[k] || k == va->rejected_by) &&
			    !tb_status_eq(&va->status[k], &vb->status[k]))
				return false;
		}
	}
	return (!a->message && !b->message) ||
	       (a->message && b->message && !strcmp(a->message, b->message));
}

static void test_reused_result_reads_fresh(void)
{
	struct cluster c;
	tb_init(&c);
	for (int i = 0; i < TB_MAX_NODES; i++) {
		int n = tb_node(&c, tb_name(&c, "n", i), "cpu=1,pods=10", "");
		if (i % 3 == 0)
			tb_taint(&c, n, "dedicated", "x", EFFECT_NO_SCHEDULE);
	}
	for (int i = 0; i < TB_MAX_PODS; i++) {
		int p = tb_pod(&c, tb_name(&c, "p", i), "");
		tb_container(&c, p, "cpu=600m", false, false);
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	/* two oracles in the same state: one reuses its result, the other
	 * gets a new one every cycle */
	struct oracle reused, fresh;
	oracle_init(&reused, &s);
	oracle_init(&fresh, &s);
	struct sched_cycle_result kept;
	sched_cycle_result_init(&kept, &c);
	int cycles = 0, same = 0, bound = 0;
	for (int p = 0; p < c.n_pods; p++) {
		struct sched_cycle_result once;
		sched_cycle_result_init(&once, &c);
		int a = oracle_schedule_cycle(&reused, p, &kept);
		int b = oracle_schedule_cycle(&fresh, p, &once);
		cycles++;
		same += a == b && same_everywhere(&kept, &once);
		/* a sampled cycle stops at its 144th feasible node */
		int examined = 0;
		for (int n = 0; n < c.n_nodes; n++)
			examined += kept.verdicts[n].feasible;
		CHECK_EQ(examined, 144);
		if (a >= 0) {
			oracle_bind(&reused, p, a);
			oracle_bind(&fresh, p, b);
			bound++;
		}
		sched_cycle_result_release(&once);
	}
	CHECK_EQ(bound, TB_MAX_PODS);
	CHECK_EQ(same, cycles);
	sched_cycle_result_release(&kept);
	oracle_release(&reused);
	oracle_release(&fresh);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_reused_result_reads_fresh();
	return check_done("test_oracle_sampled");
}
