"""
test_node_classes_adversarial.py - clusters built to break the oracle's
node equivalence classes (oracle/node_class.c): many nodes from one
template, a third of them changed in exactly ONE field a plugin reads, and
bound pods from a few kinds that also differ in one field each, so that a
class keyed on too little would merge two nodes a plugin tells apart.

The node fields changed one at a time: a label a pod selects or prefers
(disk, tier, rack), a PreferNoSchedule taint (two values) or a NoSchedule
one, spec.unschedulable, an image more or the same image with another
size (ImageLocality takes the first node's size), allocatable cpu, pods or
an extended or ephemeral resource, a "rack" label unique to the node but
not on every node, kubernetes.io/hostname taken by two nodes (PodTopology-
Spread's Score counts a hostname constraint per node, its Filter per
label value) or missing.  Every node also carries node-id, a key on every
node with distinct values (a "unique key": classes leave it out of their
signature and count its domains node by node) that pending pods use as a
topology key for spreading and (anti-)affinity.  The bound pods' kinds
differ in labels, namespace, requests (none: the non-zero defaults),
priority, an affinity term (hostname, node-id), a host port, an extended
resource, or a deletionTimestamp (counted by NodeResourcesFit, not by
spreading; PodTopologySpread's RemovePod does count it - kube's quirk).
Some pending pods are nominated, some preempt (the "preempt" clusters
fill the nodes with low-priority pods).

No expected value here is kso's own: the assertion is that the answers do
not depend on the classes - `kso schedule -o json --detail` prints the same
bytes and exits the same with and without --no-node-classes (sampling on:
150 nodes, kube examines 100 per cycle from a rotating start), and with
--all-nodes the oracle prints the model's bytes (the model has no classes
and evaluates every node literally).  Both releases.
"""
import json
import random
import subprocess

import pytest

from conftest import KSO

ZONES = ["z1", "z2"]
APPS = ["web", "db"]


