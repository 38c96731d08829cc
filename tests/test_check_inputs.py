"""
test_check_inputs.py - `kso check` on kube Events: a FailedScheduling
Event (core/v1 `kubectl get events -w --output-watch-events -o json`, or
events.k8s.io/v1) is judged by its message against the one kube reports
in the state before it, byte for byte (issue 36).

The cluster (worked by hand, v1.30 default profile): node n1 (cpu 2) holds
x and v1 (cpu 1 each, priority 0); pod huge asks for cpu 100 at priority
0.  No node fits: FitError "0/1 nodes are available: 1 Insufficient
cpu." (reference §1.7); DefaultPreemption finds no pod of lower priority
on n1, so SelectVictimsOnNode fails there: "preemption: 0/1 nodes are
available: 1 No preemption victims found for incoming pod." (§3.6).  kube's
event message is the two joined by a space.  Pod small (cpu 0) fits n1.
Objects and the event ordering follow kubectl's watch output; kinds the
scheduler does not read (the Events themselves) change no state.
"""
import copy
import json

import test_check_lag as lag

WANT = ("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes "
        "are available: 1 No preemption victims found for incoming pod.")


def event(name, pod, message, v1=True):
    if v1:
        return {"apiVersion": "v1", "kind": "Event",
                "metadata": {"name": name, "namespace": "default"},
                "reason": "FailedScheduling", "type": "Warning",
                "involvedObject": {"kind": "Pod", "namespace": "default",
                                   "name": pod},
                "message": message}
    return {"apiVersion": "events.k8s.io/v1", "kind": "Event",
            "metadata": {"name": name, "namespace": "default"},
            "reason": "FailedScheduling", "type": "Warning",
            "regarding": {"kind": "Pod", "namespace": "default", "name": pod},
            "note": message}


def cluster():
    return lag.Log(lag.node("n1", "2"),
                   lag.pod("x", "1", "n1", start="2024-01-01T00:00:00Z"),
                   lag.pod("v1", "1", "n1", start="2024-01-01T00:00:10Z"),
                   lag.pod("huge", "100"), lag.pod("small", "0"))


def test_failed_scheduling_events_judged_by_their_message(tmp_path):
    log = cluster()
    log.event("ADDED", event("e1", "huge", WANT))
    log.event("ADDED", event("e2", "huge", "0/1 nodes are available.", False))
    same = log.event("ADDED", event("e3", "small", WANT))
    again = copy.deepcopy(same)
    again["count"] = 2                  # the same failure again: no decision
    log.event("MODIFIED", again)
    rc, got, summary = log.check(tmp_path)
    assert rc == 1
    assert [(d["seq"], d["pod"], d["verdict"]) for d in got] == [
        (1, "default/huge", "ok"),
        (2, "default/huge", "message-differs"),
        (3, "default/small", "should-have-fit")]
    assert got[1]["detail"] == f'kube\'s message is "{WANT}"'
    assert got[0]["observed"] == {"action": "unschedulable", "message": WANT}
    assert summary["findings"] == {"message-differs": 1, "should-have-fit": 1}


def test_other_kinds_change_nothing(tmp_path):
    # a ConfigMap between two binds: not the scheduler's, no new state
    log = lag.in_flight_log()
    log.lines.insert(2, json.dumps({"type": "ADDED", "object": {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "c", "namespace": "default"}}}))
    rc, got, _ = log.check(tmp_path)
    assert rc == 0
    assert [(d["pod"], d["verdict"], d.get("lag")) for d in got] == [
        ("default/b", "ok", "assumed: default/a on m1"),
        ("default/a", "ok", None)]


def listed_logs(tmp_path):
    """An events watch beside the pods' and the nodes' (each its own file,
    merged by resourceVersion), as kubectl records them: each begins with
    its initial listing - the objects then alive, ADDED, in key order,
    each at the version of its last write - then the changes.

    The nodes' listing shows n1 at its last heartbeat (900), then a
    heartbeat (1500); the pods' shows huge (420), v1 (310) and x (300),
    in that (name) order.  The events' listing holds huge's Events from
    before: e-old (350), written when a second node existed (its message
    counts 2 nodes), and e-mid (800).  Both tell of states the log does
    not hold - the nodes' listing (version 900) is later - so neither is
    a decision (judged where the merge puts them, e-old found huge not
    yet in the state, e-mid no node yet).  e-new (1600), written after
    every listing, is judged: n1 as the log holds it, WANT, ok."""
    def watch(*events):
        return "".join(json.dumps({"type": t, "object": o}) + "\n"
                       for t, o in events)

    def at(obj, rv):
        obj = copy.deepcopy(obj)
        obj["metadata"]["resourceVersion"] = str(rv)
        return obj
    n1 = lag.node("n1", "2")
    beat = at(n1, 1500)
    beat["status"]["conditions"] = [{"type": "Ready", "status": "True"}]
    two = ("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 "
           "nodes are available: 2 No preemption victims found for incoming "
           "pod.")
    files = {
        "nodes.json": watch(("ADDED", at(n1, 900)), ("MODIFIED", beat)),
        "pods.json": watch(
            ("ADDED", at(lag.pod("huge", "100"), 420)),
            ("ADDED", at(lag.pod("v1", "1", "n1",
                                 start="2024-01-01T00:00:10Z"), 310)),
            ("ADDED", at(lag.pod("x", "1", "n1",
                                 start="2024-01-01T00:00:00Z"), 300))),
        "events.json": watch(
            ("ADDED", at(event("huge.1", "huge", two), 350)),
            ("ADDED", at(event("huge.2", "huge", two), 800)),
            ("ADDED", at(event("huge.3", "huge", WANT), 1600))),
    }
    paths = []
    for name, text in files.items():
        (tmp_path / name).write_text(text)
        paths.append(tmp_path / name)
    return paths


def test_an_events_watchs_listing_is_no_decision(tmp_path):
    paths = listed_logs(tmp_path)
    p = lag.kso("check", *paths)
    assert (p.returncode, p.stderr) == (0, "")
    got = [json.loads(x) for x in p.stdout.splitlines()]
    assert [(d["pod"], d["decision"], d["verdict"]) for d in got[:-1]] == [
        ("default/huge", "FailedScheduling: " + WANT, "ok")]
    # in any order of the files
    p = lag.kso("check", *reversed(paths))
    assert [json.loads(x).get("verdict") for x in p.stdout.splitlines()] == [
        "ok", None]
