"""Fidelity cases from the differential run against kube-scheduler
v1.30.12 (issue 12), end to end under both engines.

Every expected value is worked out by hand in the fixture's header comment
(fixtures/fidelity/*.yaml) from shared/reference/kube-scheduler-v1.30.md
and the Kubernetes source it cites; none is taken from kso's output.
"""
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
FIX = os.path.join(ROOT, "fixtures", "fidelity")
ENGINES = ["oracle", "model"]


def kso(*args, check=True):
    p = subprocess.run([KSO, *map(str, args)], capture_output=True,
                       text=True, timeout=120)
    if check:
        assert p.returncode == 0, p.stderr
    return p


def fixture(name):
    return os.path.join(FIX, name)


def schedule(name, engine, *extra):
    p = kso("schedule", fixture(name), "--engine", engine, "-o", "json",
            *extra)
    return json.loads(p.stdout)


def explain(name, engine, pod, *extra):
    p = kso("explain", fixture(name), "--engine", engine, "--pod", pod,
            "-o", "json", *extra)
    return json.loads(p.stdout)


def dump(name, *extra):
    return json.loads(kso("dump", fixture(name), "-o", "json",
                          *extra).stdout)


def pod_of(doc, name):
    return next(p for p in doc["pods"] if p["metadata"]["name"] == name)


# ------------------------------------- A. terminating pods and eligibility


@pytest.mark.parametrize("engine", ENGINES)
def test_terminating_for_another_reason_does_not_block(engine):
    doc = schedule("terminating-other.yaml", engine)
    s = doc["steps"][0]
    assert (s["pod"], s["action"], s["node"]) == ("default/urgent",
                                                   "preempt", "node-1")
    assert s["victims"] == ["default/old"]
    assert s["message"] == "0/1 nodes are available: 1 Insufficient cpu."


@pytest.mark.parametrize("engine", ENGINES)
def test_terminating_by_preemption_blocks(engine):
    doc = schedule("terminating-by-preemption.yaml", engine)
    assert [s["action"] for s in doc["steps"]] == ["unschedulable"]
    assert doc["steps"][0]["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: not "
        "eligible due to a terminating pod on the nominated node.")
    pre = explain("terminating-by-preemption.yaml", engine,
                  "default/urgent")["preemption"]
    assert pre["eligible"] is False
    assert pre["victims"] == []


def test_disruption_target_of_another_reason_does_not_block(tmp_path):
    # The same pod evicted through the Eviction API (reason
    # EvictionByEvictionAPI): not the scheduler's own preemption.
    text = open(fixture("terminating-by-preemption.yaml")).read()
    assert "reason: PreemptionByScheduler" in text
    f = tmp_path / "evicted.yaml"
    f.write_text(text.replace("reason: PreemptionByScheduler",
                              "reason: EvictionByEvictionAPI"))
    for engine in ENGINES:
        p = kso("schedule", f, "--engine", engine, "-o", "json")
        s = json.loads(p.stdout)["steps"][0]
        assert (s["action"], s["victims"]) == ("preempt", ["default/old"])


def test_dump_keeps_the_condition():
    st = pod_of(dump("terminating-by-preemption.yaml"), "old")["status"]
    assert st["conditions"] == [{"type": "DisruptionTarget",
                                 "status": "True",
                                 "reason": "PreemptionByScheduler"}]
    assert "conditions" not in pod_of(dump("terminating-other.yaml"),
                                      "old")["status"]


# ------------------------------------------ B. hostNetwork default ports


@pytest.mark.parametrize("engine", ENGINES)
def test_host_network_port_defaults_to_container_port(engine):
    out = explain("hostnetwork-ports.yaml", engine, "default/agent-new")
    n1 = out["nodes"]["node-1"]
    assert n1["rejected_by"] == "NodePorts"
    assert n1["reasons"] == [
        "node(s) didn't have free ports for the requested pod ports"]
    assert n1["code"] == "Unschedulable"
    assert out["nodes"]["node-2"]["feasible"] is True
    assert out["viable"] == ["node-2"]


def test_dump_shows_defaulted_host_port():
    spec = pod_of(dump("hostnetwork-ports.yaml"), "agent-new")["spec"]
    assert spec["hostNetwork"] is True
    assert spec["containers"][0]["ports"] == [
        {"containerPort": 9100, "hostPort": 9100, "protocol": "TCP"}]


