"""`kso explain`: CLI behaviour, the JSON schema, the table, pod selection,
error exits, and a performance sanity check.

Expected values are derived by hand in the fixtures' header comments
(fixtures/explain/*.yaml) from reference §1-§2; none is pasted from kso's
output.  Run: KSO=/work/main/kso /usr/bin/python3 -m pytest -q tests/test_explain.py
"""

import json
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
FIX = os.path.join(ROOT, "fixtures", "explain")

DEFAULT_SCORES = [
    "TaintToleration", "NodeAffinity", "NodeResourcesFit",
    "PodTopologySpread", "InterPodAffinity",
    "NodeResourcesBalancedAllocation", "ImageLocality",
]
DEFAULT_FILTERS = [
    "NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
    "NodePorts", "NodeResourcesFit", "PodTopologySpread", "InterPodAffinity",
]


def run(*args, check=None):
    p = subprocess.run([KSO, "explain", *args], capture_output=True,
                       text=True, timeout=60)
    if check is not None:
        assert p.returncode == check, (p.returncode, p.stdout, p.stderr)
    return p


def fixture(name):
    return os.path.join(FIX, name)


def assert_fit_error(message, fit_error):
    """kube's FitError text, optionally followed by PostFilter's message
    (" preemption: ...", reference §3) when preemption is explained."""
    assert message == fit_error or message.startswith(
        fit_error + " preemption: "), message


def explain_json(name, *args):
    p = run(fixture(name), "-o", "json", *args, check=0)
    return json.loads(p.stdout), p.stdout


# ------------------------------------------------------------ JSON schema

def test_json_schema_keys():
    doc, _ = explain_json("taints_cpu.yaml")
    for key in ("pod", "nodes", "viable", "preemption"):
        assert key in doc
    assert doc["pod"] == "default/web"
    # nothing fits, so DefaultPreemption ran (reference §3): node-a is
    # UnschedulableAndUnresolvable (taint), node-b and node-c Unschedulable
    # with no lower-priority pod to evict; the FitError histogram sorts
    # "1 ..." before "2 ..."
    pre = doc["preemption"]
    assert (pre["eligible"], pre["node"], pre["victims"], pre["candidates"]) \
        == (True, "", [], [])
    assert pre["message"] == (
        "preemption: 0/3 nodes are available: 1 Preemption is not helpful "
        "for scheduling, 2 No preemption victims found for incoming pod.")
    # nodes in cluster (manifest) order
    assert list(doc["nodes"]) == ["node-a", "node-b", "node-c"]
    for node in doc["nodes"].values():
        for key in ("feasible", "rejected_by", "failed_filters", "reasons",
                    "scores", "total"):
            assert key in node
        assert isinstance(node["feasible"], bool)
        assert isinstance(node["failed_filters"], list)
        assert isinstance(node["reasons"], list)
        assert isinstance(node["scores"], dict)
        assert isinstance(node["total"], int)


def test_json_is_deterministic():
    _, a = explain_json("scoring.yaml")
    _, b = explain_json("scoring.yaml")
    assert a == b


def test_nothing_fits_reasons_and_event():
    doc, _ = explain_json("taints_cpu.yaml")
    a, b, c = (doc["nodes"][n] for n in ("node-a", "node-b", "node-c"))
    # node-a: the taint is the first failure; its 4 cpu would fit the 2
    assert a["feasible"] is False
    assert a["rejected_by"] == "TaintToleration"
    assert a["failed_filters"] == ["TaintToleration"]
    assert a["reasons"] == ["node(s) had untolerated taint {dedicated: gpu}"]
    for n in (b, c):
        assert n["feasible"] is False
        assert n["rejected_by"] == "NodeResourcesFit"
        assert n["failed_filters"] == ["NodeResourcesFit"]
        assert n["reasons"] == ["Insufficient cpu"]
        assert n["scores"] == {} and n["total"] == 0
    assert doc["viable"] == []
    assert_fit_error(doc["message"], "0/3 nodes are available: 1 node(s) had "
                     "untolerated taint {dedicated: gpu}, 2 Insufficient cpu.")


def test_all_failing_filters_are_listed(tmp_path):
    # the pod tolerates nothing, needs a label the node lacks and more cpu
    # than it has: TaintToleration, NodeAffinity and NodeResourcesFit all
    # fail; kube records the first (TaintToleration).
    f = tmp_path / "c.yaml"
    f.write_text("""
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
spec:
  taints: [{key: k, value: v, effect: NoExecute}]
status:
  allocatable: {cpu: "1", memory: 1Gi, pods: "110"}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  nodeSelector: {disktype: ssd}
  containers:
  - name: c
    image: nginx
    resources: {requests: {cpu: "2"}}
""")
    p = run(str(f), "-o", "json", check=0)
    n1 = json.loads(p.stdout)["nodes"]["n1"]
    assert n1["rejected_by"] == "TaintToleration"
    assert n1["failed_filters"] == ["TaintToleration", "NodeAffinity",
                                    "NodeResourcesFit"]
    assert n1["reasons"] == ["node(s) had untolerated taint {k: v}"]


