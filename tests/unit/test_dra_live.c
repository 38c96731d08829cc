/*
 * test_dra_live.c - the claims' status through a run (core/dra_live.h),
 * worked out by hand from kube v1.34.1: PreBind's allocation and
 * reservedFor, the allocation's node selector as createNodeSelector
 * builds it (a device of a node-local slice: that node; of a slice with a
 * node selector: that selector; allNodes: none), PostFilter's
 * deallocation, a deleted pod leaving reservedFor (the claim deallocated
 * when none is left), copies that stay apart.
 */
#include <string.h>

#include "check.h"
#include "../../core/dra_live.h"
#include "../../yaml/load.h"

#define CLAIM(n, status) "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n" \
	"metadata: {name: " n ", namespace: default}\n" \
	"spec: {devices: {requests: [{name: r, exactly: {deviceClassName: gpu}}]}}\n" status "---\n"
#define POD(n, claim) "apiVersion: v1\nkind: Pod\nmetadata: {name: " n ", uid: u-" n "}\n" \
	"spec:\n  containers: [{name: c}]\n  resourceClaims: [{name: g, resourceClaimName: " \
	claim "}]\n---\n"

/* Slices: local (node n1), zoned (node selector zone=a), everywhere
 * (allNodes).  "held" is allocated gpu-0 of local, reserved for a and for
 * a consumer not in the input. */
static const char CLUSTER[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {zone: a}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels: {zone: a}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n3, labels: {zone: b}}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: local}\n"
	"spec: {driver: d, nodeName: n1, pool: {name: l, generation: 1, resourceSliceCount: 1},"
	" devices: [{name: gpu-0}, {name: gpu-1}]}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: zoned}\n"
	"spec: {driver: d, pool: {name: z, generation: 1, resourceSliceCount: 1},"
	" nodeSelector: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In,"
	" values: [a]}]}]}, devices: [{name: z-0}]}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: everywhere}\n"
	"spec: {driver: d, allNodes: true, pool: {name: e, generation: 1, resourceSliceCount: 1},"
	" devices: [{name: e-0}]}\n---\n"
	CLAIM("held", "status:\n  allocation:\n    devices: {results: [{request: r, driver: d,"
	      " pool: l, device: gpu-0}]}\n  reservedFor: [{resource: pods, name: a, uid: u-a},"
	      " {resource: pods, name: elsewhere, uid: u-x}]\n")
	CLAIM("c1", "") CLAIM("c2", "") CLAIM("c3", "")
	POD("a", "held") POD("b", "c1") POD("c", "c1");

static struct cluster C;

static bool match(const struct node_selector *ns, const struct node *n, void *ctx)
{
	(void)ctx;
	const struct requirement *r = &ns->terms[0].exprs[0];
	const char *v = labels_get(&n->labels, r->key);
	return v && !strcmp(v, r->values[0]);
}

static int claim(const char *name)
{
	for (int k = 0; k < C.n_claims; k++)
		if (!strcmp(C.claims[k].name, name))
			return k;
	return -1;
}

static int pod(const char *name)
{
	return cluster_find_pod(&C, "default", name);
}

static const struct node *node(const char *name)
{
	return &C.nodes[cluster_find_node(&C, name)];
}

static int slice(const char *name)
{
	for (int i = 0; i < C.n_slices; i++)
		if (!strcmp(C.slices[i].name, name))
			return i;
	return -1;
}

static struct dra_alloc_device dev(const char *s, int d)
{
	return (struct dra_alloc_device){.slice = slice(s), .device = d};
}

static int n_in_use(const struct dra_live *l)
{
	struct dra_device_id ids[8];
	int n = 0;
	for (int k = 0; k < C.n_claims; k++)
		dra_live_devices(l, &C, k, ids, &n);
	return n;
}

