"""ITF traces of the scheduler loop (`kso schedule -o itf`, cli/itf.h) and
`kso replay`: the trace has the fields the Informal Trace Format requires
(Apalache ADR-015) and Quint's model-based-testing variables; every
decision in it is the one kube's rules give for the scenario (worked out
by hand below); replaying it with either engine agrees at every step; a
trace with one decision altered stops the replay at exactly that step."""
import copy
import json
import sqlite3
import subprocess

import pytest

from conftest import FIXTURES, run_kso

# n1 holds 1 cpu, n2 2 cpu.  Pending a (1500m) and b (800m), equal
# priority: activeQ takes a first (manifest order).  a fits n2 only
# (1500m > 1000m on n1); then b fits n1 only (n2 has 500m left).
TWO_PODS = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: default}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 1500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: default}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: 800m}}}]}
"""

# n1 of 1 cpu holds low (1 cpu, priority 0).  high (1 cpu, priority 10)
# fits nowhere, so DefaultPreemption evicts low and nominates n1 (step 1);
# high then binds to n1 through its nominated node (step 2).
PREEMPT = """\
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 10
---
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: high, namespace: default}
spec:
  priorityClassName: high
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
"""

# n1 and n2 of 1 cpu each hold low1 and low2 (1 cpu, priority 0).  high
# (1 cpu, priority 10) fits nowhere; evicting low1 on n1 or low2 on n2 tie
# on every key of §3.5, and kube's candidate walk starts at a random
# offset (§3.3), so either is kube's answer (kso's loop takes n1, offset
# 0).  Evicting low1 to free n2 is no answer at all.
TIED = PREEMPT.replace("""---
apiVersion: v1
kind: Pod
metadata: {name: low, namespace: default}
spec:
  nodeName: n1""", """---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "1", memory: 4Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: low1, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: low2, namespace: default}
