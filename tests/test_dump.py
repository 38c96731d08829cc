"""`kso dump`: the loaded, defaulted objects as JSON, and as YAML manifests
that load back to the same objects (round trip JSON == JSON after YAML).
Expected values are worked out from the fixture text in the comments.
KSO names the binary."""
import json
import re
import os
import pathlib
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
KSO = os.environ.get("KSO", str(REPO / "kso"))
LOAD = REPO / "fixtures" / "load"


def run(*args, stdin=None):
    proc = subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=60, input=stdin)
    return proc


def dump(*paths, fmt="json"):
    proc = run("dump", *paths, "-o", fmt)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    return proc.stdout


def by_name(objs, name, ns=None):
    found = [o for o in objs if o["metadata"]["name"] == name and
             (ns is None or o["metadata"].get("namespace") == ns)]
    assert len(found) == 1, (name, ns)
    return found[0]


ROUND_TRIP = ["basic.yaml", "basic-crlf-bom.yaml", "kubectl-list.yaml",
              "rich.yaml", "dir"]


@pytest.mark.parametrize("name", ROUND_TRIP)
def test_round_trip(tmp_path, name):
    first = dump(LOAD / name)
    manifests = tmp_path / "out.yaml"
    manifests.write_text(dump(LOAD / name, fmt="yaml"))
    assert dump(manifests) == first
    # and the YAML itself is a fixed point
    assert dump(manifests, fmt="yaml") == manifests.read_text()


def test_json_shape_and_units():
    out = json.loads(dump(LOAD / "basic.yaml"))
    assert list(out) == ["nodes", "pods", "namespaces", "priorityClasses",
                         "podDisruptionBudgets", "workloads"]
    a = by_name(out["nodes"], "node-a")
    # cpu "4" -> 4000 millicores; memory 8Gi = 8 * 2^30 bytes
    assert a["status"]["allocatable"] == {
        "cpu": "4000m", "memory": "8589934592", "pods": "110",
        "nvidia.com/gpu": "2"}
    web = by_name(out["pods"], "web-1", "team-a")
    c = web["spec"]["containers"][0]
    # requests cpu 250m kept; memory 256Mi = 268435456 copied from limits
    assert c["resources"]["requests"] == {"cpu": "250m",
                                          "memory": "268435456"}
    assert c["resources"]["limits"] == {"cpu": "500m", "memory": "268435456"}
    assert c["ports"] == [{"containerPort": 80, "hostPort": 8080,
                           "protocol": "TCP"}]
    # class high: value 1000, preemptionPolicy Never
    assert web["spec"]["priority"] == 1000
    assert web["spec"]["preemptionPolicy"] == "Never"
    batch = by_name(out["pods"], "batch-1", "default")
    assert batch["spec"]["schedulerName"] == "default-scheduler"
    assert batch["spec"]["priority"] == 0
    assert batch["spec"]["preemptionPolicy"] == "PreemptLowerPriority"
    assert batch["spec"]["tolerations"][0]["operator"] == "Equal"
    # "1.5" cores = 1500m
    assert batch["spec"]["containers"][0]["resources"]["requests"]["cpu"] \
        == "1500m"
    ns = {n["metadata"]["name"]: n for n in out["namespaces"]}
    assert ns["team-a"]["metadata"]["labels"] == {
        "team": "a", "kubernetes.io/metadata.name": "team-a"}
    assert "implicit" not in ns["team-a"]
    assert ns["default"]["implicit"] is True
    assert ns["default"]["metadata"]["labels"] == {
        "kubernetes.io/metadata.name": "default"}


def test_crlf_bom_same_as_plain():
    assert dump(LOAD / "basic-crlf-bom.yaml") == dump(LOAD / "basic.yaml")


