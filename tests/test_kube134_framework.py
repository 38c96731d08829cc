"""kube v1.34's framework-level changes (issue 34; the delta reference
items 1, 2, 3 and 12), each with a fixture under fixtures/kube134/ whose
header works out both releases' answers by hand from the delta reference
and kube's rules; run here by both engines under both releases.  The
per-plugin items are in their own tests; the plumbing in
test_kube_version.py.
"""
import json

import pytest

from conftest import fixture_path, run_kso

ENGINES = ["oracle", "model"]


def explain(fixture, pod, engine, version, *more):
    p = run_kso("explain", fixture_path("kube134/" + fixture), "--pod", pod,
                "--engine", engine, "--kube-version", version, "-o", "json",
                *more)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def codes(d):
    return {n: v["code"] for n, v in d["nodes"].items()}


FIT_V130 = ("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 "
            "nodes are available: 1 No preemption victims found for incoming "
            "pod, 2 Insufficient cpu.")
FIT_V134 = ("0/3 nodes are available: 3 Insufficient cpu. no new claims to "
            "deallocate, preemption: 0/3 nodes are available: 1 No preemption "
            "victims found for incoming pod, 2 Preemption is not helpful for "
            "scheduling.")


@pytest.mark.parametrize("engine", ENGINES)
def test_request_above_allocatable_is_unresolvable(engine):
    d = explain("fit-above-allocatable.yaml", "default/urgent", engine, "1.30")
    assert codes(d) == {"small": "Unschedulable", "big": "Unschedulable",
                        "mid": "Unschedulable"}
    assert d["message"] == FIT_V130
    assert d["preemption"]["node"] == ""
    d = explain("fit-above-allocatable.yaml", "default/urgent", engine, "1.34")
    assert codes(d) == {"small": "UnschedulableAndUnresolvable",
                        "big": "UnschedulableAndUnresolvable",
                        "mid": "Unschedulable"}
    for n in ("small", "big", "mid"):
        assert d["nodes"][n]["rejected_by"] == "NodeResourcesFit"
    assert d["message"] == FIT_V134
    assert d["preemption"]["node"] == ""


NEVER = "0/1 nodes are available: 1 Insufficient cpu."


@pytest.mark.parametrize("engine", ENGINES)
def test_dynamic_resources_postfilter_comes_first(engine):
    d = explain("postfilter-order.yaml", "default/never", engine, "1.30")
    assert d["message"] == (NEVER + " preemption: not eligible due to "
                            "preemptionPolicy=Never.")
    d = explain("postfilter-order.yaml", "default/never", engine, "1.34")
    assert d["message"] == (NEVER + " no new claims to deallocate, "
                            "preemption: not eligible due to "
                            "preemptionPolicy=Never.")
    # a successful preemption: DynamicResources' reason is dropped
    for v in ("1.30", "1.34"):
        d = explain("postfilter-order.yaml", "default/urgent", engine, v)
        assert d["preemption"]["node"] == "n1"
        assert d["preemption"]["victims"] == ["default/low"]
        assert d["message"] == NEVER


def filter_columns(version):
    t = run_kso("explain", fixture_path("kube134/postfilter-order.yaml"),
                "--pod", "default/urgent", "--kube-version", version,
                "-o", "wide").stdout
    return t.splitlines()[3].split()[1:-1]


def test_filter_order_per_release():
    # delta reference §1: v1.34's Filter list drops EBSLimits,
    # GCEPDLimits and AzureDiskLimits, the others keep their order
    # and add DynamicResources last (its Filter skips a pod without claims;
    # tests/test_dra_engines.py has pods with claims)
    v130 = ["NodeUnschedulable", "NodeName", "TaintToleration",
            "NodeAffinity", "NodePorts", "NodeResourcesFit",
            "VolumeRestrictions", "EBSLimits", "GCEPDLimits",
            "NodeVolumeLimits", "AzureDiskLimits", "VolumeBinding",
            "VolumeZone", "PodTopologySpread", "InterPodAffinity"]
    assert filter_columns("1.30") == v130
    assert filter_columns("1.34") == [c for c in v130 if c not in (
        "EBSLimits", "GCEPDLimits", "AzureDiskLimits")] + ["DynamicResources"]


