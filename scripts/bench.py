#!/usr/bin/env python3
"""bench.py - `make bench`: scheduling throughput of the oracle and the
model on workloads modelled on Kubernetes' scheduler_perf suite
(scripts/workload.py; sizes from scheduler_perf's performance-config.yaml).

For each workload it generates the manifests once under build/bench/
(ordinary Kubernetes objects: `kso explain` / `kso schedule` read them),
builds scripts/bench_driver.c against build/libkso.a and runs, each in
its own process:

  - the oracle (kube's fast path: sampling, first failing filter; with
    DefaultPreemption for the Preemption workload) on every measured pod;
  - the model (literal, every filter on every node) on the head of the
    same queue until a time budget is spent: its pods/s is measured on
    that subset and extrapolated to the workload (the table says on how
    many pods).

Only the scheduling loop is timed (no YAML loading, no aggregate
building: load_s is printed separately).  Prints a table and writes it
as CSV to build/bench.csv.  Never part of `make test`.

Then `kso check` at cluster scale ("Check" rows): recorded days made by
scripts/watchlog.py (a List of nodes and bound pods, then pods deleted,
added, bound and started, some binds wrong, some pods unschedulable),
judged by ./kso and, with KSO_BENCH_OLD, by that binary on the same logs
(the largest only by ./kso: a binary that rebuilds the whole cluster for
every decision needs hours there).  CPU
seconds and peak RSS from /usr/bin/time -v; the findings must be the
injected wrong binds at their decisions; the verdicts of the two
binaries are compared.

Then the enumerator: `kso enum` on the default universe (placements
mode, --store findings) with one thread and with one thread per core,
and in reachable mode: states/s covered (raw states, symmetric ones
included), classes/s evaluated and states per CPU second (the rate per
core), written to build/bench-enum.csv.

Then "Schedule": `kso schedule FILE -o json` end to end on the six
anchor shapes (scripts/workload.py REFERENCE) and on scheduler_perf-like
clusters of 5,000 nodes / 10,000 pods (and, with BENCH_BIG=1, 20,000 /
100,000 and 50,000 / 500,000): its CPU seconds and peak RSS beside `kso
validate` on the same file (loading alone), and the ratios issue 37 sets
(schedule within 3x of validate, in CPU and in memory).

Then "TLA": `kso enum` on the TLC yardstick's universes (KSO_BENCH_TLA,
default /work/shared/bench/tla/kso; skipped when absent): 6x7 without
symmetry, 6x8 and 7x8 with (and 6x8 without with BENCH_BIG=1), each
count checked against the yardstick's ((N+1)^P placements; its README's
symmetry classes).

Every command kso runs is measured by /usr/bin/time -v: CPU seconds
(user + system) beside wall seconds, and the command's own peak RSS
(ru_maxrss of a child forked from Python carries Python's high-water mark
across exec; time's child does not).

Environment:
  KSO_BENCH_ONLY=Name,Name   run only these workloads (prefix match;
                             "Enum" for the enumerator rows, "Check" for
                             kso check on recorded days, "Impl" for
                             kso's cost per kso-impl/1 request,
                             "Reference" for the reference workloads,
                             "Schedule" for kso schedule end to end,
                             "TLA" for the TLC yardstick)
  BENCH_BIG=1                the large cases too (20,000 nodes / 100,000
                             pods and 50,000 / 500,000; TLA 6x8 without
                             symmetry)
  KSO_BENCH_BUDGET=SECONDS   model time budget per workload (default 4)
  KSO_BENCH_NO_MODEL=1       skip the model column
  KSO_BENCH_OLD=PATH         another kso binary (e.g. main before a change):
                             "Side by side" runs it and ./kso alternately on
                             the same inputs (KSO_BENCH_ROUNDS rounds,
                             default 5) and prints the median wall times,
                             their ratio and whether the outputs are
                             identical (the "Side" prefix of ONLY)
"""
import json
import os
import re
import resource
import subprocess
import tempfile
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "bench")
CSV = os.path.join(ROOT, "build", "bench.csv")
ENUM_CSV = os.path.join(ROOT, "build", "bench-enum.csv")

