"""
test_check_prebind.py - `kso check` judges a bind in the state before the
scheduler's own PreBind writes for that pod (cli/check_prebind.h), as a
v1.34 cluster's watch log shows them: kube-scheduler picks the node in
its scheduling cycle, then its binding cycle writes the API - PreBind
(DynamicResources' bindClaim: the claim's finalizer, then its status with
the allocation and reservedFor; VolumeBinding's BindPodVolumes: the
claim's selected-node annotation or the PersistentVolume's claimRef,
after which the provisioner and the PV controller bind the claim) - and
only then the Binding.  Judged after those writes, any node reads right:
the claim is allocated there, the volume pinned there.

Each log is judged as written and with KSO_CHECK_EPOCH=1 (a cluster
rebuilt at nearly every event), which must agree.  Answers worked out by
hand from v1.34's default profile (scores: NodeResourcesFit
LeastAllocated, cpu and memory weight 1 each, with the non-zero
defaults - 100m cpu, 200Mi memory - for a request left out;
NodeResourcesBalancedAllocation on the requests as given;
TaintToleration 3 x 100 on both nodes; the rest 0 on both).

DRA: n1 and n2 (cpu 4, memory 4Gi) each publish one device gpu-0 of
class gpu.example.com; busy (cpu 2, memory 1Gi) runs on n1; p (cpu 100m)
has claim p-gpu-x7bz4 (one gpu), unallocated before its PreBind.  Both
nodes are feasible.
  n1: fit (cpu (4000-2100)*100/4000 = 47, memory (4096-1024-200)*100/4096
      = 70) / 2 = 58; balanced: cpu 2100/4000 = .525, memory 1024/4096 =
      .25, (1 - |.525-.25|/2) * 100 = 86;  58 + 86 + 300 = 444.
  n2: fit (97 + 95) / 2 = 96; balanced (1 - |.025-0|/2) * 100 = 98;
      96 + 98 + 300 = 494.
  So p on n2 is ok and p on n1 is not-viable - though its claim, once
  PreBind allocated it on n1, makes n1 the only node it fits.

Volumes: n1 and n2 (cpu 4, memory 8Gi); busy (cpu 2, memory 1Gi) on n1;
b (cpu 1, memory 1Gi) mounts claim data of a WaitForFirstConsumer class.
  n1: fit (25 + 75) / 2 = 50, balanced (1 - |.75-.25|/2) * 100 = 75.
  n2: fit (75 + 87) / 2 = 81, balanced (1 - |.25-.125|/2) * 100 = 93.
  dynamic (class standard, provisioner rancher.io/local-path): every
    node can provision, so both are feasible; n2 wins.
  static (class local, kubernetes.io/no-provisioner; PVs pv-n1 and pv-n2
    of 10Gi, each pinned to its node): each node has a volume; n2 wins.
  The scheduler picking n1 writes selected-node n1 (or pv-n1's claimRef)
  and the claim ends bound to a volume on n1: judged there, n1 would be
  the only feasible node.
"""
import copy
import json
import os
import subprocess

import realcluster as R

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))


def verdicts(tmp_path, w):
    """(pod, decision, verdict, viable) of each decision; the same with a
    cluster rebuilt at every event."""
    f = tmp_path / "watch.json"
    f.write_text(w.text())
    got = []
    for epoch in (None, "1"):
        env = dict(os.environ)
        env.pop("KSO_CHECK_EPOCH", None)
        if epoch:
            env["KSO_CHECK_EPOCH"] = epoch
        p = subprocess.run([KSO, "check", str(f), "--kube-version", "1.34"],
                           capture_output=True, text=True, timeout=120,
                           env=env)
        assert p.stderr == ""
        lines = [json.loads(x) for x in p.stdout.splitlines()][:-1]
        got.append((p.returncode, [
            (d["pod"], d["decision"], d["verdict"],
             d.get("expected", {}).get("viable")) for d in lines]))
    assert got[0] == got[1]
    return got[0]


GPU = "gpu.example.com"


