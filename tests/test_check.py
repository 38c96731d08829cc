"""
test_check.py - `kso check` on watch logs built by hand from scenarios
(kubectl's `get -w --output-watch-events -o json` shape: a List for the
initial state, then one event object after another, pretty-printed).

The objects are kso's own dump of a fixture (after the API server's
defaulting and admission, as a cluster's objects are); the decisions and
their expected verdicts follow from the fixtures' hand-derived answers:
fixtures/impl/cluster.yaml (p's viable set is {b}; a is tainted; c
feasible but lower) and fixtures/preemption/reprieve.yaml (p preempts on
n1, victims [b, a]).
"""
import copy
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
CLUSTER = os.path.join(ROOT, "fixtures", "impl", "cluster.yaml")
REPRIEVE = os.path.join(ROOT, "fixtures", "preemption", "reprieve.yaml")


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=120)


class Log:
    """A watch log over the objects of a fixture."""

    def __init__(self, fixture):
        dump = json.loads(kso("dump", fixture, "-o", "json").stdout)
        self.items = [o for g in ("namespaces", "priorityClasses", "nodes",
                                  "pods", "podDisruptionBudgets")
                      for o in dump[g] if not o.get("implicit")]
        self.pods = {o["metadata"]["name"]: o for o in self.items
                     if o["kind"] == "Pod"}
        self.rv = 100
        self.lines = [json.dumps({"apiVersion": "v1", "kind": "List",
                                  "items": self.items}, indent=2)]

    def _event(self, kind, obj):
        self.rv += 1
        obj = copy.deepcopy(obj)
        obj["metadata"]["resourceVersion"] = str(self.rv)
        self.lines.append(json.dumps({"type": kind, "object": obj},
                                     indent=2))

    def _modify(self, name, fn):
        pod = copy.deepcopy(self.pods[name])
        fn(pod)
        self.pods[name] = pod
        self._event("MODIFIED", pod)

    def bind(self, name, node):
        self._modify(name, lambda p: p["spec"].__setitem__("nodeName", node))

    def unschedulable(self, name, message, nominated=None):
        def fn(p):
            st = p.setdefault("status", {})
            st["conditions"] = [{"type": "PodScheduled", "status": "False",
                                 "reason": "Unschedulable",
                                 "message": message}]
            if nominated:
                st["nominatedNodeName"] = nominated
        self._modify(name, fn)

    def evict(self, name):
        def fn(p):
            p.setdefault("status", {})["conditions"] = [
                {"type": "DisruptionTarget", "status": "True",
                 "reason": "PreemptionByScheduler"}]
            p["metadata"]["deletionTimestamp"] = "2024-01-01T00:00:00Z"
        self._modify(name, fn)
        self._event("DELETED", self.pods[name])

    def add_pod(self, name, cpu):
        pod = copy.deepcopy(self.pods["p"])
        pod["metadata"]["name"] = name
        pod["metadata"].pop("uid", None)
        pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = cpu
        self.pods[name] = pod
        self._event("ADDED", pod)

    def check(self, tmp_path, *extra):
        f = tmp_path / "watch.json"
        f.write_text("\n".join(self.lines) + "\n")
        p = kso("check", f, *extra)
        lines = [json.loads(x) for x in p.stdout.splitlines()]
        return p.returncode, lines[:-1], steady(lines[-1]["summary"])


def steady(summary):
    """The summary without its rate (decisions/s: the machine's)."""
    assert summary.pop("decisions_per_second") >= 0
    return summary


def verdicts(decisions):
    return [(d["seq"], d["pod"], d["decision"], d["verdict"])
            for d in decisions]


def test_correct_decisions_are_ok(tmp_path):
    log = Log(CLUSTER)
    log.add_pod("huge", "100")           # fits nowhere, nothing to evict
    log.bind("p", "b")
    log.unschedulable("huge", "0/3 nodes are available: 1 Insufficient cpu.")
    rc, got, summary = log.check(tmp_path)
    assert rc == 0
    assert verdicts(got) == [
        (1, "default/p", "bind b", "ok"),
        (2, "default/huge", "unschedulable: 0/3 nodes are available: 1 "
         "Insufficient cpu.", "ok")]
    assert summary == {"decisions": 2, "ok": 2, "ok_with_lag": 0, "wrong": 0,
                       "inconclusive": 0, "findings": {}}


