"""
test_capacity.py - `kso capacity` (issue 38): how many more copies of a
pod fit, placed one at a time by the scheduler loop, and kube's FitError
message for the one that does not.  Every count and message is worked
out by hand in the fixtures' headers (fixtures/capacity/); both engines
must give them.
"""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
ENGINES = ["oracle", "model"]


def fx(name):
    return os.path.join(ROOT, "fixtures", "capacity", name)


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=120)


def capacity(cluster, podspec, *more, engine="oracle"):
    p = kso("capacity", fx(cluster), "--podspec", fx(podspec), "--engine",
            engine, "-o", "json", *more)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_a_node_six_in_all(engine):
    d = capacity("three-nodes.yaml", "web.yaml", engine=engine)
    assert d["copies"] == 6
    assert d["nodes"] == {"n1": 2, "n2": 2, "n3": 2}
    assert [x["pod"] for x in d["placed"]] == [
        "default/web-%d" % i for i in range(6)]
    assert d["stop"] == {"reason": "Unschedulable", "pod": "default/web-6",
                         "message": "0/3 nodes are available: 3 "
                                    "Insufficient cpu."}
    assert d["preemption"] is False and d["max"] is None


@pytest.mark.parametrize("engine", ENGINES)
def test_spread_over_zones_max_skew_1(engine):
    d = capacity("three-nodes.yaml", "web-spread.yaml", engine=engine)
    assert d["copies"] == 5
    assert d["nodes"]["n1"] == 2
    assert sorted([d["nodes"]["n2"], d["nodes"]["n3"]]) == [1, 2]
    assert d["stop"]["pod"] == "default/web-5"
    assert d["stop"]["message"] == (
        "0/3 nodes are available: 1 node(s) didn't match pod topology "
        "spread constraints, 2 Insufficient cpu.")


@pytest.mark.parametrize("engine", ENGINES)
def test_anti_affinity_by_hostname_one_a_node(engine):
    d = capacity("three-nodes.yaml", "web-anti.yaml", engine=engine)
    assert d["copies"] == 3
    assert d["nodes"] == {"n1": 1, "n2": 1, "n3": 1}
    assert d["stop"]["message"] == ("0/3 nodes are available: 3 node(s) "
                                    "didn't match pod anti-affinity rules.")


def test_max_stops_the_run():
    d = capacity("three-nodes.yaml", "web.yaml", "--max", "4")
    assert d["copies"] == 4 and d["max"] == 4
    assert d["stop"] == {"reason": "LimitReached", "pod": None,
                         "message": None}
    t = kso("capacity", fx("three-nodes.yaml"), "--podspec", fx("web.yaml"),
            "--max", "4").stdout
    assert t.splitlines()[-1] == "stopped: --max 4 reached"


@pytest.mark.parametrize("engine", ENGINES)
def test_preemption_off_by_default_and_on_asked(engine):
    d = capacity("busy-node.yaml", "high-priority.yaml", engine=engine)
    assert d["copies"] == 0 and d["placed"] == []
    assert d["stop"]["message"] == ("0/1 nodes are available: 1 "
                                    "Insufficient cpu.")
    assert d["pending_left_out"] == 1       # the pod "waiting"
    d = capacity("busy-node.yaml", "high-priority.yaml", "--preemption",
                 engine=engine)
    assert d["copies"] == 2
    victims = [v for x in d["placed"] for v in x["victims"]]
    assert sorted(victims) == ["default/low-a", "default/low-b"]
    assert [len(x["victims"]) for x in d["placed"]] == [1, 1]
    assert d["stop"]["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 "
        "nodes are available: 1 No preemption victims found for incoming "
        "pod.")


def test_a_controller_as_the_template():
    d = capacity("three-nodes.yaml", "web-deployment.yaml")
    assert d["copies"] == 6
    # copies named as the Deployment's ReplicaSet names its pods
    rs = d["template"].split("/")[1].rsplit("-", 1)[0]
    assert rs.startswith("web-")
    assert d["placed"][0]["pod"] == "default/%s-0" % rs


def test_table():
    p = kso("capacity", fx("three-nodes.yaml"), "--podspec", fx("web.yaml"))
    assert p.returncode == 0, p.stderr
    assert p.stdout == (
        "6 more copies of default/web fit (web-0 ... web-5), placed one at "
        "a time\n"
        "NODE  COPIES\n"
        "n1    2\n"
        "n2    2\n"
        "n3    2\n"
        "default/web-6 does not fit: 0/3 nodes are available: 3 "
        "Insufficient cpu.\n")


@pytest.mark.parametrize("args,err", [
    ([], "--podspec FILE names the pod to copy"),
    (["--podspec", "x.yaml", "--max", "0"], "--max takes a number"),
])
def test_usage(args, err):
    p = kso("capacity", fx("three-nodes.yaml"), *args)
    assert p.returncode == 2 and err in p.stderr


def test_a_file_without_a_pod(tmp_path):
    f = tmp_path / "none.yaml"
    f.write_text("apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n")
    p = kso("capacity", fx("three-nodes.yaml"), "--podspec", f)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith(str(f) + ": no Pod")


def test_a_statefulset_names_the_copies_as_it_names_its_pods():
    d = capacity("three-nodes.yaml", "db-statefulset.yaml")
    assert d["copies"] == 6 and d["template"] == "default/db-0"
    assert [x["pod"] for x in d["placed"]] == ["default/db-%d" % i
                                               for i in range(6)]
    assert d["stop"]["pod"] == "default/db-6"
    t = kso("capacity", fx("three-nodes.yaml"), "--podspec",
            fx("db-statefulset.yaml")).stdout
    assert t.splitlines()[0] == ("6 more copies of StatefulSet default/db's "
                                 "pod fit (db-0 ... db-5), placed one at a "
                                 "time")


def test_a_copy_named_as_a_pod_of_the_cluster_is_refused(tmp_path):
    f = tmp_path / "c.yaml"
    f.write_text((open(fx("three-nodes.yaml")).read()) +
                 "---\napiVersion: v1\nkind: Pod\nmetadata: {name: web-2}\n"
                 "spec: {nodeName: n1, containers: [{name: c, image: x}]}\n")
    p = kso("capacity", f, "--podspec", fx("web.yaml"))
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == ("kso capacity: the copy default/web-2 would have the "
                        "name of a pod of the cluster\n")
