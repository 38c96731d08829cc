"""
test_check_real.py - `kso check` on watch logs shaped as a real v1.34
cluster writes them (tests/realcluster.py: managedFields, container
statuses, kubelet's conditions, the tolerations admission adds), where
the fields kso's state tracking compares or copies decide the verdict.
Each answer is worked out by hand from v1.34's default profile (run with
--kube-version 1.34: conftest pins 1.30 for the suite); every
case is also run with KSO_CHECK_EPOCH=1 (a cluster rebuilt from kso's
copies of the live objects at nearly every event), which must judge the
same.

Resize (v1.34 delta §6, k8s.io/component-helpers PodRequests with
UseStatusResources): a bound container's request is the maximum of its
spec, status.containerStatuses[].resources.requests and
allocatedResources.  n1 has 4 cpu; big (3 cpu) is resized in place to 1:
the resize writes spec (1), the kubelet later its status (1).  p asks 2.
  finished: big counts max(1, 1, 1) = 1, n1 has 3 free: p on n1 is ok.
  in progress (status still 3): max(1, 3, 3) = 3, 1 free < 2: p on n1
    is infeasible, NodeResourcesFit "Insufficient cpu".

A claim from a template (DRA): the resourceclaim controller makes the
claim after the pod and then writes the pod's
status.resourceClaimStatuses; until then DynamicResources' PreFilter
answers "ResourceClaim not created yet".  With it, the claim (one device
of class gpu.example.com) is allocatable on n2 only (its slice has gpu-0;
n1 has none): p bound to n2 is ok.

A claim's selected node (VolumeBinding): standard is WaitForFirstConsumer;
claim data has no volume.  The scheduler's PreBind for an earlier pod
annotated it volume.kubernetes.io/selected-node: n1 (a change to the
annotations alone).  Pod b (cpu 1) mounts data: a delay-binding claim
with a selected node fails every other node (FindPodVolumes'
unboundVolumesSatisfied), so n1 is b's only feasible node though n2 is
emptier (n1 holds busy, 2 of its 4 cpu): b on n1 is ok.
"""
import copy
import json
import os
import subprocess

import pytest

import realcluster as R

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))


def check(tmp_path, w, *extra, epoch=None):
    f = tmp_path / "watch.json"
    f.write_text(w.text())
    env = dict(os.environ)
    env.pop("KSO_CHECK_EPOCH", None)
    if epoch:
        env["KSO_CHECK_EPOCH"] = str(epoch)
    p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.34", *extra], capture_output=True,
                       text=True, timeout=120, env=env)
    assert p.stderr == ""
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    return p.returncode, lines[:-1]


def verdicts(tmp_path, w, *extra):
    """(pod, decision, verdict, detail) of each decision, the same with
    a cluster rebuilt at every event."""
    got = []
    for epoch in (None, 1):
        rc, lines = check(tmp_path, w, *extra, epoch=epoch)
        got.append((rc, [(d["pod"], d["decision"], d["verdict"], d["detail"])
                         for d in lines]))
    assert got[0] == got[1]
    return got[0]


