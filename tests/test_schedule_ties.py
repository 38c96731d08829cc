"""kso schedule's selectHost on a sampled cluster whose node names sort
otherwise than the nodes are listed: a tie goes to the viable node whose
name sorts first, whether or not the run prints the viable lists (issue
37: without a printed list the loop keeps none, and the oracle leaves its
viable nodes in the order it found them).

The cluster: 120 nodes listed n119, n118, ..., n0 (one zone, so kube's
node tree lists them in that order), 4 cpu each, and three pods asking
for 1 cpu.  From 100 nodes on kube samples: numFeasibleNodesToFind(120)
is max(120 * (50 - 120/125) / 100, 100) = 100 nodes, from
nextStartNodeIndex, which advances by the nodes examined (reference
§1.4).  Every empty node scores the same; a node holding a pod scores
lower (LeastAllocated and BalancedAllocation both fall with its cpu).

  pod 1: listed nodes 0..99, n119..n20, all empty: the first name is
         "n100" (no "n1"-"n19" among them; "n100" < "n101" < ... ).
  pod 2: from 100: listed 100..119 (n19..n0), then 0..79 (n119..n40);
         n100 (listed 19) holds pod 1; the first name is "n0".
  pod 3: from 200 % 120 = 80: listed 80..119 (n39..n0), 0..59
         (n119..n60); n0 holds pod 2; the first name is "n1".
"""
import json

import yaml

from conftest import run_kso

NODES = 120


def cluster(tmp_path):
    docs = [f"""apiVersion: v1
kind: Node
metadata: {{name: n{i}}}
status: {{allocatable: {{cpu: "4", memory: 1000Gi, pods: "10"}}}}
""" for i in reversed(range(NODES))]
    docs += [f"""apiVersion: v1
kind: Pod
metadata: {{name: p{k}, namespace: default}}
spec: {{containers: [{{name: c, image: x, resources: {{requests: {{cpu: "1"}}}}}}]}}
""" for k in (1, 2, 3)]
    f = tmp_path / "ties.yaml"
    f.write_text("---\n".join(docs))
    return f


def schedule(*args):
    p = run_kso("schedule", *args)
    assert p.returncode == 0, p.stderr
    return p.stdout


def test_ties_go_to_the_first_name_with_and_without_viable_lists(tmp_path):
    f = cluster(tmp_path)
    want = ["n100", "n0", "n1"]
    for version in ("1.30", "1.34"):
        plain = json.loads(schedule(f, "--kube-version", version, "-o", "json"))
        assert [s["node"] for s in plain["steps"]] == want
        full = json.loads(schedule(f, "--kube-version", version, "-o", "json",
                                   "--detail"))
        assert [s["node"] for s in full["steps"]] == want
        # pod 1's viable nodes, in node order: the first 100 listed
        assert full["steps"][0]["viable"] == [f"n{i}" for i in range(119, 19, -1)]
        # pod 2's: the window but the node holding pod 1, in node order
        assert full["steps"][1]["viable"] == (
            [f"n{i}" for i in range(119, 39, -1) if i != 100]
            + [f"n{i}" for i in range(19, -1, -1)])
        final = list(yaml.safe_load_all(schedule(f, "--kube-version", version,
                                                 "-o", "yaml")))
        bound = {d["metadata"]["name"]: d["spec"].get("nodeName")
                 for d in final if d and d.get("kind") == "Pod"}
        assert bound == {"p1": "n100", "p2": "n0", "p3": "n1"}