CONFLICT = "0/2 nodes are available: pod affinity terms conflict."
NOT_HELPFUL = ("preemption: 0/2 nodes are available: 2 Preemption is not "
               "helpful for scheduling.")


def schedule(fixture, engine, *more):
    p = run_kso("schedule", fixture_path("kube134/" + fixture), "--engine",
                engine, *more)
    assert p.returncode == 0, p.stderr
    return p


@pytest.mark.parametrize("engine", ENGINES)
def test_prefilter_rejection_kills_preemption_in_v1_34_1(engine):
    d = explain("prefilter-reject-not-found.yaml", "default/p", engine, "1.30")
    assert d["message"] == CONFLICT + " " + NOT_HELPFUL
    d = explain("prefilter-reject-not-found.yaml", "default/p", engine, "1.34")
    assert d["message"] == CONFLICT + " not found"
    d = explain("prefilter-reject-not-found.yaml", "default/p", engine, "1.34",
                "--quirk", "dra-postfilter-not-found=off")
    assert d["message"] == (CONFLICT + " no new claims to deallocate, " +
                            NOT_HELPFUL)
    # v1.30 clears the nomination (no candidate); v1.34.1's Error leaves it
    y30 = schedule("prefilter-reject-not-found.yaml", engine, "-o", "yaml")
    y34 = schedule("prefilter-reject-not-found.yaml", engine, "-o", "yaml",
                   "--kube-version", "1.34")
    assert "nominatedNodeName" not in y30.stdout
    assert 'nominatedNodeName: "a"' in y34.stdout


@pytest.mark.parametrize("engine", ENGINES)
def test_absent_nodes_count_in_the_fit_error(engine):
    for v, msg in [("1.30", "0/2 nodes are available: 1 Insufficient cpu."),
                   ("1.34", "0/2 nodes are available: 1 Insufficient cpu, 1 "
                    "node(s) didn't satisfy plugin(s) [NodeAffinity].")]:
        d = explain("absent-nodes.yaml", "default/p", engine, v)
        assert d["message"] == msg
        assert d["preemption"]["node"] == "small"
        assert d["preemption"]["victims"] == ["default/low2"]
        assert d["nodes"]["small"]["code"] == "Unschedulable"


# validatePluginSetForInvalidPlugins: field.Invalid at the entry, the
# version it names being core/v1's SchemeGroupVersion ("v1", sic);
# v1.30's registry has DynamicResources, a no-op with its gate off that
# kso does not model (refused, saying so).
@pytest.mark.parametrize("config,v130,v134", [
    ("filter:\n      enabled:\n      - name: EBSLimits\n", None,
     'was invalid in version "v1" '
     '(KubeSchedulerConfiguration is version '
     '"kubescheduler.config.k8s.io/v1") '
     '(profiles[0].plugins.filter.enabled[0])'),
    ("multiPoint:\n      enabled:\n      - name: AzureDiskLimits\n", None,
     'PreFilterPlugin "AzureDiskLimits" does not exist '
     '(profiles[0].plugins.multiPoint.enabled[0].name)'),
    ("postFilter:\n      enabled:\n      - name: DynamicResources\n",
     'DynamicResources is a no-op in v1.30 (its feature gate is off) that '
     'kso does not model; leave it out '
     '(profiles[0].plugins.postFilter.enabled[0].name)', None),
])
def test_configuration_validated_per_release(tmp_path, config, v130, v134):
    f = tmp_path / "c.yaml"
    f.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                 "kind: KubeSchedulerConfiguration\nprofiles:\n"
                 "- schedulerName: default-scheduler\n  plugins:\n    " +
                 config)
    cluster = fixture_path("kube134/postfilter-order.yaml")
    for v, want in (("1.30", v130), ("1.34", v134)):
        p = run_kso("validate", cluster, "--config", f, "--kube-version", v)
        if want is None:
            assert p.returncode == 0, p.stderr
        else:
            assert (p.returncode, p.stdout) == (1, "")
            assert p.stderr.startswith(str(f) + ":")
            assert p.stderr.rstrip("\n").endswith(want), p.stderr


