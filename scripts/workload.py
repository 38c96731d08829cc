#!/usr/bin/env python3
"""workload.py - random and scheduler_perf-like clusters as manifests.

Used by bench.py (make bench) and for the oracle-vs-model differential on
random clusters:

    scripts/workload.py random  --seed 7 --nodes 12 --pods 40 -o DIR/f.json
    scripts/workload.py perf    --nodes 5000 --pods 50000 --pending 1000 -o f.json
    scripts/workload.py SchedulingBasic --nodes 5000 --init 1000 --measure 1000 -o f.json
    scripts/workload.py basic-5000 -o f.json        (a reference workload)
    scripts/workload.py csipv-5000 -o f.json        (claims and CSI limits)

The scheduler_perf-like workloads (SchedulingBasic, PodAntiAffinity,
PodAffinity, TopologySpreading, PreferredTopologySpreading, NodeAffinity,
MixedSchedulingBasePod, Preemption) are described at SUITE below.

Output is one JSON document `kind: List` (valid YAML), which kso loads.
"""
import argparse
import json
import random
import sys

ZONES = ["z1", "z2", "z3"]
APPS = ["web", "db", "cache"]


def node(name, zone, cpu, mem, pods=110, labels=None, taints=None,
         unschedulable=False, images=None):
    lab = {"kubernetes.io/hostname": name}
    if zone is not None:
        lab["topology.kubernetes.io/zone"] = zone
        lab["topology.kubernetes.io/region"] = "r1"
    lab.update(labels or {})
    n = {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": name, "labels": lab},
         "spec": {},
         "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": str(pods)}}}
    if taints:
        n["spec"]["taints"] = taints
    if unschedulable:
        n["spec"]["unschedulable"] = True
    if images:
        n["status"]["images"] = images
    return n


def pod(name, ns="default", labels=None, requests=None, node_name=None, **spec):
    c = {"name": "c", "image": spec.pop("image", "nginx")}
    if requests:
        c["resources"] = {"requests": requests}
    if "ports" in spec:
        c["ports"] = spec.pop("ports")
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": ns, "labels": labels or {}},
         "spec": {"containers": [c]}}
    status = spec.pop("status", None)
    meta = spec.pop("meta", None)
    if meta:
        p["metadata"].update(meta)
    if status:
        p["status"] = status
    p["spec"].update(spec)
    if node_name:
        p["spec"]["nodeName"] = node_name
    return p


def sel(rng):
    """A label selector over app / tier, sometimes {} or with expressions."""
    r = rng.random()
    if r < 0.1:
        return {}
    if r < 0.6:
        return {"matchLabels": {"app": rng.choice(APPS)}}
    op = rng.choice(["In", "NotIn", "Exists", "DoesNotExist"])
    e = {"key": rng.choice(["app", "tier"]), "operator": op}
    if op in ("In", "NotIn"):
        e["values"] = rng.sample(APPS + ["fe", "be"], rng.randint(1, 2))
    return {"matchExpressions": [e]}


def term(rng):
    t = {"labelSelector": sel(rng),
         "topologyKey": rng.choice(["kubernetes.io/hostname",
                                    "topology.kubernetes.io/zone",
                                    "rack"])}
    r = rng.random()
    if r < 0.15:
        t["namespaces"] = [rng.choice(["default", "other"])]
    elif r < 0.25:
        t["namespaceSelector"] = rng.choice([{}, {"matchLabels": {"team": "a"}}])
    return t


