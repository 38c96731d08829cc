"""Preemption and the scheduler loop, end to end: `kso schedule` and the
"preemption" part of `kso explain` on fixtures/preemption/*.yaml.

Every expected value is derived by hand in the fixture's header comment
(reference §3 for kube's DefaultPreemption, seed 004 for the minimal-
Casualty answer, reference §1.2/§1.3/§1.5 for the loop).
"""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
FIX = os.path.join(ROOT, "fixtures", "preemption")


def kso(*args, check=True):
    p = subprocess.run([KSO, *args], capture_output=True, text=True,
                       timeout=120)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def schedule(name, *extra):
    p = kso("schedule", os.path.join(FIX, name), "-o", "json", *extra)
    return json.loads(p.stdout)


def explain(name, pod):
    p = kso("explain", os.path.join(FIX, name), "--pod", pod, "-o", "json")
    return json.loads(p.stdout)["preemption"]


def first_preemption(doc):
    return next(s for s in doc["steps"] if s["action"] == "preempt")


# ---------------------------------------------------------------- kube


def test_single_victim():
    doc = schedule("single-victim.yaml")
    s = first_preemption(doc)
    assert s["pod"] == "default/urgent"
    assert s["node"] == "n1"
    assert s["victims"] == ["default/filler"]
    assert s["message"] == "0/1 nodes are available: 1 Insufficient cpu."
    # the next cycle binds it on its nominated node
    assert doc["steps"][1]["action"] == "bind"
    assert doc["steps"][1]["nominated_fast_path"] is True
    assert doc["final"] == {"default/urgent": "n1"}
    assert doc["summary"]["evicted"] == 1


def test_reprieve_keeps_some():
    s = first_preemption(schedule("reprieve.yaml"))
    assert s["victims"] == ["default/b", "default/a"]


def test_pdb_protected_reprieved_first():
    s = first_preemption(schedule("pdb-reprieve.yaml"))
    assert s["victims"] == ["default/old"]


def test_pdb_decides_node():
    s = first_preemption(schedule("pdb-node.yaml"))
    assert s["node"] == "n2"
    assert s["victims"] == ["default/b"]


def test_equal_priority_never_preempted():
    doc = schedule("equal-priority.yaml")
    assert [s["action"] for s in doc["steps"]] == ["unschedulable"]
    assert doc["steps"][0]["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 "
        "nodes are available: 1 No preemption victims found for incoming "
        "pod.")
    assert doc["final"] == {"default/peer": "n1", "default/p": None}


def test_preemption_policy_never():
    doc = schedule("never.yaml")
    assert [s["action"] for s in doc["steps"]] == ["unschedulable"]
    assert doc["steps"][0]["message"].endswith(
        "preemption: not eligible due to preemptionPolicy=Never.")
    assert doc["summary"]["evicted"] == 0


def test_uau_nodes_are_not_candidates():
    doc = schedule("uau.yaml")
    s = doc["steps"][0]
    assert s["action"] == "unschedulable"
    assert s["message"].endswith(
        "preemption: 0/2 nodes are available: 2 Preemption is not "
        "helpful for scheduling.")
    assert doc["summary"]["evicted"] == 0


# ------------------------------------------------------- kube vs minimal


def test_kube_and_minimal_differ():
    pre = explain("differs.yaml", "default/p")
    assert pre["node"] == "n1"
    assert pre["victims"] == ["default/s1", "default/s2"]
    assert pre["minimal"]["node"] == "n1"
    assert pre["minimal"]["victims"] == ["default/big"]
    cas = pre["minimal"]["casualty"]
    assert cas["pdb_violations"] == 0
    assert cas["highest_priority"] == 10
    # big's priority 10; kube's comparison adds 2^31 to each victim's
    assert cas["priority_sum"] == 10
    assert cas["kube_priority_sum"] == 10 + 2 ** 31
    assert cas["victims"] == 1
    assert pre["differs"] is True


