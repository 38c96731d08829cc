"""The volume plugins of the default profile (reference §2.12):
VolumeRestrictions, NodeVolumeLimits (CSI), VolumeBinding, VolumeZone.

Every expected status below is worked out by hand from kube v1.30.12's
plugins (volumebinding's PreFilter / FindPodVolumes, FindMatchingVolume,
volumezone's getPVbyPod and Filter, volumerestrictions' PreFilter and
AddPod/RemovePod, nodevolumelimits/csi.go) as each fixture's header
explains; both engines must give it.  Loader refusals follow the API
server's validation, one line FILE:LINE:COL: what (path).
"""
import json

import pytest

from conftest import FIXTURES, run_kso

VOL = FIXTURES / "volumes"
ENGINES = ["oracle", "model"]

UAU = "UnschedulableAndUnresolvable"
U = "Unschedulable"
OK = "Success"
BIND = "node(s) didn't find available persistent volumes to bind"
AFFINITY = "node(s) had volume node affinity conflict"
ZONE = "node(s) had no available volume zone"
LIMIT = "node(s) exceed max volume count"
RWOP = ("node has pod using PersistentVolumeClaim with the same name and "
        "ReadWriteOncePod access mode")
NOT_HELPFUL = ("preemption: 0/3 nodes are available: 3 Preemption is not "
               "helpful for scheduling.")


def explain(fixture, pod, engine):
    p = run_kso("explain", VOL / fixture, "--pod", pod, "-o", "json",
                "--engine", engine)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def verdicts(doc):
    """{node: (code, first failing plugin, its reasons)}"""
    return {n: (v["code"], v["rejected_by"], v["reasons"])
            for n, v in doc["nodes"].items()}


def every(code, plugin, reason, nodes=("n1", "n2", "n3")):
    return {n: (code, plugin, [reason]) for n in nodes}


