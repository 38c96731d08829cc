"""
test_impl.py - judging another scheduler (`--impl`, kso-impl/1): small
implementations in tests/impl/ - one that answers what kso answers, and
one per deliberate bug - each judged with the verdict its bug deserves.

The expected verdicts follow from the fixtures' hand-derived answers:
fixtures/impl/cluster.yaml (viable {b}; a tainted but best-scoring
without the taint; c the emptiest), fixtures/preemption/reprieve.yaml
(kube evicts [b, a] on n1) and fixtures/preemption/loop.yaml (12 steps:
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
    # fixtures/impl/cluster.yaml's header: c loses 30 on each of the two
    # resource scores, and on nothing else
    assert p.stdout.endswith(
        "implementation emptiest 1: bind c\nverdict: not-viable - c is "
        "feasible but scores 432, the viable nodes (b) 492; weighted scores "
        "that decide: NodeResourcesFit c 63 < b 93, "
        "NodeResourcesBalancedAllocation c 69 < b 99\n")


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
    # kso makes the steps: loop.yaml's 12, three of them preemptions
    assert lines[-1] == ("implementation never-preempts 1: 12 decisions "
                         "judged, 9 ok, 3 should-have-preempted")


def test_schedule_judges_every_step():
    p = kso("schedule", LOOP, "--impl", impl("self"), "-o", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["impl"] == {"implementation": "kso-self 1", "judged": 12,
                           "verdicts": {"ok": 12}}
    assert all(s["impl"]["verdict"] == "ok" for s in doc["steps"])
    # never preempting is wrong exactly at the three preemption steps
    p = kso("schedule", LOOP, "--impl", impl("never_preempts"), "-o", "json")
    assert p.returncode == 1
    doc = json.loads(p.stdout)
    assert doc["impl"]["verdicts"] == {"ok": 9, "should-have-preempted": 3}
    wrong = [s["step"] for s in doc["steps"]
             if s["impl"]["verdict"] != "ok"]
    assert wrong == [s["step"] for s in doc["steps"]
                     if s["action"] == "preempt"]


def enum_impl(tmp_path, universe, name, command=None, *extra):
    """kso enum --impl (tests/impl/NAME.py, or command) into a fresh db;
    the run and its impl findings' details."""
    db = tmp_path / "e.db"
    if db.exists():
        db.unlink()
    p = kso("enum", universe, "--db", db, "--quiet", "--no-symmetry",
            "--impl", command or impl(name), *extra, timeout=600)
    import sqlite3
    con = sqlite3.connect(db)
    rows = con.execute("SELECT kind, details FROM findings WHERE kind LIKE "
                       "'impl-%'").fetchall()
    con.close()
    # one kind per verdict: impl-VERDICT ("impl-error" for a failure)
    for kind, details in rows:
        verdict = details.split(":")[0]
        assert kind == (verdict if verdict.startswith("impl-")
                        else "impl-" + verdict)
    return p, [r[1] for r in rows]


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
    assert json.loads(p.stdout)["impl"]["verdicts"] == {"ok": 12}
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


ROUNDTRIP = os.path.join(ROOT, "fixtures", "impl", "roundtrip.config.yaml")


def captured_config(tmp_path, config, name):
    out = tmp_path / name
    p = subprocess.run([KSO, "explain", CLUSTER, "--pod", "default/p",
                        "--config", str(config), "--impl",
                        impl("capture_config")], capture_output=True,
                       text=True, timeout=60,
                       env=dict(os.environ, KSO_CAPTURE=str(out)))
    assert p.returncode == 1 and "refused" in p.stdout, p.stdout + p.stderr
    return out


def names(point):
    return [e["name"] for e in point["enabled"]]


