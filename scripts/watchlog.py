#!/usr/bin/env python3
"""watchlog.py - a recorded cluster day as `kso check` reads it: the watch
log `kubectl get pods,nodes -A --watch --output-watch-events -o json`
prints (one event per line), for the scale benchmark of `kso check`
(make bench, "Check" rows) and its tests.

    scripts/watchlog.py --nodes 5000 --pods 150000 --decisions 100000 \\
        --wrong 20 --unschedulable 20 -o build/bench/check-5000.json

The log starts with a List of the nodes and the bound pods (pods spread
evenly), then repeats, until --decisions decisions are written:
  - a running pod is deleted (MODIFIED with deletionTimestamp, DELETED),
    so the pod count stays about --pods;
  - a new pod is ADDED (pending) and bound (MODIFIED spec.nodeName) to a
    node where its requests fit (the generator keeps every node's free
    cpu, memory and pod slots), then starts (MODIFIED: phase Running,
    status.startTime).
--wrong of the binds go to a node where the pod does not fit (cpu);
--unschedulable pods ask for more cpu than any node has and are marked
PodScheduled=False/Unschedulable with kube's message.  Every pod has
priority 0, so no preemption helps.  With 100 nodes or more kube scores
a sample and kso judges a bind by its node's feasibility (doc/check.md "Judging
a recorded cluster"): then every decision is ok but the --wrong binds
(infeasible), whose decision numbers (kso check's "seq") go to
OUT.expected.json with the count of decisions.
"""
import argparse
import json
import random
import sys

NODE_CPU_M = 32000
NODE_MEM_MI = 131072
NODE_PODS = 110
ZONES = ["z1", "z2", "z3"]
SIZES = [(100, 128), (250, 256), (500, 512), (1000, 1024)]  # (cpu m, mem Mi)


def node(i):
    name = f"n{i:05d}"
    return {"apiVersion": "v1", "kind": "Node",
            "metadata": {"name": name, "resourceVersion": "1",
                         "labels": {"kubernetes.io/hostname": name,
                                    "topology.kubernetes.io/zone":
                                        ZONES[i % len(ZONES)]}},
            "spec": {},
            "status": {"allocatable": {"cpu": str(NODE_CPU_M // 1000),
                                       "memory": f"{NODE_MEM_MI}Mi",
                                       "pods": str(NODE_PODS)},
                       "conditions": [{"type": "Ready", "status": "True"}]}}


def pod(name, app, cpu_m, mem_mi, rv, node_name=None, running=False):
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": "default",
                      "uid": f"uid-{name}", "resourceVersion": str(rv),
                      "creationTimestamp": "2026-01-01T00:00:00Z",
                      "labels": {"app": app}},
         "spec": {"containers": [{"name": "c", "image": f"img/{app}:1",
                                  "resources": {"requests": {
                                      "cpu": f"{cpu_m}m",
                                      "memory": f"{mem_mi}Mi"}}}],
                  "schedulerName": "default-scheduler", "priority": 0},
         "status": {"phase": "Pending"}}
    if node_name:
        p["spec"]["nodeName"] = node_name
    if running:
        p["status"] = {"phase": "Running",
                       "startTime": "2026-01-01T00:00:01Z"}
    return p


