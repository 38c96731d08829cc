"""Bug: evicts one victim fewer than kube (keeps the last one)."""
import kso_impl


def decide(cluster, pod):
    doc = kso_impl.ask_kso(cluster, pod)
    pre = doc.get("preemption")
    if not doc["viable"] and pre and pre.get("node"):
        return kso_impl.preempt(cluster, pre["node"], pre["victims"][:-1])
    return kso_impl.kso_decision(cluster, pod)


kso_impl.serve(decide, "wrong-victims 1")
