/*
 * test_oracle_preemption.c - the oracle's DefaultPreemption
 * (oracle/preemption.c, reference §3) and the scheduler loop on the
 * oracle (oracle_loop_engine):
 *   1. hand-derived cases, each worked out in the comment above it;
 *   2. a differential check against model_preempt_kube, field by field,
 *      for every pending pod of the fixtures/preemption files and of random
 *      preemption-heavy clusters (a C generator below), with several
 *      candidate offsets;
 *   3. the scheduler loop on the model and on the oracle
 *      (model_scheduler_step with each engine) step by step on the same
 *      inputs.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "../../model/model.h"
#include "../../model/preemption.h"
#include "../../model/scheduler.h"
#include "../../oracle/internal.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"

/* ------------------------------------------------------------- helpers */

/* Loads YAML text into c (through a temporary file); 0 on success. */
static int load_text(struct cluster *c, const char *text)
{
	char path[] = "/tmp/kso_test_oracle_preemptXXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	struct error err;
	error_init(&err);
	cluster_init(c);
	char *paths[1] = {path};
	int rc = yaml_load_paths(c, paths, 1, &err);
	if (rc != 0)
		fprintf(stderr, "load: %s\n", err.msg);
	unlink(path);
	return rc;
}

static int node_of(const struct cluster *c, const char *name)
{
	return cluster_find_node(c, name);
}

static int pod_of(const struct cluster *c, const char *name)
{
	return cluster_find_pod(c, "default", name);
}

/* The oracle's preemption for pod after the model's cycle on s. */
/* The loop m on the oracle o, as kso schedule --engine oracle runs it
 * (cli/loop.c); release both. */
static void oracle_loop_init(struct model_scheduler *m, struct oracle *o,
			     const struct snapshot *s,
			     const struct model_sched_opts *opts, bool all_nodes)
{
	model_scheduler_init(m, s, opts);
	oracle_init(o, s);
	o->all_nodes = all_nodes;
	m->engine = oracle_loop_engine(o);
}

static void oracle_answer(const struct cluster *c, const struct snapshot *s, int p,
			  uint64_t offset, struct sched_preemption *out)
{
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	const struct sched_profile *prof = model_profile_for(c, p);
	model_schedule_cycle(prof, s, p, &r);
	sched_preemption_init(out);
	struct sched_preempt_opts o = {.offset_draw = offset};
	oracle_preempt_kube(prof, s, p, &r, &o, out);
	sched_cycle_result_release(&r);
}

#define PRIO_CLASSES                                                        \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: p1}\nvalue: 1\n---\n"                             \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: p2}\nvalue: 2\n---\n"                             \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: p10}\nvalue: 10\n---\n"                           \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: p100}\nvalue: 100\n---\n"                         \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: p10never}\nvalue: 10\npreemptionPolicy: Never\n---\n"

#define NODE(name, cpu)                                                     \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels: "   \
	"{kubernetes.io/hostname: " name "}}\nstatus: {allocatable: {cpu: " \
	"\"" cpu "\", pods: \"110\"}}\n---\n"

/* A pod in default; node "" = pending; extra goes into spec. */
#define POD(name, labels, prio, node, cpu, extra)                           \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: " \
	"default, labels: {" labels "}}\nspec: {priorityClassName: " prio    \
	", nodeName: \"" node "\", containers: [{name: c, image: i, "       \
	"resources: {requests: {cpu: \"" cpu "\"}}" extra "}]}\n"           \
	"status: {startTime: \"2024-01-01T00:00:00Z\"}\n---\n"

/* ------------------------------------------------------- hand-derived */

/*
 * Reprieve.  n1 has 4 cpu and holds a (priority 1, 1 cpu) and b
 * (priority 2, 2 cpu); p (priority 10) asks 2 cpu: 4 - 3 = 1 free, n1 is
 * Unschedulable.  Removing a and b frees 4: p fits.  MoreImportantPod
 * order: b, a.  No PDB, so both are non-violating.  Reprieve b: 2 + 2 =
 * 4 <= 4, kept.  Reprieve a: 3 + 2 = 5 > 4, victim.  Answer: n1, [a],
 * 0 PDB violations, one candidate, no ties.
 */
