"""Bug (only under --strict-message): right decisions, but an unschedulable
message without PostFilter's part (everything from " preemption:" on)."""
import kso_impl


def decide(cluster, pod):
    d = kso_impl.kso_decision(cluster, pod)
    if "unschedulable" in d:
        msg = d["unschedulable"]["message"]
        return kso_impl.unschedulable(msg.split(" preemption:")[0])
    return d


kso_impl.serve(decide, "terse-message 1")
