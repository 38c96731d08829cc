/*
 * test_spread_live.c - the scheduler loop's kept PodTopologySpread
 * PreFilter states (model/spread_live.c) against the state built afresh,
 * the equation stated in model/spread_prefilter.h:
 *   model_spread_live_get(P, s) = init_static(static_new(c, prof, P), s)
 *   - by hand: two replicas share a class, and once the first is bound
 *     the second's state counts it (the class's static part counts its
 *     own first pod: model_spread_static_count_self); a pod whose labels
 *     its selector does not match is of another class;
 *   - every fixture under fixtures/ run through the scheduler loop (the
 *     model engine, binds, preemptions and their evictions): after every
 *     step, for every pending pod, the kept state equals the fresh one
 *     pair by pair (order, slot, value, count), in domains, self and
 *     critical paths;
 *   - the same fixtures under a pseudo-random walk of binds and evictions
 *     told to a model_spread_live of their own, compared after each;
 *   - beside it, the capacity check's node sums the loop keeps
 *     (model/invariants.c): after every step each node's kept requests
 *     and pod count equal model_node_requested's sums over every pod, and
 *     its count of pending pods nominated there a count over every pod;
 *   - and what the invariants' checks do with them: for every pending pod
 *     and node, Feasibility given the kept sums and spread state (struct
 *     model_given) is Feasibility built from nothing, filter by filter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "spread_state_eq.h"
#include "fixture_walk.h"
#include "xorshift.h"

#include "../../model/cycle_state.h"
#include "../../model/model.h"
#include "../../model/pod_requests.h"
#include "../../model/scheduler.h"
#include "../../model/spread_prefilter.h"

static int states, differences;

/* ------------------------------------------------------------ by hand */

static int web_pod(struct cluster *c, const char *name, const char *labels)
{
	int p = tb_pod(c, name, "");
	struct pod *pp = &c->pods[p];
	pp->labels = tb_labels(c, labels);
	struct spread_constraint *sc = arena_array(&c->arena, 1, sizeof *sc);
	memset(sc, 0, sizeof *sc);
	sc->max_skew = 1;
	sc->topology_key = "zone";
	sc->do_not_schedule = true;
	sc->selector = tb_sel_labels(c, "app=web");
	sc->min_domains = 1;
	sc->node_affinity_honor = true;
	pp->spread = sc;
	pp->n_spread = 1;
	return p;
}

/*
 * n0 in zone a, n1 in zone b; w1, w2 (app=web) and d (app=db) pending,
 * each spreading over zone with selector app=web.
 *   w1 on the empty placement: pairs (a, 0), (b, 0), in node order.
 *   w1 bound to n0: w2's state has (a, 1), (b, 0): w1 is bound, in w2's
 *   namespace, matched by app=web; minimum 0 at b.  w2 shares w1's class.
 *   d: its selector does not match its own labels (self false): another
 *   class, whose counts also see w1: (a, 1), (b, 0).
 */
