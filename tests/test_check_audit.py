"""
test_check_audit.py - `kso check` reads Kubernetes audit logs
(audit.k8s.io/v1 Event lines at level RequestResponse, issue 36) and
judges them as it judges the same run's watch log.

fixtures/check/run.audit.jsonl and fixtures/check/run.watch.jsonl are
one small run written by hand, as kube-apiserver's log backend and
`kubectl get pods,nodes -A -w --output-watch-events -o json` record it
(fixtures/check/run.md tells the run).  The audit log holds what a
real one does besides: a get, a RequestReceived stage, a binding the API
server refused (409), graceful and final deletions.  Worked out from
v1.30's default profile (reference §1.3-§1.6, §3):

  nodes node-a (cpu 2) and node-b (cpu 4), 4Gi and 110 pods each; every
  pod requests 128Mi (no node is short of memory):
  1 web-1 (cpu 3) bound to node-b: node-a's 2 cpu cannot hold 3, node-b
    is the only feasible node: ok.
  2 web-2 (cpu 2) bound to node-a: node-b has 1 cpu left, node-a 2: ok.
  3 web-3 (cpu 1) bound to node-a, which is full (2 of 2): infeasible,
    NodeResourcesFit "Insufficient cpu" - the wrong decision, found at
    its binding (the kubelet then rejects the pod: OutOfcpu, Failed).
  4 big (cpu 4, priority 0) unschedulable: node-a has 2 cpu, node-b 1
    free of 4; no pod has a lower priority, so no victims - kube's
    message "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2
    nodes are available: 2 No preemption victims found for incoming
    pod." (§1.7, §3.4 step 1), byte for byte: ok even with
    --strict-message.
  5 hi (cpu 2, priority 1000) preempts on node-a, evicting web-2: on
    either node one victim of priority 0 makes room (node-a: web-2, cpu
    2; node-b: web-1, cpu 3; reprieving either does not fit), so §3.5
    rules 1-4 tie and rule 5 takes the node whose victim started latest,
    web-2 (10:00:05) over web-1 (10:00:02): node-a, [web-2]: ok.
  6 hi bound to node-a once web-2 is gone: node-a 2 free, node-b 1: ok.
"""
import json
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
AUDIT = os.path.join(ROOT, "fixtures", "check", "run.audit.jsonl")
WATCH = os.path.join(ROOT, "fixtures", "check", "run.watch.jsonl")

WANT = [
    (1, "default/web-1", "bind node-b", "ok"),
    (2, "default/web-2", "bind node-a", "ok"),
    (3, "default/web-3", "bind node-a", "infeasible"),
    (4, "default/big", "unschedulable: 0/2 nodes are available: 2 Insufficient "
     "cpu. preemption: 0/2 nodes are available: 2 No preemption victims "
     "found for incoming pod.", "ok"),
    (5, "default/hi", "preempt on node-a: default/web-2", "ok"),
    (6, "default/hi", "bind node-a", "ok"),
]


def check(*args, stdin=None):
    p = subprocess.run([KSO, "check", *map(str, args)], capture_output=True,
                       text=True, timeout=120, input=stdin)
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    return p.returncode, lines, p.stderr


def verdicts(lines):
    return [(d["seq"], d["pod"], d["decision"], d["verdict"])
            for d in lines if "seq" in d]


def test_an_audit_log_is_judged_as_its_watch_log():
    for log in (AUDIT, WATCH):
        for extra in ((), ("--strict-message",), ("--lag", "0")):
            rc, lines, err = check(log, *extra)
            assert (rc, err) == (1, ""), (log, extra)
            assert verdicts(lines) == WANT, (log, extra)
            third = lines[2]
            assert third["detail"] == ("node-a is rejected by NodeResourcesFit: "
                                       "Insufficient cpu")
            assert third["observed"] == {"action": "bind", "node": "node-a"}
            assert lines[4]["observed"]["victims"] == ["default/web-2"]
            summary = lines[-1]["summary"]
            assert summary["findings"] == {"infeasible": 1}
            assert (summary["decisions"], summary["ok"], summary["wrong"]) == \
                (6, 5, 1)


