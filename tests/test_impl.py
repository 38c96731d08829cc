"""
test_impl.py - judging another scheduler (`--impl`, kso-impl/1): small
implementations in tests/impl/ - one that answers what kso answers, and
one per deliberate bug - each judged with the verdict its bug deserves.

The expected verdicts follow from the fixtures' hand-derived answers:
fixtures/impl/cluster.yaml (viable {b}; a tainted but best-scoring
without the taint; c the emptiest), fixtures/preemption/reprieve.yaml
(kube evicts [b, a] on n1) and fixtures/preemption/loop.yaml (13 steps:
bind n2, then preemptions on n1, n1, n2, ...; three of them preempt).
"""
import json
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
IMPL = os.path.join(ROOT, "tests", "impl")
CLUSTER = os.path.join(ROOT, "fixtures", "impl", "cluster.yaml")
REPRIEVE = os.path.join(ROOT, "fixtures", "preemption", "reprieve.yaml")
LOOP = os.path.join(ROOT, "fixtures", "preemption", "loop.yaml")


def impl(name):
    return "%s %s" % ("/usr/bin/python3", os.path.join(IMPL, name + ".py"))


def kso(*args, timeout=120):
    env = dict(os.environ, KSO=KSO)
    return subprocess.run([KSO, *args], capture_output=True, text=True,
                          timeout=timeout, env=env)


def explain_impl(fixture, pod, name, *extra):
    p = kso("explain", fixture, "--pod", pod, "--impl", impl(name), "-o",
            "json", *extra)
    return p, (json.loads(p.stdout)["impl"] if p.stdout else None)


@pytest.mark.parametrize("fixture,pod,name,action,node,verdict,rc", [
    (CLUSTER, "default/p", "self", "bind", "b", "ok", 0),
    (CLUSTER, "default/p", "ignores_taints", "bind", "a", "infeasible", 1),
    (CLUSTER, "default/p", "emptiest", "bind", "c", "not-viable", 1),
    (REPRIEVE, "default/p", "self", "preempt", "n1", "ok", 0),
    (REPRIEVE, "default/p", "never_preempts", "unschedulable", "",
     "should-have-preempted", 1),
    (REPRIEVE, "default/p", "wrong_victims", "preempt", "n1",
     "victims-differ", 1),
])
def test_explain_judges(fixture, pod, name, action, node, verdict, rc):
    p, got = explain_impl(fixture, pod, name)
    assert p.returncode == rc, p.stderr
    assert (got["action"], got["node"], got["verdict"]) == (action, node,
                                                             verdict)


def test_explain_details_name_the_cause():
    _, got = explain_impl(CLUSTER, "default/p", "ignores_taints")
    assert got["detail"] == ("a is rejected by TaintToleration: node(s) had "
                             "untolerated taint {dedicated: infra}")
    _, got = explain_impl(REPRIEVE, "default/p", "wrong_victims")
    assert got["victims"] == ["default/b"]
    assert got["detail"] == ("on n1 kube evicts [default/b,default/a], not "
                             "[default/b]")


def test_explain_table_shows_the_verdict():
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl",
            impl("emptiest"))
    assert p.returncode == 1
    assert p.stdout.endswith(
        "implementation emptiest 1: bind c\nverdict: not-viable - c is "
        "feasible but scores 432, the viable nodes (b) 492\n")


@pytest.mark.parametrize("name,err", [
    ("crash", "kso explain: implementation crash 1: exited with status 3 "
              "before answering request 1 (schedule default/p)\n"),
    ("garbage", None),
])
def test_broken_implementations_are_named(name, err):
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", impl(name))
    assert p.returncode == 3
    assert p.stdout == ""
    if err:
        assert p.stderr == err
    else:
        assert "request 1 (schedule default/p): the answer is not one JSON " \
               "object" in p.stderr


def test_hanging_implementation_times_out_and_is_stopped():
    start = time.time()
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", impl("hang"),
            "--impl-timeout", "1")
    assert p.returncode == 3
    assert p.stderr == ("kso explain: implementation hang 1: no answer to "
                        "request 1 (schedule default/p) within 1 s\n")
    assert time.time() - start < 30
    time.sleep(0.2)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True)
    assert "tests/impl/hang.py" not in ps.stdout


def test_schedule_table_shows_each_verdict():
    # loop.yaml's first steps: bind h1 on n2, then h2 preempts l2 on n1
    p = kso("schedule", LOOP, "--impl", impl("never_preempts"))
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[2] == "      impl: bind n2 -> ok: n2 is viable (viable: n2)"
    assert lines[4] == ("      impl: unschedulable: 0/1 nodes are available "
                        "-> should-have-preempted: kube preempts on n1: "
                        "default/l2")
    assert lines[-1] == ("implementation never-preempts 1: 13 decisions "
                         "judged, 10 ok, 3 should-have-preempted")