class Cluster:
    def __init__(self, n_nodes, rng):
        self.rng = rng
        self.n = n_nodes
        self.cpu = [NODE_CPU_M] * n_nodes
        self.mem = [NODE_MEM_MI] * n_nodes
        self.slots = [NODE_PODS] * n_nodes
        self.running = []          # [name, node, cpu, mem, app, index]
        self.where = {}

    def fits(self, i, cpu, mem):
        return self.cpu[i] >= cpu and self.mem[i] >= mem and self.slots[i] > 0

    def pick(self, cpu, mem):
        for _ in range(64):
            i = self.rng.randrange(self.n)
            if self.fits(i, cpu, mem):
                return i
        for i in range(self.n):
            if self.fits(i, cpu, mem):
                return i
        return None

    def add(self, rec):
        name, i, cpu, mem = rec[0], rec[1], rec[2], rec[3]
        self.cpu[i] -= cpu
        self.mem[i] -= mem
        self.slots[i] -= 1
        self.where[name] = len(self.running)
        self.running.append(rec)

    def remove_random(self):
        k = self.rng.randrange(len(self.running))
        rec = self.running[k]
        last = self.running.pop()
        if k < len(self.running):
            self.running[k] = last
            self.where[last[0]] = k
        del self.where[rec[0]]
        self.cpu[rec[1]] += rec[2]
        self.mem[rec[1]] += rec[3]
        self.slots[rec[1]] += 1
        return rec


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--nodes", type=int, default=5000)
    ap.add_argument("--pods", type=int, default=150000)
    ap.add_argument("--decisions", type=int, default=100000)
    ap.add_argument("--wrong", type=int, default=0)
    ap.add_argument("--unschedulable", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    rng = random.Random(a.seed)
    c = Cluster(a.nodes, rng)
    out = open(a.output, "w")
    rv = 100
    items = [node(i) for i in range(a.nodes)]
    apps = ["web", "db", "cache", "batch"]
    serial = 0
    for _ in range(a.pods):
        cpu, mem = rng.choice(SIZES)
        i = c.pick(cpu, mem)
        if i is None:
            break
        name = f"init-{serial:06d}"
        serial += 1
        app = rng.choice(apps)
        items.append(pod(name, app, cpu, mem, 2, f"n{i:05d}", True))
        c.add([name, i, cpu, mem, app])
    out.write(json.dumps({"apiVersion": "v1", "kind": "List",
                          "items": items}, separators=(",", ":")) + "\n")
    del items

    def emit(kind, obj):
        nonlocal rv
        rv += 1
        obj["metadata"]["resourceVersion"] = str(rv)
        out.write(json.dumps({"type": kind, "object": obj},
                             separators=(",", ":")) + "\n")

    n_dec = a.decisions
    special = rng.sample(range(n_dec), min(n_dec, a.wrong + a.unschedulable))
    wrong = set(special[:a.wrong])
    unsched = set(special[a.wrong:])
    wrong_seqs = []
    big_cpu = NODE_CPU_M + 1000
    for d in range(n_dec):
        if len(c.running) >= a.pods:
            rec = c.remove_random()
            p = pod(rec[0], rec[4], rec[2], rec[3], 0, f"n{rec[1]:05d}", True)
            p["metadata"]["deletionTimestamp"] = "2026-01-01T00:01:00Z"
            emit("MODIFIED", p)
            emit("DELETED", json.loads(json.dumps(p)))
        name = f"new-{serial:06d}"
        serial += 1
        app = rng.choice(apps)
        if d in unsched:
            p = pod(name, app, big_cpu, 128, 0)
            emit("ADDED", p)
            p = pod(name, app, big_cpu, 128, 0)
            p["status"]["conditions"] = [{
                "type": "PodScheduled", "status": "False",
                "reason": "Unschedulable",
                "message": f"0/{a.nodes} nodes are available: "
                           f"{a.nodes} Insufficient cpu. preemption: "
                           f"0/{a.nodes} nodes are available: "
                           f"{a.nodes} No preemption victims found for "
                           f"incoming pod."}]
            emit("MODIFIED", p)
            continue
        cpu, mem = rng.choice(SIZES)
        if d in wrong:
            # more cpu than node i has left: the bind is infeasible;
            # the pod is deleted again at once, so the nodes' free
            # resources stay as the generator counts them
            i = rng.randrange(c.n)
            need = c.cpu[i] + 1
            emit("ADDED", pod(name, app, need, mem, 0))
            p = pod(name, app, need, mem, 0, f"n{i:05d}")
            emit("MODIFIED", p)
            p = pod(name, app, need, mem, 0, f"n{i:05d}")
            p["metadata"]["deletionTimestamp"] = "2026-01-01T00:01:00Z"
            emit("MODIFIED", p)
            emit("DELETED", json.loads(json.dumps(p)))
            wrong_seqs.append(d + 1)
            continue
        emit("ADDED", pod(name, app, cpu, mem, 0))
        i = c.pick(cpu, mem)
        if i is None:
            print("watchlog.py: the cluster is full", file=sys.stderr)
            return 1
        emit("MODIFIED", pod(name, app, cpu, mem, 0, f"n{i:05d}"))
        emit("MODIFIED", pod(name, app, cpu, mem, 0, f"n{i:05d}", True))
        c.add([name, i, cpu, mem, app])
    out.close()
    with open(a.output + ".expected.json", "w") as f:
        json.dump({"decisions": n_dec, "wrong": wrong_seqs}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