def test_init_sends_the_whole_configuration(tmp_path):
    # fixtures/impl/roundtrip.config.yaml through kube's merge rules:
    # NodeResourcesFit enabled again at Filter runs first, then the other
    # MultiPoint filters in default order; Score: ImageLocality disabled,
    # NodeResourcesFit 5 and TaintToleration 7 override the defaults.
    first = captured_config(tmp_path, ROUNDTRIP, "c1.json")
    doc = json.loads(first.read_text())
    assert doc["percentageOfNodesToScore"] == 70
    p0, p1 = doc["profiles"]
    plugins = p0["plugins"]
    assert plugins["multiPoint"] == {"disabled": [{"name": "*"}]}
    assert names(plugins["filter"]) == [
        "NodeResourcesFit", "NodeUnschedulable", "NodeName", "TaintToleration",
        "NodeAffinity", "NodePorts", "VolumeRestrictions", "EBSLimits",
        "GCEPDLimits", "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding",
        "VolumeZone", "PodTopologySpread", "InterPodAffinity"]
    # VolumeBinding keeps its default Score weight 1 (its PreScore skips
    # every pod in v1.30: VolumeCapacityPriority is off)
    assert {e["name"]: e["weight"] for e in plugins["score"]["enabled"]} == {
        "TaintToleration": 7, "NodeAffinity": 2, "NodeResourcesFit": 5,
        "VolumeBinding": 1, "PodTopologySpread": 2, "InterPodAffinity": 2,
        "NodeResourcesBalancedAllocation": 1}
    assert names(plugins["postFilter"]) == ["DefaultPreemption"]
    args = {e["name"]: e["args"] for e in p0["pluginConfig"]}
    assert args["DefaultPreemption"]["minCandidateNodesPercentage"] == 30
    assert args["DefaultPreemption"]["minCandidateNodesAbsolute"] == 5
    assert args["InterPodAffinity"]["hardPodAffinityWeight"] == 9
    assert args["InterPodAffinity"]["ignorePreferredTermsOfExistingPods"]
    fit = args["NodeResourcesFit"]
    assert fit["scoringStrategy"]["type"] == "RequestedToCapacityRatio"
    assert fit["scoringStrategy"]["requestedToCapacityRatio"]["shape"][1] == \
        {"utilization": 60, "score": 3}
    assert fit["ignoredResourceGroups"] == ["vendor.io"]
    assert args["PodTopologySpread"]["defaultConstraints"][1] == {
        "maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
        "whenUnsatisfiable": "DoNotSchedule"}
    assert args["NodeAffinity"]["addedAffinity"][
        "preferredDuringSchedulingIgnoredDuringExecution"][0]["weight"] == 4
    # the second profile: DefaultPreemption and NodePorts disabled at
    # MultiPoint; PodTopologySpread's PreScore off, its Score still on;
    # the default args written out (kube's defaults: 10 % / 100, weight 1)
    assert p1["percentageOfNodesToScore"] == 40
    assert names(p1["plugins"]["postFilter"]) == []
    assert "NodePorts" not in names(p1["plugins"]["filter"])
    assert "PodTopologySpread" not in names(p1["plugins"]["preScore"])
    assert "PodTopologySpread" in names(p1["plugins"]["score"])
    args1 = {e["name"]: e["args"] for e in p1["pluginConfig"]}
    assert args1["DefaultPreemption"]["minCandidateNodesPercentage"] == 10
    assert args1["DefaultPreemption"]["minCandidateNodesAbsolute"] == 100
    assert args1["InterPodAffinity"]["hardPodAffinityWeight"] == 1
    # read back, it is the same configuration: sent again byte for byte
    second = captured_config(tmp_path, first, "c2.json")
    assert second.read_text() == first.read_text()


def test_kso_serve_answers_with_the_init_configuration(tmp_path):
    # fixtures/impl/cluster.yaml under fixtures/scoring/most.config.yaml
    # (MostAllocated, cpu weight 3): c, the fullest, is viable instead of
    # b.  kso serve without --config takes the configuration from init,
    # so its answers are ok; told the default profile, it binds b and is
    # judged not-viable - the configuration really travels.
    # (old's spec.nodeName left out: the enumerator places it)
    most = os.path.join(ROOT, "fixtures", "scoring", "most.config.yaml")
    base = tmp_path / "cluster.yaml"
    with open(CLUSTER) as f:
        base.write_text(f.read().replace("  nodeName: b\n", ""))
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: most\nmanifests: [%s]\nconfig: %s\n"
                 % (base, most))
    default = tmp_path / "default.yaml"
    default.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                       "kind: KubeSchedulerConfiguration\n")
    p, rows = enum_impl(tmp_path, u, None, "%s serve" % KSO)
    assert p.returncode == 0, p.stdout + p.stderr
    assert rows == []
    p, rows = enum_impl(tmp_path, u, None, "%s serve --config %s"
                        % (KSO, default))
    assert p.returncode == 1
    assert any(r.startswith("not-viable: b is feasible") for r in rows), rows