def test_kube_and_minimal_agree():
    pre = explain("reprieve.yaml", "default/p")
    assert pre["victims"] == ["default/b", "default/a"]
    assert pre["minimal"]["victims"] == ["default/b", "default/a"]
    assert pre["differs"] is False


def test_explain_no_preemption():
    pre = explain("never.yaml", "default/p")
    assert pre["eligible"] is False
    assert pre["node"] == ""
    assert pre["minimal"]["node"] == ""


def test_explain_table_mentions_both():
    # the values of the fixture's header: kube evicts s1 and s2 (priorities
    # 10 + 10), the least Casualty is big alone (10); the table shows the
    # plain sums (kube's 2*(10+2^31) stays in the JSON)
    p = kso("explain", os.path.join(FIX, "differs.yaml"), "--pod",
            "default/p")
    lines = p.stdout.splitlines()
    at = lines.index("preemption:")
    assert lines[at + 1:at + 6] == [
        "  kube:    node n1, evict default/s1, default/s2",
        "           casualty: 0 PDB violation(s), highest priority 10, "
        "priorities summing to 20, 2 victim(s)",
        "  minimal: node n1, evict default/big",
        "           casualty: 0 PDB violation(s), highest priority 10, "
        "priorities summing to 10, 1 victim(s)",
        "  the answers differ: kube's greedy reprieve (evict every "
        "lower-priority pod, then give back what fits) is not the least "
        "Casualty"]


# --------------------------------------------------------------- the loop


def test_loop_final_placement():
    doc = schedule("loop.yaml")
    acts = [(s["pod"], s["action"], s["node"]) for s in doc["steps"]]
    assert acts == [
        ("default/h1", "bind", "n2"),
        ("default/h2", "preempt", "n1"),
        ("default/h2", "bind", "n1"),
        ("default/m1", "preempt", "n1"),
        ("default/m2", "preempt", "n2"),
        ("default/m3", "unschedulable", None),
        ("default/m1", "bind", "n1"),
        ("default/m2", "bind", "n2"),
        # v1.30: the binds leave m3 parked (loop.yaml's header)
        ("default/p1", "unschedulable", None),
        ("default/p2", "unschedulable", None),
        ("default/p3", "unschedulable", None),
        ("default/z", "unschedulable", None),
    ]
    assert doc["steps"][1]["victims"] == ["default/l2"]
    assert doc["steps"][3]["victims"] == ["default/l1"]
    assert doc["steps"][4]["victims"] == ["default/l3"]
    assert doc["final"] == {
        "default/h1": "n2", "default/h2": "n1", "default/m1": "n1",
        "default/m2": "n2", "default/m3": None, "default/p1": None,
        "default/p2": None, "default/p3": None, "default/z": None,
    }
    summ = doc["summary"]
    assert (summ["bound"], summ["pending"], summ["evicted"],
            summ["steps"]) == (4, 5, 3, 12)
    # the five pending pods are parked; after the 5-minute timeout each
    # retry fails as it did (m3's nominated-pod pass now meets m1 and m2
    # bound where they were nominated): a fixpoint
    assert summ["stopped"] == "fixpoint"
    assert "timeout_flushes" not in summ
    assert summ["invariants"] == {"ok": True, "broken": []}


def test_loop_max_steps():
    doc = schedule("loop.yaml", "--max-steps", "3")
    assert len(doc["steps"]) == 3
    assert doc["summary"]["stopped"] == "max-steps"
    assert doc["final"]["default/h2"] == "n1"


def test_loop_table():
    p = kso("schedule", os.path.join(FIX, "loop.yaml"))
    assert "bound 4, pending 5, evicted 3, steps 12 (fixpoint)" in p.stdout
    assert ("fixpoint: after the 5-minute unschedulable timeout each of the "
            "5 parked pod(s) would fail as it did") in p.stdout
    assert "invariants: OK" in p.stdout


