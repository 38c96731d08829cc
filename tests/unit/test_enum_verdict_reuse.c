/*
 * test_enum_verdict_reuse.c - the enumerator's reuse of the model's
 * per-node verdicts (enum/verdict_reuse.c): a cycle with reused verdicts
 * is the model's cycle exactly, on every placement and nomination of a
 * small universe; verdicts are given exactly as often as a (pod, node,
 * pods on the node) met before comes back; and only pods whose
 * Feasibility reads nothing but their node's pods are reused.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "../../enum/enum.h"

/* n1 and n2 (cpu 2), n2 tainted spot:NoSchedule; a and b (cpu 1), c (cpu
 * 2, tolerates spot), d (a host port 80).  Every filter outcome the
 * reuse keeps: fits, Insufficient cpu, an untolerated taint, a port
 * conflict, and several at once. */
static const char local_universe[] =
	"kind: Universe\n"
	"name: reuse\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
	"spec: {taints: [{key: spot, effect: NoSchedule}]}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: c, namespace: default}\n"
	"spec:\n"
	"  tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"2\"}}}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: d, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, ports: [{containerPort: 80, "
	"hostPort: 80}]}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: e, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, ports: [{containerPort: 80, "
	"hostPort: 80}]}]\n";

/* Two verdicts read the same: every field a reader of a verdict reads
 * (feasible, code, rejected_by, the failed set, each failed filter's
 * code and reasons). */
static bool same_verdict(const struct sched_node_verdict *a,
			 const struct sched_node_verdict *b)
{
	if (a->feasible != b->feasible || a->code != b->code ||
	    a->rejected_by != b->rejected_by ||
	    memcmp(a->failed, b->failed, sizeof a->failed) != 0)
		return false;
	for (int id = 0; id < PLUGIN_FILTERS; id++) {
		const struct sched_status *x = &a->status[id], *y = &b->status[id];
		if (!a->failed[id])
			continue;
		if (x->code != y->code || x->n_reasons != y->n_reasons)
			return false;
		for (int i = 0; i < x->n_reasons; i++)
			if (strcmp(sched_status_reason(x, i), sched_status_reason(y, i)))
				return false;
	}
	return true;
}

static bool same_cycle(const struct sched_cycle_result *a,
		       const struct sched_cycle_result *b)
{
	if (a->code != b->code || a->n_feasible != b->n_feasible ||
	    a->n_viable != b->n_viable || a->scored != b->scored ||
	    strcmp(a->message ? a->message : "", b->message ? b->message : ""))
		return false;
	for (int i = 0; i < a->n_feasible; i++)
		if (a->feasible[i] != b->feasible[i])
			return false;
	for (int i = 0; i < a->n_viable; i++)
		if (a->viable[i] != b->viable[i])
			return false;
	for (int n = 0; n < a->n_nodes; n++) {
		if (!same_verdict(&a->verdicts[n], &b->verdicts[n]) ||
		    a->total[n] != b->total[n] ||
		    memcmp(&a->scores[n * PLUGIN_COUNT], &b->scores[n * PLUGIN_COUNT],
			   sizeof *a->scores * PLUGIN_COUNT) != 0)
			return false;
	}
	return true;
}

struct walk {
	struct enum_ctx *x;
	struct sched_cycle_result fresh;
	int differ, cycles;
	uint64_t lookups;           /* eligible (pod, node) pairs asked */
	bool seen[5][2][1 << 5];    /* (pod, node, pods on it) met before */
	uint64_t distinct;
};

/* One cycle of pod on x->snap both ways; counts what reuse could give:
 * every eligible node (no pending pod nominated to it) is a lookup, and
 * a (pod, node, pods on the node) met for the first time is a new key. */
