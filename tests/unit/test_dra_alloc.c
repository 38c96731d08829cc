/*
 * test_dra_alloc.c - the structured allocator (core/dra_alloc.h) on a
 * small cluster whose answers are worked out by hand from kube v1.34.1's
 * allocator: the node's pools (nodeName, allNodes, nodeSelector; the newest
 * generation; incomplete pools refused for All only), class selectors
 * before the request's, devices in use, admin access, the prioritized list
 * in order, matchAttribute, and CEL runtime errors as errors (or unjudged
 * when kube's pool order decides whether it meets them).
 */
#include <string.h>

#include "check.h"
#include "../../core/dra_alloc.h"
#include "../../yaml/load.h"

/* Nodes n1..n4 (n4 in zone b); slices: n1 has gpu-0 (a100, 40Gi) and
 * gpu-1 (t4, 16Gi); every node sees the net.example.com pool "shared"
 * (nic-0); n3's pool says 2 slices but has 1; n4's pool has generation 1
 * (old-0) and 2 (new-0). */
static const char CLUSTER[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n3}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n4, labels: {zone: b}}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
	"spec: {selectors: [{cel: {expression: \"device.driver == 'gpu.example.com'\"}}]}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: net}\n"
	"spec: {selectors: [{cel: {expression: \"device.driver == 'net.example.com'\"}}]}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: any}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: a}\n"
	"spec:\n  driver: gpu.example.com\n  nodeName: n1\n"
	"  pool: {name: n1, generation: 0, resourceSliceCount: 1}\n"
	"  devices:\n"
	"  - {name: gpu-0, attributes: {model: {string: a100}}, capacity: {memory: {value: 40Gi}}}\n"
	"  - {name: gpu-1, attributes: {model: {string: t4}}, capacity: {memory: {value: 16Gi}}}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: b}\n"
	"spec:\n  driver: net.example.com\n  allNodes: true\n"
	"  pool: {name: shared, generation: 0, resourceSliceCount: 1}\n"
	"  devices: [{name: nic-0, attributes: {speed: {int: 10}}}]\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: c}\n"
	"spec:\n  driver: gpu.example.com\n  nodeName: n3\n"
	"  pool: {name: n3, generation: 0, resourceSliceCount: 2}\n"
	"  devices: [{name: gpu-0, attributes: {model: {string: a100}}}]\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: d}\n"
	"spec:\n  driver: gpu.example.com\n"
	"  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}\n"
	"  pool: {name: n4, generation: 1, resourceSliceCount: 1}\n"
	"  devices: [{name: old-0}]\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: e}\n"
	"spec:\n  driver: gpu.example.com\n"
	"  nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [b]}]}]}\n"
	"  pool: {name: n4, generation: 2, resourceSliceCount: 1}\n"
	"  devices: [{name: new-0}]\n---\n";

/* The test's own node selector matcher: In requirements on labels. */
static bool match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	for (int t = 0; t < ns->n_terms; t++) {
		bool ok = true;
		for (int e = 0; e < ns->terms[t].n_exprs; e++) {
			const struct requirement *r = &ns->terms[t].exprs[e];
			const char *v = labels_get(&n->labels, r->key);
			bool in = false;
			for (int k = 0; v && k < r->n_values; k++)
				in = in || !strcmp(v, r->values[k]);
			ok = ok && in;
		}
		if (ok)
			return true;
	}
	return false;
}

/* Loads CLUSTER plus claim (one ResourceClaim "c"), allocates it on node,
 * with in_use devices of n1's pool; returns the status and fills out. */
static enum dra_alloc_status run(const char *claim, const char *node, const char *in_use,
				 struct dra_alloc_out *out, struct arena *a)
{
	static struct cluster c;
	static bool loaded;
	if (loaded)
		cluster_release(&c);
	cluster_init(&c);
	loaded = true;
	struct error err;
	error_init(&err);
	char text[8192];
	snprintf(text, sizeof text, "%s"
		 "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
		 "metadata: {name: c, namespace: default}\nspec:\n  devices:\n%s", CLUSTER, claim);
	if (yaml_load_buffer(&c, "t.yaml", (const unsigned char *)text, strlen(text), &err) < 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		return (enum dra_alloc_status)-1;
	}
	struct dra_device_id used = {"gpu.example.com", "n1", in_use};
	int claims[1] = {0};
	struct dra_alloc_in in = {&c, &c.nodes[cluster_find_node(&c, node)], claims, 1,
				  &used, in_use ? 1 : 0, match, NULL};
	dra_allocate(a, &in, out);
	return out->status;
}

