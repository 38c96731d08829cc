/*
 * test_preemption.c - Jeopardy, PDB accounting, Casualty, kube's
 * DefaultPreemption, the exhaustive minimal-casualty Preemption and the
 * scheduler loop (model/preemption*.c, model/scheduler_step.c,
 * model/invariants.c; reference §3, §1.2, §1.3, §1.5; seed 004).
 *
 * Clusters are built in C (build.h).  Only cpu and the pod count matter
 * in these cases: every node has pods=110, every pod one container with a
 * cpu request.  Every expected value is worked out by hand in the comment
 * above its check.
 */
#include "build.h"
#include "check.h"
#include "../../model/context.h"

#include "../../model/model.h"
#include "../../model/preemption.h"
#include "../../model/scheduler.h"

/* ------------------------------------------------------------- helpers */

static int node(struct cluster *c, const char *name, const char *cpu)
{
	char *alloc = arena_sprintf(&c->arena, "cpu=%s,pods=110", cpu);
	return tb_node(c, name, alloc, "");
}

/* A pod with one container requesting cpu, priority prio, on node_name
 * ("" = pending), started at start (0 = no status.startTime). */
static int pod(struct cluster *c, const char *name, const char *node_name,
	       int32_t prio, const char *cpu, int64_t start)
{
	int p = tb_pod(c, name, node_name);
	tb_container(c, p, arena_sprintf(&c->arena, "cpu=%s", cpu), false,
		     false);
	c->pods[p].priority = prio;
	if (start) {
		c->pods[p].start_time.has = true;
		c->pods[p].start_time.seconds = start;
	}
	return p;
}

/* A PDB in "default" selecting app=<app>; allowed < 0: no status given. */
static int pdb(struct cluster *c, const char *name, const char *app,
	       int allowed, int min_available)
{
	if (!c->pdbs)
		c->pdbs = arena_array(&c->arena, 8, sizeof *c->pdbs);
	struct pdb *b = &c->pdbs[c->n_pdbs];
	memset(b, 0, sizeof *b);
	b->ns = "default";
	b->name = name;
	b->selector.present = true;
	b->selector.match_labels = tb_labels(c, arena_sprintf(&c->arena,
							      "app=%s", app));
	if (allowed >= 0) {
		b->has_disruptions_allowed = true;
		b->disruptions_allowed = allowed;
	}
	if (min_available >= 0) {
		b->min_available.set = true;
		b->min_available.value = min_available;
	}
	return c->n_pdbs++;
}

static void label(struct cluster *c, int p, const char *spec)
{
	c->pods[p].labels = tb_labels(c, spec);
}

/* Runs one cycle of p and kube's preemption; out must be released. */
static void kube(const struct cluster *c, const struct snapshot *s, int p,
		 struct sched_preemption *out)
{
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	model_schedule_cycle(&c->config.profiles[0], s, p, &r);
	sched_preemption_init(out);
	struct sched_preempt_opts o = {.offset_draw = 0};
	model_preempt_kube(&c->config.profiles[0], s, p, &r, &o, out);
	sched_cycle_result_release(&r);
}

static int minimal(const struct cluster *c, const struct snapshot *s, int p,
		   struct sched_preemption *out, struct error *err)
{
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	model_schedule_cycle(&c->config.profiles[0], s, p, &r);
	sched_preemption_init(out);
	error_init(err);
	int rc = model_preempt_minimal(&c->config.profiles[0], s, p, &r, out,
				       err);
	sched_cycle_result_release(&r);
	return rc;
}

/* ---------------------------------------------------------------- tests */

