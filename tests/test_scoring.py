"""
test_scoring.py - NodeResourcesFit's scoring strategies and
NodeResourcesBalancedAllocation's resources under a configuration
(reference §2.7, §2.8), end to end under both engines, on
fixtures/scoring/strategies.yaml.

Per node, with the pending pod p added (every request explicit, so
NonZeroRequested = Requested):
  a: cpu 2000/4000m (50%), memory 2Gi/8Gi (25%), gpu 2/4 (50%)
  b: cpu 1000/8000m (12.5%), memory 1Gi/4Gi (25%), gpu 1/2 (50%)
Integer arithmetic as Go's int64: a/b truncates.
"""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
FIX = os.path.join(ROOT, "fixtures", "scoring")
ENGINES = ["oracle", "model"]


def scores(config, engine):
    p = subprocess.run([KSO, "explain", os.path.join(FIX, "strategies.yaml"),
                        "--pod", "default/p", "--config",
                        os.path.join(FIX, config), "--engine", engine,
                        "-o", "json"], capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    nodes = json.loads(p.stdout)["nodes"]
    return {n: (v["scores"]["NodeResourcesFit"],
                v["scores"]["NodeResourcesBalancedAllocation"])
            for n, v in nodes.items()}


# BalancedAllocation with its default resources (cpu, memory): two
# fractions, std = |f0 - f1| / 2; score = trunc((1 - std) * 100).
#   a: |0.5 - 0.25| / 2 = 0.125 -> 87.5 -> 87
#   b: |0.125 - 0.25| / 2 = 0.0625 -> 93.75 -> 93
BALANCED_DEFAULT = {"a": 87, "b": 93}


@pytest.mark.parametrize("engine", ENGINES)
def test_least_allocated_with_weights(engine):
    # s_i = (alloc - req) * 100 / alloc; node = sum(s_i * w_i) / sum(w_i)
    #   a: cpu 2000*100/4000 = 50, memory 6Gi*100/8Gi = 75, gpu 2*100/4 = 50
    #      (50*3 + 75*1 + 50*2) / 6 = 325 / 6 = 54
    #   b: cpu 7000*100/8000 = 87, memory 3Gi*100/4Gi = 75, gpu 1*100/2 = 50
    #      (87*3 + 75 + 100) / 6 = 436 / 6 = 72
    got = scores("least-weighted.config.yaml", engine)
    assert got == {"a": (54, BALANCED_DEFAULT["a"]),
                   "b": (72, BALANCED_DEFAULT["b"])}


@pytest.mark.parametrize("engine", ENGINES)
def test_most_allocated_with_weights(engine):
    # s_i = min(req, alloc) * 100 / alloc
    #   a: cpu 50, memory 2Gi*100/8Gi = 25, gpu 50: (150 + 25 + 100) / 6 = 45
    #   b: cpu 1000*100/8000 = 12, memory 25, gpu 50: (36 + 25 + 100) / 6 = 26
    got = scores("most.config.yaml", engine)
    assert got == {"a": (45, BALANCED_DEFAULT["a"]),
                   "b": (26, BALANCED_DEFAULT["b"])}


@pytest.mark.parametrize("engine", ENGINES)
def test_requested_to_capacity_ratio(engine):
    # shape (0,10) (50,2) (100,0), scores x10: (0,100) (50,20) (100,0)
    # p = req * 100 / alloc; f(p) for the first point with p <= u_k:
    #   s_{k-1} + (s_k - s_{k-1}) * (p - u_{k-1}) / (u_k - u_{k-1})
    #   a: cpu p = 50 -> 100 + (-80 * 50) / 50 = 20; gpu p = 50 -> 20
    #      round((20*1 + 20*3) / 4) = 20
    #   b: cpu p = 1000*100/8000 = 12 -> 100 + (-80 * 12) / 50
    #      = 100 + (-960 / 50) = 100 - 19 (truncated toward zero) = 81;
    #      gpu p = 50 -> 20; round((81*1 + 20*3) / 4) = round(35.25) = 35
    got = scores("ratio.config.yaml", engine)
    assert got == {"a": (20, BALANCED_DEFAULT["a"]),
                   "b": (35, BALANCED_DEFAULT["b"])}


@pytest.mark.parametrize("engine", ENGINES)
def test_balanced_allocation_three_resources(engine):
    # f = req / alloc over cpu, memory, gpu; n = 3:
    #   std = sqrt(sum((f - mean)^2) / 3)
    #   a: 0.5, 0.25, 0.5: mean 0.41667, std 0.11785 -> trunc(88.21) = 88
    #   b: 0.125, 0.25, 0.5: mean 0.29167, std 0.15590 -> trunc(84.41) = 84
    # NodeResourcesFit keeps LeastAllocated cpu:1, memory:1:
    #   a: (50 + 75) / 2 = 62;  b: (87 + 75) / 2 = 81
    got = scores("balanced.config.yaml", engine)
    assert got == {"a": (62, 88), "b": (81, 84)}