static void test_reprieve(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "4")
		      POD("a", "", "p1", "n1", "1", "")
		      POD("b", "", "p2", "n1", "2", "")
		      POD("p", "", "p10", "", "2", "")) != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption pr;
	oracle_answer(&c, &s, pod_of(&c, "p"), 0, &pr);
	CHECK(pr.eligible);
	CHECK_EQ(pr.code, SCHED_SUCCESS);
	CHECK_EQ(pr.node, node_of(&c, "n1"));
	CHECK_EQ(pr.chosen.n, 1);
	CHECK_EQ(pr.chosen.pods[0], pod_of(&c, "a"));
	CHECK_EQ(pr.chosen.pdb_violations, 0);
	CHECK_EQ(pr.n_candidates, 1);
	CHECK_EQ(pr.n_ties, 0);
	CHECK_STR(pr.message, "");
	/* casualty: highest priority 1, sum 1 + 2^31, 1 victim */
	CHECK_EQ(pr.chosen.casualty.highest_priority, 1);
	CHECK_EQ(pr.chosen.casualty.priority_sum, 1 + 2147483648LL);
	sched_preemption_release(&pr);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * PDB.  n1 (2 cpu) holds x (priority 1, 2 cpu, app=db), n2 (2 cpu) holds
 * y (priority 1, 2 cpu, no labels); PDB db (app=db) allows 0
 * disruptions.  p (priority 10, 2 cpu) fits nowhere: both Unschedulable.
 * numCandidates = max(2*10/100 = 0, 100) capped at 2 = 2.  Walk from n1:
 * x must go (p needs the whole node), and the budget goes to -1: a
 * violating candidate; not yet a non-violating one, go on.  n2: y goes,
 * no PDB: non-violating; 2 candidates, stop.  List: [n2, n1]
 * (non-violating first).  Fewest PDB violations: n2 (0 < 1).
 */
static void test_pdb(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "2") NODE("n2", "2")
		      POD("x", "app: db", "p1", "n1", "2", "")
		      POD("y", "", "p1", "n2", "2", "")
		      POD("p", "", "p10", "", "2", "")
		      "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		      "metadata: {name: db, namespace: default}\n"
		      "spec: {minAvailable: 1, selector: {matchLabels: {app: db}}}\n"
		      "status: {disruptionsAllowed: 0}\n") != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption pr;
	oracle_answer(&c, &s, pod_of(&c, "p"), 0, &pr);
	CHECK_EQ(pr.node, node_of(&c, "n2"));
	CHECK_EQ(pr.n_candidates, 2);
	CHECK_EQ(pr.candidates[0].node, node_of(&c, "n2"));
	CHECK_EQ(pr.candidates[0].pdb_violations, 0);
	CHECK_EQ(pr.candidates[1].node, node_of(&c, "n1"));
	CHECK_EQ(pr.candidates[1].pdb_violations, 1);
	CHECK_EQ(pr.chosen.n, 1);
	CHECK_EQ(pr.chosen.pods[0], pod_of(&c, "y"));
	sched_preemption_release(&pr);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * Ties and the offset.  n1 and n2 (2 cpu each) hold a1 and a2 (priority
 * 1, 2 cpu, same start).  p (priority 10, 2 cpu).  numCandidates = 2.
 * Offset 0 walks n1, n2: after n1 one candidate (< 2), go on; list
 * [n1, n2], equal on every key of §3.5: n1, ties [n2].  Offset 1 walks
 * n2, n1: n2, ties [n1].
 */
static void test_ties_offset(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "2") NODE("n2", "2")
		      POD("a1", "", "p1", "n1", "2", "")
		      POD("a2", "", "p1", "n2", "2", "")
		      POD("p", "", "p10", "", "2", "")) != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	int n1 = node_of(&c, "n1"), n2 = node_of(&c, "n2");
	struct sched_preemption pr;
	oracle_answer(&c, &s, pod_of(&c, "p"), 0, &pr);
	CHECK_EQ(pr.node, n1);
	CHECK_EQ(pr.n_ties, 1);
	CHECK_EQ(pr.n_ties ? pr.ties[0] : -1, n2);
	sched_preemption_release(&pr);
	oracle_answer(&c, &s, pod_of(&c, "p"), 1, &pr);
	CHECK_EQ(pr.node, n2);
	CHECK_EQ(pr.n_ties ? pr.ties[0] : -1, n1);
	sched_preemption_release(&pr);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * UsedPorts is a set (QUIRK_PORTS_SET_REMOVAL).  n1 (4 cpu) holds
 * h1 (priority 1) and h2 (priority 100), both with hostPort 80/TCP on
 * 0.0.0.0 (the manifests put them there).  p (priority 10, hostPort 80)
 * is Unschedulable on n1 (NodePorts).  Lower priority: h1 only.
 * RemovePod(h1) deletes the key although h2 still holds it, so p fits;
 * AddPod(h1) puts the key back: p no longer fits, h1 is the victim.
 * kube evicts h1 even though the port stays taken by h2.  The dry run
 * works on a copy: afterwards the oracle's node still lists both pods
 * and its request is unchanged.
 */
