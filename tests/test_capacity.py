"""
test_capacity.py - `kso capacity` (issue 38): how many more copies of a
pod fit, placed one at a time by the scheduler loop, and kube's FitError
message for the one that does not.  Every count and message is worked
out by hand in the fixtures' headers (fixtures/capacity/); both engines
must give them.
"""
import json
import os
import re
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


# ----------------------------------------------- --workload: a controller
# of the cluster, scaled up (fixtures/capacity/web-running.yaml,
# db-running.yaml, report-job.yaml work the answers out)

SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}"   # kube's generateName alphabet


def workload(paths, ref, *more, engine="oracle"):
    p = kso("capacity", *[fx(f) for f in paths], "--workload", ref,
            "--engine", engine, "-o", "json", *more)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


@pytest.mark.parametrize("engine", ENGINES)
def test_workload_deployment_anti_affinity_one_replica_a_node(engine):
    d = workload(["web-running.yaml"], "deployment/web", engine=engine)
    assert (d["workload"], d["template"], d["running"]) == (
        "Deployment default/web", None, 2)
    assert d["copies"] == 2 and d["nodes"] == {"n3": 1, "n4": 1}
    for x in d["placed"]:       # the current ReplicaSet's names
        assert re.fullmatch("default/web-6f7c9d8b5-" + SUFFIX, x["pod"])
    assert d["stop"]["reason"] == "Unschedulable"
    assert re.fullmatch("default/web-6f7c9d8b5-" + SUFFIX, d["stop"]["pod"])
    assert d["stop"]["message"] == ("0/4 nodes are available: 4 node(s) "
                                    "didn't match pod anti-affinity rules.")


@pytest.mark.parametrize("spelling", [
    ["--workload", "deploy/web"], ["--workload", "deployments/web"],
    ["--workload", "Deployment/web"], ["--workload", "default/deploy/web"],
    ["--workload", "deploy/web", "-n", "default"],
    ["--workload=deploy/web", "--namespace=default"]])
def test_workload_kubectl_spellings(spelling):
    p = kso("capacity", "-f", fx("web-running.yaml"), *spelling, "-o", "json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == workload(["web-running.yaml"],
                                            "deployment/web")


