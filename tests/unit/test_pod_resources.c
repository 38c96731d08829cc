/*
 * test_pod_resources.c - pod-level resources (spec.resources) and
 * in-place resize (status resources) as v1.34 accounts them
 * (yaml/pod_resources.c, model/pod_requests.c, oracle/pod_requests.c;
 * v1.34 delta §6).  v1.30 drops both.  Every expected value is worked out
 * from the manifest in the comment; both engines must give it.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../model/pod_requests.h"
#include "../../oracle/internal.h"
#include "../../yaml/load.h"

#define MI (1024LL * 1024LL)
#define GI (1024LL * MI)

static const char manifest[] =
	/* a: pod-level limits cpu 2 / memory 1Gi, requests cpu 1: memory's
	 * request defaults to its limit; containers c1 (100m, 100Mi), c2
	 * (none) */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: a}\n"
	"spec:\n"
	"  resources: {requests: {cpu: \"1\"}, limits: {cpu: \"2\", memory: 1Gi}}\n"
	"  containers:\n"
	"  - {name: c1, image: x, resources: {requests: {cpu: 100m, memory: 100Mi}}}\n"
	"  - {name: c2, image: x}\n"
	"---\n"
	/* b: pod-level requests memory 512Mi only; c1 without requests */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: b}\n"
	"spec:\n"
	"  resources: {requests: {memory: 512Mi}}\n"
	"  containers: [{name: c1, image: x}]\n"
	"---\n"
	/* c: bound, c (500m, 1Gi) resized: status requests 1 / 512Mi,
	 * allocated cpu 750m */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: c}\n"
	"spec:\n  nodeName: n1\n"
	"  containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]\n"
	"status:\n  containerStatuses:\n"
	"  - {name: c, resources: {requests: {cpu: \"1\", memory: 512Mi}},\n"
	"     allocatedResources: {cpu: 750m}}\n"
	"---\n"
	/* d: as c, with PodResizePending Infeasible */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: d}\n"
	"spec:\n  nodeName: n1\n"
	"  containers: [{name: c, image: x, resources: {requests: {cpu: 500m, memory: 1Gi}}}]\n"
	"status:\n"
	"  conditions: [{type: PodResizePending, status: \"True\", reason: Infeasible}]\n"
	"  containerStatuses:\n"
	"  - {name: c, resources: {requests: {cpu: \"1\", memory: 512Mi}},\n"
	"     allocatedResources: {cpu: 750m}}\n"
	"---\n"
	/* e: bound; sidecar s (100m, status 300m), plain init i (100m,
	 * status 900m: not read), main m 100m */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: e}\n"
	"spec:\n  nodeName: n1\n"
	"  initContainers:\n"
	"  - {name: s, image: x, restartPolicy: Always, resources: {requests: {cpu: 100m}}}\n"
	"  - {name: i, image: x, resources: {requests: {cpu: 100m}}}\n"
	"  containers: [{name: m, image: x, resources: {requests: {cpu: 100m}}}]\n"
	"status:\n  initContainerStatuses:\n"
	"  - {name: s, resources: {requests: {cpu: 300m}}}\n"
	"  - {name: i, resources: {requests: {cpu: 900m}}}\n"
	"---\n"
	/* f: pending, with a status (ignored: DEVIATIONS C3) */
	"apiVersion: v1\nkind: Pod\nmetadata: {name: f}\n"
	"spec:\n"
	"  containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]\n"
	"status:\n  containerStatuses:\n"
	"  - {name: c, resources: {requests: {cpu: \"2\"}}}\n";

static void load(struct cluster *c, enum kube_version v)
{
	struct error err;
	cluster_init(c);
	c->config.kube_version = v;
	error_init(&err);
	if (yaml_load_buffer(c, "t.yaml", (const unsigned char *)manifest,
			     strlen(manifest), &err) != 0) {
		fprintf(stderr, "load failed: %s\n", err.msg);
		exit(1);
	}
}