static void test_as_loaded(void)
{
	struct dra_live *l = dra_live_new(&C);
	int held = claim("held");
	CHECK(dra_live_allocated(l, &C, held));
	CHECK(!dra_live_allocated(l, &C, claim("c1")));
	CHECK_EQ(n_in_use(l), 1);
	/* held has no node selector: every node */
	CHECK(dra_live_on_node(l, &C, held, node("n3"), match, NULL));
	CHECK(dra_live_reserved_for(l, &C, held, pod("a")));
	/* two consumers: not free even for a */
	CHECK(!dra_live_free_for(l, &C, held, pod("a")));
	/* a is deleted: the input's entry for u-a goes, u-x stays: still
	 * allocated */
	CHECK(dra_live_gone(l, &C, pod("a")));
	CHECK(!dra_live_reserved_for(l, &C, held, pod("a")));
	CHECK(dra_live_allocated(l, &C, held));
	dra_live_free(l);
}

static void test_prebind_and_after(void)
{
	struct dra_live *l = dra_live_new(&C);
	int c1 = claim("c1"), c2 = claim("c2"), c3 = claim("c3");
	/* c1: gpu-1 of the node-local slice, bound on n1 */
	struct dra_alloc_device d1 = dev("local", 1);
	dra_live_allocate(l, &C, c1, cluster_find_node(&C, "n1"), &d1, 1);
	dra_live_reserve(l, &C, c1, pod("b"));
	dra_live_reserve(l, &C, c1, pod("b"));   /* once */
	dra_live_reserve(l, &C, c1, pod("c"));
	CHECK(dra_live_on_node(l, &C, c1, node("n1"), match, NULL));
	CHECK(!dra_live_on_node(l, &C, c1, node("n2"), match, NULL));
	CHECK(!dra_live_free_for(l, &C, c1, pod("b")));
	CHECK_EQ(n_in_use(l), 2);
	/* c2: the zoned device and the everywhere one: zone a only */
	struct dra_alloc_device d2[2] = {dev("zoned", 0), dev("everywhere", 0)};
	dra_live_allocate(l, &C, c2, cluster_find_node(&C, "n2"), d2, 2);
	CHECK(dra_live_on_node(l, &C, c2, node("n1"), match, NULL));
	CHECK(dra_live_on_node(l, &C, c2, node("n2"), match, NULL));
	CHECK(!dra_live_on_node(l, &C, c2, node("n3"), match, NULL));
	/* c3: e-0 with admin access: not in use, no node restriction */
	struct dra_alloc_device d3 = dev("everywhere", 0);
	d3.admin_access = true;
	dra_live_allocate(l, &C, c3, cluster_find_node(&C, "n3"), &d3, 1);
	CHECK(dra_live_on_node(l, &C, c3, node("n3"), match, NULL));
	CHECK(dra_live_on_node(l, &C, c3, node("n1"), match, NULL));
	CHECK_EQ(n_in_use(l), 4);   /* gpu-0 (held), gpu-1, z-0, e-0 */
	/* a copy stays apart */
	struct dra_live *k = dra_live_clone(l);
	CHECK(dra_live_equal(k, l));
	CHECK(dra_live_hash(k, 7) == dra_live_hash(l, 7));
	/* b deleted: c1 still reserved for c, allocated */
	CHECK(dra_live_gone(l, &C, pod("b")));
	CHECK(dra_live_allocated(l, &C, c1));
	CHECK(dra_live_free_for(l, &C, c1, pod("c")));
	/* c deleted: reserved for none, deallocated */
	CHECK(dra_live_gone(l, &C, pod("c")));
	CHECK(!dra_live_allocated(l, &C, c1));
	CHECK(!dra_live_gone(l, &C, pod("c")));   /* nothing left to change */
	CHECK(!dra_live_equal(k, l));
	CHECK(dra_live_hash(k, 7) != dra_live_hash(l, 7));
	CHECK(dra_live_allocated(k, &C, c1));
	/* PostFilter's deallocation */
	dra_live_deallocate(k, c2);
	CHECK(!dra_live_allocated(k, &C, c2));
	CHECK(dra_live_free_for(k, &C, c2, pod("b")));
	dra_live_assign(k, l);
	CHECK(dra_live_equal(k, l));
	/* the same status reached another way hashes alike: c1 reserved for
	 * b again and released again */
	dra_live_reserve(k, &C, c1, pod("b"));
	CHECK(!dra_live_equal(k, l));
	dra_live_gone(k, &C, pod("b"));
	CHECK(dra_live_equal(k, l));
	CHECK(dra_live_hash(k, 7) == dra_live_hash(l, 7));
	dra_live_free(k);
	dra_live_free(l);
}

