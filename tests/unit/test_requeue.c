/*
 * test_requeue.c - which parked pods an event of kso's loop moves back
 * (model/requeue.h), one rule at a time, worked out by hand from kube:
 * v1.30.12 (queueing hints off: a rejecting plugin registered the event;
 * a bind reaches only the pods with a matching required affinity term,
 * read on the bound pod's namespace labels; nominations are no event)
 * and v1.34.1 (each plugin's QueueingHintFn: InterPodAffinity's terms on
 * no namespace labels, PodTopologySpread's namespace and selector,
 * NodePorts' conflicting port, VolumeRestrictions' shared claim,
 * NodeVolumeLimits' claim or migratable disk, NodeResourcesFit's node or
 * nominated node, the lower-or-equal priority of a lost nomination), and
 * DynamicResources' isSchedulableAfterClaimChange (v1.34.1
 * dynamicresources.go) on a cluster with claims, DRA below: QueueSkip
 * when the parked pod's own claims are not all found; Queue when a claim
 * loses its allocation (before the usesClaim test: whoever uses it);
 * QueueSkip for another pod's claim that keeps its allocation ("unrelated
 * claim got modified"); Queue when one of the pod's own claims' status
 * changed; no event when no status changed.
 */
#include <string.h>

#include "check.h"
#include "../../core/dra_live.h"
#include "../../model/model.h"
#include "../../model/requeue.h"
#include "../../yaml/load.h"

/* A pod; ports is "" or PORT (host port 8080). */
#define POD(name, ns, labels, prio, ports, spec) \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: " ns \
	", labels: {" labels "}}\nspec:\n  priorityClassName: " prio "\n" spec \
	"  containers: [{name: c, image: nginx" ports "}]\n---\n"
#define PORT ", ports: [{containerPort: 8080, hostPort: 8080}]"

static const char OBJECTS[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: hi}\nvalue: 100\n---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	"metadata: {name: low}\nvalue: 0\n---\n"
	"apiVersion: v1\nkind: Namespace\n"
	"metadata: {name: other, labels: {team: x}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels: {zone: a}}\n---\n"
	/* the parked pods */
	POD("aff", "default", "", "low", "",
	    "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
	    " [{topologyKey: zone, labelSelector: {matchLabels: {app: web}}}]}}\n")
	POD("anti", "default", "", "low", "",
	    "  affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
	    " [{topologyKey: zone, labelSelector: {matchLabels: {app: db}}}]}}\n")
	POD("nssel", "default", "", "low", "",
	    "  affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
	    " [{topologyKey: zone, labelSelector: {matchLabels: {app: web}},"
	    " namespaceSelector: {matchExpressions: [{key: team, operator: NotIn,"
	    " values: [x]}]}}]}}\n")
	POD("spread", "default", "app: web", "low", "",
	    "  topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone,"
	    " whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}}]\n")
	POD("ported", "default", "", "low", PORT, "")
	POD("claimer", "default", "", "low", "",
	    "  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]\n")
	POD("high", "default", "", "hi", "", "")
	/* the pods of the events */
	POD("web", "default", "app: web", "low", "", "")
	POD("webx", "other", "app: web", "low", "", "")
	POD("db", "default", "app: db", "low", PORT,
	    "  volumes: [{name: v, persistentVolumeClaim: {claimName: data}}]\n")
	POD("ebs", "default", "", "low", "",
	    "  volumes: [{name: v, awsElasticBlockStore: {volumeID: vol-1}}]\n");

static struct cluster C;

static int pod(const char *name)
{
	int p = cluster_find_pod(&C, "default", name);
	return p >= 0 ? p : cluster_find_pod(&C, "other", name);
}

/* Whether a bind of `bound` moves parked pod `parked`. */
static bool on_bind(const char *parked, uint8_t rej, const char *bound)
{
	const struct model_requeue_events e = {.bound = pod(bound)};
	return model_requeue_wakes(&C, pod(parked), rej, &e);
}

static bool on_delete(const char *parked, uint8_t rej, const char *victim)
{
	int v = pod(victim);
	const struct model_requeue_events e = {.bound = -1, .deleted = &v,
					       .n_deleted = 1};
	return model_requeue_wakes(&C, pod(parked), rej, &e);
}

