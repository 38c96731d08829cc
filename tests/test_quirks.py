"""The quirk switches (core/quirks.h, reference §7): for every quirk that
valid input can reach, a scenario whose decision v1.30 and the intended
semantics make differently, under both engines.

Every expected decision and score is worked out by hand in the fixture's
header comment (fixtures/quirks/*.yaml; victim-order-now's in
fixtures/fidelity/victims-without-start-time.yaml); none is taken from
kso's output.  Each scenario is also run with every other quirk off, to
show the decision turns on that quirk alone.
"""
import json

import pytest

from conftest import fixture_path, run_kso

ENGINES = ["oracle", "model"]

# quirk -> (fixture, the first step under v1.30, under the intended
# semantics); a step is (action, node, victims)
CASES = {
    "spread-empty-selector": ("quirks/spread-empty-selector.yaml",
                              ("bind", "n1", []), ("bind", "n2", [])),
    "spread-empty-domain": ("quirks/spread-empty-domain.yaml",
                            ("bind", "a", []), ("bind", "e", [])),
    "affinity-first-pod-counts": ("quirks/affinity-first-pod-counts.yaml",
                                  ("bind", "n1", []),
                                  ("unschedulable", None, [])),
    "nonzero-ignores-sidecars": ("quirks/nonzero-ignores-sidecars.yaml",
                                 ("bind", "n1", []), ("bind", "n2", [])),
    "ports-set-removal": ("quirks/ports-set-removal.yaml",
                          ("preempt", "n1", ["default/low"]),
                          ("unschedulable", None, [])),
    "victim-order-now": ("fidelity/victims-without-start-time.yaml",
                         ("preempt", "n1", ["default/a"]),
                         ("preempt", "n1", ["default/b", "default/c"])),
}

# Reachable by no valid input (see core/quirks.h): the API server rejects
# two spread constraints with one (topologyKey, whenUnsatisfiable), and
# AddPod / RemovePod only ever touch the one node being filtered.
UNREACHABLE = ["spread-shared-key", "spread-approx-critical-paths"]


def run(cmd, fixture, engine, *switches):
    p = run_kso(cmd, fixture_path(fixture), "--engine", engine, "-o", "json",
                *switches)
    d = json.loads(p.stdout)
    # schedule exits 1 when an invariant broke (ports-set-removal, below)
    broken = cmd == "schedule" and not d["summary"]["invariants"]["ok"]
    assert p.returncode == (1 if broken else 0), p.stderr
    return d


def first_step(fixture, engine, *switches):
    s = run("schedule", fixture, engine, *switches)["steps"][0]
    return (s["action"], s["node"], s["victims"])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("quirk", sorted(CASES))
def test_switching_the_quirk_changes_the_decision(quirk, engine):
    fixture, kube, intended = CASES[quirk]
    assert first_step(fixture, engine) == kube
    assert first_step(fixture, engine, "--quirk", quirk + "=on") == kube
    assert first_step(fixture, engine, "--quirk", quirk + "=off") == intended
    # every quirk off but this one: v1.30's decision again
    assert first_step(fixture, engine, "--quirks", "off",
                      "--quirk", quirk + "=on") == kube
    assert first_step(fixture, engine, "--quirks", "off") == intended


def scores(fixture, engine, plugin, *switches):
    nodes = run("explain", fixture, engine, *switches)["nodes"]
    return {n: v["scores"].get(plugin) for n, v in nodes.items()
            if v["feasible"]}


@pytest.mark.parametrize("engine", ENGINES)
def test_empty_domain_scores(engine):
    f = "quirks/spread-empty-domain.yaml"
    assert scores(f, engine, "PodTopologySpread") == {"a": 200, "e": 180}
    assert scores(f, engine, "PodTopologySpread",
                  "--quirk", "spread-empty-domain=off") == {"a": 132,
                                                            "e": 200}