# (workload, nodes, init pods per template, pending pods, measured pods)
# scheduler_perf's 5000Nodes / 500Nodes parameters; SchedulingBasic at
# 5,000 nodes is measured on the first 1,000 and on all 5,000 pending
# pods of one file.
SUITE = [
    ("SchedulingBasic", 5000, 1000, 5000, 1000),
    ("SchedulingBasic", 5000, 1000, 5000, 5000),
    ("PodAntiAffinity", 5000, 1000, 1000, 1000),
    ("PodAffinity", 5000, 5000, 1000, 1000),
    ("TopologySpreading", 5000, 5000, 2000, 2000),
    ("PreferredTopologySpreading", 5000, 5000, 2000, 2000),
    ("NodeAffinity", 5000, 5000, 1000, 1000),
    ("MixedSchedulingBasePod", 5000, 2000, 1000, 1000),
    ("Preemption", 5000, 20000, 5000, 5000),
    ("SchedulingBasic", 500, 500, 1000, 1000),
    ("PodAntiAffinity", 500, 100, 400, 400),
    ("PodAffinity", 500, 500, 1000, 1000),
    ("TopologySpreading", 500, 1000, 1000, 1000),
    ("PreferredTopologySpreading", 500, 1000, 1000, 1000),
    ("NodeAffinity", 500, 500, 1000, 1000),
    ("MixedSchedulingBasePod", 500, 200, 1000, 1000),
    ("Preemption", 500, 2000, 500, 500),
]

# the scale target: 5,000 nodes, 50,000 pods (48,000 bound), oracle only
LARGE = ("Large-50kPods", 5000, 50000, 2000)

FIELDS = ["engine", "nodes", "pods", "pending", "measured", "scheduled",
          "preempted", "load_s", "init_s", "sched_s", "pods_per_s", "rss_mb"]


def build_driver():
    subprocess.check_call(["make", "-s", "-C", ROOT, "build/libkso.a"])
    os.makedirs(OUT, exist_ok=True)
    exe = os.path.join(OUT, "bench_driver")
    cc = os.environ.get("CC", "cc")
    subprocess.check_call([
        cc, "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-D_DEFAULT_SOURCE", "-O2",
        "-o", exe, os.path.join(ROOT, "scripts", "bench_driver.c"),
        os.path.join(ROOT, "build", "libkso.a"),
        "-lyaml", "-lsqlite3", "-lm", "-lpthread"])
    return exe


def generate(args, path):
    """Runs workload.py unless path is newer than the generator."""
    gen = os.path.join(ROOT, "scripts", "workload.py")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.exists(path) and os.path.getmtime(path) >= os.path.getmtime(gen):
        return path
    subprocess.check_call([sys.executable, gen] + args + ["-o", path])
    return path


def suite_file(name, nodes, init, pending):
    path = os.path.join(OUT, "%s-%dn-%di-%dp.json" % (name, nodes, init, pending))
    return generate([name, "--nodes", str(nodes), "--init", str(init),
                     "--measure", str(pending)], path)


def run(exe, engine, path, count, preempt=False, budget=None):
    cmd = [exe]
    if preempt:
        cmd.append("--preempt")
    if budget:
        cmd += ["--budget", str(budget)]
    cmd += [engine, path, str(count)]
    line = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip()
    return dict(zip(FIELDS, line.split(",")))


def fmt_rate(x):
    return "%.0f" % x if x >= 10 else "%.2f" % x