def test_scores_and_viable():
    doc, _ = explain_json("scoring.yaml")
    nodes = doc["nodes"]
    for n in nodes.values():
        assert n["feasible"] is True
        assert n["rejected_by"] == ""
        assert n["failed_filters"] == [] and n["reasons"] == []
        assert list(n["scores"]) == DEFAULT_SCORES
        assert n["total"] == sum(n["scores"].values())
    # hand derivation in fixtures/explain/scoring.yaml
    assert nodes["node-a"]["scores"] == {
        "TaintToleration": 300, "NodeAffinity": 200, "NodeResourcesFit": 81,
        "PodTopologySpread": 0, "InterPodAffinity": 0,
        "NodeResourcesBalancedAllocation": 93, "ImageLocality": 0}
    assert nodes["node-a"]["total"] == 674
    assert nodes["node-b"]["total"] == 474
    assert nodes["node-c"]["total"] == 474
    assert doc["viable"] == ["node-a"]
    assert doc["scored"] is True


def test_viable_ties_keep_every_maximal_node():
    doc, _ = explain_json("tie.yaml")
    assert doc["viable"] == ["node-a", "node-b"]
    assert doc["nodes"]["node-a"]["total"] == doc["nodes"]["node-b"]["total"]
    assert doc["nodes"]["node-c"]["rejected_by"] == "NodeResourcesFit"
    assert doc["nodes"]["node-c"]["scores"] == {}


def test_single_feasible_node_is_not_scored():
    doc, _ = explain_json("nominated.yaml", "--pod", "default/small")
    # node-a is rejected because big (priority 1000 >= 0) is nominated there
    a = doc["nodes"]["node-a"]
    assert a["feasible"] is False
    assert a["rejected_by"] == "NodeResourcesFit"
    assert a["reasons"] == ["Insufficient cpu"]
    b = doc["nodes"]["node-b"]
    assert b["feasible"] is True
    assert b["scores"] == {} and b["total"] == 0
    assert doc["scored"] is False
    assert doc["viable"] == ["node-b"]


def test_nominated_node_fast_path():
    doc, _ = explain_json("nominated.yaml", "--pod", "default/big")
    assert doc["nodes"]["node-a"]["feasible"] is True
    assert doc["nodes"]["node-b"]["feasible"] is True
    assert doc["scored"] is False
    assert doc["viable"] == ["node-a"]


def test_lower_priority_nominated_pod_is_ignored():
    doc, _ = explain_json("nominated.yaml", "--pod", "default/tiny")
    assert doc["nodes"]["node-a"]["feasible"] is True
    assert doc["scored"] is True


def test_prefilter_rejection():
    doc, _ = explain_json("conflict.yaml")
    for n in doc["nodes"].values():
        assert n["feasible"] is False
        assert n["rejected_by"] == "NodeAffinity"
        assert n["reasons"] == ["pod affinity terms conflict"]
    assert doc["viable"] == []
    assert_fit_error(doc["message"], "0/2 nodes are available: "
                     "pod affinity terms conflict.")


def test_no_nodes():
    doc, _ = explain_json("no_nodes.yaml")
    assert doc["nodes"] == {}
    assert doc["viable"] == []
    assert doc["message"] == "no nodes available to schedule pods"


# ---------------------------------------------------------- pod selection

def test_default_pod_is_priority_sort_head():
    doc, _ = explain_json("queue.yaml")
    # not bound/gated/other-scheduler/deleting; priority 1000, older
    assert doc["pod"] == "default/early-high"


def test_default_pod_nominated_fixture():
    doc, _ = explain_json("nominated.yaml")
    assert doc["pod"] == "default/tiny"


def test_explicit_pod():
    doc, _ = explain_json("queue.yaml", "--pod", "default/low")
    assert doc["pod"] == "default/low"


@pytest.mark.parametrize("pod,words", [
    ("default/nope", "not found"),
    ("default/gated", "gate"),
])
def test_bad_pod_exits_1(pod, words):
    p = run(fixture("queue.yaml"), "--pod", pod, check=1)
    assert words in p.stderr
    assert p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1


def test_no_pending_pod_exits_1():
    p = run(fixture("all_bound.yaml"), check=1)
    assert "no pending pod" in p.stderr