static void test_jeopardy(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = node(&c, "n1", "4");
	pod(&c, "lo", "n1", 5, "1", 0);
	pod(&c, "eq", "n1", 10, "1", 0);
	pod(&c, "hi", "n1", 20, "1", 0);
	int p = pod(&c, "p", "", 10, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	int out[TB_MAX_PODS];
	/* Jeopardy = strictly lower priority: only lo (5 < 10); eq (10) and
	 * hi (20) are safe. */
	CHECK_EQ(model_jeopardy(&s, p, n1, out), 1);
	CHECK_EQ(out[0], 0);
	/* preemptionPolicy Never: nobody is in jeopardy. */
	c.pods[p].preempt_never = true;
	CHECK_EQ(model_jeopardy(&s, p, n1, out), 0);
	snapshot_release(&s);
	cluster_release(&c);
}

static void test_casualty_order(void)
{
	struct cluster c;
	tb_init(&c);
	int a = pod(&c, "a", "", -5, "1", 300);
	int b = pod(&c, "b", "", 7, "1", 200);
	int d = pod(&c, "d", "", 7, "1", 100);
	int e = pod(&c, "e", "", 7, "1", 0);
	/* MoreImportantPod: priority first (b, d, e before a); among the
	 * priority-7 pods the earlier start first: d (100), b (200), then e
	 * (no startTime = now). */
	int v[] = {a, b, d, e};
	model_sort_important(&c, v, 4);
	CHECK_EQ(v[0], d);
	CHECK_EQ(v[1], b);
	CHECK_EQ(v[2], e);
	CHECK_EQ(v[3], a);

	/* Casualty of {a, b}: highest 7; sum (-5 + 2^31) + (7 + 2^31) =
	 * 2^32 + 2 = 4294967298; 2 victims; earliest start among the
	 * priority-7 victims = b's 200. */
	struct sched_casualty x, y;
	int ab[] = {a, b};
	model_casualty_of(&c, ab, 2, 0, &x);
	CHECK_EQ(x.highest_priority, 7);
	CHECK_EQ(x.priority_sum, 4294967298LL);
	CHECK_EQ(x.victims, 2);
	CHECK_EQ(x.earliest_start, 200);
	/* {b} alone: same highest, sum 7 + 2^31 = 2147483655 < x's: better. */
	int bb[] = {b};
	model_casualty_of(&c, bb, 1, 0, &y);
	CHECK_EQ(y.priority_sum, 2147483655LL);
	CHECK(model_casualty_cmp(&y, &x) < 0);
	/* One PDB violation outweighs everything else. */
	y.pdb_violations = 1;
	CHECK(model_casualty_cmp(&y, &x) > 0);
	/* {d} vs {b}: all equal but start: d started at 100, b at 200; the
	 * later start (b) is better. */
	int dd[] = {d};
	model_casualty_of(&c, bb, 1, 0, &x);
	model_casualty_of(&c, dd, 1, 0, &y);
	CHECK(model_casualty_cmp(&x, &y) < 0);
	cluster_release(&c);
}

static void test_pdb_accounting(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "8");
	int w1 = pod(&c, "w1", "n1", 0, "1", 0);
	int w2 = pod(&c, "w2", "n1", 0, "1", 0);
	int w3 = pod(&c, "w3", "", 0, "1", 0);
	int bare = pod(&c, "bare", "n1", 0, "1", 0);
	label(&c, w1, "app=web");
	label(&c, w2, "app=web");
	label(&c, w3, "app=web");
	int given = pdb(&c, "given", "web", 1, -1);
	int computed = pdb(&c, "computed", "web", -1, 1);
	struct snapshot s;
	snapshot_init(&s, &c);
	int32_t allowed[2];
	model_pdb_allowed(&s, allowed);
	/* given: copied from status = 1. computed: matched w1, w2, w3
	 * (expected 3), healthy = bound ones w1, w2 = 2, minAvailable 1:
	 * allowed = 2 - 1 = 1. */
	CHECK_EQ(allowed[given], 1);
	CHECK_EQ(allowed[computed], 1);
	/* A pod without labels matches no PDB. */
	CHECK(!model_pdb_selects(&c, given, bare));
	CHECK(model_pdb_selects(&c, given, w1));

	/* Split [w1, w2] with both budgets at 1: w1 takes both budgets to
	 * 0 (not violating); w2 takes them to -1: violating. */
	int v[] = {w1, w2};
	bool viol[2];
	CHECK_EQ(model_pdb_split(&c, allowed, v, 2, viol), 1);
	CHECK(!viol[0]);
	CHECK(viol[1]);
	/* w1 listed in given's disruptedPods: given is not decremented for
	 * it, computed still is (to 0); w2 then takes given to 0 and
	 * computed to -1: still one violation, now by computed alone. */
	static const char *const disrupted[] = {"w1"};
	c.pdbs[given].disrupted_pods = disrupted;
	c.pdbs[given].n_disrupted_pods = 1;
	CHECK_EQ(model_pdb_split(&c, allowed, v, 2, viol), 1);
	CHECK(viol[1]);
	/* The same from the table of who spends what: given is not spent
	 * by w1 (disrupted) nor by bare (no labels); computed by w1-w3. */
	bool spends[4 * 2];
	model_pdb_spends(&c, spends);
	CHECK(!spends[w1 * 2 + given] && spends[w2 * 2 + given] &&
	      spends[w3 * 2 + given] && !spends[bare * 2 + given]);
	CHECK(spends[w1 * 2 + computed] && spends[w2 * 2 + computed] &&
	      spends[w3 * 2 + computed] && !spends[bare * 2 + computed]);
	bool viol2[2] = {false, false};
	CHECK_EQ(model_pdb_split_with(&c, allowed, spends, v, 2, viol2), 1);
	CHECK(!viol2[0] && viol2[1]);
	/* w2 first: w2 takes both to 0, w1 takes computed to -1 */
	int v2[] = {w2, w1};
	CHECK_EQ(model_pdb_split_with(&c, allowed, spends, v2, 2, viol2), 1);
	CHECK(!viol2[0] && viol2[1]);
	CHECK_EQ(model_pdb_split(&c, allowed, v2, 2, viol), 1);
	/* An empty selector {} matches nothing for the scheduler. */
	c.pdbs[given].selector.match_labels.n = 0;
	CHECK(!model_pdb_selects(&c, given, w1));

	/* maxUnavailable 50% of 3 matched pods: ceil(1.5) = 2 may be
	 * unavailable, desired healthy 3 - 2 = 1, healthy 2: allowed 1. */
	c.pdbs[computed].min_available.set = false;
	c.pdbs[computed].max_unavailable =
		(struct int_or_percent){.set = true, .percent = true, .value = 50};
	model_pdb_allowed(&s, allowed);
	CHECK_EQ(allowed[computed], 1);
	(void)w3;
	snapshot_release(&s);
	cluster_release(&c);
}