def test_workload_pending_replicas_are_the_first_copies(tmp_path):
    # spec.replicas 3 with 2 running: the third replica (created by the
    # expansion, pending) is the first copy; the answer is the same
    f = tmp_path / "web3.yaml"
    f.write_text(open(fx("web-running.yaml")).read().replace(
        "  spec:\n    replicas: 2\n    selector:\n      matchLabels: {app: web}\n",
        "  spec:\n    replicas: 3\n    selector:\n      matchLabels: {app: web}\n",
        1))
    p = kso("capacity", f, "--workload", "deploy/web", "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["running"] == 2 and d["copies"] == 2
    assert d["pending_left_out"] == 0


def test_workload_table():
    p = kso("capacity", fx("web-running.yaml"), "--workload", "deploy/web")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert re.fullmatch(r"2 more replicas of Deployment default/web fit "
                        r"beside the 2 running \(web-6f7c9d8b5-%s, "
                        r"web-6f7c9d8b5-%s\), placed one at a time"
                        % (SUFFIX, SUFFIX), lines[0])
    assert lines[1:4] == ["NODE  COPIES", "n3    1", "n4    1"]
    assert re.fullmatch(r"default/web-6f7c9d8b5-%s does not fit: 0/4 nodes "
                        r"are available: 4 node\(s\) didn't match pod "
                        r"anti-affinity rules\." % SUFFIX, lines[4])


@pytest.mark.parametrize("engine", ENGINES)
def test_workload_statefulset_next_ordinals_spread_over_zones(engine):
    d = workload(["three-nodes.yaml", "db-running.yaml"], "sts/db",
                 engine=engine)
    assert (d["workload"], d["running"], d["copies"]) == (
        "StatefulSet default/db", 2, 3)
    assert [x["pod"] for x in d["placed"]] == ["default/db-2", "default/db-3",
                                               "default/db-4"]
    # zone a (n1) ends with 2 (db-0 and a copy), zone b with 3
    assert d["nodes"].get("n1") == 1
    assert d["nodes"].get("n2", 0) + d["nodes"].get("n3", 0) == 2
    assert d["stop"] == {
        "reason": "Unschedulable", "pod": "default/db-5",
        "message": "0/3 nodes are available: 1 node(s) didn't match pod "
                   "topology spread constraints, 2 Insufficient cpu."}


def test_workload_max():
    d = workload(["three-nodes.yaml", "db-running.yaml"], "sts/db",
                 "--max", "2")
    assert [x["pod"] for x in d["placed"]] == ["default/db-2", "default/db-3"]
    assert d["stop"] == {"reason": "LimitReached", "pod": None,
                         "message": None}


@pytest.mark.parametrize("engine", ENGINES)
def test_workload_job_stops_at_its_completions(engine):
    d = workload(["three-nodes.yaml", "report-job.yaml"], "job/report",
                 engine=engine)
    assert (d["workload"], d["running"], d["copies"]) == (
        "Job default/report", 2, 2)
    for x in d["placed"]:
        assert re.fullmatch("default/report-" + SUFFIX, x["pod"])
    assert d["stop"] == {
        "reason": "LimitReached", "pod": None,
        "message": "Job default/report runs at most 4 pods at once "
                   "(spec.completions 4, 0 succeeded)"}
    t = kso("capacity", fx("three-nodes.yaml"), fx("report-job.yaml"),
            "--workload", "job/report").stdout.splitlines()
    assert t[0].startswith("2 more pods of Job default/report fit beside "
                           "the 2 running (")
    assert t[-1] == ("stopped: Job default/report runs at most 4 pods at "
                     "once (spec.completions 4, 0 succeeded)")


def test_workload_refusals(tmp_path):
    ds = tmp_path / "ds.yaml"
    ds.write_text("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: "
                  "{name: agent}\nspec:\n  selector: {matchLabels: {app: a}}\n"
                  "  template:\n    metadata: {labels: {app: a}}\n    spec:\n"
                  "      containers: [{name: c, image: x}]\n")
    cases = [
        ([fx("three-nodes.yaml"), ds, "--workload", "ds/agent"], 1,
         "--workload ds/agent: a DaemonSet is not scaled; it runs one pod "
         "on each node it fits\n"),
        ([fx("web-running.yaml"), "--workload", "rs/web-6f7c9d8b5"], 1,
         "--workload rs/web-6f7c9d8b5: ReplicaSet default/web-6f7c9d8b5 is "
         "managed by Deployment web; give the Deployment\n"),
        ([fx("web-running.yaml"), "--workload", "deploy/web", "-n", "shop"],
         1, "--workload deploy/web: no Deployment shop/web in the input\n"),
    ]
    for args, rc, err in cases:
        p = kso("capacity", *args)
        assert (p.returncode, p.stdout, p.stderr) == (rc, "", err), args


@pytest.mark.parametrize("args,err", [
    (["--workload", "deploy/web", "--podspec", "x.yaml"],
     "--podspec and --workload both name what to copy: give one"),
    (["--workload", "deploy/web", "--no-expand"], "drop --no-expand"),
    (["--podspec", "x.yaml", "-n", "x"], "there is no --workload"),
    (["--workload", "shop/deploy/web", "-n", "x"],
     "-n x and --workload shop/deploy/web name different namespaces"),
    (["--workload", "web"], "--workload wants [NAMESPACE/]KIND/NAME"),
    (["--workload", "cronjob/web"], "unknown kind 'cronjob'"),
    (["--workload", "deploy/web", "--scale", "deploy/web=3"],
     "name the same Deployment"),
])
def test_workload_usage(args, err):
    p = kso("capacity", fx("web-running.yaml"), *args)
    assert p.returncode == 2 and err in p.stderr and p.stdout == ""