def enum_row(label, args):
    """One `kso enum` run in a fresh database: its summary figures and the
    peak RSS of the process (ru_maxrss of the waited child)."""
    kso = os.path.join(ROOT, "kso")
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [kso, "enum"] + args + ["--db", os.path.join(tmp, "bench.db"), "--quiet"]
        rc, out, _, rss, _ = time_v(cmd)
        out = out.decode()
    if rc not in (0, 1):
        raise SystemExit("kso enum %s failed:\n%s" % (" ".join(args), out))
    states = re.search(r"^states:\s+(\d+) \((\d+) classes", out, re.M)
    took = re.search(r"^time:\s+([0-9.]+) s", out, re.M)
    cpu = re.search(r"^cpu:\s+([0-9.]+) s", out, re.M)
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else 1
    secs = float(took.group(1))
    cpu_s = float(cpu.group(1))
    raw, classes = int(states.group(1)), int(states.group(2))
    return {"run": label, "jobs": jobs, "states": raw, "classes": classes,
            "seconds": secs, "cpu_seconds": cpu_s, "states_per_s": raw / secs,
            "classes_per_s": classes / secs,
            "states_per_cpu_s": raw / cpu_s if cpu_s > 0 else 0.0,
            "rss_mb": rss}


def bench_enum():
    subprocess.check_call(["make", "-s", "-C", ROOT, "kso"])
    cores = os.cpu_count() or 1
    runs = [("placements", ["--jobs", "1"]),
            ("placements", ["--jobs", str(cores)]),
            ("reachable", ["fixtures/universes/default.yaml", "--mode", "reachable",
                           "--jobs", "1"])]
    head = "%-11s %4s %9s %9s %7s %7s %12s %12s %14s %7s" % (
        "enum mode", "jobs", "states", "classes", "secs", "cpu_s", "states/s",
        "classes/s", "states/cpu_s", "rss_MB")
    print(head)
    print("-" * len(head), flush=True)
    rows = []
    for label, args in runs:
        r = enum_row(label, args)
        rows.append(r)
        print("%-11s %4d %9d %9d %7.2f %7.2f %12.0f %12.0f %14.0f %7.0f" % (
            label, r["jobs"], r["states"], r["classes"], r["seconds"],
            r["cpu_seconds"], r["states_per_s"], r["classes_per_s"],
            r["states_per_cpu_s"], r["rss_mb"]), flush=True)
    print()
    print("kso enum on the default universe, --store findings.  states/s counts every")
    print("  raw state a class stands for; classes/s the states actually evaluated")
    print("  (symmetry reduction).  states/cpu_s: states per second of CPU time of")
    print("  all threads, the rate per core.  Reachable mode: canonical states expanded.")
    with open(ENUM_CSV, "w") as f:
        f.write(",".join(rows[0].keys()) + "\n")
        for r in rows:
            f.write(",".join(str(v) for v in r.values()) + "\n")
    print("written %s" % os.path.relpath(ENUM_CSV, ROOT))


def bench_reference():
    """The reference workloads (scripts/workload.py REFERENCE): kso's loop
    (bench_driver, oracle, with DefaultPreemption) and `kso schedule -o
    json` end to end (loading, the loop, invariants after every step,
    printing), beside kube-scheduler v1.30.12's median pods/s measured
    separately on this class of machine.  Peak RSS from /usr/bin/time."""
    exe = build_driver()
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import workload
    kso = os.path.join(ROOT, "kso")
    head = "%-18s %5s %5s %5s %10s %9s %10s %9s %8s %8s %7s" % (
        "workload", "nodes", "exist", "pend", "loop/s", "e2e_s", "e2e/s",
        "kube/s", "loop/k", "e2e/k", "rss_MB")
    print(head)
    print("-" * len(head), flush=True)
    rows = []
    for name in workload.REFERENCE:
        n, e, m, kube = workload.REFERENCE[name]
        path = generate([name], os.path.join(OUT, "ref-%s.json" % name))
        o = run(exe, "oracle", path, m, preempt=name.startswith("preemption"))
        loop = float(o["pods_per_s"])
        rc, _, _, rss, e2e = time_v([kso, "schedule", path, "-o", "json"])
        if rc != 0:
            raise SystemExit("kso schedule %s failed" % path)
        rows.append((name, n, e, m, loop, e2e, m / e2e, kube, loop / kube,
                     m / e2e / kube, rss))
        print("%-18s %5d %5d %5d %10.0f %9.2f %10.0f %9d %7.1fx %7.1fx %7.0f" %
              rows[-1], flush=True)
    print()
    print("loop/s: the oracle's scheduling loop (bench_driver, preemption on);")
    print("  e2e: `kso schedule FILE -o json` wall time, loading to printing, with")
    print("  the invariants checked after every step (e2e/s = pending / e2e_s).")
    print("  kube/s: kube-scheduler v1.30.12's median on the same shape, measured")
    print("  separately (not in this run); loop/k and e2e/k the ratios to it.")
    print()


