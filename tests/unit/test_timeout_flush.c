/*
 * test_timeout_flush.c - the 5-minute unschedulable timeout of the
 * scheduler loop (model/scheduler.h model_scheduler_flush), worked out by
 * hand on fixtures/queue/flush-nominated.yaml's cluster (its header):
 *
 * n1, n2 (2 cpu); y (1 cpu, nodeSelector n1, older) and x (2 cpu,
 * nodeSelector n2, nominated to n1), both priority 10.  v1.30.12: step 1
 * y fails (x's nomination fills n1), step 2 x binds n2, which sends y no
 * event; the flush moves y back and step 3 binds it on n1.  v1.34.1: x's
 * lost nomination moves y, no flush.
 *
 * Checked on the literal model's loop and on the oracle's (whose cycles
 * the look ahead runs under oracle_loop_hold: its sampling start and
 * draws come back as they were), and with an engine that answers every
 * cycle "unschedulable" (a scheduler under test driving the loop): the
 * model says y's retry would bind, so the flush runs, but the engine's
 * round changes nothing, and the loop ends there at a fixpoint instead of
 * flushing for ever.
 */
#include <string.h>

#include "check.h"
#include "../../model/scheduler.h"
#include "../../oracle/oracle.h"
#include "../../yaml/load.h"

#define NODE(n) \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " n ", labels: " \
	"{kubernetes.io/hostname: " n "}}\nstatus: {allocatable: {cpu: \"2\", " \
	"memory: 8Gi, pods: \"110\"}}\n---\n"

static const char OBJECTS[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: ten}\nvalue: 10\n---\n"
	NODE("n1") NODE("n2")
	"apiVersion: v1\nkind: Pod\nmetadata: {name: y, namespace: default, "
	"creationTimestamp: \"2024-01-01T10:00:00Z\"}\nspec:\n"
	"  priorityClassName: ten\n  nodeSelector: {kubernetes.io/hostname: n1}\n"
	"  containers: [{name: c, image: x, resources: {requests: {cpu: \"1\"}}}]\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: default, "
	"creationTimestamp: \"2024-01-01T10:01:00Z\"}\nspec:\n"
	"  priorityClassName: ten\n  nodeSelector: {kubernetes.io/hostname: n2}\n"
	"  containers: [{name: c, image: x, resources: {requests: {cpu: \"2\"}}}]\n"
	"status: {nominatedNodeName: n1}\n";

enum { Y, X };   /* manifest order */

static struct cluster C;

