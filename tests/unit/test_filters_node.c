/*
 * test_filters_node.c - the node-local filters: NodeUnschedulable,
 * NodeName, TaintToleration, NodeAffinity (+ its PreFilter), NodePorts,
 * NodeResourcesFit (reference §2.2-§2.7).  Expected codes and reason texts
 * are kube's, derived by hand from the reference in each comment.
 */
#include "build.h"
#include "check.h"

#include "../../core/quirks.h"

/* Runs filter f for pod on node of placement s; returns the status. */
static struct sched_status run(model_filter_fn f, const struct cluster *c,
			       const struct snapshot *s, int pod, int node)
{
	struct model_cycle cy;
	struct sched_status st;
	tb_cycle(&cy, c, s, pod);
	f(&cy, node, &st);
	return st;
}

static bool passes(model_filter_fn f, const struct cluster *c,
		   const struct snapshot *s, int pod, int node)
{
	enum sched_code code = run(f, c, s, pod, node).code;
	return code == SCHED_SUCCESS || code == SCHED_SKIP;
}

static void test_unschedulable(void)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	c.nodes[n].unschedulable = true;
	int ok = tb_node(&c, "ok", "pods=10", "");
	int bare = tb_pod(&c, "bare", "");
	int tol = tb_pod(&c, "tol", "");
	tb_toleration(&c, tol, "node.kubernetes.io/unschedulable", TOL_EXISTS, "",
		      EFFECT_NO_SCHEDULE);
	int all = tb_pod(&c, "all", "");
	tb_toleration(&c, all, "", TOL_EXISTS, "", EFFECT_ANY);
	int wrong = tb_pod(&c, "wrong", "");
	tb_toleration(&c, wrong, "node.kubernetes.io/unschedulable", TOL_EXISTS, "",
		      EFFECT_NO_EXECUTE);
	struct snapshot s;
	snapshot_init(&s, &c);

	/* No toleration: UAU "node(s) were unschedulable". */
	struct sched_status st = run(model_filter_node_unschedulable, &c, &s, bare, n);
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_EQ(st.n_reasons, 1);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) were unschedulable");
	/* A schedulable node passes whatever the pod. */
	CHECK_EQ(run(model_filter_node_unschedulable, &c, &s, bare, ok).code, SCHED_SUCCESS);
	/* Tolerating the synthetic taint {unschedulable, "", NoSchedule}. */
	CHECK(passes(model_filter_node_unschedulable, &c, &s, tol, n));
	/* Empty key + Exists + empty effect tolerates everything. */
	CHECK(passes(model_filter_node_unschedulable, &c, &s, all, n));
	/* NoExecute effect does not match the NoSchedule taint. */
	CHECK_EQ(run(model_filter_node_unschedulable, &c, &s, wrong, n).code, SCHED_UAU);
	snapshot_release(&s);
	cluster_release(&c);
}

static void test_node_name(void)
{
	struct cluster c;
	tb_init(&c);
	int n1 = tb_node(&c, "n1", "pods=10", "");
	int n2 = tb_node(&c, "n2", "pods=10", "");
	int free_pod = tb_pod(&c, "free", "");
	int pinned = tb_pod(&c, "pinned", "");
	struct snapshot s;
	snapshot_init(&s, &c);
	/* The pod is pending in the snapshot; only spec.nodeName is read. */
	c.pods[pinned].node_name = "n1";
	CHECK(passes(model_filter_node_name, &c, &s, free_pod, n1));
	CHECK(passes(model_filter_node_name, &c, &s, free_pod, n2));
	CHECK(passes(model_filter_node_name, &c, &s, pinned, n1));
	struct sched_status st = run(model_filter_node_name, &c, &s, pinned, n2);
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) didn't match the requested node name");
	snapshot_release(&s);
	cluster_release(&c);
}