def bench_impl():
    """kso's own CPU per kso-impl/1 request: kso enum on a shard of the
    default universe with an implementation that answers at once
    (scripts/instant_impl.py), minus the same run without --impl, over
    the requests sent (one per decision class).  cpu: the kso process's
    threads only (the summary's cpu line), so the implementation's time is
    not counted.  Runs alternate, best of three each."""
    subprocess.check_call(["make", "-s", "-C", ROOT, "kso"])
    impl = "%s %s" % (sys.executable, os.path.join(ROOT, "scripts",
                                                     "instant_impl.py"))
    base = ["--shard", "1/16", "--jobs", "1", "--force"]
    plain, judged = [], []
    for _ in range(3):
        plain.append(enum_row("plain", base))
        judged.append(enum_row("impl", base + ["--impl", impl]))
    kso = os.path.join(ROOT, "kso")
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run([kso, "enum"] + base + [
            "--db", os.path.join(tmp, "d.db"), "--quiet"],
            capture_output=True, text=True).stdout
    requests = int(re.search(r"^decisions:\s+\d+ \((\d+) classes", out,
                             re.M).group(1))
    p = min(r["cpu_seconds"] for r in plain)
    j = min(r["cpu_seconds"] for r in judged)
    per = (j - p) / requests * 1e6 if requests else 0.0
    print("kso-impl/1 requests  %d (default universe, shard 1/16)" % requests)
    print("kso cpu without impl %.2f s, with an instant impl %.2f s" % (p, j))
    print("kso's own cost       %.1f us per request (writing the request, "
          "reading the answer, judging it)" % per)
    print()


