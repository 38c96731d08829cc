/*
 * test_dra_plugin.c - the DynamicResources verdicts (core/dra_plugin.h)
 * with kube v1.34.1's texts, worked out by hand from its PreFilter, Filter
 * and PostFilter: claims found by name or through the pod's
 * resourceClaimStatuses, missing, being deleted, not owned by the pod, a
 * missing device class; allocated claims limited to their nodes; the
 * allocator for the others; PostFilter's deallocation.
 */
#include <string.h>

#include "check.h"
#include "../../core/dra_plugin.h"
#include "../../yaml/load.h"

#define META(n) "metadata:\n  name: " n "\n  namespace: default\n"
#define CLAIM(n, extra) "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n" META(n) extra \
	"spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n"
#define ALLOC(uid_line) "status:\n  allocation:\n    devices: {results: [{request: r, " \
	"driver: gpu.example.com, pool: n1, device: gpu-0}]}\n" \
	"    nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}\n" \
	uid_line
#define POD(n, uid, claims, status) "apiVersion: v1\nkind: Pod\nmetadata: {name: " n ", uid: " uid "}\n" \
	"spec:\n  containers: [{name: c}]\n  resourceClaims: " claims "\n" status "---\n"

/* n1 (zone a) holds gpu-0 and gpu-1; "shared" has gpu-0, reserved for
 * another pod; "mine" is allocated to zone a and reserved for nobody. */
static const char CLUSTER[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {zone: a}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: a}\n"
	"spec:\n  driver: gpu.example.com\n  nodeName: n1\n"
	"  pool: {name: n1, generation: 0, resourceSliceCount: 1}\n"
	"  devices: [{name: gpu-0}, {name: gpu-1}]\n---\n"
	CLAIM("shared", "") ALLOC("  reservedFor: [{resource: pods, name: other, uid: u-other}]\n") "---\n"
	CLAIM("mine", "") ALLOC("") "---\n"
	CLAIM("free", "") "---\n"
	CLAIM("gone", "  deletionTimestamp: \"2025-01-01T00:00:00Z\"\n") "---\n"
	CLAIM("tmpl-claim", "  ownerReferences: [{apiVersion: v1, kind: Pod, name: p3, uid: u3, controller: true}]\n") "---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n" META("noclass")
	"spec: {devices: {requests: [{name: r, exactly: {deviceClassName: tpu}}]}}\n---\n"
	POD("p1", "u1", "[{name: g, resourceClaimName: free}]", "")
	POD("p2", "u2", "[{name: g, resourceClaimName: shared}]", "")
	POD("p3", "u3", "[{name: g, resourceClaimTemplateName: t}]",
	    "status: {resourceClaimStatuses: [{name: g, resourceClaimName: tmpl-claim}]}\n")
	POD("p4", "u4", "[{name: g, resourceClaimTemplateName: t}]",
	    "status: {resourceClaimStatuses: [{name: g, resourceClaimName: tmpl-claim}]}\n")
	POD("p5", "u5", "[{name: g, resourceClaimTemplateName: t}]", "")
	POD("p6", "u6", "[{name: g, resourceClaimName: missing}]", "")
	POD("p7", "u7", "[{name: g, resourceClaimName: gone}]", "")
	POD("p8", "u8", "[{name: g, resourceClaimName: noclass}]", "")
	POD("p9", "u9", "[]", "")
	POD("p10", "u10", "[{name: g, resourceClaimName: mine}]", "")
	POD("p11", "u11", "[{name: g, resourceClaimTemplateName: t}]",
	    "status: {resourceClaimStatuses: [{name: g}]}\n");

static struct cluster C;

static bool match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	const struct requirement *r = &ns->terms[0].exprs[0];
	const char *v = labels_get(&n->labels, r->key);
	return v && !strcmp(v, r->values[0]);
}

static const struct pod *pod(const char *name)
{
	return &C.pods[cluster_find_pod(&C, "default", name)];
}

static const struct node *node(const char *name)
{
	return &C.nodes[cluster_find_node(&C, name)];
}

static void prefilter_refuses(struct arena *a, const char *p, const char *msg)
{
	struct dra_prefilter pf;
	dra_prefilter(a, &C, NULL, pod(p), &pf);
	CHECK_EQ(pf.code, DRA_UNRESOLVABLE);
	CHECK_STR(pf.msg, msg);
}