/* One toleration against the taint dedicated=gpu:NoSchedule. */
static bool tolerates_gpu(const char *key, enum toleration_op op, const char *value,
			  enum taint_effect effect)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	tb_taint(&c, n, "dedicated", "gpu", EFFECT_NO_SCHEDULE);
	int p = tb_pod(&c, "p", "");
	tb_toleration(&c, p, key, op, value, effect);
	struct snapshot s;
	snapshot_init(&s, &c);
	bool ok = passes(model_filter_taint_toleration, &c, &s, p, n);
	snapshot_release(&s);
	cluster_release(&c);
	return ok;
}

static void test_taints(void)
{
	/* Truth table (reference §2.4) against dedicated=gpu:NoSchedule. */
	CHECK(tolerates_gpu("", TOL_EXISTS, "", EFFECT_ANY));            /* empty key Exists */
	CHECK(tolerates_gpu("", TOL_EXISTS, "", EFFECT_NO_SCHEDULE));    /* ... of that effect */
	CHECK(!tolerates_gpu("", TOL_EXISTS, "", EFFECT_NO_EXECUTE));    /* ... other effect */
	CHECK(tolerates_gpu("dedicated", TOL_EQUAL, "gpu", EFFECT_ANY)); /* empty effect */
	CHECK(!tolerates_gpu("dedicated", TOL_EQUAL, "cpu", EFFECT_ANY)); /* value mismatch */
	CHECK(tolerates_gpu("dedicated", TOL_EXISTS, "whatever", EFFECT_NO_SCHEDULE)); /* Exists ignores value */
	CHECK(!tolerates_gpu("dedicated", TOL_EQUAL, "gpu", EFFECT_PREFER_NO_SCHEDULE)); /* effect mismatch */
	CHECK(!tolerates_gpu("other", TOL_EXISTS, "", EFFECT_ANY));      /* key mismatch */

	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	tb_taint(&c, n, "soft", "x", EFFECT_PREFER_NO_SCHEDULE);
	tb_taint(&c, n, "dedicated", "gpu", EFFECT_NO_SCHEDULE);
	tb_taint(&c, n, "evict", "", EFFECT_NO_EXECUTE);
	int soft = tb_node(&c, "soft", "pods=10", "");
	tb_taint(&c, soft, "soft", "x", EFFECT_PREFER_NO_SCHEDULE);
	int bare = tb_pod(&c, "bare", "");
	int gpu = tb_pod(&c, "gpu", "");
	tb_toleration(&c, gpu, "dedicated", TOL_EQUAL, "gpu", EFFECT_NO_SCHEDULE);
	struct snapshot s;
	snapshot_init(&s, &c);
	/* PreferNoSchedule never filters; the first untolerated NoSchedule /
	 * NoExecute taint in spec order is named. */
	CHECK(passes(model_filter_taint_toleration, &c, &s, bare, soft));
	struct sched_status st = run(model_filter_taint_toleration, &c, &s, bare, n);
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) had untolerated taint {dedicated: gpu}");
	/* With dedicated tolerated, the NoExecute taint (empty value) is next. */
	st = run(model_filter_taint_toleration, &c, &s, gpu, n);
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) had untolerated taint {evict: }");
	snapshot_release(&s);
	cluster_release(&c);
}

