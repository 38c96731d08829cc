/*
 * test_oracle_spread_facts.c - PodTopologySpread's PreFilter state
 * (oracle/spread.c) against a literal reading of the reference (§2.11),
 * now that the hard plan keeps per-node facts for its life (which nodes
 * carry every key and pass each constraint's inclusion policies, which
 * pairs TpPairToMatchNum has):
 *
 *   on random clusters (nodes with or without the zone / hostname labels,
 *   a disk label, a NoSchedule taint; pods with one to three hard
 *   constraints, same-key ones included, either honor policy, a
 *   nodeSelector or not, some tolerating the taint), every pod's cycle,
 *   repeated as pods get bound (the facts stay, the counts change), and
 *   under a profile that is not the cluster's (a plan per cycle), must
 *   give per key exactly the pairs, counts, number of domains and
 *   minimum count computed here node by node: a node carrying every key
 *   counts for constraint i when it passes i's policies; its count is
 *   the bound pods of the pod's namespace matching i's selector, a later
 *   same-key constraint overwriting an earlier one on that node.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "xorshift.h"
#include "../../model/model.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"

static uint64_t rng;

static uint64_t next(void)
{
	return tb_xorshift(&rng);
}

static const char *const KEYS[2] = {"topology.kubernetes.io/zone", "kubernetes.io/hostname"};
static const char *const NODE_NAMES[7] = {"n0", "n1", "n2", "n3", "n4", "n5", "n6"};
static const char *const POD_NAMES[7] = {"p0", "p1", "p2", "p3", "p4", "p5", "p6"};

static bool node_tainted(const struct node *n)
{
	return n->n_taints > 0;
}

/* The pod tolerates the test's only taint (t, NoSchedule) when it has a
 * toleration at all (tb_toleration below adds exactly that one). */
static bool policies_pass(const struct cluster *c, const struct pod *p,
			  const struct spread_constraint *sc, int n)
{
	const struct node *node = &c->nodes[n];
	if (sc->node_affinity_honor && p->has_node_selector) {
		const char *want = labels_get(&p->node_selector, "disk");
		const char *have = labels_get(&node->labels, "disk");
		if (!have || strcmp(want, have) != 0)
			return false;
	}
	return !sc->node_taints_honor || !node_tainted(node) || p->n_tolerations > 0;
}

static bool node_has_keys(const struct cluster *c, const struct pod *p, int n)
{
	for (int i = 0; i < p->n_spread; i++)
		if (!labels_get(&c->nodes[n].labels, p->spread[i].topology_key))
			return false;
	return true;
}

/* Bound pods on node n of p's namespace whose app label is app. */
static int64_t count_on(const struct oracle *o, const struct pod *p, int n, const char *app)
{
	const struct cluster *c = o->cluster;
	int64_t k = 0;
	for (int q = 0; q < c->n_pods; q++) {
		if (o->snap.pod_node[q] != n || strcmp(c->pods[q].ns, p->ns) != 0)
			continue;
		const char *v = labels_get(&c->pods[q].labels, "app");
		if (v && strcmp(v, app) == 0)
			k++;
	}
	return k;
}

/* One cycle of pod under prof: the PreFilter state against the literal
 * counts. */
static void check_pod(struct oracle *o, const struct sched_profile *prof, int pod)
{
	const struct cluster *c = o->cluster;
	const struct pod *p = &c->pods[pod];
	struct oracle_cycle cy;
	struct sched_status st;
	oracle_cycle_begin(&cy, o, prof, pod);
	CHECK_EQ(oracle_cycle_prefilter(&cy, &st), -1);
	const struct oracle_spread_state *s = &cy.spread;
	CHECK_EQ(s->n, p->n_spread);
	for (int k = 0; k < s->n_keys; k++) {
		const struct oracle_spread_key *key = &s->keys[k];
		const struct oracle_topo *t = key->topo;
		int64_t want[8] = {0};
		bool reg[8] = {false};
		CHECK(t->n_dom < 8);
		for (int n = 0; n < c->n_nodes; n++) {
			if (!node_has_keys(c, p, n))
				continue;
			bool set = false;
			int64_t per = 0;
			for (int i = 0; i < p->n_spread; i++) {
				const struct spread_constraint *sc = &p->spread[i];
				if (strcmp(sc->topology_key, t->key) != 0 || !policies_pass(c, p, sc, n))
					continue;
				per = count_on(o, p, n, labels_get(&sc->selector.match_labels, "app"));
				set = true;
			}
			if (set) {
				reg[t->dom[n]] = true;
				want[t->dom[n]] += per;
			}
		}
		int domains = 0;
		int64_t min = INT32_MAX;
		for (int dom = 0; dom < t->n_dom; dom++) {
			CHECK_EQ(key->reg[dom], reg[dom]);
			if (!reg[dom])
				continue;
			CHECK_EQ(key->match[dom], want[dom]);
			domains++;
			if (want[dom] < min)
				min = want[dom];
		}
		CHECK_EQ(key->domains, domains);
		CHECK_EQ(key->p0n, min);
	}
	oracle_cycle_end(&cy);
}