static bool on_lost_nomination(const char *parked, uint8_t rej,
			       const char *nominated)
{
	int y = pod(nominated);
	const struct model_requeue_events e = {.bound = -1, .unnominated = &y,
					       .n_unnominated = 1};
	return model_requeue_wakes(&C, pod(parked), rej, &e);
}

/* The claims' cluster: "mine" unallocated, p's; "theirs" allocated on
 * n1 and reserved for the bound pod b; lost refers to a claim that does
 * not exist (foreachPodResourceClaim fails); s is another pending pod. */
#define CLAIM(name, status) \
	"apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n" \
	"metadata: {name: " name ", namespace: default}\nspec:\n  devices:\n" \
	"    requests: [{name: gpu, exactly: {deviceClassName: gpu}}]\n" status "---\n"
#define CLAIMER(name, claim, node) \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: default," \
	" uid: uid-" name "}\nspec:\n" node "  containers: [{name: c, image: x," \
	" resources: {claims: [{name: gpu}]}}]\n" \
	"  resourceClaims: [{name: gpu, resourceClaimName: " claim "}]\n---\n"

static const char DRA[] =
	"apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
	"apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: sl}\n"
	"spec: {driver: d, nodeName: n1, pool: {name: n1, generation: 1,"
	" resourceSliceCount: 1}, devices: [{name: g0}, {name: g1}]}\n---\n"
	CLAIM("mine", "")
	CLAIM("theirs", "status:\n  allocation: {devices: {results: [{request: gpu,"
	      " driver: d, pool: n1, device: g0}]}}\n"
	      "  reservedFor: [{resource: pods, name: b, uid: uid-b}]\n")
	CLAIMER("p", "mine", "")
	CLAIMER("s", "theirs", "")
	CLAIMER("b", "theirs", "  nodeName: n1\n")
	CLAIMER("lost", "absent", "");

static int claim(const char *name)
{
	for (int k = 0; k < C.n_claims; k++)
		if (!strcmp(C.claims[k].name, name))
			return k;
	return -1;
}

/* Whether the step taking the claims from was to now moves parked. */
static bool on_claims(const char *parked, uint8_t rej, const struct dra_live *was,
		      const struct dra_live *now)
{
	const struct model_requeue_events e = {.bound = -1, .claims_was = was,
					       .claims_now = now};
	return model_requeue_wakes(&C, pod(parked), rej, &e);
}

static void test_claims(void)
{
	int mine = claim("mine"), theirs = claim("theirs");
	CHECK(mine >= 0 && theirs >= 0);
	struct dra_live *was = dra_live_new(&C), *now = dra_live_clone(was);
	/* nothing changed: no event, not even for "no plugin" */
	CHECK(!on_claims("p", MODEL_REJ_CLAIMS, was, now));
	CHECK(!on_claims("p", MODEL_REJ_NONE, was, now));
	/* s's PreBind adds s to theirs: not p's claim, still allocated */
	dra_live_reserve(now, &C, theirs, pod("s"));
	CHECK(!on_claims("p", MODEL_REJ_CLAIMS, was, now));
	CHECK(on_claims("s", MODEL_REJ_CLAIMS, was, now));    /* its own */
	CHECK(on_claims("p", MODEL_REJ_NONE, was, now));
	/* b deleted: theirs keeps s, stays allocated - Skip for p */
	dra_live_assign(was, now);
	dra_live_gone(now, &C, pod("b"));
	CHECK(!on_claims("p", MODEL_REJ_CLAIMS, was, now));
	/* s deleted too: theirs deallocated - Queue for p, not its claim */
	dra_live_assign(was, now);
	dra_live_gone(now, &C, pod("s"));
	CHECK(!dra_live_allocated(now, &C, theirs));
	CHECK(on_claims("p", MODEL_REJ_CLAIMS, was, now));
	CHECK(!on_claims("p", MODEL_REJ_FIT, was, now));   /* no pod event */
	/* lost's claim is missing: QueueSkip before the deallocation test */
	CHECK(!on_claims("lost", MODEL_REJ_CLAIMS, was, now));
	/* mine allocated and reserved for p's sharer: p's own claim changed */
	dra_live_assign(was, now);
	dra_live_allocate(now, &C, mine, cluster_find_node(&C, "n1"), NULL, 0);
	CHECK(on_claims("p", MODEL_REJ_CLAIMS, was, now));
	CHECK(!on_claims("s", MODEL_REJ_CLAIMS, was, now));
	dra_live_free(was);
	dra_live_free(now);
}