# The delta reference §2's reworded validation messages, the texts read
# from each release's pkg/scheduler/apis/config/validation
# (validateCommonQueueSort, validateFunctionShape,
# ValidateVolumeBindingArgsWithOptions).
SHAPE = ("  pluginConfig:\n  - name: NodeResourcesFit\n    args:\n"
         "      scoringStrategy:\n        type: RequestedToCapacityRatio\n"
         "        requestedToCapacityRatio:\n          shape:\n"
         "          - {utilization: 50, score: 1}\n"
         "          - {utilization: 50, score: 5}\n")
SHAPE_PATH = ("(profiles[0].pluginConfig[0].args.scoringStrategy."
              "requestedToCapacityRatio.shape[1].utilization)")


@pytest.mark.parametrize("profiles,v130,v134", [
    ("- schedulerName: a\n- schedulerName: b\n  plugins:\n    queueSort:\n"
     "      disabled:\n      - name: PrioritySort\n",
     "queueSort must be the same for all profiles "
     "(profiles[1].plugins.queueSort)",
     "must be the same for all profiles (profiles[1].plugins.queueSort)"),
    ("- schedulerName: a\n" + SHAPE,
     "utilization values must be sorted in increasing order " + SHAPE_PATH,
     "values must be sorted in increasing order " + SHAPE_PATH),
    ("- schedulerName: a\n  pluginConfig:\n  - name: VolumeBinding\n"
     "    args:\n      bindTimeoutSeconds: 600\n      shape:\n"
     "      - {utilization: 0, score: 0}\n",
     "unexpected field `shape`, remove it or turn on the feature gate "
     "VolumeCapacityPriority (profiles[0].pluginConfig[0].args.shape)",
     "unexpected field `shape`, remove it or turn on the feature gate "
     "StorageCapacityScoring (profiles[0].pluginConfig[0].args.shape)"),
    # the same in both: a negative timeout; queueSort sets that agree
    ("- schedulerName: a\n  pluginConfig:\n  - name: VolumeBinding\n"
     "    args:\n      bindTimeoutSeconds: -1\n",
     "invalid BindTimeoutSeconds, should not be a negative value "
     "(profiles[0].pluginConfig[0].args.bindTimeoutSeconds)",
     "invalid BindTimeoutSeconds, should not be a negative value "
     "(profiles[0].pluginConfig[0].args.bindTimeoutSeconds)"),
    ("- schedulerName: a\n  plugins:\n    queueSort: {}\n"
     "- schedulerName: b\n  plugins:\n    queueSort:\n      enabled: []\n",
     None, None),
    # DynamicResourcesArgs (§2, v1.34 only): filterTimeout read as Go's
    # time.ParseDuration reads it, refused when negative
    # v1.30 registers no DynamicResourcesArgs (kube-scheduler/config/v1
    # register.go): PluginConfig.decodeNestedObjects skips such args
    # unread, so v1.30 accepts them whatever they hold
    ("- schedulerName: a\n  pluginConfig:\n  - name: DynamicResources\n"
     "    args:\n      filterTimeout: \"-1s\"\n",
     None,
     "must be zero or positive "
     "(profiles[0].pluginConfig[0].args.filterTimeout)"),
    ("- schedulerName: a\n  pluginConfig:\n  - name: DynamicResources\n"
     "    args:\n      filterTimeout: 1d\n",
     None,
     'time: unknown unit "d" in duration "1d" '
     "(profiles[0].pluginConfig[0].args.filterTimeout)"),
])
def test_reworded_validation_messages(tmp_path, profiles, v130, v134):
    f = tmp_path / "c.yaml"
    f.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                 "kind: KubeSchedulerConfiguration\nprofiles:\n" + profiles)
    cluster = fixture_path("kube134/postfilter-order.yaml")
    for v, want in (("1.30", v130), ("1.34", v134)):
        p = run_kso("validate", cluster, "--config", f, "--kube-version", v)
        if want is None:
            assert p.returncode == 0, p.stderr
            continue
        assert (p.returncode, p.stdout) == (1, "")
        assert p.stderr.startswith(str(f) + ":")
        assert p.stderr.rstrip("\n").endswith(": " + want), p.stderr