def resize_log(finished):
    w = R.Watch()
    w.add("ADDED", R.node("n1", cpu="4", memory="8Gi"))
    big = w.add("ADDED", R.pod("big", [R.container("app", cpu="3",
                                                   memory="1Gi")],
                               node_name="n1"))
    big["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "1"
    big["metadata"]["generation"] = 2
    big["status"]["conditions"].append({
        "lastProbeTime": None, "lastTransitionTime": "2025-10-01T10:10:00Z",
        "status": "True", "type": "PodResizeInProgress"})
    big = w.add("MODIFIED", big)
    if finished:
        cs = big["status"]["containerStatuses"][0]
        cs["allocatedResources"]["cpu"] = "1"
        cs["resources"]["requests"]["cpu"] = "1"
        big["status"]["conditions"].pop()
        w.add("MODIFIED", big)
    p = w.add("ADDED", R.pod("p", [R.container("app", cpu="2", memory="1Gi")]))
    w.add("MODIFIED", R.bound(p, "n1"))
    return w


def test_a_finished_resize_frees_the_cpu(tmp_path):
    assert verdicts(tmp_path, resize_log(True)) == (0, [
        ("default/p", "bind n1", "ok", "n1 is viable (viable: n1)")])


def test_a_resize_in_progress_holds_the_allocated_cpu(tmp_path):
    assert verdicts(tmp_path, resize_log(False)) == (1, [
        ("default/p", "bind n1", "infeasible",
         "n1 is rejected by NodeResourcesFit: Insufficient cpu")])


def dra_log():
    w = R.Watch()
    w.add("ADDED", {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
                    "metadata": {"name": "gpu.example.com"},
                    "spec": {"selectors": [{"cel": {
                        "expression": "device.driver == 'gpu.example.com'"}}]}})
    for n in ("n1", "n2"):
        w.add("ADDED", R.node(n, cpu="4", memory="4Gi"))
    w.add("ADDED", {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceSlice",
                    "metadata": {"name": "n2-gpu.example.com-x2kq9"},
                    "spec": {"driver": "gpu.example.com", "nodeName": "n2",
                             "pool": {"name": "n2", "generation": 1,
                                      "resourceSliceCount": 1},
                             "devices": [{"name": "gpu-0"}]}})
    w.add("ADDED", {"apiVersion": "resource.k8s.io/v1",
                    "kind": "ResourceClaimTemplate",
                    "metadata": {"name": "one-gpu", "namespace": "default"},
                    "spec": {"spec": {"devices": {"requests": [{
                        "name": "gpu", "exactly": {
                            "deviceClassName": "gpu.example.com"}}]}}}})
    p = R.pod("p", [R.container("c", cpu="100m")],
              resourceClaims=[{"name": "gpu",
                               "resourceClaimTemplateName": "one-gpu"}])
    p["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]
    p = w.add("ADDED", p)
    w.add("ADDED", {
        "apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
        "metadata": {
            "annotations": {"resource.kubernetes.io/pod-claim-name": "gpu"},
            "generateName": "p-gpu-", "name": "p-gpu-x7bz4",
            "namespace": "default",
            "ownerReferences": [{"apiVersion": "v1", "blockOwnerDeletion": True,
                                 "controller": True, "kind": "Pod", "name": "p",
                                 "uid": p["metadata"]["uid"]}],
            "uid": R.uid("claim", "p-gpu-x7bz4")},
        "spec": {"devices": {"requests": [{
            "name": "gpu", "exactly": {"allocationMode": "ExactCount",
                                       "count": 1,
                                       "deviceClassName": "gpu.example.com"}}]}},
        "status": {}})
    p["status"]["resourceClaimStatuses"] = [{"name": "gpu",
                                             "resourceClaimName": "p-gpu-x7bz4"}]
    p = w.add("MODIFIED", p)
    return w, p


def test_a_claim_status_written_after_the_pod_is_read(tmp_path):
    w, p = dra_log()
    w.add("MODIFIED", R.bound(p, "n2"))
    assert verdicts(tmp_path, w) == (0, [
        ("default/p", "bind n2", "ok", "n2 is viable (viable: n2)")])


def test_a_bind_where_the_claim_cannot_be_allocated_is_found(tmp_path):
    w, p = dra_log()
    w.add("MODIFIED", R.bound(p, "n1"))
    assert verdicts(tmp_path, w) == (1, [
        ("default/p", "bind n1", "infeasible",
         "n1 is rejected by DynamicResources: cannot allocate all claims")])


def unclaimed_log():
    """dra_log before the resourceclaim controller's status write: the
    claim exists, owned by p, but p's status.resourceClaimStatuses has no
    entry for it - and DynamicResources' PreEnqueue (resourceclaim.Name)
    finds the claim of a template only there: 'pod "default/p":
    ResourceClaim not created yet'.  kube keeps p out of its queue: no
    cycle, no bind, no condition, no Event."""
    w, p = dra_log()
    w.events.pop()
    p["status"].pop("resourceClaimStatuses")
    return w, p


HELD = ("kube runs no scheduling cycle for the pod and writes nothing for "
        "it: DynamicResources' PreEnqueue keeps it out of the queue (pod "
        "\"default/p\": ResourceClaim not created yet)")


def test_a_pod_held_by_preenqueue_has_no_decision_of_kubes(tmp_path):
    w, p = unclaimed_log()
    w.add("MODIFIED", R.bound(p, "n2"))
    assert verdicts(tmp_path, w) == (1, [
        ("default/p", "bind n2", "infeasible", HELD)])
    w, p = unclaimed_log()
    msg = 'pod "default/p": ResourceClaim not created yet'
    w.add("MODIFIED", R.unschedulable(p, msg))
    assert verdicts(tmp_path, w) == (1, [
        ("default/p", "unschedulable: " + msg, "message-differs", HELD)])


def selected_node_log(node_of_b):
    w = R.Watch()
    for n in ("n1", "n2"):
        w.add("ADDED", R.node(n, cpu="4", memory="8Gi"))
    w.add("ADDED", {
        "apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"annotations": {
            "storageclass.kubernetes.io/is-default-class": "true"},
            "name": "standard", "uid": R.uid("sc", "standard")},
        "provisioner": "rancher.io/local-path", "reclaimPolicy": "Delete",
        "volumeBindingMode": "WaitForFirstConsumer"})
    pvc = w.add("ADDED", {
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"annotations": {
            "volume.beta.kubernetes.io/storage-provisioner":
                "rancher.io/local-path",
            "volume.kubernetes.io/storage-provisioner": "rancher.io/local-path"},
            "finalizers": ["kubernetes.io/pvc-protection"], "name": "data",
            "namespace": "default", "uid": R.uid("pvc", "data")},
        "spec": {"accessModes": ["ReadWriteOnce"],
                 "resources": {"requests": {"storage": "1Gi"}},
                 "storageClassName": "standard", "volumeMode": "Filesystem"},
        "status": {"phase": "Pending"}})
    # a pod event between: the cluster is built with the claim as it was
    w.add("ADDED", R.pod("busy", [R.container("app", cpu="2", memory="1Gi")],
                         node_name="n1"))
    pvc["metadata"]["annotations"]["volume.kubernetes.io/selected-node"] = "n1"
    w.add("MODIFIED", pvc)
    b = R.pod("b", [R.container("app", cpu="1", memory="1Gi")])
    b["spec"]["volumes"].append({"name": "data", "persistentVolumeClaim": {
        "claimName": "data"}})
    b = w.add("ADDED", b)
    w.add("MODIFIED", R.bound(b, node_of_b))
    return w


def test_a_claims_selected_node_annotation_is_read(tmp_path):
    assert verdicts(tmp_path, selected_node_log("n1")) == (0, [
        ("default/b", "bind n1", "ok", "n1 is viable (viable: n1)")])
    rc, got = verdicts(tmp_path, selected_node_log("n2"))
    assert rc == 1
    assert [(pod, verdict) for pod, _, verdict, _ in got] == [
        ("default/b", "infeasible")]


def raw_watch_lines():
    """`kubectl get --raw '/api/v1/pods?watch=1&allowWatchBookmarks=true'`
    (plus the nodes' watch): compact JSON lines, with the API server's
    BOOKMARKs - an object of the watched kind carrying a resourceVersion
    only (the initial-events-end annotation with sendInitialEvents)."""
    n1 = R.node("n1", cpu="2", memory="4Gi", rv="5")
    a = R.pod("a", [R.container("app", cpu="1", memory="1Gi")], rv="12747")
    bookmark = {"kind": "Pod", "apiVersion": "v1", "metadata": {
        "resourceVersion": "12746", "creationTimestamp": None,
        "annotations": {"k8s.io/initial-events-end": "true"}},
        "spec": {"containers": None}, "status": {}}
    b = R.bound(a, "n1")
    b["metadata"]["resourceVersion"] = "12748"
    return [json.dumps({"type": "ADDED", "object": n1}),
            json.dumps({"type": "BOOKMARK", "object": bookmark}),
            json.dumps({"type": "ADDED", "object": a}),
            json.dumps({"type": "BOOKMARK", "object": dict(
                bookmark, metadata={"resourceVersion": "12747"})}),
            json.dumps({"type": "MODIFIED", "object": b})]