static void test_by_hand(void)
{
	struct cluster c;
	tb_init(&c);
	const char *cap = "cpu=4,memory=8Gi,pods=110";
	int n0 = tb_node(&c, "n0", cap, "zone=a");
	tb_node(&c, "n1", cap, "zone=b");
	int w1 = web_pod(&c, "w1", "app=web");
	int w2 = web_pod(&c, "w2", "app=web");
	int d = web_pod(&c, "d", "app=db");
	struct snapshot s;
	snapshot_init(&s, &c);
	const struct sched_profile *prof = model_profile_for(&c, w1);
	CHECK(prof != NULL);
	struct model_spread_live *l = model_spread_live_new(&c);
	const struct model_spread_prefilter *a = model_spread_live_get(l, prof, w1, &s);
	CHECK(a != NULL);
	CHECK_EQ(a->pairs.n, 2);
	CHECK_STR(a->pairs.items[0].value, "a");
	CHECK_EQ(a->pairs.items[0].count, 0);
	CHECK_EQ(a->pairs.items[1].count, 0);
	s.pod_node[w1] = n0;
	model_spread_live_move(l, w1, n0, +1);
	const struct model_spread_prefilter *b = model_spread_live_get(l, prof, w2, &s);
	CHECK(b == a);
	CHECK_EQ(b->pairs.items[0].count, 1);
	CHECK_EQ(b->pairs.items[1].count, 0);
	CHECK_EQ(b->paths[0][0].num, 0);
	CHECK_STR(b->paths[0][0].value, "b");
	const struct model_spread_prefilter *x = model_spread_live_get(l, prof, d, &s);
	CHECK(x != NULL && x != b);
	CHECK(!x->self[0]);
	CHECK_EQ(x->pairs.items[0].count, 1);
	model_spread_live_free(l);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------ fixtures */

static void compare_pending(struct model_spread_live *l,
			    const struct snapshot *s, int step, const char *path)
{
	const struct cluster *c = s->cluster;
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof || s->pod_node[p] >= 0)
			continue;
		const struct model_spread_prefilter *kept =
			model_spread_live_get(l, prof, p, s);
		struct model_spread_static *sp = model_spread_static_new(c, prof, p);
		bool differs = (kept == NULL) != sp->skip;
		if (kept && !sp->skip) {
			struct model_spread_prefilter fresh;
			struct arena scratch;
			arena_init(&scratch);
			model_spread_prefilter_init_static(&fresh, sp, s, &scratch);
			differs = !spread_state_eq(kept, &fresh);
			model_spread_prefilter_release(&fresh);
			arena_release(&scratch);
			states++;
		}
		model_spread_static_free(sp);
		if (differs && differences++ == 0)
			fprintf(stderr, "kept spread state differs: %s step %d pod %s/%s\n",
				path, step, c->pods[p].ns, c->pods[p].name);
	}
}

static int node_sums, sum_differences;

static void compare_sums(const struct model_scheduler *m, const char *path)
{
	const struct cluster *c = m->cluster;
	if (!m->inv.node_req)
		return;
	int64_t *req = calloc((size_t)c->n_res + 1, sizeof *req);
	for (int n = 0; n < c->n_nodes; n++) {
		int count = 0;
		model_node_requested(&m->ctx->pods, &m->snap, n, req, NULL, NULL,
				     &count);
		int nominated = 0;
		for (int q = 0; q < c->n_pods; q++)
			nominated += m->snap.pod_node[q] == SNAP_PENDING &&
				     m->snap.nominated[q] == n;
		bool differs = count != m->inv.node_pods[n] ||
			       nominated != m->inv.node_nominated[n];
		for (int r = 0; r < c->n_res; r++)
			differs |= req[r] != m->inv.node_req[(size_t)n * (size_t)c->n_res +
							    (size_t)r];
		if (differs && sum_differences++ == 0)
			fprintf(stderr, "kept node sums differ: %s step %d node %s\n",
				path, m->steps, c->nodes[n].name);
		node_sums++;
	}
	free(req);
}

static int verdicts, verdict_differences;

static bool verdict_eq(const struct sched_node_verdict *a,
		       const struct sched_node_verdict *b)
{
	if (a->feasible != b->feasible || a->code != b->code ||
	    a->rejected_by != b->rejected_by ||
	    memcmp(a->failed, b->failed, sizeof a->failed) != 0)
		return false;
	for (int i = 0; i < PLUGIN_FILTERS; i++)
		if (!tb_status_eq(&a->status[i], &b->status[i]))
			return false;
	return true;
}

