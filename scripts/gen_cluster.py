#!/usr/bin/python3
"""gen_cluster.py - write a synthetic cluster as ordinary Kubernetes manifests.

    scripts/gen_cluster.py --nodes 100 --bound 1000 --pending 5 --zones 3 \
        --seed 1 > cluster.yaml

Nodes are spread round-robin over Z zones (topology.kubernetes.io/zone,
kubernetes.io/hostname labels), with a few taints, images and a couple of
capacity shapes.  Bound pods (spec.nodeName set) are placed so that no node
is over-committed; pending pods have mixed priorities, requests, node
selectors, tolerations, spread constraints and (anti-)affinity, so every
plugin has work to do.  The same arguments always give the same bytes
(random.Random(seed)).  Standard library only; used by `kso explain`'s
performance test and by the benchmarks.
"""

import argparse
import datetime
import random
import sys

EPOCH = datetime.datetime(2024, 1, 1)
PRIORITIES = [100, 1000, 2000]
APPS = ["web", "api", "db", "cache", "batch", "queue"]


def priority_class_doc(value):
    """The PriorityClass a pod of priority value names."""
    return "\n".join([
        "apiVersion: scheduling.k8s.io/v1",
        "kind: PriorityClass",
        "metadata:",
        "  name: prio-%d" % value,
        "value: %d" % value,
    ])


def node_doc(i, zone, rng):
    """One Node: 8 or 16 cores, 32 or 64 GiB, 110 pods."""
    big = rng.random() < 0.3
    cpu = "16" if big else "8"
    mem = "64Gi" if big else "32Gi"
    lines = [
        "apiVersion: v1",
        "kind: Node",
        "metadata:",
        "  name: node-%04d" % i,
        "  labels:",
        "    kubernetes.io/hostname: node-%04d" % i,
        "    topology.kubernetes.io/zone: zone-%d" % zone,
        "    node.kubernetes.io/instance-type: %s" % ("large" if big else "medium"),
    ]
    if rng.random() < 0.1:
        lines.append("    accelerator: gpu")
    taint = rng.random()
    if taint < 0.05:
        lines += ["spec:", "  taints:",
                  "  - {key: dedicated, value: gpu, effect: NoSchedule}"]
    elif taint < 0.10:
        lines += ["spec:", "  taints:",
                  "  - {key: maintenance, effect: PreferNoSchedule}"]
    lines += [
        "status:",
        "  allocatable: {cpu: \"%s\", memory: %s, pods: \"110\", "
        "ephemeral-storage: 100Gi}" % (cpu, mem),
        "  images:",
        "  - names: [\"registry.example/%s:1.0\"]" % rng.choice(APPS),
        "    sizeBytes: %d" % (rng.randint(50, 900) * 1024 * 1024),
    ]
    return "\n".join(lines), (8000 if not big else 16000), (32 if not big else 64)


def pod_lines(name, ns, app, prio, cpu_m, mem_mi, created):
    return [
        "apiVersion: v1",
        "kind: Pod",
        "metadata:",
        "  name: %s" % name,
        "  namespace: %s" % ns,
        "  creationTimestamp: \"%s\"" % (
            EPOCH + datetime.timedelta(seconds=created)).strftime(
                "%Y-%m-%dT%H:%M:%SZ"),
        "  labels: {app: %s}" % app,
        "spec:",
    ] + (["  priorityClassName: prio-%d" % prio] if prio else []) + [
        "  containers:",
        "  - name: main",
        "    image: registry.example/%s:1.0" % app,
        "    resources:",
        "      requests: {cpu: %dm, memory: %dMi}" % (cpu_m, mem_mi),
    ]


