/*
 * test_enum_crosscheck.c - the enumerator compares the engines' whole
 * verdicts (issue 12 G): a one-character change to one reason string of
 * the oracle, planted through oracle.test_hook, must turn an agreement
 * into a disagreement whose text names the field that differs.
 *
 * The universe: node n1 (cpu 1) and pods a and b (cpu 1 each); the
 * counts are worked out in main().
 */
#include "check.h"

#include <stdlib.h>
#include <string.h>

#include "../../enum/enum.h"

static const char universe[] =
	"kind: Universe\n"
	"name: crosscheck\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: a, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\n"
	"apiVersion: v1\n"
	"kind: Pod\n"
	"metadata: {name: b, namespace: default}\n"
	"spec:\n"
	"  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n";

/* The planted fault: the first letter of every NodeResourcesFit reason
 * the oracle reports ("Insufficient cpu" -> "insufficient cpu"). */
static void lowercase_fit_reason(struct sched_cycle_result *r, void *arg)
{
	int *planted = arg;
	for (int n = 0; n < r->n_nodes; n++) {
		struct sched_status *st = &r->verdicts[n].status[PLUGIN_NODE_RESOURCES_FIT];
		if (!r->verdicts[n].failed[PLUGIN_NODE_RESOURCES_FIT] || !st->n_reasons)
			continue;
		st->text[st->off[0]] = 'i';
		(*planted)++;
	}
}

/* One fault per field the cross-check compares (planted in every result
 * where it applies); the first disagreement's text must name the field. */
enum fault {
	F_FEASIBLE, F_FAILED, F_CODE, F_REASON_COUNT, F_MESSAGE, F_NOMINATED,
	F_PREFILTER_RESULT, F_PREFILTER, F_ERROR,
	P_ELIGIBLE, P_MESSAGE, P_VICTIMS, P_CANDIDATES, P_TIES, P_CLEARED,
};

struct plant {
	enum fault fault;
	int planted;
};

static void plant_cycle(struct sched_cycle_result *r, void *arg)
{
	struct plant *pl = arg;
	struct sched_node_verdict *v = &r->verdicts[0];
	switch (pl->fault) {
	case F_FEASIBLE:
		v->feasible = !v->feasible;
		break;
	case F_FAILED:   /* a filter that did not fail now has */
		v->failed[PLUGIN_NODE_PORTS] = !v->failed[PLUGIN_NODE_PORTS];
		break;
	case F_CODE:
		if (!v->failed[PLUGIN_NODE_RESOURCES_FIT])
			return;
		v->status[PLUGIN_NODE_RESOURCES_FIT].code = SCHED_UAU;
		break;
	case F_REASON_COUNT:
		if (!v->failed[PLUGIN_NODE_RESOURCES_FIT])
			return;
		sched_status_add(&v->status[PLUGIN_NODE_RESOURCES_FIT],
				 SCHED_UNSCHEDULABLE, "Insufficient memory");
		break;
	case F_MESSAGE:
		if (!r->message)
			return;
		r->message[0] = '1';
		break;
	case F_NOMINATED:
		r->nominated_node = r->nominated_node < 0 ? 0 : -1;
		break;
	case F_PREFILTER_RESULT:
		r->in_prefilter_result[0] = !r->in_prefilter_result[0];
		break;
	case F_PREFILTER:
		sched_status_add(&r->prefilter, SCHED_SKIP, "planted");
		break;
	case F_ERROR:
		sched_status_add(&r->error, SCHED_SUCCESS, "planted");
		break;
	default:
		return;
	}
	pl->planted++;
}