@pytest.mark.parametrize("engine", ENGINES)
def test_sidecar_nonzero_scores(engine):
    f = "quirks/nonzero-ignores-sidecars.yaml"
    assert scores(f, engine, "NodeResourcesFit") == {"n1": 71, "n2": 60}
    off = ("--quirk", "nonzero-ignores-sidecars=off")
    assert scores(f, engine, "NodeResourcesFit", *off) == {"n1": 57, "n2": 60}
    # BalancedAllocation reads the real requests either way
    for sw in ((), off):
        assert scores(f, engine, "NodeResourcesBalancedAllocation",
                      *sw) == {"n1": 61, "n2": 62}


@pytest.mark.parametrize("engine", ENGINES)
def test_ports_quirk_breaks_the_nominated_pods_fit(engine):
    # v1.30 evicts low for nothing: keeper still holds the port, so urgent,
    # nominated to n1, does not fit there - kso's invariant says so
    f = "quirks/ports-set-removal.yaml"
    inv = run("schedule", f, engine)["summary"]["invariants"]
    assert not inv["ok"]
    assert [(b["name"], b["step"]) for b in inv["broken"]] == [
        ("nominated-feasible", 1)]
    assert "NodePorts" in inv["broken"][0]["detail"]
    off = run("schedule", f, engine, "--quirk", "ports-set-removal=off")
    assert off["summary"]["invariants"]["ok"]
    assert off["summary"]["evicted"] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_intended_unschedulable_message(engine):
    d = run("explain", "quirks/affinity-first-pod-counts.yaml", engine,
            "--quirk", "affinity-first-pod-counts=off")
    assert d["viable"] == []
    assert d["message"].startswith(
        "0/3 nodes are available: 3 node(s) didn't match pod affinity "
        "rules.")


SAME_KEY_POD = """apiVersion: v1
kind: Pod
metadata: {name: new, namespace: default, labels: {app: a}}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.9}]
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,
     labelSelector: {matchLabels: {app: a}}}
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule,
     labelSelector: {matchLabels: {app: b}}}
"""


def test_same_key_constraints_are_rejected(tmp_path):
    # why spread-shared-key has no scenario: validation refuses the pod
    f = tmp_path / "same-key.yaml"
    f.write_text(SAME_KEY_POD)
    p = run_kso("schedule", f, "--quirk", "spread-shared-key=off")
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr.startswith(f"{f}:9:5: duplicate constraint {{zone, "
                               "DoNotSchedule}")


@pytest.mark.parametrize("bad", ["nosuch=off", "victim-order-now",
                                 "victim-order-now=maybe", "=off"])
def test_bad_quirk_is_a_usage_error(bad):
    p = run_kso("schedule", fixture_path("quirks/ports-set-removal.yaml"),
                "--quirk", bad)
    assert p.returncode == 2
    assert p.stdout == ""
    assert "bad value '%s' for --quirk" % bad in p.stderr
    assert "victim-order-now" in p.stderr


def test_bad_quirks_value_is_a_usage_error():
    p = run_kso("schedule", fixture_path("quirks/ports-set-removal.yaml"),
                "--quirks", "none")
    assert p.returncode == 2 and p.stdout == ""
    assert "bad value 'none' for --quirks (off, on)" in p.stderr


def test_outputs_name_the_quirks_turned_off():
    f = fixture_path("quirks/nonzero-ignores-sidecars.yaml")
    off = ("--quirk", "nonzero-ignores-sidecars=off",
           "--quirk", "victim-order-now=off")
    p = run_kso("explain", f, *off)
    assert p.stdout.splitlines()[0] == (
        "pod default/new (priority 0, profile default-scheduler, engine "
        "oracle; quirks off: nonzero-ignores-sidecars, victim-order-now)")
    d = json.loads(run_kso("explain", f, "-o", "json", *off).stdout)
    assert d["quirks_off"] == ["nonzero-ignores-sidecars", "victim-order-now"]
    d = json.loads(run_kso("schedule", f, "-o", "json", *off).stdout)
    assert d["summary"]["quirks_off"] == ["nonzero-ignores-sidecars",
                                          "victim-order-now"]
    assert "quirks off: nonzero-ignores-sidecars, victim-order-now" in \
        run_kso("schedule", f, *off).stdout
    # kube's semantics print what they always did
    assert "quirks_off" not in run_kso("explain", f, "-o", "json").stdout
    assert "quirks" not in run_kso("schedule", f).stdout


