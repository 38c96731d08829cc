/*
 * test_load.c - the manifest loader (yaml/load.h): decoded fields, API
 * server defaults, resource classes (reference §2.7), implicit namespaces,
 * Priority admission, terminal pods, List kinds, errors, and the
 * KubeSchedulerConfiguration decoder (reference §1.1).  Every expected
 * value is worked out from the manifest text in the comment next to it.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../yaml/load.h"

/* Loads text into a fresh cluster; returns the load's status. */
static int load(struct cluster *c, const char *text, struct error *err)
{
	cluster_init(c);
	error_init(err);
	return yaml_load_buffer(c, "t.yaml", (const unsigned char *)text,
				strlen(text), err);
}

static const struct pod *pod(const struct cluster *c, const char *ns,
			     const char *name)
{
	int i = cluster_find_pod(c, ns, name);
	return i >= 0 ? &c->pods[i] : NULL;
}

static int64_t alloc(const struct cluster *c, const struct node *n,
		     const char *res)
{
	bool found = false;
	int r = cluster_res_index(c, res);
	int64_t v = r >= 0 ? resource_values_get(&n->allocatable, r, &found) : -1;
	return found ? v : -1;
}

/* ---------------------------------------------------------------- nodes */

static void test_node(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata:\n"
		"  name: n1\n"
		"  labels: {zone: a}\n"
		"spec:\n"
		"  unschedulable: true\n"
		"  taints:\n"
		"  - {key: k, value: v, effect: PreferNoSchedule}\n"
		"  - {key: gpu, effect: NoExecute}\n"
		"status:\n"
		"  allocatable: {cpu: 2500m, memory: 4Gi, pods: '110', ephemeral-storage: 1.5Mi}\n"
		"  images:\n"
		"  - names: [nginx:1.25, docker.io/library/nginx:1.25]\n"
		"    sizeBytes: 70991807\n"
		"  conditions:\n"
		"  - {type: MemoryPressure, status: 'False'}\n"
		"  - {type: Ready, status: 'True'}\n"
		"---\n"
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: n2}\n"
		"status:\n"
		"  capacity: {cpu: '1'}\n", &err);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n_nodes, 2);
	const struct node *n = &c.nodes[0];
	CHECK_STR(n->name, "n1");
	CHECK_STR(labels_get(&n->labels, "zone"), "a");
	CHECK(n->unschedulable);
	CHECK_EQ(n->n_taints, 2);
	CHECK_EQ(n->taints[0].effect, EFFECT_PREFER_NO_SCHEDULE);
	CHECK_STR(n->taints[1].value, "");          /* absent value reads "" */
	CHECK_EQ(n->taints[1].effect, EFFECT_NO_EXECUTE);
	CHECK_EQ(alloc(&c, n, "cpu"), 2500);            /* 2500m in millicores */
	CHECK_EQ(alloc(&c, n, "memory"), 4294967296LL); /* 4 * 2^30 */
	CHECK_EQ(alloc(&c, n, "pods"), 110);
	CHECK_EQ(alloc(&c, n, "ephemeral-storage"), 1572864); /* 1.5 * 2^20 */
	CHECK_EQ(n->n_images, 1);
	CHECK_EQ(n->images[0].n_names, 2);
	CHECK_EQ(n->images[0].size_bytes, 70991807);
	CHECK(n->ready);                 /* the Ready condition, not the first */
	/* SetDefaults_NodeStatus: allocatable taken from capacity */
	CHECK_EQ(alloc(&c, &c.nodes[1], "cpu"), 1000);
	CHECK(!c.nodes[1].ready);        /* no Ready condition */
	CHECK_EQ(cluster_find_node(&c, "n2"), 1);
	CHECK_EQ(cluster_find_node(&c, "n3"), -1);
	cluster_release(&c);
}

/* ------------------------------------------------------------- resources */

static void test_resource_classes(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\n"
		"kind: Node\n"
		"metadata: {name: n1}\n"
		"status:\n"
		"  allocatable:\n"
		"    nvidia.com/gpu: '2'\n"
		"    hugepages-2Mi: 2Mi\n"
		"    kubernetes.io/batch: '1'\n"
		"    attachable-volumes-aws-ebs: '39'\n"
		"    foo: '1'\n"
		"    requests.example.com/x: '1'\n", &err);
	CHECK_EQ(rc, 0);
	/* fixed indexes first */
	CHECK_STR(c.res_names[RES_CPU], "cpu");
	CHECK_STR(c.res_names[RES_MEMORY], "memory");
	CHECK_STR(c.res_names[RES_EPHEMERAL], "ephemeral-storage");
	CHECK_STR(c.res_names[RES_PODS], "pods");
	CHECK_EQ(c.res_class[RES_PODS], RESCLASS_PODS);
	/* interned in document order after the fixed four */
	CHECK_EQ(cluster_res_index(&c, "nvidia.com/gpu"), RES_FIRST_OTHER);
	CHECK_EQ(c.n_res, RES_FIRST_OTHER + 6);
	/* extended: has '/', no kubernetes.io/, requests.<name> qualified */
	CHECK_EQ(c.res_class[cluster_res_index(&c, "nvidia.com/gpu")], RESCLASS_SCALAR);
	CHECK_EQ(c.res_class[cluster_res_index(&c, "hugepages-2Mi")], RESCLASS_SCALAR);
	/* contains kubernetes.io/: prefixed native, scalar */
	CHECK_EQ(c.res_class[cluster_res_index(&c, "kubernetes.io/batch")], RESCLASS_SCALAR);
	CHECK_EQ(c.res_class[cluster_res_index(&c, "attachable-volumes-aws-ebs")], RESCLASS_SCALAR);
	/* no '/': native but unknown, ignored */
	CHECK_EQ(c.res_class[cluster_res_index(&c, "foo")], RESCLASS_IGNORED);
	/* prefixed "requests.": not extended */
	CHECK_EQ(c.res_class[cluster_res_index(&c, "requests.example.com/x")], RESCLASS_IGNORED);
	CHECK_EQ(alloc(&c, &c.nodes[0], "hugepages-2Mi"), 2097152);
	CHECK_EQ(cluster_res_index(&c, "never-used"), -1);
	cluster_release(&c);
}