/* One low-priority pod fills the node; the preemptor evicts it. */
static void test_single_victim(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = node(&c, "n1", "2");
	int low = pod(&c, "low", "n1", 0, "1500m", 0);
	int p = pod(&c, "p", "", 100, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	/* n1: 2000m - 1500m = 500m < 1000m: Insufficient cpu (U).  Removing
	 * low frees 2000m; reprieving it needs 1500 + 1000 > 2000: victim. */
	kube(&c, &s, p, &k);
	CHECK_EQ(k.code, SCHED_SUCCESS);
	CHECK_EQ(k.node, n1);
	CHECK_EQ(k.chosen.n, 1);
	CHECK_EQ(k.chosen.pods[0], low);
	CHECK_EQ(k.chosen.pdb_violations, 0);
	CHECK_STR(k.message, "");
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.node, n1);
	CHECK_EQ(m.chosen.n, 1);
	CHECK_EQ(m.chosen.pods[0], low);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* Four 1-cpu pods of priorities 1..4 fill a 4-cpu node; the preemptor
 * needs 2 cpu.  Reprieve order d(4), c(3), b(2), a(1): d: 1 + 2 <= 4
 * kept; c: 2 + 2 <= 4 kept; b: 3 + 2 > 4 victim; a: 3 + 2 > 4 victim.
 * Victims [b, a] (most important first). */
static void test_reprieve_keeps_some(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "4");
	int a = pod(&c, "a", "n1", 1, "1", 0);
	int b = pod(&c, "b", "n1", 2, "1", 0);
	pod(&c, "c", "n1", 3, "1", 0);
	pod(&c, "d", "n1", 4, "1", 0);
	int p = pod(&c, "p", "", 10, "2", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.chosen.n, 2);
	CHECK_EQ(k.chosen.pods[0], b);
	CHECK_EQ(k.chosen.pods[1], a);
	/* Casualty: highest 2, sum (2 + 2^31) + (1 + 2^31) = 4294967299. */
	CHECK_EQ(k.chosen.casualty.highest_priority, 2);
	CHECK_EQ(k.chosen.casualty.priority_sum, 4294967299LL);
	/* Minimal: any 2 pods free 2 cpu (fewer do not); the pair with the
	 * lowest highest priority is {a, b} (highest 2): the same answer. */
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.chosen.n, 2);
	CHECK_EQ(m.chosen.pods[0], b);
	CHECK_EQ(m.chosen.pods[1], a);
	/* SelectVictimsOnNode alone (§3.4) gives the same victims on n1,
	 * no PDB (budgets unused), and UAU "No preemption victims found for
	 * incoming pod" for a pod with nothing of lower priority there (a,
	 * priority 1, the lowest) */
	struct sched_victims v;
	struct sched_status st;
	int32_t none[1] = {0};
	CHECK_EQ(model_select_victims_on_node(&c.config.profiles[0], &s, p, 0,
					      none, &v, &st), SCHED_SUCCESS);
	CHECK_EQ(v.n, 2);
	CHECK_EQ(v.n == 2 ? v.pods[0] : -1, b);
	CHECK_EQ(v.n == 2 ? v.pods[1] : -1, a);
	CHECK_EQ(v.pdb_violations, 0);
	free(v.pods);
	s.pod_node[a] = SNAP_PENDING;
	CHECK_EQ(model_select_victims_on_node(&c.config.profiles[0], &s, a, 0,
					      none, &v, &st), SCHED_UAU);
	CHECK_STR(st.n_reasons ? sched_status_reason(&st, 0) : "",
		  "No preemption victims found for incoming pod");
	free(v.pods);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* PDB-protected victims are reprieved first.  n1 (2 cpu) holds old
 * (priority 1, started 100, no PDB) and guarded (priority 1, started 200,
 * PDB with 0 disruptions allowed); the preemptor needs 1 cpu.  Sorted:
 * old, guarded.  Split: guarded violates (0 - 1 < 0).  Reprieve guarded
 * first: 1 + 1 <= 2 kept; then old: 2 + 1 > 2 victim.  Victims [old], 0
 * violations.  Without the PDB old would have been kept. */