def claim(p, alloc=None, reserved=(), finalizer=False):
    c = {"apiVersion": "resource.k8s.io/v1", "kind": "ResourceClaim",
         "metadata": {
             "annotations": {"resource.kubernetes.io/pod-claim-name": "gpu"},
             "creationTimestamp": R.T0, "generateName": "p-gpu-",
             "name": "p-gpu-x7bz4", "namespace": "default",
             "ownerReferences": [{
                 "apiVersion": "v1", "blockOwnerDeletion": True,
                 "controller": True, "kind": "Pod", "name": "p",
                 "uid": p["metadata"]["uid"]}],
             "uid": R.uid("claim", "p-gpu-x7bz4")},
         "spec": {"devices": {"requests": [{"name": "gpu", "exactly": {
             "allocationMode": "ExactCount", "count": 1,
             "deviceClassName": GPU}}]}},
         "status": {}}
    if finalizer or alloc:
        c["metadata"]["finalizers"] = ["resource.kubernetes.io/delete-protection"]
    if alloc:
        c["status"]["allocation"] = {
            "devices": {"results": [{"device": "gpu-0", "driver": GPU,
                                     "pool": alloc, "request": "gpu"}]},
            "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [{
                "key": "metadata.name", "operator": "In",
                "values": [alloc]}]}]}}
    if reserved:
        c["status"]["reservedFor"] = [
            {"name": q["metadata"]["name"], "resource": "pods",
             "uid": q["metadata"]["uid"]} for q in reserved]
    return c


