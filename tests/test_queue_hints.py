"""
test_queue_hints.py - issue 34 item 11: which parked pods a cluster event
of kso's loop moves back to the queue, per release (model/requeue.h;
v1.30.12 without queueing hints, v1.34 with them; README "The scheduler
loop").

Each case runs `kso schedule -o json` on a fixture under both releases
with both engines (same bytes required) and checks the steps worked out
by hand in the fixture's header: the pod, the action, the node and the
victims of every step, then where each pod ends.
"""
import os

import pytest

from conftest import fixture_path, run_kso, json_of_both_engines

V130, V134 = "1.30", "1.34"


def schedule_doc(fixture, version):
    """kso schedule -o json's document; both engines must print the same
    bytes."""
    args = ["schedule", fixture_path(fixture), "-o", "json",
            "--kube-version", version]
    doc = json_of_both_engines(*args)
    assert doc["summary"]["invariants"]["ok"], doc["summary"]
    return doc


def schedule(fixture, version):
    """The loop's steps as (pod, action, node, victims) and the final
    placement."""
    doc = schedule_doc(fixture, version)
    steps = [(s["pod"], s["action"], s["node"], s["victims"])
             for s in doc["steps"]]
    return steps, doc["final"]


def test_a_bind_moves_a_spread_pod_under_v134_only():
    # queue/requeue-bind.yaml: v1.30's AssignedPodAdded looks only at
    # parked pods with a matching required pod affinity term, so spread
    # waits for the 5-minute unschedulable timeout; v1.34's
    # PodTopologySpread hint queues spread for w, which matches its
    # selector.  Either way spread's retry binds a1.
    steps = [("default/spread", "unschedulable", None, []),
             ("default/w", "bind", "b1", []),
             ("default/spread", "bind", "a1", [])]
    final = {"default/spread": "a1", "default/w": "b1",
             "default/web-1": "a1"}
    for version, flushed in ((V130, 1), (V134, None)):
        doc = schedule_doc("queue/requeue-bind.yaml", version)
        assert [(s["pod"], s["action"], s["node"], s["victims"])
                for s in doc["steps"]] == steps
        assert [s.get("after_timeout_flush") for s in doc["steps"]] == \
            [None, None, flushed]
        assert doc["final"] == final
        assert doc["summary"]["stopped"] == "quiescent"
        assert doc["summary"].get("timeout_flushes") == flushed


def test_a_deletion_moves_a_ports_pod_under_v130_only():
    # queue/requeue-delete.yaml: NodePorts registers Pod/Delete (v1.30:
    # ported retried after filler's eviction); v1.34's hint skips a
    # deleted pod without host ports
    steps, final = schedule("queue/requeue-delete.yaml", V130)
    assert steps == [
        ("default/ported", "unschedulable", None, []),
        ("default/urgent", "preempt", "n1", ["default/filler"]),
        ("default/ported", "unschedulable", None, []),
        ("default/urgent", "bind", "n1", []),
    ]
    steps134, final134 = schedule("queue/requeue-delete.yaml", V134)
    assert steps134 == [steps[0], steps[1], steps[3]]
    # the final placement lists the pods left (filler was evicted)
    for f in (final, final134):
        assert f == {"default/holder": "n1", "default/ported": None,
                     "default/urgent": "n1"}


def test_a_nominated_pod_binding_moves_lower_pods_under_v134_only():
    # preemption/loop.yaml: m3 (NodeResourcesFit) stays parked through
    # m1's and m2's binds under v1.30; under v1.34 they leave the
    # unscheduled pods with a nominated node, which NodeResourcesFit's
    # hint reads as a deleted pod: m3 is retried as step 9
    head = [("default/h1", "bind", "n2", []),
            ("default/h2", "preempt", "n1", ["default/l2"]),
            ("default/h2", "bind", "n1", []),
            ("default/m1", "preempt", "n1", ["default/l1"]),
            ("default/m2", "preempt", "n2", ["default/l3"]),
            ("default/m3", "unschedulable", None, []),
            ("default/m1", "bind", "n1", []),
            ("default/m2", "bind", "n2", [])]
    tail = [("default/%s" % p, "unschedulable", None, [])
            for p in ("p1", "p2", "p3", "z")]
    m3 = [("default/m3", "unschedulable", None, [])]
    steps, final130 = schedule("preemption/loop.yaml", V130)
    assert steps == head + tail
    steps, final134 = schedule("preemption/loop.yaml", V134)
    assert steps == head + m3 + tail
    assert final130 == final134


def test_a_cleared_nomination_moves_the_pod_itself_under_v134_only():
    # edge/nominated-pods.yaml: nominated-low's failed preemption clears
    # its nomination; under v1.34 that is an event for the parked pods of
    # its priority or lower, itself included
    head = [("default/nominated-high", "bind", "n1", []),
            ("default/incoming", "bind", "n2", []),
            ("default/nominated-low", "unschedulable", None, [])]
    assert schedule("edge/nominated-pods.yaml", V130)[0] == head
    assert schedule("edge/nominated-pods.yaml", V134)[0] == head + head[2:]


@pytest.mark.parametrize("version", [V130, V134])
def test_reachable_mode_follows_the_same_queue(tmp_path, version):
    # universes/reach-tied-preemption.yaml's header: low1's and low2's
    # binds leave high parked (no app=web pod), web's moves it back;
    # both engines agree on every decision
    db = tmp_path / "r.db"
    r = run_kso("enum", fixture_path("universes/reach-tied-preemption.yaml"),
                "--db", str(db), "--mode", "reachable", "--no-symmetry",
                "--quiet", "--kube-version", version)
    assert r.returncode == 0, r.stderr
    assert "states:        9 (9 classes evaluated" in r.stdout
    assert "decisions:     7 (7 classes)" in r.stdout
    assert "disagreements: 0 (0)" in r.stdout
    assert os.path.exists(db)