static void test_limits_to_requests(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata: {name: p}\n"
		"spec:\n"
		"  overhead: {cpu: 0.5m}\n"
		"  initContainers:\n"
		"  - name: side\n"
		"    restartPolicy: Always\n"
		"    resources: {limits: {memory: 1Gi}}\n"
		"  containers:\n"
		"  - name: a\n"
		"    resources:\n"
		"      requests: {cpu: 250m}\n"
		"      limits: {cpu: 500m, memory: 256Mi, example.com/dev: '1'}\n"
		"  - name: b\n"
		"    resources:\n"
		"      requests: {cpu: '1.5', memory: 0}\n", &err);
	CHECK_EQ(rc, 0);
	const struct pod *p = pod(&c, "default", "p");
	CHECK(p != NULL);
	if (!p) {
		cluster_release(&c);
		return;
	}
	const struct container *a = &p->containers[0];
	/* the request 250m stays; memory and example.com/dev come from limits,
	 * appended in limit order */
	CHECK_EQ(a->requests.n, 3);
	CHECK_EQ(a->requests.items[0].res, RES_CPU);
	CHECK_EQ(a->requests.items[0].q.units, 0);
	CHECK_EQ(a->requests.items[0].q.nanos, 250000000);
	CHECK_EQ(a->requests.items[1].res, RES_MEMORY);
	CHECK_EQ(a->requests.items[1].q.units, 268435456);   /* 256 * 2^20 */
	CHECK_STR(c.res_names[a->requests.items[2].res], "example.com/dev");
	CHECK_EQ(a->limits.n, 3);
	/* 1.5 cores exactly; an explicit 0 memory request is kept as 0 */
	const struct container *b = &p->containers[1];
	CHECK_EQ(b->requests.n, 2);
	CHECK_EQ(b->requests.items[0].q.units, 1);
	CHECK_EQ(b->requests.items[0].q.nanos, 500000000);
	CHECK_EQ(b->requests.items[1].res, RES_MEMORY);
	CHECK_EQ(b->requests.items[1].q.units, 0);
	/* sidecar: restartPolicy Always, requests = limits */
	CHECK(p->init_containers[0].restart_always);
	CHECK_EQ(p->init_containers[0].requests.n, 1);
	CHECK_EQ(p->init_containers[0].requests.items[0].q.units, 1073741824);
	/* 0.5m = 0.0005 cores = 500000 nanos, kept exact */
	CHECK_EQ(p->overhead.n, 1);
	CHECK_EQ(p->overhead.items[0].q.units, 0);
	CHECK_EQ(p->overhead.items[0].q.nanos, 500000);
	cluster_release(&c);
}

/* ---------------------------------------------------------------- pods */

static void test_pod_defaults(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata:\n"
		"  name: p\n"
		"  uid: u-1\n"
		"  creationTimestamp: '2024-05-01T10:00:00Z'\n"
		"  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller: true}\n"
		"spec:\n"
		"  nodeSelector: {}\n"
		"  schedulingGates: [{name: example.com/wait}]\n"
		"  tolerations:\n"
		"  - {key: k, value: v}\n"
		"  - {operator: Exists}\n"
		"  topologySpreadConstraints:\n"
		"  - maxSkew: 2\n"
		"    topologyKey: zone\n"
		"    whenUnsatisfiable: DoNotSchedule\n"
		"    labelSelector: {}\n"
		"  affinity:\n"
		"    nodeAffinity:\n"
		"      requiredDuringSchedulingIgnoredDuringExecution:\n"
		"        nodeSelectorTerms:\n"
		"        - matchExpressions: [{key: gen, operator: Gt, values: ['3']}]\n"
		"          matchFields: [{key: metadata.name, operator: In, values: [n1]}]\n"
		"    podAntiAffinity:\n"
		"      preferredDuringSchedulingIgnoredDuringExecution:\n"
		"      - weight: 100\n"
		"        podAffinityTerm:\n"
		"          labelSelector: {matchLabels: {app: web}}\n"
		"          topologyKey: kubernetes.io/hostname\n"
		"  containers:\n"
		"  - name: c\n"
		"    ports: [{containerPort: 80, hostPort: 8080}]\n"
		"status:\n"
		"  nominatedNodeName: n1\n"
		"  startTime: '2024-05-01T14:30:00+02:00'\n", &err);
	CHECK_EQ(rc, 0);
	const struct pod *p = pod(&c, "default", "p");   /* namespace defaulted */
	CHECK(p != NULL);
	if (!p) {
		cluster_release(&c);
		return;
	}
	CHECK_STR(p->scheduler_name, "default-scheduler");
	CHECK_STR(p->uid, "u-1");
	CHECK_STR(p->node_name, "");
	CHECK_STR(p->nominated_node, "n1");
	/* 2024-05-01T10:00:00Z = 1714557600; 14:30+02:00 = 12:30Z = 1714566600 */
	CHECK(p->creation.has);
	CHECK_EQ(p->creation.seconds, 1714557600);
	CHECK_EQ(p->start_time.seconds, 1714566600);
	CHECK(!p->deletion.has);
	CHECK_EQ(p->n_owners, 1);
	CHECK(p->owners[0].controller);
	CHECK_STR(p->owners[0].kind, "ReplicaSet");
	CHECK(p->has_node_selector);            /* {} is non-nil */
	CHECK_EQ(p->node_selector.n, 0);
	CHECK_EQ(p->n_gates, 1);
	CHECK_STR(p->gates[0], "example.com/wait");
	/* toleration operator "" defaults to Equal; effect "" matches all */
	CHECK_EQ(p->n_tolerations, 2);
	CHECK_EQ(p->tolerations[0].op, TOL_EQUAL);
	CHECK_EQ(p->tolerations[0].effect, EFFECT_ANY);
	CHECK_EQ(p->tolerations[1].op, TOL_EXISTS);
	CHECK_STR(p->tolerations[1].key, "");
	/* spread defaults: minDomains 1, nodeAffinityPolicy Honor,
	 * nodeTaintsPolicy Ignore */
	CHECK_EQ(p->n_spread, 1);
	CHECK_EQ(p->spread[0].max_skew, 2);
	CHECK(p->spread[0].do_not_schedule);
	CHECK_EQ(p->spread[0].min_domains, 1);
	CHECK(p->spread[0].node_affinity_honor);
	CHECK(!p->spread[0].node_taints_honor);
	CHECK(p->spread[0].selector.present);
	CHECK_EQ(p->spread[0].selector.n_exprs, 0);
	/* node affinity: Gt with its integer parsed */
	CHECK(p->node_affinity.present);
	CHECK_EQ(p->node_affinity.n_terms, 1);
	CHECK_EQ(p->node_affinity.terms[0].exprs[0].op, OP_GT);
	CHECK_EQ(p->node_affinity.terms[0].exprs[0].int_value, 3);
	CHECK_EQ(p->node_affinity.terms[0].n_fields, 1);
	CHECK(!p->has_node_preferred);
	CHECK_EQ(p->n_anti_affinity_preferred, 1);
	CHECK_EQ(p->anti_affinity_preferred[0].weight, 100);
	CHECK_STR(p->anti_affinity_preferred[0].term.topology_key,
		  "kubernetes.io/hostname");
	CHECK(!p->anti_affinity_preferred[0].term.ns_selector.present);
	/* port protocol defaults to TCP */
	CHECK_EQ(p->containers[0].n_ports, 1);
	CHECK_STR(p->containers[0].ports[0].protocol, "TCP");
	CHECK_EQ(p->containers[0].ports[0].host_port, 8080);
	cluster_release(&c);
}

