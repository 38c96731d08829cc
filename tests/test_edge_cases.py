"""
test_edge_cases.py - one end-to-end `kso explain` scenario per edge case
and quirk of shared/reference/kube-scheduler-v1.30.md (§1-§2, §7), on
fixtures/edge/*.yaml.

Each expected value is derived by hand from the reference (section in the
comment); the fixture's header says the same in words.
"""
import re

import pytest

from conftest import check, explain, fixture_path, node, run_case, run_kso

PTS_REASON = "node(s) didn't match pod topology spread constraints"
NA_REASON = "node(s) didn't match Pod's node affinity/selector"
PORTS_REASON = "node(s) didn't have free ports for the requested pod ports"
AFF_REASON = "node(s) didn't match pod affinity rules"
EXISTING_ANTI_REASON = "node(s) didn't satisfy existing pods anti-affinity rules"
UNSCHED_REASON = "node(s) were unschedulable"


def taint_reason(key, value):
    # TaintToleration's text is "{%s: %s}" of the first untolerated taint.
    return f"node(s) had untolerated taint {{{key}: {value}}}"


def no_scores(out, name):
    """§1.3 step 7: with exactly one feasible node PreScore/Score do not
    run, so the node has no non-zero score and a total of 0."""
    n = node(out, name)
    assert n["total"] == 0, n
    assert all(v == 0 for v in n["scores"].values()), n