static void test_pdb_victims_last(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "2");
	int old = pod(&c, "old", "n1", 1, "1", 100);
	int guarded = pod(&c, "guarded", "n1", 1, "1", 200);
	label(&c, guarded, "app=db");
	pdb(&c, "db", "db", 0, -1);
	int p = pod(&c, "p", "", 10, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.chosen.n, 1);
	CHECK_EQ(k.chosen.pods[0], old);
	CHECK_EQ(k.chosen.pdb_violations, 0);
	sched_preemption_release(&k);
	snapshot_release(&s);
	cluster_release(&c);
}

/* Fewest PDB violations decides the node before node order.  n1 and n2
 * (2 cpu each) hold one 2-cpu priority-1 pod each; n1's is protected by a
 * PDB with 0 allowed.  Candidates: n1 [a] with 1 violation, n2 [b] with
 * 0: n2 wins.  Without the PDB both tie on every key and the first
 * candidate (n1) wins with n2 as the tie. */
static void test_pdb_node_choice(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "2");
	int n2 = node(&c, "n2", "2");
	int a = pod(&c, "a", "n1", 1, "2", 0);
	int b = pod(&c, "b", "n2", 1, "2", 0);
	label(&c, a, "app=db");
	pdb(&c, "db", "db", 0, -1);
	int p = pod(&c, "p", "", 10, "2", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.node, n2);
	CHECK_EQ(k.chosen.pods[0], b);
	CHECK_EQ(k.n_candidates, 2);
	CHECK_EQ(k.n_ties, 0);
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.node, n2);
	CHECK_EQ(m.chosen.casualty.pdb_violations, 0);
	sched_preemption_release(&k);
	sched_preemption_release(&m);

	/* Budgets lent by the caller are the ones used: lending the
	 * computed {0} gives the same answers; lending {1} makes evicting a
	 * no violation, so both candidates tie and n1 (first in the list /
	 * the earlier node) wins, with n2 as kube's tie.  Given inputs (a
	 * model context and the pod's spread part, odd rounds) change
	 * nothing. */
	for (int round = 0; round < 4; round++) {
		int lend = round / 2;
		int32_t allowed[1] = {lend};
		struct sched_cycle_result r;
		sched_cycle_result_init(&r, &c);
		model_schedule_cycle(&c.config.profiles[0], &s, p, &r);
		struct model_context ctx;
		model_context_init(&ctx, &c);
		struct model_spread_static *sp =
			model_spread_static_new(&c, &c.config.profiles[0], p);
		const struct model_given given = {.ctx = &ctx, .spread = sp};
		const struct model_given *g = round % 2 ? &given : NULL;
		struct sched_preempt_opts o = {.pdb_allowed = allowed};
		sched_preemption_init(&k);
		struct model_question q = {
			.phase = MODEL_PHASE_POSTFILTER,
			.prof = &c.config.profiles[0], .s = &s, .pod = p,
			.failed = &r, .opts = &o, .preemption = &k,
		};
		model_schedule_cycle_given(&q, g);
		sched_preemption_init(&m);
		error_init(&err);
		q.phase = MODEL_PHASE_MINIMAL;
		q.preemption = &m;
		q.err = &err;
		CHECK_EQ(model_schedule_cycle_given(&q, g), 0);
		CHECK_EQ(k.node, lend ? 0 : n2);
		CHECK_EQ(k.chosen.pods[0], lend ? a : b);
		CHECK_EQ(k.n_ties, lend);
		CHECK_EQ(k.chosen.pdb_violations, 0);
		CHECK_EQ(m.node, lend ? 0 : n2);
		CHECK_EQ(m.chosen.casualty.pdb_violations, 0);
		sched_preemption_release(&k);
		sched_preemption_release(&m);
		model_spread_static_free(sp);
		model_context_release(&ctx);
		sched_cycle_result_release(&r);
	}

	c.n_pdbs = 0;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.node, 0);
	CHECK_EQ(k.n_ties, 1);
	CHECK_EQ(k.ties[0], n2);
	sched_preemption_release(&k);
	snapshot_release(&s);
	cluster_release(&c);
}