def test_a_raw_watchs_bookmarks_change_nothing(tmp_path):
    # a on n1, the only node, 1 of 2 cpu: ok; the bookmarks are no pods
    f = tmp_path / "raw.json"
    f.write_text("\n".join(raw_watch_lines()) + "\n")
    p = subprocess.run([KSO, "check", str(f), "-o", "table"],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout.splitlines()[1].split()[:4] == [
        "1", "default/a", "bind", "n1"]
    assert "decisions 1, ok 1 " in p.stdout


def test_a_watch_error_is_a_warning_and_the_log_goes_on(tmp_path):
    lines = raw_watch_lines()
    err = {"type": "ERROR", "object": {
        "kind": "Status", "apiVersion": "v1", "metadata": {},
        "status": "Failure", "reason": "Expired", "code": 410,
        "message": "too old resource version: 12747 (12800)"}}
    lines.insert(3, json.dumps(err))
    f = tmp_path / "raw.json"
    f.write_text("\n".join(lines) + "\n")
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0
    assert p.stderr == (
        f"{f}:4:1: warning: the watch ended with an error (410 Expired: too "
        "old resource version: 12747 (12800)); changes after it until the "
        "next list are not in the log (type)\n")
    assert [json.loads(x).get("verdict") for x in p.stdout.splitlines()] == [
        "ok", None]


def preemption_log(victims_of_high1=("low-a", "low-b")):
    """Two preemptions in v1.34's async order (prepareCandidateAsync: the
    nominations written by the failure handler, the victims' patches and
    deletions by goroutines, interleaved).

    n1 (cpu 2) holds low-a and low-b (cpu 1 each, priority 0); n2 (cpu 2)
    holds mid (cpu 2, priority 500).  high1 and high2 ask cpu 2 at
    priority 1000; nothing fits.
      high1: candidates n1 (victims low-a and low-b: re-adding either
        overflows 2 cpu) and n2 (mid); pickOneNodeForPreemption's first
        differing rule, the lowest highest-victim priority, takes n1 (0
        against 500): n1, [low-a, low-b].
      high2, with high1 nominated to n1 (a nominated pod of equal
        priority counts there): n1 holds high1's 2 cpu once low-a and
        low-b are gone - no room; n2 with mid gone fits: n2, [mid].
      Then high1 binds to n1 and high2 to n2, each the only node with
      room (n1: 2 free, n2: 2 free, the other full with the other's
      nomination)."""
    w = R.Watch()
    for n in ("n1", "n2"):
        w.add("ADDED", R.node(n, cpu="2", memory="8Gi"))
    low_a = w.add("ADDED", R.pod("low-a", [R.container("app", cpu="1")],
                                 node_name="n1", start="2025-10-01T09:10:00Z"))
    low_b = w.add("ADDED", R.pod("low-b", [R.container("app", cpu="1")],
                                 node_name="n1", start="2025-10-01T09:20:00Z"))
    mid = w.add("ADDED", R.pod("mid", [R.container("app", cpu="2")],
                               node_name="n2", priority=500,
                               priority_class="mid"))
    high1 = w.add("ADDED", R.pod("high1", [R.container("app", cpu="2")],
                                 priority=1000, priority_class="high"))
    high2 = w.add("ADDED", R.pod("high2", [R.container("app", cpu="2")],
                                 priority=1000, priority_class="high"))
    victims = {"low-a": low_a, "low-b": low_b, "mid": mid}
    msg = "0/2 nodes are available: 2 Insufficient cpu."
    # low-a's patch beats high1's nomination; the rest come after
    if "low-a" in victims_of_high1:
        victims["low-a"] = w.add("MODIFIED", R.disruption_target(low_a))
    w.add("MODIFIED", R.unschedulable(high1, msg, nominated="n1"))
    w.add("MODIFIED", R.unschedulable(high2, msg, nominated="n2"))
    victims["mid"] = w.add("MODIFIED", R.disruption_target(mid))
    if "low-b" in victims_of_high1:
        victims["low-b"] = w.add("MODIFIED", R.disruption_target(low_b))
    gone = ["mid"] + list(victims_of_high1)
    for v in gone:
        victims[v] = w.add("MODIFIED", R.terminating(victims[v]))
    for v in gone:
        w.add("DELETED", victims[v])
    w.add("MODIFIED", R.bound(high1, "n1"))
    w.add("MODIFIED", R.bound(high2, "n2"))
    return w


def test_async_preemptions_victims_after_the_nomination(tmp_path):
    rc, got = verdicts(tmp_path, preemption_log())
    assert rc == 0
    assert [(pod, decision, verdict) for pod, decision, verdict, _ in got] == [
        ("default/high1", "preempt on n1: default/low-a, default/low-b", "ok"),
        ("default/high2", "preempt on n2: default/mid", "ok"),
        ("default/high1", "bind n1", "ok"),
        ("default/high2", "bind n2", "ok")]


def test_an_async_preemption_that_evicts_too_few_is_found(tmp_path):
    # the scheduler evicts low-b alone: n1 then has 1 cpu for high1's 2
    rc, got = verdicts(tmp_path, preemption_log(("low-b",)))
    assert rc == 1
    assert [(pod, decision, verdict) for pod, decision, verdict, _ in
            got[:2]] == [
        ("default/high1", "preempt on n1: default/low-b", "victims-differ"),
        ("default/high2", "preempt on n2: default/mid", "ok")]


def scheduler_event(w, regarding, reason, note, kind="Warning"):
    """An events.k8s.io/v1 Event as kube-scheduler's recorder writes it."""
    m = regarding["metadata"]
    return w.add("ADDED", {
        "apiVersion": "events.k8s.io/v1", "kind": "Event",
        "metadata": {"name": m["name"] + ".1869f2a5c1b3e4d7",
                     "namespace": m["namespace"],
                     "creationTimestamp": "2025-10-01T10:20:00Z"},
        "eventTime": "2025-10-01T10:20:00.104213Z", "action": "Scheduling",
        "reason": reason, "note": note, "type": kind,
        "regarding": {"apiVersion": "v1", "kind": "Pod", "name": m["name"],
                      "namespace": m["namespace"], "uid": m["uid"],
                      "resourceVersion": m["resourceVersion"]},
        "reportingController": "default-scheduler",
        "reportingInstance": "default-scheduler-kind-control-plane"})


def async_interleaved_log():
    """preemption_log's cluster and preemptions, with n3 (cpu 1) and
    small1 (300m, nodeSelector n3: n3 is its only node), in the order the
    real v1.34.1 scheduler wrote them (run against a fake API: async
    preemption and the API dispatcher both on): high1's goroutine marks
    and deletes low-a and low-b, small1's bind lands, and only then
    high1's nomination (its status patch queued behind), high2's, mid's
    mark and deletion, the FailedScheduling Events, the binds.
      small1 on n3: ok (its only node).
      high1: judged before its first victim (small1 then pending):
        n1, [low-a, low-b] - ok (preemption_log's answer; n3's 1 cpu
        is less than high1's 2 even empty: UnschedulableAndUnresolvable,
        no candidate).
      high2: n2, [mid] - ok.
      high1's Event, last: in the log's state n1 is empty and high1
        fits - but kube's cache still held the victims when it failed;
        with the deletions not yet delivered (the last first: mid, then
        low-b) n1 has 1 cpu free, n2 none (mid, and high2's nomination
        of equal priority), n3 700m: '0/3 nodes are available: 3
        Insufficient cpu.', and kube then preempts (no PostFilter
        message): ok, the lag named.
      Then high1 on n1 and high2 on n2: ok."""
    w = R.Watch()
    for n, cpu in (("n1", "2"), ("n2", "2"), ("n3", "1")):
        w.add("ADDED", R.node(n, cpu=cpu, memory="8Gi"))
    low_a = w.add("ADDED", R.pod("low-a", [R.container("app", cpu="1")],
                                 node_name="n1", start="2025-10-01T09:10:00Z"))
    low_b = w.add("ADDED", R.pod("low-b", [R.container("app", cpu="1")],
                                 node_name="n1", start="2025-10-01T09:20:00Z"))
    mid = w.add("ADDED", R.pod("mid", [R.container("app", cpu="2")],
                               node_name="n2", priority=500,
                               priority_class="mid"))
    high1 = w.add("ADDED", R.pod("high1", [R.container("app", cpu="2")],
                                 priority=1000, priority_class="high"))
    high2 = w.add("ADDED", R.pod("high2", [R.container("app", cpu="2")],
                                 priority=1000, priority_class="high"))
    small1 = w.add("ADDED", R.pod("small1", [R.container("app", cpu="300m")],
                                  nodeSelector={"kubernetes.io/hostname": "n3"}))
    for v in (low_a, low_b):
        w.add("DELETED", w.add("MODIFIED", R.disruption_target(v)))
    w.add("MODIFIED", R.bound(small1, "n3"))
    msg = "0/3 nodes are available: 3 Insufficient cpu."
    high1 = w.add("MODIFIED", R.unschedulable(high1, msg, nominated="n1"))
    high2 = w.add("MODIFIED", R.unschedulable(high2, msg, nominated="n2"))
    w.add("DELETED", w.add("MODIFIED", R.disruption_target(mid)))
    scheduler_event(w, high1, "FailedScheduling", msg)
    w.add("MODIFIED", R.bound(high1, "n1"))
    w.add("MODIFIED", R.bound(high2, "n2"))
    return w


def test_async_preemptions_victims_before_another_pods_bind(tmp_path):
    rc, got = verdicts(tmp_path, async_interleaved_log())
    assert rc == 0
    assert [(pod, decision, verdict) for pod, decision, verdict, _ in got] == [
        ("default/small1", "bind n3", "ok"),
        ("default/high1", "preempt on n1: default/low-a, default/low-b", "ok"),
        ("default/high2", "preempt on n2: default/mid", "ok"),
        ("default/high1", "FailedScheduling: 0/3 nodes are available: 3 "
         "Insufficient cpu.", "ok"),
        ("default/high1", "bind n1", "ok"),
        ("default/high2", "bind n2", "ok")]
    f = tmp_path / "watch.json"
    p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    lags = [json.loads(x).get("lag") for x in p.stdout.splitlines()][:-1]
    assert lags == [None, None, None,
                    "cache still held: default/mid, default/low-b",
                    None, None]


def renominated_log():
    """The order the real v1.34.1 scheduler wrote (fake API, victims
    terminating 3 s): n1 (cpu 2) holds v0 (cpu 2, priority 0).  low
    (priority 100, cpu 2) preempts v0: its nomination, then v0's mark
    and graceful deletion.  high (priority 1000, cpu 2) comes while v0
    terminates: its cycle finds n1 full (v0 still there), PostFilter
    nominates n1 with no new victim (v0 is being deleted already: no API
    call) - the status patch (nomination and condition), then the Event.
      high's Event '0/1 nodes are available: 1 Insufficient cpu.': in
        the log's state high is nominated to n1, where v0 of lower
        priority terminates by preemption, so kube's PostFilter would say
        'not eligible due to a terminating pod on the nominated node' -
        but the Event reports the cycle that made that nomination, run
        before it: high not nominated, v0's removal makes room, kube
        preempts (no PostFilter message): ok, 'before its own nomination
        to n1'."""
    w = R.Watch()
    w.add("ADDED", R.node("n1", cpu="2", memory="8Gi"))
    v0 = w.add("ADDED", R.pod("v0", [R.container("app", cpu="2")],
                              node_name="n1", start="2025-10-01T09:10:00Z"))
    low = w.add("ADDED", R.pod("low", [R.container("app", cpu="2")],
                               priority=100, priority_class="lowp"))
    msg = "0/1 nodes are available: 1 Insufficient cpu."
    w.add("MODIFIED", R.unschedulable(low, msg, nominated="n1"))
    v0 = w.add("MODIFIED", R.disruption_target(v0))
    w.add("MODIFIED", R.terminating(v0))
    high = w.add("ADDED", R.pod("high", [R.container("app", cpu="2")],
                                priority=1000, priority_class="high"))
    high = w.add("MODIFIED", R.unschedulable(high, msg, nominated="n1"))
    scheduler_event(w, high, "FailedScheduling", msg)
    return w


def test_an_event_is_judged_before_its_own_nomination(tmp_path):
    f = tmp_path / "watch.json"
    f.write_text(renominated_log().text())
    p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert [(d["pod"], d["decision"].split(":")[0], d["verdict"],
             d.get("lag")) for d in got] == [
        ("default/low", "preempt on n1", "ok", None),
        ("default/high", "preempt on n1", "ok", None),
        ("default/high", "FailedScheduling", "ok",
         "before its own nomination to n1")]


def test_v130_preempts_synchronously(tmp_path):
    # v1.30's prepareCandidate deletes the victims before the nomination
    # is written: victims after it belong to no decision of high1's
    f = tmp_path / "watch.json"
    f.write_text(preemption_log().text())
    p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.30"],
                       capture_output=True, text=True, timeout=60)
    got = [json.loads(x) for x in p.stdout.splitlines()][:2]
    assert [(d["pod"], d["decision"], d["verdict"]) for d in got] == [
        ("default/high1", "preempt on n1: default/low-a", "victims-differ"),
        ("default/high2", "preempt on n2:", "victims-differ")]