/* The status as words (dra_live_encode), worked out by hand: claims in
 * input order held, c1, c2, c3; slices local, zoned, everywhere; pods a,
 * b, c.  Per claim: allocation (0 none, 1 as loaded, 2 the loop's), the
 * loop's node, its results (slice, device, admin, request, subrequest),
 * then reservedFor (a pod index, or -(i+1) for the input's i-th). */
static void test_words(void)
{
	struct dra_live *l = dra_live_new(&C);
	int32_t w[1024];
	CHECK(dra_live_max_words(l) <= sizeof w / sizeof w[0]);
	static const int32_t loaded[] = {1, -1, 0, 2, -1, -2, 0, -1, 0, 0,
					 0, -1, 0, 0, 0, -1, 0, 0};
	size_t n = dra_live_encode(l, w);
	CHECK_EQ(n, sizeof loaded / sizeof loaded[0]);
	CHECK(n == sizeof loaded / sizeof loaded[0] && !memcmp(w, loaded, sizeof loaded));
	/* c1: gpu-1 of local on n1 (node 0) for its request 0, no
	 * subrequest, reserved for b (pod 1) */
	struct dra_alloc_device d1 = dev("local", 1);
	d1.sub = -1;
	dra_live_allocate(l, &C, claim("c1"), cluster_find_node(&C, "n1"), &d1, 1);
	dra_live_reserve(l, &C, claim("c1"), pod("b"));
	static const int32_t bound[] = {1, -1, 0, 2, -1, -2, 2, 0, 1, 0, 1, 0, 0, -1, 1, 1,
					0, -1, 0, 0, 0, -1, 0, 0};
	n = dra_live_encode(l, w);
	CHECK_EQ(n, sizeof bound / sizeof bound[0]);
	CHECK(n == sizeof bound / sizeof bound[0] && !memcmp(w, bound, sizeof bound));
	/* read back into a fresh block: the same status, hashed alike */
	struct dra_live *k = dra_live_new(&C);
	CHECK(dra_live_decode(k, &C, bound, n));
	CHECK(dra_live_equal(k, l));
	CHECK(dra_live_hash(k, 3) == dra_live_hash(l, 3));
	CHECK(!dra_live_as_loaded(k, &C, claim("c1")));
	CHECK(dra_live_as_loaded(k, &C, claim("held")));
	/* words that are no status of C leave the block as it was */
	int32_t bad[64];
	memcpy(bad, bound, sizeof bound);
	bad[7] = 3;                     /* a node C does not have */
	CHECK(!dra_live_decode(k, &C, bad, n));
	memcpy(bad, bound, sizeof bound);
	bad[15] = 3;                    /* a pod C does not have */
	CHECK(!dra_live_decode(k, &C, bad, n));
	memcpy(bad, loaded, sizeof loaded);
	bad[6] = 1;                     /* c1 "as loaded": it is not allocated there */
	CHECK(!dra_live_decode(k, &C, bad, sizeof loaded / sizeof loaded[0]));
	CHECK(!dra_live_decode(k, &C, bound, n - 1));   /* cut short */
	CHECK(dra_live_equal(k, l));
	dra_live_free(k);
	dra_live_free(l);
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
	test_as_loaded();
	test_prebind_and_after();
	test_words();
	cluster_release(&C);
	return check_done("test_dra_live");
}