static void test_terminal_pods_dropped(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: done}\nstatus: {phase: Succeeded}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: failed}\nstatus: {phase: Failed}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: running}\nstatus: {phase: Running}\n",
		&err);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n_pods, 1);
	CHECK_STR(c.pods[0].name, "running");
	CHECK_STR(c.pods[0].phase, "Running");
	cluster_release(&c);
}

/* ------------------------------------------------------------- namespaces */

static void test_namespaces(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: team-b}\n"
		"---\n"
		"apiVersion: v1\nkind: Namespace\n"
		"metadata: {name: team-a, labels: {team: a, kubernetes.io/metadata.name: wrong}}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: team-a}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n", &err);
	CHECK_EQ(rc, 0);
	/* explicit first (team-a), then implicit in order of first use:
	 * team-b (pod a), default (pod c) */
	CHECK_EQ(c.n_namespaces, 3);
	CHECK_STR(c.namespaces[0].name, "team-a");
	CHECK(!c.namespaces[0].implicit);
	/* the API server overwrites the metadata.name label */
	CHECK_EQ(c.namespaces[0].labels.n, 2);
	CHECK_STR(labels_get(&c.namespaces[0].labels, "kubernetes.io/metadata.name"),
		  "team-a");
	CHECK_STR(labels_get(&c.namespaces[0].labels, "team"), "a");
	CHECK_STR(c.namespaces[1].name, "team-b");
	CHECK(c.namespaces[1].implicit);
	CHECK_STR(labels_get(&c.namespaces[1].labels, "kubernetes.io/metadata.name"),
		  "team-b");
	CHECK_STR(c.namespaces[2].name, "default");
	CHECK(c.namespaces[2].implicit);
	CHECK_EQ(cluster_find_namespace(&c, "default"), 2);
	CHECK_EQ(cluster_find_pod(&c, "team-a", "b"), 1);
	CHECK_EQ(cluster_find_pod(&c, "default", "b"), -1);
	cluster_release(&c);
}

/* ------------------------------------------------------ priority admission */

static const char classes[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: high}\nvalue: 1000\npreemptionPolicy: Never\n"
	"---\n";

static const char global_default[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: def}\nvalue: 50\nglobalDefault: true\n"
	"---\n";

/* classes (+ global default when with_default) + one pod with spec. */
static int load_pod_spec(struct cluster *c, struct error *err,
			 bool with_default, const char *spec)
{
	char buf[2048];
	snprintf(buf, sizeof buf,
		 "%s%sapiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n%s",
		 classes, with_default ? global_default : "", spec);
	return load(c, buf, err);
}