/* PodRequests cpu / memory of pod name, by both engines (which agree). */
static void requests(const struct cluster *c, const char *name, int64_t *cpu,
		     int64_t *mem)
{
	int p = cluster_find_pod(c, "default", name);
	CHECK(p >= 0);
	int64_t a[64], b[64];
	CHECK(c->n_res <= 64);
	model_pod_requests(c, &c->pods[p], a);
	oracle_pod_requests(c, &c->pods[p], false, b, NULL);
	CHECK_EQ(a[RES_CPU], b[RES_CPU]);
	CHECK_EQ(a[RES_MEMORY], b[RES_MEMORY]);
	*cpu = a[RES_CPU];
	*mem = a[RES_MEMORY];
}

static void nonzero(const struct cluster *c, const char *name, int64_t *cpu,
		    int64_t *mem)
{
	int p = cluster_find_pod(c, "default", name);
	int64_t oc, om;
	model_pod_nonzero(c, &c->pods[p], cpu, mem);
	oracle_pod_nonzero(c, &c->pods[p], &oc, &om);
	CHECK_EQ(oc, *cpu);
	CHECK_EQ(om, *mem);
}

static void test_1_34(void)
{
	struct cluster c;
	load(&c, KUBE_1_34);
	int64_t cpu, mem;
	/* a: pod level cpu 1 and memory 1Gi (from its limit) replace the
	 * containers' 100m / 100Mi.  NonZero: both listed, no default ->
	 * the same. */
	requests(&c, "a", &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, GI);
	nonzero(&c, "a", &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, GI);
	/* b: no cpu anywhere (0), memory 512Mi.  NonZero: cpu missing at
	 * both levels -> c1 gets 100m; memory listed -> 512Mi. */
	requests(&c, "b", &cpu, &mem);
	CHECK_EQ(cpu, 0);
	CHECK_EQ(mem, 512 * MI);
	nonzero(&c, "b", &cpu, &mem);
	CHECK_EQ(cpu, 100);
	CHECK_EQ(mem, 512 * MI);
	/* c: max(500m, 1, 750m) = 1000m; max(1Gi, 512Mi) = 1Gi */
	requests(&c, "c", &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, GI);
	/* d: Infeasible -> the spec is ignored: max(1, 750m) = 1000m,
	 * memory 512Mi */
	requests(&c, "d", &cpu, &mem);
	CHECK_EQ(cpu, 1000);
	CHECK_EQ(mem, 512 * MI);
	/* e: main 100m + sidecar max(100m, 300m) = 400m; the plain init
	 * container's use 100m + 300m (the sidecar before it) = 400m: max
	 * 400m */
	requests(&c, "e", &cpu, &mem);
	CHECK_EQ(cpu, 400);
	/* f: pending, its status not read: 500m */
	requests(&c, "f", &cpu, &mem);
	CHECK_EQ(cpu, 500);
	cluster_release(&c);
}

static void test_1_30(void)
{
	struct cluster c;
	load(&c, KUBE_1_30);
	int64_t cpu, mem;
	/* a: the containers only: 100m + 0, 100Mi; NonZero 100 + 100 =
	 * 200m, 100Mi + 200Mi */
	requests(&c, "a", &cpu, &mem);
	CHECK_EQ(cpu, 100);
	CHECK_EQ(mem, 100 * MI);
	nonzero(&c, "a", &cpu, &mem);
	CHECK_EQ(cpu, 200);
	CHECK_EQ(mem, 300 * MI);
	requests(&c, "b", &cpu, &mem);
	CHECK_EQ(mem, 0);
	/* c, d: the spec, 500m / 1Gi */
	requests(&c, "c", &cpu, &mem);
	CHECK_EQ(cpu, 500);
	CHECK_EQ(mem, GI);
	requests(&c, "d", &cpu, &mem);
	CHECK_EQ(cpu, 500);
	/* e: 100m + 100m = 200m vs init 100 + 100 = 200m */
	requests(&c, "e", &cpu, &mem);
	CHECK_EQ(cpu, 200);
	cluster_release(&c);
}

int main(void)
{
	test_1_34();
	test_1_30();
	return check_done("test_pod_resources");
}