def audit_lines():
    with open(AUDIT) as f:
        return [json.loads(x) for x in f]


def write(tmp_path, events, name="audit.log"):
    path = tmp_path / name
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def web3_binding(events):
    return next(i for i, e in enumerate(events)
                if e["objectRef"].get("subresource") == "binding" and
                e["objectRef"]["name"] == "web-3")


def test_only_what_happened_counts(tmp_path):
    # before web-3's binding to node-a, the same binding to node-b (where
    # web-3 fits) that did not happen: its first stage, refused (409), a
    # dry run, a failed status patch.  Had any been applied, web-3 would
    # be bound already at seq 3 (inconclusive) - it is still infeasible.
    events = audit_lines()
    at = web3_binding(events)
    real = events[at]
    fakes = []
    for change in ("stage", "code", "dry-run"):
        e = json.loads(json.dumps(real))
        e["requestObject"]["target"]["name"] = "node-b"
        if change == "stage":
            e["stage"] = "RequestReceived"
            del e["responseStatus"]
        elif change == "code":
            e["responseStatus"] = {"metadata": {}, "status": "Failure",
                                   "code": 409}
        else:
            e["requestURI"] += "?dryRun=All"
        fakes.append(e)
    events[at:at] = fakes
    rc, lines, err = check(write(tmp_path, events))
    assert (rc, err) == (1, "")
    assert verdicts(lines) == WANT


def test_an_event_list_is_read_too(tmp_path):
    # the webhook backend's batches: EventList {items: [Event...]}
    events = audit_lines()
    batches = [{"kind": "EventList", "apiVersion": "audit.k8s.io/v1",
                "metadata": {}, "items": events[i:i + 5]}
               for i in range(0, len(events), 5)]
    rc, lines, err = check(write(tmp_path, batches))
    assert (rc, err) == (1, "")
    assert verdicts(lines) == WANT


def test_a_pod_change_without_its_object_is_bad_input(tmp_path):
    # big's Unschedulable status patch recorded at level Metadata: kso
    # cannot know what changed
    events = audit_lines()
    at = next(i for i, e in enumerate(events)
              if e["objectRef"]["name"] == "big" and e["verb"] == "patch")
    events[at]["level"] = "Metadata"
    del events[at]["requestObject"]
    del events[at]["responseObject"]
    path = write(tmp_path, events)
    rc, lines, err = check(path)
    assert (rc, lines) == (1, [])
    assert err == (f"{path}:{at + 1}:1: a patch of pods/status without "
                   "responseObject: kso cannot tell what changed (record pods "
                   "at level RequestResponse) (responseObject)\n")


def test_a_binding_without_its_target_is_bad_input(tmp_path):
    events = audit_lines()
    at = web3_binding(events)
    del events[at]["requestObject"]
    path = write(tmp_path, events)
    rc, lines, err = check(path)
    assert (rc, lines) == (1, [])
    assert err.startswith(f"{path}:{at + 1}:1: a create of pods/binding "
                          "without requestObject.target.name")


def test_a_binding_of_a_pod_never_seen_changes_nothing(tmp_path):
    # the log begins after web-3 was created: its binding names a pod kso
    # does not know, so no decision and no state change (node-a keeps 2
    # cpu in use, web-2's: hi's preemption and bind stay ok)
    events = [e for e in audit_lines()
              if not (e["objectRef"]["name"] == "web-3" and
                      e["verb"] == "create" and
                      not e["objectRef"].get("subresource"))]
    rc, lines, err = check(write(tmp_path, events))
    assert err == ""
    got = verdicts(lines)
    # web-3's kubelet status patch shows it Failed on node-a: a terminal
    # pod is no decision and holds nothing
    assert [v[1] for v in got] == ["default/web-1", "default/web-2",
                                   "default/big", "default/hi", "default/hi"]
    assert {v[3] for v in got} == {"ok"}
    assert rc == 0