static void test_priority_classes(void)
{
	struct cluster c;
	struct error err;

	/* named class: value and policy from it */
	CHECK_EQ(load_pod_spec(&c, &err, false, "  priorityClassName: high\n"), 0);
	CHECK_EQ(c.pods[0].priority, 1000);
	CHECK(c.pods[0].preempt_never);
	CHECK_EQ(c.n_priority_classes, 1);
	CHECK(!c.priority_classes[0].global_default);
	cluster_release(&c);

	/* no class, no global default: 0, PreemptLowerPriority, no name */
	CHECK_EQ(load_pod_spec(&c, &err, false, "  nodeName: n1\n"), 0);
	CHECK_EQ(c.pods[0].priority, 0);
	CHECK(!c.pods[0].preempt_never);
	CHECK_STR(c.pods[0].priority_class, "");
	cluster_release(&c);

	/* no class, global default def=50: the pod gets its name and value */
	CHECK_EQ(load_pod_spec(&c, &err, true, "  nodeName: n1\n"), 0);
	CHECK_EQ(c.pods[0].priority, 50);
	CHECK_STR(c.pods[0].priority_class, "def");
	cluster_release(&c);

	/* explicit priority equal to the class value is accepted */
	CHECK_EQ(load_pod_spec(&c, &err, false,
			       "  priorityClassName: high\n  priority: 1000\n"), 0);
	cluster_release(&c);

	/* built-in system class without a manifest */
	CHECK_EQ(load_pod_spec(&c, &err, false,
			       "  priorityClassName: system-node-critical\n"), 0);
	CHECK_EQ(c.pods[0].priority, 2000001000);
	CHECK(!c.pods[0].preempt_never);
	cluster_release(&c);

	/* no class, no default, pod's own policy Never is kept */
	CHECK_EQ(load_pod_spec(&c, &err, false, "  preemptionPolicy: Never\n"), 0);
	CHECK(c.pods[0].preempt_never);
	cluster_release(&c);

	/* explicit priority disagreeing with the class: the admission error at
	 * spec.priority.  The class is lines 1-5, "---" line 6, so the pod
	 * starts at line 7; "spec:" is line 10, "  priorityClassName: high"
	 * line 11, "  priority: 7" line 12 with the value at column 13. */
	CHECK_EQ(load_pod_spec(&c, &err, false,
			       "  priorityClassName: high\n  priority: 7\n"), -1);
	CHECK_STR(err.msg, "t.yaml:12:13: the integer value of priority (7) must "
		  "not be provided in pod spec; priority admission controller "
		  "computed 1000 from the given PriorityClass name (spec.priority)");
	cluster_release(&c);

	/* a global default makes an explicit priority: 0 wrong too */
	CHECK_EQ(load_pod_spec(&c, &err, true, "  priority: 0\n"), -1);
	CHECK(strstr(err.msg, "computed 50") != NULL);
	cluster_release(&c);

	/* policy disagreeing with the class */
	CHECK_EQ(load_pod_spec(&c, &err, false,
			       "  priorityClassName: high\n"
			       "  preemptionPolicy: PreemptLowerPriority\n"), -1);
	CHECK(strstr(err.msg, "(spec.preemptionPolicy)") != NULL);
	cluster_release(&c);

	/* unknown class: line 11 "  priorityClassName: nope"; the value
	 * follows 2 spaces + "priorityClassName: " (19), column 22 */
	CHECK_EQ(load_pod_spec(&c, &err, false, "  priorityClassName: nope\n"), -1);
	CHECK_STR(err.msg, "t.yaml:11:22: no PriorityClass with name nope was "
		  "found (spec.priorityClassName)");
	cluster_release(&c);
}

static void test_two_global_defaults(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		"metadata: {name: a}\nvalue: 1\nglobalDefault: true\n"
		"---\n"
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		"metadata: {name: b}\nvalue: 2\nglobalDefault: true\n", &err);
	CHECK_EQ(rc, -1);
	/* document 1 is lines 1-5, "---" line 6, document 2 lines 7-11;
	 * "globalDefault: true" is line 11, value at column 16 */
	CHECK(strncmp(err.msg, "t.yaml:11:16: PriorityClass a is already marked",
		      46) == 0);
	cluster_release(&c);
}

/* ----------------------------------------------------------- other kinds */

static void test_pdb_and_workloads(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		"metadata: {name: pdb, namespace: ns1}\n"
		"spec: {minAvailable: 50%, selector: {matchLabels: {app: web}}}\n"
		"status:\n"
		"  disruptionsAllowed: 1\n"
		"  disruptedPods: {web-1: '2024-05-01T10:00:00Z'}\n"
		"---\n"
		"apiVersion: v1\nkind: ReplicationController\n"
		"metadata: {name: rc}\n"
		"spec: {template: {metadata: {labels: {app: db}}}}\n"
		"---\n"
		"apiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: ss}\n"
		"spec: {selector: {matchExpressions: [{key: app, operator: Exists}]}}\n"
		"---\n"
		"apiVersion: v1\nkind: Service\nmetadata: {name: svc}\n"
		"spec: {selector: {app: web}}\n"
		"---\n"
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: skipped}\n", &err);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n_pdbs, 1);
	const struct pdb *p = &c.pdbs[0];
	CHECK_STR(p->ns, "ns1");
	CHECK(p->min_available.set && p->min_available.percent);
	CHECK_EQ(p->min_available.value, 50);
	CHECK(!p->max_unavailable.set);
	CHECK(p->has_disruptions_allowed);
	CHECK_EQ(p->disruptions_allowed, 1);
	CHECK_EQ(p->n_disrupted_pods, 1);
	CHECK_STR(p->disrupted_pods[0], "web-1");
	CHECK_STR(labels_get(&p->selector.match_labels, "app"), "web");
	CHECK_EQ(c.n_workloads, 3);
	/* RC without a selector takes its template's labels */
	CHECK_EQ(c.workloads[0].kind, WORKLOAD_REPLICATION_CONTROLLER);
	CHECK(c.workloads[0].has_map_selector);
	CHECK_STR(labels_get(&c.workloads[0].map_selector, "app"), "db");
	CHECK_EQ(c.workloads[1].kind, WORKLOAD_STATEFUL_SET);
	CHECK_EQ(c.workloads[1].selector.n_exprs, 1);
	CHECK_EQ(c.workloads[2].kind, WORKLOAD_SERVICE);
	CHECK_STR(c.workloads[2].ns, "default");
	/* namespaces: ns1 (pdb), default (workloads), both implicit */
	CHECK_EQ(c.n_namespaces, 2);
	cluster_release(&c);
}

