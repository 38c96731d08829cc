"""Bug: binds to the feasible node holding the fewest pods, not kube's
best-scoring one."""
import kso_impl


def decide(cluster, pod):
    doc = kso_impl.ask_kso(cluster, pod)
    feasible = [n for n, v in doc["nodes"].items() if v["feasible"]]
    if not feasible:
        return kso_impl.unschedulable(doc["message"])
    count = {n: 0 for n in feasible}
    for o in cluster["items"]:
        node = o.get("spec", {}).get("nodeName")
        if o["kind"] == "Pod" and node in count:
            count[node] += 1
    return kso_impl.bind(pod, min(feasible, key=lambda n: (count[n], n)))


kso_impl.serve(decide, "emptiest 1")