spec:
  nodeName: n2""")

NONE = {"tag": "None", "value": {"#tup": []}}


def some(v):
    return {"tag": "Some", "value": v}


def trace_of(tmp_path, text, *extra, name="c.yaml"):
    f = tmp_path / name
    f.write_text(text)
    p = run_kso("schedule", f, "-o", "itf", *extra)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def write(tmp_path, trace, name="t.itf.json"):
    f = tmp_path / name
    f.write_text(json.dumps(trace, indent=1))
    return f


def replay(path, *extra):
    return run_kso("replay", path, *extra)


def test_itf_required_fields_and_mbt_variables(tmp_path):
    t = trace_of(tmp_path, TWO_PODS)
    assert t["#meta"]["format"] == "ITF"
    assert t["vars"] == ["placement", "nominated", "evicted", "queue",
                         "unschedulable", "absent", "mbt::actionTaken",
                         "mbt::nondetPicks"]
    assert len(t["states"]) == 3
    for i, s in enumerate(t["states"]):
        assert s["#meta"]["index"] == i
        assert set(s) == set(t["vars"]) | {"#meta"}
        assert set(s["mbt::nondetPicks"]) == {"pod", "node", "victims"}
    # the manifests and the configuration travel in the trace
    kso = t["#meta"]["kso"]
    assert [n["metadata"]["name"] for n in kso["cluster"]["nodes"]] == \
        ["n1", "n2"]
    assert kso["schedulerConfiguration"]["kind"] == \
        "KubeSchedulerConfiguration"


def test_itf_states_are_kubes_decisions(tmp_path):
    s = trace_of(tmp_path, TWO_PODS)["states"]
    assert s[0]["mbt::actionTaken"] == "init"
    assert s[0]["mbt::nondetPicks"] == {"pod": NONE, "node": NONE,
                                        "victims": NONE}
    assert s[0]["placement"] == {"#map": []}
    assert s[0]["queue"] == ["default/a", "default/b"]
    assert s[1]["mbt::actionTaken"] == "bind"
    assert s[1]["mbt::nondetPicks"] == {"pod": some("default/a"),
                                        "node": some("n2"), "victims": NONE}
    assert s[1]["#meta"]["viable"] == ["n2"]
    assert s[1]["queue"] == ["default/b"]
    assert s[2]["mbt::nondetPicks"]["node"] == some("n1")
    assert s[2]["placement"] == {"#map": [["default/a", "n2"],
                                          ["default/b", "n1"]]}
    assert s[2]["queue"] == []


def test_itf_preemption_step(tmp_path):
    s = trace_of(tmp_path, PREEMPT)["states"]
    assert s[1]["mbt::actionTaken"] == "preempt"
    assert s[1]["mbt::nondetPicks"] == {
        "pod": some("default/high"), "node": some("n1"),
        "victims": some({"#set": ["default/low"]})}
    assert s[1]["evicted"] == {"#set": ["default/low"]}
    assert s[1]["nominated"] == {"#map": [["default/high", "n1"]]}
    assert s[1]["#meta"]["message"] == \
        "0/1 nodes are available: 1 Insufficient cpu."
    assert s[2]["mbt::actionTaken"] == "bind"
    assert s[2]["placement"] == {"#map": [["default/high", "n1"]]}
    assert s[2]["nominated"] == {"#map": []}


@pytest.mark.parametrize("engine", ["oracle", "model"])
@pytest.mark.parametrize("text", [TWO_PODS, PREEMPT], ids=["bind", "preempt"])
def test_replay_agrees_with_either_engine(tmp_path, engine, text):
    f = write(tmp_path, trace_of(tmp_path, text))
    p = replay(f, "--engine", engine)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout.endswith(f"replayed 2 steps with the {engine} engine: "
                             "every decision is the trace's\n")


def test_replay_of_longer_runs(tmp_path):
    # preemptions, failures and retries; a generated cluster run with the
    # seeded random tie rule and preemption offset (the replay makes the
    # same draws)
    gen = FIXTURES.parent / "scripts" / "gen_cluster.py"
    g = tmp_path / "g.yaml"
    subprocess.run(["/usr/bin/python3", str(gen), "--nodes", "12", "--bound",
                    "30", "--pending", "30", "--zones", "3", "--seed", "5",
                    "-o", str(g)], check=True)
    runs = [((FIXTURES / "preemption" / "loop.yaml").read_text(), []),
            ((FIXTURES / "preemption" / "pdb-reprieve.yaml").read_text(), []),
            (g.read_text(), ["--tie", "random", "--seed", "11"])]
    for text, extra in runs:
        t = trace_of(tmp_path, text, *extra)
        assert len(t["states"]) >= 3
        f = write(tmp_path, t)
        for engine in ("oracle", "model"):
            p = replay(f, "--engine", engine, "-o", "json")
            assert p.returncode == 0, (engine, p.stdout)
            out = json.loads(p.stdout)
            assert out["first_difference"] is None
            assert out["total"] == len(t["states"]) - 1
            assert all(s["same"] for s in out["steps"])


def test_altered_node_stops_at_that_step(tmp_path):
    t = trace_of(tmp_path, TWO_PODS)
    bad = copy.deepcopy(t)
    # b cannot fit n2 (500m left): the trace now says it binds there
    bad["states"][2]["mbt::nondetPicks"]["node"] = some("n2")
    p = replay(write(tmp_path, bad), "-o", "json")
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["first_difference"] == 2
    assert [s["same"] for s in out["steps"]] == [True, False]
    assert out["steps"][1]["trace"] == "bind n2"
    assert out["steps"][1]["engine"] == "bind n1"
    # why: the filter that rejects the trace's node, with kube's reason
    assert out["steps"][1]["differs"] == (
        "the engine decides otherwise: n2 is rejected by NodeResourcesFit: "
        "Insufficient cpu")
    p = replay(write(tmp_path, bad))
    assert p.returncode == 1
    assert p.stdout.splitlines()[-1] == "step 2 of 2 differs (the oracle engine)"


def test_a_node_that_scores_lower_is_named_with_the_scores(tmp_path):
    # fixtures/impl/cluster.yaml's header: p's viable set is {b}; c is
    # feasible and loses 30 on each resource score (63 < 93, 69 < 99)
    t = trace_of(tmp_path, (FIXTURES / "impl" / "cluster.yaml").read_text())
    bad = copy.deepcopy(t)
    bad["states"][1]["mbt::nondetPicks"]["node"] = some("c")
    out = json.loads(replay(write(tmp_path, bad), "-o", "json").stdout)
    assert out["steps"][0]["differs"] == (
        "the engine decides otherwise: c is feasible but scores 432, the "
        "viable nodes (b) 492; weighted scores that decide: "
        "NodeResourcesFit c 63 < b 93, NodeResourcesBalancedAllocation c 69 "
        "< b 99")


def test_altered_victims_and_message(tmp_path):
    t = trace_of(tmp_path, PREEMPT)
    bad = copy.deepcopy(t)
    bad["states"][1]["mbt::nondetPicks"]["victims"] = some({"#set": []})
    out = json.loads(replay(write(tmp_path, bad), "-o", "json").stdout)
    assert out["first_difference"] == 1
    assert out["steps"][0]["engine"] == "preempt n1 evicting default/low"
    bad = copy.deepcopy(t)
    bad["states"][1]["#meta"]["message"] = \
        "0/1 nodes are available: 1 Insufficient memory."
    p = replay(write(tmp_path, bad), "-o", "json")
    assert p.returncode == 1
    out = json.loads(p.stdout)
    assert out["first_difference"] == 1
    assert "0/1 nodes are available: 1 Insufficient cpu." in \
        out["steps"][0]["differs"]


def test_hand_built_order_is_kubes(tmp_path):
    # the trace schedules b first; activeQ takes a first (equal priority,
    # manifest order), so the replay stops at step 1 naming a
    t = trace_of(tmp_path, TWO_PODS)
    t["states"][1]["mbt::nondetPicks"] = {
        "pod": some("default/b"), "node": some("n1"), "victims": NONE}
    t["states"] = t["states"][:2]
    out = json.loads(replay(write(tmp_path, t), "-o", "json").stdout)
    assert out["first_difference"] == 1
    assert out["steps"][0]["differs"] == "the engine schedules default/a next"


def test_a_prefix_replays(tmp_path):
    t = trace_of(tmp_path, TWO_PODS)
    t["states"] = t["states"][:2]
    p = replay(write(tmp_path, t))
    assert p.returncode == 0
    assert "replayed 1 steps" in p.stdout


@pytest.mark.parametrize("mutate,where", [
    (lambda t: t.pop("states"), "(states)"),
    (lambda t: t["#meta"].pop("kso"), "(#meta.kso)"),
    (lambda t: t["states"][1].__setitem__("mbt::actionTaken", "fly"),
     "(states[1].mbt::actionTaken)"),
    (lambda t: t["states"][1]["mbt::nondetPicks"].__setitem__(
        "pod", some("default/nope")), "(states[1].mbt::nondetPicks.pod)"),
    (lambda t: t["states"][1]["mbt::nondetPicks"].__setitem__(
        "node", {"tag": "Maybe"}), "(states[1].mbt::nondetPicks.node)"),
])
def test_bad_traces_are_one_line_errors(tmp_path, mutate, where):
    t = trace_of(tmp_path, TWO_PODS)
    mutate(t)
    f = write(tmp_path, t)
    p = replay(f)
    assert p.returncode == 1 and p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"{f}:") and lines[0].endswith(where), lines


@pytest.mark.parametrize("engine", ["oracle", "model"])
def test_tied_preemption_candidate_is_kubes_too(tmp_path, engine):
    t = trace_of(tmp_path, TIED)
    assert t["states"][1]["mbt::nondetPicks"]["node"] == some("n1")
    assert t["states"][1]["mbt::nondetPicks"]["victims"] == \
        some({"#set": ["default/low1"]})
    other = copy.deepcopy(t)
    other["states"][1]["mbt::nondetPicks"]["node"] = some("n2")
    other["states"][1]["mbt::nondetPicks"]["victims"] = \
        some({"#set": ["default/low2"]})
    other["states"][2]["mbt::nondetPicks"]["node"] = some("n2")
    p = replay(write(tmp_path, other), "--engine", engine)
    assert p.returncode == 0, p.stdout
    wrong = copy.deepcopy(other)
    wrong["states"][1]["mbt::nondetPicks"]["victims"] = \
        some({"#set": ["default/low1"]})
    out = json.loads(replay(write(tmp_path, wrong), "--engine", engine,
                            "-o", "json").stdout)
    assert out["first_difference"] == 1


# ------------------------------------------- reachable-mode findings as ITF

UNIVERSES = FIXTURES / "universes"


def reachable_db(tmp_path, universe, *extra):
    db = tmp_path / "r.db"
    p = run_kso("enum", UNIVERSES / universe, "--mode", "reachable", "--db",
                db, "--force", "--quiet", *extra)
    assert p.returncode == 0, p.stderr
    return db


def placement_of(state):
    """The ITF state's bound pods: {"ns/pod": node}."""
    return dict(state["placement"]["#map"])