static void test_node_affinity(void)
{
	struct cluster c;
	tb_init(&c);
	int ssd_a = tb_node(&c, "ssd-a", "pods=10", "disk=ssd,zone=a,cores=8");
	int ssd_b = tb_node(&c, "ssd-b", "pods=10", "disk=ssd,zone=b,cores=4");
	int hdd_a = tb_node(&c, "hdd-a", "pods=10", "disk=hdd,zone=a,cores=abc");
	int bare_n = tb_node(&c, "bare", "pods=10", "");

	/* nodeSelector disk=ssd AND required zone In [a]. */
	int both = tb_pod(&c, "both", "");
	c.pods[both].has_node_selector = true;
	c.pods[both].node_selector = tb_labels(&c, "disk=ssd");
	struct requirement zone_a = tb_req(&c, "zone", OP_IN, "a");
	struct node_selector_term t = tb_term(&c, &zone_a, 1, NULL, 0);
	tb_required(&c, both, &t, 1);

	/* Gt 4 / Lt 5 on cores. */
	int gt = tb_pod(&c, "gt", "");
	struct requirement cores_gt = tb_req(&c, "cores", OP_GT, "4");
	t = tb_term(&c, &cores_gt, 1, NULL, 0);
	tb_required(&c, gt, &t, 1);
	int lt = tb_pod(&c, "lt", "");
	struct requirement cores_lt = tb_req(&c, "cores", OP_LT, "5");
	t = tb_term(&c, &cores_lt, 1, NULL, 0);
	tb_required(&c, lt, &t, 1);

	/* matchFields metadata.name In [ssd-b]. */
	int named = tb_pod(&c, "named", "");
	struct requirement name_b = tb_req(&c, "metadata.name", OP_IN, "ssd-b");
	t = tb_term(&c, NULL, 0, &name_b, 1);
	tb_required(&c, named, &t, 1);

	/* A present required selector with no terms matches no node. */
	int empty = tb_pod(&c, "empty", "");
	tb_required(&c, empty, NULL, 0);
	int free_pod = tb_pod(&c, "free", "");

	struct snapshot s;
	snapshot_init(&s, &c);
	model_filter_fn f = model_filter_node_affinity;
	CHECK(passes(f, &c, &s, both, ssd_a));
	struct sched_status st = run(f, &c, &s, both, ssd_b);   /* zone b */
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) didn't match Pod's node affinity/selector");
	CHECK(!passes(f, &c, &s, both, hdd_a));                  /* disk hdd */
	/* Gt 4: 8 > 4 yes; 4 > 4 no (strict); "abc" not an integer; missing. */
	CHECK(passes(f, &c, &s, gt, ssd_a));
	CHECK(!passes(f, &c, &s, gt, ssd_b));
	CHECK(!passes(f, &c, &s, gt, hdd_a));
	CHECK(!passes(f, &c, &s, gt, bare_n));
	/* Lt 5: 4 < 5 yes; 8 no. */
	CHECK(passes(f, &c, &s, lt, ssd_b));
	CHECK(!passes(f, &c, &s, lt, ssd_a));
	/* metadata.name. */
	CHECK(passes(f, &c, &s, named, ssd_b));
	CHECK(!passes(f, &c, &s, named, ssd_a));
	/* No terms: nothing matches. */
	CHECK(!passes(f, &c, &s, empty, bare_n));
	/* No nodeSelector, no affinity, no addedAffinity: PreFilter Skip. */
	CHECK_EQ(run(f, &c, &s, free_pod, bare_n).code, SCHED_SKIP);

	/* The profile's addedAffinity (scheduler-enforced) is checked first. */
	struct requirement zone_a2 = tb_req(&c, "zone", OP_IN, "a");
	struct node_selector_term at = tb_term(&c, &zone_a2, 1, NULL, 0);
	struct node_selector added = {true, &at, 1};
	tb_profile(&c)->added_required = &added;
	st = run(f, &c, &s, free_pod, ssd_b);
	CHECK_EQ(st.code, SCHED_UAU);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) didn't match scheduler-enforced node affinity");
	CHECK_EQ(run(f, &c, &s, free_pod, ssd_a).code, SCHED_SUCCESS);
	/* ... and named: ssd-b fails the added affinity before the pod's. */
	st = run(f, &c, &s, named, ssd_b);
	CHECK_STR(sched_status_reason(&st, 0), "node(s) didn't match scheduler-enforced node affinity");
	tb_profile(&c)->added_required = NULL;
	snapshot_release(&s);
	cluster_release(&c);
}

/* PreFilter of pod: returns the code and fills allowed[0..3]. */
static enum sched_code prefilter(struct cluster *c, int pod, bool allowed[4])
{
	struct snapshot s;
	snapshot_init(&s, c);
	struct model_cycle cy;
	struct sched_status st;
	tb_cycle(&cy, c, &s, pod);
	for (int i = 0; i < 4; i++)
		allowed[i] = true;
	bool restricted;
	model_prefilter_node_affinity(&cy, allowed, &restricted, &st);
	snapshot_release(&s);
	if (st.code == SCHED_UAU)
		CHECK_STR(sched_status_reason(&st, 0), "pod affinity terms conflict");
	return st.code;
}