def test_impl_jobs_runs_that_many_implementations(tmp_path):
    # default universe, shard 1/256: 120 scenarios, one work item each;
    # --impl-jobs 3 gives three workers, each with its own `kso serve`
    # (the shell records its pid before exec'ing it); every answer ok
    pids = tmp_path / "pids"
    p = kso("enum", "--shard", "1/256", "--db", tmp_path / "e.db", "--quiet",
            "--force", "--impl", "echo $$ >> %s; exec %s serve" % (pids, KSO),
            "--impl-jobs", "3", timeout=600)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "  impl                 0 (0)\n" in p.stdout
    started = set(pids.read_text().split())
    # one more: the probe that checks the command starts before the run
    assert 3 <= len(started) <= 4
    p = kso("enum", "--impl-jobs", "2")
    assert p.returncode == 2 and "--impl-jobs needs --impl" in p.stderr


@pytest.mark.parametrize("bug,verdict,detail", [
    ("", "ok", None),
    # b: LeastAllocated 93 (fixture header), weight 1
    ("score", "explain-differs",
     "finalScoreResult b NodeResourcesFit is 94, kube's 93"),
    ("filter", "explain-differs",
     "filterResult a TaintToleration is \"passed\", kube's \"node(s) had "
     "untolerated taint {dedicated: infra}\""),
    # kube stops at a's first failing filter, TaintToleration
    ("order", "explain-differs",
     "filterResult a NodePorts: kube does not run that filter on a"),
])
def test_explain_object_is_compared(bug, verdict, detail):
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl",
            impl("explaining") + " " + bug, "-o", "json")
    got = json.loads(p.stdout)["impl"]
    assert (got["action"], got["node"], got["verdict"]) == ("bind", "b",
                                                             verdict)
    assert p.returncode == (0 if verdict == "ok" else 1)
    if detail:
        assert got["detail"] == detail


def test_explain_naming_an_unknown_node_is_an_implementation_failure(tmp_path):
    fake = tmp_path / "fake.py"
    fake.write_text(
        "import sys, json\n"
        "for line in sys.stdin:\n"
        "    r = json.loads(line)\n"
        "    a = {'type': 'init_ok'} if r['type'] == 'init' else {\n"
        "        'type': 'schedule_ok', 'binding': {'target': {'name': 'b'}},\n"
        "        'explain': {'filterResult': {'zz': {'NodeName': 'passed'}}}}\n"
        "    a['in_reply_to'] = r['msg_id']\n"
        "    print(json.dumps(a), flush=True)\n")
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl",
            "/usr/bin/python3 %s" % fake)
    assert p.returncode == 3
    assert "explain.filterResult names zz, no node of the cluster" in p.stderr


def test_an_impl_finding_is_minimized_by_asking_again(tmp_path):
    # cluster.yaml as a universe (old placed by the enumerator).  With old
    # on b and p pending, emptiest binds c: not-viable.  Minimizing re-asks
    # emptiest: a (tainted) can go; old cannot (alone, every node is empty
    # and emptiest picks b, kube's answer); b holds old; without c,
    # emptiest picks b.  So the export keeps nodes b, c and pods old, p.
    base = tmp_path / "cluster.yaml"
    with open(CLUSTER) as f:
        base.write_text(f.read().replace("  nodeName: b\n", ""))
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: impl\nmanifests: [%s]\n" % base)
    out = tmp_path / "exp"
    p, rows = enum_impl(tmp_path, u, "emptiest", None, "--export", str(out))
    assert p.returncode == 1
    files = sorted(os.listdir(out))
    assert len(files) == 1 and files[0].startswith("impl-not-viable-")
    text = (out / files[0]).read_text()
    assert "# finding impl-not-viable: c is feasible but scores 432" in text
    assert "# minimized: no single pod, node or object can be dropped" in text
    # the line names the exported file as written (--export DIR/NAME)
    # the suite's v1.30 (conftest.py) named: kso's default is v1.34
    assert ("# reproduce: kso explain %s --pod default/p --kube-version 1.30 "
            "--impl '%s'" % (out / files[0], impl("emptiest"))) in text
    names = [l.split(": ", 1)[1] for l in text.splitlines()
             if l.startswith("  name: ")]
    assert names == ["b", "c", "old", "p"]
    # the export still fails when the implementation is asked again
    q = kso("explain", out / files[0], "--pod", "default/p", "--impl",
            impl("emptiest"), "-o", "json")
    assert json.loads(q.stdout)["impl"]["verdict"] == "not-viable"
    # without the implementation, kso export writes it whole and says why
    state = files[0][len("impl-not-viable-"):-len(".yaml")]
    q = kso("export", tmp_path / "e.db", state)
    assert q.returncode == 0
    assert ("# not minimized: an impl finding is re-checked by asking the "
            "implementation again: give --impl") in q.stdout