def test_a_listed_pods_old_condition_is_no_decision(tmp_path):
    """A watch of pods and one of nodes, merged by resourceVersion.  The
    watches begin with every object ADDED: the nodes at their last
    heartbeat's version (9001, 9002), pending pod big at the version its
    Unschedulable condition was written (400), long before - when the
    cluster had n1 alone.  That condition was decided in a state the log
    does not hold: no decision (it was judged, 'inconclusive', in a state
    without the nodes).  The scheduler's next try writes a new message
    (9100), judged in the log's state (v1.30): n1 and n2 (cpu 2 each) are
    full (busy, busy2: cpu 2, priority 0) - big (cpu 1, priority 0) gets
    '2 Insufficient cpu', and no pod of lower priority can go."""
    n1 = R.node("n1", cpu="2", memory="4Gi", rv="9001")
    n2 = R.node("n2", cpu="2", memory="4Gi", rv="9002")
    busy = R.pod("busy", [R.container("a", cpu="2")], node_name="n1", rv="300")
    busy2 = R.pod("busy2", [R.container("a", cpu="2")], node_name="n2",
                  rv="301")
    old = ("0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 "
           "nodes are available: 1 No preemption victims found for incoming "
           "pod.")
    new = ("0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 "
           "nodes are available: 2 No preemption victims found for incoming "
           "pod.")
    big = R.unschedulable(R.pod("big", [R.container("a", cpu="1")], rv="400"),
                          old)
    again = R.unschedulable(big, new, time="2025-10-01T10:40:00Z")
    again["metadata"]["resourceVersion"] = "9100"
    pods = tmp_path / "pods.json"
    pods.write_text("".join(json.dumps({"type": t, "object": o}, indent=4) + "\n"
                            for t, o in (("ADDED", busy), ("ADDED", busy2),
                                         ("ADDED", big), ("MODIFIED", again))))
    nodes = tmp_path / "nodes.json"
    nodes.write_text("".join(json.dumps({"type": "ADDED", "object": o}) + "\n"
                             for o in (n1, n2)))
    p = subprocess.run([KSO, "check", str(pods), str(nodes), "--kube-version",
                        "1.30", "--strict-message"], capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, "")
    got = [json.loads(x) for x in p.stdout.splitlines()]
    assert [(d["resourceVersion"], d["pod"], d["verdict"]) for d in got[:-1]] == [
        (9100, "default/big", "ok")]


