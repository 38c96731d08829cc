"""Workload controllers expanded into the pods their v1.30 controllers
would create (yaml/expand.c), --no-expand and --scale.

Every expected pod is worked out from the controllers' rules (the header
of yaml/expand.c and of fixtures/expand/cluster-export.yaml): counts,
names, labels, owner, DaemonSet pinning and priority.  Names kube makes
random are checked for their shape only: `<base>` + five letters of kube's
alphabet."""
import json
import re

from conftest import FIXTURES, run_kso

EXPORT = FIXTURES / "expand" / "cluster-export.yaml"
SUFFIX = "[bcdfghjklmnpqrstvwxz2456789]{5}"


def dump(*args):
    proc = run_kso("dump", *args, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout), proc.stderr


def pods_of(d, ns=None):
    return {p["metadata"]["name"]: p for p in d["pods"]
            if ns is None or p["metadata"]["namespace"] == ns}


def new_pods(d):
    """The pending pods the export does not list (no nodeName, not cache)."""
    return {n: p for n, p in pods_of(d).items()
            if not p["spec"].get("nodeName") and n != "cache"}


def owner(p):
    (o,) = p["metadata"]["ownerReferences"]
    return (o["apiVersion"], o["kind"], o["name"], o["controller"])


def required_fields(p):
    req = p["spec"]["affinity"]["nodeAffinity"][
        "requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"]
    return req


def test_export_loads_with_expected_warnings():
    proc = run_kso("validate", EXPORT)
    assert proc.returncode == 0, proc.stderr
    # 3 nodes; 6 listed pods + 2 web + db-1 + 1 agent + report-2 = 11 pods,
    # 5 of them bound; RS web-6b8f7d9c4, web-7d4b9c8f5 and StatefulSet db
    # the second line tells the expansion: the 5 created pods by their
    # owners (the Deployment's through its current ReplicaSet)
    assert proc.stdout == ("ok: 3 nodes, 11 pods (5 bound, 6 pending), "
                           "2 namespaces, 0 priority classes, 0 PDBs, "
                           "3 spreading selectors (2 ReplicaSet, 1 StatefulSet)\n"
                           "11 pods: 6 listed, 5 created by 4 controllers "
                           "(ReplicaSet shop/web-7d4b9c8f5 2, StatefulSet "
                           "shop/db 1, DaemonSet kube-system/agent 1, Job "
                           "shop/report 1)\n")
    warnings = proc.stderr.splitlines()
    # the storage objects are exported too: no volume warning
    assert len(warnings) == 2, proc.stderr
    assert all(": warning: " in w for w in warnings)
    text = proc.stderr
    assert 'unknown field "nodeSelecter" in a pod\'s spec (did you mean ' \
        'nodeSelector?)' in text
    assert 'PriorityClass "business" is not in the input' in text
    # in file order: the class named on line 210, the typo on line 391
    # (the loader finds the class missing only after the whole file)
    assert [w.split(":")[1:3] for w in warnings] == [["210", "24"],
                                                     ["391", "5"]]


def test_deployment_through_current_replica_set():
    d, _ = dump(EXPORT)
    web = {n: p for n, p in new_pods(d).items() if n.startswith("web-")}
    # replicas 4, 2 pods of the current ReplicaSet (revision 2)
    assert len(web) == 2
    for name, p in web.items():
        assert re.fullmatch("web-7d4b9c8f5-" + SUFFIX, name), name
        assert p["metadata"]["namespace"] == "shop"
        assert p["metadata"]["labels"] == {"app": "web",
                                           "pod-template-hash": "7d4b9c8f5"}
        assert owner(p) == ("apps/v1", "ReplicaSet", "web-7d4b9c8f5", True)
        # the class is not exported: an existing pod of it says 1000
        assert p["spec"]["priority"] == 1000
        assert p["spec"]["priorityClassName"] == "business"


