/*
 * test_filters_cycle.c - filter verdicts of whole cycles (first review):
 * which pending pods count as nominated pods in Filter pass 1 (reference
 * §1.5; kube's nominator only holds pods of the scheduler's own queue:
 * eventhandlers.go adds only unassigned pods some profile is responsible
 * for, and PriorityQueue.Add returns before AddNominatedPod for a pod its
 * PreEnqueue plugins gate), and the owner reference the default selector
 * recognises (reference §2.11, helper.DefaultSelector parses the
 * ownerReference's apiVersion with schema.ParseGroupVersion).
 */
#include "build.h"
#include "check.h"

#include "../../model/default_selector.h"
#include "../../model/model.h"

/* Feasibility of pod on node on the manifests' placement. */
static struct sched_node_verdict *verdict_of(const struct cluster *c, int pod,
					     int node)
{
	static struct sched_node_verdict v;
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	tb_cycle(&cy, c, &s, pod);
	model_feasibility(&cy, node, &v);
	snapshot_release(&s);
	return &v;
}

/*
 * Node n: 1 cpu, room for 10 pods.  q (priority 10, cpu 1) is pending with
 * status.nominatedNodeName n; the incoming pod p (priority 0) asks cpu 1.
 *   q of schedulerName default-scheduler: a nominated pod of higher
 *     priority -> pass 1 adds q: 1000 + 1000 > 1000 -> Unschedulable
 *     "Insufficient cpu" (control).
 *   q of schedulerName other-scheduler: the default scheduler never queues
 *     q, so its nominator does not hold it -> only pass 2 -> p fits.
 *   q gated (spec.schedulingGates): PreEnqueue gates it, Add returns before
 *     the nominator -> p fits.
 */
static void test_nominated_only_own_queue(void)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "cpu=1,pods=10", "");
	int q = tb_pod(&c, "q", "");
	c.pods[q].priority = 10;
	c.pods[q].nominated_node = "n";
	tb_container(&c, q, "cpu=1", false, false);
	int p = tb_pod(&c, "p", "");
	tb_container(&c, p, "cpu=1", false, false);

	struct sched_node_verdict *v = verdict_of(&c, p, n);
	CHECK(!v->feasible);
	CHECK_EQ(v->rejected_by, PLUGIN_NODE_RESOURCES_FIT);
	CHECK_EQ(v->code, SCHED_UNSCHEDULABLE);

	c.pods[q].scheduler_name = "other-scheduler";
	v = verdict_of(&c, p, n);
	CHECK(v->feasible);

	c.pods[q].scheduler_name = "default-scheduler";
	static const char *const gates[] = {"example.com/wait"};
	c.pods[q].gates = gates;
	c.pods[q].n_gates = 1;
	v = verdict_of(&c, p, n);
	CHECK(v->feasible);
	cluster_release(&c);
}

/*
 * DefaultSelector reads the controller ownerReference's apiVersion with
 * ParseGroupVersion: "/v1" parses as group "", version "v1" - the same
 * GroupVersion as "v1", so a "/v1" ReplicationController owner counts.
 * "apps/v1/x" (two slashes) does not parse: no owner selector.
 * RC rc selects app=web; the pod app=web, tier=fe is owned by it.
 */
static void test_owner_api_version_parse(void)
{
	struct cluster c;
	tb_init(&c);
	int p = tb_pod(&c, "p", "");
	c.pods[p].labels = tb_labels(&c, "app=web,tier=fe");
	c.workloads = arena_array(&c.arena, 1, sizeof *c.workloads);
	struct workload *rc = &c.workloads[0];
	memset(rc, 0, sizeof *rc);
	rc->kind = WORKLOAD_REPLICATION_CONTROLLER;
	rc->ns = "default";
	rc->name = "rc";
	rc->has_map_selector = true;
	rc->map_selector = tb_labels(&c, "app=web");
	c.n_workloads = 1;
	struct owner_ref *o = arena_array(&c.arena, 1, sizeof *o);
	*o = (struct owner_ref){.api_version = "/v1", .kind = "ReplicationController",
				.name = "rc", .uid = "", .controller = true};
	c.pods[p].owners = o;
	c.pods[p].n_owners = 1;

	struct labels other = tb_labels(&c, "app=db");
	struct model_selector sel;
	model_default_selector(&c, p, &sel);
	CHECK(!model_selector_is_empty(&sel));
	CHECK(model_selector_matches(&sel, &c.pods[p].labels));
	CHECK(!model_selector_matches(&sel, &other));
	model_selector_release(&sel);

	o->api_version = "v1";
	model_default_selector(&c, p, &sel);
	CHECK(!model_selector_is_empty(&sel));
	model_selector_release(&sel);

	o->api_version = "v1/x/y";
	model_default_selector(&c, p, &sel);
	CHECK(model_selector_is_empty(&sel));
	model_selector_release(&sel);
	cluster_release(&c);
}

int main(void)
{
	test_nominated_only_own_queue();
	test_owner_api_version_parse();
	return check_done("test_filters_cycle");
}