def test_another_schedulers_pods_are_not_judged(tmp_path):
    """A cluster running a second scheduler: pod batch-1 has
    spec.schedulerName volcano, which no profile of kso's (default)
    configuration is - kube-scheduler never decides it, so its bind (to
    n1, where its cpu 3 does not fit the 2 - volcano's business) is not
    judged; one warning names it where the log shows its first decision.
    web (default-scheduler, cpu 1) is judged: batch-1 counts on n1 as in
    kube's cache (3 of 2 cpu: Insufficient cpu), so n2 (cpu 8) is the
    only feasible node and web on n2 is ok."""
    w = R.Watch()
    w.add("ADDED", R.node("n1", cpu="2", memory="4Gi"))
    w.add("ADDED", R.node("n2", cpu="8", memory="4Gi"))
    batch = w.add("ADDED", R.pod("batch-1", [R.container("a", cpu="3")],
                                 schedulerName="volcano"))
    web = w.add("ADDED", R.pod("web", [R.container("a", cpu="1")]))
    w.add("MODIFIED", R.bound(batch, "n1"))
    w.add("MODIFIED", R.bound(web, "n2"))
    f = tmp_path / "watch.json"
    f.write_text(w.text())
    line = w.text().count("\n", 0, w.text().index('"MODIFIED"')) + 1
    p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0
    assert p.stderr == (
        f'{f}:{line + 1}:15: warning: default/batch-1 is scheduled by '
        '"volcano", which no profile of the configuration is: its decisions '
        'and those of every pod of that scheduler are not judged (--config: '
        'a profile of that name judges them) (spec.schedulerName)\n')
    got = [json.loads(x) for x in p.stdout.splitlines()]
    assert [(d["seq"], d["pod"], d["decision"], d["verdict"])
            for d in got[:-1]] == [(1, "default/web", "bind n2", "ok")]
    assert got[-1]["summary"]["decisions"] == 1


def encoded_log():
    """The preemption log of above with an annotation outside the Basic
    Multilingual Plane (U+1F680, a surrogate pair in UTF-16) and one
    beyond ASCII (U+00E9)."""
    w = preemption_log()
    obj = w.events[0]["object"]
    obj["metadata"]["annotations"]["example.com/note"] = "d\u00e9ploy \U0001F680"
    return w.text()


def run_bytes(data, *args):
    return subprocess.run([KSO, "check", *args], input=data,
                          capture_output=True, timeout=60)


def test_a_log_in_utf16_or_with_a_bom_reads_as_utf8(tmp_path):
    # Windows PowerShell 5's `kubectl ... > pods.json` writes UTF-16LE
    # with a byte order mark; other tools a UTF-8 one: the same verdicts
    text = encoded_log()
    want = run_bytes(text.encode(), "-", "--kube-version", "1.34")
    assert want.returncode == 0 and want.stderr == b""
    verdicts = want.stdout.splitlines()[:-1]
    assert len(verdicts) == 4
    for data in (b"\xef\xbb\xbf" + text.encode(),
                 b"\xff\xfe" + text.encode("utf-16-le"),
                 b"\xfe\xff" + text.encode("utf-16-be")):
        f = tmp_path / "log.json"
        f.write_bytes(data)
        for args in ((str(f),), ("-",)):
            p = run_bytes(data if args == ("-",) else b"", *args,
                          "--kube-version", "1.34")
            assert (p.returncode, p.stderr) == (0, b"")
            assert p.stdout.splitlines()[:-1] == verdicts


def test_yaml_kubectls_stderr_or_table_in_a_log_is_named(tmp_path):
    f = tmp_path / "pods.yaml"
    f.write_text("---\ntype: ADDED\nobject:\n  kind: Node\n")
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f"{f}:1:1: expected a JSON object, not YAML (record "
                        "the watch with -o json)\n")
    f = tmp_path / "pods.json"
    one = json.dumps({"type": "ADDED", "object": R.node("n1")})
    f.write_text(one + "\nerror: watch closed before UntilWithoutRetry "
                 "timeout\n")
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f"{f}:2:1: expected a JSON object, got a message "
                        "(kubectl's stderr in the log? record stdout alone)\n")
    f.write_text("NAMESPACE   NAME   READY   STATUS    RESTARTS   AGE\n"
                 "default     web    0/1     Pending   0          1s\n")
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f"{f}:1:1: expected a JSON object, got kubectl's "
                        "table (record the watch with -o json)\n")


def failed_scheduling_event(name, pod, note, rv):
    """A core/v1 Event as kube-scheduler's recorder writes it."""
    return {"apiVersion": "v1", "kind": "Event", "action": "Scheduling",
            "count": 1, "eventTime": "2025-10-01T10:20:00.123456Z",
            "firstTimestamp": None, "lastTimestamp": None,
            "involvedObject": {"apiVersion": "v1", "kind": "Pod",
                               "name": pod["metadata"]["name"],
                               "namespace": "default",
                               "resourceVersion": pod["metadata"]["resourceVersion"],
                               "uid": pod["metadata"]["uid"]},
            "message": note,
            "metadata": {"creationTimestamp": "2025-10-01T10:20:00Z",
                         "name": name, "namespace": "default",
                         "resourceVersion": rv, "uid": R.uid("event", name)},
            "reason": "FailedScheduling",
            "reportingComponent": "default-scheduler",
            "reportingInstance": "default-scheduler-kind-control-plane",
            "source": {}, "type": "Warning"}