#define REQ(name, body) "    - name: " name "\n      exactly: {deviceClassName: gpu" body "}\n"
#define MODEL(m) ", selectors: [{cel: {expression: \"device.attributes['gpu.example.com'].model == '" m "'\"}}]"

static void expect_devices(const struct dra_alloc_out *out, const char *const *want, int n)
{
	CHECK_EQ(out->n_devices, n);
	for (int i = 0; i < n && i < out->n_devices; i++)
		CHECK_STR(out->devices[i].id.device, want[i]);
}

static void test_exact_count(struct arena *a)
{
	struct dra_alloc_out out;
	/* one device of class gpu on n1: gpu-0 is the first of pool n1 */
	CHECK_EQ(run("    requests:\n" REQ("r", ""), "n1", NULL, &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-0"}, 1);
	CHECK_STR(out.devices[0].request, "r");
	/* two a100s: only gpu-0 is one */
	CHECK_EQ(run("    requests:\n" REQ("r", ", count: 2" MODEL("a100")), "n1", NULL, &out, a),
		 DRA_ALLOC_NO_FIT);
	CHECK_STR(out.msg, "claim default/c, request r: 1 device(s) of the node match the "
		  "class and selectors, 2 needed");
	/* one a100 with gpu-0 in use */
	CHECK_EQ(run("    requests:\n" REQ("r", MODEL("a100")), "n1", "gpu-0", &out, a),
		 DRA_ALLOC_NO_FIT);
	CHECK_STR(out.msg, "claim default/c, request r: 1 of the 1 matching device(s) are in "
		  "use, 0 free, 1 needed");
	/* admin access ignores devices in use */
	CHECK_EQ(run("    requests:\n" REQ("r", ", adminAccess: true" MODEL("a100")), "n1",
		     "gpu-0", &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-0"}, 1);
	CHECK(out.devices[0].admin_access);
	/* no gpu on n2: only the net pool */
	CHECK_EQ(run("    requests:\n" REQ("r", ""), "n2", NULL, &out, a), DRA_ALLOC_NO_FIT);
	CHECK_STR(out.msg, "claim default/c, request r: no device of the node matches the "
		  "class and selectors");
	/* n4: the generation-2 slice replaces generation 1 */
	CHECK_EQ(run("    requests:\n" REQ("r", ""), "n4", NULL, &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"new-0"}, 1);
	/* n3's pool is incomplete, yet ExactCount uses what is there */
	CHECK_EQ(run("    requests:\n" REQ("r", ""), "n3", NULL, &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-0"}, 1);
}

static void test_all_and_lists(struct arena *a)
{
	struct dra_alloc_out out;
	/* All of class gpu on n1: both, in slice order */
	CHECK_EQ(run("    requests:\n" REQ("r", ", allocationMode: All"), "n1", NULL, &out, a),
		 DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-0", "gpu-1"}, 2);
	/* All with one of them in use: All wants every selectable device */
	CHECK_EQ(run("    requests:\n" REQ("r", ", allocationMode: All"), "n1", "gpu-1", &out, a),
		 DRA_ALLOC_NO_FIT);
	/* All on n3: the pool is being updated - kube's error */
	CHECK_EQ(run("    requests:\n" REQ("r", ", allocationMode: All"), "n3", NULL, &out, a),
		 DRA_ALLOC_ERROR);
	CHECK_STR(out.msg, "claim default/c, request r: asks for all devices, but resource "
		  "pool gpu.example.com/n3 is currently being updated");
	/* the prioritized list: two a100s fail, one t4 fits */
	CHECK_EQ(run("    requests:\n    - name: r\n      firstAvailable:\n"
		     "      - {name: big, deviceClassName: gpu, count: 2" MODEL("a100") "}\n"
		     "      - {name: small, deviceClassName: gpu" MODEL("t4") "}\n",
		     "n1", NULL, &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-1"}, 1);
	CHECK_STR(out.devices[0].request, "r/small");
	/* 33 devices are more than a claim may have */
	CHECK_EQ(run("    requests:\n" REQ("r", ", count: 33"), "n1", NULL, &out, a),
		 DRA_ALLOC_ERROR);
	CHECK_STR(out.msg, "claim default/c: number of requested devices 33 exceeds the "
		  "claim limit of 32");
}

static void test_constraints_and_errors(struct arena *a)
{
	struct dra_alloc_out out;
	/* two gpus with the same model: a100 and t4 differ */
	CHECK_EQ(run("    requests:\n" REQ("x", "") REQ("y", "")
		     "    constraints: [{matchAttribute: gpu.example.com/model}]\n",
		     "n1", NULL, &out, a), DRA_ALLOC_NO_FIT);
	CHECK_STR(out.msg, "the requests cannot be satisfied together (a matchAttribute "
		  "constraint)");
	/* the constraint on x only: fits, x = gpu-0, y = gpu-1 */
	CHECK_EQ(run("    requests:\n" REQ("x", "") REQ("y", "")
		     "    constraints: [{requests: [x], matchAttribute: gpu.example.com/model}]\n",
		     "n1", NULL, &out, a), DRA_ALLOC_FIT);
	expect_devices(&out, (const char *[]){"gpu-0", "gpu-1"}, 2);
	/* a CEL runtime error on n2 (one pool, one slice): kube's error */
	CHECK_EQ(run("    requests:\n    - name: r\n      exactly: {deviceClassName: net, "
		     "selectors: [{cel: {expression: \"device.attributes['net.example.com'].missing == 1\"}}]}\n",
		     "n2", NULL, &out, a), DRA_ALLOC_ERROR);
	CHECK_STR(out.msg, "claim default/c: selector #0: CEL runtime error: no such key: missing");
	/* All scans every pool: both gpus meet the same error, which kube
	 * returns in any order */
	CHECK_EQ(run("    requests:\n" REQ("r", ", allocationMode: All, selectors: [{cel: "
				      "{expression: \"device.attributes['gpu.example.com'].missing == 1\"}}]"),
		     "n1", NULL, &out, a), DRA_ALLOC_ERROR);
	CHECK_STR(out.msg, "claim default/c: selector #0: CEL runtime error: no such key: missing");
	/* on n1 (pools n1 and shared) kube may try either pool first: with
	 * shared first, nic-0 fails the class selector (driver net), and the
	 * search goes on to gpu-0, the same error as with n1 first - kube's
	 * error in every order */
	CHECK_EQ(run("    requests:\n" REQ("r", ", selectors: [{cel: {expression: "
				      "\"device.attributes['gpu.example.com'].missing == 1\"}}]"),
		     "n1", NULL, &out, a), DRA_ALLOC_ERROR);
	CHECK_STR(out.msg, "claim default/c: selector #0: CEL runtime error: no such key: missing");
	/* class any (no selector): with shared first nic-0 (speed 10) fits,
	 * with n1 first gpu-0 has no net.example.com attributes - an error:
	 * kube answers either, at random */
	CHECK_EQ(run("    requests:\n    - name: r\n      exactly: {deviceClassName: any, "
		     "selectors: [{cel: {expression: \"device.attributes['net.example.com'].speed == 10\"}}]}\n",
		     "n1", NULL, &out, a), DRA_ALLOC_UNJUDGED);
	CHECK_STR(out.msg, "kube's answer depends on the order of its pools (a Go map) and "
		  "slices: error \"claim default/c: selector #0: CEL runtime error: no such "
		  "key: speed\" in one order, a fit in another");
	/* the same request on n2 (pool shared only): a fit */
	CHECK_EQ(run("    requests:\n    - name: r\n      exactly: {deviceClassName: any, "
		     "selectors: [{cel: {expression: \"device.attributes['net.example.com'].speed == 10\"}}]}\n",
		     "n2", NULL, &out, a), DRA_ALLOC_FIT);
	CHECK(out.order_free);
}

int main(void)
{
	struct arena a;
	arena_init(&a);
	test_exact_count(&a);
	test_all_and_lists(&a);
	test_constraints_and_errors(&a);
	arena_release(&a);
	return check_done("test_dra_alloc");
}