static void test_ports_set_quirk(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "4")
		      POD("h1", "", "p1", "n1", "100m", ", ports: [{containerPort: 80, hostPort: 80}]")
		      POD("h2", "", "p100", "n1", "100m", ", ports: [{containerPort: 80, hostPort: 80}]")
		      POD("p", "", "p10", "", "100m", ", ports: [{containerPort: 80, hostPort: 80}]")) != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	int p = pod_of(&c, "p"), n1 = node_of(&c, "n1");
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &c);
	struct oracle o;
	oracle_init(&o, &s);
	o.all_nodes = true;
	oracle_schedule_cycle(&o, p, &r);
	CHECK_EQ(r.verdicts[n1].code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(r.verdicts[n1].rejected_by, PLUGIN_NODE_PORTS);
	int64_t cpu_before = o.d->nodes[n1].requested[RES_CPU];
	struct sched_preemption pr;
	sched_preemption_init(&pr);
	oracle_preempt(&o, model_profile_for(&c, p), p, &r, 0, &pr);
	CHECK_EQ(pr.node, n1);
	CHECK_EQ(pr.chosen.n, 1);
	CHECK_EQ(pr.chosen.n ? pr.chosen.pods[0] : -1, pod_of(&c, "h1"));
	/* 100m + 100m = 200 millicores before and after */
	CHECK_EQ(cpu_before, 200);
	CHECK_EQ(o.d->nodes[n1].requested[RES_CPU], 200);
	CHECK_EQ(o.d->nodes[n1].pods.n, 2);
	CHECK(o.d->nodes[n1].used_ports == NULL);
	sched_preemption_release(&pr);
	oracle_release(&o);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * No candidate.  n1 (1 cpu) holds z (priority 100, 1 cpu); n2 (1 cpu)
 * is tainted NoSchedule (TaintToleration: UAU).  p (priority 10, 1 cpu).
 * Potential nodes: n1 only; n2 gets "Preemption is not helpful for
 * scheduling".  n1: nothing of lower priority: UAU "No preemption victims
 * found for incoming pod".  FitError over 2 statuses, reasons sorted as
 * strings ("1 N..." < "1 P..."); the pod's nomination is cleared.
 */
static void test_no_candidate(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "1")
		      "apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: "
		      "{kubernetes.io/hostname: n2}}\nspec: {taints: [{key: k, "
		      "value: v, effect: NoSchedule}]}\nstatus: {allocatable: "
		      "{cpu: \"1\", pods: \"110\"}}\n---\n"
		      POD("z", "", "p100", "n1", "1", "")
		      POD("p", "", "p10", "", "1", "")) != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption pr;
	oracle_answer(&c, &s, pod_of(&c, "p"), 0, &pr);
	CHECK(pr.eligible);
	CHECK_EQ(pr.node, -1);
	CHECK_EQ(pr.code, SCHED_UNSCHEDULABLE);
	CHECK(pr.clear_own_nomination);
	CHECK_STR(pr.message, "preemption: 0/2 nodes are available: 1 No preemption "
		  "victims found for incoming pod, 1 Preemption is not helpful for "
		  "scheduling.");
	sched_preemption_release(&pr);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * preemptionPolicy Never (§3.1): not eligible, kube's text, nothing
 * cleared.  Same cluster shape as test_reprieve.
 */