def test_a_long_failed_scheduling_note_is_cut_as_kube_cuts_it(tmp_path):
    """30 nodes, each tainted dedicated-NN=x:NoSchedule (NN 00..29), none
    tolerated by web: each node's reason differs, so the FitError lists
    30 reasons, sorted as text - '1 node(s) had untolerated taint
    {dedicated-NN: x}' in NN's order - and every node is
    UnschedulableAndUnresolvable for preemption (v1.30).  The message is
    longer than 1024 bytes: the pod's condition holds it whole, the Event
    (handleSchedulingFailure's truncateMessage) its first 1020 bytes and
    ' ...'.  Both are kube's: ok."""
    n = 30
    w = R.Watch()
    for i in range(n):
        w.add("ADDED", R.node(f"n{i:02d}", cpu="4", taints=[{
            "effect": "NoSchedule", "key": f"dedicated-{i:02d}",
            "value": "x"}]))
    web = w.add("ADDED", R.pod("web", [R.container("a", cpu="1")]))
    whole = ("0/30 nodes are available: " + ", ".join(
        f"1 node(s) had untolerated taint {{dedicated-{i:02d}: x}}"
        for i in range(n)) + ". preemption: 0/30 nodes are available: 30 "
        "Preemption is not helpful for scheduling.")
    assert len(whole) > 1024
    w.add("MODIFIED", R.unschedulable(web, whole))
    w.add("ADDED", failed_scheduling_event("web.1a2b", web,
                                           whole[:1020] + " ...", "2001"))
    rc, got = check(tmp_path, w, "--kube-version", "1.30", "--strict-message")
    assert rc == 0
    assert [(d["decision"][:30], d["verdict"]) for d in got] == [
        ("unschedulable: 0/30 nodes are ", "ok"),
        ("FailedScheduling: 0/30 nodes a", "ok")]


def test_a_deleting_pods_event_says_it_is_skipped(tmp_path):
    """A pending pod being deleted (a finalizer holds it): kube's
    scheduleOne skips it (skipPodSchedule) with the Event 'skip schedule
    deleting pod: default/gone' - ok; any other message for it is
    kube's message differing."""
    w = R.Watch()
    w.add("ADDED", R.node("n1", cpu="4"))
    gone = R.pod("gone", [R.container("a", cpu="1")])
    gone["metadata"]["finalizers"] = ["example.com/hold"]
    gone = w.add("ADDED", gone)
    gone = w.add("MODIFIED", R.terminating(gone, grace=0))
    w.add("ADDED", failed_scheduling_event(
        "gone.1", gone, "skip schedule deleting pod: default/gone", "2001"))
    w.add("ADDED", failed_scheduling_event(
        "gone.2", gone, "0/1 nodes are available: 1 Insufficient cpu.", "2002"))
    rc, got = check(tmp_path, w, "--kube-version", "1.30")
    assert rc == 1
    assert [(d["pod"], d["verdict"], d["detail"]) for d in got] == [
        ("default/gone", "ok", "kube's message"),
        ("default/gone", "message-differs", "kube's message is \"skip "
         "schedule deleting pod: default/gone\"")]


def test_a_victim_already_terminating_needs_no_call(tmp_path):
    """v1.34, a drain under way: n1 (cpu 2) holds drained (cpu 1, started
    09:10, evicted: EvictionByEvictionAPI, deleting with 30 s grace) and
    low (cpu 1, started 09:20), both priority 0.  high (cpu 2, priority
    1000) preempts: SelectVictimsOnNode takes every lower-priority pod
    (a terminating one too), then reprieves the more important first -
    drained (earlier start): 1 + 2 > 2, a victim; low: 1 + 2 > 2, a
    victim.  prepareCandidateAsync skips drained (DeletionTimestamp set):
    the log shows low's DisruptionTarget only.  kube's answer, ok."""
    w = R.Watch()
    w.add("ADDED", R.node("n1", cpu="2", memory="8Gi"))
    drained = R.pod("drained", [R.container("app", cpu="1")], node_name="n1",
                    start="2025-10-01T09:10:00Z")
    drained["status"]["conditions"].append({
        "lastProbeTime": None, "lastTransitionTime": "2025-10-01T10:29:50Z",
        "message": "Eviction API: evicting", "reason": "EvictionByEvictionAPI",
        "status": "True", "type": "DisruptionTarget"})
    drained = w.add("ADDED", R.terminating(drained, "2025-10-01T10:30:20Z"))
    low = w.add("ADDED", R.pod("low", [R.container("app", cpu="1")],
                               node_name="n1", start="2025-10-01T09:20:00Z"))
    high = w.add("ADDED", R.pod("high", [R.container("app", cpu="2")],
                                priority=1000, priority_class="high"))
    w.add("MODIFIED", R.unschedulable(
        high, "0/1 nodes are available: 1 Insufficient cpu.", nominated="n1"))
    low = w.add("MODIFIED", R.disruption_target(low))
    low = w.add("MODIFIED", R.terminating(low))
    w.add("DELETED", drained)
    w.add("DELETED", low)
    w.add("MODIFIED", R.bound(high, "n1"))
    assert verdicts(tmp_path, w) == (0, [
        ("default/high", "preempt on n1: default/low", "ok",
         "kube may nominate n1 and evict the same pods"),
        ("default/high", "bind n1", "ok", "n1 is viable (viable: n1)")])