CASES = [
    # ------------------------------------------------------ taints (§2.2/2.4)
    # {operator: Exists} with empty key and effect tolerates every taint
    # and the synthetic node.kubernetes.io/unschedulable:NoSchedule.
    dict(fixture="edge/toleration-empty-key-exists.yaml",
         pod="default/tolerate-all",
         feasible={"e1", "e2", "e3", "e4"}),
    # Effect NoSchedule only: e1's c:NoExecute (value "") is untolerated.
    dict(fixture="edge/toleration-empty-key-exists.yaml",
         pod="default/tolerate-noschedule",
         feasible={"e2", "e3", "e4"},
         rejected={"e1": ("TaintToleration", [taint_reason("c", "")])}),
    # Tolerations {dedicated=gpu, any effect}, {maintenance Exists
    # NoSchedule}.  t3: dedicated=cpu value differs; t4: maintenance is
    # NoExecute; t6: zz=top is the first untolerated in spec order (the
    # later maintenance:NoExecute is not reported).
    dict(fixture="edge/toleration-matching-rules.yaml",
         pod="default/tolerant",
         feasible={"t1", "t2", "t5"},
         rejected={"t3": ("TaintToleration", [taint_reason("dedicated", "cpu")]),
                   "t4": ("TaintToleration", [taint_reason("maintenance", "")]),
                   "t6": ("TaintToleration", [taint_reason("zz", "top")])},
         failed={"t3": ["TaintToleration"], "t4": ["TaintToleration"],
                 "t6": ["TaintToleration"]}),
    # PreferNoSchedule: counts 1, 2, 0 (the NoSchedule-only toleration of c
    # is dropped at PreScore); max 2; 100 - 100*s/2 = 50, 0, 100; x3.
    dict(fixture="edge/taint-prefer-no-schedule.yaml", pod="default/incoming",
         feasible={"p1", "p2", "p3"},
         scores={"p1": {"TaintToleration": 150},
                 "p2": {"TaintToleration": 0},
                 "p3": {"TaintToleration": 300}}),
    # NodeUnschedulable (§2.2) is tolerated via the synthetic taint.
    dict(fixture="edge/unschedulable-node.yaml", pod="default/tolerant",
         feasible={"u1", "u2"}),
    dict(fixture="edge/unschedulable-node.yaml", pod="default/plain",
         feasible={"u2"},
         rejected={"u1": ("NodeUnschedulable", [UNSCHED_REASON])},
         failed={"u1": ["NodeUnschedulable"]},
         viable={"u2"}),
    # A toleration for NoExecute does not match the NoSchedule taint.
    dict(fixture="edge/unschedulable-node.yaml", pod="default/wrong-effect",
         feasible={"u2"},
         rejected={"u1": ("NodeUnschedulable", [UNSCHED_REASON])}),

    # ------------------------------------------------------ node affinity §2.5
    # nodeSelector {disk: ssd} AND zone In [a]: only n1 has both.
    dict(fixture="edge/nodeselector-and-required-affinity.yaml",
         pod="default/incoming",
         feasible={"n1"},
         rejected={n: ("NodeAffinity", [NA_REASON]) for n in ("n2", "n3", "n4")},
         viable={"n1"}),
    # [zone In a] OR [disk DoesNotExist AND tier NotIn gold].
    dict(fixture="edge/node-affinity-or-terms.yaml", pod="default/incoming",
         feasible={"o1", "o3", "o5"},
         rejected={"o2": ("NodeAffinity", [NA_REASON]),
                   "o4": ("NodeAffinity", [NA_REASON])}),
    # [{}]: the empty term is dropped, no term remains, nothing matches.
    dict(fixture="edge/node-affinity-empty-term.yaml",
         pod="default/only-empty",
         feasible=set(),
         rejected={"n1": ("NodeAffinity", [NA_REASON]),
                   "n2": ("NodeAffinity", [NA_REASON])},
         viable=set(),
         message="0/2 nodes are available: 2 node(s) didn't match Pod's "
                 "node affinity/selector."),
    dict(fixture="edge/node-affinity-empty-term.yaml",
         pod="default/empty-or-zone-a",
         feasible={"n1"},
         rejected={"n2": ("NodeAffinity", [NA_REASON])}),
    # gen Gt 3 AND gen Lt 7 (strict, integer parse): only gen=5.  One
    # feasible node: no scoring although g5's PreferNoSchedule taint would
    # otherwise give TaintToleration a non-trivial spread.
    # seed 000's example ("greater than a certain kernel version, no gpus"):
    # Gt and DoesNotExist on node labels
    dict(fixture="edge/node-affinity-gt-lt.yaml", pod="default/incoming",
         feasible={"g5"},
         rejected={n: ("NodeAffinity", [NA_REASON])
                   for n in ("g3", "g7", "gabc", "gnone")},
         viable={"g5"},
         extra=lambda out: no_scores(out, "g5")),
    # PreFilterResult {node-b}: node-a, node-c are not examined, so they
    # get no status and are not in the histogram, while NumAllNodes is
    # still the whole snapshot (3).  node-b: 2 cpu > 1.
    dict(fixture="edge/node-affinity-matchfields.yaml", pod="default/big",
         feasible=set(),
         rejected={"node-b": ("NodeResourcesFit", ["Insufficient cpu"])},
         absent_ok={"node-a", "node-c"},
         viable=set(),
         message="0/3 nodes are available: 1 Insufficient cpu."),
    dict(fixture="edge/node-affinity-matchfields.yaml", pod="default/small",
         feasible={"node-b"},
         absent_ok={"node-a", "node-c"},
         viable={"node-b"}),
    # Union over terms: {node-a} U {node-c}.
    dict(fixture="edge/node-affinity-matchfields.yaml", pod="default/two",
         feasible={"node-a", "node-c"},
         absent_ok={"node-b"}),
    # Empty intersection within the only term -> PreFilter UAU; every node
    # carries that status; the message is the PreFilter message (no
    # histogram): "0/3 nodes are available: " + msg + ".".
    dict(fixture="edge/node-affinity-terms-conflict.yaml",
         pod="default/incoming",
         feasible=set(),
         rejected={n: ("NodeAffinity", ["pod affinity terms conflict"])
                   for n in ("node-a", "node-b", "node-c")},
         viable=set(),
         message="0/3 nodes are available: pod affinity terms conflict."),

    # ---------------------------------------------------------- NodePorts §2.6
    # used: n1 0.0.0.0/TCP, n2 10.0.0.1/TCP, n3 0.0.0.0/UDP, n4 10.0.0.2/TCP.
    # 10.0.0.1/TCP conflicts with 0.0.0.0 (n1) and 10.0.0.1 (n2).
    dict(fixture="edge/hostport-conflicts.yaml", pod="default/want-specific",
         feasible={"n3", "n4"},
         rejected={"n1": ("NodePorts", [PORTS_REASON]),
                   "n2": ("NodePorts", [PORTS_REASON])}),
    # 0.0.0.0/TCP conflicts with every TCP use of 8080.
    dict(fixture="edge/hostport-conflicts.yaml", pod="default/want-any",
         feasible={"n3"},
         rejected={n: ("NodePorts", [PORTS_REASON]) for n in ("n1", "n2", "n4")},
         viable={"n3"}),
    # 10.0.0.3/UDP conflicts only with n3's 0.0.0.0/UDP.
    dict(fixture="edge/hostport-conflicts.yaml", pod="default/want-udp",
         feasible={"n1", "n2", "n4"},
         rejected={"n3": ("NodePorts", [PORTS_REASON])}),
    # Init containers' ports are not wanted ports.
    dict(fixture="edge/hostport-conflicts.yaml", pod="default/init-only",
         feasible={"n1", "n2", "n3", "n4"}),

    # --------------------------------------------------- NodeResourcesFit §2.7
    # request = max(500+500, max(1500, 800)) = 1500m vs allocatable - used.
    dict(fixture="edge/resources-init-container-max.yaml",
         pod="default/incoming",
         feasible={"n-1500", "n-1600"},
         rejected={"n-1400": ("NodeResourcesFit", ["Insufficient cpu"]),
                   "n-1600-used": ("NodeResourcesFit", ["Insufficient cpu"])}),
    # sidecar-first: max(500+300, max(300, 600+300)) = 900m > 850m.
    dict(fixture="edge/resources-sidecar-sum.yaml",
         pod="default/sidecar-first",
         feasible={"n-900"},
         rejected={"n-850": ("NodeResourcesFit", ["Insufficient cpu"])},
         viable={"n-900"}),
    # sidecar-last: max(500+300, max(600, 300)) = 800m <= 850m.
    dict(fixture="edge/resources-sidecar-sum.yaml",
         pod="default/sidecar-last",
         feasible={"n-850", "n-900"}),
    # 500m + overhead 250m = 750m.
    dict(fixture="edge/resources-overhead.yaml", pod="default/incoming",
         feasible={"n-750"},
         rejected={"n-700": ("NodeResourcesFit", ["Insufficient cpu"])}),
    # pods + 1 > allocatable.pods (absent = 0; 1 + 1 > 1), before the
    # "requests nothing" early exit.
    dict(fixture="edge/resources-missing-allocatable-pods.yaml",
         pod="default/incoming",
         feasible={"roomy"},
         rejected={"no-pods": ("NodeResourcesFit", ["Too many pods"]),
                   "full": ("NodeResourcesFit", ["Too many pods"])},
         viable={"roomy"}),
    # nvidia.com/gpu: gpu2 2-1 = 1 < 2, gpu4 4-2 = 2 >= 2, nogpu 0 < 2.
    dict(fixture="edge/resources-extended-gpu.yaml", pod="default/incoming",
         feasible={"gpu4"},
         rejected={"gpu2": ("NodeResourcesFit", ["Insufficient nvidia.com/gpu"]),
                   "nogpu": ("NodeResourcesFit", ["Insufficient nvidia.com/gpu"])},
         viable={"gpu4"}),
    # §4: 0.4m + 0.4m summed exactly = 0.8m, MilliValue rounds up once to
    # 1m; free = 1000m - 999m = 1m; 1 > 1 is false -> fits.
    dict(fixture="edge/resources-quantity-rounding.yaml",
         pod="default/tiny-pair",
         feasible={"q1"}, viable={"q1"}),
    # 1.5m -> 2m > 1m free.
    dict(fixture="edge/resources-quantity-rounding.yaml", pod="default/over",
         feasible=set(),
         rejected={"q1": ("NodeResourcesFit", ["Insufficient cpu"])},
         viable=set(),
         message="0/1 nodes are available: 1 Insufficient cpu."),
    # 20Gi > 10Gi ephemeral-storage.
    dict(fixture="edge/resources-quantity-rounding.yaml", pod="default/disk",
         feasible=set(),
         rejected={"q1": ("NodeResourcesFit",
                          ["Insufficient ephemeral-storage"])},
         viable=set(),
         message="0/1 nodes are available: 1 Insufficient "
                 "ephemeral-storage."),
    # Succeeded/Failed pods are not in the scheduler's cache.
    dict(fixture="edge/resources-terminal-pods-ignored.yaml",
         pod="default/incoming",
         feasible={"n1"},
         rejected={"n2": ("NodeResourcesFit", ["Insufficient cpu"])}),

    # ------------------------------------------------- scoring arithmetic §2.7-9
    # Derivations in the fixture header: LeastAllocated truncates each
    # resource then the mean; BalancedAllocation trunc((1-|f0-f1|/2)*100).
    dict(fixture="edge/score-least-allocated-balanced.yaml",
         pod="default/sized",
         feasible={"n1", "n2"},
         scores={"n1": {"NodeResourcesFit": 56,
                        "NodeResourcesBalancedAllocation": 93},
                 "n2": {"NodeResourcesFit": 81,
                        "NodeResourcesBalancedAllocation": 92}}),
    dict(fixture="edge/score-least-allocated-balanced.yaml",
         pod="default/besteffort",
         feasible={"n1", "n2"},
         scores={"n1": {"NodeResourcesFit": 66,
                        "NodeResourcesBalancedAllocation": 93},
                 "n2": {"NodeResourcesFit": 92,
                        "NodeResourcesBalancedAllocation": 95}}),
    # Go int64 wrap-around at the limits (issue 33 N1; the fixture header
    # works out each value): w's Requested wraps negative and the free
    # memory 8Ei - Requested wraps too, so 1Ei does not fit; v's wraps to
    # 5Ei, leaving room; the (cap - req) * 100 products wrap to 0 scores.
    dict(fixture="edge/resources-int64-wraparound.yaml",
         pod="default/p",
         feasible={"u", "v"},
         rejected={"w": ("NodeResourcesFit", ["Insufficient memory"])},
         scores={"u": {"NodeResourcesFit": 37,
                       "NodeResourcesBalancedAllocation": 93},
                 "v": {"NodeResourcesFit": 33,
                       "NodeResourcesBalancedAllocation": 75}}),
    # Two 5Ei containers: PodRequests memory wraps to -6917529027641081856,
    # which fitsRequest skips (only a positive request is checked); then
    # LeastAllocated's score leaves [0, 100] and the cycle is an Error
    # (fixture header: small's score (95 + -8589934492) / 2 = -4294967198).
    dict(fixture="edge/resources-sum-past-int64.yaml", pod="default/p",
         feasible={"small", "huge"}, viable=[],
         message='applying score defaultWeights on Score plugins: plugin '
                 '"NodeResourcesFit" returns an invalid score -4294967198, '
                 'it should in the range of [0, 100] after normalizing'),
    # NonZeroRequested of the sidecar pod = 1000m/1Gi (sidecar not summed),
    # Requested = 1500m/2Gi.  n1 fit (50+75)/2 = 62; balanced 0.625 vs
    # 0.375 -> 87; n2 fit (75+87)/2 = 81; balanced 0.25 vs 0.125 -> 93.
    dict(fixture="edge/score-nonzero-sidecar-quirk.yaml",
         pod="default/incoming",
         feasible={"n1", "n2"},
         scores={"n1": {"NodeResourcesFit": 62,
                        "NodeResourcesBalancedAllocation": 87},
                 "n2": {"NodeResourcesFit": 81,
                        "NodeResourcesBalancedAllocation": 93}}),
    # N = 4; sums 550Mi, 500Mi, 125Mi, 0; minT 23Mi = 24117248, maxT
    # 3*1000Mi = 3145728000: 100*(576716800-24117248)/3121610752 = 17,
    # 100*(524288000-24117248)/3121610752 = 16,
    # 100*(131072000-24117248)/3121610752 = 3, 0.
    dict(fixture="edge/score-image-locality.yaml", pod="default/incoming",
         feasible={"n1", "n2", "n3", "n4"},
         scores={"n1": {"ImageLocality": 17}, "n2": {"ImageLocality": 16},
                 "n3": {"ImageLocality": 3}, "n4": {"ImageLocality": 0}}),

    # -------------------------------------------------- PodTopologySpread §2.11
    # {} selector counts 0 everywhere; self 1; 0+1-0 = 1 <= 1.
    dict(fixture="edge/spread-empty-selector.yaml", pod="default/incoming",
         feasible={"n1", "n2"}),
    # minDomains 3 > 2 domains -> min 0: 1+1-0 = 2 > 1 on both.
    dict(fixture="edge/spread-min-domains.yaml", pod="default/min3",
         feasible=set(),
         rejected={"n1": ("PodTopologySpread", [PTS_REASON]),
                   "n2": ("PodTopologySpread", [PTS_REASON])},
         viable=set(),
         message="0/2 nodes are available: 2 node(s) didn't match pod "
                 "topology spread constraints."),
    dict(fixture="edge/spread-min-domains.yaml", pod="default/min2",
         feasible={"n1", "n2"}),
    # Honor: tainted n2 is no domain, min 1, n1/n3 skew 1.
    dict(fixture="edge/spread-node-taints-policy.yaml", pod="default/honor",
         feasible={"n1", "n3"},
         rejected={"n2": ("TaintToleration",
                          [taint_reason("dedicated", "infra")])},
         failed={"n2": ["TaintToleration"]}),
    # Ignore: zone2 counts 0 -> min 0 -> n1, n3 at 2 > 1.
    dict(fixture="edge/spread-node-taints-policy.yaml", pod="default/ignore",
         feasible=set(),
         rejected={"n1": ("PodTopologySpread", [PTS_REASON]),
                   "n2": ("TaintToleration",
                          [taint_reason("dedicated", "infra")]),
                   "n3": ("PodTopologySpread", [PTS_REASON])},
         viable=set(),
         message="0/3 nodes are available: 1 node(s) had untolerated taint "
                 "{dedicated: infra}, 2 node(s) didn't match pod topology "
                 "spread constraints."),
    # System defaults + "" pseudo-zone: see the fixture header.
    dict(fixture="edge/spread-system-defaults-pseudo-zone.yaml",
         pod="default/web-5",
         feasible={"n1", "n2", "n3", "n4"},
         scores={"n1": {"PodTopologySpread": 60},
                 "n2": {"PodTopologySpread": 122},
                 "n3": {"PodTopologySpread": 122},
                 "n4": {"PodTopologySpread": 200}}),
    # Terminating pods: not counted by spreading (zone a 0, b 1, min 0)...
    dict(fixture="edge/spread-terminating-pods-ignored.yaml",
         pod="default/spread",
         feasible={"n1"},
         rejected={"n2": ("PodTopologySpread", [PTS_REASON])},
         viable={"n1"}),
    # ...but their requests still occupy n1: 1500 - 2*500 = 500 < 600.
    dict(fixture="edge/spread-terminating-pods-ignored.yaml",
         pod="default/hungry",
         feasible={"n2"},
         rejected={"n1": ("NodeResourcesFit", ["Insufficient cpu"])}),

    # --------------------------------------------------- InterPodAffinity §2.10
    # The only app=db pod of namespace default sits on zone-less n3, so
    # aff (keyed by the hosting node's zone) is empty and db-0 matches its
    # own term -> passes wherever the zone key exists; n3 lacks it.
    dict(fixture="edge/interpod-first-pod.yaml", pod="default/db-0",
         feasible={"n1", "n2"},
         rejected={"n3": ("InterPodAffinity", [AFF_REASON])}),
    # web-0 does not match its own term: no exception.
    dict(fixture="edge/interpod-first-pod.yaml", pod="default/web-0",
         feasible=set(),
         rejected={n: ("InterPodAffinity", [AFF_REASON])
                   for n in ("n1", "n2", "n3")},
         viable=set(),
         message="0/3 nodes are available: 3 node(s) didn't match pod "
                 "affinity rules."),
    # existingAnti[(zone, a)] = 1 from loner's term matching app=web.
    dict(fixture="edge/interpod-existing-anti-affinity.yaml",
         pod="default/web",
         feasible={"n3"},
         rejected={"n1": ("InterPodAffinity", [EXISTING_ANTI_REASON]),
                   "n2": ("InterPodAffinity", [EXISTING_ANTI_REASON])},
         viable={"n3"}),
    # raw 50, -29, 10, 80 -> trunc(100*(s+29)/109) = 72, 0, 35, 100; x2.
    dict(fixture="edge/interpod-preferred-scores.yaml", pod="default/client",
         feasible={"n1", "n2", "n3", "n4"},
         scores={"n1": {"InterPodAffinity": 144},
                 "n2": {"InterPodAffinity": 0},
                 "n3": {"InterPodAffinity": 70},
                 "n4": {"InterPodAffinity": 200}}),

    # ------------------------------------------------------- FitError message
    # Histogram {"node(s) had untolerated taint {dedicated: gpu}": 1,
    # "Insufficient cpu": 2}; "1 node(s)..." < "2 Insufficient cpu".
    dict(fixture="edge/fit-error-message.yaml", pod="default/incoming",
         feasible=set(),
         rejected={"gpu-node": ("TaintToleration",
                                [taint_reason("dedicated", "gpu")]),
                   "n2": ("NodeResourcesFit", ["Insufficient cpu"]),
                   "n3": ("NodeResourcesFit", ["Insufficient cpu"])},
         failed={"gpu-node": ["TaintToleration", "NodeResourcesFit"],
                 "n2": ["NodeResourcesFit"], "n3": ["NodeResourcesFit"]},
         viable=set(),
         message="0/3 nodes are available: 1 node(s) had untolerated taint "
                 "{dedicated: gpu}, 2 Insufficient cpu."),
    # {"Insufficient cpu": 2, "Insufficient memory": 1, "Too many pods": 1}
    # -> sorted "1 Insufficient memory" < "1 Too many pods" < "2 ...".
    dict(fixture="edge/fit-error-multi-reason.yaml", pod="default/incoming",
         feasible=set(),
         rejected={"small": ("NodeResourcesFit",
                             ["Insufficient cpu", "Insufficient memory"]),
                   "medium": ("NodeResourcesFit", ["Insufficient cpu"]),
                   "crowded": ("NodeResourcesFit", ["Too many pods"])},
         viable=set(),
         message="0/3 nodes are available: 1 Insufficient memory, 1 Too many "
                 "pods, 2 Insufficient cpu."),

    # ------------------------------------------------------ nominated pods §1.5
    dict(fixture="edge/nominated-pods.yaml", pod="default/incoming",
         feasible={"n2"},
         rejected={"n1": ("NodeResourcesFit", ["Insufficient cpu"])},
         viable={"n2"}),

    # ---------------------------------------------------------- queue §1.2
    # No --pod: priority 10 beats 0; of the two priority-10 pods the older
    # (10:01) wins; gated (SchedulingGates, reference §2.1) and
    # other-scheduler pods are not queued.
    dict(fixture="edge/queue-order.yaml", pod=None,
         expect_pod="default/early-high",
         feasible={"n1"}, viable={"n1"}),
]


