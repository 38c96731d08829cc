/*
 * test_enum_decision_reuse.c - the enumerator's reuse of whole clean
 * decisions across states (enum/decision_reuse.c): which nodes of a pod
 * are fixed (rejected UnschedulableAndUnresolvable by a filter reading
 * only the pod and the Node, whatever the node holds), what the key
 * reads, that a state meeting a kept key is not decided again, that a
 * sampled state finds a wrong kept value, and which scenarios keep
 * nothing.
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "../../enum/enum.h"

/* n1, n2 (spot:NoSchedule) and n3 (cordoned), cpu 2 each; a and b (cpu
 * 1) tolerate nothing, c (cpu 2) tolerates spot.  Priority 0 all. */
#define NODES \
	"---\napiVersion: v1\nkind: Node\n" \
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n" \
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n" \
	"---\napiVersion: v1\nkind: Node\n" \
	"metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\n" \
	"spec: {taints: [{key: spot, effect: NoSchedule}]}\n" \
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n" \
	"---\napiVersion: v1\nkind: Node\n" \
	"metadata: {name: n3, labels: {kubernetes.io/hostname: n3}}\n" \
	"spec: {unschedulable: true}\n" \
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
#define POD_A \
	"---\napiVersion: v1\nkind: Pod\n" \
	"metadata: {name: a, namespace: default, labels: {app: a}}\n" \
	"spec:\n" \
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n"
#define POD_B \
	"---\napiVersion: v1\nkind: Pod\n" \
	"metadata: {name: b, namespace: default}\n" \
	"spec:\n" \
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n"
#define POD_C \
	"---\napiVersion: v1\nkind: Pod\n" \
	"metadata: {name: c, namespace: default}\n" \
	"spec:\n" \
	"  tolerations: [{key: spot, operator: Exists, effect: NoSchedule}]\n" \
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"2\"}}}]\n"

static const char universe[] =
	"kind: Universe\nname: decisions\n" NODES POD_A POD_B POD_C;

/* The same with a PodDisruptionBudget (its budget counts pods over every
 * node), or with b preferring to run beside a (InterPodAffinity's score
 * reads every node's pods): nothing is kept. */
static const char with_pdb[] =
	"kind: Universe\nname: pdb\n" NODES POD_A POD_B POD_C
	"---\napiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: pa, namespace: default}\n"
	"spec: {minAvailable: 1, selector: {matchLabels: {app: a}}}\n";
static const char with_affinity[] =
	"kind: Universe\nname: affinity\n" NODES POD_A POD_C
	"---\napiVersion: v1\nkind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  affinity:\n"
	"    podAffinity:\n"
	"      preferredDuringSchedulingIgnoredDuringExecution:\n"
	"      - weight: 1\n"
	"        podAffinityTerm:\n"
	"          labelSelector: {matchLabels: {app: a}}\n"
	"          topologyKey: kubernetes.io/hostname\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n";

struct fixture {
	struct enum_universe u;
	struct enum_scenario sc;
	struct enum_ctx x;
	bool ok;
};