static void test_typed_list(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c,
		"apiVersion: v1\n"
		"kind: PodList\n"
		"items:\n"
		"- metadata: {name: a}\n"
		"- metadata: {name: b, namespace: x}\n", &err);
	CHECK_EQ(rc, 0);
	CHECK_EQ(c.n_pods, 2);      /* items lacking kind are Pods */
	CHECK_EQ(cluster_find_pod(&c, "x", "b"), 1);
	cluster_release(&c);
}

/* Loads accumulate: a second load sees the first one's objects. */
static void test_two_loads(void)
{
	struct cluster c;
	struct error err;
	CHECK_EQ(load(&c, classes, &err), 0);
	const char *p = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			"spec: {priorityClassName: high}\n";
	CHECK_EQ(yaml_load_buffer(&c, "u.yaml", (const unsigned char *)p,
				  strlen(p), &err), 0);
	CHECK_EQ(c.n_pods, 1);
	CHECK_EQ(c.pods[0].priority, 1000);
	/* the same pod again: duplicate, reported at the second's name:
	 * line 3 "metadata: {name: p}", p after 17 characters, column 18 */
	CHECK_EQ(yaml_load_buffer(&c, "v.yaml", (const unsigned char *)p,
				  strlen(p), &err), -1);
	CHECK_STR(err.msg, "v.yaml:3:18: duplicate Pod default/p (first defined "
		  "at u.yaml:1) (metadata.name)");
	CHECK_EQ(c.n_pods, 1);      /* the failed load added nothing */
	cluster_release(&c);
}

static void test_errors(void)
{
	struct cluster c;
	struct error err;
	/* "    cpu: 12x" is line 9; value at column 14 */
	CHECK_EQ(load(&c,
		"apiVersion: v1\n"
		"kind: Pod\n"
		"metadata: {name: p}\n"
		"spec:\n"
		"  containers:\n"
		"  - name: c\n"
		"    resources:\n"
		"      requests:\n"
		"        cpu: 12x\n", &err), -1);
	CHECK(strncmp(err.msg, "t.yaml:9:14: invalid quantity \"12x\": ", 37) == 0);
	CHECK(strstr(err.msg, "(spec.containers[0].resources.requests.cpu)") != NULL);
	CHECK_EQ(c.n_pods, 0);
	cluster_release(&c);

	/* apiVersion v2 for a kind we read */
	CHECK_EQ(load(&c, "apiVersion: v2\nkind: Pod\nmetadata: {name: p}\n", &err), -1);
	CHECK_STR(err.msg, "t.yaml:1:13: unsupported apiVersion \"v2\" for kind "
		  "Pod (want v1) (apiVersion)");
	cluster_release(&c);

	/* a document that is not a map */
	CHECK_EQ(load(&c, "- a\n- b\n", &err), -1);
	CHECK(strstr(err.msg, "expected a Kubernetes object") != NULL);
	cluster_release(&c);

	/* an empty input is fine */
	CHECK_EQ(load(&c, "", &err), 0);
	CHECK_EQ(c.n_pods + c.n_nodes + c.n_namespaces, 0);
	cluster_release(&c);
}

/* -------------------------------------------------------------- config */

static void test_config_default(void)
{
	struct cluster c;
	cluster_init(&c);
	const struct sched_profile *p = config_find_profile(&c.config,
							    "default-scheduler");
	CHECK(p != NULL);
	CHECK(!c.config.loaded);
	CHECK_EQ(c.config.n_profiles, 1);
	if (p) {
		CHECK(p->filter[PLUGIN_NODE_PORTS]);
		CHECK(!p->filter[PLUGIN_IMAGE_LOCALITY]);
		CHECK_EQ(p->weight[PLUGIN_TAINT_TOLERATION], 3);
		CHECK_EQ(p->weight[PLUGIN_POD_TOPOLOGY_SPREAD], 2);
		CHECK(!p->score[PLUGIN_SELECTOR_SPREAD]);
		CHECK(p->postfilter[PLUGIN_DEFAULT_PREEMPTION]);
		CHECK_EQ(p->n_fit_resources, 2);
		CHECK_EQ(p->hard_pod_affinity_weight, 1);
		CHECK_EQ(p->min_candidate_nodes_absolute, 100);
	}
	bool ign;
	CHECK_EQ(config_plugin_lookup("NodeResourcesFit", &ign), PLUGIN_NODE_RESOURCES_FIT);
	CHECK(!ign);
	CHECK_EQ(config_plugin_lookup("DefaultBinder", &ign), -1);
	CHECK(ign);
	CHECK_EQ(config_plugin_lookup("EBSLimits", &ign), PLUGIN_EBS_LIMITS);
	CHECK(!ign);
	CHECK_EQ(config_plugin_lookup("NoSuchPlugin", &ign), -1);
	CHECK(!ign);
	CHECK_STR(config_plugin_name(PLUGIN_BALANCED_ALLOCATION),
		  "NodeResourcesBalancedAllocation");
	cluster_release(&c);
}

/* The default profiles from core/plugins.def, against the reference's
 * lists (§1.1; v1.34: the delta reference §1, "multiPoint" and "Filter
 * order" rows): v1.30 filters NodeUnschedulable, NodeName,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
 * VolumeRestrictions, EBSLimits, GCEPDLimits, NodeVolumeLimits,
 * AzureDiskLimits, VolumeBinding, VolumeZone, PodTopologySpread,
 * InterPodAffinity; v1.34 the same without the three in-tree limits. */