static void test_prefilter_node_affinity(void)
{
	struct cluster c;
	tb_init(&c);
	tb_node(&c, "n1", "pods=10", "");
	tb_node(&c, "n2", "pods=10", "");
	tb_node(&c, "n3", "pods=10", "");
	tb_node(&c, "n4", "pods=10", "");
	bool allowed[4];

	/* Union of terms: [name In n1,n2] OR [name In n3] -> {n1, n2, n3}. */
	int u = tb_pod(&c, "u", "");
	struct requirement f12 = tb_req(&c, "metadata.name", OP_IN, "n1,n2");
	struct requirement f3 = tb_req(&c, "metadata.name", OP_IN, "n3");
	struct node_selector_term ts[2] = {tb_term(&c, NULL, 0, &f12, 1),
					   tb_term(&c, NULL, 0, &f3, 1)};
	tb_required(&c, u, ts, 2);
	CHECK_EQ(prefilter(&c, u, allowed), SCHED_SUCCESS);
	CHECK(allowed[0] && allowed[1] && allowed[2] && !allowed[3]);

	/* Intersection inside a term: n1,n2 AND n2 -> {n2}. */
	int in = tb_pod(&c, "in", "");
	struct requirement f2 = tb_req(&c, "metadata.name", OP_IN, "n2");
	struct requirement both[2] = {f12, f2};
	struct node_selector_term ti = tb_term(&c, NULL, 0, both, 2);
	tb_required(&c, in, &ti, 1);
	CHECK_EQ(prefilter(&c, in, allowed), SCHED_SUCCESS);
	CHECK(!allowed[0] && allowed[1] && !allowed[2] && !allowed[3]);

	/* Conflict: n3 AND n2 in the only term -> empty -> UAU. */
	int conflict = tb_pod(&c, "conflict", "");
	struct requirement clash[2] = {f3, f2};
	struct node_selector_term tc = tb_term(&c, NULL, 0, clash, 2);
	tb_required(&c, conflict, &tc, 1);
	CHECK_EQ(prefilter(&c, conflict, allowed), SCHED_UAU);

	/* A term without a name field lifts the restriction. */
	int open = tb_pod(&c, "open", "");
	struct requirement zone = tb_req(&c, "zone", OP_EXISTS, "");
	struct node_selector_term to[2] = {tb_term(&c, NULL, 0, &f3, 1),
					   tb_term(&c, &zone, 1, NULL, 0)};
	tb_required(&c, open, to, 2);
	CHECK_EQ(prefilter(&c, open, allowed), SCHED_SUCCESS);
	CHECK(allowed[0] && allowed[1] && allowed[2] && allowed[3]);

	/* A name no node has: the result {ghost} is not empty (no conflict)
	 * but excludes every node. */
	int ghost = tb_pod(&c, "ghost", "");
	struct requirement fg = tb_req(&c, "metadata.name", OP_IN, "ghost");
	struct node_selector_term tg = tb_term(&c, NULL, 0, &fg, 1);
	tb_required(&c, ghost, &tg, 1);
	CHECK_EQ(prefilter(&c, ghost, allowed), SCHED_SUCCESS);
	CHECK(!allowed[0] && !allowed[1] && !allowed[2] && !allowed[3]);

	/* Nothing to check: Skip. */
	int free_pod = tb_pod(&c, "free", "");
	CHECK_EQ(prefilter(&c, free_pod, allowed), SCHED_SKIP);
	cluster_release(&c);
}

/* A node n with one pod holding host port 80/proto at ip, and a pod that
 * wants want_port/want_proto at want_ip: does the filter pass? */