static void one_cycle(struct walk *w, int pod)
{
	struct enum_ctx *x = w->x;
	const struct snapshot *s = &x->snap;
	const struct sched_profile *prof = x->prof[pod];
	/* poison what the last cycle left: a verdict given must be written
	 * in full, not found in place - but where the reuse holds the
	 * last cycle's given verdict to be in place still (held_m), which
	 * the comparison with the fresh cycle then checks */
	for (int n = 0; n < x->c->n_nodes; n++)
		if (x->reuse.held_m[n] == 0)
			memset(x->mr.verdicts[n].status, 0x55,
			       sizeof x->mr.verdicts[n].status);
	struct model_given given;
	enum_model_given(x, prof, pod, &given);
	enum_reuse_cycle(&x->reuse, prof, s, pod, &given, &x->mr);
	model_schedule_cycle(prof, s, pod, &w->fresh);
	w->differ += !same_cycle(&x->mr, &w->fresh);
	w->cycles++;
	for (int n = 0; n < x->c->n_nodes; n++) {
		int mask = 0;
		bool nominated = false;
		for (int q = 0; q < x->c->n_pods; q++) {
			mask |= (s->pod_node[q] == n) << q;
			nominated = nominated || (s->pod_node[q] == SNAP_PENDING &&
						  s->nominated[q] == n);
		}
		if (nominated)
			continue;
		w->lookups++;
		if (!w->seen[pod][n][mask]) {
			w->seen[pod][n][mask] = true;
			w->distinct++;
		}
	}
}

/* Every placement of the 5 pods on the 2 nodes (3^5), each pending pod's
 * cycle; then the same with c (cpu 2), then d (port 80), nominated to n1
 * where it is pending: a nominated pod is in the Feasibility of every
 * pod of its priority on n1 (reference §1.5), so n1's verdicts met
 * without it must not be given there. */
static void every_state_both_ways(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	static struct walk w;
	memset(&w, 0, sizeof w);
	w.x = &x;
	sched_cycle_result_init(&w.fresh, x.c);
	/* no pod has volumes, affinity terms or DoNotSchedule spreading */
	for (int p = 0; p < 5; p++)
		CHECK(x.reuse.local[p]);
	static const int nominee[3] = {-1, 2, 3};
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 243; i++) {
			int k = i;
			for (int p = 0; p < 5; p++, k /= 3) {
				x.snap.pod_node[p] = k % 3 ? k % 3 - 1 : SNAP_PENDING;
				x.snap.nominated[p] = -1;
			}
			int q = nominee[round];
			if (q >= 0 && x.snap.pod_node[q] == SNAP_PENDING)
				x.snap.nominated[q] = 0;
			for (int p = 0; p < 5; p++)
				if (x.snap.pod_node[p] == SNAP_PENDING)
					one_cycle(&w, p);
		}
	CHECK_EQ(w.differ, 0);
	/* each pending pod of each state: 5 * 3^4 = 405 cycles a round */
	CHECK_EQ(w.cycles, 3 * 405);
	/* every lookup but a key's first gives the verdict; every first
	 * is kept (no cycle here errors or is rejected at PreFilter) */
	CHECK_EQ(x.reuse.given, w.lookups - w.distinct);
	CHECK_EQ(x.reuse.stored, w.distinct);
	CHECK(x.reuse.given > 0);
	/* consecutive states with the same pod keep some nodes' pods: their
	 * verdicts are found in place */
	CHECK(x.reuse.in_place > 0 && x.reuse.in_place < x.reuse.given);
	/* c (tolerates spot) is the one pod feasible on both nodes: its
	 * scored cycles store scores and later ones are given them */
	CHECK(x.reuse.scores_stored > 0);
	CHECK(x.reuse.scores_given > 0);
	sched_cycle_result_release(&w.fresh);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/* The pods whose verdicts are not reused: one with a volume, one with a
 * DoNotSchedule spread constraint; and once some pod has a required
 * anti-affinity term, none (the term reads pods on other nodes). */
