"""
conftest.py - shared helpers for the end-to-end pytest suite.

Runs `kso explain FIXTURE -o json` (the binary from the KSO environment
variable, default the repository's ./kso) under both engines, which must
print the same bytes (KSO_ENGINE=model|oracle runs only that one), and
checks the JSON against
expectations worked out by hand from shared/reference/kube-scheduler-v1.30.md
and the seeds.  Nothing is skipped: a missing kso binary, a non-zero exit or
unparsable output fails the test loudly.

The explain JSON (these keys, spelled exactly so, at least):
  {"pod": "ns/name",
   "nodes": {"<node>": {"feasible": bool, "rejected_by": "<plugin>|\"\"",
                        "failed_filters": [...], "reasons": [...],
                        "scores": {"<ScorePlugin>": weighted}, "total": int}},
   "viable": [...], "preemption": null, "message": "..."}
"""
import json
import os
import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
KSO = os.environ.get("KSO", str(REPO / "kso"))
# tables fit $COLUMNS even in a pipe: the tests read them whole unless a
# test asks for a width (tests/test_table_width.py)
os.environ.pop("COLUMNS", None)
# Every kso this suite runs answers for v1.30 unless a test names another
# release: the expected values were worked out for v1.30, whichever
# release kso's default is (KSO_KUBE_VERSION, doc/commands.md).  Tests of
# the default itself, and the README's commands as a user types them,
# run without it (UNPINNED_ENV).
os.environ["KSO_KUBE_VERSION"] = "1.30"
UNPINNED_ENV = {k: v for k, v in os.environ.items() if k != "KSO_KUBE_VERSION"}
# KSO_ENGINE=oracle runs the same expectations through another engine
# (`kso explain --engine`); unset: kso's default engine.
KSO_ENGINE = os.environ.get("KSO_ENGINE", "")

TOP_KEYS = {"pod", "nodes", "viable", "preemption", "message"}
NODE_KEYS = {"feasible", "rejected_by", "failed_filters", "reasons",
             "scores", "total"}

def fixture_path(rel):
    """Absolute path of fixtures/REL; the file must exist."""
    p = FIXTURES / rel
    assert p.is_file(), f"fixture {p} is missing"
    return p


def run_kso(*args):
    """Runs kso with args; returns the CompletedProcess (never raises on a
    non-zero exit).  Fails the test if the binary is missing."""
    assert os.path.isfile(KSO) and os.access(KSO, os.X_OK), \
        f"kso binary not found or not executable at {KSO} (set KSO=...)"
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def explain(fixture, pod=None, config=None, extension=None):
    """`kso explain fixtures/FIXTURE [--pod POD] [--config fixtures/CONFIG]
    [--extension EXTENSION] -o json`, parsed.  Fails on a non-zero exit or
    bad JSON."""
    args = ["explain", fixture_path(fixture)]
    if pod:
        args += ["--pod", pod]
    if config:
        args += ["--config", fixture_path(config)]
    if extension:
        args += ["--extension", extension]
    args += ["-o", "json"]
    return json_of_both_engines(*args)


def json_of_both_engines(*args):
    """`kso ARGS --engine E` for both engines (or KSO_ENGINE's one), which
    must exit 0 and print the same bytes; their output parsed as JSON.
    Every hand-derived expectation holds for both engines."""
    engines = [KSO_ENGINE] if KSO_ENGINE else ["oracle", "model"]
    runs = [run_kso(*args, "--engine", e) for e in engines]
    for e, r in zip(engines, runs):
        assert r.returncode == 0, \
            f"kso {' '.join(map(str, args))} --engine {e} exited " \
            f"{r.returncode}: {r.stderr}"
    r = runs[0]
    assert all(x.stdout == r.stdout for x in runs), \
        f"kso {' '.join(map(str, args))}: the engines' outputs differ"
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError as e:
        raise AssertionError(f"kso {args[0]} printed invalid JSON ({e}):\n"
                             f"{r.stdout[:2000]}")


def node(out, name):
    """The JSON entry of node NAME (must be present)."""
    assert name in out["nodes"], \
        f"node {name} missing from explain output: {sorted(out['nodes'])}"
    return out["nodes"][name]


def score(out, name, plugin):
    """Weighted score of PLUGIN on node NAME, or None when the output has
    no entry for it (not scored there)."""
    return node(out, name)["scores"].get(plugin)


