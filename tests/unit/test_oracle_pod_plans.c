/*
 * test_oracle_pod_plans.c - what the oracle compiles once per pod and keeps
 * for its lifetime (oracle/selector.c oracle_sel_keep, the per-pod
 * PodTopologySpread plans of oracle/spread.c and InterPodAffinity plans
 * of oracle/interpod.c):
 *   1. kept selectors: equal requirements (separately allocated) share
 *      one group-match table, different ones do not; the table's
 *      decisions are the selector's on each group's labels, and stay so
 *      when asked again;
 *   2. one pod cycled again and again on one oracle while the placement
 *      changes (its plan is reused): feasible nodes derived by hand from
 *      the spread skew and the anti-affinity rule, and the model's
 *      from-scratch result agreeing at every step.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "../../model/model.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"

static void snap_pending(struct snapshot *s, const struct cluster *c)
{
	snapshot_init(s, c);
	for (int p = 0; p < c->n_pods; p++) {
		s->pod_node[p] = SNAP_PENDING;
		s->nominated[p] = -1;
	}
}

/* ------------------------------------------------------- kept selectors */

static void test_keep(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "cpu=1,memory=1Gi,pods=10", "");
	int w1 = tb_pod(&c, "w1", "");
	c.pods[w1].labels = tb_labels(&c, "app=web,tier=front");
	int w2 = tb_pod(&c, "w2", "");
	c.pods[w2].labels = tb_labels(&c, "app=web,tier=front");
	int db = tb_pod(&c, "db", "");
	c.pods[db].labels = tb_labels(&c, "app=db");
	struct snapshot s;
	snap_pending(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	struct oracle_data *d = o.d;
	CHECK_EQ(d->pod_group[w1], d->pod_group[w2]);
	int gw = d->pod_group[w1], gd = d->pod_group[db];
	CHECK(gw != gd);

	/* {app: web} twice, from different storage; {app: db} */
	struct label_selector a = {.present = true, .match_labels = tb_labels(&c, "app=web")};
	struct label_selector b = {.present = true, .match_labels = tb_labels(&c, "app=web")};
	struct label_selector x = {.present = true, .match_labels = tb_labels(&c, "app=db")};
	struct oracle_sel sa, sb, sx;
	oracle_sel_from(&sa, &a);
	oracle_sel_from(&sb, &b);
	oracle_sel_from(&sx, &x);
	oracle_sel_keep(&o, &sa);
	oracle_sel_keep(&o, &sb);
	oracle_sel_keep(&o, &sx);
	CHECK(sa.gmatch != NULL && sa.gmatch == sb.gmatch);
	CHECK(sx.gmatch != NULL && sx.gmatch != sa.gmatch);
	for (int round = 0; round < 3; round++) {
		CHECK(oracle_sel_group(&o, &sa, gw));
		CHECK(!oracle_sel_group(&o, &sb, gd));
		CHECK(oracle_sel_group(&o, &sx, gd));
		CHECK(!oracle_sel_group(&o, &sx, gw));
	}
	/* decided through one, read through the other: 2 yes, 1 no */
	CHECK_EQ(sb.gmatch[gw], 2);
	CHECK_EQ(sa.gmatch[gd], 1);

	/* nil selector: Nothing, no table, never matches */
	struct label_selector nil = {0};
	struct oracle_sel sn;
	oracle_sel_from(&sn, &nil);
	oracle_sel_keep(&o, &sn);
	CHECK(sn.gmatch == NULL);
	CHECK(!oracle_sel_group(&o, &sn, gw));

	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------- one pod cycled many times */

static bool same_nodes(const struct sched_cycle_result *r, const int *want, int n)
{
	if (r->n_feasible != n)
		return false;
	for (int i = 0; i < n; i++)
		if (r->feasible[i] != want[i])
			return false;
	return true;
}

static bool same_results(const struct sched_cycle_result *a, const struct sched_cycle_result *b)
{
	if (a->code != b->code || a->n_feasible != b->n_feasible)
		return false;
	for (int i = 0; i < a->n_feasible; i++)
		if (a->feasible[i] != b->feasible[i])
			return false;
	return (!a->message && !b->message) ||
	       (a->message && b->message && strcmp(a->message, b->message) == 0);
}

/*
 * Nodes n1..n3 (hostname labels).  Pods w1, w2, w3 (app=web) spread
 * app=web pods over hostnames, maxSkew 1, DoNotSchedule; w3 also has
 * required anti-affinity to app=db per hostname; db carries app=db.
 * The skew on node n is count(n) + 1 - min over the three nodes.
 */
static void test_recycle(void)
{
	struct cluster c;
	tb_init(&c);
	for (int i = 0; i < 3; i++) {
		static const char *names[] = {"n1", "n2", "n3"};
		static const char *labels[] = {"kubernetes.io/hostname=n1",
					       "kubernetes.io/hostname=n2",
					       "kubernetes.io/hostname=n3"};
		tb_node(&c, names[i], "cpu=4,memory=4Gi,pods=10", labels[i]);
	}
	struct spread_constraint *sc = arena_alloc(&c.arena, sizeof(*sc));
	*sc = (struct spread_constraint){
		.max_skew = 1, .topology_key = "kubernetes.io/hostname",
		.do_not_schedule = true,
		.selector = {.present = true, .match_labels = tb_labels(&c, "app=web")},
		.min_domains = 1, .node_affinity_honor = true,
	};
	struct pod_affinity_term *anti = arena_alloc(&c.arena, sizeof(*anti));
	anti->selector = (struct label_selector){.present = true,
						 .match_labels = tb_labels(&c, "app=db")};
	anti->topology_key = "kubernetes.io/hostname";
	int w[3];
	for (int i = 0; i < 3; i++) {
		static const char *names[] = {"w1", "w2", "w3"};
		w[i] = tb_pod(&c, names[i], "");
		tb_container(&c, w[i], "cpu=100m", false, false);
		c.pods[w[i]].labels = tb_labels(&c, "app=web");
		c.pods[w[i]].spread = sc;
		c.pods[w[i]].n_spread = 1;
	}
	c.pods[w[2]].anti_affinity = anti;
	c.pods[w[2]].n_anti_affinity = 1;
	int db = tb_pod(&c, "db", "");
	tb_container(&c, db, "cpu=100m", false, false);
	c.pods[db].labels = tb_labels(&c, "app=db");

	struct snapshot s;
	snap_pending(&s, &c);
	struct oracle o;
	oracle_init(&o, &s);
	o.all_nodes = true;
	struct sched_cycle_result a, b;
	sched_cycle_result_init(&a, &c);
	sched_cycle_result_init(&b, &c);
	const struct sched_profile *prof = model_profile_for(&c, w[2]);

	/* nothing bound: every node has skew 0 + 1 - 0 = 1 */
	int all[] = {0, 1, 2};
	oracle_schedule_cycle(&o, w[2], &b);
	CHECK(same_nodes(&b, all, 3));
	/* w1 on n1: n1 has skew 1 + 1 - 0 = 2 */
	oracle_bind(&o, w[0], 0);
	int n23[] = {1, 2};
	oracle_schedule_cycle(&o, w[2], &b);
	CHECK(same_nodes(&b, n23, 2));
	/* w2 on n2: min 0 (n3); n1, n2 have skew 2 */
	oracle_bind(&o, w[1], 1);
	int n3[] = {2};
	oracle_schedule_cycle(&o, w[2], &b);
	CHECK(same_nodes(&b, n3, 1));
	/* db on n3: w3's anti-affinity rejects n3 too */
	oracle_bind(&o, db, 2);
	oracle_schedule_cycle(&o, w[2], &b);
	CHECK(same_nodes(&b, NULL, 0));
	CHECK_EQ(b.code, SCHED_UNSCHEDULABLE);
	/* w1 gone: min 0 on n1 and n3; n1 skew 1, n2 skew 2, n3 db */
	oracle_evict(&o, w[0]);
	int n1[] = {0};
	oracle_schedule_cycle(&o, w[2], &b);
	CHECK(same_nodes(&b, n1, 1));
	/* the model agrees on this placement, and w2's cycle too */
	model_schedule_cycle(prof, &o.snap, w[2], &a);
	CHECK(same_results(&a, &b));
	o.snap.pod_node[w[0]] = SNAP_PENDING;

	/* a long walk: bind / unbind w1, w2 and db round the nodes; every
	 * step the pending pods' cycles against the model's */
	int steps = 0, agree = 0;
	for (int i = 0; i < 60; i++) {
		int q = (i % 3 == 2) ? db : w[i % 2];
		if (o.snap.pod_node[q] >= 0) {
			/* unbound: evicted, then pending again (as enum does) */
			oracle_evict(&o, q);
			o.snap.pod_node[q] = SNAP_PENDING;
		} else if (o.snap.pod_node[q] == SNAP_PENDING)
			oracle_bind(&o, q, (i / 3) % 3);
		for (int p = 0; p < c.n_pods; p++) {
			if (o.snap.pod_node[p] != SNAP_PENDING)
				continue;
			model_schedule_cycle(prof, &o.snap, p, &a);
			oracle_schedule_cycle(&o, p, &b);
			steps++;
			agree += same_results(&a, &b);
		}
	}
	CHECK(steps > 120);
	CHECK_EQ(agree, steps);

	sched_cycle_result_release(&a);
	sched_cycle_result_release(&b);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_keep();
	test_recycle();
	return check_done("test_oracle_pod_plans");
}
