"""Fidelity of KubeSchedulerConfiguration handling against kube-scheduler
v1.30.12 (and v1.34.1 where the code path is the same), from an
adversarial audit of the configurations real users pass.

Every expected value is worked out by hand below from the Kubernetes
source cited (v1.30: kubernetes-sigs/scheduler-plugins release-1.30,
vendor/k8s.io/kubernetes/pkg/scheduler/...; v1.34.1: cluster-capacity's
vendor tree); none is taken from kso's output.
"""
import json

import pytest

from conftest import run_kso

CONFIG_HEAD = ("apiVersion: kubescheduler.config.k8s.io/v1\n"
               "kind: KubeSchedulerConfiguration\n")
VERSIONS = ["1.30", "1.34"]


def node_yaml(name, cpu, mem):
    return (f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n"
            f"status:\n  allocatable: {{cpu: \"{cpu}\", memory: {mem}, "
            f"pods: \"110\"}}\n")


POD_1CPU = """apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: default
spec:
  containers:
  - name: c
    image: x
    resources:
      requests: {cpu: "1", memory: 1Gi}
"""


# ------------------------------------------- percentageOfNodesToScore


def two_hundred_nodes(tmp_path):
    """200 nodes n000..n199 without zone labels, so the node tree lists
    them in file order and the first cycle starts at index 0.  Every node
    has 4 cpu / 4Gi except n050 (6 / 6Gi) and n150 (8 / 8Gi); the pod asks
    1 cpu / 1Gi and fits everywhere.

    Scores (reference §1.6): NodeResourcesFit LeastAllocated, cpu and
    memory weight 1: 4-cpu nodes (3000*100/4000 + 3Gi*100/4Gi)/2 = 75,
    n050 (5000*100/6000 = 83, 83) = 83, n150 (7000*100/8000 = 87, 87) =
    87; BalancedAllocation 100 everywhere (cpu and memory fractions
    equal); TaintToleration 100 x3 everywhere; the others skip or give 0.
    So among the nodes examined the one with the most cpu wins."""
    docs = []
    for i in range(200):
        cpu, mem = "4", "4Gi"
        if i == 50:
            cpu, mem = "6", "6Gi"
        if i == 150:
            cpu, mem = "8", "8Gi"
        docs.append(node_yaml(f"n{i:03d}", cpu, mem))
    docs.append(POD_1CPU)
    path = tmp_path / "cluster.yaml"
    path.write_text("---\n".join(docs))
    return path


def bound_node(cluster, config, version):
    p = run_kso("schedule", cluster, "--config", config, "--kube-version",
                version, "--engine", "oracle", "-o", "json")
    assert p.returncode == 0, p.stderr
    steps = json.loads(p.stdout)["steps"]
    assert [(s["pod"], s["action"]) for s in steps] == [("default/p", "bind")]
    return steps[0]["node"]


@pytest.mark.parametrize("version", VERSIONS)
def test_profile_percentage_zero_is_adaptive_under_a_global_value(tmp_path,
                                                                  version):
    # numFeasibleNodesToFind (schedule_one.go, the same in v1.30.12 and
    # v1.34.1) takes the profile's percentageOfNodesToScore whenever the
    # pointer is set - an explicit 0 included - and only then treats 0 as
    # adaptive: pct = 50 - 200/125 = 49, 200*49/100 = 98 < 100 -> 100
    # nodes, n000..n099: n050 (83) is the best of them, n150 is never
    # examined.  Under the global 90 alone: 200*90/100 = 180 nodes,
    # n000..n179, and n150 (87) wins.  kso took a profile's 0 for "unset"
    # and used the global 90 (n150).
    cluster = two_hundred_nodes(tmp_path)
    explicit = tmp_path / "explicit.yaml"
    explicit.write_text(CONFIG_HEAD + "percentageOfNodesToScore: 90\n"
                        "profiles:\n- schedulerName: default-scheduler\n"
                        "  percentageOfNodesToScore: 0\n")
    unset = tmp_path / "unset.yaml"
    unset.write_text(CONFIG_HEAD + "percentageOfNodesToScore: 90\n"
                     "profiles:\n- schedulerName: default-scheduler\n")
    assert bound_node(cluster, explicit, version) == "n050"
    assert bound_node(cluster, unset, version) == "n150"


@pytest.mark.parametrize("version", VERSIONS)
def test_percentage_out_of_range_has_kubes_text(tmp_path, version):
    # validatePercentageOfNodesToScore (validation.go, v1.30.12 and
    # v1.34.1): field.Invalid(path, v, "not in valid range [0-100]") - a
    # dash, unlike the plugin args' "[0, 100]".  Line 3 col 27 is the
    # value of "percentageOfNodesToScore: -1".
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(CONFIG_HEAD + "percentageOfNodesToScore: -1\n")
    p = run_kso("validate", two_hundred_nodes(tmp_path), "--config", cfg,
                "--kube-version", version)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == (f"{cfg}:3:27: not in valid range [0-100] "
                        "(percentageOfNodesToScore)\n")