def test_a_trace_replays_under_its_own_quirks(tmp_path):
    f = fixture_path("quirks/nonzero-ignores-sidecars.yaml")
    p = run_kso("schedule", f, "-o", "itf", "--quirk",
                "nonzero-ignores-sidecars=off")
    assert p.returncode == 0, p.stderr
    trace = tmp_path / "run.itf.json"
    trace.write_text(p.stdout)
    assert json.loads(p.stdout)["#meta"]["kso"]["quirksOff"] == [
        "nonzero-ignores-sidecars"]
    for engine in ENGINES:
        r = run_kso("replay", trace, "--engine", engine)
        assert r.returncode == 0, r.stdout + r.stderr
        # under v1.30's semantics new goes to n1, not the trace's n2
        r = run_kso("replay", trace, "--engine", engine, "--quirks", "on")
        assert r.returncode == 1
        assert "step 1 of 1 differs" in r.stdout
        # with the cluster from its files, still under the trace's quirks
        r = run_kso("replay", trace, "--engine", engine, "--cluster", f)
        assert r.returncode == 0, r.stdout + r.stderr
    doc = json.loads(p.stdout)
    doc["#meta"]["kso"]["quirksOff"] = ["no-such-quirk"]
    trace.write_text(json.dumps(doc))
    r = run_kso("replay", trace)
    assert r.returncode == 1 and r.stdout == ""
    assert "expected the name of a quirk" in r.stderr
    assert "(#meta.kso.quirksOff)" in r.stderr


# ----------------------------------------------- kso enum --compare-quirks

def enum_json(universe, db, *extra):
    p = run_kso("enum", fixture_path(universe), "--db", db, "--force",
                "--quiet", "--no-symmetry", "-o", "json", *extra)
    d = json.loads(p.stdout)
    # exit 1 when an invariant broke
    assert p.returncode == (1 if d["violations"]["count"] else 0), p.stderr
    return d


def test_compare_quirks_counts_the_states_a_quirk_decides(tmp_path):
    # the counts worked out in fixtures/universes/quirk-ports.yaml
    db = tmp_path / "q.db"
    d = enum_json("universes/quirk-ports.yaml", db, "--compare-quirks")
    assert d["states"]["count"] == 8 and d["decisions"]["count"] == 7
    assert d["disagreements"]["count"] == 0
    assert d["findings"]["quirk-visible"]["count"] == 2
    assert {k: v["count"] for k, v in d["quirk_visible"].items()} == {
        "spread-shared-key": 0, "spread-empty-selector": 0,
        "spread-empty-domain": 0, "spread-approx-critical-paths": 0,
        "affinity-first-pod-counts": 0, "nonzero-ignores-sidecars": 0,
        "ports-set-removal": 2, "victim-order-now": 0}
    assert d["invariants"] == {"nominated-feasible": {"count": 2,
                                                      "classes": 2}}
    out = run_kso("enum", fixture_path("universes/quirk-ports.yaml"),
                  "--db", tmp_path / "t.db", "--quiet", "--no-symmetry",
                  "--compare-quirks").stdout
    assert "  quirk-visible        2 (2)\n" in out
    assert "    ports-set-removal            2 (2)\n" in out
    # without the option the summary has no such line
    out = run_kso("enum", fixture_path("universes/quirk-ports.yaml"),
                  "--db", tmp_path / "u.db", "--quiet").stdout
    # (its last line names the database for kso findings, a path that
    # holds this test's name)
    assert "quirk" not in out.replace(str(tmp_path), "")


def test_enum_with_the_quirk_off_cross_checks_the_intended_branch(tmp_path):
    d = enum_json("universes/quirk-ports.yaml", tmp_path / "q.db",
                  "--quirk", "ports-set-removal=off", "--compare-quirks")
    assert d["disagreements"]["count"] == 0
    assert d["violations"]["count"] == 0
    assert d["findings"]["quirk-visible"]["count"] == 0
    # a quirk already off is not compared again
    assert "ports-set-removal" not in d["quirk_visible"]


