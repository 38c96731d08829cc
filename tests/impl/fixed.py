"""Answers every schedule request with the decision $KSO_FIXED gives:
"bind NODE" or "preempt NODE UID[,UID...]" (a probe of the judge's
details)."""
import json
import os
import sys

words = os.environ["KSO_FIXED"].split()
for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "init":
        ans = {"type": "init_ok", "implementation": "fixed 1"}
    elif words[0] == "bind":
        pod = req["pod"]
        ans = {"type": "schedule_ok", "binding": {
            "apiVersion": "v1", "kind": "Binding",
            "metadata": {"namespace": pod["namespace"], "name": pod["name"],
                         "uid": pod["uid"]},
            "target": {"apiVersion": "v1", "kind": "Node", "name": words[1]}}}
    else:
        pods = [{"UID": u} for u in words[2].split(",")]
        ans = {"type": "schedule_ok", "nominatedNodeName": words[1],
               "preemption": {"NodeNameToMetaVictims": {words[1]: {
                   "Pods": pods, "NumPDBViolations": 0}}}}
    ans["in_reply_to"] = req["msg_id"]
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