static void test_never(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "1")
		      POD("a", "", "p1", "n1", "1", "")
		      "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
		      "spec: {priorityClassName: p10never, "
		      "containers: [{name: c, image: i, resources: {requests: {cpu: \"1\"}}}]}\n") != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_preemption pr;
	oracle_answer(&c, &s, pod_of(&c, "p"), 0, &pr);
	CHECK(!pr.eligible);
	CHECK_EQ(pr.node, -1);
	CHECK(!pr.clear_own_nomination);
	CHECK_STR(pr.message, "preemption: not eligible due to preemptionPolicy=Never.");
	sched_preemption_release(&pr);
	snapshot_release(&s);
	cluster_release(&c);
}

/*
 * The loop on test_reprieve's cluster: step 1 p fails (FitError "0/1
 * nodes are available: 1 Insufficient cpu."), preempts a on n1 and is
 * nominated there; the eviction wakes it; step 2 binds it through the
 * nominated node; then nothing is pending.
 */
static void test_loop(void)
{
	struct cluster c;
	if (load_text(&c, PRIO_CLASSES NODE("n1", "4")
		      POD("a", "", "p1", "n1", "1", "")
		      POD("b", "", "p2", "n1", "2", "")
		      POD("p", "", "p10", "", "2", "")) != 0) {
		CHECK(false);
		return;
	}
	struct snapshot s;
	snapshot_init(&s, &c);
	struct model_sched_opts opts = {0};
	struct model_scheduler m;
	struct oracle o;
	oracle_loop_init(&m, &o, &s, &opts, false);
	struct model_step st;
	int p = pod_of(&c, "p"), n1 = node_of(&c, "n1");
	CHECK_EQ(model_scheduler_step(&m, &st), 1);
	CHECK_EQ(st.pod, p);
	CHECK_EQ(st.action, MODEL_STEP_PREEMPT);
	CHECK_EQ(st.node, n1);
	CHECK_EQ(st.n_victims, 1);
	CHECK_STR(st.message, "0/1 nodes are available: 1 Insufficient cpu.");
	model_step_release(&st);
	CHECK_EQ(model_scheduler_step(&m, &st), 1);
	CHECK_EQ(st.action, MODEL_STEP_BIND);
	CHECK(st.fast_path);
	CHECK_EQ(st.node, n1);
	model_step_release(&st);
	CHECK_EQ(model_scheduler_step(&m, &st), 0);
	CHECK(model_invariants_ok(&m.inv));
	CHECK_EQ(o.snap.pod_node[pod_of(&c, "a")], SNAP_GONE);
	model_scheduler_release(&m);
	oracle_release(&o);
	snapshot_release(&s);
	cluster_release(&c);
}

/* -------------------------------------------------------- differential */

static int diff_pods, diff_with_candidates, diff_clusters, loop_steps;

static bool same_victims(const struct sched_victims *a, const struct sched_victims *b)
{
	if (a->node != b->node || a->n != b->n || a->pdb_violations != b->pdb_violations)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->pods[i] != b->pods[i])
			return false;
	return a->n == 0 || model_casualty_cmp(&a->casualty, &b->casualty) == 0;
}

/* Field by field; why gets the first difference. */
static bool same_preemption(const struct sched_preemption *a, const struct sched_preemption *b,
			    char *why, size_t len)
{
	if (a->eligible != b->eligible || a->node != b->node || a->code != b->code) {
		snprintf(why, len, "eligible/node/code %d/%d/%d vs %d/%d/%d", a->eligible,
			 a->node, a->code, b->eligible, b->node, b->code);
		return false;
	}
	if (strcmp(a->message ? a->message : "", b->message ? b->message : "")) {
		snprintf(why, len, "message \"%s\" vs \"%s\"", a->message, b->message);
		return false;
	}
	if (a->node >= 0 && !same_victims(&a->chosen, &b->chosen)) {
		snprintf(why, len, "chosen victims differ");
		return false;
	}
	if (a->n_candidates != b->n_candidates) {
		snprintf(why, len, "candidates %d vs %d", a->n_candidates, b->n_candidates);
		return false;
	}
	for (int i = 0; i < a->n_candidates; i++)
		if (!same_victims(&a->candidates[i], &b->candidates[i])) {
			snprintf(why, len, "candidate %d differs", i);
			return false;
		}
	bool ties = a->n_ties == b->n_ties;
	for (int i = 0; ties && i < a->n_ties; i++)
		ties = a->ties[i] == b->ties[i];
	bool cleared = a->n_clear_nominated == b->n_clear_nominated &&
		       a->clear_own_nomination == b->clear_own_nomination;
	for (int i = 0; cleared && i < a->n_clear_nominated; i++)
		cleared = a->clear_nominated[i] == b->clear_nominated[i];
	if (!ties || !cleared) {
		snprintf(why, len, "ties or cleared nominations differ");
		return false;
	}
	return true;
}

