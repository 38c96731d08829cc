"""
test_schedule_pending.py - `kso schedule` names each pod it leaves pending
with its one-line reason, and --fail-on-pending makes that exit status 1
for scripts (issue 38).

The messages are worked by hand in fixtures/edge/schedule-pending-reasons.yaml's
header (kube's FitError, then the PostFilter's preemption message).
"""
import json
import subprocess

from conftest import FIXTURES, KSO

FIX = FIXTURES / "edge" / "schedule-pending-reasons.yaml"
PRELOOP = FIXTURES / "preemption" / "loop.yaml"

BIG = ("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes "
       "are available: 1 No preemption victims found for incoming pod.")
PICKY = ("0/1 nodes are available: 1 node(s) didn't match Pod's node "
         "affinity/selector. preemption: 0/1 nodes are available: 1 "
         "Preemption is not helpful for scheduling.")


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def test_table_names_each_pending_pod_with_its_reason():
    r = kso("schedule", FIX)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    i = lines.index("bound 1, pending 2, evicted 0, steps 3 (fixpoint)")
    # both pods are parked and their retries after the 5-minute timeout
    # would fail as they did
    assert lines[i + 1].startswith("fixpoint: after the 5-minute "
                                   "unschedulable timeout each of the 2 ")
    # pod names padded to one column, two spaces, the reason
    assert lines[i + 2:i + 5] == [
        "pending default/big    " + BIG,
        "pending default/picky  " + PICKY,
        "invariants: OK"]


def test_json_summary_lists_the_pending_pods():
    r = kso("schedule", FIX, "-o", "json")
    assert r.returncode == 0, r.stderr
    summ = json.loads(r.stdout)["summary"]
    assert summ["pending"] == 2
    assert summ["pending_pods"] == [
        {"pod": "default/big", "reason": BIG},
        {"pod": "default/picky", "reason": PICKY}]


def test_fail_on_pending():
    r = kso("schedule", FIX, "--fail-on-pending")
    assert r.returncode == 1 and "pending default/big" in r.stdout
    # every pod bound: exit 0 with the option too (gpu-cluster's header:
    # train on gpu-1, web on cpu-1)
    r = kso("schedule", FIXTURES / "seeds" / "gpu-cluster.yaml",
            "--fail-on-pending")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "bound 2, pending 0, evicted 0" in r.stdout
    assert "pending default" not in r.stdout


def test_pod_never_tried_says_why():
    # loop.yaml stopped after one step: the pods never tried say the loop
    # stopped, not a made-up scheduling reason
    doc = json.loads(kso("schedule", PRELOOP, "--max-steps", "1", "-o",
                         "json").stdout)
    never = [p for p in doc["summary"]["pending_pods"]
             if p["pod"] != doc["steps"][0]["pod"]]
    assert never and all(p["reason"] == "not attempted: the loop stopped "
                         "(max-steps)" for p in never)


def test_a_gated_pod_says_it_waits_for_its_gates(tmp_path):
    # SchedulingGates' PreEnqueue keeps a pod with gates out of the queue
    # with "waiting for scheduling gates: %v" of the names (Go's slice
    # format: brackets, spaces); the loop never tries it
    f = tmp_path / "gated.yaml"
    f.write_text("""\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 4Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: gated, namespace: default}
spec:
  schedulingGates: [{name: example.com/quota}, {name: example.com/approval}]
  containers: [{name: c, image: i}]
""")
    doc = json.loads(kso("schedule", f, "-o", "json").stdout)
    assert doc["summary"]["pending_pods"] == [
        {"pod": "default/gated", "reason": "not attempted: waiting for "
         "scheduling gates: [example.com/quota example.com/approval]"}]