def bound_docs(n_bound, nodes, rng):
    """Bound pods, packed so no node exceeds its allocatable."""
    free = [[cpu, mem * 1024, 110] for _, cpu, mem in nodes]
    docs = []
    for i in range(n_bound):
        cpu_m = rng.choice([50, 100, 200, 250])
        mem_mi = rng.choice([64, 128, 256])
        for _ in range(len(nodes)):
            k = rng.randrange(len(nodes))
            if free[k][0] >= cpu_m and free[k][1] >= mem_mi and free[k][2] > 0:
                break
        else:
            sys.exit("gen_cluster.py: the nodes cannot hold %d bound pods"
                     % n_bound)
        free[k][0] -= cpu_m
        free[k][1] -= mem_mi
        free[k][2] -= 1
        app = rng.choice(APPS)
        lines = pod_lines("bound-%05d" % i, "default", app,
                          rng.choice([0, 0, 0, 100, 1000]), cpu_m, mem_mi, i)
        lines.insert(lines.index("spec:") + 1, "  nodeName: node-%04d" % k)
        docs.append("\n".join(lines))
    return docs


def pending_docs(n_pending, zones, rng):
    """Pending pods exercising every plugin."""
    docs = []
    for i in range(n_pending):
        app = rng.choice(APPS)
        lines = pod_lines("pending-%04d" % i, "default", app,
                          rng.choice([0, 100, 1000, 2000]),
                          rng.choice([100, 500, 2000]),
                          rng.choice([128, 512, 2048]), 100000 + i)
        kind = i % 5
        if kind == 1:
            lines += ["  tolerations:",
                      "  - {key: dedicated, operator: Equal, value: gpu, "
                      "effect: NoSchedule}",
                      "  nodeSelector: {accelerator: gpu}"]
        elif kind == 2:
            lines += ["  topologySpreadConstraints:",
                      "  - maxSkew: 1",
                      "    topologyKey: topology.kubernetes.io/zone",
                      "    whenUnsatisfiable: DoNotSchedule",
                      "    labelSelector: {matchLabels: {app: %s}}" % app]
        elif kind == 3:
            lines += ["  affinity:",
                      "    podAntiAffinity:",
                      "      requiredDuringSchedulingIgnoredDuringExecution:",
                      "      - topologyKey: kubernetes.io/hostname",
                      "        labelSelector: {matchLabels: {app: %s}}" % app,
                      "    podAffinity:",
                      "      preferredDuringSchedulingIgnoredDuringExecution:",
                      "      - weight: 50",
                      "        podAffinityTerm:",
                      "          topologyKey: topology.kubernetes.io/zone",
                      "          labelSelector: {matchLabels: {app: %s}}"
                      % rng.choice(APPS)]
        elif kind == 4:
            lines += ["  affinity:",
                      "    nodeAffinity:",
                      "      preferredDuringSchedulingIgnoredDuringExecution:",
                      "      - weight: 80",
                      "        preference:",
                      "          matchExpressions:",
                      "          - {key: topology.kubernetes.io/zone, "
                      "operator: In, values: [zone-%d]}" % rng.randrange(zones)]
        docs.append("\n".join(lines))
    return docs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=100)
    ap.add_argument("--bound", type=int, default=1000)
    ap.add_argument("--pending", type=int, default=5)
    ap.add_argument("--zones", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", default="-",
                    help="file to write (default: standard output)")
    a = ap.parse_args()
    if a.nodes < 0 or a.bound < 0 or a.pending < 0 or a.zones < 1:
        ap.error("counts must be >= 0 and --zones >= 1")
    rng = random.Random(a.seed)
    nodes = [node_doc(i, i % a.zones, rng) for i in range(a.nodes)]
    if a.bound and not nodes:
        ap.error("bound pods need at least one node")
    docs = [priority_class_doc(v) for v in PRIORITIES]
    docs += [d for d, _, _ in nodes]
    docs += bound_docs(a.bound, nodes, rng)
    docs += pending_docs(a.pending, a.zones, rng)
    text = "---\n".join(d + "\n" for d in docs)
    if a.output == "-":
        sys.stdout.write(text)
    else:
        with open(a.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