/* Every pending pod with a FitError: both answers for a few offsets. */
static bool diff_preemption(const char *name, const struct cluster *c)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, c);
	bool ok = true;
	static const uint64_t offsets[] = {0, 1, 2, 7, 137};
	for (int p = 0; p < c->n_pods && ok; p++) {
		const struct sched_profile *prof = model_profile_for(c, p);
		if (s.pod_node[p] != SNAP_PENDING || !prof)
			continue;
		model_schedule_cycle(prof, &s, p, &r);
		if (r.code != SCHED_UNSCHEDULABLE)
			continue;
		diff_pods++;
		for (size_t k = 0; k < sizeof offsets / sizeof offsets[0] && ok; k++) {
			struct sched_preemption a, b;
			sched_preemption_init(&a);
			sched_preemption_init(&b);
			struct sched_preempt_opts o = {.offset_draw = offsets[k]};
			model_preempt_kube(prof, &s, p, &r, &o, &a);
			oracle_preempt_kube(prof, &s, p, &r, &o, &b);
			char why[512];
			if (!same_preemption(&a, &b, why, sizeof why)) {
				fprintf(stderr, "DIFF %s pod %s offset %llu: %s\n", name,
					c->pods[p].name, (unsigned long long)offsets[k], why);
				ok = false;
			}
			diff_with_candidates += k == 0 && a.n_candidates > 0;
			sched_preemption_release(&a);
			sched_preemption_release(&b);
		}
	}
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	return ok;
}

static bool same_step(const struct model_step *a, const struct model_step *b)
{
	if (a->pod != b->pod || a->action != b->action || a->node != b->node ||
	    a->fast_path != b->fast_path || a->n_viable != b->n_viable ||
	    a->n_victims != b->n_victims || a->n_cleared != b->n_cleared ||
	    strcmp(a->message, b->message))
		return false;
	for (int i = 0; i < a->n_viable; i++)
		if (a->viable[i] != b->viable[i])
			return false;
	for (int i = 0; i < a->n_victims; i++)
		if (a->victims[i] != b->victims[i])
			return false;
	for (int i = 0; i < a->n_cleared; i++)
		if (a->cleared[i] != b->cleared[i])
			return false;
	return true;
}

/* Both loops step by step, then the final records. */
static bool diff_loop(const char *name, const struct cluster *c, const struct model_sched_opts *opts,
		      bool all_nodes)
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_scheduler m, om;
	struct oracle o;
	model_scheduler_init(&m, &s, opts);
	oracle_loop_init(&om, &o, &s, opts, all_nodes);
	bool ok = true;
	for (;;) {
		struct model_step a, b;
		int ra = model_scheduler_step(&m, &a);
		int rb = model_scheduler_step(&om, &b);
		if (ra != rb) {
			ok = false;
		} else if (ra) {
			loop_steps++;
			ok = same_step(&a, &b);
		}
		if (ra)
			model_step_release(&a);
		if (rb)
			model_step_release(&b);
		if (!ok) {
			fprintf(stderr, "DIFF %s loop step %d\n", name, m.steps);
			break;
		}
		if (!ra)
			break;
	}
	for (int p = 0; ok && p < c->n_pods; p++)
		ok = m.snap.pod_node[p] == om.snap.pod_node[p] &&
		     m.snap.nominated[p] == om.snap.nominated[p];
	for (int i = 0; ok && i < MODEL_INV_COUNT; i++)
		ok = m.inv.broken[i] == om.inv.broken[i];
	if (!ok)
		fprintf(stderr, "DIFF %s: final state\n", name);
	model_scheduler_release(&m);
	model_scheduler_release(&om);
	oracle_release(&o);
	snapshot_release(&s);
	return ok;
}

static void diff_cluster(const char *name, const struct cluster *c)
{
	diff_clusters++;
	CHECK(diff_preemption(name, c));
	struct model_sched_opts first = {0};
	struct model_sched_opts seeded = {.tie_random = true, .preempt_random = true, .seed = 11};
	/* under 100 nodes sampling examines every node: same steps */
	bool all = c->n_nodes >= 100;
	CHECK(diff_loop(name, c, &first, all));
	CHECK(diff_loop(name, c, &seeded, all));
}