static bool ports_fit(const char *ip, const char *proto, int want_port,
		      const char *want_proto, const char *want_ip)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	int old = tb_pod(&c, "old", "n");
	tb_port(&c, tb_container(&c, old, "", false, false), 80, proto, ip);
	int p = tb_pod(&c, "p", "");
	tb_port(&c, tb_container(&c, p, "", false, false), want_port, want_proto, want_ip);
	struct snapshot s;
	snapshot_init(&s, &c);
	struct sched_status st = run(model_filter_node_ports, &c, &s, p, n);
	if (st.code == SCHED_UNSCHEDULABLE)
		CHECK_STR(sched_status_reason(&st, 0),
			  "node(s) didn't have free ports for the requested pod ports");
	snapshot_release(&s);
	cluster_release(&c);
	return st.code == SCHED_SUCCESS;
}

static void test_ports(void)
{
	/* Used 0.0.0.0:80/TCP (empty host IP = 0.0.0.0, empty protocol = TCP). */
	CHECK(!ports_fit("", "TCP", 80, "TCP", ""));
	CHECK(!ports_fit("", "", 80, "TCP", "10.0.0.1"));  /* specific vs all */
	CHECK(ports_fit("", "TCP", 80, "UDP", ""));        /* other protocol */
	CHECK(ports_fit("", "TCP", 81, "TCP", ""));        /* other port */
	/* Used 10.0.0.1:80/TCP. */
	CHECK(!ports_fit("10.0.0.1", "TCP", 80, "TCP", "0.0.0.0"));  /* all vs specific */
	CHECK(!ports_fit("10.0.0.1", "TCP", 80, "TCP", "10.0.0.1")); /* same IP */
	CHECK(ports_fit("10.0.0.1", "TCP", 80, "TCP", "10.0.0.2"));  /* other IP */
	CHECK(ports_fit("10.0.0.1", "TCP", 80, "SCTP", "10.0.0.1")); /* other proto */

	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	/* Init-container host ports are ignored on both sides. */
	int old = tb_pod(&c, "old", "n");
	tb_port(&c, tb_container(&c, old, "", true, false), 80, "TCP", "");
	int a = tb_pod(&c, "a", "n");
	tb_port(&c, tb_container(&c, a, "", false, false), 90, "TCP", "");
	int b = tb_pod(&c, "b", "n");
	tb_port(&c, tb_container(&c, b, "", false, false), 90, "TCP", "");
	int p = tb_pod(&c, "p", "");
	tb_port(&c, tb_container(&c, p, "", false, false), 80, "TCP", "");
	int q = tb_pod(&c, "q", "");
	tb_port(&c, tb_container(&c, q, "", false, false), 90, "TCP", "");
	int none = tb_pod(&c, "none", "");
	tb_port(&c, tb_container(&c, none, "", true, false), 90, "TCP", "");
	struct snapshot s;
	snapshot_init(&s, &c);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, p, n).code, SCHED_SUCCESS);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, q, n).code, SCHED_UNSCHEDULABLE);
	/* No wanted host port (only an init container's): PreFilter Skip. */
	CHECK_EQ(run(model_filter_node_ports, &c, &s, none, n).code, SCHED_SKIP);

	/* RemovePod(a) during the cycle (a preemption victim): kube's
	 * UsedPorts set drops 0.0.0.0:90/TCP although b still holds it, so q
	 * fits (QUIRK_PORTS_SET_REMOVAL); intended: b still blocks. */
	struct snapshot view;
	snapshot_clone(&view, &s);
	view.pod_node[a] = SNAP_GONE;
	struct model_delta d = {a, n, -1};
	struct model_cycle cy;
	struct sched_status st;
	tb_cycle(&cy, &c, &s, q);
	cy.view = &view;
	cy.deltas = &d;
	cy.n_deltas = 1;
	tb_cycle_state(&cy);
	model_filter_node_ports(&cy, n, &st);
	CHECK_EQ(st.code, SCHED_SUCCESS);
	tb_quirk(&c, QUIRK_PORTS_SET_REMOVAL, false);
	model_filter_node_ports(&cy, n, &st);
	CHECK_EQ(st.code, SCHED_UNSCHEDULABLE);
	tb_quirk(&c, QUIRK_PORTS_SET_REMOVAL, true);
	/* Removing a and adding it back (reprieve) holds the port again. */
	struct model_delta d2[2] = {{a, n, -1}, {a, n, +1}};
	cy.view = &s;
	cy.deltas = d2;
	cy.n_deltas = 2;
	model_filter_node_ports(&cy, n, &st);
	CHECK_EQ(st.code, SCHED_UNSCHEDULABLE);
	snapshot_release(&view);
	snapshot_release(&s);
	cluster_release(&c);
}