static void test_v130(void)
{
	/* AssignedPodAdded: aff's term selects web, not db */
	CHECK(on_bind("aff", MODEL_REJ_AFFINITY, "web"));
	CHECK(!on_bind("aff", MODEL_REJ_AFFINITY, "db"));
	/* a matching term, but NodeResourcesFit registers no pod add */
	CHECK(!on_bind("aff", MODEL_REJ_FIT, "web"));
	/* no required affinity term: a bind never reaches spread */
	CHECK(!on_bind("spread", MODEL_REJ_SPREAD, "web"));
	/* nssel's namespaceSelector (team NotIn [x]) read on namespace
	 * other's labels {team: x}: no match */
	CHECK(!on_bind("nssel", MODEL_REJ_AFFINITY, "webx"));
	/* Pod/Delete registered by NodePorts, whatever the deleted pod */
	CHECK(on_delete("ported", MODEL_REJ_PORTS, "web"));
	CHECK(on_delete("claimer", MODEL_REJ_VOLUME_LIMITS, "web"));
	/* TaintToleration, NodeAffinity...: no pod event */
	CHECK(!on_delete("ported", 0, "web"));
	/* a nomination lost moves nothing */
	CHECK(!on_lost_nomination("ported", MODEL_REJ_PORTS, "db"));
	CHECK(!on_lost_nomination("claimer", MODEL_REJ_FIT, "db"));
	/* no rejecting plugin: any bind or deletion */
	CHECK(on_bind("high", MODEL_REJ_NONE, "db"));
	CHECK(on_delete("high", MODEL_REJ_NONE, "db"));
}

static void test_v134(void)
{
	/* InterPodAffinity: an added pod matching all the affinity terms */
	CHECK(on_bind("aff", MODEL_REJ_AFFINITY, "web"));
	CHECK(!on_bind("aff", MODEL_REJ_AFFINITY, "db"));
	/* the namespaceSelector read on no labels: NotIn matches, the
	 * namespace other's own labels notwithstanding */
	CHECK(on_bind("nssel", MODEL_REJ_AFFINITY, "webx"));
	/* a deleted pod matching all the anti-affinity terms */
	CHECK(on_delete("anti", MODEL_REJ_AFFINITY, "db"));
	CHECK(!on_delete("anti", MODEL_REJ_AFFINITY, "web"));
	/* PodTopologySpread: a pod with a node, of spread's namespace,
	 * matching its selector */
	CHECK(on_bind("spread", MODEL_REJ_SPREAD, "web"));
	CHECK(!on_bind("spread", MODEL_REJ_SPREAD, "webx"));
	CHECK(!on_bind("spread", MODEL_REJ_SPREAD, "db"));
	CHECK(on_delete("spread", MODEL_REJ_SPREAD, "web"));
	/* NodeResourcesFit registers no pod add */
	CHECK(!on_bind("claimer", MODEL_REJ_FIT, "web"));
	CHECK(on_delete("claimer", MODEL_REJ_FIT, "web"));
	/* NodePorts: the deleted pod must hold a conflicting host port */
	CHECK(!on_delete("ported", MODEL_REJ_PORTS, "web"));
	CHECK(on_delete("ported", MODEL_REJ_PORTS, "db"));
	/* VolumeRestrictions: the same claim in the same namespace */
	CHECK(!on_delete("claimer", MODEL_REJ_VOLUME_RESTRICTIONS, "web"));
	CHECK(on_delete("claimer", MODEL_REJ_VOLUME_RESTRICTIONS, "db"));
	/* NodeVolumeLimits: a claim or a migratable in-tree disk */
	CHECK(!on_delete("claimer", MODEL_REJ_VOLUME_LIMITS, "web"));
	CHECK(on_delete("claimer", MODEL_REJ_VOLUME_LIMITS, "db"));
	CHECK(on_delete("claimer", MODEL_REJ_VOLUME_LIMITS, "ebs"));
	/* a lost nomination: a deleted pod with no node but a nominated
	 * node, for the parked pods of lower or equal priority */
	CHECK(on_lost_nomination("claimer", MODEL_REJ_FIT, "db"));
	CHECK(on_lost_nomination("ported", MODEL_REJ_PORTS, "db"));
	CHECK(!on_lost_nomination("high", MODEL_REJ_FIT, "db"));
	CHECK(!on_lost_nomination("high", MODEL_REJ_NONE, "db"));
	CHECK(on_lost_nomination("claimer", MODEL_REJ_NONE, "db"));
	/* InterPodAffinity skips a pod without a node */
	CHECK(!on_lost_nomination("aff", MODEL_REJ_AFFINITY, "web"));
	/* PodTopologySpread: another pending pod no, the pod itself yes */
	CHECK(!on_lost_nomination("spread", MODEL_REJ_SPREAD, "web"));
	CHECK(on_lost_nomination("spread", MODEL_REJ_SPREAD, "spread"));
}