def test_missing_file_exits_1():
    p = run(os.path.join(FIX, "does-not-exist.yaml"), check=1)
    assert "does-not-exist.yaml" in p.stderr


def test_unknown_profile_exits_1():
    p = run(fixture("scoring.yaml"), "--profile", "nope", check=1)
    assert "nope" in p.stderr


@pytest.mark.parametrize("args", [
    [],                                        # no PATH
    ["--bogus"],
    ["-o", "xml"],
    ["--engine", "fast"],                      # no such engine
    ["--pod"],                                 # missing value
])
def test_usage_errors_exit_2(args):
    extra = [] if args == [] else [fixture("scoring.yaml")]
    run(*extra, *args, check=2)


def test_help_exits_0():
    p = run("--help", check=0)
    assert "kso explain" in p.stdout


def test_engines_print_identical_bytes():
    # the engine is not part of the document: both must say the same
    outs = [run(fixture("scoring.yaml"), "-o", "json", "--engine", e,
                check=0).stdout for e in ("model", "oracle")]
    assert outs[0] == outs[1]
    assert json.loads(outs[0])["viable"]


def test_config_and_profile():
    cfg = fixture("config_two_profiles.yaml")
    doc, _ = explain_json("taints_cpu.yaml", "--config", cfg,
                          "--profile", "no-taints")
    assert doc["profile"] == "no-taints"
    a = doc["nodes"]["node-a"]
    # TaintToleration disabled: node-a's 4 cpu fit the 2 requested
    assert a["feasible"] is True
    assert a["failed_filters"] == []
    assert doc["viable"] == ["node-a"]
    assert doc["scored"] is False
    # the pod's own schedulerName picks the default profile
    doc, _ = explain_json("taints_cpu.yaml", "--config", cfg)
    assert doc["profile"] == "default-scheduler"
    assert doc["nodes"]["node-a"]["rejected_by"] == "TaintToleration"


def test_bad_config_exits_1(tmp_path):
    f = tmp_path / "cfg.yaml"
    f.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                 "kind: KubeSchedulerConfiguration\n"
                 "profiles:\n- schedulerName: x\n  plugins:\n"
                 "    multiPoint:\n      enabled:\n      - name: NoSuchPlugin\n")
    p = run(fixture("scoring.yaml"), "--config", str(f), check=1)
    assert str(f) in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


# ------------------------------------------------------------------ table

def test_table_nothing_fits():
    p = run(fixture("taints_cpu.yaml"), check=0)
    out = p.stdout
    assert "default/web" in out
    lines = out.splitlines()
    row_a = next(l for l in lines if l.startswith("node-a"))
    assert "taint {dedicated: gpu}" in row_a
    assert "TaintToleration" in row_a          # its result column
    row_b = next(l for l in lines if l.startswith("node-b"))
    assert "Insufficient cpu" in row_b
    event = lines[-1]
    assert event.startswith("event: ")
    assert_fit_error(event[len("event: "):], "0/3 nodes are available: "
                     "1 node(s) had untolerated taint {dedicated: gpu}, "
                     "2 Insufficient cpu.")


def test_table_scored():
    p = run(fixture("scoring.yaml"), "-o", "table", check=0)
    lines = p.stdout.splitlines()
    assert lines[-1] == "viable: node-a"
    score_rows = [l for l in lines if l.startswith("node-a")]
    assert len(score_rows) == 2                # filter row and score row
    assert "674" in score_rows[1] and "viable" in score_rows[1]
    header = next(l for l in lines if "TOTAL" in l)
    # NodeAffinity decides; TaintToleration (300 everywhere) is folded
    assert "NodeAffinity×2" in header and "TaintToleration×3" not in header
    assert "TaintToleration×3 300" in p.stdout
    wide = run(fixture("scoring.yaml"), "-o", "wide", check=0).stdout
    header = next(l for l in wide.splitlines() if "TOTAL" in l)
    assert "NodeAffinity×2" in header and "TaintToleration×3" in header


def test_table_columns_align():
    p = run(fixture("taints_cpu.yaml"), check=0)
    lines = p.stdout.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("NODE"))
    header = lines[start]
    col = header.index("RESULT")
    for row in lines[start + 1:start + 4]:
        # ✓/✗ are one column wide, so str indexes are display columns
        assert row[col - 2:col] == "  " and row[col] != " "


# ------------------------------------------------------------ performance