def random_pod(rng, i, nodes, bound):
    labels = {}
    if rng.random() < 0.9:
        labels["app"] = rng.choice(APPS)
    if rng.random() < 0.4:
        labels["tier"] = rng.choice(["fe", "be"])
    req = {}
    if rng.random() < 0.8:
        req["cpu"] = rng.choice(["100m", "250m", "500m", "1", "1500m"])
    if rng.random() < 0.7:
        req["memory"] = rng.choice(["64Mi", "256Mi", "1Gi", "2Gi"])
    if rng.random() < 0.05:
        req["example.com/gpu"] = "1"
    spec = {}
    ns = "other" if rng.random() < 0.1 else "default"
    if rng.random() < 0.15:
        spec["ports"] = [{"containerPort": 80, "hostPort": rng.choice([80, 8080]),
                          **({"hostIP": "10.0.0.1"} if rng.random() < 0.3 else {})}]
    if rng.random() < 0.15:
        spec["nodeSelector"] = {"disk": rng.choice(["ssd", "hdd"])}
    aff = {}
    if rng.random() < 0.2:
        aff["nodeAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": rng.randint(1, 100), "preference": {"matchExpressions": [
                {"key": "disk", "operator": "In", "values": ["ssd"]}]}}]}
    if rng.random() < 0.1:
        aff.setdefault("nodeAffinity", {})["requiredDuringSchedulingIgnoredDuringExecution"] = {
            "nodeSelectorTerms": [{"matchExpressions": [
                {"key": "topology.kubernetes.io/zone", "operator": "NotIn",
                 "values": [rng.choice(ZONES)]}]}]}
    if rng.random() < 0.2:
        aff["podAffinity"] = {}
        if rng.random() < 0.5:
            aff["podAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = [term(rng)]
        else:
            aff["podAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.randint(1, 100), "podAffinityTerm": term(rng)}]
    if rng.random() < 0.2:
        aff["podAntiAffinity"] = {}
        if rng.random() < 0.5:
            aff["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = [term(rng)]
        else:
            aff["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"] = [
                {"weight": rng.randint(1, 100), "podAffinityTerm": term(rng)}]
    if aff:
        spec["affinity"] = aff
    if rng.random() < 0.25:
        cs = []
        seen = set()
        for _ in range(rng.randint(1, 2)):
            c = {"maxSkew": rng.randint(1, 2),
                 "topologyKey": rng.choice(["kubernetes.io/hostname",
                                            "topology.kubernetes.io/zone", "rack"]),
                 "whenUnsatisfiable": rng.choice(["DoNotSchedule", "ScheduleAnyway"]),
                 "labelSelector": sel(rng)}
            if rng.random() < 0.2:
                c["minDomains"] = rng.randint(2, 4)
                c["whenUnsatisfiable"] = "DoNotSchedule"
            if rng.random() < 0.2:
                c["nodeTaintsPolicy"] = "Honor"
            if rng.random() < 0.2:
                c["nodeAffinityPolicy"] = "Ignore"
            if rng.random() < 0.2:
                c["matchLabelKeys"] = ["tier"]
            # API validation: one constraint per (topologyKey, whenUnsatisfiable)
            if (c["topologyKey"], c["whenUnsatisfiable"]) in seen:
                continue
            seen.add((c["topologyKey"], c["whenUnsatisfiable"]))
            cs.append(c)
        spec["topologySpreadConstraints"] = cs
    if rng.random() < 0.3:
        spec["tolerations"] = [rng.choice([
            {"key": "dedicated", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
            {"operator": "Exists"},
            {"key": "soft", "operator": "Exists", "effect": "PreferNoSchedule"},
            {"key": "node.kubernetes.io/unschedulable", "operator": "Exists"}])]
    if rng.random() < 0.1:
        spec["initContainers"] = [{"name": "init", "image": "busybox",
                                   "resources": {"requests": {"cpu": rng.choice(["2", "200m"])}},
                                   **({"restartPolicy": "Always"} if rng.random() < 0.5 else {})}]
    spec["image"] = rng.choice(["nginx", "redis:7", "busybox:latest", "db"])
    if rng.random() < 0.5:
        spec["priorityClassName"] = rng.choice(["low", "mid", "high"])
    meta = {}
    if rng.random() < 0.3:
        meta["ownerReferences"] = [{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                                    "name": "rs-" + labels.get("app", "web"),
                                    "uid": "u", "controller": True}]
    node_name = None
    status = None
    if bound:
        node_name = rng.choice(nodes)
        if rng.random() < 0.05:
            meta["deletionTimestamp"] = "2024-01-01T00:00:00Z"
    elif rng.random() < 0.15:
        status = {"nominatedNodeName": rng.choice(nodes)}
    if meta:
        spec["meta"] = meta
    if status:
        spec["status"] = status
    return pod("p%d" % i, ns=ns, labels=labels, requests=req, node_name=node_name, **spec)


def random_cluster(seed, n_nodes, n_pods):
    rng = random.Random(seed)
    items = [{"apiVersion": "v1", "kind": "Namespace",
              "metadata": {"name": "other", "labels": {"team": "a"}}}]
    for pc, v in (("low", 0), ("mid", 10), ("high", 100)):
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": pc}, "value": v})
    names = []
    for i in range(n_nodes):
        name = "n%d" % i
        names.append(name)
        labels = {}
        if rng.random() < 0.5:
            labels["disk"] = rng.choice(["ssd", "hdd"])
        if rng.random() < 0.8:
            labels["rack"] = "r%d" % rng.randint(0, 3)
        taints = []
        if rng.random() < 0.15:
            taints.append({"key": "dedicated", "value": "gpu", "effect": "NoSchedule"})
        if rng.random() < 0.2:
            taints.append({"key": "soft", "value": "x", "effect": "PreferNoSchedule"})
        images = None
        if rng.random() < 0.5:
            images = [{"names": ["docker.io/library/nginx:latest", "nginx:latest"],
                       "sizeBytes": rng.randint(10, 900) * 2 ** 20},
                      {"names": ["redis:7"], "sizeBytes": 200 * 2 ** 20}]
        alloc_pods = rng.choice([110, 110, 110, 3])
        n = node(name, rng.choice(ZONES + [None]) if rng.random() < 0.9 else None,
                 rng.choice(["2", "4", "8"]), rng.choice(["4Gi", "8Gi", "16Gi"]),
                 pods=alloc_pods, labels=labels, taints=taints,
                 unschedulable=rng.random() < 0.05, images=images)
        if rng.random() < 0.1:
            n["status"]["allocatable"]["example.com/gpu"] = "2"
        items.append(n)
    for app in APPS:
        items.append({"apiVersion": "apps/v1", "kind": "ReplicaSet",
                      "metadata": {"name": "rs-" + app, "namespace": "default"},
                      "spec": {"selector": {"matchLabels": {"app": app}},
                               "template": {"metadata": {"labels": {"app": app}}}}})
    items.append({"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "svc-web", "namespace": "default"},
                  "spec": {"selector": {"app": "web"}}})
    n_bound = n_pods * 3 // 4
    for i in range(n_pods):
        items.append(random_pod(rng, i, names, i < n_bound))
    return {"apiVersion": "v1", "kind": "List", "items": items}


def perf_cluster(n_nodes, n_pods, n_pending, seed=1):
    """scheduler_perf-like: uniform nodes in 3 zones, pods of a few
    Service-backed deployments (so system default spreading applies);
    every 10th pod with a zone spread constraint, every 20th with
    preferred anti-affinity.  Kept small: the loader caps a file at 2M
    YAML nodes."""
    rng = random.Random(seed)
    items = []
    names = ["node-%d" % i for i in range(n_nodes)]
    for i, name in enumerate(names):
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": {
                          "kubernetes.io/hostname": name,
                          "topology.kubernetes.io/zone": ZONES[i % 3]}},
                      "status": {"allocatable": {"cpu": "32", "memory": "128Gi",
                                                 "pods": "110"}}})
    for app in APPS:
        items.append({"apiVersion": "v1", "kind": "Service",
                      "metadata": {"name": "svc-" + app},
                      "spec": {"selector": {"app": app}}})
    for i in range(n_pods):
        app = APPS[i % 3]
        bound = i < n_pods - n_pending
        spec = {"containers": [{"name": "c", "image": "nginx", "resources": {
            "requests": {"cpu": "100m", "memory": "128Mi"}}}]}
        if bound:
            spec["nodeName"] = names[rng.randrange(n_nodes)]
        if i % 10 == 0:
            spec["topologySpreadConstraints"] = [
                {"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
                 "whenUnsatisfiable": "DoNotSchedule",
                 "labelSelector": {"matchLabels": {"app": app}}}]
        if i % 20 == 5:
            spec["affinity"] = {"podAntiAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 10, "podAffinityTerm": {
                        "labelSelector": {"matchLabels": {"app": app}},
                        "topologyKey": "kubernetes.io/hostname"}}]}}
        items.append({"apiVersion": "v1", "kind": "Pod",
                      "metadata": {"name": "pod-%d" % i, "labels": {"app": app}},
                      "spec": spec})
    return {"apiVersion": "v1", "kind": "List", "items": items}