def test_a_watch_without_event_types_is_warned_of(tmp_path):
    """`kubectl get pods -w -o json` without --output-watch-events prints
    each change as the bare object, a deletion too: read as ADDED, a
    deleted pod would stay in the state.  The first object printed twice
    says the log is such a watch: one warning, where it is.  Objects
    printed once each (a state file of single objects) are no such log."""
    n1 = R.node("n1", cpu="2", memory="4Gi")
    a = R.pod("a", [R.container("app", cpu="1")])
    b = R.pod("b", [R.container("app", cpu="1")])
    f = tmp_path / "state.json"
    f.write_text("".join(json.dumps(o, indent=4) + "\n" for o in (n1, a, b)))
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, "")
    text = "".join(json.dumps(o, indent=4) + "\n"
                   for o in (n1, a, b, R.bound(a, "n1")))
    f.write_text(text)
    line = text.count("\n", 0, text.rindex('{\n    "apiVersion": "v1",\n'
                                           '    "kind": "Pod"')) + 1
    p = subprocess.run([KSO, "check", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0
    assert p.stderr == (
        f"{f}:{line}:1: warning: Pod default/a again, without a watch event: "
        "a watch recorded without --output-watch-events shows no deletion, so "
        "deleted objects stay in the state; record it with "
        "--output-watch-events\n")


def test_the_apis_own_typed_lists_are_read(tmp_path):
    """`kubectl get --raw /api/v1/nodes` and `/api/v1/pods` answer a
    NodeList and a PodList whose items carry no kind or apiVersion (the
    API server leaves them to the list): the items are nodes and pods, as
    kso validate reads them.  n1 (cpu 2) holds busy (cpu 1); web (cpu 1)
    bound to n1 fits (1 of 1 left): ok; then big (cpu 1) bound to n1,
    now full: infeasible, Insufficient cpu - had busy not been read, both
    would fit."""
    n1 = R.node("n1", cpu="2", memory="4Gi", rv="100")
    busy = R.pod("busy", [R.container("a", cpu="1")], node_name="n1", rv="101")
    web = R.pod("web", [R.container("a", cpu="1")], rv="102")
    big = R.pod("big", [R.container("a", cpu="1")], rv="103")
    for o in (n1, busy, web, big):
        del o["kind"], o["apiVersion"]
    (tmp_path / "nodes.json").write_text(json.dumps({
        "kind": "NodeList", "apiVersion": "v1",
        "metadata": {"resourceVersion": "103"}, "items": [n1]}))
    (tmp_path / "pods.json").write_text(json.dumps({
        "kind": "PodList", "apiVersion": "v1",
        "metadata": {"resourceVersion": "103"}, "items": [busy, web, big]}))
    w = R.Watch(rv=200)
    for p in (web, big):
        p = dict(p, kind="Pod", apiVersion="v1")
        w.add("MODIFIED", R.bound(p, "n1"))
    (tmp_path / "watch.json").write_text(w.text())
    p = subprocess.run([KSO, "check", str(tmp_path / "nodes.json"),
                        str(tmp_path / "pods.json"),
                        str(tmp_path / "watch.json")],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stderr) == (1, "")
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert [(d["pod"], d["verdict"], d["detail"]) for d in got] == [
        ("default/web", "ok", "n1 is viable (viable: n1)"),
        ("default/big", "infeasible",
         "n1 is rejected by NodeResourcesFit: Insufficient cpu")]


def audit_event(n, verb, pod, sub=None, code=200, request=None, response=None,
                level="RequestResponse", user="system:kube-scheduler"):
    """An audit.k8s.io/v1 Event line as kube-apiserver's log backend
    writes it (stage ResponseComplete)."""
    m = pod["metadata"]
    ref = {"resource": "pods", "namespace": m["namespace"], "name": m["name"],
           "apiVersion": "v1"}
    if sub:
        ref["subresource"] = sub
    e = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": level,
         "auditID": f"7e0c6a2b-0000-4000-8000-{n:012d}",
         "stage": "ResponseComplete",
         "requestURI": f"/api/v1/namespaces/{m['namespace']}/pods/{m['name']}"
                       + (f"/{sub}" if sub else ""),
         "verb": verb, "user": {"username": user,
                                "groups": ["system:authenticated"]},
         "sourceIPs": ["172.18.0.2"], "userAgent": "kubectl/v1.34.1",
         "objectRef": ref, "responseStatus": {"metadata": {}, "code": code},
         "requestReceivedTimestamp": f"2025-10-01T10:30:{n:02d}.100000Z",
         "stageTimestamp": f"2025-10-01T10:30:{n:02d}.104512Z",
         "annotations": {"authorization.k8s.io/decision": "allow",
                         "authorization.k8s.io/reason": ""}}
    if request is not None and level != "Metadata":
        e["requestObject"] = request
    if response is not None and level == "RequestResponse":
        e["responseObject"] = response
    return json.dumps(e)


def resize_audit(level):
    """v1.34 in-place resize in an audit log: n1 (cpu 4) runs big (cpu 1);
    `kubectl patch --subresource resize` raises it to 3 (the kubelet has
    not yet resized: status 1).  kube counts max(3, 1, 1) = 3 at once, so
    p (cpu 2, pending) bound to n1 does not fit (1 free): infeasible.
    Read without the resize, big would hold 1 and p fit."""
    n1 = R.node("n1", cpu="4", memory="8Gi", rv="100")
    big = R.pod("big", [R.container("app", cpu="1")], node_name="n1",
                rv="101")
    p = R.pod("p", [R.container("app", cpu="2")], rv="102")
    resized = json.loads(json.dumps(big))
    resized["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "3"
    resized["metadata"]["resourceVersion"] = "103"
    patch = {"spec": {"containers": [{"name": "app", "resources": {
        "requests": {"cpu": "3"}}}]}}
    binding = {"kind": "Binding", "apiVersion": "v1",
               "metadata": {"name": "p", "namespace": "default"},
               "target": {"kind": "Node", "name": "n1"}}
    lines = [audit_event(1, "patch", big, "resize", request=patch,
                         response=resized, level=level,
                         user="kubernetes-admin"),
             audit_event(2, "create", p, "binding", code=201, request=binding,
                         response={"kind": "Status", "apiVersion": "v1",
                                   "metadata": {}, "status": "Success",
                                   "code": 201})]
    return R.pod_list([n1, big, p]), "\n".join(lines) + "\n"


def test_an_audited_resize_changes_the_pods_requests(tmp_path):
    state, log = resize_audit("RequestResponse")
    (tmp_path / "state.json").write_text(json.dumps(state))
    (tmp_path / "audit.log").write_text(log)
    p = subprocess.run([KSO, "check", str(tmp_path / "state.json"),
                        str(tmp_path / "audit.log"), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert (p.returncode, p.stderr) == (1, "")
    assert [(d["pod"], d["decision"], d["verdict"]) for d in got] == [
        ("default/p", "bind n1", "infeasible")]


def test_a_resize_audited_without_its_answer_is_bad_input(tmp_path):
    state, log = resize_audit("Metadata")
    (tmp_path / "state.json").write_text(json.dumps(state))
    (tmp_path / "audit.log").write_text(log)
    p = subprocess.run([KSO, "check", str(tmp_path / "state.json"),
                        str(tmp_path / "audit.log")],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (
        f"{tmp_path / 'audit.log'}:1:1: a patch of pods/resize without "
        "responseObject: kso cannot tell what changed (record pods at level "
        "RequestResponse) (responseObject)\n")


def test_watches_concatenated_into_one_file_are_warned_of(tmp_path):
    """`cat pods.json nodes.json > all.json`: the second watch's listing
    goes back to versions below the first's changes, and its events
    would be judged in a state they do not belong to (here web's bind
    before any node: inconclusive).  One warning where the log goes back;
    given as two files the logs merge by resourceVersion: ok."""
    pods, nodes = R.Watch(rv=1000), R.Watch(rv=900)
    web = pods.add("ADDED", R.pod("web", [R.container("a", cpu="1")]))
    pods.add("MODIFIED", R.bound(web, "n1"))
    nodes.add("ADDED", R.node("n1", cpu="2"))
    (tmp_path / "pods.json").write_text(pods.text())
    (tmp_path / "nodes.json").write_text(nodes.text())
    text = pods.text() + nodes.text()
    (tmp_path / "all.json").write_text(text)
    p = subprocess.run([KSO, "check", str(tmp_path / "all.json")],
                       capture_output=True, text=True, timeout=60)
    line = text.count("\n", 0, len(pods.text())) + 3
    assert p.stderr == (
        f"{tmp_path / 'all.json'}:{line}:15: warning: resourceVersion 901 "
        "after 1002: the log goes back (several watches in one file?); give "
        "each watch as its own file, kso merges them by resourceVersion "
        "(metadata.resourceVersion)\n")
    p = subprocess.run([KSO, "check", str(tmp_path / "pods.json"),
                        str(tmp_path / "nodes.json")],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, "")
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert [(d["pod"], d["verdict"]) for d in got] == [("default/web", "ok")]


@pytest.mark.parametrize("first", ["patch", "eviction"])
def test_an_audited_eviction_makes_its_pod_terminating(tmp_path, first):
    """The drain of test_a_victim_already_terminating_needs_no_call as an
    audit log (v1.34): the eviction (create pods/drained/eviction, 201,
    a Status answer) made drained terminating inside the request - its
    DisruptionTarget (EvictionByEvictionAPI) and a graceful deletion
    (terminationGracePeriodSeconds 30) - with no other audit event.  high
    then preempts on n1: kube's victims are drained and low (worked out
    there); only low's status patch and deletion are logged, drained
    needing no call.  Read as terminating, drained is kube's unseen
    victim: ok; then high binds to n1 once both are gone: ok.  An
    eviction of pending pod q deletes it at once (not bound: grace 0):
    q's later binding is of no pod the state has.

    The log may begin with the eviction (first "eviction"): an audit
    event without a version before any with one merges by the next
    version of its file (high's nomination, 106), after the state the
    log is given with - not before it, where no pod is known yet."""
    n1 = R.node("n1", cpu="2", memory="8Gi", rv="100")
    drained = R.pod("drained", [R.container("app", cpu="1")], node_name="n1",
                    start="2025-10-01T09:10:00Z", rv="101")
    low = R.pod("low", [R.container("app", cpu="1")], node_name="n1",
                start="2025-10-01T09:20:00Z", rv="102")
    high = R.pod("high", [R.container("app", cpu="2")], priority=1000,
                 priority_class="high", rv="103")
    q = R.pod("q", [R.container("app", cpu="1")], rv="104")
    status = {"kind": "Status", "apiVersion": "v1", "metadata": {},
              "status": "Success", "code": 201}

    def at(obj, rv):
        obj = json.loads(json.dumps(obj))
        obj["metadata"]["resourceVersion"] = rv
        return obj
    evict = {"kind": "Eviction", "apiVersion": "policy/v1",
             "metadata": {"name": "drained", "namespace": "default"}}
    nominated = at(R.unschedulable(high, "0/1 nodes are available: 1 "
                                   "Insufficient cpu.", nominated="n1"), "106")
    low_dt = at(R.disruption_target(low), "107")
    low_del = at(R.terminating(low_dt), "108")
    gone = {n: at(R.terminating(o, grace=0), rv) for n, o, rv in
            (("drained", drained, "109"), ("low", low_del, "110"))}

    def binding(name):
        return {"kind": "Binding", "apiVersion": "v1",
                "metadata": {"name": name, "namespace": "default"},
                "target": {"kind": "Node", "name": "n1"}}
    lines = [
        audit_event(0, "patch", low, "status", request={}, response=at(low, "105"),
                    user="system:node:n1")] if first == "patch" else []
    lines += [
        audit_event(1, "create", drained, "eviction", code=201, request=evict,
                    response=status, user="kubernetes-admin"),
        audit_event(2, "create", q, "eviction", code=201, request=dict(
            evict, metadata={"name": "q", "namespace": "default"}),
            response=status, user="kubernetes-admin"),
        audit_event(3, "patch", high, "status", request={}, response=nominated),
        audit_event(4, "patch", low, "status", request={}, response=low_dt),
        audit_event(5, "delete", low, request={}, response=low_del),
        audit_event(6, "delete", drained, request={}, response=gone["drained"],
                    user="system:node:n1"),
        audit_event(7, "delete", low, request={}, response=gone["low"],
                    user="system:node:n1"),
        audit_event(8, "create", high, "binding", code=201,
                    request=binding("high"), response=status),
        audit_event(9, "create", q, "binding", code=201, request=binding("q"),
                    response=status)]
    (tmp_path / "state.json").write_text(json.dumps(R.pod_list(
        [n1, drained, low, high, q])))
    (tmp_path / "audit.log").write_text("\n".join(lines) + "\n")
    p = subprocess.run([KSO, "check", str(tmp_path / "state.json"),
                        str(tmp_path / "audit.log"), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    assert (p.returncode, p.stderr) == (0, "")
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert [(d["pod"], d["decision"], d["verdict"]) for d in got] == [
        ("default/high", "preempt on n1: default/low", "ok"),
        ("default/high", "bind n1", "ok")]


def test_an_audit_log_begun_mid_run_binds_pods_it_never_saw(tmp_path):
    """An audit log rotated mid-run starts with the binding of a pod
    created before it (ghost, in no state given): the binding changes
    nothing, and the run's decisions are judged as without it
    (fixtures/check/run.audit.jsonl, worked out in
    tests/test_check_audit.py).  The binding's stub was loaded with the
    cluster and refused ('apiVersion is required'), making every
    decision inconclusive."""
    run = os.path.join(ROOT, "fixtures", "check", "run.audit.jsonl")
    lines = open(run).read().splitlines()
    ghost = json.loads(next(x for x in lines if '"binding"' in x))
    ghost["objectRef"]["name"] = "ghost"
    ghost["requestObject"]["metadata"]["name"] = "ghost"
    f = tmp_path / "audit.log"
    f.write_text(json.dumps(ghost) + "\n" + "\n".join(lines) + "\n")
    want = subprocess.run([KSO, "check", run], capture_output=True, text=True,
                          timeout=60)
    p = subprocess.run([KSO, "check", str(f)], capture_output=True, text=True,
                       timeout=60)
    assert (p.returncode, p.stderr) == (want.returncode, "")
    strip = [{k: v for k, v in json.loads(x).items() if k != "summary"}
             for x in want.stdout.splitlines()[:-1]]
    assert [json.loads(x) for x in p.stdout.splitlines()[:-1]] == strip
    assert [d["verdict"] for d in strip] == ["ok", "ok", "infeasible", "ok",
                                             "ok", "ok"]