static void plant_preemption(struct sched_preemption *p, void *arg)
{
	struct plant *pl = arg;
	switch (pl->fault) {
	case P_ELIGIBLE:
		p->eligible = !p->eligible;
		break;
	case P_MESSAGE:
		free(p->message);
		p->message = strdup("preemption: planted");
		break;
	case P_VICTIMS:
		if (p->node < 0 || !p->chosen.n)
			return;
		p->chosen.pdb_violations++;
		break;
	case P_CANDIDATES:
		if (!p->n_candidates)
			return;
		p->candidates[0].pdb_violations++;
		break;
	case P_TIES:   /* n1 tied with itself: owned by p, freed with it */
		free(p->ties);
		p->ties = malloc(sizeof *p->ties);
		if (!p->ties)
			abort();
		p->ties[0] = 0;
		p->n_ties = 1;
		break;
	case P_CLEARED:
		p->clear_own_nomination = !p->clear_own_nomination;
		break;
	default:
		return;
	}
	pl->planted++;
}

struct seen {
	int records, disagreements;
	char detail[512];
};

static void record(void *user, struct enum_record *r)
{
	struct seen *s = user;
	s->records++;
	if (r->pod && !r->agree) {
		s->disagreements++;
		snprintf(s->detail, sizeof s->detail, "%s", r->detail ? r->detail : "");
	}
	enum_record_release(r);
}

/* n1 (cpu 1) holds `low` (priority 10, cpu 1); `high` (priority 1000,
 * cpu 1) is pending: in the placement low on n1, high pending, n1 fails
 * with Insufficient cpu and DefaultPreemption evicts low (reference §3). */
static const char preempt_universe[] =
	"kind: Universe\n"
	"name: crosscheck-preemption\n"
	"---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\n"
	"---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: low}\nvalue: 10\n"
	"---\n"
	"apiVersion: v1\nkind: Node\n"
	"metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}\n"
	"status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: low, namespace: default}\n"
	"spec:\n  priorityClassName: low\n  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: high, namespace: default}\n"
	"spec:\n  priorityClassName: high\n  containers:\n"
	"  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n";

static void record_first(void *user, struct enum_record *r)
{
	struct seen *s = user;
	if (r->pod && !r->agree && !s->disagreements++)
		snprintf(s->detail, sizeof s->detail, "%s", r->detail ? r->detail : "");
	enum_record_release(r);
}

/* Plants fault f in the oracle of universe text and returns the first
 * disagreement's text in seen (empty when none). */
