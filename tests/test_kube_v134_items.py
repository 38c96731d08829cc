"""
test_kube_v134_items.py - the v1.34 delta items of issue 34 handled in
model/ and oracle/ by plugin (BalancedAllocation's best-effort Skip,
NonZeroRequested with sidecars, NodePorts and sidecars, the VolumeBinding
and VolumeRestrictions texts, matchLabelKeys, the v1.34.1 namespaceSelector
regression, pod-level resources and resize, NodeVolumeLimits with
CSINode-only limits and VolumeAttachments, VolumeAttributesClass).

Each case runs `kso explain --kube-version V` for both releases with both
engines (conftest.explain: same bytes required) and checks the answers
worked out by hand in the fixture's header (fixtures/v134/, or the named
older fixture, whose v1.30 answers stay what they were).  Only the fields
an item changes are checked: other v1.34 items (DynamicResources'
PostFilter text, NodeResourcesFit's codes) are tested where they live.
"""
import pytest


from conftest import fixture_path, node, run_kso, json_of_both_engines

V130, V134 = "1.30", "1.34"
PORTS = "node(s) didn't have free ports for the requested pod ports"
ANTI = "node(s) didn't match pod anti-affinity rules"
LIMITS = "node(s) exceed max volume count"
NO_PV = "node(s) didn't find available persistent volumes to bind"
RWOP = {V130: "node has pod using PersistentVolumeClaim with the same name "
              "and ReadWriteOncePod access mode",
        V134: "node(s) unavailable due to PersistentVolumeClaim with "
              "ReadWriteOncePod access mode already in-use by another pod"}
PV_AFFINITY = {V130: "node(s) had volume node affinity conflict",
               V134: "node(s) didn't match PersistentVolume's node affinity"}


def explain(fixture, pod, version, *switches):
    """conftest.explain with --kube-version (both engines, same bytes)."""
    args = ["explain", fixture_path(fixture), "--pod", pod, "-o", "json",
            "--kube-version", version, *switches]
    return json_of_both_engines(*args)


def verdicts(out):
    """node -> None when feasible, else (rejected_by, reasons)."""
    return {n: None if v["feasible"] else (v["rejected_by"], v["reasons"])
            for n, v in out["nodes"].items()}


@pytest.mark.parametrize("version", [V130, V134])
def test_balanced_allocation_skips_best_effort_pods(version):
    out = explain("v134/balanced-best-effort.yaml", "default/be", version)
    got = {n: node(out, n)["scores"]["NodeResourcesBalancedAllocation"]
           for n in ("n1", "n2")}
    assert got == ({"n1": 87, "n2": 100} if version == V130
                   else {"n1": 0, "n2": 0})
    table = run_kso("explain", fixture_path("v134/balanced-best-effort.yaml"),
                    "--pod", "default/be", "--kube-version", version,
                    "-o", "wide").stdout
    # the wide table's BalancedAllocation column says "skip" under v1.34
    lines = table.splitlines()
    head = next(i for i, l in enumerate(lines)
                if l.startswith("NODE ") and "BalancedAllocation" in l)
    col = lines[head].split().index("NodeResourcesBalancedAllocation\u00d71")
    cells = {l.split()[0]: l.split()[col] for l in lines[head + 1:head + 3]}
    assert cells == ({"n1": "87", "n2": "100"} if version == V130
                     else {"n1": "skip", "n2": "skip"})


@pytest.mark.parametrize("version", [V130, V134])
def test_nonzero_requested_counts_sidecars(version):
    # edge/score-nonzero-sidecar-quirk.yaml: n1's NonZeroRequested is
    # 1000m / 1Gi in v1.30, 1500m / 2Gi in v1.34 (the full formula):
    # cpu (4000 - 2500) * 100 / 4000 = 37, memory (8 - 3) * 100 / 8 = 62
    # -> (37 + 62) / 2 = 49.  n2 is empty: 81 in both.
    out = explain("edge/score-nonzero-sidecar-quirk.yaml", "default/incoming",
                  version)
    assert node(out, "n1")["scores"]["NodeResourcesFit"] == \
        (62 if version == V130 else 49)
    assert node(out, "n2")["scores"]["NodeResourcesFit"] == 81


@pytest.mark.parametrize("pod,v130,v134", [
    ("default/web", {"n1": None, "n2": None},
     {"n1": ("NodePorts", [PORTS]), "n2": None}),
    ("default/sc", {"n1": None, "n2": None},
     {"n1": ("NodePorts", [PORTS]), "n2": None}),
    ("default/init", {"n1": None, "n2": None}, {"n1": None, "n2": None}),
])
def test_node_ports_read_sidecars(pod, v130, v134):
    assert verdicts(explain("v134/ports-sidecar.yaml", pod, V130)) == v130
    assert verdicts(explain("v134/ports-sidecar.yaml", pod, V134)) == v134


@pytest.mark.parametrize("version", [V130, V134])
def test_read_write_once_pod_text(version):
    out = explain("volumes/rwop.yaml", "default/taker", version)
    assert verdicts(out) == {n: ("VolumeRestrictions", [RWOP[version]])
                             for n in ("r1", "r2")}


@pytest.mark.parametrize("version", [V130, V134])
def test_volume_binding_node_conflict_text(version):
    # volumes/binding.yaml p-two-pinned: each node conflicts with one of
    # its two PVs' node affinity
    out = explain("volumes/binding.yaml", "default/p-two-pinned", version)
    got = verdicts(out)
    assert len(got) == 3
    assert all(v == ("VolumeBinding", [PV_AFFINITY[version]])
               for v in got.values()), got