def test_a_pending_pod_with_node_name_is_not_asked(tmp_path):
    # cluster.yaml as is: old's spec.nodeName b stays its NodeName filter
    # when the enumerator leaves it pending, which no request can say
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: impl\nmanifests: [%s]\n" % CLUSTER)
    p, rows = enum_impl(tmp_path, u, None, "%s serve" % KSO)
    assert p.returncode == 1
    assert rows and all(r.startswith("inconclusive: default/old sets "
                                     "spec.nodeName in the universe")
                        for r in rows), rows


def test_requests_carry_the_pdb_status_kso_assumes(tmp_path):
    # fixtures/impl/pdb-status.yaml's header works the budgets out: web
    # 3 healthy - minAvailable 2 = 1; db 1 - (1 - maxUnavailable 1) = 1;
    # frozen's given status 0 is sent as given
    out = tmp_path / "requests.jsonl"
    p = subprocess.run([KSO, "explain",
                        os.path.join(ROOT, "fixtures", "impl",
                                     "pdb-status.yaml"),
                        "--pod", "default/p", "--impl",
                        impl("capture_requests")], capture_output=True,
                       text=True, timeout=60,
                       env=dict(os.environ, KSO_CAPTURE=str(out)))
    assert p.returncode == 1 and "refused" in p.stdout, p.stdout + p.stderr
    [cluster] = [json.loads(l) for l in out.read_text().splitlines()]
    got = {o["metadata"]["name"]: o.get("status")
           for o in cluster["items"] if o["kind"] == "PodDisruptionBudget"}
    assert got == {"web": {"disruptionsAllowed": 1},
                   "db": {"disruptionsAllowed": 1},
                   "frozen": {"disruptionsAllowed": 0}}


CRITERIA = os.path.join(ROOT, "fixtures", "impl", "preemption-criteria.yaml")
PDB_BUDGETS = os.path.join(ROOT, "fixtures", "preemption", "pdb-budgets.yaml")


def fixed(fixture, answer):
    p = subprocess.run([KSO, "explain", fixture, "--pod", "default/p",
                        "--impl", impl("fixed"), "-o", "json"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, KSO_FIXED=answer))
    assert p.returncode == 1, p.stderr
    return json.loads(p.stdout)["impl"]


def test_infeasible_lists_every_rejecting_filter():
    got = fixed(CRITERIA, "bind n2")
    assert (got["verdict"], got["detail"]) == ("infeasible", (
        "n2 is rejected by NodeUnschedulable: node(s) were unschedulable "
        "(also rejected by TaintToleration: node(s) had untolerated taint "
        "{dedicated: infra}; NodeResourcesFit: Insufficient cpu)"))


@pytest.mark.parametrize("fixture,answer,detail", [
    # pdb-budgets.yaml's header: n2 evicts y with 0 violations, n1 x with 1
    (PDB_BUDGETS, "preempt n1 kso-default-x",
     "kube nominates n2 (or a node tied with it), never n1; criterion 1 "
     "(fewest PDB violations): n2 0, n1 1"),
    (CRITERIA, "preempt n1 kso-default-a",
     "kube nominates n3 (or a node tied with it), never n1; criterion 2 "
     "(lowest highest victim priority): n3 10, n1 100"),
    (CRITERIA, "preempt n2 kso-default-a",
     "kube nominates n3 (or a node tied with it), never n2; kube tries no "
     "preemption on n2: its status is UnschedulableAndUnresolvable "
     "(NodeUnschedulable: node(s) were unschedulable (also rejected by "
     "TaintToleration: node(s) had untolerated taint {dedicated: infra}; "
     "NodeResourcesFit: Insufficient cpu))"),
])
def test_wrong_preemption_node_names_the_criterion(fixture, answer, detail):
    got = fixed(fixture, answer)
    assert (got["verdict"], got["detail"]) == ("wrong-preemption-node",
                                               detail)