def test_host_network_port_mismatch_is_refused(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
                 "spec:\n  hostNetwork: true\n  containers:\n"
                 "  - name: c\n    image: x\n"
                 "    ports: [{containerPort: 80, hostPort: 8080}]\n")
    p = kso("validate", f, check=False)
    assert p.returncode == 1
    assert p.stdout == ""
    assert p.stderr == (
        f"{f}:9:43: hostPort 8080 must match containerPort 80 when "
        "hostNetwork is true (spec.containers[0].ports[0].hostPort)\n")


@pytest.mark.parametrize("engine", ENGINES)
def test_host_network_init_container_port_is_accepted(engine):
    # issue 32 K: validation checks spec.containers only, NodePorts reads
    # spec.containers only: holder's 8080 is no conflict
    doc = schedule("hostnetwork-init-port.yaml", engine)
    assert [(s["pod"], s["action"], s["node"]) for s in doc["steps"]] == [
        ("default/init-port", "bind", "node-1")]


def test_dump_keeps_the_init_container_host_port():
    spec = pod_of(dump("hostnetwork-init-port.yaml"), "init-port")["spec"]
    assert spec["initContainers"][0]["ports"] == [
        {"containerPort": 80, "hostPort": 8080, "protocol": "TCP"}]


# ------------------------------------ C. DefaultTolerationSeconds admission

NOT_READY = {"key": "node.kubernetes.io/not-ready", "operator": "Exists",
             "effect": "NoExecute", "tolerationSeconds": 300}
UNREACHABLE = {"key": "node.kubernetes.io/unreachable", "operator": "Exists",
               "effect": "NoExecute", "tolerationSeconds": 300}


@pytest.mark.parametrize("engine", ENGINES)
def test_admission_tolerates_not_ready(engine):
    out = explain("default-toleration-seconds.yaml", engine, "default/plain")
    assert out["nodes"]["sick"]["feasible"] is True
    assert sorted(out["viable"]) == ["sick", "well"]


@pytest.mark.parametrize("engine", ENGINES)
def test_no_admission_keeps_the_pod_verbatim(engine):
    out = explain("default-toleration-seconds.yaml", engine, "default/plain",
                  "--no-admission")
    sick = out["nodes"]["sick"]
    assert sick["rejected_by"] == "TaintToleration"
    assert sick["reasons"] == [
        "node(s) had untolerated taint {node.kubernetes.io/not-ready: }"]
    assert sick["code"] == "UnschedulableAndUnresolvable"
    assert out["viable"] == ["well"]