def test_explain_compare_versions_shows_each_difference():
    # fit-above-allocatable's header: small and big turn
    # UnschedulableAndUnresolvable (NodeResourcesFit), mid stays; the
    # preemption message and the event message change; nothing else
    p = run_kso("explain", fixture_path("kube134/fit-above-allocatable.yaml"),
                "--compare-versions", "1.30,1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["pod"] == "default/urgent"
    assert d["versions"] == ["1.30", "1.34"]
    by_path = {x["path"]: x for x in d["differences"]}
    assert sorted(by_path) == ["message", "nodes.big.code",
                               "nodes.small.code", "preemption.message"]
    small = by_path["nodes.small.code"]
    assert (small["node"], small["plugin"], small["1.30"], small["1.34"]) == (
        "small", "NodeResourcesFit", "Unschedulable",
        "UnschedulableAndUnresolvable")
    assert by_path["message"]["1.30"] == FIT_V130
    assert by_path["message"]["1.34"] == FIT_V134
    t = run_kso("explain", fixture_path("kube134/fit-above-allocatable.yaml"),
                "--compare-versions", "1.30,1.34").stdout
    assert t.splitlines()[0] == ("pod default/urgent: kube 1.30 -> 1.34, 4 "
                                 "difference(s)")
    assert ("  nodes.small.code (NodeResourcesFit)  Unschedulable -> "
            "UnschedulableAndUnresolvable") in t.splitlines()
    # a pod both releases answer alike: no difference
    same = json.loads(run_kso(
        "explain", fixture_path("kube134/postfilter-order.yaml"), "--pod",
        "default/urgent", "--compare-versions", "1.30,1.34", "-o",
        "json").stdout)
    assert same["differences"] == []


@pytest.mark.parametrize("bad", ["1.30", "1.30,1.30", "1.30,2.0"])
def test_explain_compare_versions_usage(bad):
    p = run_kso("explain", fixture_path("kube134/postfilter-order.yaml"),
                "--compare-versions", bad)
    assert p.returncode == 2 and p.stdout == ""
    assert "--compare-versions takes two releases A,B" in p.stderr


@pytest.mark.parametrize("engine", ENGINES)
def test_terminating_victims_clear_no_nomination_in_v1_34(engine):
    # terminating-victims.yaml's header: the same candidate in both
    # releases; v1.30 clears waiter's nomination, v1.34's async execution
    # (only a terminating victim) returns before clearing anything
    for v, cleared in (("1.30", ["default/waiter"]), ("1.34", [])):
        d = explain("terminating-victims.yaml", "default/urgent", engine, v)
        assert d["preemption"]["node"] == "n1"
        assert d["preemption"]["victims"] == ["default/old"]
        assert d["preemption"]["cleared_nominations"] == cleared
    # the loop: waiter keeps its nomination to n1 after the step in v1.34
    y30 = schedule("terminating-victims.yaml", engine, "-o", "yaml",
                   "--max-steps", "1")
    y34 = schedule("terminating-victims.yaml", engine, "-o", "yaml",
                   "--max-steps", "1", "--kube-version", "1.34")
    assert waiter_nomination(y30.stdout) is None
    assert waiter_nomination(y34.stdout) == "n1"


def waiter_nomination(text):
    import yaml as pyyaml
    for doc in pyyaml.safe_load_all(text):
        for item in (doc or {}).get("items", [doc]) if doc else []:
            if item and item.get("kind") == "Pod" and \
                    item["metadata"]["name"] == "waiter":
                return (item.get("status") or {}).get("nominatedNodeName")
    raise AssertionError("no waiter in the output")