def node(rng, i):
    name = "n%03d" % i
    lab = {"kubernetes.io/hostname": name, "node-id": "id%d" % i,
           "topology.kubernetes.io/zone": ZONES[(i // 7) % 2], "tier": "a"}
    spec = {}
    alloc = {"cpu": "8", "memory": "16Gi", "pods": "110"}
    images = [{"names": ["nginx:latest", "docker.io/library/nginx:latest"],
               "sizeBytes": 300 * 2 ** 20}]
    change = rng.randrange(16) if rng.random() < 0.35 else -1
    if change == 0:
        lab["disk"] = "ssd"
    elif change == 1:
        lab["tier"] = "b"
    elif change == 2:
        spec["taints"] = [{"key": "soft", "value": "x", "effect": "PreferNoSchedule"}]
    elif change == 3:
        spec["taints"] = [{"key": "hard", "value": "x", "effect": "NoSchedule"}]
    elif change == 4:
        spec["unschedulable"] = True
    elif change == 5:
        images = images + [{"names": ["redis:7"], "sizeBytes": 900 * 2 ** 20}]
    elif change == 6:
        alloc["cpu"] = "9"
    elif change == 7:
        alloc["example.com/gpu"] = "1"
    elif change == 8:
        alloc["pods"] = "3"
    elif change == 9:
        lab["rack"] = "r%d" % i
    elif change == 10:
        lab["kubernetes.io/hostname"] = "n000"
    elif change == 11:
        del lab["kubernetes.io/hostname"]
    elif change == 12:
        spec["taints"] = [{"key": "soft", "value": "y", "effect": "PreferNoSchedule"}]
    elif change == 13:
        images = [{"names": ["nginx:latest"], "sizeBytes": 1}]
    elif change == 14:
        lab["rack"] = "shared"
    elif change == 15:
        alloc["ephemeral-storage"] = "10Gi"
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "labels": lab}, "spec": spec,
            "status": {"allocatable": alloc, "images": images}}


def bound_kinds():
    base = {"ns": "default", "labels": {"app": "web"},
            "req": {"cpu": "500m", "memory": "1Gi"}}
    return [dict(base), dict(base, labels={"app": "db"}), dict(base, ns="other"),
            dict(base, req={"cpu": "1", "memory": "1Gi"}), dict(base, req={}),
            dict(base, prio="high"), dict(base, prio="low"),
            dict(base, labels={"app": "db"}, term=("anti", "kubernetes.io/hostname")),
            dict(base, labels={"app": "db"}, ns="third", term=("anti", "node-id")),
            dict(base, term=("pref", "node-id")),
            dict(base, term=("prefanti", "kubernetes.io/hostname")),
            dict(base, port=8080), dict(base, port=8081), dict(base, terminating=True),
            dict(base, req={"cpu": "500m", "memory": "1Gi", "example.com/gpu": "1"}),
            dict(base, ns="third", labels={"app": "web", "x": "1"})]


def pod(name, k, node_name=None, status=None):
    c = {"name": "c", "image": k.get("image", "nginx")}
    if k.get("req"):
        c["resources"] = {"requests": k["req"]}
    if k.get("port"):
        c["ports"] = [{"containerPort": 80, "hostPort": k["port"]}]
    meta = {"name": name, "namespace": k.get("ns", "default"),
            "labels": k.get("labels", {})}
    if k.get("terminating"):
        meta["deletionTimestamp"] = "2024-01-01T00:00:00Z"
        meta["finalizers"] = ["example.com/keep"]
    spec = {"containers": [c]}
    if node_name:
        spec["nodeName"] = node_name
    if k.get("prio"):
        spec["priorityClassName"] = k["prio"]
    if k.get("term"):
        kind, key = k["term"]
        t = {"labelSelector": {"matchLabels": {"app": "web"}}, "topologyKey": key}
        if kind == "anti":
            spec["affinity"] = {"podAntiAffinity": {
                "requiredDuringSchedulingIgnoredDuringExecution": [t]}}
        elif kind == "pref":
            spec["affinity"] = {"podAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 30, "podAffinityTerm": t}]}}
        else:
            spec["affinity"] = {"podAntiAffinity": {
                "preferredDuringSchedulingIgnoredDuringExecution": [
                    {"weight": 40, "podAffinityTerm": t}]}}
    for f in ("affinity", "topologySpreadConstraints", "tolerations", "nodeSelector"):
        if f in k:
            spec[f] = k[f]
    p = {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec}
    if status:
        p["status"] = status
    return p


def term(rng):
    t = {"labelSelector": {"matchLabels": {"app": rng.choice(APPS)}},
         "topologyKey": rng.choice(["kubernetes.io/hostname",
                                    "topology.kubernetes.io/zone", "node-id", "rack"])}
    x = rng.random()
    if x < 0.2:
        t["namespaces"] = ["other"]
    elif x < 0.35:
        t["namespaceSelector"] = {"matchLabels": {"team": "a"}}
    elif x < 0.45:
        t["namespaceSelector"] = {}
    return t


def pending(rng, i, names, preempt):
    k = {"ns": rng.choice(["default", "default", "other"]),
         "labels": {"app": rng.choice(APPS)},
         "req": rng.choice([{"cpu": "500m", "memory": "1Gi"}, {"cpu": "1500m"}, {},
                            {"cpu": "3", "memory": "6Gi"}, {"cpu": "2", "memory": "2Gi"},
                            {"example.com/gpu": "1"}])}
    if rng.random() < (0.8 if preempt else 0.3):
        k["prio"] = rng.choice(["high", "mid"])
    if preempt and rng.random() < 0.6:
        k["req"] = {"cpu": rng.choice(["2", "3", "4"]), "memory": "3Gi"}
    if rng.random() < 0.15:
        k["port"] = rng.choice([8080, 8081])
    if rng.random() < 0.2:
        k["image"] = rng.choice(["redis:7", "nginx:latest", "docker.io/library/nginx:latest"])
    if rng.random() < 0.15:
        k["nodeSelector"] = {rng.choice(["disk", "tier", "rack"]):
                             rng.choice(["ssd", "b", "shared", "a"])}
    aff = {}
    if rng.random() < 0.2:
        op = rng.choice(["In", "Exists", "DoesNotExist"])
        e = {"key": rng.choice(["disk", "tier", "rack", "topology.kubernetes.io/zone"]),
             "operator": op}
        if op == "In":
            e["values"] = ["ssd", "b", "z1"]
        aff["nodeAffinity"] = {"preferredDuringSchedulingIgnoredDuringExecution": [
            {"weight": rng.randint(1, 100), "preference": {"matchExpressions": [e]}}]}
    if rng.random() < 0.25:
        which = rng.choice(["podAffinity", "podAntiAffinity"])
        if rng.random() < 0.4:
            aff[which] = {"requiredDuringSchedulingIgnoredDuringExecution": [term(rng)]}
        else:
            aff[which] = {"preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": rng.randint(1, 100), "podAffinityTerm": term(rng)}]}
    if aff:
        k["affinity"] = aff
    if rng.random() < 0.3:
        c = {"maxSkew": rng.randint(1, 2),
             "topologyKey": rng.choice(["kubernetes.io/hostname",
                                        "topology.kubernetes.io/zone", "node-id", "rack"]),
             "whenUnsatisfiable": rng.choice(["DoNotSchedule", "ScheduleAnyway"]),
             "labelSelector": {"matchLabels": {"app": k["labels"]["app"]}}}
        if rng.random() < 0.2:
            c["nodeTaintsPolicy"] = "Honor"
        if rng.random() < 0.2:
            c["nodeAffinityPolicy"] = "Ignore"
        if rng.random() < 0.15 and c["whenUnsatisfiable"] == "DoNotSchedule":
            c["minDomains"] = rng.randint(2, 300)
        k["topologySpreadConstraints"] = [c]
    if rng.random() < 0.25:
        k["tolerations"] = [rng.choice([
            {"key": "hard", "operator": "Exists"},
            {"key": "soft", "operator": "Equal", "value": "x"},
            {"key": "node.kubernetes.io/unschedulable", "operator": "Exists"},
            {"operator": "Exists"}])]
    status = None
    if rng.random() < 0.08:
        status = {"nominatedNodeName": rng.choice(names)}
    p = pod("p%d" % i, k, status=status)
    if rng.random() < 0.3:
        p["spec"]["schedulerName"] = "alt"
    return p


