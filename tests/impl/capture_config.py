"""Writes the init request's schedulerConfiguration to $KSO_CAPTURE and
refuses every schedule request (a probe of what kso sends at init)."""
import json
import os
import sys

for line in sys.stdin:
    req = json.loads(line)
    if req["type"] == "init":
        with open(os.environ["KSO_CAPTURE"], "w") as f:
            json.dump(req["schedulerConfiguration"], f, indent=1)
        ans = {"type": "init_ok", "implementation": "capture 1"}
    else:
        ans = {"type": "error", "code": 10, "text": "not supported"}
    ans["in_reply_to"] = req["msg_id"]
    sys.stdout.write(json.dumps(ans) + "\n")
    sys.stdout.flush()