/* v1.34 (delta §5.5): the host ports of sidecars (restartable init
 * containers) count on both sides; a plain init container's never do.
 * n runs side (sidecar port 80) and init (plain init container port
 * 81); p wants 80 in a regular container, q 81, sc 82 in its sidecar
 * while w (on m) holds 82.
 *   v1.30: p fits (the sidecar's 80 is not read), q fits, sc has no
 *          wanted port (PreFilter Skip).
 *   v1.34: p conflicts with side's 80; q still fits (81 is a plain init
 *          container's); sc wants 82 and conflicts on m. */
static void test_ports_sidecars_1_34(void)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "pods=10", "");
	int m = tb_node(&c, "m", "pods=10", "");
	int side = tb_pod(&c, "side", "n");
	tb_port(&c, tb_container(&c, side, "", true, true), 80, "TCP", "");
	tb_container(&c, side, "", false, false);
	int init = tb_pod(&c, "init", "n");
	tb_port(&c, tb_container(&c, init, "", true, false), 81, "TCP", "");
	tb_container(&c, init, "", false, false);
	int w = tb_pod(&c, "w", "m");
	tb_port(&c, tb_container(&c, w, "", false, false), 82, "TCP", "");
	int p = tb_pod(&c, "p", "");
	tb_port(&c, tb_container(&c, p, "", false, false), 80, "TCP", "");
	int q = tb_pod(&c, "q", "");
	tb_port(&c, tb_container(&c, q, "", false, false), 81, "TCP", "");
	int sc = tb_pod(&c, "sc", "");
	tb_port(&c, tb_container(&c, sc, "", true, true), 82, "TCP", "");
	tb_container(&c, sc, "", false, false);
	struct snapshot s;
	snapshot_init(&s, &c);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, p, n).code, SCHED_SUCCESS);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, q, n).code, SCHED_SUCCESS);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, sc, m).code, SCHED_SKIP);
	c.config.kube_version = KUBE_1_34;
	CHECK_EQ(run(model_filter_node_ports, &c, &s, p, n).code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, q, n).code, SCHED_SUCCESS);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, sc, m).code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(run(model_filter_node_ports, &c, &s, sc, n).code, SCHED_SUCCESS);
	snapshot_release(&s);
	cluster_release(&c);
}