# ------------------------------------------------------------ perf suite
#
# Workloads modelled on Kubernetes' scheduler_perf suite
# (test/integration/scheduler_perf/config/performance-config.yaml and its
# pod templates, v1.30): the same node template (4 cpu, 32Gi, 110 pods),
# the same pod templates (100m / 500Mi requests; colour labels; the same
# affinity, spreading and priority fields), the same init / measure
# split.  Differences, all deliberate:
#   - init pods are written already bound (spec.nodeName, round-robin over
#     the nodes in a way that satisfies their own constraints) instead of
#     being scheduled first: the benchmark measures the measured pods only;
#   - every node carries kubernetes.io/hostname (kubelet sets it; the
#     hostname terms would otherwise match no node);
#   - affinity terms name the namespaces the pods are really created in
#     (sched-0, sched-1) where the upstream templates name sched-test /
#     sched-setup, which match nothing in the upstream run either;
#   - TopologySpreading uses maxSkew 1 (upstream 5): a tighter filter.

SUITE = ["SchedulingBasic", "PodAntiAffinity", "PodAffinity", "TopologySpreading",
         "PreferredTopologySpreading", "NodeAffinity", "MixedSchedulingBasePod",
         "Preemption"]


def perf_node(name, zone=None):
    lab = {"kubernetes.io/hostname": name}
    if zone is not None:
        lab["topology.kubernetes.io/zone"] = zone
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": lab},
            "spec": {},
            "status": {"allocatable": {"cpu": "4", "memory": "32Gi", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True"}]}}


def perf_pod(name, ns="default", labels=None, cpu="100m", mem="500Mi", node=None,
             **spec):
    res = {"cpu": cpu, "memory": mem}
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": ns},
         "spec": {"containers": [{"name": "pause", "image": "registry.k8s.io/pause:3.9",
                                  "ports": [{"containerPort": 80}],
                                  "resources": {"requests": res, "limits": res}}]}}
    if labels:
        p["metadata"]["labels"] = labels
    p["spec"].update(spec)
    if node is not None:
        p["spec"]["nodeName"] = node
    return p


def aff_term(color, key, nss):
    return {"labelSelector": {"matchLabels": {"color": color}},
            "topologyKey": key, "namespaces": nss}


NSS = ["sched-0", "sched-1"]
HOST = "kubernetes.io/hostname"
ZONE = "topology.kubernetes.io/zone"


def tpl_default(name, ns, node):
    return perf_pod(name, ns, node=node)


def tpl_anti(name, ns, node):
    return perf_pod(name, ns, {"color": "green"}, node=node, affinity={"podAntiAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [aff_term("green", HOST, NSS)]}})


def tpl_affinity(name, ns, node):
    return perf_pod(name, ns, {"color": "blue"}, node=node, affinity={"podAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": [aff_term("blue", ZONE, NSS)]}})


def tpl_pref_affinity(name, ns, node):
    return perf_pod(name, ns, {"color": "red"}, node=node, affinity={"podAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "podAffinityTerm": aff_term("red", HOST, NSS)}]}})


def tpl_pref_anti(name, ns, node):
    return perf_pod(name, ns, {"color": "yellow"}, node=node, affinity={"podAntiAffinity": {
        "preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": 1, "podAffinityTerm": aff_term("yellow", HOST, NSS)}]}})


def tpl_spread(when):
    def make(name, ns, node):
        return perf_pod(name, ns, {"color": "blue"}, node=node, topologySpreadConstraints=[
            {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": when,
             "labelSelector": {"matchLabels": {"color": "blue"}}}])
    return make


def tpl_node_affinity(name, ns, node):
    return perf_pod(name, ns, node=node, affinity={"nodeAffinity": {
        "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
            {"matchExpressions": [{"key": ZONE, "operator": "In",
                                   "values": ["zone1", "zone2"]}]}]}}})


