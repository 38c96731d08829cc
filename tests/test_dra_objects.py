"""
test_dra_objects.py - the resource.k8s.io/v1 objects of Dynamic Resource
Allocation (kube v1.34; core/dra.h, yaml/decode_dra.c): a kubectl export
loads without a warning, defaults are the API server's (allocationMode
ExactCount, count 1), `kso dump` writes the objects and a pod's claims back,
and every refusal is one line FILE:LINE:COL: what is wrong (field.path) with
exit status 1.  LINE and COL are counted by hand from the manifests below
(1-based; COL is where the offending value or item starts).
"""
import json
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
KSO = os.environ.get("KSO", str(REPO / "kso"))
EXPORT = REPO / "fixtures" / "load" / "dra-kubectl-export.yaml"


def run(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def load(tmp_path, text, name="m.yaml"):
    path = tmp_path / name
    path.write_text(text)
    return path, run("dump", path, "-o", "json")


def test_the_kubectl_export_loads_without_warnings():
    p = run("dump", EXPORT, "-o", "json")
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""
    d = json.loads(p.stdout)
    assert [c["metadata"]["name"] for c in d["deviceClasses"]] == ["gpu.example.com"]
    s = d["resourceSlices"][0]["spec"]
    assert s["nodeName"] == "worker-1"
    assert s["pool"] == {"name": "worker-1", "generation": 1, "resourceSliceCount": 1}
    # 40Gi = 40 * 2^30 bytes
    assert s["devices"][0]["capacity"]["memory"]["value"] == "42949672960"
    assert s["devices"][1]["attributes"]["index"] == {"int": 1}
    assert s["devices"][0]["attributes"]["driverVersion"] == {"version": "1.2.0"}
    shared, generated = d["resourceClaims"]
    assert shared["status"]["allocation"]["devices"]["results"] == [
        {"request": "gpu", "driver": "gpu.example.com", "pool": "worker-1",
         "device": "gpu-0"}]
    assert shared["status"]["reservedFor"] == [
        {"resource": "pods", "name": "trainer-0",
         "uid": "0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b"}]
    req = generated["spec"]["devices"]["requests"][0]
    assert [s["name"] for s in req["firstAvailable"]] == ["two-small", "one-large"]
    assert generated["spec"]["devices"]["constraints"] == [
        {"matchAttribute": "gpu.example.com/model"}]
    assert "status" not in generated
    assert generated["metadata"]["ownerReferences"][0]["name"] == "inference-0"


CLAIM = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: c
spec:
  devices:
    requests:
"""  # lines 1-7; the first request starts at line 8


def test_request_defaults(tmp_path):
    # no allocationMode: ExactCount with count 1 (SetDefaults_ExactDeviceRequest);
    # All keeps no count
    _, p = load(tmp_path, CLAIM + """    - name: one
      exactly:
        deviceClassName: gpu
    - name: every
      exactly:
        deviceClassName: gpu
        allocationMode: All
""")
    assert p.returncode == 0, p.stderr
    reqs = json.loads(p.stdout)["resourceClaims"][0]["spec"]["devices"]["requests"]
    assert reqs[0]["exactly"] == {"deviceClassName": "gpu",
                                  "allocationMode": "ExactCount", "count": 1}
    assert reqs[1]["exactly"] == {"deviceClassName": "gpu", "allocationMode": "All"}


POD = """apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
    resources:
      claims:
      - name: gpu
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: one-gpu
status:
  resourceClaimStatuses:
  - name: gpu
    resourceClaimName: p-gpu-abcde
"""


def test_a_pods_claims_are_dumped_back(tmp_path):
    path, p = load(tmp_path, POD)
    assert p.returncode == 0, p.stderr
    pod = json.loads(p.stdout)["pods"][0]
    assert pod["spec"]["resourceClaims"] == [
        {"name": "gpu", "resourceClaimTemplateName": "one-gpu"}]
    assert pod["spec"]["containers"][0]["resources"] == {"claims": [{"name": "gpu"}]}
    assert pod["status"]["resourceClaimStatuses"] == [
        {"name": "gpu", "resourceClaimName": "p-gpu-abcde"}]
    # and read back, the same dump
    back = tmp_path / "back.json"
    back.write_text(p.stdout)
    again = run("dump", back, "-o", "json")
    assert again.returncode == 0, again.stderr
    assert again.stdout == p.stdout


SLICE = """apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata:
  name: s
spec:
  driver: gpu.example.com
  pool:
    name: n1
    resourceSliceCount: 1
"""  # lines 1-9

CLASS = """apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu
spec:
  selectors:
  - cel:
"""  # line 8 holds the expression

# (id, manifest, line, col, message, field path)
CASES = [
    # line 8 "      expression: device.foo == 1": 6 spaces + "expression: " -> 19
    ("cel-undefined-field", CLASS + "      expression: device.foo == 1\n", 8, 19,
     "invalid CEL expression: undefined field 'foo' (at 1:7 of the expression)",
     "spec.selectors[0].cel.expression"),
    # a call is at its '(' (cel-go's place for it)
    ("cel-outside-subset", CLASS + "      expression: device.driver.format([]) == 'g'\n", 8,
     19, "invalid CEL expression: function 'format' is outside kso's CEL subset "
     "(at 1:21 of the expression)", "spec.selectors[0].cel.expression"),
    ("cel-not-bool", CLASS + "      expression: '1 + 1'\n", 8, 19,
     "invalid CEL expression: must evaluate to bool or the unknown type, not int "
     "(at 1:3 of the expression)", "spec.selectors[0].cel.expression"),
    # line 10 "  allNodes: true" with nodeName too: the error is at spec (line 6)
    ("slice-two-node-fields", SLICE + "  nodeName: n1\n  allNodes: true\n", 6, 3,
     "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required, but "
     "multiple fields are set", "spec"),
    ("slice-no-node-field", SLICE, 6, 3,
     "exactly one of `nodeName`, `nodeSelector`, `allNodes` is required", "spec"),
    # line 13 "      model: {string: a, int: 1}": 6 + "model: " -> 14
    ("attribute-two-values", SLICE + """  nodeName: n1
  devices:
  - name: d0
    attributes:
      model: {string: a, int: 1}
""", 14, 14, "exactly one value must be specified",
     "spec.devices[0].attributes.model"),
    # line 13 "      Bad-Name: ..." key at column 7
    ("attribute-bad-name", SLICE + """  nodeName: n1
  devices:
  - name: d0
    attributes:
      bad-name: {int: 1}
""", 14, 7, "invalid name \"bad-name\": a C identifier must start with a letter "
     "or underscore, followed by letters, digits or underscores",
     "spec.devices[0].attributes.bad-name"),
    # line 8 "    - name: r": the request item at column 7
    ("request-neither", CLAIM + "    - name: r\n", 8, 7,
     "exactly one of `exactly` or `firstAvailable` is required",
     "spec.devices.requests[0]"),
    # line 10 "        count: 0": 8 + "count: " -> 16
    ("count-zero", CLAIM + """    - name: r
      exactly:
        deviceClassName: gpu
        count: 0
""", 11, 16, "must be greater than zero", "spec.devices.requests[0].exactly.count"),
    # line 14 "      - nope": 6 + "- " -> 9
    ("constraint-unknown-request", CLAIM + """    - name: r
      exactly:
        deviceClassName: gpu
    constraints:
    - matchAttribute: gpu.example.com/model
      requests:
      - nope
""", 14, 9, "\"nope\" must be the name of a request in the claim or the name of a "
     "request and a subrequest separated by '/'",
     "spec.devices.constraints[0].requests"),
    # line 12 "    - matchAttribute: model": 4 + "- matchAttribute: " -> 23
    ("constraint-needs-domain", CLAIM + """    - name: r
      exactly:
        deviceClassName: gpu
    constraints:
    - matchAttribute: model
""", 12, 23, "\"model\" must include a domain",
     "spec.devices.constraints[0].matchAttribute"),
    # line 12 "  - name: gpu" of resourceClaims, item at column 5
    ("pod-claim-two-sources", POD.replace(
        "    resourceClaimTemplateName: one-gpu\n",
        "    resourceClaimTemplateName: one-gpu\n    resourceClaimName: x\n"),
     12, 5, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`",
     "spec.resourceClaims[0]"),
    # line 10 "      - name: gpu" of the container, the claim item at column 9
    ("container-claim-unknown", POD.replace("  - name: gpu\n    resourceClaimTemplate",
                                            "  - name: tpu\n    resourceClaimTemplate"),
     10, 9, "must be one of the pod's resourceClaims (\"gpu\" is not)",
     "spec.containers[0].resources.claims[0]"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_refusals(tmp_path, case):
    _, text, line, col, msg, field = case
    path = tmp_path / "m.yaml"
    path.write_text(text)
    p = run("validate", path)
    assert p.returncode == 1, p.stdout
    assert p.stderr == f"{path}:{line}:{col}: {msg} ({field})\n"


def test_unknown_field_and_dropped_field_warnings(tmp_path):
    # a typo is named (fields.c); a field of a gate v1.34 has off is dropped
    # as the API server drops it
    path = tmp_path / "m.yaml"
    path.write_text(SLICE + """  nodeName: n1
  devices:
  - name: d0
    attribute:
      model: {string: a}
    taints:
    - {key: k, effect: NoSchedule}
""")
    p = run("validate", path)
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert any(l.startswith(f"{path}:13:5: warning: unknown field \"attribute\"")
               for l in lines), lines
    assert f"{path}:16:5: warning: taints is dropped by kube v1.34's API server " \
        "(feature gate DRADeviceTaints is off) (spec.devices[0].taints)" in lines


PENDING = """apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
  - name: c
  resourceClaims:
  - name: gpu
    resourceClaimName: shared
"""


NODE = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", pods: "10"}}
---
"""


def test_a_pending_pod_with_claims_is_judged_under_1_34(tmp_path):
    # DynamicResources' PreFilter (tests/test_dra_engines.py has the rest):
    # the claim it names does not exist, UnschedulableAndUnresolvable.
    # PreEnqueue keeps such a pod out of the queue (explain picks no pod by
    # itself), but named, its cycle is shown
    path = tmp_path / "p.yaml"
    path.write_text(NODE + PENDING)
    p = run("explain", path, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 1
    assert "no pending pod to explain" in p.stderr
    p = run("explain", path, "--kube-version", "1.34", "--pod", "default/p",
            "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["nodes"]["n1"]["reasons"] == [
        'could not find ResourceClaim "default/shared"']
    assert d["nodes"]["n1"]["rejected_by"] == "DynamicResources"
    # v1.30: DynamicResourceAllocation is off, the API server drops the
    # claims, so the pod is judged as every other
    p = run("explain", path, "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["nodes"]["n1"]["code"] == "Success"


def test_a_second_pending_pod_with_claims_is_judged(tmp_path):
    # each pending pod's cycle reads the claims as loaded; the loop carries
    # Reserve / PreBind's writes from one to the next (test_dra_engines.py)
    path = tmp_path / "p.yaml"
    path.write_text(NODE + PENDING + "---\n" + PENDING.replace("name: p\n",
                                                              "name: q\n"))
    p = run("explain", path, "--kube-version", "1.34", "--pod", "default/q",
            "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["nodes"]["n1"]["reasons"] == [
        'could not find ResourceClaim "default/shared"']
    assert run("validate", path, "--kube-version", "1.34").returncode == 0
    assert run("validate", path).returncode == 0


DEALLOCATABLE = """apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared, namespace: default}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results:
      - {request: gpu, driver: gpu.example.com, pool: n2, device: gpu-0}
    nodeSelector:
      nodeSelectorTerms:
      - matchFields:
        - {key: metadata.name, operator: In, values: [n2]}
---
"""


def test_a_claim_postfilter_deallocates(tmp_path):
    # allocated for n2, reserved for nobody, unavailable on n1: n1 "resourceclaim
    # not available on the node" (UnschedulableAndUnresolvable, the claim
    # recorded unavailable); PostFilter deallocates it; DefaultPreemption
    # finds n1 unresolvable
    path = tmp_path / "p.yaml"
    path.write_text(NODE + DEALLOCATABLE + PENDING)
    p = run("explain", path, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["message"] == (
        "0/1 nodes are available: 1 resourceclaim not available on the node. "
        "deallocation of ResourceClaim completed, preemption: 0/1 nodes are "
        "available: 1 Preemption is not helpful for scheduling.")
    # the node it was allocated for: nothing to deallocate
    path.write_text(NODE.replace("n1", "n2") + DEALLOCATABLE + PENDING)
    p = run("explain", path, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["nodes"]["n2"]["code"] == "Success"


ADMIN_NS = """\
apiVersion: v1
kind: Namespace
metadata: {name: ops%s}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: watch, namespace: ops}
spec:
  devices:
    requests:
    - name: all-gpus
      exactly: {deviceClassName: gpu.example.com, allocationMode: All, adminAccess: true}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: probe, namespace: ops}
spec:
  spec:
    devices:
      requests:
      - name: plain
        exactly: {deviceClassName: gpu.example.com}
      - name: admin
        exactly: {deviceClassName: gpu.example.com, adminAccess: true}
"""


def test_admin_access_outside_a_labelled_namespace_is_a_warning(tmp_path):
    """DRAAdminAccess: the API server admits adminAccess only in a
    namespace labelled resource.kubernetes.io/admin-access: "true", on
    create and update only - a claim may outlive the label, and the
    scheduler takes it as any other.  So: one warning per object, at the
    line its document starts (the claim's apiVersion is line 10, the
    template's line 19, column 1), exit 0; none once the
    label is there."""
    bare = tmp_path / "bare.yaml"
    bare.write_text(ADMIN_NS % "")
    p = run("validate", bare, "--kube-version", "1.34")
    assert p.returncode == 0, p.stderr
    lines = p.stderr.splitlines()
    assert lines == [
        f"{bare}:10:1: warning: ResourceClaim ops/watch asks for admin access, which "
        "requires the `resource.kubernetes.io/admin-access: true` label on the "
        "containing namespace: the API server would refuse creating it now; kso "
        "takes it as it is (spec.devices.requests[0].exactly.adminAccess)",
        f"{bare}:19:1: warning: ResourceClaimTemplate ops/probe asks for admin access, "
        "which requires the `resource.kubernetes.io/admin-access: true` label on the "
        "containing namespace: the API server would refuse creating it now; kso "
        "takes it as it is (spec.spec.devices.requests[1].exactly.adminAccess)"], p.stderr
    labelled = tmp_path / "labelled.yaml"
    labelled.write_text(ADMIN_NS % ", labels: {resource.kubernetes.io/admin-access: \"true\"}")
    p = run("validate", labelled, "--kube-version", "1.34")
    assert (p.returncode, p.stderr) == (0, "")