def test_quirk_options_make_another_run(tmp_path):
    db = tmp_path / "q.db"
    enum_json("universes/quirk-ports.yaml", db, "--quirk",
              "ports-set-removal=off")
    p = run_kso("enum", fixture_path("universes/quirk-ports.yaml"), "--db",
                db, "--quiet", "--resume")
    assert p.returncode == 1
    assert "no incomplete run" in p.stderr


def test_compare_quirks_finds_the_victim_order(tmp_path):
    # the counts worked out in fixtures/universes/quirk-victims.yaml
    d = enum_json("universes/quirk-victims.yaml", tmp_path / "q.db",
                  "--compare-quirks")
    assert (d["states"]["count"], d["decisions"]["count"]) == (16, 15)
    assert d["preemptions"]["count"] == 9
    assert d["findings"]["quirk-visible"]["count"] == 3
    assert d["quirk_visible"]["victim-order-now"]["count"] == 3
    assert sum(v["count"] for v in d["quirk_visible"].values()) == 3


def test_a_quirk_visible_export_keeps_its_finding(tmp_path):
    db = tmp_path / "q.db"
    enum_json("universes/quirk-victims.yaml", db, "--compare-quirks")
    found = {}
    for i in range(1, 4):
        p = run_kso("export", db, i, "--out", tmp_path / f"{i}.yaml")
        assert p.returncode == 0, p.stderr
        text = (tmp_path / f"{i}.yaml").read_text()
        head = [ln for ln in text.splitlines()
                if ln.startswith("# finding ")]
        found[i] = head[0]
    want = "# finding quirk-visible: v1.30: preempt on n1 evicting a; " \
        "victim-order-now off: preempt on n1 evicting "
    assert sorted(f[len(want):] for f in found.values()) == ["b", "b c",
                                                               "c"]
    assert all(f.startswith(want) for f in found.values())
    # the minimized export still decides so, under both engines
    i = next(k for k, f in found.items() if f.endswith(" b c"))
    out = tmp_path / f"{i}.yaml"
    assert "# the intended semantics: the line below with --quirk " \
        "victim-order-now=off\n# reproduce: kso explain %s --pod " \
        "default/urgent --kube-version 1.30\n" % out in out.read_text()
    for engine in ENGINES:
        d = json.loads(run_kso("explain", out, "--pod", "default/urgent",
                               "--engine", engine, "-o", "json").stdout)
        assert d["preemption"]["victims"] == ["default/a"]
        d = json.loads(run_kso("explain", out, "--pod", "default/urgent",
                               "--engine", engine, "-o", "json", "--quirk",
                               "victim-order-now=off").stdout)
        assert sorted(d["preemption"]["victims"]) == ["default/b",
                                                      "default/c"]


@pytest.mark.parametrize("fixture", sorted(
    p.name for p in (fixture_path("quirks/ports-set-removal.yaml").parent)
    .glob("*.yaml")))
@pytest.mark.parametrize("switch", ["on", "off"])
def test_both_engines_agree_on_every_placement(tmp_path, fixture, switch):
    # each quirk scenario as a universe: every placement of its pods, each
    # decision by both engines (the enumerator's cross-check), with every
    # quirk on and with every quirk off
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: %s\nmanifests:\n- %s\n" % (
        fixture, fixture_path("quirks/" + fixture)))
    p = run_kso("enum", u, "--db", tmp_path / "q.db", "--quiet",
                "--no-symmetry", "--quirks", switch, "-o", "json")
    d = json.loads(p.stdout)
    assert d["decisions"]["count"] > 0
    assert d["disagreements"]["count"] == 0, p.stdout


def test_a_corpus_refuses_quirks_off(tmp_path):
    p = run_kso("corpus", fixture_path("universes/quirk-victims.yaml"),
                "--dir", tmp_path / "c", "--db", tmp_path / "c.db",
                "--quirk", "victim-order-now=off")
    assert p.returncode == 2 and p.stdout == ""
    assert "a corpus holds kube's answers" in p.stderr
    assert not (tmp_path / "c").exists()
