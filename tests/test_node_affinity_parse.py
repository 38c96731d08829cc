"""
test_node_affinity_parse.py - node selector values that pass API
validation but not the scheduler's parser (reference §2.5,
fixtures/edge/node-affinity-unparsable.yaml): kso loads them as the API
server would, and both engines give kube's answer.
"""
import json

import pytest

from conftest import FIXTURES, run_kso

FIXTURE = FIXTURES / "edge" / "node-affinity-unparsable.yaml"
NA = "node(s) didn't match Pod's node affinity/selector"


def explain(pod, engine):
    r = run_kso("explain", FIXTURE, "--pod", "default/" + pod,
                "--engine", engine, "-o", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def test_loads():
    r = run_kso("validate", FIXTURE)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_unparsable_term_never_matches_but_others_do(engine):
    doc = explain("or-terms", engine)
    assert doc["viable"] == ["n1"]
    assert doc["nodes"]["n1"]["feasible"] is True
    for n in ("n2", "n3"):
        assert doc["nodes"][n]["rejected_by"] == "NodeAffinity"
        assert doc["nodes"][n]["reasons"] == [NA]


@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_unparsable_not_in_matches_nothing(engine):
    doc = explain("not-in", engine)
    assert doc["viable"] == []
    assert doc["message"].startswith("0/3 nodes are available: 3 " + NA + ".")


@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_unparsable_preferred_term_fails_prescore(engine):
    doc = explain("preferred", engine)
    assert doc["viable"] == []
    assert doc["scored"] is False
    assert all(doc["nodes"][n]["feasible"] for n in ("n1", "n2", "n3"))
    assert all(doc["nodes"][n]["total"] == 0 for n in ("n1", "n2", "n3"))
    assert doc["message"] == (
        "spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuring"
        'Execution[0].preference.matchExpressions[0].values: Invalid value: '
        '"x": must be an integer')