/* Equal priority is never preempted: SelectVictimsOnNode finds no
 * victim (UAU), so there is no candidate and the FitError lists it. */
static void test_equal_priority(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "1");
	pod(&c, "peer", "n1", 10, "1", 0);
	int p = pod(&c, "p", "", 10, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(k.node, -1);
	CHECK(k.clear_own_nomination);
	CHECK_STR(k.message, "preemption: 0/1 nodes are available: 1 No "
			     "preemption victims found for incoming pod.");
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.node, -1);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

static void test_policy_never(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "1");
	pod(&c, "low", "n1", 0, "1", 0);
	int p = pod(&c, "p", "", 10, "1", 0);
	c.pods[p].preempt_never = true;
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK(!k.eligible);
	CHECK_EQ(k.node, -1);
	CHECK(!k.clear_own_nomination);
	CHECK_STR(k.message, "preemption: not eligible due to "
			     "preemptionPolicy=Never.");
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.node, -1);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* UAU nodes are not candidates: n1 has an untolerated NoSchedule taint
 * (TaintToleration: UAU), n2 fails the node selector (NodeAffinity: UAU);
 * both hold evictable pods, yet no node is even tried. */
static void test_uau_not_candidates(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = node(&c, "n1", "1");
	node(&c, "n2", "1");
	tb_taint(&c, n1, "dedicated", "x", EFFECT_NO_SCHEDULE);
	pod(&c, "l1", "n1", 0, "1", 0);
	pod(&c, "l2", "n2", 0, "1", 0);
	int p = pod(&c, "p", "", 10, "1", 0);
	c.pods[p].has_node_selector = true;
	c.pods[p].node_selector = tb_labels(&c, "disk=ssd");
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.node, -1);
	CHECK_EQ(k.n_candidates, 0);
	CHECK_STR(k.message, "preemption: 0/2 nodes are available: 2 "
			     "Preemption is not helpful for scheduling.");
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.node, -1);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * kube and the minimal answer differ.  n1 (4 cpu) is full with three
 * priority-1 pods: big (2 cpu, started 100), s1 (1 cpu, started 200), s2
 * (1 cpu, started 300).  The preemptor needs 2 cpu.
 * kube: sorted big, s1, s2 (equal priority, earlier start first).
 *   reprieve big: 2 + 2 <= 4 kept; s1: 3 + 2 > 4 victim; s2: victim.
 *   victims [s1, s2]: highest 1, sum 2 * (1 + 2^31) = 4294967298, 2 pods.
 * minimal: {big} frees 2 cpu: highest 1, sum 1 + 2^31 = 2147483649, 1
 *   pod: less Casualty (key 3).  {s1, s2} ties on key 2 but loses on 3.
 */
static void test_kube_differs_from_minimal(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "4");
	int big = pod(&c, "big", "n1", 1, "2", 100);
	int s1 = pod(&c, "s1", "n1", 1, "1", 200);
	int s2 = pod(&c, "s2", "n1", 1, "1", 300);
	int p = pod(&c, "p", "", 10, "2", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption k, m;
	struct error err;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.chosen.n, 2);
	CHECK_EQ(k.chosen.pods[0], s1);
	CHECK_EQ(k.chosen.pods[1], s2);
	CHECK_EQ(k.chosen.casualty.priority_sum, 4294967298LL);
	CHECK_EQ(minimal(&c, &s, p, &m, &err), 0);
	CHECK_EQ(m.chosen.n, 1);
	CHECK_EQ(m.chosen.pods[0], big);
	CHECK_EQ(m.chosen.casualty.priority_sum, 2147483649LL);
	CHECK(model_casualty_cmp(&m.chosen.casualty, &k.chosen.casualty) < 0);
	sched_preemption_release(&k);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* More than 20 candidate victims on a node: the exhaustive search
 * refuses with an error naming the node. */