def tpl_low(name, ns, node):
    return perf_pod(name, ns, cpu="900m", node=node, terminationGracePeriodSeconds=0)


def tpl_high(name, ns, node):
    # upstream sets spec.priority: 10 directly; an API server with the
    # priority admission plugin wants a class, so one named "high" of 10
    return perf_pod(name, ns, cpu="3000m", node=node, priorityClassName="high")


# name -> (node zones, [(init template, namespace, share)], (measure template, ns))
SUITE_SHAPES = {
    "SchedulingBasic": (None, [(tpl_default, "default")], (tpl_default, "default")),
    "PodAntiAffinity": (None, [(tpl_anti, "sched-0")], (tpl_anti, "sched-1")),
    "PodAffinity": (["zone1"], [(tpl_affinity, "sched-0")], (tpl_affinity, "sched-1")),
    "TopologySpreading": (["moon-1", "moon-2", "moon-3"], [(tpl_default, "default")],
                          (tpl_spread("DoNotSchedule"), "default")),
    "PreferredTopologySpreading": (["moon-1", "moon-2", "moon-3"],
                                   [(tpl_default, "default")],
                                   (tpl_spread("ScheduleAnyway"), "default")),
    "NodeAffinity": (["zone1"], [(tpl_default, "default")], (tpl_node_affinity, "default")),
    "MixedSchedulingBasePod": (["zone1"], [(tpl_default, "sched-0"), (tpl_affinity, "sched-0"),
                                           (tpl_anti, "sched-0"), (tpl_pref_affinity, "sched-0"),
                                           (tpl_pref_anti, "sched-0")],
                               (tpl_default, "default")),
    "Preemption": (None, [(tpl_low, "default")], (tpl_high, "default")),
}