def test_kubectl_list():
    """`kubectl get nodes,pods -A -o yaml` output: managedFields,
    annotations, conditions and unread spec/status fields are skipped."""
    out = json.loads(dump(LOAD / "kubectl-list.yaml"))
    assert [n["metadata"]["name"] for n in out["nodes"]] == \
        ["kind-control-plane", "kind-worker"]
    cp = out["nodes"][0]
    # memory 32657248Ki = 32657248 * 1024 = 33441021952 bytes;
    # ephemeral-storage 263174212Ki = 269490393088; hugepages "0" kept
    assert cp["status"]["allocatable"] == {
        "cpu": "8000m", "ephemeral-storage": "269490393088",
        "hugepages-1Gi": "0", "hugepages-2Mi": "0",
        "memory": "33441021952", "pods": "110"}
    assert cp["spec"]["taints"] == [
        {"key": "node-role.kubernetes.io/control-plane",
         "effect": "NoSchedule"}]
    # Ready is the second condition, status "True"
    assert cp["status"]["conditions"] == [{"type": "Ready", "status": "True"}]
    assert "annotations" not in cp["metadata"]
    assert cp["status"]["images"][0] == {
        "names": ["registry.k8s.io/etcd:3.5.12-0"], "sizeBytes": 57236178}
    # the Succeeded pod migrate-db-5xq2r is dropped
    assert [p["metadata"]["name"] for p in out["pods"]] == \
        ["etcd-kind-control-plane", "web-7c5ddbdf54-x2k9p"]
    etcd = out["pods"][0]
    assert etcd["metadata"]["namespace"] == "kube-system"
    # system-node-critical exists in every cluster: 2000001000
    assert etcd["spec"]["priorityClassName"] == "system-node-critical"
    assert etcd["spec"]["priority"] == 2000001000
    assert etcd["spec"]["nodeName"] == "kind-control-plane"
    assert etcd["status"] == {"phase": "Running",
                              "startTime": "2024-05-01T09:58:16Z"}
    assert etcd["spec"]["tolerations"] == [{"operator": "Exists",
                                            "effect": "NoExecute"}]
    web = out["pods"][1]
    assert web["metadata"]["ownerReferences"] == [
        {"apiVersion": "apps/v1", "kind": "ReplicaSet",
         "name": "web-7c5ddbdf54", "controller": True}]
    assert web["metadata"]["creationTimestamp"] == "2024-05-01T10:01:00Z"
    assert "nodeName" not in web["spec"]
    # kube-system and default, both only named by pods
    assert [(n["metadata"]["name"], n.get("implicit")) for n in
            out["namespaces"]] == [("kube-system", True), ("default", True)]


def test_rich_fields():
    out = json.loads(dump(LOAD / "rich.yaml"))
    pod = by_name(out["pods"], "checkout-0", "shop")
    spec = pod["spec"]
    # overhead cpu 0.0005 = 500000 nanocores (not a whole millicore);
    # memory "1e3" = 1000 bytes
    assert spec["overhead"] == {"cpu": "500000n", "memory": "1000"}
    # 1500001n = 1.500001 cores, 1.5Gi = 1610612736 bytes
    assert spec["containers"][0]["resources"]["requests"] == {
        "cpu": "1500001n", "memory": "1610612736", "example.com/fpga": "1"}
    # the sidecar's limits become its requests
    proxy = spec["initContainers"][1]
    assert proxy["restartPolicy"] == "Always"
    assert proxy["resources"]["requests"] == {"cpu": "1000m",
                                              "memory": "67108864"}
    # spread defaults written out; minDomains 2 kept, 1 omitted
    s0, s1 = spec["topologySpreadConstraints"]
    assert (s0["minDomains"], s0["nodeAffinityPolicy"],
            s0["nodeTaintsPolicy"]) == (2, "Honor", "Honor")
    assert "minDomains" not in s1
    assert (s1["nodeAffinityPolicy"], s1["nodeTaintsPolicy"]) == \
        ("Ignore", "Ignore")
    # deletionTimestamp with a fraction: whole seconds
    assert pod["metadata"]["deletionTimestamp"] == "2024-05-01T11:00:00Z"
    # the pod without a class gets the globalDefault class batch-default
    report = by_name(out["pods"], "report", "jobs")
    assert report["spec"]["priorityClassName"] == "batch-default"
    assert report["spec"]["priority"] == 100
    node = out["nodes"][0]
    # cpu 3.5 -> 3500m; 7.5Gi = 8053063680; 100G = 100000000000
    assert node["status"]["allocatable"] == {
        "cpu": "3500m", "memory": "8053063680",
        "ephemeral-storage": "100000000000", "pods": "20",
        "example.com/fpga": "1"}
    assert node["spec"]["unschedulable"] is True
    pdb = by_name(out["podDisruptionBudgets"], "checkout", "shop")
    assert pdb["spec"]["maxUnavailable"] == 1
    assert pdb["status"]["disruptionsAllowed"] == 0
    assert list(pdb["status"]["disruptedPods"]) == ["checkout-1"]
    empty = by_name(out["podDisruptionBudgets"], "empty", "shop")
    assert empty["spec"] == {"minAvailable": "0%"}
    kinds = [(w["kind"], w["metadata"]["name"]) for w in out["workloads"]]
    assert kinds == [("Service", "checkout"), ("Service", "external"),
                     ("ReplicationController", "legacy"),
                     ("ReplicaSet", "web-abc"), ("StatefulSet", "checkout")]
    assert "selector" not in by_name(out["workloads"], "external")["spec"]