static void test_config_release_profiles(void)
{
	static const char *const v130[] = {
		"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
		"NodePorts", "NodeResourcesFit", "VolumeRestrictions", "EBSLimits",
		"GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits",
		"VolumeBinding", "VolumeZone", "PodTopologySpread",
		"InterPodAffinity",
	};
	static const char *const v134[] = {
		"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
		"NodePorts", "NodeResourcesFit", "VolumeRestrictions",
		"NodeVolumeLimits", "VolumeBinding", "VolumeZone",
		"PodTopologySpread", "InterPodAffinity", "DynamicResources",
	};
	struct sched_profile p;
	config_default_profile(&p, KUBE_1_30);
	CHECK_EQ(p.n_filter_order, 15);
	for (int i = 0; i < p.n_filter_order && i < 15; i++)
		CHECK_STR(config_plugin_name(p.filter_order[i]), v130[i]);
	config_default_profile(&p, KUBE_1_34);
	CHECK_EQ(p.n_filter_order, 13);
	for (int i = 0; i < p.n_filter_order && i < 13; i++)
		CHECK_STR(config_plugin_name(p.filter_order[i]), v134[i]);
	CHECK(!p.filter[PLUGIN_EBS_LIMITS] && !p.prefilter[PLUGIN_GCE_PD_LIMITS]);
	CHECK(!config_plugin_in(PLUGIN_AZURE_DISK_LIMITS, KUBE_1_34));
	CHECK(config_plugin_in(PLUGIN_AZURE_DISK_LIMITS, KUBE_1_30));
	/* weights unchanged in v1.34: TaintToleration 3, NodeAffinity 2,
	 * NodeResourcesFit 1, PodTopologySpread 2, InterPodAffinity 2,
	 * BalancedAllocation 1, ImageLocality 1 */
	CHECK_EQ(p.weight[PLUGIN_TAINT_TOLERATION], 3);
	CHECK_EQ(p.weight[PLUGIN_INTER_POD_AFFINITY], 2);
	CHECK_EQ(p.weight[PLUGIN_IMAGE_LOCALITY], 1);
	CHECK(p.score[PLUGIN_BALANCED_ALLOCATION] && !p.score[PLUGIN_SELECTOR_SPREAD]);
	/* ImageLocality has no PreScore; TaintToleration no PreFilter */
	CHECK(!p.prescore[PLUGIN_IMAGE_LOCALITY] && p.prescore[PLUGIN_NODE_AFFINITY]);
	CHECK(!p.prefilter[PLUGIN_TAINT_TOLERATION] && p.prefilter[PLUGIN_NODE_PORTS]);
	CHECK(config_plugin_points(PLUGIN_DEFAULT_PREEMPTION) == PLUGIN_EP_POST_FILTER);
}

/* The default release is one constant with its name beside it; a zeroed
 * configuration is v1.30's whatever the default (this file's expected
 * values, and the unit tests', are v1.30's); the reproduce lines name
 * every release but the default. */
static void test_default_release(void)
{
	CHECK_STR(config_kube_version_name(KUBE_VERSION_DEFAULT),
		  KUBE_VERSION_DEFAULT_TEXT);
	struct sched_config c;
	config_default(&c);
	CHECK_EQ(c.kube_version, KUBE_1_30);
	char buf[256];
	CHECK_STR(config_switch_options(KUBE_VERSION_DEFAULT, 0, buf, sizeof buf), "");
	for (int v = 0; v < KUBE_VERSION_COUNT; v++) {
		if (v == KUBE_VERSION_DEFAULT)
			continue;
		char want[64];
		snprintf(want, sizeof want, " --kube-version %s",
			 config_kube_version_name(v));
		CHECK_STR(config_switch_options(v, 0, buf, sizeof buf), want);
	}
}

/* A pod without schedulerName gets the default profile's own name
 * (config_default_scheduler), found by address; a name spelled out in
 * the manifest is another string of the same text, found by comparing;
 * a config copied by cluster_init_config finds both the same, and the
 * copy's cluster starts empty. */
static void test_default_scheduler_name(void)
{
	struct cluster c;
	struct error err;
	int rc = load(&c, "apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
		      "spec: {containers: [{name: c, image: x}]}\n---\n"
		      "apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
		      "spec: {schedulerName: default-scheduler,\n"
		      "       containers: [{name: c, image: x}]}\n---\n"
		      "apiVersion: v1\nkind: Pod\nmetadata: {name: o}\n"
		      "spec: {schedulerName: other, containers: [{name: c, image: x}]}\n",
		      &err);
	CHECK_EQ(rc, 0);
	const struct pod *a = pod(&c, "default", "a");
	const struct pod *b = pod(&c, "default", "b");
	const struct pod *o = pod(&c, "default", "o");
	CHECK(a && b && o);
	if (!a || !b || !o) {
		cluster_release(&c);
		return;
	}
	CHECK(a->scheduler_name == config_default_scheduler);
	CHECK(b->scheduler_name != config_default_scheduler);
	CHECK_STR(b->scheduler_name, "default-scheduler");
	struct cluster copy;
	cluster_init_config(&copy, &c.config);
	CHECK_EQ(copy.n_pods, 0);
	CHECK_EQ(copy.n_nodes, 0);
	CHECK_EQ(copy.n_res, 4);
	CHECK_STR(copy.res_names[RES_CPU], "cpu");
	/* a name found by address (the profile's) or by text (a copy) */
	char memory[] = "memory";
	CHECK_EQ(cluster_res_index(&copy, copy.config.profiles[0].fit_resources[0].name),
		 RES_CPU);
	CHECK_EQ(cluster_res_index(&copy, memory), RES_MEMORY);
	CHECK_EQ(cluster_res_index(&copy, "example.com/gpu"), -1);
	CHECK_EQ(copy.config.n_profiles, 1);
	const struct sched_config *cfgs[] = {&c.config, &copy.config};
	for (int k = 0; k < 2; k++) {
		const struct sched_profile *p = &cfgs[k]->profiles[0];
		CHECK(config_find_profile(cfgs[k], a->scheduler_name) == p);
		CHECK(config_find_profile(cfgs[k], b->scheduler_name) == p);
		CHECK(config_find_profile(cfgs[k], o->scheduler_name) == NULL);
	}
	cluster_release(&copy);
	CHECK_EQ(copy.config.n_profiles, 0);
	CHECK(config_find_profile(&copy.config, a->scheduler_name) == NULL);
	cluster_release(&c);
}