@pytest.mark.parametrize("name,why,quoted", [
    ("garbage", "it does not start with '{'", "this is not json at all: ["),
    ("truncated", "truncated JSON: the line ends inside a string",
     '{"type": "schedule_ok", "in_reply_to": 1, "binding": {"apiVersion": '
     '"v1", "kind": "Bin'),
])
def test_a_malformed_answer_is_quoted(name, why, quoted):
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", impl(name))
    assert p.returncode == 3
    assert p.stderr.endswith(
        "request 1 (schedule default/p): the answer is not one JSON object "
        "(%s): \"%s\"\n" % (why, quoted))
    assert "YAML" not in p.stderr


def test_a_long_malformed_answer_is_cut(tmp_path):
    script = tmp_path / "long.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if '\"init\"' in line:\n"
        "        print('{\"type\": \"init_ok\", \"in_reply_to\": 0}', "
        "flush=True)\n"
        "    else:\n"
        "        print('x' * 500, flush=True)\n")
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl",
            "/usr/bin/python3 %s" % script)
    assert p.returncode == 3
    assert p.stderr.endswith('"' + "x" * 120 + '..."\n')


# /bin/true exits at once: before kso has written the init request (the
# write meets a closed pipe) or after it (the read meets end of file),
# whichever the two processes' timing gives; kso names the one it met.
@pytest.mark.parametrize("command,why", [
    ("kso-no-such-command-here", ("(the shell found no such command)\n",)),
    ("/bin/true", ("exited with status 0 before answering request 0 "
                   "(init)\n",
                   "exited with status 0 before request 0 (init)\n")),
])
def test_a_command_that_cannot_start_is_one_error(tmp_path, command, why):
    start = "implementation '%s' cannot start: " % command
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", command)
    assert (p.returncode, p.stdout) == (3, "")
    assert start in p.stderr and p.stderr.endswith(why), p.stderr
    # kso enum: one error before the run, not an impl-error per state
    p = kso("enum", TWO, "--db", tmp_path / "e.db", "--quiet", "--impl",
            command)
    assert (p.returncode, p.stdout) == (3, "")
    assert p.stderr.splitlines()[-1].startswith("kso enum: " + start)
    assert not (tmp_path / "e.db").exists()


def sampled_cluster(path, bigs):
    """201 nodes in one zone (node tree order = manifest order), p (cpu 1,
    memory 1Gi) pending.  Nodes at the positions in bigs are "big-NNN"
    (cpu 8, memory 16Gi), the others "n-NNN" (cpu 4, memory 8Gi).

    Worked by hand (reference §1.4, §2.7, §2.8): 201 nodes -> adaptive
    percentage 50 - 201/125 = 49, 201*49/100 = 98 < 100 -> kube finds 100
    feasible nodes from its start index: a window of 100 consecutive
    positions (every node is feasible).  Scores: an n node LeastAllocated
    (3000*100/4000 = 75, 7Gi*100/8Gi = 87) -> 81, BalancedAllocation
    |0.25 - 0.125|/2 = 0.0625 -> 93; a big node (87, 93) -> 90 and
    |0.125 - 0.0625|/2 -> 96; TaintToleration 100 x 3 on every node; the
    other scores 0.  Totals: n 81 + 93 + 300 = 474, big 90 + 96 + 300 =
    486."""
    text = "".join(
        "---\napiVersion: v1\nkind: Node\nmetadata: {name: %s}\nstatus: "
        "{allocatable: {cpu: '%s', memory: %s, pods: '110'}}\n"
        % (("big-%03d" % i, "8", "16Gi") if i in bigs
           else ("n-%03d" % i, "4", "8Gi")) for i in range(201))
    text += ("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: "
             "{containers: [{name: c, image: x, resources: {requests: "
             "{cpu: '1', memory: 1Gi}}}]}\n")
    path.write_text(text)
    return str(path)