def suite_cluster(name, n_nodes, n_init, n_measure):
    """One scheduler_perf-like workload: n_nodes nodes, n_init bound pods
    of each init template (round-robin over the nodes: one anti-affinity
    pod per node at most while n_init <= n_nodes), n_measure pending pods."""
    zones, inits, (measure, mns) = SUITE_SHAPES[name]
    items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}
             for ns in NSS]
    if name == "Preemption":
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": "high"}, "value": 10})
    names = ["node-%d" % i for i in range(n_nodes)]
    for i, nn in enumerate(names):
        items.append(perf_node(nn, zones[i % len(zones)] if zones else None))
    k = 0
    for t, (tpl, ns) in enumerate(inits):
        for i in range(n_init):
            items.append(tpl("init-%d-%d" % (t, i), ns, names[k % n_nodes]))
            k += 1
    for i in range(n_measure):
        items.append(measure("pod-%d" % i, mns, None))
    return {"apiVersion": "v1", "kind": "List", "items": items}



# The reference workloads (issue "Performance", item 5): the shapes the
# real kube-scheduler v1.30.12 was run on, scheduler_perf style, on this
# class of machine; its median pods/s is kept beside each (measured
# separately, not by kso).
#   name: (nodes, existing, pending, kube's median pods/s)
REFERENCE = {
    "basic-5000": (5000, 1000, 1000, 899),
    "basic-500": (500, 1000, 500, 1981),
    "antiaffinity-5000": (5000, 1000, 1000, 150),
    "spread-5000": (5000, 1000, 1000, 167),
    "nodeaffinity-5000": (5000, 1000, 1000, 302),
    "preemption-500": (500, 2000, 500, 99),
}


def ref_node(name, i, cpu="32", mem="256Gi"):
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": {
                HOST: name, ZONE: "zone-%d" % (i % 3)}},
            "spec": {},
            "status": {"allocatable": {"cpu": cpu, "memory": mem, "pods": "110"}}}


def ref_pod(name, ns="default", labels=None, cpu="100m", node=None, **spec):
    res = {"cpu": cpu, "memory": "500Mi"}
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": ns},
         "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.9",
                                  "resources": {"requests": res, "limits": res}}]}}
    if labels:
        p["metadata"]["labels"] = labels
    p["spec"].update(spec)
    if node is not None:
        p["spec"]["nodeName"] = node
    return p


