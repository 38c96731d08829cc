/*
 * test_spread_pod_part.c - PodTopologySpread's pod-only PreFilter part
 * (model_spread_static, model/spread_static.c), the enumerator's cache of
 * it (enum/spread_cache.c) and model_spread_prefilter_init_static against
 * the literal PreFilter (model_spread_prefilter_init_base), the lemma
 * stated beside model_spread_prefilter_init_static:
 *   - by hand: tables and counts of a small cluster, numbers derived from
 *     the spec of count(N, c) and the pair registration order;
 *   - every fixture under fixtures/ on pseudo-random placements: the
 *     state from the cached part equals the literal one pair by pair
 *     (order, counts), in domains, self and critical paths, and the filter
 *     of a cycle given the cached part equals that of a cycle whose state
 *     built its own.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "spread_state_eq.h"
#include "xorshift.h"
#include "fixture_walk.h"

#include "../../enum/enum.h"
#include "../../model/cycle_state.h"
#include "../../model/model.h"
#include "../../model/spread_prefilter.h"
#include "../../yaml/load.h"

/* ------------------------------------------------------------ by hand */

static int pod_l(struct cluster *c, const char *name, const char *node_name,
		 const char *labels)
{
	int p = tb_pod(c, name, node_name);
	c->pods[p].labels = tb_labels(c, labels);
	return p;
}

static void add_spread(struct cluster *c, int pod, const char *key,
		       struct label_selector sel)
{
	struct pod *p = &c->pods[pod];
	struct spread_constraint *arr =
		arena_array(&c->arena, (size_t)p->n_spread + 1, sizeof *arr);
	if (p->n_spread)
		memcpy(arr, p->spread, sizeof *arr * (size_t)p->n_spread);
	struct spread_constraint *sc = &arr[p->n_spread];
	memset(sc, 0, sizeof *sc);
	sc->max_skew = 1;
	sc->topology_key = key;
	sc->do_not_schedule = true;
	sc->selector = sel;
	sc->min_domains = 1;
	sc->node_affinity_honor = true;
	p->spread = arr;
	p->n_spread++;
}

/*
 * n0, n1 in zone a, n2 in zone b, n3 without a zone label.  The new pod P
 * (app=web, pending) spreads over zone and over node (hostname), selector
 * app=web.  Bound: w1 (app=web) on n0, w2 (app=web) on n2, w3 (app=web)
 * on n3, d1 (app=db) on n1.
 *   Hosts: n3 lacks zone -> n0, n1, n2; pairs registered in node order,
 *   slot 0 (zone) then slot 1 (node) per node:
 *     0 (0,a) 1 (1,n0) 2 (1,n1) 3 (0,b) 4 (1,n2); (0,a) is not added twice.
 *   counted: w1, w2, w3 for both constraints; d1 never; P never (itself).
 *   Counts: (0,a) = w1 = 1 (d1 does not match), (1,n0) = 1, (1,n1) = 0,
 *   (0,b) = 1, (1,n2) = 1; w3 on n3 counts nowhere (n3 is no host).
 *   Domains: zone 2, node 3.  node_pair(zone, n1) = pair 0; (zone, n3) = -2;
 *   (node, n3) = -1 (n3's hostname pair is not registered).
 *   Critical paths: zone min 1; node min 0 at n1.
 */
