"""test_v134_volume_fixtures.py - the volume fixtures' v1.34 answers where
they differ from v1.30's (issue 34: "the existing fixtures keep their
v1.30 answers under --kube-version 1.30, and get their v1.34 answers
worked out where they differ"); the companion of test_v134_fixtures.py,
which holds the other fixtures.

The v1.30 answers stay where they are tested (test_volumes.py,
test_fidelity.py: the suite runs kso under v1.30, conftest.py).  Here each
case is a pending pod whose answer v1.34 changes, run by both engines
under --kube-version 1.34, with the v1.34 answer worked out by hand from
the fixture's header and objects and the delta reference
(../shared/reference/kube-scheduler-v1.34-delta.md):

* item 1 (§5.1): a request above the node's allocatable is
  UnschedulableAndUnresolvable, so such a node is no preemption candidate;
* item 2 (§4, §5.9): DynamicResources' PostFilter runs first, a failed
  preemption's message is prefixed "no new claims to deallocate, " (a
  successful one wins and drops it);
* item 7 (§5.6, §5.7): VolumeBinding's node-affinity reason "node(s)
  didn't match PersistentVolume's node affinity" (v1.30 "node(s) had
  volume node affinity conflict"), VolumeRestrictions' ReadWriteOncePod
  reason "node(s) unavailable due to PersistentVolumeClaim with
  ReadWriteOncePod access mode already in-use by another pod" (v1.30
  "node has pod using PersistentVolumeClaim with the same name and
  ReadWriteOncePod access mode");
* item 8 (§1, §5.8): EBSLimits, GCEPDLimits and AzureDiskLimits are gone;
  NodeVolumeLimits reads limits from CSINode only, and an in-tree volume
  is migrated (counted under its CSI driver) only on a node with a CSINode
  (v1.34.1 nodevolumelimits/utils.go isCSIMigrationOn: a nil CSINode is
  "not migrated"), so on a node without one nothing limits it;
* item 12 (§5.9, v1.34.1): a PreFilter rejection ends the FitError with
  ". not found" (no preemption).

VolumeBinding's PreFilter still returns no PreFilterResult in v1.34.1
(volumebinding/volume_binding.go PreFilter ends "return nil, nil"), so
every node goes through its Filter as under v1.30.

Pending pods of these fixtures whose v1.34 answer is v1.30's (not listed):
volumes/csimig.yaml p-gce-pv, p-azure (m1 NodeVolumeLimits 1+1 > 1 in both
releases; m2 fits: under v1.30 GCEPDLimits/AzureDiskLimits 0+1 <= 16, under
v1.34 nothing counts them); volumes/translate.yaml p-ebs-bad,
p-gce-regions (the translation Error), p-cinder, p-cinder-same (Cinder was
only ever counted through CSINode), p-azure-file (not migrated);
volumes/binding.yaml p-eph-owned (its BalancedAllocation change is
test_v134_fixtures.py's); fidelity/csi-limits-attached.yaml p-shared-csi
(newVolumes empty after the attached v1, no key is checked);
fidelity/beta-class-in-tree-limits.yaml p-beta (counted by no plugin in
either release).
"""

import pytest

from conftest import fixture_path, json_of_both_engines

UAU = "UnschedulableAndUnresolvable"
UNS = "Unschedulable"
OK = "Success"
PV_AFFINITY = "node(s) didn't match PersistentVolume's node affinity"
RWOP = ("node(s) unavailable due to PersistentVolumeClaim with "
        "ReadWriteOncePod access mode already in-use by another pod")
MAX_VOLUMES = "node(s) exceed max volume count"
CPU = "Insufficient cpu"
NODE_SELECTOR = "node(s) didn't match Pod's node affinity/selector"
TRANSLATE_ERROR = ('running "VolumeBinding" filter plugin: could not '
                   "translate pv: failed to translate Kubernetes ID to EBS "
                   "Volume ID Invalid format for AWS volume "
                   "(aws://us-east-1a/bad-id)")


def config(name):
    return ("--config", fixture_path("fidelity/" + name))