def test_yaml_quotes_strings(tmp_path):
    """Values YAML would read as other types stay strings."""
    text = dump(LOAD / "rich.yaml", fmt="yaml")
    assert '    "on": "null"\n' in text
    assert '    env: "true"\n' in text
    assert '    weird: "0x10"\n' in text
    out = json.loads(dump(LOAD / "rich.yaml"))
    labels = by_name(out["nodes"], "node-1")["metadata"]["labels"]
    assert labels["on"] == "null" and labels["gen"] == "5"


def test_directory_order():
    """fixtures/load/dir: 10-nodes.yaml, 2-pods.yml, README.txt (skipped),
    sub/pod.json, in strcmp order; pods in that order."""
    out = json.loads(dump(LOAD / "dir"))
    assert [n["metadata"]["name"] for n in out["nodes"]] == ["dir-node"]
    assert [p["metadata"]["name"] for p in out["pods"]] == \
        ["from-yml", "from-json"]


def test_stdin_and_files_mix():
    text = (LOAD / "basic.yaml").read_text()
    proc = run("dump", "-", LOAD / "dir", "-o", "json", stdin=text)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert len(out["nodes"]) == 3


def test_dump_error():
    proc = run("dump", LOAD / "basic.yaml", LOAD / "basic-crlf-bom.yaml")
    # node-a is defined in both: the second definition (line 5 of the BOM
    # file, "  name: node-a" at column 9) is refused
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr == (
        f"{LOAD / 'basic-crlf-bom.yaml'}:5:9: duplicate Node node-a (first "
        f"defined at {LOAD / 'basic.yaml'}:2) (metadata.name)\n")


@pytest.mark.parametrize("args", [[], ["-o", "xml", "x.yaml"],
                                  ["--frob", "x.yaml"]])
def test_usage(args):
    proc = run("dump", *args)
    assert proc.returncode == 2
    assert "usage: kso dump" in proc.stderr


def warnings(stderr):
    """The warnings' texts without file, position and field path."""
    return {re.sub(r" \([^()]*\)$", "", line.split(": warning: ", 1)[1])
            for line in stderr.splitlines() if ": warning: " in line}


def test_dump_json_reads_back_to_the_same_dump(tmp_path):
    # every fixture kso loads: `kso dump -o json` read back (its groups of
    # manifests, implicit namespaces implied again) dumps the same bytes;
    # -o yaml likewise
    import glob
    fixtures = sorted(glob.glob(str(REPO / "fixtures" / "*" / "*.yaml")))
    checked = 0
    for f in fixtures:
        for fmt in ("json", "yaml"):
            first = subprocess.run([KSO, "dump", f, "-o", fmt],
                                   capture_output=True, text=True, timeout=60)
            if first.returncode != 0:
                continue
            back = tmp_path / ("d." + fmt)
            back.write_text(first.stdout)
            second = subprocess.run([KSO, "dump", str(back), "-o", fmt],
                                    capture_output=True, text=True, timeout=60)
            assert second.returncode == 0, (f, second.stderr)
            assert second.stdout == first.stdout, (f, fmt)
            # read back, a dump warns of nothing its input did not
            assert warnings(second.stderr) <= warnings(first.stderr), \
                (f, second.stderr)
            checked += 1
    assert checked >= 200