def test_worse_final_trace_replays(tmp_path):
    # tie-worse-final.yaml (derivation in its header): under its
    # configuration a ties n1/n2; a on n1 leaves b (2 cpu) nowhere to go:
    # n1 and n2 have 1 cpu free, n3 is tainted, a has b's priority
    db = reachable_db(tmp_path, "tie-worse-final.yaml")
    con = sqlite3.connect(db)
    (sid, placement), = con.execute(
        "SELECT s.id, s.placement FROM findings f JOIN states s "
        "ON s.id = f.state_id WHERE f.kind = 'worse-final'")
    assert placement == "default/a=n1 default/b=-"
    out = tmp_path / "wf.itf.json"
    p = run_kso("export", db, sid, "--itf", "--out", out)
    assert p.returncode == 0, p.stderr
    t = json.loads(out.read_text())
    s = t["states"]
    assert [x["mbt::actionTaken"] for x in s] == ["init", "bind",
                                                  "unschedulable"]
    assert s[1]["mbt::nondetPicks"] == {"pod": some("default/a"),
                                        "node": some("n1"), "victims": NONE}
    assert s[1]["#meta"]["viable"] == ["n1", "n2"]
    assert s[2]["mbt::nondetPicks"]["pod"] == some("default/b")
    assert s[2]["#meta"]["message"] == (
        "0/3 nodes are available: 1 node(s) had untolerated taint "
        "{dedicated: other}, 2 Insufficient cpu. preemption: 0/3 nodes are "
        "available: 1 Preemption is not helpful for scheduling, 2 No "
        "preemption victims found for incoming pod.")
    assert placement_of(s[2]) == {"default/a": "n1"}
    # the tie is kube's under the run's configuration, which the trace
    # carries: either engine replays it
    for engine in ("oracle", "model"):
        p = replay(out, "--engine", engine)
        assert p.returncode == 0, p.stdout