def test_stateful_set_ordered_ready_creates_the_next_ordinal_only():
    d, _ = dump(EXPORT)
    db = {n: p for n, p in new_pods(d).items() if n.startswith("db-")}
    assert list(db) == ["db-1"]
    p = db["db-1"]
    assert p["metadata"]["labels"] == {
        "app": "db", "controller-revision-hash": "db-5c6f8d9b7",
        "statefulset.kubernetes.io/pod-name": "db-1",
        "apps.kubernetes.io/pod-index": "1"}
    assert owner(p) == ("apps/v1", "StatefulSet", "db", True)


def test_daemon_set_pinned_to_the_nodes_it_fits():
    d, _ = dump(EXPORT)
    agents = {n: p for n, p in new_pods(d).items() if n.startswith("agent-")}
    # node-a has its pod; node-c's gpu taint is not tolerated; node-b is
    # unschedulable, whose taint a DaemonSet tolerates
    assert len(agents) == 1
    ((name, p),) = agents.items()
    assert re.fullmatch("agent-" + SUFFIX, name)
    assert p["metadata"]["namespace"] == "kube-system"
    assert required_fields(p) == [{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["node-b"]}]}]
    assert "nodeName" not in p["spec"]
    # the hash of its existing pod, the template generation annotation
    assert p["metadata"]["labels"] == {
        "name": "agent", "controller-revision-hash": "6d9f7c5b48",
        "pod-template-generation": "3"}
    assert owner(p) == ("apps/v1", "DaemonSet", "agent", True)
    tol = {(t["key"], t["effect"]) for t in p["spec"]["tolerations"]}
    assert tol == {("node.kubernetes.io/not-ready", "NoExecute"),
                   ("node.kubernetes.io/unreachable", "NoExecute"),
                   ("node.kubernetes.io/disk-pressure", "NoSchedule"),
                   ("node.kubernetes.io/memory-pressure", "NoSchedule"),
                   ("node.kubernetes.io/pid-pressure", "NoSchedule"),
                   ("node.kubernetes.io/unschedulable", "NoSchedule")}
    assert p["spec"]["priority"] == 2000001000


def test_indexed_job_takes_the_lowest_free_index():
    d, _ = dump(EXPORT)
    jobs = {n: p for n, p in new_pods(d).items() if n.startswith("report-")}
    # completions 4, index 0 done: 3 left; parallelism 2; index 1 active
    assert len(jobs) == 1
    ((name, p),) = jobs.items()
    assert re.fullmatch("report-2-" + SUFFIX, name), name
    assert p["metadata"]["labels"][
        "batch.kubernetes.io/job-completion-index"] == "2"
    assert p["metadata"]["labels"]["job-name"] == "report"
    assert owner(p) == ("batch/v1", "Job", "report", True)


