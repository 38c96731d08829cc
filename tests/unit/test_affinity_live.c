/*
 * test_affinity_live.c - the scheduler loop's kept InterPodAffinity
 * PreFilter states (model/affinity_live.c) against the state built
 * afresh, the equation stated in model/affinity_prefilter.h: for a
 * pending pod P on the tracked placement s, model_affinity_live_get(P, s)
 * and its Skip equal model_affinity_prefilter_init(P on s) in every
 * non-zero pair count of the three maps (reference §2.10), the sums and
 * AffPods:
 *   - by hand: two replicas share a class and, once the first is bound,
 *     the second's state counts it; an eviction takes its pair back to
 *     0; a pod of other labels is of another class, and Skips;
 *   - every fixture under fixtures/ run through the scheduler loop (the
 *     model engine, binds, preemptions and their evictions): after every
 *     step, for every pending pod, the kept state equals the fresh one;
 *   - the same fixtures under a pseudo-random walk of binds and evictions
 *     told to a model_affinity_live of their own, compared after each;
 *   - and what the invariants' checks do with them: for every pending pod
 *     and node, Feasibility given the kept state (struct model_given) is
 *     Feasibility built from nothing, filter by filter.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"
#include "check.h"
#include "fixture_walk.h"
#include "xorshift.h"

#include "../../model/affinity_prefilter.h"
#include "../../model/cycle_state.h"
#include "../../model/model.h"
#include "../../model/scheduler.h"

static int states, differences;

/* The count of (key, value) in map m of st; 0 when absent. */
static int64_t count_at(const struct model_affinity_prefilter *st,
			const struct model_spread_pairs *m, const char *key,
			const char *value)
{
	for (int k = 0; k < st->n_keys; k++) {
		if (strcmp(st->keys[k], key) != 0)
			continue;
		int i = model_spread_pairs_find(m, k, value);
		return i >= 0 ? m->items[i].count : 0;
	}
	return 0;
}

/* Every non-zero pair of a's map ma has b's count in mb. */
static bool map_within(const struct model_affinity_prefilter *a,
		       const struct model_spread_pairs *ma,
		       const struct model_affinity_prefilter *b,
		       const struct model_spread_pairs *mb)
{
	for (int i = 0; i < ma->n; i++) {
		const struct model_spread_pair *x = &ma->items[i];
		if (x->count != 0 &&
		    count_at(b, mb, a->keys[x->slot], x->value) != x->count)
			return false;
	}
	return true;
}

static bool state_eq(const struct model_affinity_prefilter *a,
		     const struct model_affinity_prefilter *b)
{
	return a->existing_anti_sum == b->existing_anti_sum &&
	       a->aff_sum == b->aff_sum && a->aff_pods == b->aff_pods &&
	       map_within(a, &a->existing_anti, b, &b->existing_anti) &&
	       map_within(b, &b->existing_anti, a, &a->existing_anti) &&
	       map_within(a, &a->aff, b, &b->aff) &&
	       map_within(b, &b->aff, a, &a->aff) &&
	       map_within(a, &a->anti, b, &b->anti) &&
	       map_within(b, &b->anti, a, &a->anti);
}

/* ------------------------------------------------------------ by hand */

#define HOST "kubernetes.io/hostname"

/* A pod labelled labels; with anti-affinity against app=web per
 * hostname when anti. */
static int web_pod(struct cluster *c, const char *name, const char *node,
		   const char *labels, bool anti)
{
	int p = tb_pod(c, name, node);
	struct pod *pp = &c->pods[p];
	pp->labels = tb_labels(c, labels);
	if (!anti)
		return p;
	struct pod_affinity_term *t = arena_array(&c->arena, 1, sizeof *t);
	memset(t, 0, sizeof *t);
	t->selector = tb_sel_labels(c, "app=web");
	t->topology_key = HOST;
	pp->anti_affinity = t;
	pp->n_anti_affinity = 1;
	return p;
}

/*
 * n0, n1 (hostnames n0, n1).  e1 (app=web, anti-affinity app=web per
 * hostname) bound to n0; w1, w2 like e1 but pending; d (app=db, no
 * term) pending.
 *   w1 on s: ExistingAnti (host, n0) = 1 (e1's term matches w1), sum 1;
 *   Anti (host, n0) = 1 (w1's term matches e1); Aff empty; no Skip.
 *   w2: w1's class, the same state.
 *   d: e1's term does not match app=db: ExistingAnti empty, no term of
 *   its own: Skip; another class.
 *   w1 bound to n1: w2's ExistingAnti (host, n1) = 1, sum 2, Anti
 *   (host, n1) = 1; d still Skips (w1's term does not match it).
 *   e1 evicted from n0: w2's (host, n0) back to 0 in both, sum 1.
 */
