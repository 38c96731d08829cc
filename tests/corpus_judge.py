"""corpus_judge.py - a conformance corpus replayed without kso: the
reference for an implementation's own CI (doc/protocol.md "A conformance corpus").

    python3 corpus_judge.py [--strict-message] DIR 'CMD ARGS'

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


USAGE = """usage: corpus_judge.py [--strict-message] DIR 'CMD ARGS'

Replays the conformance corpus in DIR (written by `kso corpus --dir DIR`)
against the scheduler that CMD starts (with /bin/sh -c, as kso starts
it), speaking kso-impl/1, and judges each answer from the case's "expected" object
alone, without kso.  Prints "CASE VERDICT" per case; exit 0 when every
verdict is ok, 1 otherwise, 2 on a usage error, 3 when DIR holds no
corpus.

  --strict-message   an unschedulable answer's message must be kube's,
                     byte for byte (message-differs otherwise)
  -h, --help         this help
"""


def main(directory, cmd, strict=False):
    try:
        with open(os.path.join(directory, "scheduler-config.json")) as f:
            config = json.load(f)
    except (OSError, ValueError) as e:
        print("corpus_judge.py: %s holds no corpus: %s" % (directory, e),
              file=sys.stderr)
        return 3
    child = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)

    def ask(msg):
        child.stdin.write(json.dumps(msg) + "\n")
        child.stdin.flush()
        ans = json.loads(child.stdout.readline())
        assert ans["in_reply_to"] == msg["msg_id"], ans
        return ans

    def load(path):
        with open(path) as f:
            return json.load(f)

    paths = sorted(glob.glob(os.path.join(directory, "case-*.json")))
    # the release the corpus answers for: its cases' kubeVersion (absent:
    # v1.30), as kso corpus --run reads it from the first case
    version = load(paths[0]).get("kubeVersion", "1.30") if paths else "1.30"
    ask({"type": "init", "msg_id": 0, "protocol": "kso-impl/1",
         "kubernetesVersion": "v" + version, "schedulerConfiguration": config})
    bad = 0
    for i, path in enumerate(paths):
        case = load(path)
        ans = ask({"type": "schedule", "msg_id": i + 1,
                   "cluster": case["cluster"], "pod": case["pod"]})
        verdict = judge(case["expected"], ans, strict)
        bad += verdict != "ok"
        print(os.path.basename(path), verdict)
    child.stdin.close()
    child.wait()
    return 1 if bad else 0


def cli(argv):
    if "-h" in argv or "--help" in argv:
        sys.stdout.write(USAGE)
        return 0
    strict = "--strict-message" in argv
    args = [a for a in argv if a != "--strict-message"]
    if len(args) != 2 or args[0].startswith("-"):
        sys.stderr.write(USAGE)
        return 2
    return main(args[0], args[1], strict)


if __name__ == "__main__":
    sys.exit(cli(sys.argv[1:]))
