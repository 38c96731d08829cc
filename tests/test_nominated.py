"""
test_nominated.py - which pending pods are nominated pods (reference §1.5,
kube's nominator): only those in the scheduler's own queue.

The manifest is fixtures/preemption/nominated-outside-queue.yaml; both engines
must give the hand-derived answer.
"""
import json
import pathlib

import pytest

from conftest import check, run_kso

# A pending pod is a nominated pod only if it is in the scheduler's own
# queue: its schedulerName names a profile (responsibleForPod) and its
# PreEnqueue plugins let it in (PriorityQueue.Add returns before
# AddNominatedPod for a gated pod).
NOMINATED_OUTSIDE_QUEUE = (pathlib.Path(__file__).parent.parent / "fixtures" / "preemption"
                           / "nominated-outside-queue.yaml").read_text()


def explain_text(tmp_path, text, pod, engine):
    path = tmp_path / "case.yaml"
    path.write_text(text)
    r = run_kso("explain", path, "--pod", pod, "--engine", engine, "-o", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


ENGINES = ["model", "oracle"]


@pytest.mark.parametrize("engine", ENGINES)
def test_nominated_outside_queue(tmp_path, engine):
    # n1: "foreign" (other scheduler) and "gated" are not nominated pods,
    # so incoming's 1000m fits n1's 2000m.  n2: "queued" (priority 100 >=
    # 0) is added in pass 1: 1500m + 1000m > 2000m -> "Insufficient cpu".
    out = explain_text(tmp_path, NOMINATED_OUTSIDE_QUEUE, "default/incoming",
                       engine)
    check(out, dict(pod="default/incoming", feasible={"n1"},
                    rejected={"n2": ("NodeResourcesFit", ["Insufficient cpu"])},
                    viable={"n1"}))


@pytest.mark.parametrize("version", ["1.30", "1.34"])
@pytest.mark.parametrize("engine", ENGINES)
def test_a_cycle_error_clears_the_nomination(engine, version):
    """fixtures/edge/error-clears-nomination.yaml (its header): urgent,
    nominated to n1, fails n1 (Insufficient cpu), fits n2 and n3, and
    NodeAffinity's PreScore cannot parse its preferred Lt "x": an Error,
    not a FitError, so kube's schedulingCycle clears the nomination
    (clearNominatedNode) in both releases; the pod stays pending."""
    path = (pathlib.Path(__file__).parent.parent / "fixtures" / "edge"
            / "error-clears-nomination.yaml")
    r = run_kso("schedule", path, "--engine", engine, "--kube-version",
                version, "-o", "json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    first = out["steps"][0]
    assert (first["pod"], first["action"], first["node"]) == (
        "default/urgent", "unschedulable", None)
    assert first["message"] == (
        # RunPreScorePlugins wraps NewPreferredSchedulingTerms' error, whose
        # path starts at the term's index ([0], no "preference") and names
        # the value ([0]); "x" is a label value, so only ParseInt fails
        'running PreScore plugin "NodeAffinity": [0].matchExpressions[0].'
        'values[0]: Invalid value: "x": for \'Gt\', \'Lt\' operators, the '
        'value must be an integer')
    assert out["final"]["default/urgent"] is None
    r = run_kso("schedule", path, "--engine", engine, "--kube-version",
                version, "-o", "yaml")
    assert r.returncode == 0, r.stderr
    assert "nominatedNodeName" not in r.stdout