/*
 * The nominated node evaluated first (findNodesThatFitPod's
 * evaluateNominatedNode, which takes the Diagnosis by value).  p is
 * nominated to n1 and requires metadata.name In [ghost] (NodeAffinity's
 * PreFilterResult: {ghost}, a node that does not exist, so the full pass
 * filters no node at all); n1 fails NodeAffinity's Filter.
 *   v1.30.12: the Diagnosis starts with UnschedulablePlugins nil; the
 *     copy's AddPluginStatus makes a set of its own, lost on return: no
 *     rejecting plugin - kube sends the pod to backoffQ (MODEL_REJ_NONE).
 *   v1.34.1: the set RunPreFilterPlugins returned ({NodeAffinity}, the
 *     PreFilter that gave node names) is shared by the copy: a rejecting
 *     plugin, none that a pod event reads (0: parked until a node event,
 *     which kso's loop never has).
 * q is nominated to n1 too and requires metadata.name In [n2]; n2 (cpu
 * 1) cannot hold its 2 cpu: NodeResourcesFit on n2 in both releases, n1
 * (NodeAffinity, untracked) adding nothing.
 */
static const char NOMINATED[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
	"status: {allocatable: {cpu: '4', pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: n2}\n"
	"status: {allocatable: {cpu: '1', pods: '10'}}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
	"spec:\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
	" {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In,"
	" values: [ghost]}]}]}}}\n"
	"  containers: [{name: c, image: nginx}]\n"
	"status: {nominatedNodeName: n1}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: q, namespace: default}\n"
	"spec:\n  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:"
	" {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In,"
	" values: [n2]}]}]}}}\n"
	"  containers: [{name: c, image: nginx, resources: {requests: {cpu: '2'}}}]\n"
	"status: {nominatedNodeName: n1}\n---\n";

/* The rejectors of pod name's cycle in C, nominated to n1. */
static uint8_t rejectors_of(const char *name)
{
	struct snapshot s;
	snapshot_init(&s, &C);
	int p = pod(name), n1 = cluster_find_node(&C, "n1");
	s.nominated[p] = n1;
	struct sched_cycle_result r;
	sched_cycle_result_init(&r, &C);
	model_schedule_cycle(&C.config.profiles[0], &s, p, &r);
	CHECK_EQ(r.code, SCHED_UNSCHEDULABLE);
	uint8_t rej = model_requeue_rejectors(&C, &r, n1);
	sched_cycle_result_release(&r);
	snapshot_release(&s);
	return rej;
}

static void test_nominated_node_diagnosis(enum kube_version v)
{
	CHECK_EQ(rejectors_of("p"), v == KUBE_1_30 ? MODEL_REJ_NONE : 0);
	CHECK_EQ(rejectors_of("q"), MODEL_REJ_FIT);
}

static int load(enum kube_version v, const char *objects)
{
	struct error err;
	error_init(&err);
	cluster_init(&C);
	config_use_version(&C.config, v);
	if (yaml_load_buffer(&C, "t.yaml", (const unsigned char *)objects,
			     strlen(objects), &err) < 0) {
		fprintf(stderr, "load: %s\n", err.msg);
		return -1;
	}
	return 0;
}

int main(void)
{
	if (load(KUBE_1_30, OBJECTS) < 0)
		return 1;
	test_v130();
	cluster_release(&C);
	if (load(KUBE_1_34, OBJECTS) < 0)
		return 1;
	test_v134();
	cluster_release(&C);
	for (int v = 0; v < 2; v++) {
		enum kube_version kv = v ? KUBE_1_34 : KUBE_1_30;
		if (load(kv, NOMINATED) < 0)
			return 1;
		test_nominated_node_diagnosis(kv);
		cluster_release(&C);
	}
	if (load(KUBE_1_34, DRA) < 0)
		return 1;
	test_claims();
	cluster_release(&C);
	return check_done("test_requeue");
}