static void test_by_hand(void)
{
	struct cluster c;
	tb_init(&c);
	const char *cap = "cpu=4,memory=8Gi,pods=110";
	int n0 = tb_node(&c, "n0", cap, HOST "=n0");
	int n1 = tb_node(&c, "n1", cap, HOST "=n1");
	int e1 = web_pod(&c, "e1", "n0", "app=web", true);
	int w1 = web_pod(&c, "w1", "", "app=web", true);
	int w2 = web_pod(&c, "w2", "", "app=web", true);
	int d = web_pod(&c, "d", "", "app=db", false);
	struct snapshot s;
	snapshot_init(&s, &c);
	CHECK_EQ(s.pod_node[e1], n0);
	struct model_affinity_live *l = model_affinity_live_new(&c);
	bool skip = true;
	const struct model_affinity_prefilter *a = model_affinity_live_get(l, w1, &s, &skip);
	CHECK(a != NULL);
	CHECK(!skip);
	CHECK_EQ(count_at(a, &a->existing_anti, HOST, "n0"), 1);
	CHECK_EQ(a->existing_anti_sum, 1);
	CHECK_EQ(count_at(a, &a->anti, HOST, "n0"), 1);
	CHECK_EQ(a->aff.n, 0);
	CHECK_EQ(a->aff_pods, 0);
	const struct model_affinity_prefilter *b = model_affinity_live_get(l, w2, &s, &skip);
	CHECK(b == a);
	const struct model_affinity_prefilter *x = model_affinity_live_get(l, d, &s, &skip);
	CHECK(x != NULL && x != a);
	CHECK(skip);
	CHECK_EQ(x->existing_anti_sum, 0);
	s.pod_node[w1] = n1;
	model_affinity_live_move(l, w1, n1, +1);
	b = model_affinity_live_get(l, w2, &s, &skip);
	CHECK(!skip);
	CHECK_EQ(count_at(b, &b->existing_anti, HOST, "n1"), 1);
	CHECK_EQ(b->existing_anti_sum, 2);
	CHECK_EQ(count_at(b, &b->anti, HOST, "n1"), 1);
	x = model_affinity_live_get(l, d, &s, &skip);
	CHECK(skip);
	s.pod_node[e1] = SNAP_GONE;
	model_affinity_live_move(l, e1, n0, -1);
	b = model_affinity_live_get(l, w2, &s, &skip);
	CHECK_EQ(count_at(b, &b->existing_anti, HOST, "n0"), 0);
	CHECK_EQ(count_at(b, &b->anti, HOST, "n0"), 0);
	CHECK_EQ(b->existing_anti_sum, 1);
	CHECK_EQ(count_at(b, &b->existing_anti, HOST, "n1"), 1);
	model_affinity_live_free(l);
	snapshot_release(&s);
	cluster_release(&c);
}

/* ------------------------------------------------------ fixtures */

static void compare_pending(struct model_affinity_live *l,
			    const struct snapshot *s, int step, const char *path)
{
	const struct cluster *c = s->cluster;
	struct model_context ctx;
	model_context_init(&ctx, c);
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof || s->pod_node[p] >= 0)
			continue;
		bool skip = false;
		const struct model_affinity_prefilter *kept =
			model_affinity_live_get(l, p, s, &skip);
		if (!kept)
			continue;   /* the class table is full: built afresh */
		struct model_cycle cy = {
			.cluster = c, .profile = prof, .pod = p, .base = s, .view = s,
		};
		struct model_affinity_prefilter fresh;
		struct arena_mark mark = arena_mark(&ctx.scratch);
		bool runs = model_affinity_prefilter_init(&fresh, &cy, NULL,
							  &ctx.scratch);
		bool differs = runs == skip || (runs && !state_eq(kept, &fresh));
		arena_reset(&ctx.scratch, mark);
		states++;
		if (differs && differences++ == 0)
			fprintf(stderr, "kept affinity state differs: %s step %d pod %s/%s\n",
				path, step, c->pods[p].ns, c->pods[p].name);
	}
	model_context_release(&ctx);
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
	for (int p = 0; p < c->n_pods; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (!prof || m->snap.pod_node[p] != SNAP_PENDING)
			continue;
		struct model_cycle fresh = {
			.cluster = c, .profile = prof, .pod = p, .base = &m->snap,
			.view = &m->snap,
		};
		struct model_cycle kept = fresh;
		struct model_given given = {.ctx = m->ctx};
		given.affinity_state = model_affinity_live_get(m->affinity_live, p,
							       &m->snap,
							       &given.affinity_skip);
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
				fprintf(stderr, "verdict given the kept affinity state "
					"differs: %s step %d pod %s node %s\n", path,
					m->steps, c->pods[p].name, c->nodes[n].name);
		}
		model_cycle_state_release(&ks);
		model_cycle_state_release(&fs);
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
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler m;
	struct model_sched_opts o = {.max_steps = 60};
	model_scheduler_init(&m, &s, &o);
	compare_pending(m.affinity_live, &m.snap, 0, path);
	struct model_step st;
	while (model_scheduler_step(&m, &st)) {
		model_step_release(&st);
		compare_pending(m.affinity_live, &m.snap, m.steps, path);
		compare_verdicts(&m, path);
	}
	model_scheduler_release(&m);
	/* a walk: a bound pod leaves its node, a pending one binds */
	struct model_affinity_live *l = model_affinity_live_new(&c);
	uint64_t seed = 0xaff1dull ^ (uint64_t)c.n_pods;
	for (int k = 0; k < 40 && c.n_pods; k++) {
		int q = tb_below(&seed, c.n_pods);
		int at = s.pod_node[q];
		if (at >= 0) {
			s.pod_node[q] = SNAP_PENDING;
			model_affinity_live_move(l, q, at, -1);
		} else if (at == SNAP_PENDING) {
			int n = tb_below(&seed, c.n_nodes);
			s.pod_node[q] = n;
			model_affinity_live_move(l, q, n, +1);
		}
		compare_pending(l, &s, -1 - k, path);
	}
	model_affinity_live_free(l);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_by_hand();
	const char *root = getenv("KSO_FIXTURES");
	fixture_walk(root ? root : "fixtures", fixture_is_scenario, fixture);
	printf("test_affinity_live: %d kept states compared\n", states);
	CHECK(states > 100);
	CHECK_EQ(differences, 0);
	printf("test_affinity_live: %d verdicts given the kept state compared\n",
	       verdicts);
	CHECK(verdicts > 1000);
	CHECK_EQ(verdict_differences, 0);
	return check_done("test_affinity_live");
}
