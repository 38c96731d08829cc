"""
test_node_classes.py - the oracle's node equivalence classes
(oracle/node_class.c) change no answer: `kso schedule -o json --detail`
with them (the default) and with `--no-node-classes` (every sampled node
filtered and scored on its own) must print the same bytes and exit the
same, under `--kube-version 1.30` and `1.34`, on

  * every fixture kso validates (test_engines' list, each X.yaml also with
    its X.config.yaml), also with `--tie random --seed 7` (seeded
    selectHost: a class's score must stand for every node of it);
  * the six reference workloads of scripts/workload.py (basic-500,
    basic-5000, antiaffinity-5000, spread-5000, nodeaffinity-5000,
    preemption-500: 500 and 5,000 nodes, so kube's sampling and the
    rotating start index run), and csipv-5000 (claims and CSI limits: the
    volume filters run, so the classes stand aside);
  * the scheduler_perf-like suite workloads at 500 nodes;
  * random clusters (taints, images, node labels, affinity, spreading,
    host ports, priorities and preemption) of 110-300 nodes;
  * perf at 5,000 nodes / 10,000 pending pods (the proxy of the 50,000
    node case: Service-backed pods, zone spreading, preferred hostname
    anti-affinity).

The equality is the whole assertion: the classes only decide which node's
Filter verdict and raw scores stand for which others'.
tests/unit/test_oracle_node_classes.c works out the classes themselves.
"""
import subprocess
import sys

import pytest

from conftest import KSO, REPO
from test_engines import CASES, config_args, rel

WORKLOAD = REPO / "scripts" / "workload.py"
VERSIONS = ["1.30", "1.34"]


def run(*args):
    p = subprocess.run([KSO, *map(str, args)], capture_output=True, timeout=900)
    return p.returncode, p.stdout


def same_both_ways(path, *args):
    """schedule with and without the classes: same exit, same bytes."""
    common = ["schedule", str(path), "-o", "json", "--detail", *args]
    on = run(*common)
    off = run(*common, "--no-node-classes")
    assert on[0] == off[0], "%s %s: exit %d (classes) vs %d (none)" % (
        path, args, on[0], off[0])
    assert on[1] == off[1], "%s %s: output differs with node classes" % (
        path, args)
    assert on[0] in (0, 1) and on[1].startswith(b"{"), (path, args, on[0])
    return on[1]


@pytest.mark.parametrize("case", CASES,
                         ids=lambda c: "%s:%s" % (c[1], rel(c[0])))
def test_fixtures(case):
    path, version = case
    for cfg in config_args(path):
        same_both_ways(path, "--kube-version", version, *cfg)
        same_both_ways(path, "--kube-version", version, "--tie", "random",
                       "--seed", "7", *cfg)


def workload(tmp_path, *args):
    out = tmp_path / ("w-%s.json" % "-".join(args).replace("/", "_"))
    subprocess.run([sys.executable, str(WORKLOAD), *args, "-o", str(out)],
                   check=True, timeout=300)
    return out


REFERENCE = ["basic-500", "basic-5000", "antiaffinity-5000", "spread-5000",
             "nodeaffinity-5000", "preemption-500", "csipv-5000"]


@pytest.mark.parametrize("name", REFERENCE)
def test_reference_workloads(tmp_path, name):
    path = workload(tmp_path, name)
    for v in VERSIONS:
        same_both_ways(path, "--kube-version", v)


SUITE = ["SchedulingBasic", "PodAntiAffinity", "PodAffinity",
         "TopologySpreading", "PreferredTopologySpreading", "NodeAffinity",
         "MixedSchedulingBasePod", "Preemption"]


@pytest.mark.parametrize("name", SUITE)
def test_suite_workloads(tmp_path, name):
    path = workload(tmp_path, name, "--nodes", "500", "--init", "300",
                    "--measure", "300")
    for v in VERSIONS:
        same_both_ways(path, "--kube-version", v)


@pytest.mark.parametrize("seed", range(1, 9))
def test_random_clusters(tmp_path, seed):
    nodes = 110 + 25 * seed
    path = workload(tmp_path, "random", "--seed", str(seed), "--nodes",
                    str(nodes), "--pods", str(3 * nodes))
    for v in VERSIONS:
        same_both_ways(path, "--kube-version", v)
        same_both_ways(path, "--kube-version", v, "--tie", "random",
                       "--seed", str(seed))


def test_perf_5000(tmp_path):
    path = workload(tmp_path, "perf", "--nodes", "5000", "--pods", "10000",
                    "--pending", "10000")
    for v in VERSIONS:
        out = same_both_ways(path, "--kube-version", v)
        assert out.count(b'"action": "bind"') == 10000