def cluster(seed, n_nodes, n_pending, preempt):
    rng = random.Random(seed)
    items = [{"apiVersion": "v1", "kind": "Namespace",
              "metadata": {"name": "other", "labels": {"team": "a"}}},
             {"apiVersion": "v1", "kind": "Namespace",
              "metadata": {"name": "third", "labels": {"team": "b"}}}]
    for pc, v in (("low", 0), ("mid", 10), ("high", 100)):
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": pc}, "value": v})
    nodes = [node(rng, i) for i in range(n_nodes)]
    rng.shuffle(nodes)   # the node order against the names' order
    items += nodes
    names = [n["metadata"]["name"] for n in nodes]
    kinds = bound_kinds()
    e = 0
    for name in names:
        for _ in range(rng.choice([2, 3, 4] if preempt else [0, 0, 1, 1, 2, 3])):
            k = kinds[0] if rng.random() < 0.4 else rng.choice(kinds)
            if preempt:
                k = dict(k, req={"cpu": rng.choice(["2", "3"]), "memory": "2Gi"},
                         prio=rng.choice(["low", "low", "mid"]))
            items.append(pod("e%d" % e, k, node_name=name))
            e += 1
    items.append({"apiVersion": "v1", "kind": "Service",
                  "metadata": {"name": "svc-web", "namespace": "default"},
                  "spec": {"selector": {"app": "web"}}})
    items.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                  "metadata": {"name": "pdb", "namespace": "default"},
                  "spec": {"maxUnavailable": 1, "selector": {"matchLabels": {"app": "db"}}}})
    items += [pending(rng, i, names, preempt) for i in range(n_pending)]
    return {"apiVersion": "v1", "kind": "List", "items": items}


# a second profile with other weights, strategy and default constraints
# (hostname and the unique node-id), so that cycles of two profiles
# alternate over the same classes
CONFIG = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: alt
  plugins:
    score:
      enabled:
      - {name: TaintToleration, weight: 9}
      - {name: ImageLocality, weight: 7}
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: MostAllocated, resources: [{name: cpu, weight: 3}, {name: memory, weight: 1}]}
  - name: PodTopologySpread
    args:
      defaultingType: List
      defaultConstraints:
      - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway}
      - {maxSkew: 1, topologyKey: node-id, whenUnsatisfiable: ScheduleAnyway}