static void open_fixture(struct fixture *f, const char *text)
{
	struct error err;
	error_init(&err);
	f->ok = false;
	if (enum_universe_load_buffer(&f->u, "decisions.yaml", NULL, text, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(!"universe loads");
		return;
	}
	CHECK_EQ(enum_scenario_build(&f->u, 0, false, &f->sc, &err), 0);
	enum_ctx_init(&f->x, &f->sc);
	/* as enum_placements sets it for a findings run */
	f->x.decision_reuse = f->x.decisions.on;
	f->x.reuse.sample_every = 0;
	f->ok = true;
}

static void close_fixture(struct fixture *f)
{
	if (!f->ok)
		return;
	enum_ctx_release(&f->x);
	enum_scenario_release(&f->sc);
	enum_universe_release(&f->u);
}

/* Decides pod in the placement at[] (-1 pending) of a, b, c. */
static void decide(struct enum_ctx *x, int pod, const int at[3],
		   struct enum_outcome *o)
{
	for (int p = 0; p < 3; p++) {
		x->snap.pod_node[p] = at[p] >= 0 ? at[p] : SNAP_PENDING;
		x->snap.nominated[p] = -1;
	}
	enum_outcome_init(o);
	enum_check_pod(x, pod, o);
}

/*
 * Pod a (pod 0): n1 is feasible when it has room, n2's taint rejects a
 * (TaintToleration, UnschedulableAndUnresolvable, after NodeUnschedulable
 * and NodeName in the Filter order, both of which read only the Node),
 * and so does n3's cordon (NodeUnschedulable): fixed = {n2, n3} = 0b110.
 * Pod c (pod 2) tolerates the taint: only n3 is fixed, 0b100.
 *
 * S1, all pending: a binds to n1 (clean, no preemption): kept, value 1.
 * Every node's verdict is a pair once S1 is decided, and n1's is
 * feasible: the key reads the pods of the feasible nodes and the
 * verdicts of the others, (a by verdict, n1 {}, a's verdict on n2 {},
 * on n3 {}).
 * S2, b on n2: a's verdict on n2 with b is the taint alone (1 + 1 <= 2
 * cpu: NodeResourcesFit passes), the same content as on an empty n2, so
 * S2's key is S1's - but the verdict of (a, n2, {b}) is not a pair yet
 * the first time: decided in full, then found kept; the second time it
 * is reused (hits 1).
 * S3, b on n2 and c on n3: a's verdict on n3 with c adds Insufficient cpu
 * (2 + 1 > 2) to the cordon: another content, another key (kept 2).
 * S4, a on n1 and b on n2: c (cpu 2) fits neither (1 + 2 > 2) and n3 is
 * cordoned; DefaultPreemption runs (every pod has priority 0: no victim)
 * - clean, value 2; met again, reused as a preemption.  No node is
 * feasible: the key reads every node's pods but the fixed n3's.
 * S5, a on n1: c fits n2 (empty) but not n1 (1 + 2 > 2 cpu); S6, b on n1
 * instead: n1's verdict says the same (Insufficient cpu), so the key,
 * reading n1's verdict rather than its pods, is S5's: S6 keeps nothing
 * new and is reused the second time.
 */
static void keys_and_hits(void)
{
	struct fixture f;
	open_fixture(&f, universe);
	if (!f.ok)
		return;
	struct enum_ctx *x = &f.x;
	struct enum_decision_reuse *d = &x->decisions;
	CHECK(d->on);
	struct enum_outcome o;
	static const int s1[3] = {-1, -1, -1}, s2[3] = {-1, 1, -1},
			 s3[3] = {-1, 1, 2}, s4[3] = {0, 1, -1},
			 s5[3] = {0, -1, -1}, s6[3] = {-1, 0, -1};
	decide(x, 0, s1, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(x->mr.n_feasible, 1);
	enum_outcome_release(&o);
	CHECK(d->fixed_known[0]);
	CHECK_EQ(d->fixed[0], 6);
	CHECK_EQ(d->kept, 1);
	uint32_t key1[4];
	memcpy(key1, d->key_now, sizeof key1);
	CHECK_EQ(key1[0], 0x80000000u);   /* a, by verdict */
	CHECK_EQ(key1[1], 0);   /* n1 holds nothing */
	CHECK((key1[2] & 0x80000000u) && (key1[3] & 0x80000000u));
	CHECK(key1[2] != key1[3]);   /* a taint, a cordon */
	decide(x, 0, s2, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(d->hits, 0);
	CHECK_EQ(d->kept, 1);
	CHECK(memcmp(d->key_now, key1, sizeof key1) == 0);
	enum_outcome_release(&o);
	decide(x, 0, s2, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(d->hits, 1);
	enum_outcome_release(&o);
	decide(x, 0, s3, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(d->kept, 2);
	CHECK(d->key_now[3] != key1[3]);
	CHECK_EQ(d->key_now[2], key1[2]);
	CHECK_EQ(d->key_now[1], 0);
	enum_outcome_release(&o);
	decide(x, 2, s4, &o);
	CHECK(o.agree && o.preempted);
	CHECK_EQ(o.kube.node, -1);
	CHECK_EQ(d->fixed[2], 4);
	CHECK_EQ(d->kept, 3);
	CHECK_EQ(d->key_now[0], 2);
	CHECK_EQ(d->key_now[1], 1);   /* a */
	CHECK_EQ(d->key_now[2], 2);   /* b */
	CHECK(d->key_now[3] & 0x80000000u);
	enum_outcome_release(&o);
	decide(x, 2, s4, &o);
	CHECK(o.agree && o.preempted && o.oracle_preempt_checked);
	CHECK_EQ(d->hits, 2);
	enum_outcome_release(&o);
	decide(x, 2, s5, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(x->mr.n_feasible, 1);   /* n2 */
	CHECK_EQ(d->kept, 4);
	uint32_t key5[4];
	memcpy(key5, d->key_now, sizeof key5);
	CHECK_EQ(key5[0], 0x80000002u);
	CHECK(key5[1] & 0x80000000u);    /* n1: its verdict */
	CHECK_EQ(key5[2], 0);            /* n2: feasible, empty */
	enum_outcome_release(&o);
	decide(x, 2, s6, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(d->kept, 4);
	CHECK(memcmp(d->key_now, key5, sizeof key5) == 0);
	enum_outcome_release(&o);
	decide(x, 2, s6, &o);
	CHECK_EQ(d->hits, 3);
	enum_outcome_release(&o);
	close_fixture(&f);
}

/* A wrong value planted for S1's key (clean with preemption, where a
 * binds to n1): an unsampled state takes it; a sampled one decides
 * afresh and reports it. */
static void a_wrong_value_is_found_by_the_sample(void)
{
	struct fixture f;
	open_fixture(&f, universe);
	if (!f.ok)
		return;
	struct enum_ctx *x = &f.x;
	struct enum_decision_reuse *d = &x->decisions;
	struct enum_outcome o;
	static const int s1[3] = {-1, -1, -1};
	decide(x, 0, s1, &o);
	enum_outcome_release(&o);
	CHECK_EQ(d->n, 1);
	d->vals[0] = 2;
	decide(x, 0, s1, &o);
	CHECK(o.agree && o.preempted);   /* unseen without the sample */
	enum_outcome_release(&o);
	x->reuse.sample_every = 1;
	decide(x, 0, s1, &o);
	CHECK(!o.agree);
	CHECK(!o.preempted);
	CHECK_STR(o.disagreement, "reuse: deciding default/a: stored clean, "
		  "preempted; fresh no preemption");
	enum_outcome_release(&o);
	close_fixture(&f);
}

/* --no-reuse (the verdict reuse off) and scenarios whose decisions read
 * more than the key keep nothing. */
static void what_keeps_nothing(void)
{
	struct fixture f;
	open_fixture(&f, with_pdb);
	if (f.ok)
		CHECK(!f.x.decisions.on);
	close_fixture(&f);
	open_fixture(&f, with_affinity);
	if (f.ok)
		CHECK(!f.x.decisions.on);
	close_fixture(&f);
	open_fixture(&f, universe);
	if (!f.ok)
		return;
	CHECK(f.x.decisions.on);
	/* a, b, c: no volume, claim, spread constraint or affinity term */
	for (int p = 0; p < 3; p++)
		CHECK(f.x.decisions.eligible[p]);
	enum_reuse_release(&f.x.reuse);
	struct enum_outcome o;
	static const int s1[3] = {-1, -1, -1};
	decide(&f.x, 0, s1, &o);
	enum_outcome_release(&o);
	decide(&f.x, 0, s1, &o);
	CHECK_EQ(f.x.decisions.hits, 0);
	CHECK_EQ(f.x.decisions.kept, 0);
	enum_outcome_release(&o);
	close_fixture(&f);
}

/* n1 and n2 untainted (cpu 2); a and c ask 1 cpu, b 2.  A key that reads
 * every node's pods is the placement itself, which the walk meets once:
 * not kept.  S1, all pending: a fits both nodes - kept nothing, and met
 * again it is decided again.  S2, b on n1: a does not fit n1 (2 + 1 > 2
 * cpu, NodeResourcesFit: no fixed node) and binds to n2; the key reads
 * n1's verdict: kept, and met again reused. */
static const char untainted[] =
	"kind: Universe\nname: untainted\n"
	"---\napiVersion: v1\nkind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	"---\napiVersion: v1\nkind: Node\n"
	"metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}\n"
	"status: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"110\"}}\n"
	POD_A
	"---\napiVersion: v1\nkind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"2\"}}}]\n"
	"---\napiVersion: v1\nkind: Pod\n"
	"metadata: {name: c, namespace: default}\n"
	"spec:\n"
	"  containers: [{name: c, image: p, resources: {requests: {cpu: \"1\"}}}]\n";

static void a_key_of_pods_alone_is_not_kept(void)
{
	struct fixture f;
	open_fixture(&f, untainted);
	if (!f.ok)
		return;
	struct enum_ctx *x = &f.x;
	struct enum_decision_reuse *d = &x->decisions;
	CHECK(d->on);
	struct enum_outcome o;
	static const int s1[3] = {-1, -1, -1}, s2[3] = {-1, 0, -1};
	for (int i = 0; i < 2; i++) {
		decide(x, 0, s1, &o);
		CHECK(o.agree && !o.preempted);
		CHECK_EQ(x->mr.n_feasible, 2);
		enum_outcome_release(&o);
		CHECK_EQ(d->fixed[0], 0);
		CHECK(d->by_pods_now);
		CHECK_EQ(d->kept, 0);
		CHECK_EQ(d->hits, 0);
	}
	decide(x, 0, s2, &o);
	CHECK(o.agree && !o.preempted);
	CHECK_EQ(x->mr.n_feasible, 1);
	enum_outcome_release(&o);
	CHECK(!d->by_pods_now);
	CHECK_EQ(d->key_now[0], 0x80000000u);   /* a, by verdict */
	CHECK(d->key_now[1] & 0x80000000u);     /* n1: its verdict */
	CHECK_EQ(d->key_now[2], 0);             /* n2: feasible, empty */
	CHECK_EQ(d->kept, 1);
	decide(x, 0, s2, &o);
	CHECK(o.agree && !o.preempted);
	enum_outcome_release(&o);
	CHECK_EQ(d->hits, 1);
	close_fixture(&f);
}

int main(void)
{
	a_key_of_pods_alone_is_not_kept();
	keys_and_hits();
	a_wrong_value_is_found_by_the_sample();
	what_keeps_nothing();
	return check_done("test_enum_decision_reuse");
}
