"""
test_dra_claim_controller.py - kube's resourceclaim controller for the
input's pending pods (yaml/expand.c sync_pod_claims; kube v1.34.1
pkg/controller/resourceclaim syncPod / handleClaim), which
DynamicResources' PreEnqueue waits for: resourceclaim.Name finds the
claim of a template entry only in the pod's status.resourceClaimStatuses
('ResourceClaim not created yet' until then), and the controller writes
that entry as soon as the pod exists - taking the claim it made earlier
when one is there (controlled by the pod, annotated
resource.kubernetes.io/pod-claim-name with the entry's name:
findPodResourceClaim), else creating one from the template.  A missing
template fails the pod's sync before any status is written: the pod waits.
kso schedule had every such pod wait.

The cluster (run with --kube-version 1.34): device class gpu.example.com;
n1 and n2 (cpu 4) with a slice on n2 only (gpu-0); pod p (cpu 100m, uid
0b8e4c1a-p) has entry gpu from template one-gpu (one gpu.example.com
device) and no status.
  template one-gpu given: the controller makes p's claim: n2 alone has a
    device - p binds to n2.
  no template, p's orphan claim given (owned by p, annotated gpu): taken,
    unallocated, the same device: p binds to n2.
  no template, nothing else: p waits, never attempted.
  no template, a claim owned by p without the annotation: no orphan (not
    one the controller made for the entry): p waits.
Both engines.
"""
import json

import pytest

from conftest import run_kso

BASE = """\
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors: [{cel: {expression: "device.driver == 'gpu.example.com'"}}]
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: '4', memory: 4Gi, pods: '10'}}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n2-gpu}
spec:
  driver: gpu.example.com
  nodeName: n2
  pool: {name: n2, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default, uid: 0b8e4c1a-p}
spec:
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
  containers:
  - name: c
    image: nginx
    resources: {requests: {cpu: 100m}, claims: [{name: gpu}]}
"""

TEMPLATE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
"""


def claim(annotated):
    ann = ("  annotations: {resource.kubernetes.io/pod-claim-name: gpu}\n"
           if annotated else "")
    return ("apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\n"
            "metadata:\n  name: p-gpu-x7bz4\n  namespace: default\n" + ann +
            "  ownerReferences: [{apiVersion: v1, kind: Pod, name: p, "
            "uid: 0b8e4c1a-p, controller: true}]\n"
            "spec:\n  devices:\n    requests: [{name: gpu, exactly: "
            "{deviceClassName: gpu.example.com}}]\n")


WAITS = ("not attempted: DynamicResources' PreEnqueue: pod \"default/p\": "
         "ResourceClaim not created yet")


@pytest.mark.parametrize("engine", ["model", "oracle"])
@pytest.mark.parametrize("extra,final,pending", [
    (TEMPLATE, {"default/p": "n2"}, []),
    (claim(True), {"default/p": "n2"}, []),
    ("", {}, [WAITS]),
    (claim(False), {}, [WAITS]),
], ids=["template", "orphan-claim", "nothing", "claim-not-annotated"])
def test_the_resourceclaim_controller_comes_first(tmp_path, engine, extra,
                                                  final, pending):
    f = tmp_path / "c.yaml"
    f.write_text(BASE + ("---\n" + extra if extra else ""))
    p = run_kso("schedule", str(f), "--kube-version", "1.34", "--engine",
                engine, "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert {k: v for k, v in d["final"].items() if v} == final
    assert d["summary"]["pending_pods"] == [
        {"pod": "default/p", "reason": r} for r in pending]