def bench_scheduling(only, budget, no_model):
    suite = [s for s in SUITE if not only or any(s[0].startswith(o) for o in only)]
    large = not only or any(LARGE[0].startswith(x) for x in only)
    if not suite and not large:
        return
    exe = build_driver()
    began = time.time()
    rows = []
    head = ("%-27s %5s %6s %6s %10s %12s %-13s %8s %7s %7s" %
            ("workload", "nodes", "pods", "meas.", "oracle/s", "model/s",
             "model on", "ratio", "rss_MB", "load_s"))
    print(head)
    print("-" * len(head), flush=True)
    for name, nodes, init, pending, measure in suite:
        path = suite_file(name, nodes, init, pending)
        preempt = name == "Preemption"
        o = run(exe, "oracle", path, measure, preempt)
        m = None
        if not no_model:
            m = run(exe, "model", path, measure, preempt, budget)
        orate = float(o["pods_per_s"])
        mrate = float(m["pods_per_s"]) if m else 0.0
        ratio = orate / mrate if mrate > 0 else 0.0
        on = "-"
        if m:
            on = "%s/%d%s" % (m["measured"], measure,
                              " (extr.)" if int(m["measured"]) < measure else "")
        rows.append({
            "workload": name, "nodes": nodes, "existing_pods": int(o["pods"]) - int(o["pending"]),
            "measured_pods": measure, "oracle_pods_per_s": orate,
            "oracle_sched_s": float(o["sched_s"]), "oracle_scheduled": int(o["scheduled"]),
            "oracle_preempted": int(o["preempted"]),
            "model_pods_per_s": mrate, "model_measured": int(m["measured"]) if m else 0,
            "model_extrapolated": bool(m) and int(m["measured"]) < measure,
            "ratio": ratio, "oracle_rss_mb": float(o["rss_mb"]),
            "model_rss_mb": float(m["rss_mb"]) if m else 0.0,
            "load_s": float(o["load_s"]), "init_s": float(o["init_s"]),
        })
        print("%-27s %5d %6d %6d %10s %12s %-13s %8s %7.0f %7.2f" % (
            name, nodes, int(o["pods"]), measure, fmt_rate(orate),
            fmt_rate(mrate) if m else "-", on, ("%.0fx" % ratio) if m else "-",
            float(o["rss_mb"]), float(o["load_s"])), flush=True)
    if large:
        name, nodes, pods, pending = LARGE
        path = generate(["perf", "--nodes", str(nodes), "--pods", str(pods),
                         "--pending", str(pending)],
                        os.path.join(OUT, "%s-%dn.json" % (name, nodes)))
        o = run(exe, "oracle", path, pending)
        rows.append({
            "workload": name, "nodes": nodes, "existing_pods": pods - pending,
            "measured_pods": pending, "oracle_pods_per_s": float(o["pods_per_s"]),
            "oracle_sched_s": float(o["sched_s"]), "oracle_scheduled": int(o["scheduled"]),
            "oracle_preempted": 0, "model_pods_per_s": 0.0, "model_measured": 0,
            "model_extrapolated": False, "ratio": 0.0,
            "oracle_rss_mb": float(o["rss_mb"]), "model_rss_mb": 0.0,
            "load_s": float(o["load_s"]), "init_s": float(o["init_s"]),
        })
        print("%-27s %5d %6d %6d %10s %12s %-13s %8s %7.0f %7.2f" % (
            name, nodes, pods, pending, fmt_rate(float(o["pods_per_s"])), "-", "-", "-",
            float(o["rss_mb"]), float(o["load_s"])), flush=True)
    print()
    print("oracle/s, model/s: pods scheduled per second of the scheduling loop alone")
    print("  (one core; YAML loading is load_s, not counted).  model on K/N: the model")
    print("  ran the first K of the N measured pods (%gs budget); its rate is" % budget)
    print("  extrapolated to all N.  ratio = oracle/s / model/s, same run.  rss_MB: peak")
    print("  resident set of the oracle's process (loading included).")
    cols = list(rows[0].keys()) if rows else []
    with open(CSV, "w") as f:
        f.write(",".join(cols) + "\n")
        for r in rows:
            f.write(",".join(str(r[c]) for c in cols) + "\n")
    print("written %s (%.0fs)" % (os.path.relpath(CSV, ROOT), time.time() - began))
    print()


def has_detail(exe):
    """exe's kso schedule knows --detail (issue 37: without it -o json
    steps leave out the viable lists, which older binaries always print)."""
    out = subprocess.run([exe, "schedule", "--help"], capture_output=True,
                         text=True)
    return "--detail" in out.stdout + out.stderr