static const char *const nonlocal_pods =
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: vol, namespace: default}\n"
	"spec:\n"
	"  volumes: [{name: v, persistentVolumeClaim: {claimName: pvc}}]\n"
	"  containers: [{name: c, image: p}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: spread, namespace: default, labels: {app: s}}\n"
	"spec:\n"
	"  topologySpreadConstraints: [{maxSkew: 1, topologyKey: "
	"kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule, "
	"labelSelector: {matchLabels: {app: s}}}]\n"
	"  containers: [{name: c, image: p}]\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: soft, namespace: default, labels: {app: s}}\n"
	"spec:\n"
	"  topologySpreadConstraints: [{maxSkew: 1, topologyKey: "
	"kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, "
	"labelSelector: {matchLabels: {app: s}}}]\n"
	"  containers: [{name: c, image: p}]\n";

static const char *const anti_pod =
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: anti, namespace: default, labels: {app: x}}\n"
	"spec:\n"
	"  affinity:\n"
	"    podAntiAffinity:\n"
	"      requiredDuringSchedulingIgnoredDuringExecution:\n"
	"      - {topologyKey: kubernetes.io/hostname, labelSelector: "
	"{matchLabels: {app: x}}}\n"
	"  containers: [{name: c, image: p}]\n";

/* The local[] flags of the universe local_universe + extra against
 * want[] (manifest order), and whether reuse is on at all. */
