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
        # RunPreScorePlugins wraps NewPreferredSchedulingTerms' error, whose
        # path starts at the term's index ([0], no "preference") and names
        # the value ([0]); "x" is a label value, so only ParseInt fails
        'running PreScore plugin "NodeAffinity": [0].matchExpressions[0].'
        'values[0]: Invalid value: "x": for \'Gt\', \'Lt\' operators, the '
        'value must be an integer')


LABEL_RULE = (
    "a valid label must be an empty string or consist of alphanumeric "
    "characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
    "regex used for validation is "
    "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')")


PODS = """apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: nginx}]
  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 5
        preference: {}
      - weight: 10
        preference:
          matchExpressions:
%s
"""


def prescore_message(tmp_path, engine, exprs):
    f = tmp_path / "c.yaml"
    f.write_text(PODS % exprs)
    r = run_kso("explain", f, "--pod", "default/p", "--engine", engine,
                "-o", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["code"] == "Error"
    return doc["message"]


# labels.NewRequirement (apimachinery, v1.30.12 and v1.34.1) under
# nodeaffinity.NewPreferredSchedulingTerms: the path starts at the term's
# index in the whole list (term 0 is empty: skipped, still counted), with
# no "preference"; first each Gt/Lt value strconv.ParseInt refuses
# (values[k]), then each value that is no label value (values[k][KEY]);
# several errors make utilerrors' aggregate "[e1, e2]".  RunPreScorePlugins
# wraps it: 'running PreScore plugin "NodeAffinity": '.
@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_prescore_error_lists_every_unparsable_value(tmp_path, engine):
    msg = prescore_message(
        tmp_path, engine,
        '          - {key: gen, operator: Gt, values: ["x"]}\n'
        '          - {key: zone, operator: In, values: ["a"]}\n'
        '          - {key: gen, operator: Lt, values: ["1.5"]}')
    assert msg == (
        'running PreScore plugin "NodeAffinity": ['
        "[1].matchExpressions[0].values[0]: Invalid value: \"x\": for "
        "'Gt', 'Lt' operators, the value must be an integer, "
        "[1].matchExpressions[2].values[0]: Invalid value: \"1.5\": for "
        "'Gt', 'Lt' operators, the value must be an integer]")


@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_prescore_error_names_the_label_key(tmp_path, engine):
    msg = prescore_message(
        tmp_path, engine,
        '          - {key: zone, operator: In, values: ["ok", "a b"]}')
    assert msg == (
        'running PreScore plugin "NodeAffinity": '
        '[1].matchExpressions[0].values[1][zone]: Invalid value: "a b": '
        + LABEL_RULE)