def bench_side_by_side(old):
    """KSO_BENCH_OLD against ./kso, alternating on one machine in one run:
    the only comparison this noisy 2-core machine makes fair."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import workload
    new = os.path.join(ROOT, "kso")
    rounds = int(os.environ.get("KSO_BENCH_ROUNDS", "5"))
    detail = {"old": has_detail(old), "new": has_detail(new)}
    cases = []
    for name in sorted(workload.REFERENCE) + ["csipv-5000"]:
        path = generate([name], os.path.join(OUT, "ref-%s.json" % name))
        cases.append(("schedule " + name, ["schedule", path, "-o", "json"]))
    # each binary its own database ({db} below)
    cases.append(("enum default 1/4", ["enum", "--db", "{db}", "--force",
                                       "--quiet", "--shard", "1/4", "--jobs", "1"]))
    head = "%-26s %9s %9s %8s %8s %8s %8s %s" % (
        "case", "old_cpu", "new_cpu", "new/old", "old_s", "new_s", "new_MB",
        "output")
    print(head)
    print("-" * len(head), flush=True)
    for label, args in cases:
        cpu = {"old": [], "new": []}
        wall = {"old": [], "new": []}
        rss = {"old": 0.0, "new": 0.0}
        outs = {}
        for _ in range(rounds):
            for which, exe in (("old", old), ("new", new)):
                db = os.path.join(OUT, "side-%s.db" % which)
                cmd = [exe] + [a.replace("{db}", db) for a in args]
                # the same bytes from both: the viable lists asked for
                if args[0] == "schedule" and detail[which]:
                    cmd.append("--detail")
                rc, out, c, r, w = time_v(cmd)
                if rc not in (0, 1):
                    raise SystemExit("%s failed (%d)" % (" ".join(cmd), rc))
                cpu[which].append(c)
                wall[which].append(w)
                rss[which] = max(rss[which], r)
                # enum prints its timing and its database: compare the
                # counts only
                outs[which] = b"\n".join(
                    l for l in out.splitlines()
                    if not l.startswith((b"time:", b"cpu:", b"list them:")))
        med = {k: sorted(v)[rounds // 2] for k, v in cpu.items()}
        print("%-26s %9.3f %9.3f %7.2fx %8.3f %8.3f %8.0f %s" % (
            label, med["old"], med["new"],
            med["new"] / med["old"] if med["old"] > 0 else 0.0,
            sorted(wall["old"])[rounds // 2], sorted(wall["new"])[rounds // 2],
            rss["new"], "identical" if outs["old"] == outs["new"] else "DIFFERS"),
            flush=True)
    print()
    print("old: KSO_BENCH_OLD; new: ./kso.  Median CPU seconds (user + system)")
    print("  and wall seconds of %d runs each, alternating old, new on the" % rounds)
    print("  same inputs; new/old < 1 is faster; new_MB: ./kso's peak RSS.")
    print("  output: the two stdouts (schedule with --detail where the binary")
    print("  has it; enum without its timing and database lines); a feature the old binary")
    print("  lacks (csipv-5000: claims) differs by design.")
    print()


# kso schedule end to end beside kso validate: (label, workload.py args);
# the big ones only with BENCH_BIG=1
SCALE = [
    ("perf 5k nodes/10k pods", ["perf", "--nodes", "5000", "--pods", "10000",
                                "--pending", "10000"], False),
    ("perf 20k nodes/100k pods", ["perf", "--nodes", "20000", "--pods",
                                  "100000", "--pending", "100000"], True),
    ("perf 50k nodes/500k pods", ["perf", "--nodes", "50000", "--pods",
                                  "500000", "--pending", "500000"], True),
]


def bench_schedule():
    """`kso schedule FILE -o json` (loading, the loop, the invariants after
    every step, printing) against `kso validate FILE` (loading alone) on
    the same file: CPU seconds and peak RSS of each, their ratios (issue
    37: schedule within 3x of validate in both) and the JSON's size."""
    subprocess.check_call(["make", "-s", "-C", ROOT, "kso"])
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import workload
    kso = os.path.join(ROOT, "kso")
    big = os.environ.get("BENCH_BIG") == "1"
    cases = [(name, os.path.join(OUT, "ref-%s.json" % name), [name])
             for name in sorted(workload.REFERENCE)]
    for label, args, is_big in SCALE:
        if big or not is_big:
            cases.append((label, os.path.join(
                OUT, "scale-%s.json" % "-".join(args[2::2])), args))
    head = "%-26s %7s %9s %9s %7s %8s %8s %6s %9s" % (
        "schedule -o json", "steps", "val_cpu", "sch_cpu", "cpu_x", "val_MB",
        "sch_MB", "mem_x", "json_MB")
    print(head)
    print("-" * len(head), flush=True)
    for label, path, args in cases:
        generate(args, path)
        rc, _, vcpu, vrss, _ = time_v([kso, "validate", path])
        if rc != 0:
            raise SystemExit("kso validate %s failed" % path)
        rc, out, scpu, srss, _ = time_v([kso, "schedule", path, "-o", "json"])
        if rc != 0:
            raise SystemExit("kso schedule %s failed (%d)" % (path, rc))
        size = len(out)
        steps = json.loads(out)["summary"]["steps"]
        del out
        print("%-26s %7d %9.2f %9.2f %6.1fx %8.0f %8.0f %5.1fx %9.1f" % (
            label, steps, vcpu, scpu, scpu / vcpu if vcpu > 0 else 0.0, vrss,
            srss, srss / vrss if vrss > 0 else 0.0, size / 1e6), flush=True)
    print()
    print("val: kso validate FILE (loading alone); sch: kso schedule FILE -o json.")
    print("  cpu: user + system seconds; MB: peak RSS; cpu_x, mem_x: schedule over")
    print("  validate (issue 37's goal: under 3x).  CPU seconds under 0.1 s are")
    print("  at /usr/bin/time's 10 ms resolution: callgrind for those.")
    print()