static void test_by_hand(void)
{
	struct cluster c;
	tb_init(&c);
	const char *cap = "cpu=4,memory=8Gi,pods=110";
	tb_node(&c, "n0", cap, "zone=a,node=n0");
	tb_node(&c, "n1", cap, "zone=a,node=n1");
	tb_node(&c, "n2", cap, "zone=b,node=n2");
	tb_node(&c, "n3", cap, "node=n3");
	pod_l(&c, "w1", "n0", "app=web");
	pod_l(&c, "w2", "n2", "app=web");
	pod_l(&c, "w3", "n3", "app=web");
	int d1 = pod_l(&c, "d1", "n1", "app=db");
	int p = pod_l(&c, "p", "", "app=web");
	add_spread(&c, p, "zone", tb_sel_labels(&c, "app=web"));
	add_spread(&c, p, "node", tb_sel_labels(&c, "app=web"));
	struct snapshot s;
	snapshot_init(&s, &c);
	const struct sched_profile *prof = model_profile_for(&c, p);
	CHECK(prof != NULL);
	struct model_spread_static *sp = model_spread_static_new(&c, prof, p);
	CHECK(!sp->skip);
	CHECK_EQ(sp->cs.n, 2);
	CHECK_EQ(sp->pairs.n, 5);
	static const char *const values[] = {"a", "n0", "n1", "b", "n2"};
	static const int slots[] = {0, 1, 1, 0, 1};
	for (int k = 0; k < 5 && k < sp->pairs.n; k++) {
		CHECK_STR(sp->pairs.items[k].value, values[k]);
		CHECK_EQ(sp->pairs.items[k].slot, slots[k]);
		CHECK_EQ(sp->pairs.items[k].count, 0);
	}
	CHECK_EQ(sp->domains[0], 2);
	CHECK_EQ(sp->domains[1], 3);
	CHECK(sp->self[0] && sp->self[1]);
	CHECK(!sp->counted[0 * c.n_pods + d1] && !sp->counted[0 * c.n_pods + p]);
	CHECK(sp->counted[1 * c.n_pods + 2]);
	CHECK_EQ(sp->node_pair[0 * c.n_nodes + 1], 0);
	CHECK_EQ(sp->node_pair[0 * c.n_nodes + 3], -2);
	CHECK_EQ(sp->node_pair[1 * c.n_nodes + 3], -1);
	CHECK_EQ(sp->contrib[0 * c.n_nodes + 3], -1);
	struct model_spread_prefilter st;
	struct arena scratch;
	arena_init(&scratch);
	model_spread_prefilter_init_static(&st, sp, &s, &scratch);
	static const int64_t counts[] = {1, 1, 0, 1, 1};
	for (int k = 0; k < 5 && k < st.pairs.n; k++)
		CHECK_EQ(st.pairs.items[k].count, counts[k]);
	CHECK_EQ(st.paths[0][0].num, 1);
	CHECK_EQ(st.paths[1][0].num, 0);
	CHECK_STR(st.paths[1][0].value, "n1");
	model_spread_prefilter_release(&st);
	arena_release(&scratch);
	model_spread_static_free(sp);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------ fixtures */

static int states, differences;

static void compare_pod(const struct cluster *c, const struct snapshot *s, int pod,
			struct enum_spread_cache *cache, const char *path)
{
	const struct sched_profile *prof = model_profile_for(c, pod);
	if (!prof)
		return;
	struct model_cycle lit = {
		.cluster = c, .profile = prof, .pod = pod, .base = s, .view = s,
	};
	struct model_spread_prefilter a, b;
	bool has = model_spread_prefilter_init_base(&lit, &a);
	const struct model_spread_static *sp = enum_spread_cache_get(cache, prof, pod);
	bool differs = has == sp->skip;
	if (has && !sp->skip) {
		struct arena scratch;
		arena_init(&scratch);
		model_spread_prefilter_init_static(&b, sp, s, &scratch);
		differs = differs || !spread_state_eq(&a, &b);
		model_spread_prefilter_release(&b);
		arena_release(&scratch);
	}
	if (has)
		model_spread_prefilter_release(&a);
	/* the filter of a cycle given the cached part */
	struct model_cycle with = lit;
	struct model_cycle_state own_state, given_state;
	model_cycle_state_init(&own_state, &lit, NULL);
	lit.state = &own_state;
	const struct model_given given = {.spread = sp};
	model_cycle_state_init(&given_state, &with, &given);
	with.state = &given_state;
	for (int n = 0; n < c->n_nodes; n++) {
		struct sched_status x, y;
		model_filter_pod_topology_spread(&with, n, &x);
		model_filter_pod_topology_spread(&lit, n, &y);
		differs = differs || x.code != y.code || x.n_reasons != y.n_reasons;
	}
	model_cycle_state_release(&own_state);
	model_cycle_state_release(&given_state);
	if (differs && differences++ == 0)
		fprintf(stderr, "static part differs: %s pod %s/%s\n", path,
			c->pods[pod].ns, c->pods[pod].name);
	states++;
}

static void fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load(path, &c))
		return;
	if (c.n_nodes == 0) {
		cluster_release(&c);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct enum_spread_cache cache;
	enum_spread_cache_init(&cache, &c);
	uint64_t seed = 0x51f15e5eedull ^ (uint64_t)c.n_pods;
	for (int round = 0; round < 6; round++) {
		if (round > 0)
			for (int p = 0; p < c.n_pods; p++)
				s.pod_node[p] = tb_below(&seed, c.n_nodes + 1) - 1;
		for (int p = 0; p < c.n_pods; p++) {
			int32_t was = s.pod_node[p];
			s.pod_node[p] = SNAP_PENDING;
			compare_pod(&c, &s, p, &cache, path);
			s.pod_node[p] = was;
		}
	}
	enum_spread_cache_release(&cache);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_by_hand();
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, fixture);
	printf("test_spread_pod_part: %d pod states compared\n", states);
	CHECK(states > 100);
	CHECK_EQ(differences, 0);
	return check_done("test_spread_pod_part");
}