def test_each_reachable_finding_kind_replays(tmp_path):
    db = reachable_db(tmp_path, "default.yaml")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT f.kind, MIN(s.id), s.placement FROM findings f "
                       "JOIN states s ON s.id = f.state_id GROUP BY f.kind "
                       "ORDER BY f.kind").fetchall()
    assert [r[0] for r in rows] == ["breaks-earlier", "worse-final"]
    for kind, sid, placement in rows:
        out = tmp_path / f"{kind}.itf.json"
        p = run_kso("export", db, sid, "--itf", "--out", out)
        assert p.returncode == 0, (kind, p.stderr)
        t = json.loads(out.read_text())
        # the trace ends in the stored state
        want = {k: v for k, v in (e.split("=") for e in placement.split())
                if v != "-"}
        assert placement_of(t["states"][-1]) == want, kind
        for engine in ("oracle", "model"):
            p = replay(out, "--engine", engine)
            assert p.returncode == 0, (kind, engine, p.stdout)


def test_export_itf_refuses_what_has_no_trace(tmp_path):
    db = tmp_path / "p.db"
    p = run_kso("enum", UNIVERSES / "two-by-two.yaml", "--db", db,
                "--force", "--quiet", "--store", "all")
    assert p.returncode == 0, p.stderr
    p = run_kso("export", db, 1, "--itf")
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == (f"{db}: state 1 is from a placements run: only a "
                        "reachable-mode state has a trace (kso enum --mode "
                        "reachable)\n")