# The TLC yardstick's universes: (size, symmetry, big); expected classes
# with node symmetry from its README (TLC's distinct states)
TLA_RUNS = [("6x7", False, False), ("6x8", True, False), ("7x8", True, False),
            ("6x8", False, True)]
TLA_CLASSES = {"6x8": 1177958, "7x8": 2040555}


def bench_tla():
    """kso enum on the TLC yardstick universes, counts checked."""
    root = os.environ.get("KSO_BENCH_TLA", "/work/shared/bench/tla/kso")
    if not os.path.isdir(os.path.join(root, "universes")):
        print("TLA: no yardstick at %s (KSO_BENCH_TLA): skipped" % root)
        print()
        return
    subprocess.check_call(["make", "-s", "-C", ROOT, "kso"])
    kso = os.path.join(ROOT, "kso")
    big = os.environ.get("BENCH_BIG") == "1"
    head = "%-5s %5s %9s %9s %-8s %8s %8s %12s %7s" % (
        "size", "symm", "states", "classes", "counts", "cpu_s", "wall_s",
        "states/cpu_s", "rss_MB")
    print(head)
    print("-" * len(head), flush=True)
    for size, symm, is_big in TLA_RUNS:
        if is_big and not big:
            continue
        nn, pp = (int(x) for x in size.split("x"))
        uni = os.path.join(root, "universes", size + ".yaml")
        if not os.path.exists(uni):
            print("%-5s missing %s" % (size, uni))
            continue
        args = [uni, "--jobs", "1", "--force"] + ([] if symm else ["--no-symmetry"])
        r = enum_row(size, args)
        want_states = (nn + 1) ** pp
        want_classes = TLA_CLASSES.get(size) if symm else want_states
        ok = r["states"] == want_states and (want_classes is None or
                                             r["classes"] == want_classes)
        print("%-5s %5s %9d %9d %-8s %8.2f %8.2f %12.0f %7.0f" % (
            size, "yes" if symm else "no", r["states"], r["classes"],
            "ok" if ok else "MISMATCH", r["cpu_seconds"], r["seconds"],
            r["states_per_cpu_s"], r["rss_mb"]), flush=True)
    print()
    print("kso enum on %s/universes (placements mode, one thread)." % root)
    print("  counts: states = (N+1)^P, classes = the yardstick's distinct states")
    print("  with node symmetry (its README); cpu_s from kso's own summary.")
    print()


# (label, nodes, pods, decisions, wrong, unschedulable, old binary too)
CHECK_CASES = [
    ("200 nodes, 1k decisions", 200, 3000, 1000, 5, 3, True),
    ("1000 nodes, 2k decisions", 1000, 10000, 2000, 5, 3, True),
    ("5000 nodes, 100k decisions", 5000, 150000, 100000, 20, 20, False),
]


def time_v(cmd):
    """(exit status, stdout, user+system CPU s, peak RSS MB, wall s) of cmd
    under /usr/bin/time -v."""
    proc = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)
    err = proc.stderr.decode()

    def field(name):
        m = re.search(r"%s: (\S+)" % re.escape(name), err)
        return m.group(1) if m else "0"
    cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
    rss = int(field("Maximum resident set size (kbytes)")) / 1024.0
    wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)")
    parts = [float(x) for x in wall.split(":")]
    secs = 0.0
    for x in parts:
        secs = secs * 60 + x
    return proc.returncode, proc.stdout, cpu, rss, secs