"""


def schedule(path, cfg, version, *args):
    p = subprocess.run([KSO, "schedule", str(path), "--config", str(cfg),
                        "--kube-version", version, "-o", "json", "--detail", *args],
                       capture_output=True, timeout=600)
    assert p.returncode in (0, 1), p.stderr.decode()[-2000:]
    assert p.stdout.startswith(b"{"), p.stderr.decode()[-2000:]
    return p.returncode, p.stdout


@pytest.mark.parametrize("version", ["1.30", "1.34"])
@pytest.mark.parametrize("seed,preempt", [(1, False), (2, True)])
def test_classes_change_no_answer(tmp_path, seed, preempt, version):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(cluster(seed, 150, 300, preempt)))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    on = schedule(path, cfg, version)
    off = schedule(path, cfg, version, "--no-node-classes")
    assert on == off, "the node classes changed the answer"
    steps = json.loads(on[1])["steps"]
    actions = {s["action"] for s in steps}
    # the cluster exercises what it was built for: binds, failures and
    # (in the full one) preemptions
    assert {"bind", "unschedulable"} <= actions
    if preempt:
        assert "preempt" in actions
    # every node evaluated: the oracle (classes on) and the model agree
    all_nodes = schedule(path, cfg, version, "--all-nodes")
    model = schedule(path, cfg, version, "--engine", "model")
    assert all_nodes == model, "oracle --all-nodes and the model differ"


# ------------------------------------------------------------- twins
#
# 120 empty-looking nodes alternating between a base node and its twin
# changed in one field (or carrying a bound pod of a kind changed in one
# field), and pending pods whose Filter or Score tells the two apart: all
# base nodes tie, all twins tie, so a class that merged a twin with a base
# node would hand one's verdict or score to the other - the viable list
# (--detail) or the pick would change.

def twin_nodes(field):
    items = []
    for i in range(120):
        n = {"apiVersion": "v1", "kind": "Node",
             "metadata": {"name": "n%03d" % i, "labels": {
                 "kubernetes.io/hostname": "n%03d" % i, "node-id": "id%d" % i,
                 "topology.kubernetes.io/zone": "z1", "rack": "r1"}},
             "spec": {},
             "status": {"allocatable": {"cpu": "8", "memory": "16Gi", "pods": "110"},
                        "images": [{"names": ["nginx:latest"], "sizeBytes": 300 * 2 ** 20}]}}
        twin = i % 2 == 1
        lab, spec, st = n["metadata"]["labels"], n["spec"], n["status"]
        if field == "label":
            if twin:
                lab["disk"] = "ssd"
        elif field == "taint-value":
            spec["taints"] = [{"key": "soft", "value": "y" if twin else "x",
                               "effect": "PreferNoSchedule"}]
        elif field == "taint-effect":
            spec["taints"] = [{"key": "soft", "value": "x", "effect":
                               "NoSchedule" if twin else "PreferNoSchedule"}]
        elif field == "unschedulable":
            spec["unschedulable"] = twin
        elif field == "image":
            if twin:
                st["images"].append({"names": ["redis:7"], "sizeBytes": 800 * 2 ** 20})
        elif field == "allocatable":
            st["allocatable"]["cpu"] = "9" if twin else "8"
        elif field == "extended":
            if twin:
                st["allocatable"]["example.com/gpu"] = "1"
        elif field == "rack-unique":
            lab["rack"] = "r%d" % i if twin else "r1"
        elif field == "hostname-shared":
            if twin:
                lab["kubernetes.io/hostname"] = "n000"
        items.append(n)
    return items


BASE_KIND = {"ns": "default", "labels": {"app": "web"}, "req": {"cpu": "500m", "memory": "1Gi"}}
KIND_TWINS = {
    "pod-labels": dict(BASE_KIND, labels={"app": "db"}),
    "pod-namespace": dict(BASE_KIND, ns="other"),
    "pod-requests": dict(BASE_KIND, req={"cpu": "1", "memory": "1Gi"}),
    "pod-no-requests": dict(BASE_KIND, req={}),
    "pod-terminating": dict(BASE_KIND, terminating=True),
    "pod-anti-term": dict(BASE_KIND, term=("anti", "kubernetes.io/hostname")),
    "pod-preferred-term": dict(BASE_KIND, term=("pref", "node-id")),
    "pod-host-port": dict(BASE_KIND, port=8080),
    "pod-priority": dict(BASE_KIND, prio="high"),
}

# pending pods reading every field above, in this order (one priority):
# none of them attracts the next (only the bound pods' terms select
# app=web), so each sees the twins as they were but for the nodes taken
TWIN_PENDING = [
    {"labels": {"app": "x"}, "req": {"cpu": "1"},
     "affinity": {"nodeAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 50, "preference": {"matchExpressions": [
             {"key": "disk", "operator": "In", "values": ["ssd"]}]}}]}}},
    {"labels": {"app": "x"}, "req": {"cpu": "1"}, "image": "redis:7",
     "tolerations": [{"key": "soft", "operator": "Equal", "value": "x"}]},
    {"labels": {"app": "x"}, "req": {"cpu": "2", "example.com/gpu": "1"}},
    {"labels": {"app": "web"}, "req": {"cpu": "500m"}, "port": 8080,
     "topologySpreadConstraints": [
         {"maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
          "whenUnsatisfiable": "ScheduleAnyway",
          "labelSelector": {"matchLabels": {"app": "web"}}}]},
    {"labels": {"app": "web"}, "req": {"cpu": "3", "memory": "2Gi"}},
    {"labels": {"app": "x"}, "req": {"cpu": "500m"},
     "topologySpreadConstraints": [
         {"maxSkew": 1, "topologyKey": "rack", "whenUnsatisfiable": "DoNotSchedule",
          "labelSelector": {"matchLabels": {"app": "x"}}}]},
    {"labels": {"app": "y"}, "req": {"cpu": "1"},
     "affinity": {"podAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
         {"weight": 70, "podAffinityTerm": {
             "labelSelector": {"matchLabels": {"app": "web"}},
             "topologyKey": "node-id"}}]}}},
]


def twin_cluster(case):
    items = [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "other"}}]
    for pc, v in (("low", 0), ("high", 100)):
        items.append({"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
                      "metadata": {"name": pc}, "value": v})
    nodes = twin_nodes(case)
    items += nodes
    if case in KIND_TWINS:
        for i, n in enumerate(nodes):
            k = KIND_TWINS[case] if i % 2 else BASE_KIND
            items.append(pod("e%d" % i, k, node_name=n["metadata"]["name"]))
    for i, k in enumerate(TWIN_PENDING):
        items.append(pod("p%d" % i, k))
    return {"apiVersion": "v1", "kind": "List", "items": items}


@pytest.mark.parametrize("version", ["1.30", "1.34"])
@pytest.mark.parametrize("case", ["label", "taint-value", "taint-effect", "unschedulable",
                                  "image", "allocatable", "extended", "rack-unique",
                                  "hostname-shared", *KIND_TWINS])
def test_twins(tmp_path, case, version):
    path = tmp_path / "twins.json"
    path.write_text(json.dumps(twin_cluster(case)))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    on = schedule(path, cfg, version)
    off = schedule(path, cfg, version, "--no-node-classes")
    assert on == off, "the node classes changed the answer"
    assert schedule(path, cfg, version, "--all-nodes") == \
        schedule(path, cfg, version, "--engine", "model")


# ----------------------------------------------- scores across cycles
#
# What a class keeps from one cycle to the next (oracle_nclass_score,
# oracle_nclass_ncount): NodeResourcesFit's and BalancedAllocation's raw
# scores under the pod's score key (profile, requests, requests with the
# non-zero defaults), and the per-node counts InterPodAffinity's Score
# reads for a key on every node (a group's bound pods, an existing
# term's).  120 nodes alternate between a base node and its twin; the
# pending pods alternate between two variants that differ in exactly one
# input of what is kept, and the two variants' best node is on opposite
# sides (worked from §2.7 / §2.8 / §2.9, both scores summed at weight 1;
# the other scores tie between base and twin):
#   nonzero-cpu: base 200m / 2Gi, twin 1 / 1536Mi; a pod without a cpu
#     request (Fit counts 100m) scores base 50 + 75 = 125, twin 61 + 66
#     = 127; the same pod with cpu "0" (Fit counts 0) base 75 + 75 = 150,
#     twin 66 + 66 = 132.  Only the non-zero row differs.
#   request-memory: base 8 / 256Mi, twin 2 / 400Mi; cpu 1 and no memory
#     request (Balanced counts 0, Fit 200Mi) base 54 + 93 = 147, twin
#     50 + 75 = 125; with memory 200Mi (Fit's count the same) base
#     54 + 67 = 121, twin 50 + 100 = 150.  Only the requests row differs.
#   profile: base 3 / 32Gi, twin 16 / 2Gi, one pod (cpu 1, memory 1Gi)
#     under the default profile (Fit's cpu and memory at weight 1: base
#     (66 + 96) / 2 = 81 + 84 = 165, twin (93 + 50) / 2 = 71 + 78 = 149)
#     and under "weights" (cpu 5, memory 1: base (5 x 66 + 96) / 6 = 71
#     + 84 = 155, twin (5 x 93 + 50) / 6 = 85 + 78 = 163).  Only the
#     profile differs.
#   pref-anti-group: base nodes hold a web pod, twins a db pod; pods
#     preferring not to share a hostname with web (twin), then with db
#     (base): two groups' counts.
#   existing-term: base nodes hold a pod preferring away from app=x on
#     its hostname, twins one preferring away from app=y; pending pods
#     labelled x (twin) and y (base): two term classes' counts.
# A class that kept a value under too coarse a key would give the second
# variant the first one's: its pick, and the --detail viable list, would
# change.

SCORE_TWINS = {
    "nonzero-cpu": ({"cpu": "200m", "memory": "2Gi"}, {"cpu": "1", "memory": "1536Mi"},
                    None, None,
                    {"req": {"memory": "1Gi"}}, {"req": {"cpu": "0", "memory": "1Gi"}}),
    "request-memory": ({"cpu": "8", "memory": "256Mi"}, {"cpu": "2", "memory": "400Mi"},
                       None, None,
                       {"req": {"cpu": "1"}}, {"req": {"cpu": "1", "memory": "200Mi"}}),
    "profile": ({"cpu": "3", "memory": "32Gi"}, {"cpu": "16", "memory": "2Gi"},
                None, None,
                {"req": {"cpu": "1", "memory": "1Gi"}},
                {"req": {"cpu": "1", "memory": "1Gi"}, "scheduler": "weights"}),
    "pref-anti-group": ({"cpu": "8", "memory": "16Gi"}, {"cpu": "8", "memory": "16Gi"},
                        {"labels": {"app": "web"}}, {"labels": {"app": "db"}},
                        {"anti": "web"}, {"anti": "db"}),
    "existing-term": ({"cpu": "8", "memory": "16Gi"}, {"cpu": "8", "memory": "16Gi"},
                      {"existing_anti": "x"}, {"existing_anti": "y"},
                      {"labels": {"app": "x"}}, {"labels": {"app": "y"}}),
}


# the profile case's second profile: LeastAllocated, cpu weighing 5
CONFIG_WEIGHTS = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
- schedulerName: weights
  pluginConfig:
  - name: NodeResourcesFit
    args:
      scoringStrategy: {type: LeastAllocated, resources: [{name: cpu, weight: 5}, {name: memory, weight: 1}]}
"""