/* With kso's SelectorSpread extension on (--extension SelectorSpread):
 * these configurations exercise it next to v1.30's plugins. */
static int load_config(struct cluster *c, struct error *err, const char *text)
{
	cluster_init(c);
	error_init(err);
	c->ext_selector_spread = true;
	return yaml_load_config_buffer(c, "cfg.yaml", (const unsigned char *)text,
				       strlen(text), err);
}

/* v1.30's registry has no SelectorSpread: NewFramework reports the first
 * extension point in getExtensionPoints order (PreScore before Score)
 * whose list names it; MultiPoint alone fails at PreFilter. */
static void test_selector_spread_refused(void)
{
	static const char *const cases[][2] = {
		{"    score:\n      enabled: [{name: SelectorSpread}]\n",
		 "cfg.yaml:7:24: ScorePlugin \"SelectorSpread\" does not exist"},
		{"    score:\n      enabled: [{name: SelectorSpread}]\n"
		 "    preScore:\n      enabled: [{name: SelectorSpread}]\n",
		 "cfg.yaml:9:24: PreScorePlugin \"SelectorSpread\" does not exist"},
		{"    multiPoint:\n      enabled: [{name: SelectorSpread}]\n",
		 "cfg.yaml:7:24: PreFilterPlugin \"SelectorSpread\" does not exist"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[1024];
		snprintf(text, sizeof text,
			 "apiVersion: kubescheduler.config.k8s.io/v1\n"
			 "kind: KubeSchedulerConfiguration\n"
			 "profiles:\n"
			 "- schedulerName: default-scheduler\n"
			 "  plugins:\n%s", cases[i][0]);
		struct cluster c;
		struct error err;
		cluster_init(&c);
		error_init(&err);
		int rc = yaml_load_config_buffer(&c, "cfg.yaml",
						 (const unsigned char *)text,
						 strlen(text), &err);
		CHECK_EQ(rc, -1);
		CHECK(!strncmp(err.msg, cases[i][1], strlen(cases[i][1])));
		if (strncmp(err.msg, cases[i][1], strlen(cases[i][1])))
			fprintf(stderr, "  got: %s\n", err.msg);
		cluster_release(&c);
		/* the extension lets kso's SelectorSpread in */
		cluster_init(&c);
		c.ext_selector_spread = true;
		CHECK_EQ(yaml_load_config_buffer(&c, "cfg.yaml",
						 (const unsigned char *)text,
						 strlen(text), &err), 0);
		cluster_release(&c);
	}
}

static void test_config_profiles(void)
{
	struct cluster c;
	struct error err;
	int rc = load_config(&c, &err,
		"apiVersion: kubescheduler.config.k8s.io/v1\n"
		"kind: KubeSchedulerConfiguration\n"
		"percentageOfNodesToScore: 50\n"
		"profiles:\n"
		"- schedulerName: default-scheduler\n"
		"- schedulerName: packer\n"
		"  plugins:\n"
		"    multiPoint:\n"
		"      enabled: [{name: NodeResourcesFit, weight: 5}]\n"
		"    score:\n"
		"      disabled: [{name: ImageLocality}]\n"
		"      enabled: [{name: SelectorSpread}, {name: TaintToleration, weight: 7}]\n"
		"    filter:\n"
		"      disabled: [{name: NodePorts}]\n"
		"    postFilter:\n"
		"      disabled: [{name: '*'}]\n"
		"  pluginConfig:\n"
		"  - name: NodeResourcesFit\n"
		"    args:\n"
		"      scoringStrategy:\n"
		"        type: MostAllocated\n"
		"        resources: [{name: cpu, weight: 2}, {name: nvidia.com/gpu}]\n"
		"  - name: InterPodAffinity\n"
		"    args: {hardPodAffinityWeight: 0}\n"
		"  - name: PodTopologySpread\n"
		"    args:\n"
		"      defaultingType: List\n"
		"      defaultConstraints:\n"
		"      - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}\n"
		"  - name: NodeAffinity\n"
		"    args:\n"
		"      addedAffinity:\n"
		"        requiredDuringSchedulingIgnoredDuringExecution:\n"
		"          nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [b]}]}]\n"
		"  - name: DefaultPreemption\n"
		"    args: {minCandidateNodesPercentage: 20, minCandidateNodesAbsolute: 5}\n"
		"  - name: VolumeBinding\n"
		"    args: {bindTimeoutSeconds: 100}\n");
	CHECK_EQ(rc, 0);
	CHECK(c.config.loaded);
	CHECK_EQ(c.config.n_profiles, 2);
	CHECK_EQ(c.config.percentage_of_nodes_to_score, 50);
	const struct sched_profile *d = config_find_profile(&c.config, "default-scheduler");
	const struct sched_profile *p = config_find_profile(&c.config, "packer");
	CHECK(d && p);
	if (!d || !p) {
		cluster_release(&c);
		return;
	}
	CHECK_EQ(d->weight[PLUGIN_NODE_RESOURCES_FIT], 1);   /* untouched */
	CHECK(d->filter[PLUGIN_NODE_PORTS]);
	/* multiPoint re-enable of a default plugin only changes its weight */
	CHECK(p->score[PLUGIN_NODE_RESOURCES_FIT]);
	CHECK_EQ(p->weight[PLUGIN_NODE_RESOURCES_FIT], 5);
	CHECK(p->filter[PLUGIN_NODE_RESOURCES_FIT]);
	/* score-specific: weight 7 overrides the default 3; SelectorSpread on
	 * with weight 0 -> 1; ImageLocality off; the rest from MultiPoint */
	CHECK_EQ(p->weight[PLUGIN_TAINT_TOLERATION], 7);
	CHECK(p->score[PLUGIN_SELECTOR_SPREAD]);
	CHECK_EQ(p->weight[PLUGIN_SELECTOR_SPREAD], 1);
	CHECK(!p->score[PLUGIN_IMAGE_LOCALITY]);
	CHECK(p->score[PLUGIN_INTER_POD_AFFINITY]);
	CHECK_EQ(p->weight[PLUGIN_INTER_POD_AFFINITY], 2);
	/* filter: NodePorts off there only */
	CHECK(!p->filter[PLUGIN_NODE_PORTS]);
	CHECK(p->filter[PLUGIN_TAINT_TOLERATION]);
	CHECK(!p->postfilter[PLUGIN_DEFAULT_PREEMPTION]);
	CHECK(p->prenqueue_gates);
	/* args */
	CHECK_EQ(p->fit_strategy, FIT_MOST_ALLOCATED);
	CHECK_EQ(p->n_fit_resources, 2);
	CHECK_EQ(p->fit_resources[0].weight, 2);
	CHECK_STR(p->fit_resources[1].name, "nvidia.com/gpu");
	CHECK_EQ(p->fit_resources[1].weight, 1);     /* 0 -> 1 */
	CHECK_EQ(p->hard_pod_affinity_weight, 0);
	CHECK(!p->spread_system_defaulting);
	CHECK_EQ(p->n_default_constraints, 1);
	CHECK_STR(p->default_constraints[0].topology_key, "zone");
	CHECK(!p->default_constraints[0].do_not_schedule);
	CHECK(p->added_required != NULL);
	if (p->added_required)
		CHECK_EQ(p->added_required->n_terms, 1);
	CHECK_EQ(p->min_candidate_nodes_percentage, 20);
	CHECK_EQ(p->min_candidate_nodes_absolute, 5);
	cluster_release(&c);
}

static void test_config_errors(void)
{
	struct cluster c;
	struct error err;
	static const char head[] =
		"apiVersion: kubescheduler.config.k8s.io/v1\n"
		"kind: KubeSchedulerConfiguration\n"
		"profiles:\n"
		"- pluginConfig:\n";
	char buf[1024];

	/* System defaulting with constraints (kube's validateDefaultingType):
	 * "      defaultingType: System" is line 7, value column 23 */
	snprintf(buf, sizeof buf, "%s"
		 "  - name: PodTopologySpread\n"
		 "    args:\n"
		 "      defaultingType: System\n"
		 "      defaultConstraints: [{maxSkew: 1, topologyKey: zone, "
		 "whenUnsatisfiable: ScheduleAnyway}]\n", head);
	CHECK_EQ(load_config(&c, &err, buf), -1);
	/* field.Invalid's detail, word for word */
	CHECK_STR(err.msg, "cfg.yaml:7:23: when .defaultConstraints are not "
		  "empty (profiles[0].pluginConfig[0].args.defaultingType)");
	CHECK(!c.config.loaded);     /* unchanged on error */
	cluster_release(&c);

	/* hardPodAffinityWeight out of 0..100 */
	snprintf(buf, sizeof buf, "%s"
		 "  - name: InterPodAffinity\n"
		 "    args: {hardPodAffinityWeight: 101}\n", head);
	CHECK_EQ(load_config(&c, &err, buf), -1);
	CHECK(strstr(err.msg, "not in valid range [0, 100]") != NULL);
	cluster_release(&c);

	/* args of a plugin kube has no args type for (an out-of-tree one)
	 * are skipped unread (PluginConfig.decodeNestedObjects) */
	snprintf(buf, sizeof buf, "%s  - name: Bogus\n    args: {x: 1}\n", head);
	CHECK_EQ(load_config(&c, &err, buf), 0);
	cluster_release(&c);

	/* kube decodes --config strictly: a field the type lacks refuses it;
	 * a plugin's args are a decode of their own, whose error kube wraps
	 * in the entry's and the plugin's names */
	snprintf(buf, sizeof buf, "%s"
		 "  - name: InterPodAffinity\n"
		 "    args: {hardPodAffinityWieght: 2}\n", head);
	CHECK_EQ(load_config(&c, &err, buf), -1);
	CHECK_STR(err.msg, "cfg.yaml:6:12: strict decoding error: decoding "
		  ".profiles[0].pluginConfig[0]: strict decoding error: decoding "
		  "args for plugin InterPodAffinity: strict decoding error: "
		  "unknown field \"hardPodAffinityWieght\" "
		  "(profiles[0].pluginConfig[0].args.hardPodAffinityWieght)");
	cluster_release(&c);

	/* a plugin enabled at a point it does not implement */
	CHECK_EQ(load_config(&c, &err,
		"apiVersion: kubescheduler.config.k8s.io/v1\n"
		"kind: KubeSchedulerConfiguration\n"
		"profiles:\n"
		"- plugins:\n"
		"    filter:\n"
		"      enabled: [{name: ImageLocality}]\n"), -1);
	CHECK(strstr(err.msg, "does not extend") != NULL);
	cluster_release(&c);
}

int main(void)
{
	test_selector_spread_refused();
	test_node();
	test_resource_classes();
	test_limits_to_requests();
	test_pod_defaults();
	test_terminal_pods_dropped();
	test_namespaces();
	test_priority_classes();
	test_two_global_defaults();
	test_pdb_and_workloads();
	test_typed_list();
	test_two_loads();
	test_errors();
	test_config_default();
	test_config_release_profiles();
	test_default_release();
	test_default_scheduler_name();
	test_config_profiles();
	test_config_errors();
	return check_done("test_load");
}