SCOPE = ("; with 201 nodes kube scores only the feasible nodes its rotating "
         "start index reaches (judged: feasibility on every node, and the "
         "scores within each window kube could sample; not judged: which "
         "window a run used)")


@pytest.mark.parametrize("bigs,answer,verdict,detail", [
    # big nodes 67 apart: every window of 100 holds one, which outscores
    # n-001 (474 < 486) in each of the 100 windows holding n-001; the
    # first one tried starts at n-001 itself and holds big-067
    ({0, 67, 134}, "bind n-001", "not-viable",
     "n-001 is feasible but scores best in none of the 100 windows holding "
     "it: starting at n-001 it totals 474, big-067 486"),
    ({0, 67, 134}, "bind big-067", "ok",
     "big-067 is viable in 100 of the 100 windows holding it (e.g. starting "
     "at big-067)"),
    # one big node at position 0: the windows holding n-150 start at
    # positions 51..150; those from 102 on wrap round to hold big-000,
    # those starting at 51..101 do not, and there every node ties
    ({0}, "bind n-150", "ok",
     "n-150 is viable in 51 of the 100 windows holding it (e.g. starting "
     "at n-101)"),
])
def test_sampled_binds_are_judged_per_window(tmp_path, bigs, answer, verdict,
                                             detail):
    f = sampled_cluster(tmp_path / "s.yaml", bigs)
    p = subprocess.run([KSO, "explain", f, "--pod", "default/p", "--impl",
                        impl("fixed"), "-o", "json"], capture_output=True,
                       text=True, timeout=120,
                       env=dict(os.environ, KSO_FIXED=answer))
    got = json.loads(p.stdout)["impl"]
    assert (got["verdict"], got["detail"]) == (verdict, detail + SCOPE)


def test_a_bind_outside_the_prefilter_result_reads_as_english(tmp_path):
    # p's required node affinity names node b by metadata.name: NodeAffinity's
    # PreFilter returns the PreFilterResult {b} (reference §2.3), so no
    # filter runs on a; an implementation binding a is infeasible
    f = tmp_path / "c.yaml"
    f.write_text("".join(
        "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\n"
        "status: {allocatable: {cpu: '1', pods: '10'}}\n---\n" % n
        for n in ("a", "b")) +
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n"
        "  affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuring"
        "Execution: {nodeSelectorTerms: [{matchFields: [{key: metadata.name, "
        "operator: In, values: [b]}]}]}}}\n"
        "  containers: [{name: c, image: x}]\n")
    p = subprocess.run([KSO, "explain", str(f), "--pod", "default/p",
                        "--impl", impl("fixed"), "-o", "json"],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, KSO_FIXED="bind a"))
    assert p.returncode == 1, p.stderr
    got = json.loads(p.stdout)["impl"]
    assert got["verdict"] == "infeasible"
    assert got["detail"] == (
        "a is rejected by PreFilter, whose PreFilterResult leaves it out "
        "(the nodes a required node affinity names by metadata.name), so no "
        "filter runs on it")


def test_impl_log_records_every_message_in_order(tmp_path):
    # explain asks once: init, init_ok, schedule, schedule_ok - each line
    # "PID > request" or "PID < answer", the answers replying to the
    # requests before them
    log = tmp_path / "impl.log"
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", impl("self"),
            "--impl-log", str(log))
    assert p.returncode == 0, p.stderr
    lines = log.read_text().splitlines()
    pids = {l.split(" ", 1)[0] for l in lines}
    assert len(pids) == 1 and pids.pop().isdigit()
    dirs = [l.split(" ", 2)[1] for l in lines]
    msgs = [json.loads(l.split(" ", 2)[2]) for l in lines]
    assert dirs == [">", "<", ">", "<"]
    assert [m["type"] for m in msgs] == ["init", "init_ok", "schedule",
                                         "schedule_ok"]
    assert msgs[1]["in_reply_to"] == msgs[0]["msg_id"]
    assert msgs[3]["in_reply_to"] == msgs[2]["msg_id"]
    assert msgs[3]["binding"]["target"]["name"] == "b"
    # kso schedule on loop.yaml: one schedule request a step, in order
    p = kso("schedule", LOOP, "--impl", impl("self"), "--impl-log", str(log),
            "-o", "json")
    steps = json.loads(p.stdout)["steps"]
    msgs = [json.loads(l.split(" ", 2)[2]) for l in
            log.read_text().splitlines()]
    asked = [m for m in msgs if m["type"] == "schedule"]
    assert len(asked) == len(steps)
    assert [m["pod"]["name"] for m in asked] == [
        s["pod"].split("/")[1] for s in steps]
    # a log that cannot be created: exit 3, nothing asked
    p = kso("explain", CLUSTER, "--pod", "default/p", "--impl", impl("self"),
            "--impl-log", str(tmp_path / "no" / "such.log"))
    assert (p.returncode, p.stdout) == (3, "")
    assert "such.log: cannot create: No such file or directory" in p.stderr