def case_id(c):
    name = c["fixture"].split("/")[-1].removesuffix(".yaml")
    if sum(d["fixture"] == c["fixture"] for d in CASES) > 1:
        name += ":" + c['pod'].split('/')[-1]
    return name


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_edge_case(case):
    out = run_case(case)
    want_pod = case.get("expect_pod") or case["pod"]
    assert out["pod"] == want_pod


def test_explain_json_shape():
    """The documented JSON: exactly the top-level keys, every node of the
    fixture present with exactly the per-node keys; for a pod that fits,
    preemption is null and there is no FitError message."""
    out = explain("edge/taint-prefer-no-schedule.yaml", "default/incoming")
    check(out, {})
    assert set(out["nodes"]) == {"p1", "p2", "p3"}
    assert out["preemption"] is None
    for n in out["nodes"].values():
        assert isinstance(n["feasible"], bool)
        assert isinstance(n["rejected_by"], str)
        assert isinstance(n["failed_filters"], list)
        assert isinstance(n["reasons"], list)
        assert isinstance(n["scores"], dict)
        assert isinstance(n["total"], int)


def test_spread_same_key_duplicate_is_rejected():
    """spread-same-key-duplicate.yaml: two constraints with the same
    {topologyKey, whenUnsatisfiable} fail API validation
    (ValidateSpreadConstraintNotRepeat), so the same-key counter sharing of
    reference §2.11/§7 cannot be reached with a valid pod; kso must refuse
    the file with one FILE:LINE:COL error line and exit status 1."""
    path = fixture_path("edge/spread-same-key-duplicate.yaml")
    r = run_kso("explain", path, "--pod", "default/incoming", "-o", "json")
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    assert re.match(re.escape(str(path)) + r":\d+:\d+: ", lines[0]), lines[0]
    assert "topologySpreadConstraints" in lines[0], lines[0]


def test_every_fixture_is_exercised():
    """Every fixtures/edge and fixtures/seeds manifest belongs to a test."""
    import test_seed_examples
    used = {c["fixture"] for c in CASES + test_seed_examples.CASES}
    used.add("edge/spread-same-key-duplicate.yaml")
    used.add("edge/taint-long-key.yaml")             # test_long_reason.py
    used.add("edge/node-affinity-unparsable.yaml")   # test_node_affinity_parse.py
    used.add("edge/schedule-pending-reasons.yaml")   # test_schedule_pending.py
    used.add("edge/error-clears-nomination.yaml")    # test_nominated.py
    root = fixture_path("edge/queue-order.yaml").parent.parent
    on_disk = {str(p.relative_to(root)) for d in ("edge", "seeds")
               for p in (root / d).glob("*.yaml")}
    assert on_disk - used == set(), sorted(on_disk - used)