def test_wrong_binds_and_unschedulable_flagged_at_their_seq(tmp_path):
    log = Log(CLUSTER)
    log.add_pod("q", "1")
    log.add_pod("r", "1")
    log.bind("p", "b")                   # ok
    log.bind("q", "a")                   # a is tainted
    log.unschedulable("r", "0/3 nodes are available")   # b and c fit
    rc, got, summary = log.check(tmp_path)
    assert rc == 1
    assert [(d["seq"], d["verdict"]) for d in got] == [
        (1, "ok"), (2, "infeasible"), (3, "should-have-fit")]
    assert got[1]["detail"] == ("a is rejected by TaintToleration: node(s) "
                                "had untolerated taint {dedicated: infra}")
    assert summary["wrong"] == 2
    assert summary["findings"] == {"infeasible": 1, "should-have-fit": 1}


def test_not_viable_bind(tmp_path):
    log = Log(CLUSTER)
    log.bind("p", "c")
    rc, got, _ = log.check(tmp_path)
    assert rc == 1
    assert verdicts(got) == [(1, "default/p", "bind c", "not-viable")]


def test_preemption_judged_in_the_state_before_the_evictions(tmp_path):
    log = Log(REPRIEVE)
    log.evict("b")
    log.evict("a")
    log.unschedulable("p", "0/1 nodes are available: 1 Insufficient cpu.",
                      nominated="n1")
    log.bind("p", "n1")
    rc, got, _ = log.check(tmp_path)
    assert rc == 0
    assert verdicts(got) == [
        (1, "default/p", "preempt on n1: default/b, default/a", "ok"),
        (2, "default/p", "bind n1", "ok")]


def test_wrong_victims(tmp_path):
    log = Log(REPRIEVE)
    log.evict("b")
    log.unschedulable("p", "0/1 nodes are available: 1 Insufficient cpu.",
                      nominated="n1")
    rc, got, _ = log.check(tmp_path)
    assert rc == 1
    assert verdicts(got) == [
        (1, "default/p", "preempt on n1: default/b", "victims-differ")]
    assert got[0]["detail"] == ("on n1 kube evicts [default/b,default/a], "
                                "not [default/b]")


def test_bad_log_is_one_line_error(tmp_path):
    f = tmp_path / "watch.json"
    f.write_text('{"type": "BOGUS", "object": {"kind": "Pod"}}\n')
    p = kso("check", f)
    assert p.returncode == 1
    assert p.stdout == ""
    assert p.stderr == f'{f}:1:1: unknown watch event type "BOGUS" (type)\n'


def test_errors_point_into_the_file_not_the_value(tmp_path):
    # Each value is parsed on its own; its errors still carry the file's
    # line and column (the third line's value starts in column 3).
    f = tmp_path / "watch.json"
    f.write_text('{"type": "ADDED", "object": {"kind": "Node"}}\n\n'
                 '  {"type": "GONE", "object": {"kind": "Pod"}}\n')
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == f'{f}:3:3: unknown watch event type "GONE" (type)\n'
    # a syntax error at the stray ']' (line 2, column 21)
    f.write_text('{"type": "ADDED", "object": {"kind": "Node"}}\n'
                 ' {"object": {"a": 1 ]}}\n')
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f"{f}:2:21: YAML syntax error: did not find expected "
                        "',' or '}' (while parsing a flow mapping)\n")
    f.write_text('{"kind": "Node"}\n  }\n')
    p = kso("check", f)
    assert p.stderr == f"{f}:2:3: unbalanced closing bracket\n"
    # a log cut short: the error points where the unfinished value starts
    f.write_text('{"kind": "Node"}\n {"type": "ADDED",\n "object": {\n')
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == f"{f}:2:2: the log ends inside this value (cut short?)\n"


def as_records(log):
    """The log in the kube-scheduler-simulator recorder's shape: the List's
    items as Add records, then Update / Delete ones, as one array."""
    ev = {"ADDED": "Add", "MODIFIED": "Update", "DELETED": "Delete"}
    records = []
    for text in log.lines:
        v = json.loads(text)
        for obj in v.get("items", []):
            records.append({"time": "2024-01-01T00:00:00Z", "event": "Add",
                            "resource": obj})
        if "type" in v:
            records.append({"time": "2024-01-01T00:00:01Z",
                            "event": ev[v["type"]], "resource": v["object"]})
    return records