static void run_fault(const char *text, enum fault f, struct seen *seen)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	memset(seen, 0, sizeof *seen);
	if (enum_universe_load_buffer(&u, "fault.yaml", NULL, text, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	struct plant pl = {f, 0};
	/* the context's oracle engine (oracle_engine.open) is an oracle */
	struct oracle *o = x.oracle.self;
	o->test_hook = plant_cycle;
	o->test_preempt_hook = plant_preemption;
	o->test_hook_arg = &pl;
	struct enum_sink sink = {.user = seen, .record = record_first};
	struct enum_tally t[2] = {{0}};
	enum_placements(&x, 0, enum_placement_count(sc.cluster.n_nodes,
						    sc.cluster.n_pods),
			false, false, &sink, t);
	CHECK(pl.planted > 0);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

/* The first disagreement's text starts with want. */
static void expect_field(const char *text, enum fault f, const char *want)
{
	struct seen seen;
	run_fault(text, f, &seen);
	CHECK(seen.disagreements > 0);
	CHECK(!strncmp(seen.detail, want, strlen(want)));
	if (strncmp(seen.detail, want, strlen(want)))
		fprintf(stderr, "  fault %d: got \"%s\", want \"%s...\"\n", (int)f,
			seen.detail, want);
}

static void every_field(void)
{
	expect_field(universe, F_FEASIBLE, "verdict[n1]: model ");
	expect_field(universe, F_FAILED,
		     "verdict[n1].failed[NodePorts]: model 0, oracle 1");
	expect_field(universe, F_CODE,
		     "verdict[n1].status[NodeResourcesFit].code: model 1, oracle 2");
	expect_field(universe, F_REASON_COUNT,
		     "verdict[n1].status[NodeResourcesFit].reasons[1]: model "
		     "\"(none)\", oracle \"Insufficient memory\"");
	expect_field(universe, F_MESSAGE,
		     "message: model \"0/1 nodes are available: 1 Insufficient "
		     "cpu.");
	expect_field(universe, F_NOMINATED, "nominated_node: model -1, oracle 0");
	expect_field(universe, F_PREFILTER_RESULT,
		     "verdict[n1].in_prefilter_result: model 1, oracle 0");
	expect_field(universe, F_PREFILTER, "prefilter.reasons[0]: model "
		     "\"(none)\", oracle \"planted\"");
	expect_field(universe, F_ERROR, "error.reasons[0]: model \"(none)\", "
		     "oracle \"planted\"");
	expect_field(preempt_universe, P_ELIGIBLE,
		     "preemption: model eligible=1 code=0 node=n1, oracle eligible=0");
	expect_field(preempt_universe, P_MESSAGE,
		     "preemption.message: model \"\", oracle \"preemption: planted\"");
	expect_field(preempt_universe, P_VICTIMS,
		     "preemption.victims: model n1 [low] pdb=0, oracle n1 [low] pdb=1");
	expect_field(preempt_universe, P_CANDIDATES,
		     "preemption.candidates[0]: model n1 [low] pdb=0, oracle n1 "
		     "[low] pdb=1");
	expect_field(preempt_universe, P_TIES,
		     "preemption.ties: model {}, oracle {n1}");
	expect_field(preempt_universe, P_CLEARED,
		     "preemption.cleared_nominations: model [] own=0, oracle [] own=1");
}

/* Reachable mode (from all pending) down to a successful preemption.
 * n1, n2 (cpu 1, one zone z).  high (1000, cpu 1, nodeSelector n1,
 * required pod affinity to app=web by zone), low (10, cpu 1, nodeSelector
 * n1), web (5, app=web, cpu 1, nodeSelector n2).  PrioritySort pops high,
 * low, web.
 *   S0 all pending: high fails (n1 pod affinity, n2 node selector: both
 *      UnschedulableAndUnresolvable, no potential node): parked, rejected
 *      by InterPodAffinity and NodeAffinity.
 *   S1: low binds n1.  low is no app=web pod: high stays parked (v1.30's
 *      AssignedPodAdded reaches only parked pods with a required
 *      affinity term matching the bound pod; model/requeue.h).
 *   S2: web binds n2; it matches high's term: high is moved back.
 *   S3: high: n1 Insufficient cpu; evicting low frees it and web (n2,
 *      zone z) meets the affinity: victims [low] (the least-Casualty
 *      answer is the same: one successor).  low's deletion moves high
 *      (NodeResourcesFit registers pod deletions).
 *   S4: low gone, high nominated to n1: binds there.   S5: final.
 * 6 states, 1 final, 5 decisions (all agree), 2 PostFilter runs. */
static const char reach_universe[] =
	"kind: Universe\nname: reach-preempt\n"
	"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\n"
	"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: low}\nvalue: 10\n"
	"---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: lowest}\nvalue: 5\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: "
	"{kubernetes.io/hostname: n1, topology.kubernetes.io/zone: z}}\n"
	"status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}\n"
	"---\napiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: "
	"{kubernetes.io/hostname: n2, topology.kubernetes.io/zone: z}}\n"
	"status: {allocatable: {cpu: \"1\", memory: 4Gi, pods: \"110\"}}\n"
	"---\napiVersion: v1\nkind: Pod\nmetadata: {name: high, namespace: default}\n"
	"spec:\n  priorityClassName: high\n"
	"  nodeSelector: {kubernetes.io/hostname: n1}\n"
	"  affinity:\n    podAffinity:\n"
	"      requiredDuringSchedulingIgnoredDuringExecution:\n"
	"      - labelSelector: {matchLabels: {app: web}}\n"
	"        topologyKey: topology.kubernetes.io/zone\n"
	"  containers:\n  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\napiVersion: v1\nkind: Pod\nmetadata: {name: low, namespace: default}\n"
	"spec:\n  priorityClassName: low\n"
	"  nodeSelector: {kubernetes.io/hostname: n1}\n"
	"  containers:\n  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n"
	"---\napiVersion: v1\nkind: Pod\n"
	"metadata: {name: web, namespace: default, labels: {app: web}}\n"
	"spec:\n  priorityClassName: lowest\n"
	"  nodeSelector: {kubernetes.io/hostname: n2}\n"
	"  containers:\n  - {name: c, image: pause, resources: {requests: {cpu: \"1\"}}}\n";

struct preempts {
	int kube_on_n1;
};

static void record_preemption(void *user, struct enum_record *r)
{
	struct preempts *p = user;
	if (r->kube_node && !strcmp(r->kube_node, "n1") && r->kube_victims &&
	    !strcmp(r->kube_victims, "default/low"))
		p->kube_on_n1++;
	enum_record_release(r);
}

static void reachable_preemption(void)
{
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "reach.yaml", NULL, reach_universe, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return;
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	struct preempts seen = {0};
	struct enum_sink sink = {.user = &seen, .record = record_preemption,
				 .store_all = true};
	struct enum_tally t[2] = {{0}};
	CHECK_EQ(enum_reachable(&x, false, &sink, t, &err), 0);
	CHECK_EQ(t[0].states, 6);
	CHECK_EQ(t[0].finals, 1);
	CHECK_EQ(t[0].decisions, 5);
	CHECK_EQ(t[0].agree, 5);
	CHECK_EQ(t[0].preemptions, 2);
	CHECK_EQ(seen.kube_on_n1, 1);
	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
}

int main(void)
{
	every_field();
	reachable_preemption();
	struct enum_universe u;
	struct error err;
	error_init(&err);
	if (enum_universe_load_buffer(&u, "crosscheck.yaml", NULL, universe, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		CHECK(0);
		return check_done("test_enum_crosscheck");
	}
	struct enum_scenario sc;
	CHECK_EQ(enum_scenario_build(&u, 0, true, &sc, &err), 0);
	struct enum_ctx x;
	enum_ctx_init(&x, &sc);
	struct seen seen = {0};
	struct enum_sink sink = {.user = &seen, .record = record};

	/* Placements (pod a, pod b) over {pending, n1}^2 = 4 states.
	 * Decisions (a pending pod exists): (-,-) a fits n1; (-,n1) a fails
	 * Insufficient cpu; (n1,-) b fails likewise: 3 decisions, all agree
	 * when nothing is planted. */
	struct enum_tally t[2] = {{0}};
	CHECK_EQ(enum_placements(&x, 0, 4, false, false, &sink, t), 0);
	CHECK_EQ(t[0].states, 4);
	CHECK_EQ(t[0].decisions, 3);
	CHECK_EQ(t[0].agree, 3);
	CHECK_EQ(t[0].disagree, 0);

	/* planted: the two failing cycles now disagree, and say where.  A
	 * fresh context: this one's verdict pairs, compared in the first
	 * pass, would be given to both engines and not compared again
	 * (enum/verdict_reuse.c; only a sampled state recomputes them) */
	enum_ctx_release(&x);
	enum_ctx_init(&x, &sc);
	int planted = 0;
	struct oracle *o = x.oracle.self;
	o->test_hook = lowercase_fit_reason;
	o->test_hook_arg = &planted;
	struct enum_tally t2[2] = {{0}};
	enum_placements(&x, 0, 4, false, false, &sink, t2);
	CHECK_EQ(planted, 2);
	CHECK_EQ(t2[0].decisions, 3);
	CHECK_EQ(t2[0].agree, 1);
	CHECK_EQ(t2[0].disagree, 2);
	CHECK_EQ(seen.disagreements, 2);
	CHECK_STR(seen.detail, "verdict[n1].status[NodeResourcesFit].reasons[0]: "
		  "model \"Insufficient cpu\", oracle \"insufficient cpu\"");

	enum_ctx_release(&x);
	enum_scenario_release(&sc);
	enum_universe_release(&u);
	return check_done("test_enum_crosscheck");
}