def test_admission_adds_only_missing_tolerations():
    doc = dump("default-toleration-seconds.yaml")
    tol = {p["metadata"]["name"]: p["spec"].get("tolerations", [])
           for p in doc["pods"]}
    assert tol["plain"] == [NOT_READY, UNREACHABLE]
    assert tol["wildcard"] == [{"operator": "Exists"}]
    assert tol["noschedule-only"] == [
        {"key": "node.kubernetes.io/not-ready", "operator": "Exists",
         "effect": "NoSchedule"}, NOT_READY, UNREACHABLE]
    assert tol["unreachable-noexec"] == [
        {"key": "node.kubernetes.io/unreachable", "operator": "Equal",
         "effect": "NoExecute", "tolerationSeconds": 60}, NOT_READY]
    # a dump reads back unchanged: admission finds nothing to add
    text = kso("dump", fixture("default-toleration-seconds.yaml"),
               "-o", "yaml").stdout
    again = subprocess.run([KSO, "dump", "-", "-o", "json"], input=text,
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["pods"] == doc["pods"]


def test_no_admission_dump_has_no_added_tolerations():
    doc = dump("default-toleration-seconds.yaml", "--no-admission")
    assert "tolerations" not in pod_of(doc, "plain")["spec"]


# ------------------------- F. equal-priority victims without a start time


@pytest.mark.parametrize("engine", ENGINES)
def test_victims_without_start_time_in_go_sort_order(engine):
    doc = schedule("victims-without-start-time.yaml", engine)
    s = doc["steps"][0]
    assert (s["pod"], s["action"], s["node"]) == ("default/urgent",
                                                   "preempt", "n1")
    assert s["victims"] == ["default/a"]
    assert doc["final"]["default/urgent"] == "n1"
    assert doc["final"]["default/b"] == "n1"
    assert doc["final"]["default/c"] == "n1"


# ------------------------------- D. the preemption walk in node-tree order

TREE = ("preemption-tree-order.yaml", "--config",
        fixture("preemption-tree-order.config.yaml"))


@pytest.mark.parametrize("engine", ENGINES)
def test_preemption_walks_in_node_tree_order(engine):
    p = kso("explain", fixture(TREE[0]), *TREE[1:], "--engine", engine,
            "--pod", "default/high", "-o", "json")
    pre = json.loads(p.stdout)["preemption"]
    # offset 0 of the tree-ordered potential nodes a1 b1 a2 b2: a1, b1
    assert [c["node"] for c in pre["candidates"]] == ["a1", "b1"]
    assert pre["node"] == "b1"
    assert pre["victims"] == ["default/low-b1"]
    # over all four offsets kube nominates b1 or b2, never a2
    assert pre["possible_nodes"] == ["b1", "b2"]


@pytest.mark.parametrize("engine", ENGINES)
def test_schedule_preempts_on_a_node_kube_can_pick(engine):
    for seed in range(6):
        doc = schedule(TREE[0], engine, *TREE[1:], "--seed", seed)
        s = doc["steps"][0]
        assert s["action"] == "preempt"
        assert (s["node"], s["victims"]) in [("b1", ["default/low-b1"]),
                                              ("b2", ["default/low-b2"])]


def test_explain_table_lists_possible_nodes():
    out = kso("explain", fixture(TREE[0]), *TREE[1:]).stdout
    assert "kube may nominate, over its 4 walk offsets: b1 b2\n" in out


# ----------------------------- E. plugin lists per extension point (order)

OVERRIDE = ("filter-override-order.yaml", "--config",
            fixture("filter-override-order.config.yaml"))


@pytest.mark.parametrize("engine", ENGINES)
def test_filter_override_runs_first(engine):
    doc = schedule(OVERRIDE[0], engine, *OVERRIDE[1:])
    assert [s["action"] for s in doc["steps"]] == ["unschedulable"]
    assert doc["steps"][0]["message"] == (
        "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 "
        "nodes are available: 2 No preemption victims found for incoming "
        "pod.")
    p = kso("explain", fixture(OVERRIDE[0]), *OVERRIDE[1:], "--engine",
            engine, "-o", "json")
    n1 = json.loads(p.stdout)["nodes"]["n1"]
    assert (n1["rejected_by"], n1["code"]) == ("NodeResourcesFit",
                                               "Unschedulable")


LIST_ORDER = ("filter-override-list-order.yaml", "--config",
              fixture("filter-override-list-order.config.yaml"))


@pytest.mark.parametrize("engine", ENGINES)
def test_filter_overrides_run_in_their_list_order(engine):
    # issue 32 D2: NodeResourcesFit, NodeUnschedulable (the filter list's
    # order), not MultiPoint's NodeUnschedulable, ..., NodeResourcesFit
    doc = schedule(LIST_ORDER[0], engine, *LIST_ORDER[1:])
    assert [s["action"] for s in doc["steps"]] == ["unschedulable"]
    assert doc["steps"][0]["message"] == (
        "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were "
        "unschedulable. preemption: 0/2 nodes are available: 1 No "
        "preemption victims found for incoming pod, 1 Preemption is not "
        "helpful for scheduling.")
    p = kso("explain", fixture(LIST_ORDER[0]), *LIST_ORDER[1:], "--engine",
            engine, "-o", "json")
    nodes = json.loads(p.stdout)["nodes"]
    assert (nodes["n1"]["rejected_by"], nodes["n1"]["code"]) == (
        "NodeResourcesFit", "Unschedulable")
    assert (nodes["n2"]["rejected_by"], nodes["n2"]["code"]) == (
        "NodeUnschedulable", "UnschedulableAndUnresolvable")


@pytest.mark.parametrize("engine", ENGINES)
def test_filter_list_of_its_own(engine, tmp_path):
    # filter.disabled "*": no MultiPoint expansion at Filter, only the
    # point's own list in its order - TaintToleration, then
    # NodeResourcesFit; NodeUnschedulable no longer runs.
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\nprofiles:\n"
        "- schedulerName: default-scheduler\n  plugins:\n    filter:\n"
        "      disabled: [{name: '*'}]\n"
        "      enabled: [{name: TaintToleration}, {name: NodeResourcesFit}]\n")
    p = kso("explain", fixture(OVERRIDE[0]), "--config", cfg, "--engine",
            engine, "-o", "json")
    nodes = json.loads(p.stdout)["nodes"]
    assert (nodes["n1"]["rejected_by"], nodes["n1"]["code"]) == (
        "TaintToleration", "UnschedulableAndUnresolvable")
    assert nodes["n2"]["rejected_by"] == "NodeResourcesFit"
    cfg.write_text(cfg.read_text().replace(
        "[{name: TaintToleration}, {name: NodeResourcesFit}]",
        "[{name: NodeResourcesFit}, {name: TaintToleration}]"))
    p = kso("explain", fixture(OVERRIDE[0]), "--config", cfg, "--engine",
            engine, "-o", "json")
    nodes = json.loads(p.stdout)["nodes"]
    assert nodes["n1"]["rejected_by"] == "NodeResourcesFit"