static void diff_fixture_dir(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d) {
		CHECK(false);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 5, ".yaml"))
			continue;
		char path[1024];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct cluster c;
		struct error err;
		cluster_init(&c);
		error_init(&err);
		char *paths[1] = {path};
		if (yaml_load_paths(&c, paths, 1, &err) == 0)
			diff_cluster(path, &c);
		cluster_release(&c);
	}
	closedir(d);
}

/* ------------------------------------------------ random clusters */

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int rnd(uint64_t *s, int n)
{
	return (int)(rng_next(s) % (uint64_t)n);
}

/* A small cluster where preemption is the rule: full nodes, priorities
 * 0..1000, host ports, hard spread and required (anti-)affinity, PDBs
 * with and without status, nominated and terminating pods. */
static char *random_yaml(uint64_t seed)
{
	uint64_t st = seed * 0x9e3779b97f4a7c15ull + 1;
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	static const int prios[] = {0, 1, 10, 100, 1000, 100};
	static const char *names[] = {"p0", "p1", "p10", "p100", "p1000", "never"};
	for (int i = 0; i < 6; i++)
		fprintf(f, "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
			   "metadata: {name: %s}\nvalue: %d\n%s---\n", names[i], prios[i],
			i == 5 ? "preemptionPolicy: Never\n" : "");
	int n_nodes = 2 + rnd(&st, 5);
	for (int n = 0; n < n_nodes; n++)
		fprintf(f, "apiVersion: v1\nkind: Node\nmetadata: {name: n%d, labels: "
			   "{kubernetes.io/hostname: n%d, topology.kubernetes.io/zone: z%d}}\n"
			   "spec: {%s}\nstatus: {allocatable: {cpu: \"%d\", pods: \"%d\"}}\n---\n",
			n, n, rnd(&st, 2), rnd(&st, 8) == 0 ?
			"taints: [{key: k, value: v, effect: NoSchedule}]" : "",
			2 + rnd(&st, 3), rnd(&st, 6) == 0 ? 3 : 110);
	static const char *apps[] = {"a", "b", "c"};
	int n_pods = 5 + rnd(&st, 14);
	for (int i = 0; i < n_pods; i++) {
		bool pending = rnd(&st, 4) == 0 || i >= n_pods - 2;
		int prio = pending ? 2 + rnd(&st, 3) : rnd(&st, 4);
		if (pending && rnd(&st, 8) == 0)
			prio = 5;   /* preemptionPolicy Never */
		fprintf(f, "apiVersion: v1\nkind: Pod\nmetadata: {name: q%d, namespace: default, "
			   "labels: {app: %s}%s}\nspec:\n  priorityClassName: %s\n",
			i, apps[rnd(&st, 3)],
			!pending && rnd(&st, 12) == 0 ? ", deletionTimestamp: \"2024-01-02T00:00:00Z\"" : "",
			names[prio]);
		if (!pending)
			fprintf(f, "  nodeName: n%d\n", rnd(&st, n_nodes));
		fprintf(f, "  containers: [{name: c, image: i, resources: {requests: {cpu: \"%dm\"}}%s}]\n",
			250 * (1 + rnd(&st, 6)),
			rnd(&st, 6) == 0 ? ", ports: [{containerPort: 80, hostPort: 80}]" : "");
		if (rnd(&st, 5) == 0)
			fprintf(f, "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: %s, "
				   "whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: %s}}}]\n",
				rnd(&st, 2) ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname",
				apps[rnd(&st, 3)]);
		if (rnd(&st, 6) == 0)
			fprintf(f, "  affinity: {%s: {requiredDuringSchedulingIgnoredDuringExecution: "
				   "[{labelSelector: {matchLabels: {app: %s}}, topologyKey: %s}]}}\n",
				rnd(&st, 3) ? "podAntiAffinity" : "podAffinity", apps[rnd(&st, 3)],
				rnd(&st, 2) ? "topology.kubernetes.io/zone" : "kubernetes.io/hostname");
		fprintf(f, "status:\n");
		if (!pending && rnd(&st, 3))
			fprintf(f, "  startTime: \"2024-01-01T0%d:00:00Z\"\n", rnd(&st, 4));
		if (pending && rnd(&st, 4) == 0)
			fprintf(f, "  nominatedNodeName: n%d\n", rnd(&st, n_nodes));
		fprintf(f, "---\n");
	}
	int n_pdbs = rnd(&st, 3);
	for (int i = 0; i < n_pdbs; i++) {
		fprintf(f, "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: "
			   "{name: b%d, namespace: default}\nspec: {minAvailable: %d, selector: "
			   "{matchLabels: {app: %s}}}\n", i, rnd(&st, 3), apps[rnd(&st, 3)]);
		if (rnd(&st, 2))
			fprintf(f, "status: {disruptionsAllowed: %d}\n", rnd(&st, 2));
		fprintf(f, "---\n");
	}
	fclose(f);
	return buf;
}

