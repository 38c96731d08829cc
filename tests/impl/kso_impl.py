"""kso_impl.py - the kso-impl/1 loop shared by the test implementations:
reads one JSON request per line from stdin, answers one line on stdout.
An implementation is a function decide(cluster, pod) returning the
schedule_ok payload ({"binding": ...} / {"nominatedNodeName": ...,
"preemption": ...} / {"unschedulable": {...}}).

ask_kso(cluster, pod, config) is kso's own answer (`kso explain` on the
cluster the request carries), which the buggy implementations bend.
"""
import json
import os
import subprocess
import sys
import tempfile

KSO = os.environ.get("KSO", os.path.join(os.path.dirname(__file__), "..", "..",
                                         "kso"))


def uid_of(cluster, ref):
    for o in cluster["items"]:
        m = o["metadata"]
        if o["kind"] == "Pod" and m.get("namespace", "default") + "/" + \
                m["name"] == ref:
            return m["uid"]
    raise KeyError(ref)


def ask_kso(cluster, pod, config=None):
    """kso's explain JSON for pod in cluster."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(cluster, f)
        path = f.name
    try:
        args = [KSO, "explain", path, "--pod",
                pod["namespace"] + "/" + pod["name"], "-o", "json"]
        if config:
            args += ["--config", config]
        out = subprocess.run(args, capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    finally:
        os.unlink(path)


def bind(pod, node):
    return {"binding": {"apiVersion": "v1", "kind": "Binding",
                        "metadata": {"namespace": pod["namespace"],
                                     "name": pod["name"], "uid": pod["uid"]},
                        "target": {"apiVersion": "v1", "kind": "Node",
                                   "name": node}}}


def preempt(cluster, node, victims, pdb=0):
    return {"nominatedNodeName": node,
            "preemption": {"NodeNameToMetaVictims": {node: {
                "Pods": [{"UID": uid_of(cluster, v)} for v in victims],
                "NumPDBViolations": pdb}}}}


def unschedulable(message):
    return {"unschedulable": {"message": message}}


def kso_decision(cluster, pod, config=None):
    """kso's own decision as a payload."""
    doc = ask_kso(cluster, pod, config)
    if doc["viable"]:
        return bind(pod, doc["viable"][0])
    pre = doc.get("preemption")
    if pre and pre.get("node"):
        return preempt(cluster, pre["node"], pre["victims"],
                       pre["pdb_violations"])
    return unschedulable(doc["message"])


def serve(decide, name="test-impl 0"):
    for line in sys.stdin:
        req = json.loads(line)
        if req["type"] == "init":
            ans = {"type": "init_ok", "implementation": name,
                   "supports": ["preemption"]}
        else:
            ans = dict(type="schedule_ok", **decide(req["cluster"], req["pod"]))
        ans["in_reply_to"] = req["msg_id"]
        sys.stdout.write(json.dumps(ans) + "\n")
        sys.stdout.flush()