def test_schedule_impl_drives_the_loop():
    # --impl-drives: the implementation's answers make the steps (it is
    # the loop's engine), each judged against kso's in the state it was
    # asked in.  fixtures/preemption/loop.yaml with never_preempts
    # (kso's decision, but "unschedulable" where kso would preempt):
    #  1 h1 binds n2 (ok).  n1 3/4 (l1 2, l2 1), n2 4/4 (h1 3, l3 1).
    #  2 h2 (high, 2): nothing fits; kso preempts l2 on n1, the answer
    #    is unschedulable: should-have-preempted.  h2 waits.
    #  3 m1 (mid, 2): nothing fits; kso evicts l2 on n1 (l1, l2 lower;
    #    l1 reprieved): should-have-preempted.  m1 waits.
    #  4 m2 (mid, 1): n1 has 1 free: bind n1 (ok); the bind wakes h2, m1
    #    (an implementation's answer names no rejecting plugin, so the
    #    pods it parks move on every event: model/requeue.h).
    #  5 h2: n1 4/4, n2 4/4; kso would evict below 1000 (l1, l2, m2 on
    #    n1): should-have-preempted.
    #  6 m3 (mid-never, queued before m1's retry): nothing fits, never
    #    preempts: unschedulable, ok.
    #  7 m1: nothing fits, l1 and l2 are below it on n1:
    #    should-have-preempted.
    #  8-10 p1, p2, p3 (low, 10), 11 z (0): nothing fits and nothing of
    #    lower priority: unschedulable, ok.  No event is left.
    # 11 steps, no preemption: 7 ok, 4 should-have-preempted (steps 2, 3,
    # 5, 7); only m2 joins h1 among the bound; l1 l2 l3 stay.
    p = kso("schedule", LOOP, "--impl", impl("never_preempts"),
            "--impl-drives", "-o", "json")
    assert p.returncode == 1, p.stderr
    doc = json.loads(p.stdout)
    assert doc["impl"]["judged"] == 11
    assert doc["impl"]["verdicts"] == {"ok": 7, "should-have-preempted": 4}
    steps = [(s["pod"], s["action"], s["node"], s["impl"]["verdict"])
             for s in doc["steps"]]
    assert steps == [
        ("default/h1", "bind", "n2", "ok"),
        ("default/h2", "unschedulable", None, "should-have-preempted"),
        ("default/m1", "unschedulable", None, "should-have-preempted"),
        ("default/m2", "bind", "n1", "ok"),
        ("default/h2", "unschedulable", None, "should-have-preempted"),
        ("default/m3", "unschedulable", None, "ok"),
        ("default/m1", "unschedulable", None, "should-have-preempted"),
        ("default/p1", "unschedulable", None, "ok"),
        ("default/p2", "unschedulable", None, "ok"),
        ("default/p3", "unschedulable", None, "ok"),
        ("default/z", "unschedulable", None, "ok"),
    ]
    # a correct implementation driving: kso's own decisions, and m3 also
    # retried after the binds (its parking named no plugin): 13 steps, ok
    p = kso("schedule", LOOP, "--impl", impl("self"), "--impl-drives",
            "-o", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["impl"]["verdicts"] == {"ok": 13}
    assert [s["action"] for s in doc["steps"]].count("preempt") == 3