def score_twin_pod(name, v, node_name=None):
    k = {"ns": "default", "labels": v.get("labels", {}), "req": v.get("req")}
    p = pod(name, k, node_name=node_name)
    target = v.get("anti") or v.get("existing_anti")
    if target:
        p["spec"]["affinity"] = {"podAntiAffinity": {
            "preferredDuringSchedulingIgnoredDuringExecution": [
                {"weight": 50, "podAffinityTerm": {
                    "labelSelector": {"matchLabels": {"app": target}},
                    "topologyKey": "kubernetes.io/hostname"}}]}}
    if v.get("scheduler"):
        p["spec"]["schedulerName"] = v["scheduler"]
    return p


def score_twin_cluster(case):
    base, twin, base_pod, twin_pod, a, b = SCORE_TWINS[case]
    items = []
    for i in range(120):
        name = "n%03d" % i
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": {
                          "kubernetes.io/hostname": name, "node-id": "id%d" % i,
                          "topology.kubernetes.io/zone": "z1"}},
                      "spec": {},
                      "status": {"allocatable": dict(twin if i % 2 else base, pods="110")}})
        bound = twin_pod if i % 2 else base_pod
        if bound:
            items.append(score_twin_pod("e%d" % i, dict(bound, req={"cpu": "10m"}),
                                        node_name=name))
    for i in range(24):
        items.append(score_twin_pod("p%02d" % i, b if i % 2 else a))
    return {"apiVersion": "v1", "kind": "List", "items": items}


