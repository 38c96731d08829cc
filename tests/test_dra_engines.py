"""DynamicResources for pods with claims under kube v1.34 (issue 35), in
both engines: each fixture under fixtures/dra/ has a header working out
kube v1.34.1's answer by hand (dynamicresources.go's PreFilter, Filter and
PostFilter, the structured allocator); here each is run through
`kso explain --kube-version 1.34` by the model and the oracle, the two
outputs byte-identical and the values the header's.  `kso schedule`
agrees likewise.  What kso declines to judge is refused at load, exit 3.
"""
import json

import pytest

from conftest import FIXTURES, fixture_path, run_kso

ENGINES = ["oracle", "model"]
DRA = "DynamicResources"
UAU = "UnschedulableAndUnresolvable"
NO_ALLOC = "cannot allocate all claims"
NOT_HERE = "resourceclaim not available on the node"
NEVER = "preemption: not eligible due to preemptionPolicy=Never."


def explain(fixture, pod, engine):
    p = run_kso("explain", fixture_path("dra/" + fixture), "--pod", pod,
                "--engine", engine, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def verdicts(d):
    return {n: (v["code"], v["rejected_by"], v["reasons"])
            for n, v in d["nodes"].items()}


OK = ("Success", "", [])


def dra_fail(reason):
    return (UAU, DRA, [reason])


@pytest.mark.parametrize("engine", ENGINES)
def test_one_gpu_from_a_template(engine):
    d = explain("gpu-from-template.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK,
                           "n3": dra_fail(NO_ALLOC)}
    assert d["viable"] == ["n2"]
    assert d["code"] == "Success" and d["message"] == ""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shared_claim(engine):
    d = explain("shared-claim.yaml", "default/b", engine)
    assert verdicts(d) == {"n1": dra_fail(NOT_HERE), "n2": OK}
    assert d["viable"] == ["n2"]
    d = explain("shared-claim-cpu.yaml", "default/c", engine)
    assert verdicts(d) == {
        "n1": dra_fail(NOT_HERE),
        "n2": ("Unschedulable", "NodeResourcesFit", ["Insufficient cpu"])}
    assert d["code"] == "Unschedulable"
    assert d["message"] == (
        "0/2 nodes are available: 1 Insufficient cpu, 1 " + NOT_HERE +
        ". still not schedulable, " + NEVER)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_class_selecting_on_a_driver_attribute(engine):
    d = explain("class-selector.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK}
    assert d["viable"] == ["n2"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_prioritized_list(engine):
    d = explain("first-available.yaml", "default/p", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": OK, "n3": OK}
    assert sorted(d["viable"]) == ["n2", "n3"]


@pytest.mark.parametrize("engine", ENGINES)
def test_waiting_for_a_device_another_pod_holds(engine):
    d = explain("waiting.yaml", "default/b", engine)
    assert verdicts(d) == {"n1": dra_fail(NO_ALLOC), "n2": dra_fail(NO_ALLOC)}
    assert d["code"] == "Unschedulable"
    assert d["message"] == ("0/2 nodes are available: 2 " + NO_ALLOC +
                            ". still not schedulable, " + NEVER)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_missing_device_class_rejects_at_prefilter(engine):
    d = explain("missing-class.yaml", "default/p", engine)
    why = "request gpu: device class gpu.example.com does not exist"
    assert verdicts(d) == {"n1": dra_fail(why), "n2": dra_fail(why)}
    assert d["message"] == (
        "0/2 nodes are available: " + why + ". no new claims to deallocate, "
        "preemption: 0/2 nodes are available: 2 Preemption is not helpful "
        "for scheduling.")


DRA_FILES = sorted((FIXTURES / "dra").glob("*.yaml"))


def pending(path):
    p = run_kso("dump", path, "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    return ["%s/%s" % (q["metadata"].get("namespace", "default"),
                       q["metadata"]["name"])
            for q in json.loads(p.stdout)["pods"]
            if not q.get("spec", {}).get("nodeName")]


@pytest.mark.parametrize("path", DRA_FILES, ids=lambda p: p.name)
def test_engines_identical_under_1_34(path):
    assert pending(path)
    for pod in pending(path):
        out = [run_kso("explain", path, "--pod", pod, "--engine", e,
                       "--kube-version", "1.34", "-o", "json")
               for e in ENGINES]
        assert out[0].returncode == out[1].returncode == 0
        assert out[0].stdout == out[1].stdout
    out = [run_kso("schedule", path, "--engine", e, "--kube-version", "1.34",
                   "-o", "json") for e in ENGINES]
    assert out[0].returncode == out[1].returncode
    assert out[0].returncode in (0, 1), out[0].stderr
    assert out[0].stdout == out[1].stdout


def test_the_schedule_run_places_the_pod_with_claims():
    p = run_kso("schedule", fixture_path("dra/gpu-from-template.yaml"),
                "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    steps = json.loads(p.stdout)["steps"]
    assert [(s["pod"], s.get("node")) for s in steps] == [("default/p", "n2")]