# (pod, {node: (code, plugin, reasons)}, FitError message or None)
BINDING = [
    # bound claim on pv-a (zone a affinity): VolumeBinding's node
    # affinity check fails first on n2, n3 (VolumeZone would too)
    ("p-bound-a", {"n1": (OK, "", []),
                   "n2": (UAU, "VolumeBinding", [AFFINITY]),
                   "n3": (UAU, "VolumeBinding", [AFFINITY])}, None),
    # volumeName without pv.kubernetes.io/bind-completed: not bound, not
    # delay-binding (volumeName set): an unbound Immediate claim
    ("p-prebound", every(UAU, "VolumeBinding",
                         "pod has unbound immediate PersistentVolumeClaims"),
     "0/3 nodes are available: pod has unbound immediate "
     "PersistentVolumeClaims. " + NOT_HELPFUL),
    ("p-imm", every(UAU, "VolumeBinding",
                    "pod has unbound immediate PersistentVolumeClaims"),
     "0/3 nodes are available: pod has unbound immediate "
     "PersistentVolumeClaims. " + NOT_HELPFUL),
    # no PV of class wffc-b to match; provisioning allowed in zone b only
    ("p-wffc", {"n1": (UAU, "VolumeBinding", [BIND]),
                "n2": (OK, "", []), "n3": (OK, "", [])}, None),
    # local-n3 (20Gi >= 10Gi, RWO) only fits n3; local-n1-rox is
    # ReadOnlyMany; no-provisioner cannot provision
    ("p-local", {"n1": (UAU, "VolumeBinding", [BIND]),
                 "n2": (UAU, "VolumeBinding", [BIND]),
                 "n3": (OK, "", [])}, None),
    # 50Gi: local-n3 too small, local-n1-rox wrong access mode
    ("p-local-big", every(UAU, "VolumeBinding", BIND),
     f"0/3 nodes are available: 3 {BIND}. " + NOT_HELPFUL),
    # both claims: n1 no local match, n2 neither, n3 zone conflict only;
    # the reasons in FindPodVolumes' order, the histogram sorted
    ("p-two-reasons", {"n1": (UAU, "VolumeBinding", [BIND]),
                       "n2": (UAU, "VolumeBinding", [AFFINITY, BIND]),
                       "n3": (UAU, "VolumeBinding", [AFFINITY])},
     f"0/3 nodes are available: 2 {BIND}, 2 {AFFINITY}. " + NOT_HELPFUL),
    ("p-lost", every(UAU, "VolumeBinding",
                     'persistentvolumeclaim "lost" bound to non-existent '
                     'persistentvolume "gone"'), None),
    ("p-deleting", every(UAU, "VolumeBinding",
                         'persistentvolumeclaim "deleting" is being deleted'),
     None),
    # bound to a PV that does not exist: VolumeBinding's PreFilter passes
    # (it does not look the PV up), VolumeZone's PreFilter refuses
    ("p-ghost", every(UAU, "VolumeZone",
                      'persistentvolume "ghost-pv" not found'),
     '0/3 nodes are available: persistentvolume "ghost-pv" not found. '
     + NOT_HELPFUL),
    # a missing claim: VolumeRestrictions' PreFilter looks it up first
    ("p-missing", every(UAU, "VolumeRestrictions",
                        'persistentvolumeclaim "nope" not found'), None),
    # pinned-n2 and pinned-n1: v1.30.12 has no PreFilterResult, every
    # node is filtered and each conflicts with one of the two PVs
    ("p-two-pinned", every(UAU, "VolumeBinding", AFFINITY),
     "0/3 nodes are available: 3 node(s) had volume node affinity "
     "conflict. " + NOT_HELPFUL),
    ("p-eph-missing", every(UAU, "VolumeBinding",
                            "waiting for ephemeral volume controller to "
                            'create the persistentvolumeclaim '
                            '"p-eph-missing-scratch"'), None),
    ("p-eph-foreign", every(UAU, "VolumeBinding",
                            "PVC default/p-eph-foreign-scratch was not "
                            "created for pod default/p-eph-foreign (pod is "
                            "not owner)"), None),
    # its own claim (controller reference with the pod's uid), class
    # wffc-b: provisioned in zone b
    ("p-eph-owned", {"n1": (UAU, "VolumeBinding", [BIND]),
                     "n2": (OK, "", []), "n3": (OK, "", [])}, None),
    # two 10Gi local claims: on n3 the first takes local-n3-b (15Gi, the
    # smallest), the second local-n3 (20Gi; excludedVolumes)
    ("p-two-local", {"n1": (UAU, "VolumeBinding", [BIND]),
                     "n2": (UAU, "VolumeBinding", [BIND]),
                     "n3": (OK, "", [])}, None),
    # a third finds nothing left on n3 and cannot be provisioned
    ("p-three-local", every(UAU, "VolumeBinding", BIND), None),
    # its pre-bound PV is on n1: elsewhere no volume matches at all, not
    # even local-n3 on n3
    ("p-wants-n1", {"n1": (OK, "", []),
                    "n2": (UAU, "VolumeBinding", [BIND]),
                    "n3": (UAU, "VolumeBinding", [BIND])}, None),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,want,message", BINDING,
                         ids=[c[0] for c in BINDING])
def test_volume_binding(engine, pod, want, message):
    doc = explain("binding.yaml", pod, engine)
    assert verdicts(doc) == want
    if message:
        assert doc["message"] == message


@pytest.mark.parametrize("engine", ENGINES)
def test_local_pv_does_not_restrict_the_nodes(engine):
    # pinned-n2 is a bound local PV on kubernetes.io/hostname In [n2]:
    # v1.30.12's VolumeBinding PreFilter returns no PreFilterResult, so n1
    # and n3 are filtered and fail with the affinity conflict
    doc = explain("binding.yaml", "p-pinned", engine)
    inside = {n: v["in_prefilter_result"] for n, v in doc["nodes"].items()}
    assert inside == {"n1": True, "n2": True, "n3": True}
    assert verdicts(doc) == {"n1": (UAU, "VolumeBinding", [AFFINITY]),
                             "n2": (OK, "", []),
                             "n3": (UAU, "VolumeBinding", [AFFINITY])}
    assert doc["viable"] == ["n2"]


