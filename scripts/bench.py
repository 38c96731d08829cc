#!/usr/bin/env python3
"""bench.py - `make bench`: scheduling throughput of the oracle and the
model on scheduler_perf-like clusters (scripts/workload.py perf).

Builds scripts/bench_driver.c against build/libkso.a, generates the
workloads under build/bench/, runs each (engine, size) and prints a CSV
(also written to build/bench/results.csv):

  engine,nodes,pods,pending,scheduled,load_s,init_s,sched_s,pods_per_s,rss_mb

engines: oracle (kube's fast path: sampling, first failing filter),
oracle-all (every node, every filter: explain mode), model (literal).
The model is run on fewer pending pods at the large sizes: it is
quadratic by design.  Environment: KSO_BENCH_SIZES="nodes:pods:pending,..."
overrides the sizes.  Never part of `make test`.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench")
HEADER = "engine,nodes,pods,pending,scheduled,load_s,init_s,sched_s,pods_per_s,rss_mb"

# (nodes, pods, pending), and how many pending pods the model schedules
DEFAULT_SIZES = [(100, 1000, 500), (1000, 10000, 1000), (5000, 50000, 2000)]
MODEL_PENDING = {100: 500, 1000: 50, 5000: 3}


def sizes():
    env = os.environ.get("KSO_BENCH_SIZES")
    if not env:
        return DEFAULT_SIZES
    return [tuple(int(x) for x in s.split(":")) for s in env.split(",")]


def build_driver():
    subprocess.check_call(["make", "-s", "-C", ROOT, "build/libkso.a"])
    exe = os.path.join(OUT, "bench_driver")
    cc = os.environ.get("CC", "cc")
    subprocess.check_call([
        cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-O2",
        "-o", exe, os.path.join(ROOT, "scripts", "bench_driver.c"),
        os.path.join(ROOT, "build", "libkso.a"),
        "-lyaml", "-lsqlite3", "-lm", "-lpthread"])
    return exe


def workload(nodes, pods, pending):
    path = os.path.join(OUT, "perf-%d-%d-%d.json" % (nodes, pods, pending))
    if not os.path.exists(path):
        subprocess.check_call([
            sys.executable, os.path.join(ROOT, "scripts", "workload.py"), "perf",
            "--nodes", str(nodes), "--pods", str(pods), "--pending", str(pending),
            "-o", path])
    return path


def main():
    os.makedirs(OUT, exist_ok=True)
    exe = build_driver()
    rows = [HEADER]
    print(HEADER, flush=True)
    for nodes, pods, pending in sizes():
        path = workload(nodes, pods, pending)
        runs = [("oracle", pending), ("oracle-all", pending),
                ("model", MODEL_PENDING.get(nodes, min(pending, 20)))]
        for engine, n in runs:
            out = subprocess.run([exe, engine, path, str(n)], check=True,
                                 capture_output=True, text=True).stdout.strip()
            rows.append(out)
            print(out, flush=True)
    with open(os.path.join(OUT, "results.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