def test_simulator_recorder_records_are_judged_alike(tmp_path):
    log = Log(REPRIEVE)
    log.evict("b")
    log.unschedulable("p", "0/1 nodes are available: 1 Insufficient cpu.",
                      nominated="n1")
    want = log.check(tmp_path)
    assert want[0] == 1 and want[1][0]["verdict"] == "victims-differ"
    records = as_records(log)
    for name, text in (("array.json", json.dumps(records, indent=1)),
                       ("lines.json", "\n".join(json.dumps(r)
                                                for r in records) + "\n")):
        f = tmp_path / name
        f.write_text(text)
        p = kso("check", f)
        lines = [json.loads(x) for x in p.stdout.splitlines()]
        assert (p.returncode, lines[:-1], steady(lines[-1]["summary"])) == want


def test_unknown_recorder_event_is_an_error(tmp_path):
    f = tmp_path / "rec.json"
    f.write_text('\n{"time": "x", "event": "Patch", "resource": {"kind": "Pod"}}\n')
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f'{f}:2:1: unknown recorder event "Patch" (want Add, '
                        'Update, Delete) (event)\n')


def test_decisions_carry_observed_expected_and_a_reproduce_command(tmp_path):
    log = Log(CLUSTER)
    log.bind("p", "c")                   # not-viable: viable {b}
    f = tmp_path / "watch.json"
    f.write_text("\n".join(log.lines) + "\n")
    out = tmp_path / "cases"
    p = kso("check", f, "--export", out)
    assert p.returncode == 1
    d = json.loads(p.stdout.splitlines()[0])
    assert d["observed"] == {"action": "bind", "node": "c"}
    # fixture header: a rejected by its taint, b 492, c lower
    assert d["expected"] == {"viable": ["b"], "feasible": ["b", "c"]}
    # the suite runs v1.30 (conftest.py): the line names it, kso's default
    # being v1.34
    assert d["reproduce"] == ("kso explain %s/check-1.yaml --pod default/p "
                              "--no-admission --kube-version 1.30" % out)
    args = d["reproduce"].split()[1:] + ["-o", "json"]
    again = json.loads(kso(*args).stdout)
    assert again["viable"] == ["b"]
    # an ok decision exports nothing and has no reproduce
    log = Log(CLUSTER)
    log.add_pod("huge", "100")
    log.unschedulable("huge", "0/3 nodes are available: 1 Insufficient cpu.")
    f.write_text("\n".join(log.lines) + "\n")
    p = kso("check", f, "--export", tmp_path / "none")
    d = json.loads(p.stdout.splitlines()[0])
    assert d["verdict"] == "ok" and "reproduce" not in d
    assert d["observed"] == {"action": "unschedulable", "message":
                             "0/3 nodes are available: 1 Insufficient cpu."}
    assert d["expected"] == {"viable": [], "feasible": []}
    assert os.listdir(tmp_path / "none") == []


def test_preemption_observed_names_its_victims(tmp_path):
    log = Log(REPRIEVE)
    log.evict("b")
    log.unschedulable("p", "0/1 nodes are available: 1 Insufficient cpu.",
                      nominated="n1")
    rc, got, _ = log.check(tmp_path)
    assert got[0]["observed"] == {"action": "preempt", "node": "n1",
                                  "victims": ["default/b"]}


def test_an_empty_log_judges_nothing(tmp_path):
    f = tmp_path / "empty.json"
    f.write_text("")
    p = kso("check", f)
    assert (p.returncode, p.stderr) == (0, "")
    assert steady(json.loads(p.stdout)["summary"]) == {
        "decisions": 0, "ok": 0, "ok_with_lag": 0, "wrong": 0,
        "inconclusive": 0, "findings": {}}


def test_a_pod_without_a_name_is_no_decision(tmp_path):
    # found by fuzz_watch: a pod object with no metadata.name, added and
    # then bound, crashed the judge; it names no pod, so nothing is judged
    pod = {"apiVersion": "v1", "kind": "Pod", "metadata": {"namespace": "x"},
           "spec": {"containers": [{"name": "c", "image": "i"}]}}
    bound = copy.deepcopy(pod)
    bound["spec"]["nodeName"] = "n1"
    f = tmp_path / "nameless.json"
    f.write_text(json.dumps({"type": "ADDED", "object": pod}) + "\n" +
                 json.dumps({"type": "MODIFIED", "object": bound}) + "\n")
    p = kso("check", f)
    assert (p.returncode, p.stderr) == (0, "")
    assert json.loads(p.stdout)["summary"]["decisions"] == 0
