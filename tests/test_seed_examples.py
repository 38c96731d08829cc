"""
test_seed_examples.py - the worked examples of the seeds
(shared/seeds/001 SelectorSpread, 002 Pod Topology Spread, 003 assigning
pods to nodes, 004 the formal model's GPU use case) as end-to-end
`kso explain` runs on fixtures/seeds/*.yaml.

Every expected number is derived by hand below from the formulas of
shared/reference/kube-scheduler-v1.30.md (section given per case); where a
seed's simplified statement differs from v1.30 (reference §5) the v1.30
answer is asserted and the difference noted.
"""
import pytest

from conftest import run_case

SS_CONFIG = "seeds/config/selectorspread-only.yaml"

PTS_REASON = "node(s) didn't match pod topology spread constraints"
AFF_REASON = "node(s) didn't match pod affinity rules"
ANTI_REASON = "node(s) didn't match pod anti-affinity rules"
NA_REASON = "node(s) didn't match Pod's node affinity/selector"

CASES = [
    # ------------------------------------------------ SelectorSpread (seed 001)
    # Reference §6.  Score = pods on the node in the pod's namespace matched
    # by the default selector (Service selectors merged, AND the controlling
    # RC's selector).  No zone labels, so f = 100*(maxNode - s)/maxNode.
    # Counts: node1 = 1 (labels1 pod; the labels2 pod lacks foo=bar),
    # node2 = 2.  maxNode = 2: node1 100*(1/2) = 50.0 -> 50, node2 0.
    # The config disables every other score plugin, so totals are these
    # scores and node1 (50) is the only viable node.
    dict(fixture="seeds/selectorspread-two-nodes-service.yaml",
         pod="default/incoming", config=SS_CONFIG,
         extension="SelectorSpread",
         feasible={"node1", "node2"},
         scores={"node1": {"SelectorSpread": 50},
                 "node2": {"SelectorSpread": 0}},
         totals={"node1": 50, "node2": 0},
         viable={"node1"}),
    # Selector = Service {baz: blah} merged with the owning RC's {foo: bar}
    # = {baz: blah, foo: bar}.  node1: a1 matches, a2 (bar=foo, baz=blah)
    # does not -> 1; node2: b1 -> 1.  maxNode = 1: both 100*(0/1) = 0.
    # (Had the RC been ignored, node1 would count 2 and score 0, node2 50.)
    dict(fixture="seeds/selectorspread-two-nodes-service-rc.yaml",
         pod="default/incoming", config=SS_CONFIG,
         extension="SelectorSpread",
         feasible={"node1", "node2"},
         scores={"node1": {"SelectorSpread": 0},
                 "node2": {"SelectorSpread": 0}},
         totals={"node1": 0, "node2": 0},
         viable={"node1", "node2"}),
    # Table 1.  Counts s = 0,1,1,0,1,0; maxNode = 1; zone keys ":\0:zoneN"
    # (zone label only): zone1 = 0, zone2 = 1+1 = 2, zone3 = 0+1+0 = 1,
    # maxZone = 2.  f = 100*(1-s)/1; zs = 100*(2-zc)/2 = 100, 0, 50.
    # final = trunc(f*(1-2/3) + (2/3)*zs) in float64:
    #   node1 100*(1/3)+(2/3)*100 = 100.0        -> 100
    #   node2, node3 0 + 0                        -> 0
    #   node4, node6 33.33..4 + 33.33..3 = 66.67 -> 66
    #   node5 0 + 33.33                           -> 33
    dict(fixture="seeds/selectorspread-six-nodes-table1.yaml",
         pod="default/incoming", config=SS_CONFIG,
         extension="SelectorSpread",
         feasible={f"node{i}" for i in range(1, 7)},
         scores={"node1": {"SelectorSpread": 100},
                 "node2": {"SelectorSpread": 0},
                 "node3": {"SelectorSpread": 0},
                 "node4": {"SelectorSpread": 66},
                 "node5": {"SelectorSpread": 33},
                 "node6": {"SelectorSpread": 66}},
         totals={"node1": 100, "node2": 0, "node3": 0, "node4": 66,
                 "node5": 33, "node6": 66},
         viable={"node1"}),
    # Table 2.  s = 1,1,0,1,0,0, maxNode = 1; zones: zone1 1, zone2 1+0,
    # zone3 1+0+0 -> all 1 = maxZone, zs = 0 everywhere.
    # final = trunc(f/3): f=100 -> 33.33 -> 33 (node3, node5, node6), else 0.
    dict(fixture="seeds/selectorspread-six-nodes-table2.yaml",
         pod="default/incoming", config=SS_CONFIG,
         extension="SelectorSpread",
         feasible={f"node{i}" for i in range(1, 7)},
         scores={"node1": {"SelectorSpread": 0},
                 "node2": {"SelectorSpread": 0},
                 "node3": {"SelectorSpread": 33},
                 "node4": {"SelectorSpread": 0},
                 "node5": {"SelectorSpread": 33},
                 "node6": {"SelectorSpread": 33}},
         viable={"node3", "node5", "node6"}),

    # ------------------------------------------- Pod Topology Spread (seed 002)
    # Reference §2.11 Filter: skew = match + self - minMatch > maxSkew fails.
    # zoneA = 2 (p1 node1, p2 node2), zoneB = 1 (p3 node3), min 1, self 1.
    # node1/node2: 2+1-1 = 2 > 1 -> Unschedulable; node3/node4: 1 -> pass.
    # Scores of the two feasible nodes (every term derived):
    #   TaintToleration: no taints, all raw 0 -> 100 (reverse) x3 = 300.
    #   NodeAffinity, InterPodAffinity: PreScore Skip -> 0.
    #   PodTopologySpread: no ScheduleAnyway constraint (explicit constraints
    #     replace the defaults) -> Skip -> 0.
    #   ImageLocality: no node images -> sum 0 -> clamp to minT -> 0.
    #   NodeResourcesFit (LeastAllocated, §2.7): pods without requests count
    #     100m / 200Mi.  node3: cpu (4000-200)*100/4000 = 95, mem
    #     (8Gi-400Mi)*100/8Gi = 95.1 -> 95, mean 95.  node4: cpu
    #     (4000-100)*100/4000 = 97, mem (8Gi-200Mi)*100/8Gi = 97.5 -> 97.
    #   BalancedAllocation: requested 0/alloc on both resources, std 0 -> 100.
    # Totals node3 = 300+95+100 = 495, node4 = 497: node4 is viable (the
    # seed says "node3 or node4"; v1.30's resource scoring breaks the tie).
    dict(fixture="seeds/spread-zone-maxskew1.yaml", pod="default/mypod",
         feasible={"node3", "node4"},
         rejected={"node1": ("PodTopologySpread", [PTS_REASON]),
                   "node2": ("PodTopologySpread", [PTS_REASON])},
         failed={"node1": ["PodTopologySpread"],
                 "node2": ["PodTopologySpread"]},
         scores={"node3": {"TaintToleration": 300, "NodeResourcesFit": 95,
                           "NodeResourcesBalancedAllocation": 100,
                           "PodTopologySpread": 0, "NodeAffinity": 0,
                           "InterPodAffinity": 0, "ImageLocality": 0},
                 "node4": {"TaintToleration": 300, "NodeResourcesFit": 97,
                           "NodeResourcesBalancedAllocation": 100,
                           "PodTopologySpread": 0, "NodeAffinity": 0,
                           "InterPodAffinity": 0, "ImageLocality": 0}},
         totals={"node3": 495, "node4": 497},
         viable={"node4"}),
    # maxSkew 2: zoneA 2+1-1 = 2 <= 2, zoneB 1 <= 2: all feasible.
    dict(fixture="seeds/spread-zone-maxskew2.yaml", pod="default/mypod",
         feasible={"node1", "node2", "node3", "node4"}),
    # topologyKey node: counts 1,1,1,0, min 0: node1..3 1+1-0 = 2 > 1.
    # One feasible node -> no scoring, node4 viable.
    dict(fixture="seeds/spread-node-maxskew1.yaml", pod="default/mypod",
         feasible={"node4"},
         rejected={f"node{i}": ("PodTopologySpread", [PTS_REASON])
                   for i in (1, 2, 3)},
         viable={"node4"}),
    # ScheduleAnyway (§2.11 scoring): explicit constraints -> requireAll;
    # feasible nodes register (zone,zoneA), (zone,zoneB): size 2,
    # W = ln(2+2) = 1.386.  counts zoneA 2, zoneB 1.
    # raw = round(cnt*W + (maxSkew-1)) = round(2.77) = 3 (node1, node2),
    # round(1.39) = 1 (node3, node4).  Normalize min 1, max 3:
    # 100*(3+1-3)/3 = 33, 100*(3+1-1)/3 = 100; x2 -> 66, 66, 200, 200.
    dict(fixture="seeds/spread-zone-scheduleanyway.yaml", pod="default/mypod",
         feasible={"node1", "node2", "node3", "node4"},
         scores={"node1": {"PodTopologySpread": 66},
                 "node2": {"PodTopologySpread": 66},
                 "node3": {"PodTopologySpread": 200},
                 "node4": {"PodTopologySpread": 200}}),
    # Two hard constraints: zone (zone1 3, zone2 2, min 2) and node (a0 b3
    # x2 y0, min 0).  node-a: zone 3+1-2 = 2 > 1 fails; node-b: zone fails;
    # node-x: zone 2+1-2 = 1 ok, node 2+1-0 = 3 > 1 fails; node-y: 1 and 1
    # ok.  (The seed's nodeA/nodeB/nodeX/nodeY are renamed: node names must
    # be lowercase RFC 1123 subdomains.)
    dict(fixture="seeds/spread-two-constraints.yaml", pod="default/mypod",
         feasible={"node-y"},
         rejected={n: ("PodTopologySpread", [PTS_REASON])
                   for n in ("node-a", "node-b", "node-x")},
         viable={"node-y"}),
    # nodeAffinityPolicy Honor: only env=qa nodes count.  zone1 = 2 (node1),
    # zone2 = 1 (node3), zone3 has no eligible node -> no domain; min 1.
    # node1 2+1-1 = 2 fails; node3, node4 1+1-1 = 1 pass.  node2 (prod)
    # fails NodeAffinity first and PodTopologySpread too (zone1: 2 > 1);
    # node5 (staging) fails NodeAffinity only (zone3 absent: 0+1-1 = 0).
    dict(fixture="seeds/spread-with-node-affinity.yaml", pod="default/mypod",
         feasible={"node3", "node4"},
         rejected={"node1": ("PodTopologySpread", [PTS_REASON]),
                   "node2": ("NodeAffinity", [NA_REASON]),
                   "node5": ("NodeAffinity", [NA_REASON])},
         failed={"node1": ["PodTopologySpread"],
                 "node2": ["NodeAffinity", "PodTopologySpread"],
                 "node5": ["NodeAffinity"]}),
    # 3/3/0 with zone3 unusable, DoNotSchedule: zone3's nodes are domains
    # (nodeTaintsPolicy Ignore; resources never matter) with count 0, so
    # min 0 and zone1/zone2 give 3+1-0 = 4 > 1 (the seed: "global minimum
    # is 0, the pod cannot be scheduled").  z3-a: TaintToleration (spread
    # 0+1-0 = 1 would pass); z3-b: 500m < 1 cpu.
    # FitError histogram, sorted as strings: "1 Insufficient cpu",
    # "1 node(s) had untolerated taint {maintenance: true}",
    # "4 node(s) didn't match pod topology spread constraints".
    dict(fixture="seeds/spread-infeasible-zone-donotschedule.yaml",
         pod="default/mypod",
         feasible=set(),
         rejected={"z1-a": ("PodTopologySpread", [PTS_REASON]),
                   "z1-b": ("PodTopologySpread", [PTS_REASON]),
                   "z2-a": ("PodTopologySpread", [PTS_REASON]),
                   "z2-b": ("PodTopologySpread", [PTS_REASON]),
                   "z3-a": ("TaintToleration",
                            ["node(s) had untolerated taint {maintenance: true}"]),
                   "z3-b": ("NodeResourcesFit", ["Insufficient cpu"])},
         failed={"z1-a": ["PodTopologySpread"], "z2-b": ["PodTopologySpread"],
                 "z3-a": ["TaintToleration"], "z3-b": ["NodeResourcesFit"]},
         viable=set(),
         message="0/6 nodes are available: 1 Insufficient cpu, 1 node(s) had "
                 "untolerated taint {maintenance: true}, 4 node(s) didn't "
                 "match pod topology spread constraints."),
    # Same, ScheduleAnyway: feasible = the four zone1/zone2 nodes; scoring
    # registers only zone1, zone2 (size 2, W = ln 4); counts 3 and 3;
    # raw = round(3*1.386) = round(4.16) = 4 everywhere; min = max = 4:
    # 100*(4+4-4)/4 = 100, x2 = 200 for all four (the seed: min is 3,
    # zone1 and zone2 equally likely).
    dict(fixture="seeds/spread-infeasible-zone-scheduleanyway.yaml",
         pod="default/mypod",
         feasible={"z1-a", "z1-b", "z2-a", "z2-b"},
         rejected={"z3-a": ("TaintToleration",
                            ["node(s) had untolerated taint {maintenance: true}"]),
                   "z3-b": ("NodeResourcesFit", ["Insufficient cpu"])},
         scores={n: {"PodTopologySpread": 200}
                 for n in ("z1-a", "z1-b", "z2-a", "z2-b")}),

    # ------------------------------------------ node affinity (seeds 003/000)
    # Reference §2.5: raw = sum of matching preferred weights: a 1, b 50,
    # c 51, e 0 (d fails the required os=linux).  Normalize 100*s/51:
    # 1 (1.96), 98 (98.04), 100, 0; x2 = 2, 196, 200, 0.  All else equal
    # (§1.6): TaintToleration 300, NodeResourcesFit 97 (empty node, pod
    # counted as 100m/200Mi: cpu 3900*100/4000 = 97, mem 97.5 -> 97),
    # Balanced 100, PodTopologySpread/InterPodAffinity skipped, ImageLocality
    # 0.  Totals 499, 693, 697, 497.  (Seed 004 (f) just adds weights.)
    dict(fixture="seeds/node-affinity-weights.yaml",
         pod="default/with-affinity-anti-affinity",
         feasible={"node-a", "node-b", "node-c", "node-e"},
         rejected={"node-d": ("NodeAffinity", [NA_REASON])},
         scores={"node-a": {"NodeAffinity": 2},
                 "node-b": {"NodeAffinity": 196},
                 "node-c": {"NodeAffinity": 200},
                 "node-e": {"NodeAffinity": 0}},
         totals={"node-a": 499, "node-b": 693, "node-c": 697, "node-e": 497},
         viable={"node-c"}),
    # east raw 1, west 0, max 1: 100*1/1 = 100 x2 = 200; west 0.
    dict(fixture="seeds/node-affinity-zones.yaml",
         pod="default/with-node-affinity",
         feasible={"east", "west"},
         rejected={"north": ("NodeAffinity", [NA_REASON])},
         scores={"east": {"NodeAffinity": 200}, "west": {"NodeAffinity": 0}}),

    # ----------------------------------------- inter-pod affinity (seed 003)
    # Reference §2.10.  aff[(zone,V)] = 1 (s1-v), aff[(zone,R)] = 1 (s1-r);
    # w1's zone W has 0 and aff is not empty -> UAU affinity failure.
    # Score: the preferred anti-affinity term (w 100) matches s2-r on r1:
    # score[zone][R] = -100.  raw v1 0, v2 0, r1 -100; min -100, max 0:
    # trunc(100*(100/100)) = 100 for v1, v2; r1 0.  x2 = 200, 200, 0.
    dict(fixture="seeds/pod-affinity-security.yaml",
         pod="default/with-pod-affinity",
         feasible={"v1", "v2", "r1"},
         rejected={"w1": ("InterPodAffinity", [AFF_REASON])},
         scores={"v1": {"InterPodAffinity": 200},
                 "v2": {"InterPodAffinity": 200},
                 "r1": {"InterPodAffinity": 0}}),
    # aff[(hostname,nodeN)] = 1 for every node (a cache each); P's
    # anti-affinity term matches web-server-1: anti[(hostname,node1)] = 1
    # -> node1 Unschedulable (anti-affinity check comes before the
    # existing-pods check that would also fail there).
    dict(fixture="seeds/web-store-three-caches.yaml",
         pod="default/web-server-2",
         feasible={"node2", "node3"},
         rejected={"node1": ("InterPodAffinity", [ANTI_REASON])}),
    # Caches on node1, node2 only: node3 has aff = 0 while aff is not empty
    # -> "didn't match pod affinity rules"; node1 anti-affinity as above.
    dict(fixture="seeds/web-store-two-caches.yaml",
         pod="default/web-server-2",
         feasible={"node2"},
         rejected={"node1": ("InterPodAffinity", [ANTI_REASON]),
                   "node3": ("InterPodAffinity", [AFF_REASON])},
         viable={"node2"}),
    # redis-cache-3's anti-affinity term matches the caches on node1, node2.
    dict(fixture="seeds/redis-cache-anti-affinity.yaml",
         pod="default/redis-cache-3",
         feasible={"node3"},
         rejected={"node1": ("InterPodAffinity", [ANTI_REASON]),
                   "node2": ("InterPodAffinity", [ANTI_REASON])},
         viable={"node3"}),

    # --------------------------------------------- GPU use case (seed 004)
    # train: tolerates the gpu taint; cpu-* have no nvidia.com/gpu
    # allocatable (0 < 1 requested) -> "Insufficient nvidia.com/gpu" (§2.7
    # step 4); gpu-* have 4.
    dict(fixture="seeds/gpu-cluster.yaml", pod="default/train",
         feasible={f"gpu-{i}" for i in range(1, 7)},
         rejected={f"cpu-{i}": ("NodeResourcesFit",
                                ["Insufficient nvidia.com/gpu"])
                   for i in range(1, 10)}),
    # web: no toleration -> the NoSchedule taint rejects every gpu-* node
    # (UAU, "{nvidia.com/gpu: present}").
    dict(fixture="seeds/gpu-cluster.yaml", pod="default/web",
         feasible={f"cpu-{i}" for i in range(1, 10)},
         rejected={f"gpu-{i}": ("TaintToleration",
                                ["node(s) had untolerated taint "
                                 "{nvidia.com/gpu: present}"])
                   for i in range(1, 7)}),
]


def case_id(c):
    name = c["fixture"].split("/")[-1].removesuffix(".yaml")
    pod = c["pod"].split("/")[-1]
    return name if c["fixture"] not in _SHARED else f"{name}:{pod}"


_SHARED = {c["fixture"] for c in CASES
           if sum(d["fixture"] == c["fixture"] for d in CASES) > 1}


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_seed_example(case):
    run_case(case)