def reference_cluster(name):
    """One reference workload, exactly as its shape says: nodes labelled
    hostname and zone-0/1/2 round-robin, existing pod j bound to node
    j*N/E, pending pods after them."""
    n, e, m, _ = REFERENCE[name]
    items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}
             for ns in NSS]
    big = name != "preemption-500"
    names = ["node-%d" % i for i in range(n)]
    for i, nn in enumerate(names):
        items.append(ref_node(nn, i) if big else ref_node(nn, i, "4", "32Gi"))
    anti = {"podAntiAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        aff_term("green", HOST, NSS)]}}
    for j in range(e):
        node = names[j * n // e]
        if name == "antiaffinity-5000":
            items.append(ref_pod("init-%d" % j, "sched-0", {"color": "green"},
                                 node=node, affinity=anti))
        elif name == "preemption-500":
            items.append(ref_pod("init-%d" % j, cpu="900m", node=node))
        else:
            items.append(ref_pod("init-%d" % j, node=node))
    if name == "preemption-500":
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": "high"}, "value": 10})
    for i in range(m):
        pn = "pod-%d" % i
        if name == "antiaffinity-5000":
            items.append(ref_pod(pn, "sched-1", {"color": "green"}, affinity=anti))
        elif name == "spread-5000":
            items.append(ref_pod(pn, labels={"color": "blue"}, topologySpreadConstraints=[
                {"maxSkew": 1, "topologyKey": ZONE, "whenUnsatisfiable": "DoNotSchedule",
                 "labelSelector": {"matchLabels": {"color": "blue"}}}]))
        elif name == "nodeaffinity-5000":
            items.append(ref_pod(pn, affinity={"nodeAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": {"nodeSelectorTerms": [
                    {"matchExpressions": [{"key": ZONE, "operator": "In",
                                           "values": ["zone-0"]}]}]}}}))
        elif name == "preemption-500":
            items.append(ref_pod(pn, cpu="3000m", priorityClassName="high"))
        else:
            items.append(ref_pod(pn))
    return {"apiVersion": "v1", "kind": "List", "items": items}


def csipv_cluster(n_nodes=5000, n_existing=1000, n_pending=1000):
    """scheduler_perf's SchedulingCSIPVs shape: every node has a CSINode
    (csi.example.com, 39 attachable volumes); existing pods each use a
    bound claim whose PV is pinned to its node's zone; pending pods each
    have their own unbound WaitForFirstConsumer claim of a class that
    provisions in zone-0 and zone-1 only."""
    items = []
    names = ["node-%d" % i for i in range(n_nodes)]
    for i, nn in enumerate(names):
        items.append(ref_node(nn, i))
        items.append({"apiVersion": "storage.k8s.io/v1", "kind": "CSINode",
                      "metadata": {"name": nn},
                      "spec": {"drivers": [{"name": "csi.example.com",
                                            "nodeID": nn,
                                            "allocatable": {"count": 39}}]}})
    items.append({"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
                  "metadata": {"name": "zonal"}, "provisioner": "csi.example.com",
                  "volumeBindingMode": "WaitForFirstConsumer",
                  "allowedTopologies": [{"matchLabelExpressions": [
                      {"key": ZONE, "values": ["zone-0", "zone-1"]}]}]})
    claim = {"accessModes": ["ReadWriteOnce"], "storageClassName": "zonal",
             "resources": {"requests": {"storage": "1Gi"}}}
    for j in range(n_existing):
        i = j * n_nodes // n_existing
        pv, pvc = "pv-%d" % j, "data-%d" % j
        items.append({"apiVersion": "v1", "kind": "PersistentVolume",
                      "metadata": {"name": pv},
                      "spec": {"capacity": {"storage": "1Gi"},
                               "accessModes": ["ReadWriteOnce"],
                               "storageClassName": "zonal",
                               "csi": {"driver": "csi.example.com",
                                       "volumeHandle": pv},
                               "claimRef": {"namespace": "default", "name": pvc},
                               "nodeAffinity": {"required": {"nodeSelectorTerms": [
                                   {"matchExpressions": [{"key": ZONE, "operator": "In",
                                                          "values": ["zone-%d" % (i % 3)]}]}]}}}})
        items.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                      "metadata": {"name": pvc, "namespace": "default",
                                   "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
                      "spec": dict(claim, volumeName=pv)})
        items.append(ref_pod("init-%d" % j, node=names[i], volumes=[
            {"name": "data", "persistentVolumeClaim": {"claimName": pvc}}]))
    for j in range(n_pending):
        pvc = "new-%d" % j
        items.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                      "metadata": {"name": pvc, "namespace": "default"},
                      "spec": claim})
        items.append(ref_pod("pod-%d" % j, volumes=[
            {"name": "data", "persistentVolumeClaim": {"claimName": pvc}}]))
    return {"apiVersion": "v1", "kind": "List", "items": items}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=["random", "perf", "csipv-5000"] + SUITE
                    + sorted(REFERENCE))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=10)
    ap.add_argument("--pods", type=int, default=30)
    ap.add_argument("--pending", type=int, default=100)
    ap.add_argument("--init", type=int, default=100,
                    help="suite workloads: bound pods per init template")
    ap.add_argument("--measure", type=int, default=100,
                    help="suite workloads: pending pods to schedule")
    ap.add_argument("-o", "--output", default="-")
    a = ap.parse_args()
    if a.kind == "random":
        doc = random_cluster(a.seed, a.nodes, a.pods)
    elif a.kind == "perf":
        doc = perf_cluster(a.nodes, a.pods, a.pending, a.seed)
    elif a.kind in REFERENCE:
        doc = reference_cluster(a.kind)
    elif a.kind == "csipv-5000":
        doc = csipv_cluster()
    else:
        doc = suite_cluster(a.kind, a.nodes, a.init, a.measure)
    out = sys.stdout if a.output == "-" else open(a.output, "w")
    json.dump(doc, out)
    out.write("\n")


if __name__ == "__main__":
    main()