def same(a, b):
    for lines in (a, b):
        lines[-1]["summary"].pop("decisions_per_second", None)
    return a == b


def test_the_same_verdicts_from_a_file_stdin_and_a_pipe():
    # (issue 36) a file, the file on stdin, and the log through a pipe
    for log in (AUDIT, WATCH):
        want = check(log)
        with open(log) as f:
            p = subprocess.run([KSO, "check", "-"], stdin=f,
                               capture_output=True, text=True, timeout=120)
        got = (p.returncode, [json.loads(x) for x in p.stdout.splitlines()],
               p.stderr)
        assert got[0] == want[0] and same(got[1], want[1])
        p = subprocess.run(["sh", "-c", 'cat "$1" | "$2" check -', "sh", log,
                            KSO], capture_output=True, text=True, timeout=120)
        got = (p.returncode, [json.loads(x) for x in p.stdout.splitlines()],
               p.stderr)
        assert got[0] == want[0] and same(got[1], want[1])


def audit_event(verb, resource, name, usec, resp=None, req=None, sub=None):
    ref = {"resource": resource, "name": name, "apiVersion": "v1"}
    if resource == "pods":
        ref["namespace"] = "default"
    if sub:
        ref["subresource"] = sub
    stamp = "2026-11-20T10:00:%02d.%06dZ" % divmod(usec, 1000000)
    e = {"kind": "Event", "apiVersion": "audit.k8s.io/v1",
         "level": "RequestResponse", "auditID": "id-%d" % usec,
         "stage": "ResponseComplete", "requestURI": "/api/v1/" + resource,
         "verb": verb, "user": {"username": "system:kube-scheduler"},
         "objectRef": ref, "responseStatus": {"metadata": {}, "code": 201},
         "requestReceivedTimestamp": stamp, "stageTimestamp": stamp}
    if req is not None:
        e["requestObject"] = req
    if resp is not None:
        e["responseObject"] = resp
    return e


def binding(pod, node, usec):
    return audit_event("create", "pods", pod, usec, sub="binding",
                       req={"kind": "Binding", "apiVersion": "v1",
                            "metadata": {"name": pod, "namespace": "default"},
                            "target": {"kind": "Node", "name": node}},
                       resp={"kind": "Status", "apiVersion": "v1",
                             "status": "Success", "code": 201})


def test_an_audit_log_times_the_lag_to_the_microsecond(tmp_path):
    # test_check_lag.py's bind in flight (b decided after a, its binding
    # seen first) as an audit log: b's binding at 10.000100 s, a's at
    # 10.400100 s - 400 ms later: within --lag 500ms, not within 300ms
    # (nor 399ms); its stageTimestamps are the API server's, to the
    # microsecond
    import test_check_lag as lag
    objs = [lag.node("m1", "2"), lag.node("m2", "1"), lag.pod("a", "2"),
            lag.pod("b", "1")]
    events = [audit_event("create", o["kind"].lower() + "s",
                          o["metadata"]["name"], 9000000 + i, resp=o)
              for i, o in enumerate(objs)]
    events += [binding("b", "m2", 10000100), binding("a", "m1", 10400100)]
    path = write(tmp_path, events)
    for window, want in (("500ms", ("ok", "assumed: default/a on m1")),
                         ("400ms", ("ok", "assumed: default/a on m1")),
                         ("399ms", ("not-viable", None)),
                         ("0", ("not-viable", None)),
                         ("20", ("ok", "assumed: default/a on m1"))):
        rc, lines, err = check(path, "--lag", window)
        assert err == ""
        assert (lines[0]["pod"], lines[0]["verdict"], lines[0].get("lag")) \
            == ("default/b",) + want, window