def check_shape(out):
    """The documented keys (spelled exactly so; kso may add more), and the
    definitional invariants: a feasible node has no rejection, total = sum
    of its scores, viable = the feasible nodes of maximal total (none when
    the cycle is an Error)."""
    assert TOP_KEYS <= set(out), f"top-level keys {sorted(out)}"
    feasible = {}
    for name, n in out["nodes"].items():
        assert NODE_KEYS <= set(n), f"node {name} keys {sorted(n)}"
        if n["feasible"]:
            assert n["rejected_by"] == "", (name, n)
            assert n["failed_filters"] == [], (name, n)
            assert n["total"] == sum(n["scores"].values()), (name, n)
            feasible[name] = n["total"]
        else:
            assert name not in out["viable"], (name, out["viable"])
    if out.get("code") == "Error":
        assert out["viable"] == [] and not out["scored"], out   # nothing chosen
    elif feasible:
        best = max(feasible.values())
        assert sorted(out["viable"]) == sorted(
            k for k, v in feasible.items() if v == best), out["viable"]
    else:
        assert out["viable"] == []


def check(out, exp):
    """Checks explain output OUT against the hand-derived expectation EXP:
      pod        "ns/name"
      feasible   set of feasible nodes (exactly; nodes absent from the
                 output count as infeasible)
      rejected   {node: (plugin, [reasons])}: infeasible, rejected_by is
                 plugin, and reasons is exactly this list
      failed     {node: [filters]}: every failing filter, exactly, in
                 kube's Filter order
      scores     {node: {plugin: weighted score}}; an entry the output
                 lacks reads as None, never as 0
      totals     {node: total}
      viable     set of viable nodes
      message    kube's FitError text when nothing fits; kso may append the
                 PostFilter part (" preemption: ...") as kube's event does
      absent_ok  nodes that may be missing from "nodes" (excluded by a
                 PreFilterResult: kube records no status for them)
    """
    check_shape(out)
    if exp.get("pod"):
        assert out["pod"] == exp["pod"]
    absent_ok = set(exp.get("absent_ok", ()))
    if "feasible" in exp:
        got = {k for k, v in out["nodes"].items() if v["feasible"]}
        assert got == set(exp["feasible"]), \
            f"feasible: expected {sorted(exp['feasible'])}, got {sorted(got)}"
    for name, (plugin, reasons) in exp.get("rejected", {}).items():
        if name in absent_ok and name not in out["nodes"]:
            continue
        n = node(out, name)
        assert not n["feasible"], f"{name} should be infeasible"
        assert n["rejected_by"] == plugin, \
            f"{name}: rejected_by {n['rejected_by']!r}, expected {plugin!r}"
        assert n["reasons"] == list(reasons), \
            f"{name}: reasons {n['reasons']}, expected exactly {reasons}"
    for name, filters in exp.get("failed", {}).items():
        n = node(out, name)
        assert n["failed_filters"] == list(filters), \
            f"{name}: failed_filters {n['failed_filters']}, expected " \
            f"exactly {filters}"
    for name, plugins in exp.get("scores", {}).items():
        for plugin, want in plugins.items():
            got = score(out, name, plugin)
            assert got == want, \
                f"{name}: scores[{plugin}] = {got}, expected {want}"
    for name, want in exp.get("totals", {}).items():
        assert node(out, name)["total"] == want, \
            f"{name}: total {node(out, name)['total']}, expected {want}"
    for name in absent_ok:
        if name in out["nodes"]:
            assert not out["nodes"][name]["feasible"], name
    if "viable" in exp:
        assert sorted(out["viable"]) == sorted(exp["viable"]), \
            f"viable: expected {sorted(exp['viable'])}, got {out['viable']}"
    if "message" in exp:
        want = exp["message"]
        got = out["message"]
        assert got == want or got.startswith(want + " preemption: "), \
            f"message:\n  got      {got!r}\n  expected {want!r}"
    elif out["viable"]:
        assert not out["message"], \
            f"a pod that fits has no FitError message: {out['message']!r}"


def run_case(case):
    """Runs one case dict (fixture, pod, config, + expectations)."""
    out = explain(case["fixture"], case.get("pod"), case.get("config"),
                  case.get("extension"))
    check(out, case)
    extra = case.get("extra")
    if extra:
        extra(out)
    return out