@pytest.mark.parametrize("version", ["1.30", "1.34"])
@pytest.mark.parametrize("case", list(SCORE_TWINS))
def test_score_twins(tmp_path, case, version):
    path = tmp_path / "twins.json"
    path.write_text(json.dumps(score_twin_cluster(case)))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG_WEIGHTS)
    rc, on = schedule(path, cfg, version)
    assert (rc, on) == schedule(path, cfg, version, "--no-node-classes"), \
        "the node classes changed the answer"
    # the variants part as worked out above: the first to a base node
    # (even index), the second to a twin, or the other way round
    steps = json.loads(on)["steps"]
    side = {s["pod"]: int(s["node"][1:]) % 2 for s in steps if s["action"] == "bind"}
    assert len(side) == 24
    first = {side["default/p%02d" % i] for i in range(0, 24, 2)}
    second = {side["default/p%02d" % i] for i in range(1, 24, 2)}
    assert len(first) == 1 and len(second) == 1 and first != second, (first, second)


# ------------------------------------------ the Filter prefix's code
#
# A class keeps the code of the Filter prefix - the static filters, then
# NodeResourcesFit when it is the first of the others - under the filter
# key (shape, profile, requests, whether Fit is in the prefix), and the
# filters after the prefix run each cycle.  A pod with a host port runs
# NodePorts before Fit, so its prefix is the static filters alone: its
# kept code says nothing of Fit.  Base nodes 2500m / 256Mi, twins 16 cpu /
# 64Gi holding a 15500m pod: a 2-cpu pod fits a base node only (500m free
# on a twin), so every one of the 24 pending pods - alternately with host
# port 8080 and without, the same shape, profile and requests - binds to
# a base node.  Were the two prefixes one key, the pod without a port
# would take the port pod's static-only code for the twins, find them
# feasible and prefer them (Fit's LeastAllocated: base cpu 20, memory
# 21 -> 20, twin cpu 0, memory 99 -> 49; Balanced base 60, twin 50).

def test_filter_prefix_twins(tmp_path):
    items = []
    for i in range(120):
        name = "n%03d" % i
        twin = i % 2 == 1
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": name, "labels": {
                          "kubernetes.io/hostname": name, "node-id": "id%d" % i,
                          "topology.kubernetes.io/zone": "z1"}},
                      "spec": {},
                      "status": {"allocatable": {
                          "cpu": "16" if twin else "2500m",
                          "memory": "64Gi" if twin else "256Mi", "pods": "110"}}})
        if twin:
            items.append(pod("e%d" % i, {"req": {"cpu": "15500m"}}, node_name=name))
    for i in range(24):
        k = {"req": {"cpu": "2"}}
        if i % 2 == 0:
            k["port"] = 8080
        items.append(pod("p%02d" % i, k))
    path = tmp_path / "prefix.json"
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "List", "items": items}))
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG)
    for version in ("1.30", "1.34"):
        rc, on = schedule(path, cfg, version)
        assert (rc, on) == schedule(path, cfg, version, "--no-node-classes")
        steps = json.loads(on)["steps"]
        nodes = [int(s["node"][1:]) for s in steps if s["action"] == "bind"]
        assert len(nodes) == 24 and all(n % 2 == 0 for n in nodes), nodes