static void test_random(void)
{
	rng = 0x2545f4914f6cdd1dULL;
	int keys_checked = 0, shared_keys = 0;
	for (int round = 0; round < 150; round++) {
		struct cluster c;
		tb_init(&c);
		int nn = 3 + (int)(next() % 5);
		for (int n = 0; n < nn; n++) {
			char spec[128] = "";
			static const char *const zones[3] = {"a", "b", ""};
			int z = (int)(next() % 3);
			if (z < 2) {
				strcat(spec, "topology.kubernetes.io/zone=");
				strcat(spec, zones[z]);
			}
			if (next() % 5) {
				strcat(spec, spec[0] ? ",kubernetes.io/hostname=" : "kubernetes.io/hostname=");
				strcat(spec, NODE_NAMES[n]);
			}
			if (next() % 2)
				strcat(spec, spec[0] ? ",disk=ssd" : "disk=ssd");
			int x = tb_node(&c, NODE_NAMES[n], "cpu=4,memory=8Gi,pods=20", spec);
			if (next() % 3 == 0)
				tb_taint(&c, x, "t", "", EFFECT_NO_SCHEDULE);
		}
		int np = 3 + (int)(next() % 5);
		for (int i = 0; i < np; i++) {
			int bound = (int)(next() % (uint64_t)(nn + 2)) - 2;
			int p = tb_pod(&c, POD_NAMES[i], bound >= 0 ? NODE_NAMES[bound] : "");
			struct pod *pod = &c.pods[p];
			pod->labels = tb_labels(&c, next() % 2 ? "app=x" : "app=y");
			tb_container(&c, p, "cpu=100m", false, false);
			if (next() % 2) {
				pod->has_node_selector = true;
				pod->node_selector = tb_labels(&c, "disk=ssd");
			}
			if (next() % 3 == 0)
				tb_toleration(&c, p, "t", TOL_EXISTS, "", EFFECT_NO_SCHEDULE);
			int ns = 1 + (int)(next() % 3);
			struct spread_constraint *sc = arena_array(&c.arena, (size_t)ns,
								   sizeof(*sc));
			for (int k = 0; k < ns; k++) {
				sc[k].max_skew = 1 + (int32_t)(next() % 2);
				sc[k].topology_key = KEYS[next() % 2];
				sc[k].do_not_schedule = true;
				sc[k].selector = tb_sel_labels(&c, next() % 2 ? "app=x" : "app=y");
				sc[k].min_domains = 1;
				sc[k].node_affinity_honor = next() % 2;
				sc[k].node_taints_honor = next() % 2;
			}
			pod->spread = sc;
			pod->n_spread = ns;
		}
		struct snapshot snap;
		snapshot_init(&snap, &c);
		struct oracle o;
		oracle_init(&o, &snap);
		/* a profile equal to the cluster's but not one of its own */
		struct sched_profile other = c.config.profiles[0];
		for (int step = 0; step < 3; step++) {
			for (int p = 0; p < c.n_pods; p++) {
				check_pod(&o, &c.config.profiles[0], p);
				check_pod(&o, &other, p);
				const struct pod *pod = &c.pods[p];
				keys_checked += pod->n_spread;
				for (int i = 1; i < pod->n_spread; i++)
					shared_keys += pod->spread[i].topology_key ==
						       pod->spread[0].topology_key;
			}
			/* bind a pending pod somewhere: the counts move */
			for (int p = 0; p < c.n_pods; p++)
				if (o.snap.pod_node[p] == SNAP_PENDING) {
					oracle_bind(&o, p, (int)(next() % (uint64_t)nn));
					break;
				}
		}
		oracle_release(&o);
		snapshot_release(&snap);
		cluster_release(&c);
	}
	/* both PreFilter loops ran (distinct keys, and same-key constraints) */
	CHECK(keys_checked > 1000 && shared_keys > 100);
}

int main(void)
{
	test_random();
	return check_done("test_oracle_spread_facts");
}