static void test_prefilter(struct arena *a)
{
	struct dra_prefilter pf;
	dra_prefilter(a, &C, NULL, pod("p9"), &pf);
	CHECK_EQ(pf.code, DRA_SKIP);
	dra_prefilter(a, &C, NULL, pod("p11"), &pf);   /* the template's claim is not needed */
	CHECK_EQ(pf.code, DRA_SKIP);
	dra_prefilter(a, &C, NULL, pod("p3"), &pf);    /* its own template claim */
	CHECK_EQ(pf.code, DRA_OK);
	CHECK_EQ(pf.n_to_allocate, 1);
	prefilter_refuses(a, "p4", "ResourceClaim default/tmpl-claim was not created for pod "
			  "default/p4 (pod is not owner)");
	prefilter_refuses(a, "p5", "pod \"default/p5\": ResourceClaim not created yet");
	prefilter_refuses(a, "p6", "could not find ResourceClaim \"default/missing\"");
	prefilter_refuses(a, "p7", "resourceclaim \"gone\" is being deleted");
	prefilter_refuses(a, "p8", "request r: device class tpu does not exist");
}

static void test_filter_and_postfilter(struct arena *a)
{
	struct dra_prefilter pf;
	struct dra_filter f;
	int dealloc[8], n_dealloc;
	/* p1: gpu-0 is shared's (and mine's), so gpu-1 on n1; n2 has none */
	dra_prefilter(a, &C, NULL, pod("p1"), &pf);
	CHECK_EQ(pf.code, DRA_OK);
	CHECK_EQ(pf.n_in_use, 2);
	dra_filter(a, &C, &pf, node("n1"), match, NULL, &f);
	CHECK_EQ(f.code, DRA_OK);
	CHECK_EQ(f.alloc.n_devices, 1);
	if (f.alloc.n_devices == 1)
		CHECK_STR(f.alloc.devices[0].id.device, "gpu-1");
	dra_filter(a, &C, &pf, node("n2"), match, NULL, &f);
	CHECK_EQ(f.code, DRA_UNRESOLVABLE);
	CHECK_STR(f.msg, "cannot allocate all claims");
	/* p2: shared is allocated to zone a; reserved for another pod */
	dra_prefilter(a, &C, NULL, pod("p2"), &pf);
	CHECK_EQ(pf.n_to_allocate, 0);
	dra_filter(a, &C, &pf, node("n1"), match, NULL, &f);
	CHECK_EQ(f.code, DRA_OK);
	dra_filter(a, &C, &pf, node("n2"), match, NULL, &f);
	CHECK_EQ(f.code, DRA_UNRESOLVABLE);
	CHECK_STR(f.msg, "resourceclaim not available on the node");
	CHECK_STR(dra_postfilter(&C, pod("p2"), &pf, f.unavailable, dealloc, &n_dealloc),
		  "still not schedulable");
	CHECK_EQ(n_dealloc, 0);
	/* p10: mine is reserved for nobody: PostFilter deallocates it */
	dra_prefilter(a, &C, NULL, pod("p10"), &pf);
	dra_filter(a, &C, &pf, node("n2"), match, NULL, &f);
	CHECK_STR(dra_postfilter(&C, pod("p10"), &pf, f.unavailable, dealloc, &n_dealloc),
		  "deallocation of ResourceClaim completed");
	CHECK_EQ(n_dealloc, 1);
	CHECK_STR(C.claims[dealloc[0]].name, "mine");
	dra_prefilter(a, &C, NULL, pod("p9"), &pf);
	CHECK_STR(dra_postfilter(&C, pod("p9"), &pf, NULL, dealloc, &n_dealloc),
		  "no new claims to deallocate");
	CHECK_EQ(n_dealloc, 0);
}

int main(void)
{
	struct error err;
	error_init(&err);
	cluster_init(&C);
	if (yaml_load_buffer(&C, "t.yaml", (const unsigned char *)CLUSTER, strlen(CLUSTER),
			     &err) < 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		return 1;
	}
	struct arena a;
	arena_init(&a);
	test_prefilter(&a);
	test_filter_and_postfilter(&a);
	arena_release(&a);
	cluster_release(&C);
	return check_done("test_dra_plugin");
}
