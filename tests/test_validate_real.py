"""
test_validate_real.py - `kso validate --strict` on objects as a v1.34.1
API server returns them (tests/realcluster.py), carrying every field of
k8s.io/api core/v1 PodSpec, Container and PodStatus and of storage/v1
CSIDriverSpec in v1.34.1 - the alpha ones too (restartPolicyRules,
hostnameOverride, nodeAllocatableUpdatePeriodSeconds), which a cluster
with their feature gates on stores: --strict makes an unknown field an
error, so a field kso's tables (yaml/fields.c) lack fails a real dump.
The answer is the summary line: one node, one pod bound to it, its
namespace.
"""
import json
import os
import subprocess

import realcluster as R

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))


def rich_pod():
    c = R.container("app", cpu="100m", memory="64Mi", ports=[
        {"containerPort": 80, "name": "http", "protocol": "TCP"}])
    c.update({
        "command": ["/bin/sh"], "args": ["-c", "sleep 1"], "workingDir": "/",
        "envFrom": [{"configMapRef": {"name": "cfg"}}],
        "env": [{"name": "A", "value": "1"},
                {"name": "POD", "valueFrom": {"fieldRef": {
                    "apiVersion": "v1", "fieldPath": "metadata.name"}}}],
        "resizePolicy": [{"resourceName": "cpu",
                          "restartPolicy": "NotRequired"}],
        "volumeDevices": [],
        "livenessProbe": {"httpGet": {"path": "/", "port": 80,
                                      "scheme": "HTTP"},
                          "failureThreshold": 3, "periodSeconds": 10,
                          "successThreshold": 1, "timeoutSeconds": 1},
        "readinessProbe": {"tcpSocket": {"port": 80}, "periodSeconds": 10},
        "startupProbe": {"exec": {"command": ["true"]}, "periodSeconds": 10},
        "lifecycle": {"preStop": {"sleep": {"seconds": 5}}},
        "securityContext": {"allowPrivilegeEscalation": False,
                            "capabilities": {"drop": ["ALL"]},
                            "runAsNonRoot": True,
                            "seccompProfile": {"type": "RuntimeDefault"}},
        "stdin": False, "stdinOnce": False, "tty": False})
    sidecar = R.container("sidecar", cpu="50m", restart_policy="Always")
    sidecar["restartPolicyRules"] = [{"action": "Restart", "exitCodes": {
        "operator": "In", "values": [42]}}]
    p = R.pod(
        "rich", [c], node_name="n1", init_containers=[sidecar],
        activeDeadlineSeconds=600, automountServiceAccountToken=True,
        hostPID=False, hostIPC=False, shareProcessNamespace=False,
        securityContext={"fsGroup": 2000, "runAsUser": 1000,
                         "supplementalGroupsPolicy": "Merge"},
        imagePullSecrets=[{"name": "regcred"}], hostname="rich",
        subdomain="svc", hostAliases=[{"ip": "10.0.0.1",
                                       "hostnames": ["foo"]}],
        dnsConfig={"options": [{"name": "ndots", "value": "2"}]},
        readinessGates=[{"conditionType": "example.com/ready"}],
        runtimeClassName="runc", setHostnameAsFQDN=False,
        os={"name": "linux"}, hostUsers=True, hostnameOverride="rich-host",
        topologySpreadConstraints=[{
            "maxSkew": 1, "topologyKey": "kubernetes.io/hostname",
            "whenUnsatisfiable": "ScheduleAnyway",
            "labelSelector": {"matchLabels": {"app": "rich"}},
            "matchLabelKeys": ["pod-template-hash"],
            "nodeAffinityPolicy": "Honor", "nodeTaintsPolicy": "Ignore"}],
        ephemeralContainers=[{"name": "debugger", "image": "busybox",
                              "targetContainerName": "app", "stdin": True,
                              "tty": True}])
    p["metadata"].update({"generation": 1, "finalizers": ["example.com/f"]})
    p["status"].update({"observedGeneration": 1,
                        "ephemeralContainerStatuses": []})
    return p


def test_every_v134_field_passes_strict(tmp_path):
    n = R.node("n1", cpu="4")
    n["status"]["volumesInUse"] = ["kubernetes.io/csi/ebs.csi.aws.com^vol-1"]
    n["status"]["volumesAttached"] = [{
        "name": "kubernetes.io/csi/ebs.csi.aws.com^vol-1", "devicePath": ""}]
    driver = {"apiVersion": "storage.k8s.io/v1", "kind": "CSIDriver",
              "metadata": {"name": "ebs.csi.aws.com"},
              "spec": {"attachRequired": True, "podInfoOnMount": False,
                       "volumeLifecycleModes": ["Persistent"],
                       "storageCapacity": False, "fsGroupPolicy": "File",
                       "requiresRepublish": False, "seLinuxMount": False,
                       "nodeAllocatableUpdatePeriodSeconds": 60}}
    f = tmp_path / "dump.json"
    f.write_text(json.dumps(R.pod_list([n, rich_pod(), driver]), indent=4))
    for version in ("1.34", "1.30"):
        p = subprocess.run([KSO, "validate", "--strict", "--no-admission",
                            "--kube-version", version, str(f)],
                           capture_output=True, text=True, timeout=60)
        assert (p.returncode, p.stderr) == (0, "")
        assert p.stdout.startswith("ok: 1 nodes, 1 pods (1 bound, 0 pending), "
                                   "1 namespaces")
