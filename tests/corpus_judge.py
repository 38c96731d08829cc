"""corpus_judge.py - a conformance corpus replayed without kso: the
reference for an implementation's own CI (doc/protocol.md "A conformance corpus").

    python3 corpus_judge.py DIR 'CMD ARGS'

Starts CMD, sends init with DIR/scheduler-config.json, then one schedule
request per DIR/case-*.json (its cluster and pod, as the case holds them),
and judges each answer from the case's "expected" object alone.  Prints
"CASE VERDICT" per case; exit 1 when a verdict is not ok.
"""
import glob
import json
import os
import subprocess
import sys


def judge(exp, ans, strict=False):
    if ans.get("type") == "error":
        return "refused"
    feasible, viable = exp["feasible"], exp["viable"]
    if "binding" in ans:
        node = ans["binding"]["target"]["name"]
        if node in viable or (exp["sampled"] and node in feasible):
            return "ok"
        return "not-viable" if node in feasible else "infeasible"
    if "nominatedNodeName" in ans:
        node = ans["nominatedNodeName"]
        if viable:
            return "should-have-fit"
        if exp["decision"] != "preempt":
            return "should-not-preempt"
        allowed = {a["nominatedNodeName"]: a for a in exp["preemption"]}
        if node not in allowed:
            return "wrong-preemption-node"
        got = {p["UID"] for p in ans["preemption"]["NodeNameToMetaVictims"]
               [node]["Pods"]}
        want = {v["uid"] for v in allowed[node]["victims"]}
        return "ok" if got == want else "victims-differ"
    if viable:
        return "should-have-fit"
    if exp["decision"] == "preempt":
        return "should-have-preempted"
    if strict and ans["unschedulable"]["message"] != exp["message"]:
        return "message-differs"
    return "ok"


def main(directory, cmd):
    with open(os.path.join(directory, "scheduler-config.json")) as f:
        config = json.load(f)
    child = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)

    def ask(msg):
        child.stdin.write(json.dumps(msg) + "\n")
        child.stdin.flush()
        ans = json.loads(child.stdout.readline())
        assert ans["in_reply_to"] == msg["msg_id"], ans
        return ans

    ask({"type": "init", "msg_id": 0, "protocol": "kso-impl/1",
         "kubernetesVersion": "v1.30", "schedulerConfiguration": config})
    bad = 0
    for i, path in enumerate(sorted(glob.glob(os.path.join(directory,
                                                            "case-*.json")))):
        with open(path) as f:
            case = json.load(f)
        ans = ask({"type": "schedule", "msg_id": i + 1,
                   "cluster": case["cluster"], "pod": case["pod"]})
        verdict = judge(case["expected"], ans)
        bad += verdict != "ok"
        print(os.path.basename(path), verdict)
    child.stdin.close()
    child.wait()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