static void test_resources_fit(void)
{
	struct cluster c;
	tb_init(&c);
	int n = tb_node(&c, "n", "cpu=2,memory=4Gi,ephemeral-storage=10Gi,pods=2", "");
	int full = tb_node(&c, "full", "cpu=2,memory=4Gi,pods=1", "");
	int nopods = tb_node(&c, "nopods", "cpu=2,memory=4Gi", "");
	int old = tb_pod(&c, "old", "n");
	tb_container(&c, old, "cpu=1500m,memory=1Gi", false, false);
	int old2 = tb_pod(&c, "old2", "full");
	tb_container(&c, old2, "cpu=2", false, false);

	int big = tb_pod(&c, "big", "");           /* 1 cpu, 4Gi, 11Gi eph */
	tb_container(&c, big, "cpu=1,memory=4Gi,ephemeral-storage=11Gi", false, false);
	int exact = tb_pod(&c, "exact", "");       /* exactly what is free */
	tb_container(&c, exact, "cpu=500m,memory=3Gi,ephemeral-storage=10Gi", false, false);
	int nothing = tb_pod(&c, "nothing", "");
	tb_container(&c, nothing, "", false, false);
	int gpu = tb_pod(&c, "gpu", "");
	tb_container(&c, gpu, "nvidia.com/gpu=1,hugepages-2Mi=2Mi", false, false);
	struct snapshot s;
	snapshot_init(&s, &c);
	model_filter_fn f = model_filter_node_resources_fit;

	/* n: free cpu 2000-1500 = 500 < 1000, memory 4Gi-1Gi = 3Gi < 4Gi,
	 * ephemeral 10Gi < 11Gi; 1 pod + 1 <= 2.  Reasons in kube's order. */
	struct sched_status st = run(f, &c, &s, big, n);
	CHECK_EQ(st.code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(st.n_reasons, 3);
	CHECK_STR(sched_status_reason(&st, 0), "Insufficient cpu");
	CHECK_STR(sched_status_reason(&st, 1), "Insufficient memory");
	CHECK_STR(sched_status_reason(&st, 2), "Insufficient ephemeral-storage");
	/* Request == free passes (strictly greater fails). */
	CHECK_EQ(run(f, &c, &s, exact, n).code, SCHED_SUCCESS);
	/* full: 1 pod + 1 > 1 -> Too many pods first, then cpu (0 free). */
	st = run(f, &c, &s, exact, full);
	CHECK_EQ(st.code, SCHED_UNSCHEDULABLE);
	CHECK_EQ(st.n_reasons, 3);
	CHECK_STR(sched_status_reason(&st, 0), "Too many pods");
	CHECK_STR(sched_status_reason(&st, 1), "Insufficient cpu");
	/* ephemeral: the node lists none (0 free) -> the third reason. */
	CHECK_STR(sched_status_reason(&st, 2), "Insufficient ephemeral-storage");
	/* A pod requesting nothing only meets the pod-count check. */
	CHECK_EQ(run(f, &c, &s, nothing, n).code, SCHED_SUCCESS);
	st = run(f, &c, &s, nothing, full);
	CHECK_EQ(st.n_reasons, 1);
	CHECK_STR(sched_status_reason(&st, 0), "Too many pods");
	/* No allocatable pods: every pod is "Too many pods". */
	st = run(f, &c, &s, nothing, nopods);
	CHECK_EQ(st.code, SCHED_UNSCHEDULABLE);
	CHECK_STR(sched_status_reason(&st, 0), "Too many pods");

	/* Scalars the node lacks, in resource order. */
	st = run(f, &c, &s, gpu, n);
	CHECK_EQ(st.n_reasons, 2);
	CHECK_STR(sched_status_reason(&st, 0), "Insufficient nvidia.com/gpu");
	CHECK_STR(sched_status_reason(&st, 1), "Insufficient hugepages-2Mi");
	/* ignoredResources skips extended resources only (hugepages-2Mi is
	 * not extended, so listing it changes nothing). */
	struct sched_profile *prof = tb_profile(&c);
	prof->fit_ignored_resources[0] = "nvidia.com/gpu";
	prof->fit_ignored_resources[1] = "hugepages-2Mi";
	prof->n_fit_ignored_resources = 2;
	st = run(f, &c, &s, gpu, n);
	CHECK_EQ(st.n_reasons, 1);
	CHECK_STR(sched_status_reason(&st, 0), "Insufficient hugepages-2Mi");
	prof->n_fit_ignored_resources = 0;
	/* ignoredResourceGroups: the part before '/'. */
	prof->fit_ignored_groups[0] = "nvidia.com";
	prof->n_fit_ignored_groups = 1;
	st = run(f, &c, &s, gpu, n);
	CHECK_EQ(st.n_reasons, 1);
	CHECK_STR(sched_status_reason(&st, 0), "Insufficient hugepages-2Mi");
	prof->fit_ignored_groups[0] = "nvidia";
	st = run(f, &c, &s, gpu, n);
	CHECK_EQ(st.n_reasons, 2);
	prof->n_fit_ignored_groups = 0;

	/* The placement decides: without old on n, big fits cpu (1000 of
	 * 2000) and memory (4Gi of 4Gi); only ephemeral 11Gi > 10Gi remains. */
	s.pod_node[old] = SNAP_GONE;
	st = run(f, &c, &s, big, n);
	CHECK_EQ(st.n_reasons, 1);
	CHECK_STR(sched_status_reason(&st, 0), "Insufficient ephemeral-storage");
	snapshot_release(&s);
	cluster_release(&c);
}

/* sched_status_add (length worked out inline) and sched_status_add_len
 * (length given) build the same status.  kube cuts no reason: one of
 * SCHED_STATUS_LONG bytes or more is kept whole in the table of long
 * reasons, a 9-byte reference in the status (the same for the same text,
 * so two statuses compare bytewise as their reasons do). */
static void test_status_add(void)
{
	struct sched_status a, b;
	sched_status_ok(&a);
	sched_status_ok(&b);
	sched_status_add(&a, SCHED_UNSCHEDULABLE, "Too many pods");
	sched_status_add_len(&b, SCHED_UNSCHEDULABLE, "Too many pods", 13);
	sched_status_add(&a, SCHED_UAU, "");
	sched_status_add_len(&b, SCHED_UAU, "", 0);
	CHECK_EQ(a.code, SCHED_UAU);
	CHECK_EQ(b.code, SCHED_UAU);
	CHECK_EQ(a.n_reasons, 2);
	CHECK_EQ(b.n_reasons, 2);
	CHECK_STR(sched_status_reason(&a, 0), "Too many pods");
	CHECK_STR(sched_status_reason(&b, 0), "Too many pods");
	CHECK_STR(sched_status_reason(&b, 1), "");
	/* 13 + 1 and 0 + 1 bytes used; a 600-byte reason whole, 9 + 1 more */
	char big[601];
	memset(big, 'x', 600);
	big[600] = '\0';
	sched_status_add(&a, SCHED_UNSCHEDULABLE, big);
	sched_status_add_len(&b, SCHED_UNSCHEDULABLE, big, 600);
	CHECK_EQ(a.n_reasons, 3);
	CHECK_STR(sched_status_reason(&a, 2), big);
	CHECK_STR(sched_status_reason(&b, 2), big);
	CHECK_EQ(a.used, 25);
	CHECK(memcmp(a.text, b.text, a.used) == 0);
	sched_status_add(&a, SCHED_UNSCHEDULABLE, "kept");
	CHECK_EQ(a.n_reasons, 4);
	CHECK_STR(sched_status_reason(&a, 3), "kept");
	/* a formatted one and a joined one: 2 x 600 bytes and a colon */
	struct sched_status f;
	sched_status_ok(&f);
	sched_status_fail(&f, SCHED_ERROR, "%s:%s", big, big);
	const char *parts[3] = {big, ":", big};
	sched_status_add_join(&f, SCHED_ERROR, parts, 3);
	CHECK_EQ(f.n_reasons, 2);
	CHECK_EQ(strlen(sched_status_reason(&f, 0)), (size_t)1201);
	CHECK_EQ(strncmp(sched_status_reason(&f, 0) + 595, "xxxxx:xxxxx", 11), 0);
	CHECK_STR(sched_status_reason(&f, 1), sched_status_reason(&f, 0));
	/* 16 reasons at most: the 17th is dropped */
	for (int i = 4; i < SCHED_MAX_REASONS; i++)
		sched_status_add(&a, SCHED_UNSCHEDULABLE, "r");
	sched_status_add(&a, SCHED_UNSCHEDULABLE, "dropped");
	CHECK_EQ(a.n_reasons, SCHED_MAX_REASONS);
	CHECK_STR(sched_status_reason(&a, SCHED_MAX_REASONS - 1), "r");
}

int main(void)
{
	test_status_add();
	test_unschedulable();
	test_node_name();
	test_taints();
	test_node_affinity();
	test_prefilter_node_affinity();
	test_ports();
	test_ports_sidecars_1_34();
	test_resources_fit();
	return check_done("test_filters_node");
}