def dra_log(node, unreserve=False):
    """p's binding cycle on node: the claim's finalizer, its allocation
    and reservation (one status update), then the Binding."""
    w = R.Watch()
    w.add("ADDED", {"apiVersion": "resource.k8s.io/v1", "kind": "DeviceClass",
                    "metadata": {"name": GPU},
                    "spec": {"selectors": [{"cel": {
                        "expression": f"device.driver == '{GPU}'"}}]}})
    for n in ("n1", "n2"):
        w.add("ADDED", R.node(n, cpu="4", memory="4Gi"))
        w.add("ADDED", {"apiVersion": "resource.k8s.io/v1",
                        "kind": "ResourceSlice",
                        "metadata": {"name": f"{n}-{GPU}-x2kq9"},
                        "spec": {"driver": GPU, "nodeName": n,
                                 "pool": {"name": n, "generation": 1,
                                          "resourceSliceCount": 1},
                                 "devices": [{"name": "gpu-0"}]}})
    w.add("ADDED", R.pod("busy", [R.container("app", cpu="2", memory="1Gi")],
                         node_name="n1"))
    p = R.pod("p", [R.container("c", cpu="100m")],
              resourceClaims=[{"name": "gpu",
                               "resourceClaimTemplateName": "one-gpu"}])
    p["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]
    p["status"]["resourceClaimStatuses"] = [
        {"name": "gpu", "resourceClaimName": "p-gpu-x7bz4"}]
    w.add("ADDED", claim(p))
    p = w.add("ADDED", p)
    w.add("MODIFIED", claim(p, finalizer=True))
    w.add("MODIFIED", claim(p, node, [p]))
    if unreserve:
        # the binding failed: Unreserve takes p out of reservedFor (the
        # allocation stays), the failure handler writes the condition
        w.add("MODIFIED", claim(p, node))
        p = w.add("MODIFIED", R.unschedulable(
            p, "running PreBind plugin \"DynamicResources\": timed out"))
        return w, p
    w.add("MODIFIED", R.bound(p, node))
    return w, p


def test_a_claim_allocated_by_prebind_is_judged_before_it(tmp_path):
    assert verdicts(tmp_path, dra_log("n2")[0]) == (0, [
        ("default/p", "bind n2", "ok", ["n2"])])
    assert verdicts(tmp_path, dra_log("n1")[0]) == (1, [
        ("default/p", "bind n1", "not-viable", ["n2"])])


def test_prebinds_writes_stay_for_the_next_pod(tmp_path):
    """After p's bind the claim, allocated on n1, stays: q (a second pod
    with a claim of its own, one gpu) finds n1's only device taken, so n2
    is its only node (its bind to n1 is infeasible) - the writes are the
    scheduler's, kept in the state."""
    w, p = dra_log("n1")
    q = R.pod("q", [R.container("c", cpu="100m")],
              resourceClaims=[{"name": "gpu", "resourceClaimName": "q-gpu"}])
    q["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]
    qc = claim(p)
    qc["metadata"] = {"name": "q-gpu", "namespace": "default",
                      "uid": R.uid("claim", "q-gpu")}
    w.add("ADDED", qc)
    q = w.add("ADDED", q)
    w.add("MODIFIED", R.bound(q, "n1"))
    rc, got = verdicts(tmp_path, w)
    assert got[1] == ("default/q", "bind n1", "infeasible", ["n2"])


def test_a_failed_prebind_leaves_no_state_behind(tmp_path):
    """The binding on n1 fails after the claim's update: Unreserve, the
    Unschedulable condition (a decision of its own, not judged here).
    The next cycle binds p to n2 with the claim allocated on n1 still (a
    foreign change for that cycle: DynamicResources then filters n1 only
    - the allocation's node selector) - so n2 is infeasible there."""
    w, p = dra_log("n1", unreserve=True)
    w.add("MODIFIED", R.bound(p, "n2"))
    rc, got = verdicts(tmp_path, w)
    assert got[-1][:3] == ("default/p", "bind n2", "infeasible")


def volume_log(node, static):
    w = R.Watch()
    for n in ("n1", "n2"):
        w.add("ADDED", R.node(n, cpu="4", memory="8Gi"))
    cls = "local" if static else "standard"
    w.add("ADDED", {
        "apiVersion": "storage.k8s.io/v1", "kind": "StorageClass",
        "metadata": {"name": cls, "uid": R.uid("sc", cls)},
        "provisioner": "kubernetes.io/no-provisioner" if static
        else "rancher.io/local-path",
        "reclaimPolicy": "Delete", "volumeBindingMode": "WaitForFirstConsumer"})

    def pv(name, on, ref=None, phase="Available"):
        v = {"apiVersion": "v1", "kind": "PersistentVolume",
             "metadata": {"name": name, "uid": R.uid("pv", name),
                          "finalizers": ["kubernetes.io/pv-protection"]},
             "spec": {"accessModes": ["ReadWriteOnce"],
                      "capacity": {"storage": "10Gi"},
                      "local" if static else "hostPath":
                          {"path": f"/mnt/{name}"},
                      "nodeAffinity": {"required": {"nodeSelectorTerms": [{
                          "matchExpressions": [{
                              "key": "kubernetes.io/hostname",
                              "operator": "In", "values": [on]}]}]}},
                      "persistentVolumeReclaimPolicy": "Delete",
                      "storageClassName": cls, "volumeMode": "Filesystem"},
             "status": {"phase": phase}}
        if ref:
            v["spec"]["claimRef"] = {
                "apiVersion": "v1", "kind": "PersistentVolumeClaim",
                "name": "data", "namespace": "default",
                "uid": ref["metadata"]["uid"]}
        return v
    if static:
        for n in ("n1", "n2"):
            w.add("ADDED", pv(f"pv-{n}", n))
    pvc = w.add("ADDED", {
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"finalizers": ["kubernetes.io/pvc-protection"],
                     "name": "data", "namespace": "default",
                     "uid": R.uid("pvc", "data")},
        "spec": {"accessModes": ["ReadWriteOnce"],
                 "resources": {"requests": {"storage": "1Gi"}},
                 "storageClassName": cls, "volumeMode": "Filesystem"},
        "status": {"phase": "Pending"}})
    w.add("ADDED", R.pod("busy", [R.container("app", cpu="2", memory="1Gi")],
                         node_name="n1"))
    b = R.pod("b", [R.container("app", cpu="1", memory="1Gi")])
    b["spec"]["volumes"].append({"name": "data", "persistentVolumeClaim": {
        "claimName": "data"}})
    b = w.add("ADDED", b)
    # PreBind on node: static - the scheduler binds the volume
    # (claimRef, bound-by-controller); dynamic - it annotates the claim,
    # the provisioner makes a volume there
    if static:
        v = pv(f"pv-{node}", node, pvc)
        v["metadata"]["annotations"] = {"pv.kubernetes.io/bound-by-controller": "yes"}
        w.add("MODIFIED", v)
        name = f"pv-{node}"
    else:
        pvc["metadata"]["annotations"] = {
            "volume.kubernetes.io/selected-node": node,
            "volume.kubernetes.io/storage-provisioner": "rancher.io/local-path"}
        pvc = w.add("MODIFIED", pvc)
        name = "pvc-" + pvc["metadata"]["uid"]
        v = pv(name, node, pvc, "Pending")
        v["metadata"]["annotations"] = {
            "pv.kubernetes.io/provisioned-by": "rancher.io/local-path"}
        w.add("ADDED", v)
    # the PV controller binds both ways
    v = copy.deepcopy(v)
    v["status"]["phase"] = "Bound"
    w.add("MODIFIED", v)
    pvc["spec"]["volumeName"] = name
    pvc["metadata"].setdefault("annotations", {}).update({
        "pv.kubernetes.io/bind-completed": "yes",
        "pv.kubernetes.io/bound-by-controller": "yes"})
    pvc["status"] = {"accessModes": ["ReadWriteOnce"],
                     "capacity": {"storage": "10Gi"}, "phase": "Bound"}
    w.add("MODIFIED", pvc)
    w.add("MODIFIED", R.bound(b, node))
    return w


def test_a_volume_provisioned_by_prebind_is_judged_before_it(tmp_path):
    assert verdicts(tmp_path, volume_log("n2", False)) == (0, [
        ("default/b", "bind n2", "ok", ["n2"])])
    assert verdicts(tmp_path, volume_log("n1", False)) == (1, [
        ("default/b", "bind n1", "not-viable", ["n2"])])


def test_a_volume_bound_by_prebind_is_judged_before_it(tmp_path):
    assert verdicts(tmp_path, volume_log("n2", True)) == (0, [
        ("default/b", "bind n2", "ok", ["n2"])])
    assert verdicts(tmp_path, volume_log("n1", True)) == (1, [
        ("default/b", "bind n1", "not-viable", ["n2"])])


def two_claims_log(p_node, q_node):
    """Two pods, each with a claim of its own (p-gpu, q-gpu: one gpu), in
    the order the real v1.34.1 scheduler writes them (fake API): p's
    binding cycle writes p-gpu (finalizer, then allocation and
    reservation), q's writes q-gpu, then p's Binding lands, then q's.
    The DRA cluster above (busy on n1).
      the real choice, p on n2 and q on n1: p judged before both claims'
        writes (q's binding cycle began after p's: kube decided q after
        p) - both nodes feasible, n2 scores best: ok; q judged with p
        bound on n2 and p-gpu allocated there: n1 holds the only free
        device - ok.
      a wrong one, p on n1 and q on n2: p before both writes - n2 scores
        best, p on n1 is not-viable (judged after q's write, q-gpu
        taking n2's device, n1 would be p's only node); q: p-gpu holds
        n1's device, n2 its only node - ok."""
    w, _ = dra_log("n2")
    w.events = w.events[:-5]      # the class, nodes, slices and busy
    pods = {}
    for name in ("p", "q"):
        pod = R.pod(name, [R.container("c", cpu="100m")],
                    resourceClaims=[{"name": "gpu",
                                     "resourceClaimName": name + "-gpu"}])
        pod["spec"]["containers"][0]["resources"]["claims"] = [{"name": "gpu"}]
        c = claim(pod)
        c["metadata"] = {"name": name + "-gpu", "namespace": "default",
                         "uid": R.uid("claim", name + "-gpu")}
        pods[name] = (w.add("ADDED", pod), c)
    for name, node in (("p", p_node), ("q", q_node)):
        pod, c = pods[name]
        c = copy.deepcopy(c)
        c["metadata"]["finalizers"] = ["resource.kubernetes.io/delete-protection"]
        w.add("MODIFIED", c)
        done = claim(pod, node, [pod])
        done["metadata"] = c["metadata"]
        w.add("MODIFIED", done)
    for name, node in (("p", p_node), ("q", q_node)):
        w.add("MODIFIED", R.bound(pods[name][0], node))
    return w


def test_a_later_pods_prebind_writes_are_not_in_an_earlier_bind(tmp_path):
    assert verdicts(tmp_path, two_claims_log("n2", "n1")) == (0, [
        ("default/p", "bind n2", "ok", ["n2"]),
        ("default/q", "bind n1", "ok", ["n1"])])
    assert verdicts(tmp_path, two_claims_log("n1", "n2")) == (1, [
        ("default/p", "bind n1", "not-viable", ["n2"]),
        ("default/q", "bind n2", "ok", ["n2"])])


def test_prebind_writes_in_an_audit_log(tmp_path):
    """two_claims_log's wrong choice as the API server audits it (the
    policy's DRA rule): the state as a List, then the scheduler's
    requests - each claim's update (finalizer) and status update
    (allocation, reservation), the two bindings.  The same verdicts."""
    w = two_claims_log("n1", "n2")
    state, changes = [], []
    for e in w.events:
        (state if e["type"] == "ADDED" else changes).append(e["object"])
    (tmp_path / "state.json").write_text(json.dumps(R.pod_list(state)))
    lines = []
    for i, o in enumerate(changes):
        stamp = "2025-10-01T10:20:%02d.000000Z" % i
        m = o["metadata"]
        ev = {"kind": "Event", "apiVersion": "audit.k8s.io/v1",
              "level": "RequestResponse", "auditID": "id-%d" % i,
              "stage": "ResponseComplete",
              "user": {"username": "system:kube-scheduler"},
              "responseStatus": {"metadata": {}, "code": 200},
              "requestReceivedTimestamp": stamp, "stageTimestamp": stamp}
        if o["kind"] == "Pod":
            ev.update(verb="create", requestURI="/api/v1/namespaces/default/"
                      "pods/%s/binding" % m["name"], objectRef={
                          "resource": "pods", "namespace": "default",
                          "name": m["name"], "apiVersion": "v1",
                          "subresource": "binding"},
                      requestObject={"kind": "Binding", "apiVersion": "v1",
                                     "metadata": {"name": m["name"],
                                                  "namespace": "default"},
                                     "target": {"kind": "Node", "name":
                                                o["spec"]["nodeName"]}},
                      responseObject={"kind": "Status", "apiVersion": "v1",
                                      "status": "Success", "code": 201})
            ev["responseStatus"]["code"] = 201
        else:
            status = "status" in o and bool(o["status"])
            ref = {"resource": "resourceclaims", "namespace": "default",
                   "name": m["name"], "apiGroup": "resource.k8s.io",
                   "apiVersion": "v1"}
            if status:
                ref["subresource"] = "status"
            ev.update(verb="update", requestURI="/apis/resource.k8s.io/v1/"
                      "namespaces/default/resourceclaims/" + m["name"],
                      objectRef=ref, requestObject=o, responseObject=o)
        lines.append(json.dumps(ev))
    (tmp_path / "audit.log").write_text("\n".join(lines) + "\n")
    p = subprocess.run([KSO, "check", str(tmp_path / "state.json"),
                        str(tmp_path / "audit.log"), "--kube-version", "1.34"],
                       capture_output=True, text=True, timeout=60)
    assert p.stderr == ""
    got = [json.loads(x) for x in p.stdout.splitlines()][:-1]
    assert (p.returncode, [(d["pod"], d["decision"], d["verdict"])
                           for d in got]) == (1, [
        ("default/p", "bind n1", "not-viable"),
        ("default/q", "bind n2", "ok")])