# ------------------------------ E. configurations kube-scheduler refuses

ADDED = """apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  pluginConfig:
  - name: NodeAffinity
    args:
      addedAffinity:
        requiredDuringSchedulingIgnoredDuringExecution:
          nodeSelectorTerms:
          - matchExpressions:
            - {key: rank, operator: Gt, values: ["abc"]}
"""
ADDED_PATH = ("profiles[0].pluginConfig[0].args.addedAffinity."
              "requiredDuringSchedulingIgnoredDuringExecution."
              "nodeSelectorTerms[0].matchExpressions[0].values[0]")


def test_added_affinity_gt_needs_an_integer(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(ADDED)
    p = kso("validate", fixture("hostnetwork-ports.yaml"), "--config", cfg,
            check=False)
    assert p.returncode == 1 and p.stdout == ""
    # the value "abc" is at line 12, column 50
    assert p.stderr == (
        f"{cfg}:12:50: Invalid value: \"abc\": for 'Gt', 'Lt' operators, "
        f"the value must be an integer ({ADDED_PATH})\n")


def test_added_affinity_in_needs_label_values(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(ADDED.replace('operator: Gt, values: ["abc"]',
                                 'operator: In, values: ["a b"]'))
    p = kso("validate", fixture("hostnetwork-ports.yaml"), "--config", cfg,
            check=False)
    assert p.returncode == 1
    assert p.stderr.startswith(
        f"{cfg}:12:50: Invalid value: \"a b\": a valid label must be an "
        "empty string or consist of alphanumeric characters, '-', '_' or "
        "'.', and must start and end with an alphanumeric character")


def test_added_affinity_integer_is_accepted(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text(ADDED.replace('"abc"', '"7"'))
    kso("validate", fixture("hostnetwork-ports.yaml"), "--config", cfg)


def test_selector_spread_is_an_extension(tmp_path):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                   "kind: KubeSchedulerConfiguration\nprofiles:\n"
                   "- schedulerName: default-scheduler\n  plugins:\n"
                   "    score:\n      enabled:\n      - name: SelectorSpread\n")
    f = fixture("hostnetwork-ports.yaml")
    for cmd in ("validate", "dump", "explain", "schedule"):
        p = kso(cmd, f, "--config", cfg, check=False)
        assert p.returncode == 1, cmd
        assert p.stdout == ""
        assert p.stderr.startswith(
            f"{cfg}:8:15: ScorePlugin \"SelectorSpread\" does not exist")
        kso(cmd, f, "--config", cfg, "--extension", "SelectorSpread")
        kso(cmd, f, "--config", cfg, "--extension=SelectorSpread")
    p = kso("validate", f, "--extension", "Nope", check=False)
    assert p.returncode == 2


# ---------------- E. PreFilter / PreScore are lists of their own (Errors)

POINTS = "extension-points.yaml"


def config(tmp_path, plugins):
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("apiVersion: kubescheduler.config.k8s.io/v1\n"
                   "kind: KubeSchedulerConfiguration\nprofiles:\n"
                   "- schedulerName: default-scheduler\n  plugins:\n"
                   + plugins)
    return cfg


def explain_with(tmp_path, engine, pod, plugins):
    p = kso("explain", fixture(POINTS), "--pod", pod, "--config",
            config(tmp_path, plugins), "--engine", engine, "-o", "json")
    return json.loads(p.stdout)


@pytest.mark.parametrize("engine", ENGINES)
def test_prefilter_result_without_filter(engine, tmp_path):
    out = explain_with(tmp_path, engine, "default/pinned",
                       "    filter:\n      disabled: [{name: NodeAffinity}]\n")
    # NodeAffinity's PreFilter still restricts the nodes to {n1}
    assert out["code"] == "Success"
    assert out["viable"] == ["n1"]
    assert out["nodes"]["n2"]["in_prefilter_result"] is False
    assert out["nodes"]["n2"]["feasible"] is False


@pytest.mark.parametrize("engine", ENGINES)
def test_score_without_prescore_is_an_error(engine, tmp_path):
    out = explain_with(tmp_path, engine, "default/plain",
                       "    multiPoint:\n"
                       "      disabled: [{name: InterPodAffinity}]\n"
                       "    score:\n"
                       "      enabled: [{name: InterPodAffinity}]\n")
    assert out["code"] == "Error"
    assert out["viable"] == []
    assert out["message"] == (
        'running Score plugins: plugin "InterPodAffinity" failed with: '
        'failed to read "PreScoreInterPodAffinity" from cycleState: not '
        'found')
    # one feasible node is bound without scoring: no Error then
    out = explain_with(tmp_path, engine, "default/pinned",
                       "    multiPoint:\n"
                       "      disabled: [{name: InterPodAffinity}]\n"
                       "    score:\n"
                       "      enabled: [{name: InterPodAffinity}]\n")
    assert (out["code"], out["viable"]) == ("Success", ["n1"])


@pytest.mark.parametrize("engine", ENGINES)
def test_filter_without_prefilter_is_an_error(engine, tmp_path):
    out = explain_with(tmp_path, engine, "default/plain",
                       "    preFilter:\n"
                       "      disabled: [{name: NodeResourcesFit}]\n")
    assert out["code"] == "Error"
    assert out["message"] == (
        'running "NodeResourcesFit" filter plugin: error reading '
        '"PreFilterNodeResourcesFit" from cycleState: not found')
    assert out["nodes"]["n1"]["code"] == "Error"
    assert out["nodes"]["n1"]["rejected_by"] == "NodeResourcesFit"


@pytest.mark.parametrize("engine", ENGINES)
def test_prescore_without_score_still_fails(engine, tmp_path):
    out = explain_with(tmp_path, engine, "default/far",
                       "    score:\n      disabled: [{name: NodeAffinity}]\n")
    assert out["code"] == "Error"
    assert out["viable"] == []
    # without NodeAffinity's PreScore as well, nothing parses the term
    out = explain_with(tmp_path, engine, "default/far",
                       "    score:\n      disabled: [{name: NodeAffinity}]\n"
                       "    preScore:\n      disabled: [{name: NodeAffinity}]\n")
    assert out["code"] == "Success"
    assert sorted(out["viable"]) == ["n2"]


# ------------------- J. VolumeBinding returns no PreFilterResult (issue 32)


@pytest.mark.parametrize("engine", ENGINES)
def test_volume_binding_filters_every_node(engine):
    # the hostname label "h-1" names no node; kube matches it as a label
    doc = explain("volume-binding-all-nodes.yaml", engine, "default/p-label")
    assert doc["code"] == "Success"
    assert doc["viable"] == ["host-node"]
    for n in ("other-node", "ebs-node"):
        v = doc["nodes"][n]
        assert v["in_prefilter_result"] is True
        assert v["code"] == "UnschedulableAndUnresolvable"
        assert v["rejected_by"] == "VolumeBinding"
        assert v["reasons"] == ["node(s) had volume node affinity conflict"]


@pytest.mark.parametrize("engine", ENGINES)
def test_volume_binding_error_on_a_node_a_result_would_skip(engine):
    doc = schedule("volume-binding-all-nodes.yaml", engine)
    got = [(s["pod"], s["action"], s["node"]) for s in doc["steps"][:2]]
    assert got == [("default/p-label", "bind", "host-node"),
                   ("default/p-error", "unschedulable", None)]
    assert doc["steps"][1]["message"] == (
        'running "VolumeBinding" filter plugin: could not translate pv: '
        "failed to translate Kubernetes ID to EBS Volume ID Invalid format "
        "for AWS volume (aws://us-east-1a/bad-id)")


# ----------- L. CSI limits only for drivers with a new volume (issue 32)

AFFINITY_MISS = ("UnschedulableAndUnresolvable", "NodeAffinity",
                 ["node(s) didn't match Pod's node affinity/selector"])
OVER = ["node(s) exceed max volume count"]


def node_verdicts(doc):
    return {n: (v["code"], v["rejected_by"], v["reasons"])
            for n, v in doc["nodes"].items()}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,want", [
    ("p-shared-csi", {"c1": ("Success", "", []), "i1": AFFINITY_MISS}),
    ("p-new-csi", {"c1": ("Unschedulable", "NodeVolumeLimits", OVER),
                   "i1": AFFINITY_MISS}),
    ("p-shared-gce", {"c1": AFFINITY_MISS,
                      "i1": ("Unschedulable", "GCEPDLimits", OVER)}),
])
def test_csi_limits_skip_drivers_without_new_volumes(engine, pod, want):
    doc = explain("csi-limits-attached.yaml", engine, "default/" + pod)
    assert node_verdicts(doc) == want