static void compare_verdicts(struct model_scheduler *m, const char *path)
{
	const struct cluster *c = m->cluster;
	if (!m->inv.node_req)
		return;
	struct model_node_sums sums = {
		.requested = m->inv.node_req, .pods = m->inv.node_pods,
		.nominated = m->inv.node_nominated,
	};
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof || m->snap.pod_node[p] != SNAP_PENDING)
			continue;
		struct model_cycle fresh = {
			.cluster = c, .profile = prof, .pod = p, .base = &m->snap,
			.view = &m->snap,
		};
		struct model_cycle kept = fresh;
		struct model_given given = {
			.ctx = m->ctx, .node_sums = &sums,
			.spread_state = model_spread_live_get(m->spread_live, prof, p,
							      &m->snap),
		};
		struct model_cycle_state fs, ks;
		model_cycle_state_init(&fs, &fresh, NULL);
		fresh.state = &fs;
		model_cycle_state_init(&ks, &kept, &given);
		kept.state = &ks;
		for (int n = 0; n < c->n_nodes; n++) {
			struct sched_node_verdict a, b;
			model_feasibility(&fresh, n, &a);
			model_feasibility(&kept, n, &b);
			verdicts++;
			if (!verdict_eq(&a, &b) && verdict_differences++ == 0)
				fprintf(stderr, "verdict given the kept sums differs: "
					"%s step %d pod %s node %s\n", path, m->steps,
					c->pods[p].name, c->nodes[n].name);
		}
		model_cycle_state_release(&ks);
		model_cycle_state_release(&fs);
	}
}

/* model_spread_constraints_none says what building the constraints
 * finds, for every pod of the fixture and both classes. */
static int nones, none_differences;

static void compare_none(const struct cluster *c, const char *path)
{
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		for (int dns = 0; prof && dns < 2; dns++) {
			struct model_spread_constraints cs;
			model_spread_constraints_build(c, prof, p, dns, &cs);
			nones++;
			if (model_spread_constraints_none(c, prof, p, dns) != (cs.n == 0) &&
			    none_differences++ == 0)
				fprintf(stderr, "constraints_none differs: %s pod %s "
					"(%d constraints)\n", path, c->pods[p].name, cs.n);
			model_spread_constraints_release(&cs);
		}
	}
}

static void fixture(const char *path)
{
	struct cluster c;
	if (!fixture_load(path, &c))
		return;
	if (c.n_nodes == 0 || c.n_pods > 400) {
		cluster_release(&c);
		return;
	}
	compare_none(&c, path);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler m;
	struct model_sched_opts o = {.max_steps = 60};
	model_scheduler_init(&m, &s, &o);
	compare_pending(m.spread_live, &m.snap, 0, path);
	struct model_step st;
	while (model_scheduler_step(&m, &st)) {
		model_step_release(&st);
		compare_pending(m.spread_live, &m.snap, m.steps, path);
		compare_sums(&m, path);
		compare_verdicts(&m, path);
	}
	model_scheduler_release(&m);
	/* a walk: a bound pod leaves its node, a pending one binds */
	struct model_spread_live *l = model_spread_live_new(&c);
	uint64_t seed = 0x5b7eadull ^ (uint64_t)c.n_pods;
	for (int k = 0; k < 40 && c.n_pods; k++) {
		int q = tb_below(&seed, c.n_pods);
		int at = s.pod_node[q];
		if (at >= 0) {
			s.pod_node[q] = SNAP_PENDING;
			model_spread_live_move(l, q, at, -1);
		} else if (at == SNAP_PENDING) {
			int n = tb_below(&seed, c.n_nodes);
			s.pod_node[q] = n;
			model_spread_live_move(l, q, n, +1);
		}
		compare_pending(l, &s, -1 - k, path);
	}
	model_spread_live_free(l);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_by_hand();
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, fixture);
	printf("test_spread_live: %d kept states compared\n", states);
	CHECK(states > 100);
	CHECK_EQ(differences, 0);
	printf("test_spread_live: %d kept node sums compared\n", node_sums);
	CHECK(node_sums > 100);
	CHECK_EQ(sum_differences, 0);
	printf("test_spread_live: %d verdicts given the kept sums compared\n",
	       verdicts);
	CHECK(verdicts > 1000);
	CHECK_EQ(verdict_differences, 0);
	printf("test_spread_live: %d constraint sets compared with "
	       "model_spread_constraints_none\n", nones);
	CHECK(nones > 1000);
	CHECK_EQ(none_differences, 0);
	return check_done("test_spread_live");
}