def test_match_label_keys():
    f = "v134/affinity-match-label-keys.yaml"
    assert verdicts(explain(f, "default/new", V130)) == {
        "n1": ("InterPodAffinity", [ANTI]), "n2": ("InterPodAffinity", [ANTI])}
    assert verdicts(explain(f, "default/new", V134)) == {
        "n1": None, "n2": ("InterPodAffinity", [ANTI])}
    # v1.30 warns where the dropped field is, v1.34 does not
    warn = ("%s:41:25: warning: kube v1.30 drops matchLabelKeys of pod "
            "(anti-)affinity terms (gate MatchLabelKeysInPodAffinity off): "
            "kso ignores it; --kube-version 1.34 merges it into the "
            "labelSelector (spec.affinity.podAntiAffinity."
            "requiredDuringSchedulingIgnoredDuringExecution[0]."
            "matchLabelKeys)\n" % fixture_path(f))
    p = run_kso("validate", fixture_path(f))
    assert p.returncode == 0 and p.stderr == warn
    p = run_kso("validate", fixture_path(f), "--kube-version", V134)
    assert p.returncode == 0 and p.stderr == ""
    # --strict makes the warning the error
    p = run_kso("validate", fixture_path(f), "--strict")
    assert p.returncode == 1


def test_negative_namespace_selector_regression():
    f = "v134/affinity-negative-ns-selector.yaml"
    assert verdicts(explain(f, "a/new", V130)) == {"n1": None, "n2": None}
    assert verdicts(explain(f, "a/new", V134)) == {
        "n1": ("InterPodAffinity", [ANTI]), "n2": None}
    off = ("--quirk", "affinity-negative-ns-selector=off")
    assert verdicts(explain(f, "a/new", V134, *off)) == {"n1": None,
                                                          "n2": None}
    # the switch names a quirk v1.30 does not have: accepted, no effect
    assert verdicts(explain(f, "a/new", V130, *off)) == {"n1": None,
                                                          "n2": None}


def test_pod_level_resources_and_resize():
    f = "v134/pod-level-resources.yaml"
    assert verdicts(explain(f, "default/big", V130)) == {
        "n1": None, "n2": None, "n3": None}
    got = verdicts(explain(f, "default/big", V134))
    assert got["n3"] is None
    for n in ("n1", "n2"):
        assert got[n] == ("NodeResourcesFit", ["Insufficient cpu"]), got


@pytest.mark.parametrize("version", [V130, V134])
def test_fit_score_skips_pod_level_requests(version):
    # fixtures/v134/fit-score-pod-level.yaml's header: v1.34.1's Fit
    # scorer reads p's container request (100m / 128Mi), BalancedAllocation
    # its pod-level one (3 cpu / 2Gi); v1.30 has no pod level at all
    out = explain("v134/fit-score-pod-level.yaml", "default/p", version)
    fit = {n: node(out, n)["scores"]["NodeResourcesFit"] for n in ("n1", "n2")}
    assert fit == {"n1": 96, "n2": 71}
    if version == V134:
        bal = {n: node(out, n)["scores"]["NodeResourcesBalancedAllocation"]
               for n in ("n1", "n2")}
        assert bal == {"n1": 87, "n2": 87}


def test_csi_limits_from_csinode_and_attachments():
    f = "v134/csi-limits-attachments.yaml"
    assert verdicts(explain(f, "default/new", V130)) == {
        "n1": None, "n2": ("NodeVolumeLimits", [LIMITS])}
    assert verdicts(explain(f, "default/new", V134)) == {
        "n1": ("NodeVolumeLimits", [LIMITS]), "n2": None}
    # the VolumeAttachments are read and dumped whatever the release
    dump = run_kso("dump", fixture_path(f), "-o", "yaml").stdout
    assert dump.count("kind: \"VolumeAttachment\"") == 5


def test_volume_attributes_class_matching():
    f = "v134/volume-binding-vac.yaml"
    # v1.30: the API server dropped both classes; pv-gold matches either
    assert verdicts(explain(f, "default/p-gold", V130)) == {"n1": None}
    assert verdicts(explain(f, "default/p-none", V130)) == {"n1": None}
    assert verdicts(explain(f, "default/p-gold", V134)) == {"n1": None}
    assert verdicts(explain(f, "default/p-none", V134)) == {
        "n1": ("VolumeBinding", [NO_PV])}


@pytest.mark.parametrize("bad,why", [
    ("spec: {nodeName: n1, source: {persistentVolumeName: pv}}",
     "attacher is required"),
    ("spec: {attacher: d, source: {persistentVolumeName: pv}}",
     "nodeName is required"),
    ("spec: {attacher: d, nodeName: n1, source: {}}",
     "must specify exactly one of persistentVolumeName and "
     "inlineVolumeSpec"),
])
def test_a_bad_volume_attachment_is_refused(tmp_path, bad, why):
    f = tmp_path / "va.yaml"
    f.write_text("apiVersion: storage.k8s.io/v1\nkind: VolumeAttachment\n"
                 "metadata: {name: va}\n" + bad + "\n")
    p = run_kso("validate", f)
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith(str(f) + ":4:") and why in p.stderr, p.stderr


def test_portworx_csi_migration():
    f = "v134/csi-limits-portworx.yaml"
    assert verdicts(explain(f, "default/new", V130)) == {"n1": None,
                                                         "n2": None}
    assert verdicts(explain(f, "default/new", V134)) == {
        "n1": ("NodeVolumeLimits", [LIMITS]), "n2": None}