# ---------- E3/E4. a Filter whose PreFilter MultiPoint removed (issue 32)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("plugin,text", [
    ("PodTopologySpread", 'reading "PreFilterPodTopologySpread" from '
     "cycleState: not found"),
    ("InterPodAffinity", 'error reading "PreFilterInterPodAffinity" from '
     "cycleState: not found"),
    ("NodePorts", 'reading "PreFilterNodePorts" from cycleState: not found'),
])
def test_filter_reenabled_without_its_prefilter_errs(engine, plugin, text,
                                                     tmp_path):
    # multiPoint.disabled takes the plugin off every point; filter.enabled
    # puts back only its Filter.  No PreFilter ran, so nothing returned
    # Skip for `plain` (no constraints, no ports): the Filter runs on the
    # first node (n1 passes NodeResourcesFit: 3 + 0.5 <= 4) and its state
    # read fails.
    out = explain_with(tmp_path, engine, "default/plain",
                       "    multiPoint:\n"
                       f"      disabled: [{{name: {plugin}}}]\n"
                       "    filter:\n"
                       f"      enabled: [{{name: {plugin}}}]\n")
    assert out["code"] == "Error"
    assert out["message"] == f'running "{plugin}" filter plugin: {text}'
    assert out["viable"] == []


DRY_RUN = ("missing-prefilter-dry-run.yaml", "--config",
           fixture("missing-prefilter-dry-run.config.yaml"))


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_prefilter_met_in_the_dry_run(engine):
    doc = schedule(DRY_RUN[0], engine, *DRY_RUN[1:])
    assert [(s["pod"], s["action"], s["node"], s["victims"])
            for s in doc["steps"]] == [
        ("default/high", "unschedulable", None, [])]
    assert doc["steps"][0]["message"] == (
        "0/1 nodes are available: 1 Insufficient cpu. preemption: running "
        '"NodePorts" filter plugin: reading "PreFilterNodePorts" from '
        "cycleState: not found")


# ------- N. in-tree limits ignore the beta storage-class annotation (32)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pod,want", [
    ("p-beta", ("Success", "", [])),
    ("p-spec", ("Unschedulable", "EBSLimits", OVER)),
])
def test_in_tree_limits_read_spec_class_only(engine, pod, want):
    doc = explain("beta-class-in-tree-limits.yaml", engine, "default/" + pod)
    assert node_verdicts(doc) == {"e1": want}


def test_dump_keeps_the_beta_class_annotation(tmp_path):
    # the dump must not move the annotation's class into the spec field:
    # its output, read back, gives the same verdicts
    out = tmp_path / "dump.yaml"
    out.write_text(kso("dump", fixture("beta-class-in-tree-limits.yaml"),
                       "-o", "yaml").stdout)
    p = kso("explain", out, "--pod", "default/p-beta", "-o", "json")
    assert node_verdicts(json.loads(p.stdout)) == {
        "e1": ("Success", "", [])}
