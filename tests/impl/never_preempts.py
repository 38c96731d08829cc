"""Bug: never preempts (answers unschedulable instead)."""
import kso_impl


def decide(cluster, pod):
    d = kso_impl.kso_decision(cluster, pod)
    if "nominatedNodeName" in d:
        return kso_impl.unschedulable("0/1 nodes are available")
    return d


kso_impl.serve(decide, "never-preempts 1")
