"""
test_timeout_flush.py - issue 34 item 11: the 5-minute unschedulable
timeout (kube's flushUnschedulablePodsLeftover, both releases) in the
scheduler loop and in the enumerator's reachable mode
(model/scheduler.h model_scheduler_flush, enum/reachable.c).

At quiescence with pods parked, every parked pod goes back to activeQ
when retrying them would change something; otherwise the state is a
fixpoint and the loop ends there.  Every expected value is worked out in
the fixture's header: fixtures/queue/flush-anti-affinity.yaml (v1.34's
InterPodAffinity hint leaves w parked), fixtures/queue/flush-nominated.yaml
(v1.30's queue leaves y parked), fixtures/universes/reach-flush.yaml.
"""
import json
import sqlite3

import pytest

from conftest import fixture_path, run_kso, json_of_both_engines

V130, V134 = "1.30", "1.34"


def schedule(fixture, version, *extra):
    """kso schedule -o json's document, the same bytes from both engines."""
    args = ["schedule", fixture_path(fixture), "-o", "json",
            "--kube-version", version, *extra]
    doc = json_of_both_engines(*args)
    assert doc["summary"]["invariants"]["ok"], doc["summary"]
    return doc


def steps(doc):
    """(pod, action, node, victims, flushed before it) of every step."""
    return [(s["pod"], s["action"], s["node"], s["victims"],
             s.get("after_timeout_flush")) for s in doc["steps"]]


W_FAILS = ("default/w", "unschedulable", None, [], None)
H_PREEMPTS = ("default/h", "preempt", "n1", ["default/x"], None)
H_BINDS = ("default/h", "bind", "n1", [], None)


def test_v130_moves_w_on_its_blocker_deleted():
    # flush-anti-affinity.yaml, v1.30.12: InterPodAffinity registered
    # Pod/All, so x's deletion moves w; w (20) binds before h (10)
    doc = schedule("queue/flush-anti-affinity.yaml", V130)
    assert steps(doc) == [W_FAILS, H_PREEMPTS,
                          ("default/w", "bind", "n1", [], None), H_BINDS]
    assert doc["summary"]["stopped"] == "quiescent"
    assert "timeout_flushes" not in doc["summary"]


def test_v134_retries_w_after_the_timeout():
    # flush-anti-affinity.yaml, v1.34.1: the hint skips x's deletion for
    # w (no anti-affinity terms of its own) and h's bind (no affinity
    # terms); the flush moves w back and it binds beside h
    doc = schedule("queue/flush-anti-affinity.yaml", V134)
    assert steps(doc) == [W_FAILS, H_PREEMPTS, H_BINDS,
                          ("default/w", "bind", "n1", [], 1)]
    assert doc["final"] == {"default/w": "n1", "default/h": "n1"}
    assert doc["summary"]["stopped"] == "quiescent"
    assert doc["summary"]["timeout_flushes"] == 1
    assert doc["summary"]["pending"] == 0


@pytest.mark.parametrize("version,flushed", [(V130, 1), (V134, None)])
def test_a_nominated_pod_binding_elsewhere(version, flushed):
    # flush-nominated.yaml: x, nominated to n1, binds n2; v1.30 sends y
    # no event (the flush retries it), v1.34's NodeResourcesFit hint does
    doc = schedule("queue/flush-nominated.yaml", version)
    assert steps(doc) == [("default/y", "unschedulable", None, [], None),
                          ("default/x", "bind", "n2", [], None),
                          ("default/y", "bind", "n1", [], flushed)]
    assert doc["final"] == {"default/y": "n1", "default/x": "n2"}
    assert doc["summary"].get("timeout_flushes") == flushed


def test_the_table_shows_the_flush():
    r = run_kso("schedule", fixture_path("queue/flush-nominated.yaml"),
                "--kube-version", V130)
    assert r.returncode == 0, r.stderr
    rows = [line.split() for line in r.stdout.splitlines()[1:5]]
    assert [row[:4] for row in rows] == [
        ["1", "default/y", "unschedulable", "-"],
        ["2", "default/x", "bind", "n2"],
        ["-", "-", "flush", "-"],
        ["3", "default/y", "bind", "n1"]]
    assert r.stdout.splitlines()[3].endswith(
        "5-minute unschedulable timeout: 1 parked pod(s) back to activeQ")
    assert "steps 3 (quiescent)" in r.stdout