def test_loop_yaml_reads_back():
    p = kso("schedule", os.path.join(FIX, "loop.yaml"), "-o", "yaml")
    again = subprocess.run([KSO, "schedule", "-", "-o", "json"],
                           input=p.stdout, capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 0, again.stderr
    doc = json.loads(again.stdout)
    # the final cluster: evicted pods are gone, bound pods stay bound;
    # the five pending pods still find nothing.
    assert doc["final"]["default/h1"] == "n2"
    assert doc["final"]["default/m1"] == "n1"
    assert "default/l1" not in doc["final"]
    assert doc["summary"]["bound"] == 0
    assert doc["summary"]["evicted"] == 0


def test_bad_usage():
    p = kso("schedule", check=False)
    assert p.returncode == 2
    p = kso("schedule", os.path.join(FIX, "loop.yaml"), "--tie", "x",
            check=False)
    assert p.returncode == 2


def test_random_ties_are_seeded():
    a = schedule("loop.yaml", "--tie", "random", "--seed", "7")
    b = schedule("loop.yaml", "--tie", "random", "--seed", "7")
    assert a == b


# ---------------------------------------------- PDB budgets, both engines


def explain_engine(name, pod, engine):
    p = kso("explain", os.path.join(FIX, name), "--pod", pod, "--engine",
            engine, "-o", "json")
    return json.loads(p.stdout)["preemption"]


@pytest.mark.parametrize("engine", ["oracle", "model"])
def test_pdb_budget_reaching_zero_is_no_violation(engine):
    pre = explain_engine("pdb-budgets.yaml", "default/p", engine)
    assert [(c["node"], c["victims"], c["pdb_violations"])
            for c in pre["candidates"]] == [
        ("n2", ["default/y"], 0), ("n1", ["default/x"], 1)]
    assert (pre["node"], pre["victims"], pre["pdb_violations"]) == (
        "n2", ["default/y"], 0)


@pytest.mark.parametrize("engine", ["oracle", "model"])
def test_pdb_disrupted_pods_do_not_count(engine):
    pre = explain_engine("pdb-disrupted.yaml", "default/p", engine)
    assert [(c["node"], c["victims"], c["pdb_violations"])
            for c in pre["candidates"]] == [
        ("n1", ["default/x"], 0), ("n2", ["default/y"], 1)]
    assert (pre["node"], pre["victims"], pre["pdb_violations"]) == (
        "n1", ["default/x"], 0)


# ------------------------------ dry runs reused across preemptions (oracle)


def test_reuse_classes_by_hand():
    """The oracle reuses a node's dry run for a later preemptor of the same
    class only while the node is unchanged (fixture header: n1 changes
    between p1 and p2 and gives another victim; n3 does not)."""
    doc = schedule("reuse-classes.yaml")
    pre = [(s["pod"], s["node"], s["victims"])
           for s in doc["steps"] if s["action"] == "preempt"]
    assert pre == [("default/p1", "n1", ["default/a2"]),
                   ("default/p2", "n1", ["default/a1"])]
    p3 = next(s for s in doc["steps"] if s["pod"] == "default/p3")
    assert p3["action"] == "unschedulable"
    assert p3["message"].endswith(
        "preemption: 0/3 nodes are available: 1 Insufficient cpu, 2 No "
        "preemption victims found for incoming pod.")
    assert doc["final"]["default/p1"] == "n1"
    assert doc["final"]["default/p2"] == "n1"
    assert doc["summary"]["evicted"] == 2


@pytest.mark.parametrize("version", ["1.30", "1.34"])
def test_reuse_keyed_on_pdb_budget_by_hand(version):
    """A node unchanged between two preemptors of one class is dry-run
    again when the PDB budget changed (fixture header: x1's eviction
    leaves pdb-x no disruption, so n2's victim x2 now violates it and n3
    wins; p1's dry run of n2, reused, would pick n2)."""
    doc = schedule("reuse-pdb-budget.yaml", "--kube-version", version)
    pre = [(s["pod"], s["node"], s["victims"])
           for s in doc["steps"] if s["action"] == "preempt"]
    assert pre == [("default/p1", "n1", ["default/x1"]),
                   ("default/p2", "n3", ["default/y"])]
    assert doc["final"]["default/p1"] == "n1"
    assert doc["final"]["default/p2"] == "n3"
    assert doc["final"]["default/x2"] == "n2"


@pytest.mark.parametrize("version", ["1.30", "1.34"])
def test_reuse_keyed_on_nominations_by_hand(version):
    """A node whose pods did not change between two preemptors of one
    class is dry-run again when a pod nominated to it went elsewhere
    (fixture header: q's nomination to n2 blocks p1 there; q binds to n3,
    and p2 then preempts z on n2)."""
    doc = schedule("reuse-nomination-gone.yaml", "--kube-version", version)
    steps = [(s["pod"], s["action"], s["node"], s.get("victims"))
             for s in doc["steps"]]
    assert steps[:3] == [
        ("default/p1", "preempt", "n1", ["default/a"]),
        ("default/q", "bind", "n3", []),
        ("default/p2", "preempt", "n2", ["default/z"])]
    assert doc["final"]["default/p2"] == "n2"
    assert doc["final"]["default/q"] == "n3"


def mixed_preemption_cluster(path):
    """40 nodes of 4 cpu, each full with four 900m pods of priorities 0-3;
    PDBs over two of the pod groups (one spent, one with a budget); then
    preemptors of three classes interleaved (priority 10 / 3 cpu,
    priority 10 / 2 cpu, priority 2 / 3 cpu), some of each, so one class
    follows another and nodes change between preemptions of a class."""
    items = [{"apiVersion": "scheduling.k8s.io/v1", "kind": "PriorityClass",
              "metadata": {"name": "p%d" % v}, "value": v}
             for v in (0, 1, 2, 3, 10)]
    for i in range(40):
        items.append({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": "n%d" % i,
                                   "labels": {"kubernetes.io/hostname": "n%d" % i}},
                      "status": {"allocatable": {"cpu": "4", "pods": "110"}}})
        for j in range(4):
            items.append(pod("e%d-%d" % (i, j), "p%d" % j, "900m",
                             node="n%d" % i, labels={"g": "g%d" % (i % 3)}))
    for g, allowed in (("g0", 0), ("g1", 5)):
        items.append({"apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
                      "metadata": {"name": "pdb-" + g, "namespace": "default"},
                      "spec": {"maxUnavailable": 1,
                               "selector": {"matchLabels": {"g": g}}},
                      "status": {"disruptionsAllowed": allowed}})
    classes = (("p10", "3"), ("p10", "2"), ("p2", "3"))
    for k in range(24):
        pc, cpu = classes[(k // 2) % 3]
        items.append(pod("q%d" % k, pc, cpu))
    with open(path, "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": items}, f)


def pod(name, pc, cpu, node=None, labels=None):
    p = {"apiVersion": "v1", "kind": "Pod",
         "metadata": {"name": name, "namespace": "default",
                      "labels": labels or {}},
         "spec": {"priorityClassName": pc, "containers": [
             {"name": "c", "image": "registry.k8s.io/pause:3.9",
              "resources": {"requests": {"cpu": cpu}}}]}}
    if node:
        p["spec"]["nodeName"] = node
    return p


def test_reused_dry_runs_match_the_model(tmp_path):
    """Every step of the oracle, which reuses dry runs across preemptions,
    is the model's, which works out every one afresh."""
    path = str(tmp_path / "mixed.json")
    mixed_preemption_cluster(path)
    oracle = kso("schedule", path, "-o", "json").stdout
    model = kso("schedule", path, "-o", "json", "--engine", "model").stdout
    doc = json.loads(oracle)
    assert sum(s["action"] == "preempt" for s in doc["steps"]) > 10
    assert oracle == model