def test_performance_100_nodes_1000_pods(tmp_path):
    f = tmp_path / "big.yaml"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts",
                                                 "gen_cluster.py"),
                    "--nodes", "100", "--bound", "1000", "--pending", "5",
                    "--zones", "3", "--seed", "7", "-o", str(f)],
                   check=True)
    t0 = time.monotonic()
    p = run(str(f), "-o", "json", check=0)
    elapsed = time.monotonic() - t0
    doc = json.loads(p.stdout)
    assert len(doc["nodes"]) == 100
    limit = 20.0 if os.environ.get("KSO_SANITIZED") else 1.0
    assert elapsed < limit, elapsed


def test_gen_cluster_is_seedable():
    gen = os.path.join(ROOT, "scripts", "gen_cluster.py")
    args = [sys.executable, gen, "--nodes", "5", "--bound", "20",
            "--pending", "3", "--seed", "3"]
    a = subprocess.run(args, capture_output=True, text=True, check=True)
    b = subprocess.run(args, capture_output=True, text=True, check=True)
    assert a.stdout == b.stdout
    assert a.stdout.count("kind: Node\n") == 5
    assert a.stdout.count("kind: Pod\n") == 23
    assert a.stdout.count("  nodeName: ") == 20


def test_node_filter_and_pod_by_name(tmp_path):
    # fixtures/impl/cluster.yaml: viable {b}; --node prints only the named
    # nodes (the answer is the same); p alone in its name needs no namespace
    import subprocess as sp
    cluster = os.path.join(ROOT, "fixtures", "impl", "cluster.yaml")
    r = sp.run([KSO, "explain", cluster, "--pod", "p", "--node", "c",
                "--node", "a", "-o", "json"], capture_output=True, text=True,
               timeout=60)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert sorted(doc["nodes"]) == ["a", "c"] and doc["viable"] == ["b"]
    r = sp.run([KSO, "explain", cluster, "--pod", "p", "--node", "zz"],
               capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stdout, r.stderr) == (
        1, "", "kso explain: no node named zz\n")
    two = tmp_path / "two.yaml"
    two.write_text(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
        "status: {allocatable: {cpu: '1', pods: '10'}}\n---\n" +
        "".join("apiVersion: v1\nkind: Pod\nmetadata: {name: web, "
                "namespace: %s}\nspec: {containers: [{name: c, image: x}]}\n"
                "---\n" % ns for ns in ("team-a", "team-b")))
    r = sp.run([KSO, "explain", str(two), "--pod", "web"],
               capture_output=True, text=True, timeout=60)
    assert (r.returncode, r.stderr) == (1, "kso explain: pod name web is in 2 "
                                        "namespaces (team-a, team-b): give "
                                        "NAMESPACE/NAME\n")


# ------------------------------------------------------------- bound pods

BOUND = """\
apiVersion: v1
kind: Node
metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
spec:
  taints: [{key: dedicated, value: gpu, effect: NoSchedule}]
status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2, labels: {kubernetes.io/hostname: n2}}
status: {allocatable: {cpu: "1", memory: 1Gi, pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: old, namespace: default}
spec:
  nodeName: n1
  containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: fits, namespace: default}
spec:
  nodeName: n2
  containers: [{name: c, image: x, resources: {requests: {cpu: 500m}}}]
"""


def test_a_bound_pod_is_explained_on_its_node(tmp_path):
    # old was bound to n1 before the NoSchedule taint came (the taint
    # evicts nothing); taken off n1 now, TaintToleration rejects it there,
    # and it stays: kube-scheduler never moves a bound pod.  fits on n2
    # passes every filter (500m of 1 cpu, n2 untainted).
    f = tmp_path / "bound.yaml"
    f.write_text(BOUND)
    p = run(str(f), "--pod", "old", check=0)
    lines = p.stdout.splitlines()
    assert lines[2] == ("bound to n1 (spec.nodeName): kube-scheduler "
                        "schedules pending pods only and never moves a bound "
                        "one, so it stays whatever the filters say now.")
    rows = [l for l in lines if l.startswith(("n1  ", "n2  "))]
    assert [r.split()[:2] for r in rows] == [["n1", "rejected"]]
    assert "TaintToleration: taint {dedicated: gpu}" in rows[0]
    assert lines[-1] == (
        "n1 fails TaintToleration for it today (node(s) had untolerated taint "
        "{dedicated: gpu}): it stays all the same (evicting is not the "
        "scheduler's job: a NoExecute taint is the taint manager's, a node "
        "going away the node controller's).")
    p = run(str(f), "--pod", "default/fits", check=0)
    assert p.stdout.splitlines()[-1] == ("n2 passes every filter for it "
                                         "today: placed now, it could go "
                                         "there again.")
    doc = json.loads(run(str(f), "--pod", "old", "-o", "json",
                         check=0).stdout)
    assert doc["bound_node"] == "n1"
    assert doc["nodes"]["n1"]["rejected_by"] == "TaintToleration"