# (fixture, pod) -> (extra arguments, {node: (v1.34 code, reasons)} of
# the nodes the delta changes, the best-scoring nodes (None: not worked
# out here), the event message ("" when the pod binds or preempts))
CASES = {
    # m1's CSINode allows 1 EBS volume and holds e-ebs (vol-1 once
    # translated): 1 + 1 > 1.  m2 has no CSINode: vol-3 is not migrated
    # there and EBSLimits (which refused it, 1 + 1 > its allocatable's 1)
    # is gone: m2 fits and takes the pod (v1.30: pending)
    ("volumes/csimig.yaml", "default/p-ebs"): (
        (), {"m1": (UNS, [MAX_VOLUMES]), "m2": (OK, [])}, ["m2"], ""),
    # vol-1 is attached on m1 already (deleted from newVolumes): m1 fits in
    # both releases; m2 now fits too.  Both feasible, the pod BestEffort:
    # LeastAllocated counts 100m/200Mi per pod: m1 (3 pods + it) cpu
    # (8000-400)*100/8000 = 95, memory (16384-800)*100/16384 = 95 -> 95;
    # m2 (1 + it) 97 and 97 -> 97; the other scores tie (no taints, no
    # affinity, no spread constraints, image x on no node, no
    # BalancedAllocation for a BestEffort pod): m2 wins (v1.30: m1 alone)
    ("volumes/csimig.yaml", "default/p-ebs-same"): (
        (), {"m1": (OK, []), "m2": (OK, [])}, ["m2"], ""),
    # holder (priority 0) holds only-one on r1: every node Unschedulable
    # with the new text; taker (100) still preempts holder on r1, so
    # DefaultPreemption's success wins over DynamicResources' reason and
    # the FitError has no PostFilter message
    ("volumes/rwop.yaml", "default/taker"): (
        (), {"r1": (UNS, [RWOP]), "r2": (UNS, [RWOP])}, [],
        "0/2 nodes are available: 2 " + RWOP + "."),
    # the translated PV's topology.gke.io/zone (or the kept GA key on t4)
    # has no match on t2 (and t3/t4 as the header says): the new text only
    ("volumes/translate.yaml", "default/p-label"): (
        (), {"t1": (OK, []), "t2": (UAU, [PV_AFFINITY]), "t3": (OK, [])},
        None, ""),
    ("volumes/translate.yaml", "default/p-aff"): (
        (), {"t1": (OK, []), "t2": (UAU, [PV_AFFINITY]), "t3": (OK, []),
             "t4": (UAU, [PV_AFFINITY])}, None, ""),
    ("volumes/translate.yaml", "default/p-beta"): (
        (), {"t1": (OK, []), "t2": (UAU, [PV_AFFINITY]),
             "t3": (UAU, [PV_AFFINITY]), "t4": (UAU, [PV_AFFINITY])},
        ["t1"], ""),
    # pinned-n2's PV wants n2, pinned-n1's n1: every node conflicts with
    # one of them (UAU, one reason), no preemption candidate
    ("volumes/binding.yaml", "default/p-two-pinned"): (
        (), {n: (UAU, [PV_AFFINITY]) for n in ("n1", "n2", "n3")}, [],
        "0/3 nodes are available: 3 " + PV_AFFINITY + ". no new claims to "
        "deallocate, preemption: 0/3 nodes are available: 3 Preemption is "
        "not helpful for scheduling."),
    # VolumeBinding's PreFilter rejects the ephemeral claims (missing; not
    # owned by the pod): ". not found" ends the message (item 12)
    ("volumes/binding.yaml", "default/p-eph-missing"): (
        (), {n: (UAU, ['waiting for ephemeral volume controller to create '
                       'the persistentvolumeclaim "p-eph-missing-scratch"'])
             for n in ("n1", "n2", "n3")}, [],
        "0/3 nodes are available: waiting for ephemeral volume controller "
        'to create the persistentvolumeclaim "p-eph-missing-scratch". '
        "not found"),
    ("volumes/binding.yaml", "default/p-eph-foreign"): (
        (), {n: (UAU, ["PVC default/p-eph-foreign-scratch was not created "
                       "for pod default/p-eph-foreign (pod is not owner)"])
             for n in ("n1", "n2", "n3")}, [],
        "0/3 nodes are available: PVC default/p-eph-foreign-scratch was "
        "not created for pod default/p-eph-foreign (pod is not owner). "
        "not found"),
    # c1: CSINode limit 1, 2 attached + v3 > 1 (Unschedulable, as v1.30);
    # i1 fails the nodeSelector; c1's residents have p's priority 0: only
    # the prefix changes
    ("fidelity/csi-limits-attached.yaml", "default/p-new-csi"): (
        (), {"c1": (UNS, [MAX_VOLUMES]), "i1": (UAU, [NODE_SELECTOR])}, [],
        "0/2 nodes are available: 1 " + NODE_SELECTOR + ", 1 " + MAX_VOLUMES
        + ". no new claims to deallocate, preemption: 0/2 nodes are "
        "available: 1 No preemption victims found for incoming pod, 1 "
        "Preemption is not helpful for scheduling."),
    # i1 has no CSINode: pd-a is not migrated, NodeVolumeLimits has no
    # limit there and GCEPDLimits (2 + 0 > 1 under v1.30) is gone: i1 fits
    ("fidelity/csi-limits-attached.yaml", "default/p-shared-gce"): (
        (), {"c1": (UAU, [NODE_SELECTOR]), "i1": (OK, [])}, ["i1"], ""),
    # c-spec's class provisions kubernetes.io/aws-ebs; e1 has no CSINode
    # (not migrated) and EBSLimits (1 + 1 > 1 under v1.30) is gone: fits
    ("fidelity/beta-class-in-tree-limits.yaml", "default/p-spec"): (
        (), {"e1": (OK, [])}, ["e1"], ""),
    # NodeResourcesFit first: 2 cpu above n1's and n2's 1 (UAU); no
    # candidate left (v1.30: both candidates, no victims)
    ("fidelity/filter-override-order.yaml", "default/p"): (
        config("filter-override-order.config.yaml"),
        {"n1": (UAU, [CPU]), "n2": (UAU, [CPU])}, [],
        "0/2 nodes are available: 2 Insufficient cpu. no new claims to "
        "deallocate, preemption: 0/2 nodes are available: 2 Preemption is "
        "not helpful for scheduling."),
    # NodeResourcesFit, then NodeUnschedulable: n1 (1 cpu) above its
    # allocatable (UAU), n2 (4 cpu) fits and is unschedulable (UAU)
    ("fidelity/filter-override-list-order.yaml", "default/p"): (
        config("filter-override-list-order.config.yaml"),
        {"n1": (UAU, [CPU]), "n2": (UAU, ["node(s) were unschedulable"])},
        [],
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were "
        "unschedulable. no new claims to deallocate, preemption: 0/2 nodes "
        "are available: 2 Preemption is not helpful for scheduling."),
    # pv-local wants kubernetes.io/hostname h-1: only host-node's label;
    # the other two conflict with the new text; one feasible node
    ("fidelity/volume-binding-all-nodes.yaml", "default/p-label"): (
        (), {"host-node": (OK, []), "other-node": (UAU, [PV_AFFINITY]),
             "ebs-node": (UAU, [PV_AFFINITY])}, ["host-node"], ""),
    # p-error: host-node conflicts with pv-other (the new text),
    # other-node fits, ebs-node's translation Error still ends the cycle
    # (no PreFilterResult in v1.34.1 either, so ebs-node is filtered)
    ("fidelity/volume-binding-all-nodes.yaml", "default/p-error"): (
        (), {"host-node": (UAU, [PV_AFFINITY]), "other-node": (OK, []),
             "ebs-node": ("Error", [TRANSLATE_ERROR])}, [],
        TRANSLATE_ERROR),
}


def explain_134(fixture, pod, extra):
    args = ["explain", fixture_path(fixture), "--pod", pod, "-o", "json",
            "--kube-version", "1.34", *extra]
    return json_of_both_engines(*args)


@pytest.mark.parametrize("case", sorted(CASES), ids=lambda c: f"{c[0]}:{c[1]}")
def test_v134_volume_answer(case):
    extra, nodes, viable, message = CASES[case]
    d = explain_134(*case, extra)
    assert d["kube_version"] == "1.34"
    assert {n: (d["nodes"][n]["code"], d["nodes"][n]["reasons"])
            for n in nodes} == nodes
    if viable is not None:
        assert sorted(d["viable"]) == viable
    assert d["message"] == message


def test_rwop_taker_still_preempts_holder():
    """taker's preemption under v1.34 (only r1 drops the conflict when
    holder, priority 0 < 100, is removed)."""
    d = explain_134("volumes/rwop.yaml", "default/taker", ())
    assert (d["preemption"]["node"], d["preemption"]["victims"]) == \
        ("r1", ["default/holder"])