ZONES = [
    # "a__c" is the zones a and c; z4 has no topology label (never
    # constrained); z5 has only the beta zone label, not the GA key
    ("p-ac", {"z1": True, "z2": False, "z3": True, "z4": True, "z5": False}),
    # the PV's beta key: z2's GA label stands in for it
    ("p-beta-b", {"z1": False, "z2": True, "z3": False, "z4": True,
                  "z5": True}),
    ("p-r2", {"z1": False, "z2": False, "z3": True, "z4": True, "z5": False}),
    # "a____b" has an empty part: the label is skipped
    ("p-bad", {"z1": True, "z2": True, "z3": True, "z4": True, "z5": True}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,fits", ZONES, ids=[c[0] for c in ZONES])
def test_volume_zone(engine, pod, fits):
    doc = explain("zone.yaml", pod, engine)
    want = {n: (OK, "", []) if ok else (UAU, "VolumeZone", [ZONE])
            for n, ok in fits.items()}
    assert verdicts(doc) == want


LIMITS = [
    ("p-new", {"l1": False, "l2": True, "l3": False}),
    ("p-shared", {"l1": True, "l2": True, "l3": False}),
    ("p-two", {"l1": False, "l2": True, "l3": False}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,fits", LIMITS, ids=[c[0] for c in LIMITS])
def test_node_volume_limits(engine, pod, fits):
    doc = explain("limits.yaml", pod, engine)
    want = {n: (OK, "", []) if ok else (U, "NodeVolumeLimits", [LIMIT])
            for n, ok in fits.items()}
    assert verdicts(doc) == want


def schedule(fixture, engine):
    p = run_kso("schedule", VOL / fixture, "--engine", engine, "-o", "json")
    assert p.returncode == 0, p.stderr
    return [(s["pod"], s["action"], s["node"], s["victims"])
            for s in json.loads(p.stdout)["steps"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_preemption_frees_an_attach_slot(engine):
    # p-vip (1000) can only go to l1 (nodeSelector), full with e1's v1:
    # Unschedulable there, so preemption removes e1 and v2 fits.  Then
    # p-new and p-shared go to l2 (l1 holds v2, its limit 1), and p-two
    # fits nowhere: l2 holds v2 and v1 (2 of 2) and w4 is new
    steps = schedule("limits.yaml", engine)
    assert steps[0] == ("default/p-vip", "preempt", "l1", ["default/e1"])
    assert steps[1][:3] == ("default/p-vip", "bind", "l1")
    assert steps[2][:3] == ("default/p-new", "bind", "l2")
    assert steps[3][:3] == ("default/p-shared", "bind", "l2")
    assert steps[4][:2] == ("default/p-two", "unschedulable")


@pytest.mark.parametrize("engine", ENGINES)
def test_read_write_once_pod_holder_is_preempted(engine):
    doc = explain("rwop.yaml", "taker", engine)
    assert verdicts(doc) == {"r1": (U, "VolumeRestrictions", [RWOP]),
                             "r2": (U, "VolumeRestrictions", [RWOP])}
    assert doc["message"].startswith(f"0/2 nodes are available: 2 {RWOP}.")
    steps = schedule("rwop.yaml", engine)
    # only on r1 does removing the holder clear the conflict count
    assert steps[0] == ("default/taker", "preempt", "r1", ["default/holder"])
    assert steps[1][:3] == ("default/taker", "bind", "r1")


def test_pods_without_claims_skip_every_volume_plugin(tmp_path):
    # p-plain has no claim: the four PreFilters skip, no status anywhere
    f = tmp_path / "plain.yaml"
    f.write_text((VOL / "limits.yaml").read_text() + (
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p-plain}\nspec:\n"
        "  containers: [{name: c, image: x}]\n"
        "  volumes: [{name: cfg, configMap: {name: cfg}}]\n"))
    for engine in ENGINES:
        p = run_kso("explain", f, "--pod", "p-plain", "-o", "json",
                    "--engine", engine)
        assert p.returncode == 0, p.stderr
        doc = json.loads(p.stdout)
        assert all(v["code"] == OK for v in doc["nodes"].values())


# ------------------------------------------------------------- the loader

BAD = [
    # (manifest, line, col, message, path)
    ("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
     "spec:\n  accessModes: [ReadWriteOnce, ReadWriteOncePod]\n"
     "  resources: {requests: {storage: 1Gi}}\n", 5, 16,
     "may not use ReadWriteOncePod with other access modes",
     "spec.accessModes"),
    ("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
     "spec:\n  accessModes: [ReadWriteSometimes]\n"
     "  resources: {requests: {storage: 1Gi}}\n", 5, 17,
     'unsupported access mode "ReadWriteSometimes" (want ReadWriteOnce, '
     "ReadOnlyMany, ReadWriteMany, ReadWriteOncePod)", "spec.accessModes"),
    ("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c}\n"
     "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {}\n", 6, 14,
     "requests.storage is required", "spec.resources.requests"),
    ("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\n"
     "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n",
     5, 3, "must specify a volume type", "spec"),
    ("apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: v}\n"
     "spec:\n  accessModes: [ReadWriteOnce]\n  capacity: {storage: 1Gi}\n"
     "  local: {path: /mnt}\n", 5, 3, "Local volumes require node affinity",
     "spec.nodeAffinity"),
    ("apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s}\n"
     "provisioner: x\nvolumeBindingMode: Later\n", 5, 20,
     'unsupported volumeBindingMode "Later" (want Immediate, '
     "WaitForFirstConsumer)", "volumeBindingMode"),
    ("apiVersion: storage.k8s.io/v1\nkind: CSINode\nmetadata: {name: n}\n"
     "spec:\n  drivers:\n  - {name: d, allocatable: {count: -1}}\n", 6, 36,
     "must be greater than or equal to 0",
     "spec.drivers[0].allocatable.count"),
]


@pytest.mark.parametrize("text,line,col,msg,path", BAD,
                         ids=[f"bad{i}" for i in range(len(BAD))])
def test_storage_objects_are_validated(tmp_path, text, line, col, msg, path):
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    p = run_kso("validate", f)
    assert p.returncode == 1
    assert p.stdout == ""
    assert p.stderr == f"{f}:{line}:{col}: {msg} ({path})\n"


def test_default_storage_class_is_admitted(tmp_path):
    # a claim without storageClassName gets the default class (the newest
    # of two defaults); one with storageClassName "" keeps it
    f = tmp_path / "c.yaml"
    f.write_text(
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
        "metadata:\n  name: old\n  creationTimestamp: '2026-01-01T00:00:00Z'\n"
        "  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}\n"
        "provisioner: x\n---\n"
        "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
        "metadata:\n  name: new\n  creationTimestamp: '2026-06-01T00:00:00Z'\n"
        "  annotations: {storageclass.kubernetes.io/is-default-class: 'true'}\n"
        "provisioner: x\n---\n"
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}\n"
        "spec: {accessModes: [ReadWriteOnce], resources: {requests: "
        "{storage: 1Gi}}}\n---\n"
        "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: b}\n"
        "spec: {accessModes: [ReadWriteOnce], storageClassName: '', "
        "resources: {requests: {storage: 1Gi}}}\n")
    p = run_kso("dump", f, "-o", "json")
    assert p.returncode == 0, p.stderr
    claims = {c["metadata"]["name"]: c["spec"]
              for c in json.loads(p.stdout)["persistentVolumeClaims"]}
    assert claims["a"]["storageClassName"] == "new"
    assert claims["b"]["storageClassName"] == ""


NO_ROOM = "node(s) did not have enough free storage"
CAPACITY = [
    # see fixtures/volumes/capacity.yaml: rack-1 offers 10Gi (its
    # maximumVolumeSize, not its capacity), rack-2 50Gi, c3 no capacity
    # object it can reach
    ("p-small", {"c1": True, "c2": True, "c3": False}),
    ("p-big", {"c1": False, "c2": True, "c3": False}),
    ("p-untracked", {"c1": True, "c2": True, "c3": True}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,fits", CAPACITY, ids=[c[0] for c in CAPACITY])
def test_storage_capacity(engine, pod, fits):
    doc = explain("capacity.yaml", pod, engine)
    want = {n: (OK, "", []) if ok else (UAU, "VolumeBinding", [NO_ROOM])
            for n, ok in fits.items()}
    assert verdicts(doc) == want


def test_storage_objects_dump_and_read_back(tmp_path):
    # every storage kind goes through kso dump and reads back to the same
    # dump (the format kso serve and ITF traces carry clusters in)
    for name in ("binding", "capacity", "limits", "zone", "rwop", "disks",
                 "intree", "csimig"):
        first = run_kso("dump", VOL / f"{name}.yaml", "-o", "json")
        assert first.returncode == 0, first.stderr
        f = tmp_path / f"{name}.json"
        f.write_text(first.stdout)
        again = run_kso("dump", f, "-o", "json")
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout) == json.loads(first.stdout), name


def test_storage_typos_are_warnings(tmp_path):
    f = tmp_path / "typo.yaml"
    f.write_text("apiVersion: v1\nkind: PersistentVolumeClaim\n"
                 "metadata: {name: c}\nspec:\n  accessModes: [ReadWriteOnce]\n"
                 "  storageClasName: fast\n"
                 "  resources: {requests: {storage: 1Gi}}\n---\n"
                 "apiVersion: storage.k8s.io/v1\nkind: StorageClass\n"
                 "metadata: {name: fast}\nprovisioner: x\n"
                 "volumeBindingMod: WaitForFirstConsumer\n")
    p = run_kso("validate", f)
    assert p.returncode == 0, p.stderr
    assert p.stderr == (
        f'{f}:6:3: warning: unknown field "storageClasName" in a '
        "PersistentVolumeClaim's spec (did you mean storageClassName?); kso "
        "ignores it (spec.storageClasName)\n"
        f'{f}:13:1: warning: unknown field "volumeBindingMod" in a '
        "StorageClass (did you mean volumeBindingMode?); kso ignores it "
        "(volumeBindingMod)\n")


DISK = "node(s) had no available disk"
DISKS = [
    # see fixtures/volumes/disks.yaml
    ("p-gce", {"d1": False, "d2": True}),
    ("p-ebs", {"d1": False, "d2": True}),
    ("p-ro", {"d1": True, "d2": True}),
    ("p-rw", {"d1": True, "d2": False}),
    ("p-rbd", {"d1": True, "d2": False}),
    ("p-rbd-pool", {"d1": True, "d2": True}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,fits", DISKS, ids=[c[0] for c in DISKS])
def test_in_tree_disk_conflicts(engine, pod, fits):
    doc = explain("disks.yaml", pod, engine)
    want = {n: (OK, "", []) if ok else (U, "VolumeRestrictions", [DISK])
            for n, ok in fits.items()}
    assert verdicts(doc) == want


@pytest.mark.parametrize("engine", ENGINES)
def test_preemption_frees_a_disk(engine):
    # p-vip needs disk-1 on d1: both lower-priority pods there are removed,
    # e-ebs is reprieved (no conflict), e-gce is the victim
    doc = explain("disks.yaml", "p-vip", engine)
    assert doc["preemption"]["victims"] == ["default/e-gce"]


IN_TREE = [
    # see fixtures/volumes/intree.yaml; i3 has a CSINode (migrated: pass)
    ("p-ebs", {"i1": "EBSLimits", "i4": "EBSLimits"}),
    ("p-ebs-shared", {"i1": "VolumeRestrictions", "i4": "EBSLimits"}),
    ("p-gce-claim", {"i1": "GCEPDLimits"}),
    ("p-azure", {"i1": "AzureDiskLimits"}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,refused", IN_TREE, ids=[c[0] for c in IN_TREE])
def test_in_tree_volume_limits(engine, pod, refused):
    doc = explain("intree.yaml", pod, engine)
    want = {}
    for n in ("i1", "i2", "i3", "i4", "i5"):
        plugin = refused.get(n)
        reason = DISK if plugin == "VolumeRestrictions" else LIMIT
        want[n] = (U, plugin, [reason]) if plugin else (OK, "", [])
    assert verdicts(doc) == want


MIGRATION = [
    # see fixtures/volumes/csimig.yaml: m1 has a CSINode (migrated), m2 not
    ("p-ebs", {"m1": "NodeVolumeLimits", "m2": "EBSLimits"}),
    ("p-ebs-same", {"m2": "EBSLimits"}),
    ("p-gce-pv", {"m1": "NodeVolumeLimits"}),
    ("p-azure", {"m1": "NodeVolumeLimits"}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,refused", MIGRATION, ids=[c[0] for c in MIGRATION])
def test_csi_migration_of_in_tree_volumes(engine, pod, refused):
    doc = explain("csimig.yaml", pod, engine)
    want = {n: (U, refused[n], [LIMIT]) if n in refused else (OK, "", [])
            for n in ("m1", "m2")}
    assert verdicts(doc) == want


TRANSLATION = [
    # see fixtures/volumes/translate.yaml: t1, t2 list gce-pd as migrated
    ("p-label", {"t2": ("VolumeBinding", AFFINITY),
                 "t4": ("VolumeZone", ZONE)}),
    ("p-aff", {"t2": ("VolumeBinding", AFFINITY),
               "t4": ("VolumeBinding", AFFINITY)}),
    ("p-beta", {n: ("VolumeBinding", AFFINITY) for n in ("t2", "t3", "t4")}),
    ("p-cinder", {"t1": ("NodeVolumeLimits", LIMIT),
                  "t2": ("NodeVolumeLimits", LIMIT)}),
    ("p-cinder-same", {"t2": ("NodeVolumeLimits", LIMIT)}),
    ("p-azure-file", {}),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,refused", TRANSLATION,
                         ids=[c[0] for c in TRANSLATION])
def test_migrated_volumes_are_checked_translated(engine, pod, refused):
    doc = explain("translate.yaml", pod, engine)
    want = {}
    for n in ("t1", "t2", "t3", "t4"):
        if n not in refused:
            want[n] = (OK, "", [])
            continue
        plugin, reason = refused[n]
        code = U if plugin == "NodeVolumeLimits" else UAU
        want[n] = (code, plugin, [reason])
    assert verdicts(doc) == want


TRANSLATION_ERRORS = [
    ("p-ebs-bad", "failed to translate Kubernetes ID to EBS Volume ID "
     "Invalid format for AWS volume (aws://us-east-1a/bad-id)"),
    ("p-gce-regions", "failed to get region from zones: multiple or no "
     "regions gotten from zones, got: map[europe-west1:{} us-central1:{}]"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,error", TRANSLATION_ERRORS,
                         ids=[c[0] for c in TRANSLATION_ERRORS])
def test_a_failed_translation_is_a_filter_error(engine, pod, error):
    # t1 lists the plugin as migrated: the Filter's Error ends the cycle
    doc = explain("translate.yaml", pod, engine)
    message = ('running "VolumeBinding" filter plugin: could not '
               "translate pv: " + error)
    assert (doc["code"], doc["message"]) == ("Error", message)
    assert verdicts(doc)["t1"] == ("Error", "VolumeBinding", [message])


def test_migrated_plugins_annotation_is_dumped(tmp_path):
    p = run_kso("dump", VOL / "translate.yaml")
    assert p.returncode == 0, p.stderr
    dumped = tmp_path / "dump.yaml"
    dumped.write_text(p.stdout)
    for pod in ("p-label", "p-beta"):
        assert (verdicts(explain(dumped, pod, "oracle"))
                == verdicts(explain("translate.yaml", pod, "oracle")))


FOREIGN_EPHEMERAL = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: e-scratch}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: v1
kind: Pod
metadata: {name: e}
spec:
  nodeName: n1
  containers: [{name: c, image: x}]
  volumes:
  - name: scratch
    ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-csi}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  csi: {driver: example.csi.io, volumeHandle: h-1}
  claimRef: {namespace: default, name: c}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: "", volumeName: pv-csi}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: c}}]
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_filter_errors_are_wrapped_like_run_filter_plugins(engine, tmp_path):
    # NodeVolumeLimits reads the node's pods' volumes once the new pod has
    # one to count; e's ephemeral claim is not owned by e: an Error, which
    # RunFilterPlugins wraps with the plugin's name
    f = tmp_path / "c.yaml"
    f.write_text(FOREIGN_EPHEMERAL)
    doc = explain(f, "p", engine)
    message = ('running "NodeVolumeLimits" filter plugin: PVC '
               "default/e-scratch was not created for pod default/e (pod "
               "is not owner)")
    assert (doc["code"], doc["message"]) == ("Error", message)


LONG_DRIVER = """\
apiVersion: v1
kind: Node
metadata: {name: n1}
status:
  allocatable: {cpu: "8", memory: 16Gi, pods: "110",
    attachable-volumes-csi-example.very-long-csi-d02331e6eb7560870: "1"}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  csi: {driver: example.very-long-csi-driver-name.storage.io, volumeHandle: h-1}
  claimRef: {namespace: default, name: c-1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-2}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  csi: {driver: example.very-long-csi-driver-name.storage.io, volumeHandle: h-2}
  claimRef: {namespace: default, name: c-2}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c-1, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: "", volumeName: pv-1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c-2, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}, storageClassName: "", volumeName: pv-2}
---
apiVersion: v1
kind: Pod
metadata: {name: e}
spec:
  nodeName: n1
  containers: [{name: c, image: x}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: c-1}}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: x}]
  volumes: [{name: v, persistentVolumeClaim: {claimName: c-2}}]
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_long_driver_name_has_a_hashed_limit_key(engine, tmp_path):
    # GetCSIAttachLimitKey: 23 + 44 characters >= 63, so the node's limit
    # is under the prefix, the name's first 23 characters and the first 16
    # hex digits of its SHA-1 (hashlib: d02331e6eb756087); n1 allows 1
    # volume and e holds h-1: p's h-2 exceeds it
    f = tmp_path / "c.yaml"
    f.write_text(LONG_DRIVER)
    doc = explain(f, "p", engine)
    assert verdicts(doc) == {"n1": (U, "NodeVolumeLimits", [LIMIT])}


@pytest.mark.parametrize("engine", ENGINES)
def test_table_of_a_cycle_ended_by_an_error(engine):
    # t1's Filter Error ends the cycle: kube filters no other node, and
    # the table says so (it used to abort on their empty verdicts)
    p = run_kso("explain", VOL / "translate.yaml", "--pod", "p-ebs-bad",
                "--engine", engine)
    assert p.returncode == 0, p.stderr
    rows = {line.split()[0]: line for line in p.stdout.splitlines()
            if line[:2] in ("t1", "t2", "t3", "t4")}
    assert rows["t1"].split()[1:3] == ["rejected", "VolumeBinding:"]
    for n in ("t2", "t3", "t4"):
        assert rows[n].split()[1] == "-"
        assert "not evaluated (the cycle's Error)" in rows[n]
        assert "✓" not in rows[n]