def verdict_lines(out):
    rows, summary = [], None
    for line in out.decode().splitlines():
        d = json.loads(line)
        if "summary" in d:
            summary = d["summary"]
        else:
            rows.append((d["seq"], d["pod"], d["verdict"]))
    return rows, summary


def bench_check(old):
    """./kso check (and KSO_BENCH_OLD) on generated recorded days."""
    new = os.path.join(ROOT, "kso")
    gen = os.path.join(ROOT, "scripts", "watchlog.py")
    head = "%-28s %8s %9s %9s %9s %9s %7s %10s %s" % (
        "check", "decisions", "old_cpu_s", "old_MB", "new_cpu_s", "new_MB",
        "new_s", "new_dec/s", "findings / verdicts")
    print(head)
    print("-" * len(head), flush=True)
    for label, nodes, pods, decisions, wrong, unsched, with_old in CHECK_CASES:
        path = os.path.join(OUT, "check-%d-%d-%d.json" % (nodes, pods, decisions))
        if not os.path.exists(path + ".expected.json"):
            subprocess.run([sys.executable, gen, "--nodes", str(nodes), "--pods",
                            str(pods), "--decisions", str(decisions), "--wrong",
                            str(wrong), "--unschedulable", str(unsched), "-o",
                            path], check=True)
        with open(path + ".expected.json") as f:
            expected = json.load(f)
        rc, out, cpu, rss, wall = time_v([new, "check", path])
        rows, summary = verdict_lines(out)
        found = [seq for seq, _, v in rows if v != "ok"]
        ok = found == expected["wrong"] and len(rows) == decisions
        old_cpu = old_rss = "-"
        same = ""
        if old and with_old:
            _, old_out, c, r, _ = time_v([old, "check", path])
            old_cpu, old_rss = "%.1f" % c, "%.0f" % r
            same = ", verdicts %s" % ("identical" if verdict_lines(old_out)[0] == rows
                                      else "DIFFER")
        print("%-28s %8d %9s %9s %9.1f %9.0f %7.1f %10.0f %s%s" % (
            label, decisions, old_cpu, old_rss, cpu, rss, wall,
            decisions / wall if wall else 0,
            "%d at the injected decisions" % len(found) if ok else
            "WRONG: %s" % found[:10], same), flush=True)
    print()
    print("CPU s: user + system; MB: peak RSS; new_s: wall seconds (the 2-core")
    print("  machine is shared: CPU seconds are the steadier figure).  The goal")
    print("  (issue 36): 100k decisions at 5,000 nodes under a minute, under 2 GB.")
    print()


def main():
    # every case writes its inputs there, a fresh checkout has none
    os.makedirs(OUT, exist_ok=True)
    only = [s for s in os.environ.get("KSO_BENCH_ONLY", "").split(",") if s]
    old = os.environ.get("KSO_BENCH_OLD")
    if old:
        if not only or any("Side".startswith(x) for x in only):
            bench_side_by_side(old)
        if only == ["Side"]:
            return
    if not only or any("Check".startswith(x) for x in only):
        bench_check(old)
        if only == ["Check"]:
            return
    budget = float(os.environ.get("KSO_BENCH_BUDGET", "4"))
    no_model = os.environ.get("KSO_BENCH_NO_MODEL") == "1"
    bench_scheduling(only, budget, no_model)
    if not only or any("Enum".startswith(x) for x in only):
        bench_enum()
    if not only or any("Impl".startswith(x) for x in only):
        bench_impl()
    if not only or any("Reference".startswith(x) for x in only):
        bench_reference()
    if not only or any("Schedule".startswith(x) for x in only):
        bench_schedule()
    if not only or any("TLA".startswith(x) for x in only):
        bench_tla()


if __name__ == "__main__":
    main()