static int load(enum kube_version v)
{
	struct error err;
	error_init(&err);
	cluster_init(&C);
	config_use_version(&C.config, v);
	if (yaml_load_buffer(&C, "t.yaml", (const unsigned char *)OBJECTS,
			     strlen(OBJECTS), &err) < 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* One step: its pod, action, node and the parked pods the flush before it
 * moved. */
static void step(struct model_scheduler *m, int pod,
		 enum model_step_action act, int node, int flushed)
{
	struct model_step st;
	CHECK_EQ(model_scheduler_step(m, &st), 1);
	CHECK_EQ(st.pod, pod);
	CHECK_EQ((int)st.action, (int)act);
	CHECK_EQ(st.node, node);
	CHECK_EQ(st.flushed, flushed);
	model_step_release(&st);
}

static void no_step(struct model_scheduler *m)
{
	struct model_step st;
	memset(&st, 0, sizeof st);
	CHECK_EQ(model_scheduler_step(m, &st), 0);
}

/* v1.30.12 on the model's loop (oracle: the oracle's). */
static void run_v130(bool oracle)
{
	struct snapshot s;
	snapshot_init(&s, &C);
	struct model_sched_opts opts = {0};
	struct model_scheduler m;
	model_scheduler_init(&m, &s, &opts);
	struct oracle o;
	if (oracle) {
		oracle_init(&o, &s);
		m.engine = oracle_loop_engine(&o);
	}
	CHECK_EQ(s.nominated[X], 0);             /* x nominated to n1 */
	step(&m, Y, MODEL_STEP_UNSCHEDULABLE, -1, 0);
	step(&m, X, MODEL_STEP_BIND, 1, 0);
	/* y parked, nothing in activeQ: the flush comes next */
	CHECK_EQ(model_scheduler_head(&m), -1);
	CHECK(m.waiting[Y]);
	int start = oracle ? o.next_start : 0;
	CHECK_EQ(model_scheduler_flush(&m), 1);
	/* the look ahead left the oracle's rotating start where it was */
	if (oracle)
		CHECK_EQ(o.next_start, start);
	CHECK_EQ(model_scheduler_head(&m), Y);
	CHECK(!m.waiting[Y]);
	/* a second call with y in activeQ moves nothing */
	CHECK_EQ(model_scheduler_flush(&m), 0);
	step(&m, Y, MODEL_STEP_BIND, 0, 1);
	no_step(&m);
	CHECK_EQ(m.flushes, 1);
	CHECK(!m.fixpoint);                      /* nothing parked */
	CHECK(model_invariants_ok(&m.inv));
	CHECK_EQ(m.snap.pod_node[Y], 0);
	CHECK_EQ(m.snap.pod_node[X], 1);
	if (oracle)
		oracle_release(&o);
	model_scheduler_release(&m);
	snapshot_release(&s);
}

/* v1.34.1: the lost nomination moves y; no flush. */
static void run_v134(void)
{
	struct snapshot s;
	snapshot_init(&s, &C);
	struct model_sched_opts opts = {0};
	struct model_scheduler m;
	model_scheduler_init(&m, &s, &opts);
	step(&m, Y, MODEL_STEP_UNSCHEDULABLE, -1, 0);
	step(&m, X, MODEL_STEP_BIND, 1, 0);
	step(&m, Y, MODEL_STEP_BIND, 0, 0);
	no_step(&m);
	CHECK_EQ(m.flushes, 0);
	CHECK(!m.fixpoint);
	model_scheduler_release(&m);
	snapshot_release(&s);
}

/* An engine finding no node for any pod, with no preemption. */
static int refuse_cycle(void *self, const struct sched_profile *prof,
			const struct snapshot *s, int pod,
			struct sched_cycle_result *r)
{
	(void)self;
	(void)prof;
	(void)s;
	sched_cycle_result_clear_nodes(r, pod, NULL, 0);
	r->code = SCHED_UNSCHEDULABLE;
	r->n_viable = 0;
	r->nominated_node = -1;
	return -1;
}

static void refuse_preempt(void *self, const struct sched_profile *prof,
			   const struct snapshot *s, int pod,
			   const struct sched_cycle_result *r,
			   uint64_t offset_draw, struct sched_preemption *out)
{
	(void)self;
	(void)prof;
	(void)s;
	(void)pod;
	(void)r;
	(void)offset_draw;
	out->code = SCHED_UNSCHEDULABLE;
	out->node = -1;
}

/* v1.30.12 with every cycle refused: y, x fail (x keeps its nomination:
 * this engine's failed preemption clears none); nothing has changed
 * since either failed, so no retry is asked: a fixpoint at once.
 * Then x's nomination is taken away by hand - the model now says y would
 * bind n1, the flush runs, the engine refuses both again, and the loop
 * ends at a fixpoint after that one round. */
static void run_refusing(void)
{
	struct snapshot s;
	snapshot_init(&s, &C);
	struct model_sched_opts opts = {0};
	struct model_scheduler m;
	model_scheduler_init(&m, &s, &opts);
	m.engine = (struct loop_engine){
		.self = NULL, .cycle = refuse_cycle, .preempt = refuse_preempt};
	step(&m, Y, MODEL_STEP_UNSCHEDULABLE, -1, 0);
	step(&m, X, MODEL_STEP_UNSCHEDULABLE, -1, 0);
	/* nothing changed since either failed: no retry is asked */
	no_step(&m);
	CHECK(m.fixpoint);
	CHECK_EQ(m.flushes, 0);
	/* a change the loop did not make: x no longer nominated */
	m.snap.nominated[X] = -1;
	m.before.nominated[X] = -1;
	m.changes++;
	m.fixpoint = false;
	/* the model: y fits n1 now (and x n2): the round would change */
	step(&m, Y, MODEL_STEP_UNSCHEDULABLE, -1, 2);
	step(&m, X, MODEL_STEP_UNSCHEDULABLE, -1, 0);
	/* the engine's round changed nothing: no second flush */
	no_step(&m);
	CHECK(m.fixpoint);
	CHECK_EQ(m.flushes, 1);
	CHECK(model_invariants_ok(&m.inv));
	model_scheduler_release(&m);
	snapshot_release(&s);
}

int main(void)
{
	if (load(KUBE_1_30) < 0)
		return 1;
	run_v130(false);
	run_v130(true);
	run_refusing();
	cluster_release(&C);
	if (load(KUBE_1_34) < 0)
		return 1;
	run_v134();
	cluster_release(&C);
	return check_done("test_timeout_flush");
}