def test_schedule_judges_every_step():
    p = kso("schedule", LOOP, "--impl", impl("self"), "-o", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["impl"] == {"implementation": "kso-self 1", "judged": 13,
                           "verdicts": {"ok": 13}}
    assert all(s["impl"]["verdict"] == "ok" for s in doc["steps"])
    # never preempting is wrong exactly at the three preemption steps
    p = kso("schedule", LOOP, "--impl", impl("never_preempts"), "-o", "json")
    assert p.returncode == 1
    doc = json.loads(p.stdout)
    assert doc["impl"]["verdicts"] == {"ok": 10, "should-have-preempted": 3}
    wrong = [s["step"] for s in doc["steps"]
             if s["impl"]["verdict"] != "ok"]
    assert wrong == [s["step"] for s in doc["steps"]
                     if s["action"] == "preempt"]


def enum_impl(tmp_path, universe, name, *extra):
    db = tmp_path / "e.db"
    p = kso("enum", universe, "--db", db, "--quiet", "--no-symmetry",
            "--impl", impl(name), *extra, timeout=600)
    import sqlite3
    con = sqlite3.connect(db)
    rows = con.execute("SELECT details FROM findings WHERE kind = 'impl'"
                       ).fetchall()
    con.close()
    return p, [r[0] for r in rows]


TWO = os.path.join(ROOT, "fixtures", "universes", "two-by-two.yaml")


def test_enum_judges_a_correct_implementation(tmp_path):
    # two-by-two: 5 decisions (test_enum), each answered as kso answers
    p, rows = enum_impl(tmp_path, TWO, "self")
    assert p.returncode == 0, p.stderr
    assert "  impl                 0 (0)\n" in p.stdout
    assert rows == []


def test_enum_names_a_wrong_implementation(tmp_path):
    # fixtures/impl/cluster.yaml as a universe: old and p over a, b, c.
    # With old on b and p pending, kso's viable set is {b} and c holds
    # the fewest pods (none): the emptiest-node bug binds c, not-viable.
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: impl\nmanifests: [%s]\n" % CLUSTER)
    p, rows = enum_impl(tmp_path, u, "emptiest")
    assert p.returncode == 1
    assert any(r.startswith("not-viable: c is feasible but scores 432, the "
                            "viable nodes (b) 492") for r in rows), rows


def test_enum_survives_a_crashing_implementation(tmp_path):
    # every request finds the implementation dead: each decision is an
    # impl-error finding, the run still completes
    p, rows = enum_impl(tmp_path, TWO, "crash")
    assert p.returncode == 1
    assert "run 1: complete" in p.stdout
    assert len(rows) == 5
    assert all(r.startswith("impl-error: implementation crash 1: exited with "
                            "status 3 before answering request 1") for r in rows)


def test_kso_serve_is_judged_correct(tmp_path):
    # kso's own decisions through the protocol: every verdict ok, in
    # explain (bind and preemption), schedule and enum (both modes)
    serve = "%s serve" % KSO
    for fixture in (CLUSTER, REPRIEVE):
        p = kso("explain", fixture, "--pod", "default/p", "--impl", serve,
                "-o", "json")
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["impl"]["verdict"] == "ok"
    p = kso("schedule", LOOP, "--impl", serve, "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["impl"]["verdicts"] == {"ok": 13}
    reach = os.path.join(ROOT, "fixtures", "universes",
                         "reach-tied-preemption.yaml")
    for args in ([TWO], [reach, "--mode", "reachable"]):
        db = tmp_path / ("e%d.db" % len(args))
        p = kso("enum", *args, "--db", db, "--quiet", "--no-symmetry",
                "--impl", serve, timeout=600)
        assert p.returncode == 0, p.stdout + p.stderr
        assert "  impl                 0 (0)\n" in p.stdout


def test_kso_serve_answers_the_protocol():
    req = {"type": "schedule", "msg_id": 7, "pod": {"namespace": "default",
                                                    "name": "nope"},
           "cluster": {"apiVersion": "v1", "kind": "List", "items": []}}
    p = subprocess.run([KSO, "serve"], input='{"type":"init","msg_id":0}\n' +
                       json.dumps(req) + "\n", capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 0
    init, ans = [json.loads(x) for x in p.stdout.splitlines()]
    assert (init["type"], init["in_reply_to"]) == ("init_ok", 0)
    assert (ans["type"], ans["in_reply_to"], ans["code"]) == ("error", 7, 12)


def test_strict_message_compares_kubes_event_text():
    # equal-priority: p cannot fit on n1 and its only peer has the same
    # priority, so kube reports the FitError with PostFilter's message
    # appended.  terse_message leaves PostFilter's part out: fine by
    # default, message-differs under --strict-message, naming kube's text.
    eq = os.path.join(ROOT, "fixtures", "preemption", "equal-priority.yaml")
    p, got = explain_impl(eq, "default/p", "terse_message")
    assert p.returncode == 0, p.stderr
    assert (got["action"], got["verdict"]) == ("unschedulable", "ok")
    p, got = explain_impl(eq, "default/p", "terse_message", "--strict-message")
    assert p.returncode == 1, p.stderr
    assert got["verdict"] == "message-differs"
    assert got["detail"] == (
        "kube's message is \"0/1 nodes are available: 1 Insufficient cpu. "
        "preemption: 0/1 nodes are available: 1 No preemption victims "
        "found for incoming pod.\"")
    # the correct implementation's message is kube's, exactly
    p, got = explain_impl(eq, "default/p", "self", "--strict-message")
    assert (p.returncode, got["verdict"]) == (0, "ok")