def test_a_fixpoint_ends_the_loop():
    # edge/schedule-pending-reasons.yaml: big and picky stay parked and a
    # retry of either fails as it did: no flush runs, the loop says why
    # it ended
    doc = schedule("edge/schedule-pending-reasons.yaml", V130)
    assert doc["summary"]["stopped"] == "fixpoint"
    assert "timeout_flushes" not in doc["summary"]
    assert all("after_timeout_flush" not in s for s in doc["steps"])
    assert doc["summary"]["pending"] == 2


def test_max_steps_before_the_flush():
    # flush-nominated.yaml under v1.30 stopped after step 2: y is parked,
    # the flush would come next - the run stopped at max-steps, not at a
    # fixpoint
    doc = schedule("queue/flush-nominated.yaml", V130, "--max-steps", "2")
    assert len(doc["steps"]) == 2
    assert doc["summary"]["stopped"] == "max-steps"


def test_itf_marks_the_flush_and_replays(tmp_path):
    r = run_kso("schedule", fixture_path("queue/flush-nominated.yaml"),
                "--kube-version", V130, "-o", "itf")
    assert r.returncode == 0, r.stderr
    t = json.loads(r.stdout)
    s = t["states"]
    assert [x["mbt::actionTaken"] for x in s] == ["init", "unschedulable",
                                                  "bind", "bind"]
    assert [x["#meta"].get("afterTimeoutFlush") for x in s] == \
        [None, None, None, 1]
    assert s[2]["unschedulable"] == {"#set": ["default/y"]}
    assert s[3]["unschedulable"] == {"#set": []}
    path = tmp_path / "t.itf.json"
    path.write_text(r.stdout)
    rep = run_kso("replay", path, "-o", "json")
    assert rep.returncode == 0, rep.stdout + rep.stderr
    assert json.loads(rep.stdout)["first_difference"] is None


@pytest.mark.parametrize("version,expect", [
    (V130, ("6", "4")),    # S3 -> flush -> S4 -> S5
    (V134, ("5", "4")),    # the bind's hint moves spread: no flush
])
def test_reachable_mode_has_the_flush_as_a_successor(tmp_path, version,
                                                     expect):
    db = tmp_path / "r.db"
    r = run_kso("enum", fixture_path("universes/reach-flush.yaml"),
                "--db", db, "--mode", "reachable", "--no-symmetry",
                "--quiet", "--kube-version", version, "--store", "all")
    assert r.returncode == 0, r.stderr
    n_states, n_decisions = expect
    assert "states:        %s (%s classes evaluated" % (n_states, n_states) \
        in r.stdout
    assert "final states:  1 (1 classes)" in r.stdout
    assert "decisions:     %s (%s classes)" % (n_decisions, n_decisions) \
        in r.stdout
    assert "disagreements: 0 (0)" in r.stdout
    con = sqlite3.connect(db)
    # the one final state places every pod; its trace, exported as ITF,
    # goes through the flush under v1.30 and replays
    (sid,), = con.execute(
        "SELECT id FROM states WHERE placement = "
        "'default/web-1=a1 default/spread=a1 default/w=b1'")
    out = tmp_path / "f.itf.json"
    p = run_kso("export", db, sid, "--itf", "--out", out)
    assert p.returncode == 0, p.stderr
    s = json.loads(out.read_text())["states"]
    assert [x["mbt::actionTaken"] for x in s] == [
        "init", "bind", "unschedulable", "bind", "bind"]
    assert s[4]["#meta"].get("afterTimeoutFlush") == \
        (1 if version == V130 else None)
    rep = run_kso("replay", out, "-o", "json")
    assert rep.returncode == 0, rep.stdout + rep.stderr