static void diff_random(int count)
{
	for (int i = 1; i <= count; i++) {
		char *text = random_yaml((uint64_t)i);
		struct cluster c;
		char name[64];
		snprintf(name, sizeof name, "random cluster %d", i);
		if (load_text(&c, text) == 0)
			diff_cluster(name, &c);
		else
			CHECK(false);
		cluster_release(&c);
		free(text);
	}
}

/*
 * Wide: 150 full nodes (1 cpu, one 1-cpu pod of priority 0 or 1 each,
 * some guarded by a PDB) and pending 1-cpu pods of priority 10: 150
 * potential nodes, numCandidates = max(150*10/100, 100) = 100, so the
 * walk stops after 100 candidates and the offset decides which ones.
 */
static char *wide_yaml(void)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);
	fputs(PRIO_CLASSES, f);
	for (int n = 0; n < 150; n++)
		fprintf(f, "apiVersion: v1\nkind: Node\nmetadata: {name: w%03d, labels: "
			   "{kubernetes.io/hostname: w%03d, topology.kubernetes.io/zone: z%d}}\n"
			   "status: {allocatable: {cpu: \"1\", pods: \"110\"}}\n---\n", n, n, n % 3);
	for (int n = 0; n < 150; n++)
		fprintf(f, "apiVersion: v1\nkind: Pod\nmetadata: {name: v%03d, namespace: default, "
			   "labels: {app: %s}}\nspec: {priorityClassName: %s, nodeName: w%03d, "
			   "containers: [{name: c, image: i, resources: {requests: {cpu: \"1\"}}}]}\n"
			   "status: {startTime: \"2024-01-01T%02d:00:00Z\"}\n---\n",
			n, n % 7 == 0 ? "db" : "web", n % 5 ? "p1" : "p2", n, n % 24);
	for (int i = 0; i < 4; i++)
		fprintf(f, "apiVersion: v1\nkind: Pod\nmetadata: {name: hi%d, namespace: default}\n"
			   "spec: {priorityClassName: p10, containers: [{name: c, image: i, "
			   "resources: {requests: {cpu: \"1\"}}}]}\n---\n", i);
	fputs("apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: db, "
	      "namespace: default}\nspec: {minAvailable: 1, selector: {matchLabels: "
	      "{app: db}}}\n", f);
	fclose(f);
	return buf;
}

static void diff_wide(void)
{
	char *text = wide_yaml();
	struct cluster c;
	if (load_text(&c, text) == 0)
		diff_cluster("wide cluster", &c);
	else
		CHECK(false);
	cluster_release(&c);
	free(text);
}

int main(void)
{
	test_reprieve();
	test_pdb();
	test_ties_offset();
	test_ports_set_quirk();
	test_no_candidate();
	test_never();
	test_loop();
	const char *root = getenv("KSO_FIXTURES");
	char dir[1024];
	snprintf(dir, sizeof dir, "%s/preemption", root ? root : "fixtures");
	diff_fixture_dir(dir);
	diff_wide();
	const char *n = getenv("KSO_RANDOM_CLUSTERS");
	diff_random(n ? atoi(n) : 300);
	printf("test_oracle_preemption: %d clusters, %d failed cycles compared "
	       "(%d with candidates), %d loop steps compared\n",
	       diff_clusters, diff_pods, diff_with_candidates, loop_steps);
	/* most random clusters must exercise the candidate walk */
	CHECK(diff_with_candidates >= diff_clusters / 4);
	return check_done("test_oracle_preemption");
}
