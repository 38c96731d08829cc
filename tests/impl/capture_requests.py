"""Appends every schedule request's cluster to $KSO_CAPTURE (one JSON line
each) and refuses it (a probe of what kso sends)."""
import json
import os
import sys

for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "init":
        ans = {"type": "init_ok", "implementation": "capture 1"}
    else:
        with open(os.environ["KSO_CAPTURE"], "a") as f:
            f.write(json.dumps(req["cluster"]) + "\n")
        ans = {"type": "error", "code": 10, "text": "not supported"}
    ans["in_reply_to"] = req["msg_id"]
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