def test_schedule_places_the_expanded_pods():
    proc = run_kso("schedule", EXPORT, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    steps = out["steps"]
    bound = {s["pod"]: s["node"] for s in steps if s["action"] == "bind"}
    assert len(bound) == 6
    agent = [p for p in bound if p.startswith("kube-system/agent-")]
    assert len(agent) == 1 and bound[agent[0]] == "node-b"
    # node-c's untolerated taint and node-b's unschedulable taint leave
    # node-a for every other pod
    assert all(n == "node-a" for p, n in bound.items() if p not in agent)
    assert "shop/db-1" in bound


def test_no_expand():
    d, _ = dump(EXPORT, "--no-expand")
    assert new_pods(d) == {}
    assert len(d["pods"]) == 6


def test_scale_up_deployment():
    d, _ = dump(EXPORT, "--scale", "shop/deploy/web=6")
    web = [n for n in new_pods(d) if n.startswith("web-")]
    assert len(web) == 4
    d, _ = dump(EXPORT, "--scale=shop/Deployment/web=2")
    assert [n for n in new_pods(d) if n.startswith("web-")] == []


def test_scale_stateful_set_parallel_vs_ordered(tmp_path):
    text = EXPORT.read_text().replace("podManagementPolicy: OrderedReady",
                                      "podManagementPolicy: Parallel")
    f = tmp_path / "parallel.yaml"
    f.write_text(text)
    d, _ = dump(f, "--scale", "shop/sts/db=5")
    assert sorted(n for n in new_pods(d) if n.startswith("db-")) == \
        ["db-1", "db-2", "db-3", "db-4"]
    d, _ = dump(EXPORT, "--scale", "shop/statefulset/db=5")
    assert [n for n in new_pods(d) if n.startswith("db-")] == ["db-1"]


def test_scale_errors():
    cases = [
        ("shop/deploy/web=1", "--scale shop/deploy/web=1: Deployment "
         "shop/web has 2 pods; scaling down deletes pods in the order its "
         "controller ranks them, which kso does not model\n"),
        ("shop/rs/web-7d4b9c8f5=3", "--scale shop/rs/web-7d4b9c8f5=3: "
         "ReplicaSet shop/web-7d4b9c8f5 is managed by Deployment web; scale "
         "the Deployment\n"),
        ("deploy/web=3", "--scale deploy/web=3: no Deployment default/web in "
         "the input\n"),
        ("shop/job/report=3", "--scale shop/job/report=3: a Job is not "
         "scaled; its spec.parallelism says how many pods run\n"),
        ("kube-system/ds/agent=3", "--scale kube-system/ds/agent=3: a "
         "DaemonSet is not scaled; it runs one pod on each node it fits\n"),
    ]
    for arg, err in cases:
        proc = run_kso("schedule", EXPORT, "--scale", arg)
        assert proc.returncode == 1, arg
        assert proc.stdout == ""
        assert proc.stderr.endswith(err), proc.stderr
    for bad in ["web=3", "deploy/web", "deploy/web=x", "shop/cm/web=2",
                "a/b/c/d=1", "shop/deploy/web/x=6", "deploy/web=-1"]:
        proc = run_kso("schedule", EXPORT, "--scale", bad)
        assert proc.returncode == 2, bad
        assert "--scale" in proc.stderr


def write(tmp_path, text):
    f = tmp_path / "c.yaml"
    f.write_text(text)
    return f


NODE = """apiVersion: v1
kind: Node
metadata: {name: %s, labels: {kubernetes.io/hostname: %s%s}}
%s
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
"""


def test_replica_set_adopts_orphans_and_counts_them(tmp_path):
    # 3 replicas; one pod owned, one orphan it selects (adopted), one
    # orphan it does not select, one owned by another controller: 1 new
    f = write(tmp_path, NODE % ("n1", "n1", "", "") + """
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: default}
spec:
  replicas: 3
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: owned
  labels: {app: a}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller: true}]
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: orphan, labels: {app: a}}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: other, labels: {app: b}}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: taken
  labels: {app: a}
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: rs2, controller: true}]
spec: {containers: [{name: c, image: x}]}
""")
    d, _ = dump(f)
    made = [n for n in pods_of(d) if n.startswith("rs-")]
    assert len(made) == 1 and re.fullmatch("rs-" + SUFFIX, made[0])


def test_deployment_without_replica_set_and_default_spreading(tmp_path):
    f = write(tmp_path, NODE % ("n1", "n1", "", "") + """
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c, image: x}]}
""")
    d, _ = dump(f)
    pods = pods_of(d)
    assert len(pods) == 2
    hashes = {p["metadata"]["labels"]["pod-template-hash"] for p in pods.values()}
    assert len(hashes) == 1
    (h,) = hashes
    # kube's alphabet, as kube encodes the template hash
    assert re.fullmatch("[bcdfghjklmnpqrstvwxz2456789]+", h)
    for n, p in pods.items():
        assert re.fullmatch(f"api-{h}-{SUFFIX}", n)
        assert owner(p) == ("apps/v1", "ReplicaSet", f"api-{h}", True)
    # the made-up ReplicaSet is there for default spreading
    (rs,) = d["workloads"]
    assert rs["kind"] == "ReplicaSet" and rs["metadata"]["name"] == f"api-{h}"
    assert rs["spec"]["selector"]["matchLabels"] == {
        "app": "api", "pod-template-hash": h}
    # the same input gives the same names
    d2, _ = dump(f)
    assert sorted(pods_of(d2)) == sorted(pods)


def test_job_rules(tmp_path):
    base = NODE % ("n1", "n1", "", "") + """
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default}
spec:
%s
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
%s
"""
    cases = [
        # parallelism 3, completions unset, nothing succeeded: 3
        ("  parallelism: 3", "", 3),
        # a work queue with one success creates no more
        ("  parallelism: 3", "status: {succeeded: 1}", 0),
        # completions 5, 4 succeeded, parallelism 3: 1
        ("  parallelism: 3\n  completions: 5", "status: {succeeded: 4}", 1),
        ("  parallelism: 3\n  suspend: true", "", 0),
        ("  parallelism: 2", "status:\n  conditions: [{type: Complete, "
         "status: \"True\"}]", 0),
        # parallelism defaults to 1
        ("  completions: 3", "", 1),
    ]
    for spec, status, want in cases:
        f = write(tmp_path, base % (spec, status))
        d, _ = dump(f)
        made = [p for n, p in pods_of(d).items() if n.startswith("j-")]
        assert len(made) == want, (spec, status)
        for p in made:
            # the labels the API server gives a Job's template
            assert p["metadata"]["labels"]["batch.kubernetes.io/job-name"] == "j"
            assert p["metadata"]["labels"]["job-name"] == "j"


def test_daemon_set_selector_affinity_and_host_network(tmp_path):
    f = write(tmp_path, NODE % ("n1", "n1", ", disk: ssd", "") +
              NODE % ("n2", "n2", "", "") +
              NODE % ("n3", "n3", ", disk: ssd",
                      "spec: {taints: [{key: k, effect: NoExecute}]}") +
              NODE % ("n4", "n4", ", disk: ssd",
                      "spec: {taints: [{key: k, effect: PreferNoSchedule}]}") + """
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: ds, namespace: default}
spec:
  selector: {matchLabels: {app: ds}}
  template:
    metadata: {labels: {app: ds}}
    spec:
      hostNetwork: true
      nodeSelector: {disk: ssd}
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions: [{key: kubernetes.io/hostname, operator: NotIn, values: [n9]}]
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 5
            preference:
              matchExpressions: [{key: disk, operator: Exists}]
      containers: [{name: c, image: x}]
""")
    d, _ = dump(f)
    made = list(pods_of(d).values())
    # n2 lacks disk=ssd; n3's NoExecute taint is not tolerated;
    # PreferNoSchedule does not keep a DaemonSet pod away
    nodes = sorted(required_fields(p)[0]["matchFields"][0]["values"][0]
                   for p in made)
    assert nodes == ["n1", "n4"]
    for p in made:
        # the template's required terms are replaced, its preferred kept
        assert len(required_fields(p)) == 1
        na = p["spec"]["affinity"]["nodeAffinity"]
        assert len(na["preferredDuringSchedulingIgnoredDuringExecution"]) == 1
        # hostNetwork adds network-unavailable to the six
        assert len(p["spec"]["tolerations"]) == 7


def test_template_class_missing_everywhere(tmp_path):
    f = write(tmp_path, NODE % ("n1", "n1", "", "") + """
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: default}
spec:
  replicas: 1
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: a}}
    spec:
      priorityClassName: gold
      containers: [{name: c, image: x}]
""")
    proc = run_kso("dump", f, "-o", "json")
    assert proc.returncode == 0, proc.stderr
    (p,) = json.loads(proc.stdout)["pods"]
    assert p["spec"]["priority"] == 0
    assert proc.stderr.count("warning:") == 1
    assert ('warning: PriorityClass "gold" is not in the input and no pod in '
            'it names the class; the new pods of ReplicaSet default/rs get '
            'priority 0 (spec.template.spec.priorityClassName)') in proc.stderr
    # six lines of node, a blank line, then the ReplicaSet: its
    # priorityClassName on line 17, the value after 6 + 19 characters
    assert f"{f}:17:26:" in proc.stderr


def test_selector_must_select_the_template(tmp_path):
    f = write(tmp_path, """apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  selector: {matchLabels: {app: a}}
  template:
    metadata: {labels: {app: b}}
    spec: {containers: [{name: c, image: x}]}
""")
    proc = run_kso("validate", f)
    assert proc.returncode == 1
    # line 7, "    metadata: {labels: " is 23 characters
    assert proc.stderr == (f"{f}:7:24: selector does not match template "
                           "labels (spec.template.metadata.labels)\n")


def test_dump_of_expanded_cluster_reads_back_the_same(tmp_path):
    first = run_kso("dump", EXPORT, "-o", "json")
    assert first.returncode == 0
    f = tmp_path / "dump.json"
    f.write_text(first.stdout)
    again = run_kso("dump", f, "-o", "json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(first.stdout)


def test_stateful_set_claims_from_templates_and_volume_filters():
    # db-1 gets volume "data" on claim data-db-1, which the controller
    # makes from the template: it is not exported, so kso makes it,
    # unbound, with the default class standard (WaitForFirstConsumer,
    # provisioner pd.csi, no allowedTopologies): VolumeBinding passes on
    # every node
    for pod in ["shop/cache", "shop/db-1"]:
        p = run_kso("explain", EXPORT, "--pod", pod, "-o", "json")
        assert p.returncode == 0, p.stderr
        assert json.loads(p.stdout)["code"] == "Success", pod
    d, _ = dump(EXPORT)
    db1 = next(p for p in d["pods"] if p["metadata"]["name"] == "db-1")
    assert db1["spec"]["volumes"] == [
        {"name": "data", "persistentVolumeClaim": {"claimName": "data-db-1"}}]
    claims = {c["metadata"]["name"]: c for c in d["persistentVolumeClaims"]}
    assert set(claims) == {"data-db-0", "data-db-1", "cache-data"}
    assert claims["data-db-1"]["spec"]["storageClassName"] == "standard"
    assert "volumeName" not in claims["data-db-1"]["spec"]


def test_edited_deployment_template_is_a_rollout_kso_warns_of(tmp_path):
    # the Deployment's image changed after its last rollout: none of its
    # ReplicaSets has its template; the highest revision stands in
    text = EXPORT.read_text().replace(
        "    template:\n      metadata:\n        creationTimestamp: null\n"
        "        labels: {app: web}\n      spec:\n        containers:\n"
        "        - image: nginx:1.27",
        "    template:\n      metadata:\n        creationTimestamp: null\n"
        "        labels: {app: web}\n      spec:\n        containers:\n"
        "        - image: nginx:1.28", 1)
    assert "nginx:1.28" in text
    f = tmp_path / "edited.yaml"
    f.write_text(text)
    p = run_kso("validate", f)
    assert p.returncode == 0, p.stderr
    assert ("warning: the template of Deployment shop/web is none of its "
            "ReplicaSets' (a rollout kso does not model); its new pods count "
            "against ReplicaSet web-7d4b9c8f5, its highest revision "
            "(items[3].spec.template)") in p.stderr


def test_job_pods_get_the_api_server_s_selector_labels(tmp_path):
    # a hand-written Job with a uid: its template gets job-name and
    # controller-uid labels (both spellings), as the API server's
    # generated selector gives them
    f = write(tmp_path, NODE % ("n1", "n1", "", "") + """
apiVersion: batch/v1
kind: Job
metadata: {name: j, namespace: default, uid: 0000-1111}
spec:
  parallelism: 1
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
""")
    d, _ = dump(f)
    (p,) = [p for n, p in pods_of(d).items() if n.startswith("j-")]
    assert p["metadata"]["labels"] == {
        "batch.kubernetes.io/job-name": "j", "job-name": "j",
        "batch.kubernetes.io/controller-uid": "0000-1111",
        "controller-uid": "0000-1111"}