static void local_flags(const char *extra, const bool *want, int n_want,
			bool want_on)
{
	char text[8192];
	snprintf(text, sizeof text, "%s%s", local_universe, extra);
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, text, &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	CHECK_EQ(x.reuse.on, want_on);
	CHECK_EQ(x.c->n_pods, n_want);
	for (int p = 0; p < n_want && p < x.c->n_pods; p++)
		CHECK_EQ(x.reuse.local[p], want[p]);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

static void which_pods(void)
{
	/* a b c d e local; vol, spread not; soft (ScheduleAnyway only) is */
	static const bool mixed[] = {true, true, true, true, true,
				     false, false, true};
	local_flags(nonlocal_pods, mixed, 8, true);
	/* a required anti-affinity term anywhere: no pod is, and reuse is
	 * off for the scenario (no table) */
	static const bool none[6] = {false};
	local_flags(anti_pod, none, 6, false);
}

/* The sampler: a state is decided afresh when the high 32 bits of its
 * seed are a multiple of sample_every (0: never). */
static void sampler_picks(void)
{
	struct enum_verdict_reuse u;
	memset(&u, 0, sizeof u);
	u.on = true;
	u.sample_every = 64;
	CHECK(enum_reuse_sampled(&u, UINT64_C(64) << 32));
	CHECK(u.fresh);
	CHECK(enum_reuse_sampled(&u, (UINT64_C(128) << 32) | UINT32_MAX));
	CHECK(!enum_reuse_sampled(&u, UINT64_C(65) << 32));
	CHECK(!u.fresh);
	CHECK(!enum_reuse_sampled(&u, UINT64_C(63) << 32));
	u.sample_every = 0;
	CHECK(!enum_reuse_sampled(&u, 0));
	u.on = false;
	u.sample_every = 1;
	CHECK(!enum_reuse_sampled(&u, 0));
}

/* Pod a decided with every pod pending, or with c (cpu 2) bound to n1. */
static void decide_a(struct enum_ctx *x, bool c_on_n1, struct enum_outcome *o)
{
	for (int p = 0; p < x->c->n_pods; p++) {
		x->snap.pod_node[p] = SNAP_PENDING;
		x->snap.nominated[p] = -1;
	}
	if (c_on_n1)
		x->snap.pod_node[2] = 0;
	enum_outcome_init(o);
	enum_check_pod(x, 0, o);
}

/*
 * A fault planted in the cache: pod a's stored verdicts on n1 empty
 * (feasible: cpu 1 of 2) and on n1 holding c (Insufficient cpu: 2 + 1 >
 * 2) swapped, as a cache keyed on too little would give them.  Both
 * were paired when first met (the oracle agreed), so both engines are
 * given the wrong one and compare() does not look at it: unsampled, the
 * state reads as an agreement with a wrong decision (n1 rejected, n2
 * tainted: unschedulable).  A sampled state decides afresh and reports
 * the stored verdict against the fresh one.
 */
static void a_stale_pair_is_found_by_the_sample(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	x.reuse.sample_every = 0;
	struct enum_outcome o;
	decide_a(&x, false, &o);
	CHECK(o.agree);
	CHECK_EQ(x.mr.n_feasible, 1);   /* n1 */
	enum_outcome_release(&o);
	decide_a(&x, true, &o);
	CHECK(o.agree);
	CHECK_EQ(x.mr.n_feasible, 0);
	enum_outcome_release(&o);
	/* a is pod 0, n1 node 0, c pod 2: slots (0 * 2 + 0) << 5 | mask */
	uint32_t *empty = &x.reuse.slot[0], *with_c = &x.reuse.slot[1u << 2];
	CHECK(*empty != 0 && *with_c != 0);
	CHECK_EQ(x.reuse.paired, 3);   /* n1 empty, n2 empty, n1 with c */
	uint32_t t = *empty;
	*empty = *with_c;
	*with_c = t;
	decide_a(&x, false, &o);
	CHECK(o.agree);                  /* unseen without the sample */
	CHECK_EQ(x.mr.n_feasible, 0);
	CHECK(!x.mr.verdicts[0].feasible);
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	decide_a(&x, false, &o);
	CHECK(!o.agree);
	CHECK_EQ(x.mr.n_feasible, 1);    /* decided afresh */
	CHECK_STR(o.disagreement, "reuse: default/a on n1: stored rejected/1/"
		  "NodeResourcesFit \"Insufficient cpu\", fresh feasible/0/none \"\"");
	enum_outcome_release(&o);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/*
 * The memo of binds that break no invariant (enum_reuse_bind_ok), keyed
 * on (pod, node, pods bound there).  Pod a with every pod pending binds
 * to n1 (n2's taint rejects it): n1 then holds a alone, cpu 1 of 2, so
 * the key (a, n1, {}) is remembered.  With the swapped pair planted as
 * above, a's verdict on n1 holding c reads feasible and a is bound there:
 * cpu 2 + 1 > 2 breaks capacity, found by the fresh check, and the key
 * (a, n1, {c}) is not remembered.  A memo planted for it hides the
 * breach from an unsampled state (what the sampled states are for); a
 * sampled one decides afresh (a rejected on n1, no bind).
 */
static void binds_are_remembered_when_clean(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	x.reuse.sample_every = 0;
	struct enum_outcome o;
	decide_a(&x, false, &o);
	CHECK_EQ(o.bind_node, 0);
	CHECK(o.agree && !o.inv[MODEL_INV_CAPACITY]);
	enum_outcome_release(&o);
	/* a is pod 0, n1 node 0, c pod 2: memo (0 * 2 + 0) << 5 | mask */
	uint8_t *empty = &x.reuse.bind_ok[0], *with_c = &x.reuse.bind_ok[1u << 2];
	CHECK_EQ(*empty, 1);
	CHECK_EQ(*with_c, 0);
	decide_a(&x, true, &o);   /* a unschedulable: n1 full, n2 tainted */
	CHECK_EQ(o.bind_node, -1);
	enum_outcome_release(&o);
	uint32_t *v_empty = &x.reuse.slot[0], *v_with_c = &x.reuse.slot[1u << 2];
	uint32_t t = *v_empty;
	*v_empty = *v_with_c;
	*v_with_c = t;
	decide_a(&x, true, &o);
	CHECK_EQ(o.bind_node, 0);
	CHECK(o.inv[MODEL_INV_CAPACITY]);
	CHECK_STR(o.inv_detail[MODEL_INV_CAPACITY], "node n1: cpu requested "
		  "3000 > allocatable 2000");
	enum_outcome_release(&o);
	CHECK_EQ(*with_c, 0);
	*with_c = 1;
	decide_a(&x, true, &o);
	CHECK_EQ(o.bind_node, 0);
	CHECK(!o.inv[MODEL_INV_CAPACITY]);   /* hidden: not sampled */
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	decide_a(&x, true, &o);
	CHECK_EQ(o.bind_node, -1);           /* decided afresh */
	CHECK(!o.agree);                     /* the stale pair, reported */
	enum_outcome_release(&o);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/*
 * Scores reused across states, and a fault planted among them.  Pod c
 * (cpu 2, no memory request; tolerates n2's taint) with d (no requests)
 * bound to n1 and every other pod pending: c fits both nodes (cpu 0 + 2
 * of 2), so the cycle scores.  NodeResourcesFit (LeastAllocated, cpu
 * and memory weight 1, requests counted as at least 100m cpu and 200Mi
 * memory): n1 holds d's 100m + c's 2000m > 2000m -> cpu 0, memory
 * 400Mi of 4Gi -> (4096 - 400) * 100 / 4096 = 90; (0 + 90) / 2 = 45.
 * n2 empty: cpu 2000m of 2000m -> 0, memory 200Mi -> 3896 * 100 / 4096
 * = 95; (0 + 95) / 2 = 47.  Swapped in the cache, both engines are
 * given the wrong ones once paired; a sampled state reports them.
 */
static void decide_c(struct enum_ctx *x, struct enum_outcome *o)
{
	for (int p = 0; p < x->c->n_pods; p++) {
		x->snap.pod_node[p] = SNAP_PENDING;
		x->snap.nominated[p] = -1;
	}
	x->snap.pod_node[3] = 0;   /* d on n1 */
	enum_outcome_init(o);
	enum_check_pod(x, 2, o);
}

static void stale_scores_are_found_by_the_sample(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	x.reuse.sample_every = 0;
	const size_t fit = PLUGIN_NODE_RESOURCES_FIT;
	struct enum_outcome o;
	decide_c(&x, &o);
	CHECK(o.agree);
	CHECK_EQ(x.mr.n_feasible, 2);
	CHECK_EQ(x.mr.scores[0 * PLUGIN_COUNT + fit], 45);
	CHECK_EQ(x.mr.scores[1 * PLUGIN_COUNT + fit], 47);
	enum_outcome_release(&o);
	/* the two nodes' NodeResourcesFit, BalancedAllocation and
	 * ImageLocality scores, and TaintToleration's for the feasible set
	 * {n1, n2}: neither node has a PreferNoSchedule taint (n2's is
	 * NoSchedule, which c tolerates), so both count 0 and the reverse
	 * normalization gives both 100, weight 3 */
	CHECK_EQ(x.reuse.scores_stored, 3);
	CHECK_EQ(x.reuse.scores_paired, 3);   /* the oracle's are equal */
	const size_t tt = PLUGIN_TAINT_TOLERATION;
	CHECK_EQ(x.mr.scores[0 * PLUGIN_COUNT + tt], 300);
	CHECK_EQ(x.mr.scores[1 * PLUGIN_COUNT + tt], 300);
	decide_c(&x, &o);                    /* given to both: the same */
	CHECK(o.agree);
	CHECK_EQ(x.reuse.scores_given, 4);
	CHECK_EQ(x.mr.scores[0 * PLUGIN_COUNT + fit], 45);
	CHECK_EQ(x.orr.scores[1 * PLUGIN_COUNT + fit], 47);
	enum_outcome_release(&o);
	/* c is pod 2, d pod 3: (c, n1, {d}) at (2 * 2 + 0) << 5 | 1 << 3,
	 * (c, n2, {}) at (2 * 2 + 1) << 5 */
	uint32_t *n1 = &x.reuse.score_slot[(4u << 5) | 8u];
	uint32_t *n2 = &x.reuse.score_slot[5u << 5];
	CHECK(*n1 != 0 && *n2 != 0);
	uint32_t t = *n1;
	*n1 = *n2;
	*n2 = t;
	decide_c(&x, &o);
	CHECK(o.agree);                      /* unseen without the sample */
	CHECK_EQ(x.mr.scores[0 * PLUGIN_COUNT + fit], 47);
	CHECK_EQ(x.orr.scores[0 * PLUGIN_COUNT + fit], 47);
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	decide_c(&x, &o);
	CHECK(!o.agree);
	CHECK_EQ(x.mr.scores[0 * PLUGIN_COUNT + fit], 45);   /* afresh */
	CHECK_STR(o.disagreement, "reuse: default/c on n1: score "
		  "NodeResourcesFit: stored 47, fresh 45");
	enum_outcome_release(&o);
	/* swapped back; then n2's TaintToleration score for the set {n1,
	 * n2} planted as 99: given to both engines (a pair) unsampled,
	 * reported by the sample */
	*n2 = *n1;
	*n1 = t;
	x.reuse.sample_every = 0;
	uint32_t set = x.reuse.norm_slot[(2u << 2) | 3u];
	CHECK(set != 0);
	x.reuse.norm_vals[x.reuse.norms[set - 1].vals + 1 * ENUM_REUSE_NORMALIZED + 1] = 99;
	decide_c(&x, &o);
	CHECK(o.agree);
	CHECK_EQ(x.mr.scores[1 * PLUGIN_COUNT + tt], 297);
	CHECK_EQ(x.orr.scores[1 * PLUGIN_COUNT + tt], 297);
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	decide_c(&x, &o);
	CHECK(!o.agree);
	CHECK_STR(o.disagreement, "reuse: default/c on n2: score "
		  "TaintToleration: stored 297, fresh 300");
	enum_outcome_release(&o);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/* The set of preemption steps found clean: keyed on (pod, node, pods on
 * the node before and after the evictions), so another step evicting
 * other pods is not found; no key where another pending pod is
 * nominated to the node after the step (its Feasibility then reads that
 * pod too). */
static void preemption_steps_are_keyed(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	struct snapshot before, after;
	snapshot_clone(&before, &x.snap);
	snapshot_clone(&after, &x.snap);
	/* a and b on n1; c pending, nominated to n1 after evicting a */
	for (int p = 0; p < 5; p++) {
		before.pod_node[p] = after.pod_node[p] = SNAP_PENDING;
		before.nominated[p] = after.nominated[p] = -1;
	}
	before.pod_node[0] = before.pod_node[1] = 0;
	after.pod_node[0] = SNAP_GONE;
	after.pod_node[1] = 0;
	after.nominated[2] = 0;
	uint64_t k1 = enum_reuse_preempt_key(&x.reuse, &before, &after, 2, 0);
	CHECK(k1 != 0);
	CHECK(!enum_reuse_preempt_seen(&x.reuse, k1));
	enum_reuse_preempt_remember(&x.reuse, k1);
	CHECK(enum_reuse_preempt_seen(&x.reuse, k1));
	/* evicting b instead: another step */
	after.pod_node[0] = 0;
	after.pod_node[1] = SNAP_GONE;
	uint64_t k2 = enum_reuse_preempt_key(&x.reuse, &before, &after, 2, 0);
	CHECK(k2 != 0 && k2 != k1);
	CHECK(!enum_reuse_preempt_seen(&x.reuse, k2));
	/* d pending and nominated to n1 too: not kept */
	after.nominated[3] = 0;
	CHECK_EQ(enum_reuse_preempt_key(&x.reuse, &before, &after, 2, 0), 0);
	/* many steps: the set grows and keeps every one */
	for (uint64_t k = 1; k <= 1000; k++)
		enum_reuse_preempt_remember(&x.reuse, k * 7919);
	for (uint64_t k = 1; k <= 1000; k++)
		CHECK(enum_reuse_preempt_seen(&x.reuse, k * 7919));
	CHECK(enum_reuse_preempt_seen(&x.reuse, k1));
	CHECK(!enum_reuse_preempt_seen(&x.reuse, 7919 * 1001));
	snapshot_release(&before);
	snapshot_release(&after);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/*
 * FitError messages reused: pod a with c (cpu 2) on n1 fits nowhere - n1
 * has cpu 2 + 1 > 2, n2 a taint a does not tolerate - and kube's message
 * counts each reason, sorted: "0/2 nodes are available: 1 Insufficient
 * cpu, 1 node(s) had untolerated taint {spot: }." (§1.3).  Stored, paired
 * by the oracle, then planted wrong: given to both unsampled, reported
 * by the sample.
 */
static void stale_message_is_found_by_the_sample(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reuse.yaml", NULL, local_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	x.reuse.sample_every = 0;
	static const char want[] = "0/2 nodes are available: 1 Insufficient "
		"cpu, 1 node(s) had untolerated taint {spot: }.";
	struct enum_outcome o;
	/* the first cycle learns a's PreFilterResult, the second keys */
	for (int i = 0; i < 3; i++) {
		decide_a(&x, true, &o);
		CHECK(o.agree);
		CHECK_STR(x.mr.message, want);
		enum_outcome_release(&o);
	}
	CHECK_EQ(x.reuse.msgs_stored, 1);
	CHECK_EQ(x.reuse.msgs_paired, 1);
	char *text = x.reuse.msg_text + x.reuse.msgs[0].text;
	CHECK_STR(text, want);
	memcpy(strstr(text, "cpu"), "CPU", 3);
	decide_a(&x, true, &o);
	CHECK(o.agree);                      /* unseen without the sample */
	CHECK_STR(x.orr.message, "0/2 nodes are available: 1 Insufficient "
		  "CPU, 1 node(s) had untolerated taint {spot: }.");
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	decide_a(&x, true, &o);
	CHECK(!o.agree);
	CHECK_STR(x.mr.message, want);       /* afresh */
	CHECK_STR(o.disagreement, "reuse: default/a: message: stored \"0/2 "
		  "nodes are available: 1 Insufficient CPU, 1 node(s) had "
		  "untolerated taint {spot: }.\", fresh \"0/2 nodes are "
		  "available: 1 Insufficient cpu, 1 node(s) had untolerated "
		  "taint {spot: }.\"");
	enum_outcome_release(&o);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/* n1 (cpu 2); lo1 and lo2 (priority 10, cpu 1 each), hi (priority 1000,
 * cpu 2).  With both lows on n1, hi does not fit (2 + 2 > 2) and kube's
 * preemption (§3.4) evicts both: with every lower pod gone hi fits (2 of
 * 2), and giving either back leaves 1 + 2 > 2; the least-Casualty search
 * finds the same (neither alone makes room). */
static const char dry_universe[] =
	"kind: Universe\n"
	"name: dry\n"
	"---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\n"
	"---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: low}\nvalue: 10\n"
	"---\n"
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: lo1, namespace: default}\n"
	"spec:\n  priorityClassName: low\n  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: lo2, namespace: default}\n"
	"spec:\n  priorityClassName: low\n  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: hi, namespace: default}\n"
	"spec:\n  priorityClassName: high\n  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"2\"}}}\n";

/* hi (pod 2) decided with the lows whose bit is in on placed on n1. */
static void decide_hi(struct enum_ctx *x, int on, struct enum_outcome *o)
{
	for (int p = 0; p < 3; p++) {
		x->snap.pod_node[p] = on >> p & 1 ? 0 : SNAP_PENDING;
		x->snap.nominated[p] = -1;
	}
	enum_outcome_init(o);
	enum_check_pod(x, 2, o);
}

/*
 * The model's preemption dry runs ask what the reuse keeps (enum.h's
 * memo).  Every placement of the lows is met first: the cycles store the
 * verdicts of (hi, n1, {}), {lo1}, {lo2}, {lo1, lo2}, and the preemptions
 * with a low on n1 store kube's SelectVictimsOnNode of n1 for each (the
 * scenario has no PDB).  Both lows on n1 again: kube's walk is given n1's
 * victims (both lows) and runs no filter; the least-Casualty search asks
 * the verdicts of {lo2} (evicting lo1), {lo1} (evicting lo2) and {}
 * (both): 3 answered.
 *
 * Planted wrong, (hi, n1, {}) and (hi, n1, {lo1}) swapped: the search
 * reads evicting lo2 alone as enough ({lo1} left reads feasible), one
 * victim against kube's two - a preemption-worse finding the oracle
 * cannot see (it has no least-Casualty search), which only a sampled
 * state, deciding afresh, does not make.  Kube's stored victims planted
 * wrong (one victim): the oracle, never lent them, evicts both - a
 * disagreement on the state itself.
 */
static void dry_runs_ask_the_stored_verdicts(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "dry.yaml", NULL, dry_universe,
				      &err)) {
		CHECK(!"universe loads");
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, false, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	x.reuse.sample_every = 0;
	CHECK(x.reuse.local[2]);
	struct enum_outcome o;
	for (int on = 0; on < 4; on++) {
		decide_hi(&x, on, &o);
		CHECK(o.agree);
		/* hi fits n1 only empty (a low's 1 + 2 > 2) */
		CHECK_EQ(o.preempted, on != 0);
		enum_outcome_release(&o);
	}
	/* n1 holding lo1, lo2, both: one SelectVictimsOnNode each */
	CHECK_EQ(x.reuse.victims_stored, 3);
	CHECK_EQ(x.reuse.victims_given, 0);
	uint64_t asked = x.reuse.dry_given;
	decide_hi(&x, 3, &o);
	CHECK(o.agree);
	CHECK_EQ(x.reuse.victims_given, 1);
	CHECK_EQ(x.reuse.dry_given - asked, 3);
	CHECK_EQ(o.kube.node, 0);
	CHECK_EQ(o.kube.chosen.n, 2);
	CHECK_EQ(o.minimal.node, 0);
	CHECK_EQ(o.minimal.chosen.n, 2);
	CHECK(!o.find[ENUM_FIND_PREEMPT_WORSE]);
	enum_outcome_release(&o);
	/* hi is pod 2, n1 node 0: slots (2 * 1 + 0) << 3 | mask */
	uint32_t *none = &x.reuse.slot[2u << 3], *lo1 = &x.reuse.slot[2u << 3 | 1];
	CHECK(*none != 0 && *lo1 != 0);
	uint32_t t = *none;
	*none = *lo1;
	*lo1 = t;
	decide_hi(&x, 3, &o);
	CHECK(o.agree);
	CHECK_EQ(o.kube.chosen.n, 2);
	CHECK_EQ(o.minimal.chosen.n, 1);
	CHECK_EQ(o.minimal.chosen.pods[0], 1);   /* lo2 */
	CHECK(o.find[ENUM_FIND_PREEMPT_WORSE]);
	enum_outcome_release(&o);
	uint32_t both = x.reuse.victims_slot[2u << 3 | 3];
	CHECK(both != 0);
	x.reuse.victims[both - 1].n = 1;
	decide_hi(&x, 3, &o);
	CHECK(!o.agree);
	CHECK_EQ(o.kube.chosen.n, 1);        /* the model, misled */
	CHECK_EQ(o.oracle_pr.chosen.n, 2);   /* the oracle, afresh */
	enum_outcome_release(&o);
	x.reuse.sample_every = 1;
	asked = x.reuse.dry_given;
	uint64_t given = x.reuse.victims_given;
	decide_hi(&x, 3, &o);
	CHECK(o.agree);
	CHECK_EQ(x.reuse.dry_given, asked);
	CHECK_EQ(x.reuse.victims_given, given);
	CHECK_EQ(o.kube.chosen.n, 2);
	CHECK_EQ(o.minimal.chosen.n, 2);
	CHECK(!o.find[ENUM_FIND_PREEMPT_WORSE]);
	enum_outcome_release(&o);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

int main(void)
{
	every_state_both_ways();
	which_pods();
	sampler_picks();
	a_stale_pair_is_found_by_the_sample();
	binds_are_remembered_when_clean();
	stale_scores_are_found_by_the_sample();
	preemption_steps_are_keyed();
	stale_message_is_found_by_the_sample();
	dry_runs_ask_the_stored_verdicts();
	return check_done("test_enum_verdict_reuse");
}