static void test_minimal_limit(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "21");
	static const char *const names[] = {
		"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9",
		"v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18",
		"v19", "v20"};
	for (int i = 0; i < 21; i++)
		pod(&c, names[i], "n1", 0, "1", 0);
	int p = pod(&c, "p", "", 10, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption m;
	struct error err;
	CHECK_EQ(minimal(&c, &s, p, &m, &err), -1);
	CHECK(strstr(err.msg, "node n1 has 21 candidate victims") != NULL);
	sched_preemption_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* Pods nominated to the chosen node with lower priority lose their
 * nomination; a nominated pod of higher priority blocks the node (§1.5
 * pass 1) until it is gone. */
static void test_nominated_pods(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = node(&c, "n1", "2");
	int n2 = node(&c, "n2", "2");
	pod(&c, "a", "n1", 1, "2", 0);
	pod(&c, "b", "n2", 1, "2", 0);
	int nomlow = pod(&c, "nomlow", "", 5, "1", 0);
	int nomhigh = pod(&c, "nomhigh", "", 50, "1", 0);
	int p = pod(&c, "p", "", 10, "2", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	s.nominated[nomlow] = n1;
	s.nominated[nomhigh] = n2;
	/* n1: evicting a frees 2 cpu; nomlow (5 < 10) is ignored by the
	 * filter.  n2: evicting b frees 2 cpu but nomhigh (50 >= 10) is
	 * added in pass 1: 1 + 2 > 2, so n2 is no candidate.  n1 is chosen
	 * and nomlow's nomination is cleared. */
	struct sched_preemption k;
	kube(&c, &s, p, &k);
	CHECK_EQ(k.node, n1);
	CHECK_EQ(k.n_candidates, 1);
	CHECK_EQ(k.n_clear_nominated, 1);
	CHECK_EQ(k.clear_nominated[0], nomlow);
	sched_preemption_release(&k);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * The scheduler loop on 12 pods.  Nodes n1, n2: 4 cpu each.  Pods, all
 * pending, in manifest order (priority, cpu): a(0,2) b(0,2) c(0,2)
 * d(0,2) e(100,2) f(100,2) g(50,1) h(50,1) i(1000,4) j(0,1) k(100,1)
 * never(2000,1, preemptionPolicy Never).
 * Queue: never(2000), i(1000), e f k (100, manifest order), g h (50),
 * a b c d j (0).  Score plugins: NodeResourcesFit LeastAllocated and
 * BalancedAllocation prefer the emptier node; with equal totals the tie
 * goes to the first name.  Only cpu is requested, so BalancedAllocation
 * (cpu and memory fractions; memory 0 requested of 0 allocatable) is
 * treated as whatever it is: both nodes are equal whenever their cpu use
 * is equal, and the emptier node always scores at least as high on
 * LeastAllocated, so the emptier node is picked (n1 on ties).  The
 * expected placement only relies on "emptier node, n1 on ties":
 *  1 never -> n1 (0/0 equal, n1)             n1=1 n2=0
 *  2 i     -> n2 (n2 empty: 4 free)          n1=1 n2=4
 *  3 e     -> n1 (only n1 has 3 free)        n1=3 n2=4
 *  4 f     -> no room (1 free / 0 free): preempt.  Lower-priority pods:
 *     n1 none below 100 (never 2000, e 100); n2: i 1000: none.  No
 *     victims anywhere: unschedulable, parked.
 *  5 k     -> n1 (1 free)                    n1=4 n2=4
 *     f stays parked: NodeResourcesFit alone rejected it, which registers
 *     pod deletions only, and (v1.30.12) a bind reaches only parked pods
 *     with a required affinity term matching the bound pod
 *     (AssignedPodAdded; model/requeue.h).
 *  6 g     -> no room; victims below 50: none (all >= 100): parked.
 *  7 h     -> parked likewise.  a b c d j (0): parked likewise.
 *  8 a, 9 b, 10 c, 11 d, 12 j: each parked; quiescence after 12 steps.
 * Final: never n1, i n2, e n1, k n1; f g h a b c d j pending.
 * Invariants hold.
 */
static void test_scheduler_loop(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "4");
	node(&c, "n2", "4");
	static const struct {
		const char *name;
		int32_t prio;
		const char *cpu;
	} pods[] = {
		{"a", 0, "2"}, {"b", 0, "2"}, {"c", 0, "2"}, {"d", 0, "2"},
		{"e", 100, "2"}, {"f", 100, "2"}, {"g", 50, "1"},
		{"h", 50, "1"}, {"i", 1000, "4"}, {"j", 0, "1"},
		{"k", 100, "1"}, {"never", 2000, "1"},
	};
	for (size_t x = 0; x < sizeof pods / sizeof pods[0]; x++)
		pod(&c, pods[x].name, "", pods[x].prio, pods[x].cpu, 0);
	c.pods[11].preempt_never = true;
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler m;
	struct model_sched_opts o = {0};
	model_scheduler_init(&m, &s, &o);
	struct model_step st;
	int steps = 0, binds = 0;
	while (model_scheduler_step(&m, &st)) {
		steps++;
		binds += st.action == MODEL_STEP_BIND;
		model_step_release(&st);
	}
	CHECK_EQ(steps, 12);
	CHECK_EQ(binds, 4);
	CHECK_EQ(m.snap.pod_node[11], 0);   /* never */
	CHECK_EQ(m.snap.pod_node[8], 1);    /* i */
	CHECK_EQ(m.snap.pod_node[4], 0);    /* e */
	CHECK_EQ(m.snap.pod_node[10], 0);   /* k */
	CHECK_EQ(m.snap.pod_node[5], SNAP_PENDING);   /* f */
	CHECK_EQ(m.snap.pod_node[0], SNAP_PENDING);   /* a */
	CHECK(model_invariants_ok(&m.inv));
	model_scheduler_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * A preemption in the loop: n1 (2 cpu) holds low (priority 0, 2 cpu);
 * hi (priority 10, 2 cpu) is pending.
 *  1 hi: no fit; kube evicts low, nominates hi to n1 (action preempt).
 *  2 hi: the nominated node fits: bound to n1 via the fast path.
 * Quiescence after 2 steps; low gone; invariants hold.
 */
static void test_scheduler_preempts(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "2");
	int low = pod(&c, "low", "n1", 0, "2", 0);
	int hi = pod(&c, "hi", "", 10, "2", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler m;
	struct model_sched_opts o = {0};
	model_scheduler_init(&m, &s, &o);
	struct model_step st;
	CHECK_EQ(model_scheduler_step(&m, &st), 1);
	CHECK_EQ(st.pod, hi);
	CHECK_EQ(st.action, MODEL_STEP_PREEMPT);
	CHECK_EQ(st.node, 0);
	CHECK_EQ(st.n_victims, 1);
	CHECK_EQ(st.victims[0], low);
	CHECK_STR(st.message, "0/1 nodes are available: 1 Insufficient cpu.");
	model_step_release(&st);
	CHECK_EQ(m.snap.pod_node[low], SNAP_GONE);
	CHECK_EQ(m.snap.nominated[hi], 0);
	CHECK_EQ(model_scheduler_step(&m, &st), 1);
	CHECK_EQ(st.action, MODEL_STEP_BIND);
	CHECK(st.fast_path);
	CHECK_EQ(st.node, 0);
	model_step_release(&st);
	CHECK_EQ(model_scheduler_step(&m, &st), 0);
	CHECK(model_invariants_ok(&m.inv));
	model_scheduler_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * The termination check's fingerprint, kept up to date from what each
 * step changed (its pod, victims, cleared nominations, the pods that were
 * waiting), equals the one a rehash of every pod gives
 * (full_invariants) after every step of a run with binds, preemptions,
 * failures and wake-ups; and the placement kept as the next step's
 * "before" is the step's result: n1, n2 of 2 cpu; three low pods of 1 cpu bound,
 * then pending pods of priorities 0..5 asking 1 or 2 cpu.
 */
static void test_fingerprint_incremental(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "2");
	node(&c, "n2", "2");
	pod(&c, "b1", "n1", 0, "1", 0);
	pod(&c, "b2", "n1", 0, "1", 0);
	pod(&c, "b3", "n2", 0, "1", 0);
	static const char *names[] = {"q0", "q1", "q2", "q3", "q4", "q5"};
	for (int i = 0; i < 6; i++)
		pod(&c, names[i], "", (i * 7) % 6, i % 2 ? "2" : "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler inc, full;
	struct model_sched_opts oi = {0}, of = {.full_invariants = true};
	model_scheduler_init(&inc, &s, &oi);
	model_scheduler_init(&full, &s, &of);
	int steps = 0, same = 0, synced = 0, preempts = 0, parks = 0;
	struct model_step a, b;
	while (model_scheduler_step(&inc, &a) == 1) {
		CHECK_EQ(model_scheduler_step(&full, &b), 1);
		steps++;
		preempts += a.action == MODEL_STEP_PREEMPT;
		parks += a.action == MODEL_STEP_UNSCHEDULABLE;
		same += inc.inv.sum[0] == full.inv.sum[0] &&
			inc.inv.sum[1] == full.inv.sum[1] &&
			inc.inv.n_states == full.inv.n_states;
		/* the next step's "before" is this step's result */
		size_t bytes = sizeof(int32_t) * (size_t)c.n_pods;
		synced += !memcmp(inc.before.pod_node, inc.snap.pod_node, bytes) &&
			  !memcmp(inc.before.nominated, inc.snap.nominated, bytes);
		model_step_release(&a);
		model_step_release(&b);
	}
	CHECK(steps >= 6);
	CHECK(preempts >= 1);
	CHECK(parks >= 1);
	CHECK_EQ(same, steps);
	CHECK_EQ(synced, steps);
	CHECK_EQ(model_scheduler_step(&full, &b), 0);
	model_scheduler_release(&inc);
	model_scheduler_release(&full);
	snapshot_release(&s);
	cluster_release(&c);
}

/* The invariants catch what they are meant to: a pod placed where it did
 * not fit breaks capacity (n1: 1 cpu, two 1-cpu pods = 2000m > 1000m)
 * and bind-feasible (Insufficient cpu before the bind); a victim of equal
 * priority breaks victim-priority; a state seen before breaks termination
 * (nothing changed since the initial state). */
static void test_invariants_detect(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "1");
	int x = pod(&c, "x", "n1", 5, "1", 0);
	int y = pod(&c, "y", "", 5, "1", 0);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_scheduler m;
	struct model_sched_opts o = {0};
	model_scheduler_init(&m, &s, &o);
	CHECK(model_invariants_ok(&m.inv));
	/* the same state again: termination */
	struct model_step st = {.pod = y, .action = MODEL_STEP_UNSCHEDULABLE,
				.node = -1};
	CHECK(!model_invariants_check(&m, &s, &st));
	CHECK(m.inv.broken[MODEL_INV_TERMINATION]);
	CHECK_EQ(m.inv.loop_state, 0);   /* back to the initial state */

	m.snap.pod_node[y] = 0;
	m.placed[y] = true;
	st.action = MODEL_STEP_BIND;
	st.node = 0;
	model_invariants_check(&m, &s, &st);
	CHECK(m.inv.broken[MODEL_INV_CAPACITY]);
	CHECK(m.inv.broken[MODEL_INV_BIND_FEASIBLE]);
	CHECK_STR(model_invariant_name(MODEL_INV_CAPACITY), "capacity");

	int victims[] = {x};
	st.action = MODEL_STEP_PREEMPT;
	st.victims = victims;
	st.n_victims = 1;
	model_invariants_check(&m, &s, &st);
	CHECK(m.inv.broken[MODEL_INV_VICTIM_PRIORITY]);
	CHECK(!model_invariants_ok(&m.inv));
	model_scheduler_release(&m);
	snapshot_release(&s);
	cluster_release(&c);
}

/* model_next_pod_of (profiles looked up by the caller) against
 * model_next_pod on every placement of five pods on two nodes: one pod
 * of an unknown scheduler, one gated, one being deleted never go first;
 * of the rest the highest priority, then manifest order. */
static void test_next_pod_of(void)
{
	struct cluster c;
	tb_init(&c);
	node(&c, "n1", "8");
	node(&c, "n2", "8");
	int lo = pod(&c, "lo", "", 1, "1", 0);
	int hi = pod(&c, "hi", "", 5, "1", 0);
	int other = pod(&c, "other", "", 9, "1", 0);
	int gated = pod(&c, "gated", "", 9, "1", 0);
	int gone = pod(&c, "gone", "", 9, "1", 0);
	int hi2 = pod(&c, "hi2", "", 5, "1", 0);
	c.pods[other].scheduler_name = "someone-else";
	c.pods[gated].n_gates = 1;
	c.pods[gone].deletion.has = true;
	const struct sched_profile *prof[6];
	for (int p = 0; p < c.n_pods; p++)
		prof[p] = model_profile_for(&c, p);
	CHECK(prof[other] == NULL);
	struct snapshot s;
	snapshot_init(&s, &c);
	/* all pending: hi (5) before hi2 (5, later in the manifest) */
	CHECK_EQ(model_next_pod_of(&s, prof), hi);
	s.pod_node[hi] = 0;
	CHECK_EQ(model_next_pod_of(&s, prof), hi2);
	int bad = 0, n = 0;
	for (int index = 0; index < 729; index++) {
		for (int p = 0, i = index; p < c.n_pods; p++, i /= 3)
			s.pod_node[p] = i % 3 ? i % 3 - 1 : SNAP_PENDING;
		int want = model_next_pod(&c.config, &s);
		bad += model_next_pod_of(&s, prof) != want;
		n += want == lo;
	}
	CHECK_EQ(bad, 0);
	/* lo goes first exactly when it is pending and hi, hi2 are bound:
	 * 3^3 placements of the other three times 2 * 2 */
	CHECK_EQ(n, 27 * 4);
	snapshot_release(&s);
	cluster_release(&c);
}

int main(void)
{
	test_jeopardy();
	test_casualty_order();
	test_pdb_accounting();
	test_single_victim();
	test_reprieve_keeps_some();
	test_pdb_victims_last();
	test_pdb_node_choice();
	test_equal_priority();
	test_policy_never();
	test_uau_not_candidates();
	test_kube_differs_from_minimal();
	test_minimal_limit();
	test_nominated_pods();
	test_scheduler_loop();
	test_scheduler_preempts();
	test_invariants_detect();
	test_fingerprint_incremental();
	test_next_pod_of();
	return check_done("test_preemption");
}