@pytest.mark.parametrize("engine", ["oracle", "model"])
def test_arrivals_trace_replays(tmp_path, engine):
    # two-by-two with --arrivals ordered (counts in test_enum.py): a final
    # state, a on n1 and b on n2, is reached in 4 steps - two arrivals (a
    # first: manifest order) and two binds; before a arrives both are
    # absent and nothing is queued
    db = reachable_db(tmp_path, "two-by-two.yaml", "--arrivals", "ordered",
                      "--store", "all", "--no-symmetry")
    con = sqlite3.connect(db)
    (sid,), = con.execute("SELECT id FROM states WHERE placement = "
                          "'default/a=n1 default/b=n2'").fetchall()
    out = tmp_path / "arr.itf.json"
    p = run_kso("export", db, sid, "--itf", "--out", out)
    assert p.returncode == 0, p.stderr
    s = json.loads(out.read_text())["states"]
    assert s[0]["absent"] == {"#set": ["default/a", "default/b"]}
    assert s[0]["queue"] == []
    assert s[1]["mbt::actionTaken"] == "arrive"
    assert s[1]["mbt::nondetPicks"]["pod"] == some("default/a")
    assert sorted(x["mbt::actionTaken"] for x in s[1:]) == \
        ["arrive", "arrive", "bind", "bind"]
    assert s[-1]["absent"] == {"#set": []}
    assert placement_of(s[-1]) == {"default/a": "n1", "default/b": "n2"}
    p = replay(out, "--engine", engine)
    assert p.returncode == 0, p.stdout
    # an arrival of a pod that is already there is a difference
    t = json.loads(out.read_text())
    t["states"][2] = copy.deepcopy(t["states"][1])
    t["states"] = t["states"][:3]
    o = json.loads(replay(write(tmp_path, t), "--engine", engine,
                          "-o", "json").stdout)
    assert o["first_difference"] == 2


def foreign_trace(steps):
    """An ITF trace as another tool (a Quint run with --mbt) writes it:
    its own #meta, no #meta.kso, only the variables kso reads.  steps:
    (action, pod, node) from state 1 on."""
    none = NONE
    states = [{"#meta": {"index": 0}, "mbt::actionTaken": "init",
               "mbt::nondetPicks": {"pod": none, "node": none,
                                    "victims": none}}]
    for i, (action, pod, node) in enumerate(steps, 1):
        states.append({
            "#meta": {"index": i}, "mbt::actionTaken": action,
            "mbt::nondetPicks": {"pod": some(pod),
                                 "node": some(node) if node else none,
                                 "victims": none}})
    return {"#meta": {"format": "ITF", "source": "scheduler.qnt",
                      "status": "ok"},
            "vars": ["mbt::actionTaken", "mbt::nondetPicks"],
            "states": states}


@pytest.mark.parametrize("engine", ["oracle", "model"])
def test_a_foreign_trace_replays_against_a_given_cluster(tmp_path, engine):
    # TWO_PODS worked out above: a binds to n2, then b to n1
    cluster = tmp_path / "c.yaml"
    cluster.write_text(TWO_PODS)
    good = write(tmp_path, foreign_trace([("bind", "default/a", "n2"),
                                          ("bind", "default/b", "n1")]))
    p = replay(good, "--cluster", cluster, "--engine", engine, "-o", "json")
    assert p.returncode == 0, p.stdout + p.stderr
    assert [s["same"] for s in json.loads(p.stdout)["steps"]] == [True, True]
    # b cannot bind to n2 (500m left after a): step 2 differs
    bad = write(tmp_path, foreign_trace([("bind", "default/a", "n2"),
                                         ("bind", "default/b", "n2")]),
                name="bad.itf.json")
    p = replay(bad, "--cluster", cluster, "--engine", engine, "-o", "json")
    assert p.returncode == 1
    assert json.loads(p.stdout)["first_difference"] == 2


def test_a_foreign_trace_without_a_cluster_is_refused(tmp_path):
    f = write(tmp_path, foreign_trace([("bind", "default/a", "n2")]))
    p = replay(f)
    assert p.returncode == 1 and p.stdout == ""
    # line 2 of the json.dumps(indent=1) text: ' "#meta": {', the object
    # at column 11
    assert p.stderr == (f"{f}:2:11: the trace carries no kso run (its "
                        "cluster and options): give its cluster with "
                        "--cluster FILE (#meta.kso)\n")
