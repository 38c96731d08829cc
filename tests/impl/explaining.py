"""kso's own answer with an "explain" object in the kube-scheduler-simulator
shapes: filterResult (each filter kube runs on a node, in the default
profile's order, until the one that rejects it: "passed" or its reasons
joined by ", ") and finalScoreResult (the weighted scores).

argv[1] picks a deliberate mistake: "score" reports b's NodeResourcesFit
one higher, "filter" reports a's TaintToleration as passed, "order"
reports a filter that kube never runs after the rejecting one."""
import sys

import kso_impl

FILTERS = ["NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
           "NodePorts", "NodeResourcesFit", "PodTopologySpread",
           "InterPodAffinity"]
BUG = sys.argv[1] if len(sys.argv) > 1 else ""


def decide(cluster, pod):
    doc = kso_impl.ask_kso(cluster, pod)
    filters, scores = {}, {}
    for name, v in doc["nodes"].items():
        ran = {}
        for f in FILTERS:
            if f == v["rejected_by"]:
                ran[f] = ", ".join(v["reasons"])
                break
            ran[f] = "passed"
        filters[name] = ran
        if v["scores"]:
            scores[name] = {p: str(s) for p, s in v["scores"].items()}
    if BUG == "score":
        scores["b"]["NodeResourcesFit"] = str(int(
            scores["b"]["NodeResourcesFit"]) + 1)
    elif BUG == "filter":
        filters["a"]["TaintToleration"] = "passed"
    elif BUG == "order":
        filters["a"]["NodePorts"] = "passed"
    ans = kso_impl.kso_decision(cluster, pod)
    ans["explain"] = {"filterResult": filters, "finalScoreResult": scores}
    return ans


kso_impl.serve(decide, "explaining 1")
