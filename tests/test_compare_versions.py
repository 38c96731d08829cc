"""kso enum --compare-versions A,B (issue 34): every state decided under
both releases, each difference a version-visible finding counted per
delta item, exported, minimized and replayable under either release.

The expected answers and counts are worked out by hand in
fixtures/universes/versions-fit.yaml's header from the v1.34 delta
reference (§5.1 NodeResourcesFit's UnschedulableAndUnresolvable above
allocatable, §5.9 DynamicResources' PostFilter first, §7 candidates only
among Unschedulable nodes) and kube's SelectVictimsOnNode; none is taken
from kso's output.
"""
import json

import pytest

from conftest import fixture_path, run_kso

UNIVERSE = "universes/versions-fit.yaml"

V130_NO_VICTIMS = ("0/1 nodes are available: 1 Insufficient cpu. preemption: "
                   "0/1 nodes are available: 1 No preemption victims found "
                   "for incoming pod.")
V134_NOT_HELPFUL = ("0/1 nodes are available: 1 Insufficient cpu. no new "
                    "claims to deallocate, preemption: 0/1 nodes are "
                    "available: 1 Preemption is not helpful for scheduling.")


def enum_json(db, *extra):
    p = run_kso("enum", fixture_path(UNIVERSE), "--db", db, "--force",
                "--quiet", "--no-symmetry", "-o", "json", *extra)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def findings(db):
    import sqlite3
    con = sqlite3.connect(db)
    rows = con.execute("SELECT s.pod_node, f.details FROM findings f JOIN "
                       "states s ON s.id=f.state_id WHERE "
                       "f.kind='version-visible'").fetchall()
    con.close()
    return dict(rows)


def test_counts_per_delta_item(tmp_path):
    d = enum_json(tmp_path / "v.db", "--compare-versions", "1.30,1.34")
    assert d["states"]["count"] == 4 and d["decisions"]["count"] == 3
    assert d["disagreements"]["count"] == 0
    assert d["findings"]["version-visible"]["count"] == 3
    counts = {k: v["count"] for k, v in d["version_visible"].items()}
    assert counts.pop("fit-unresolvable") == 2
    assert counts.pop("dra-postfilter") == 3
    assert set(counts.values()) == {0}


def test_both_answers_in_words(tmp_path):
    db = tmp_path / "v.db"
    enum_json(db, "--compare-versions", "1.30,1.34")
    f = findings(db)
    # placements "big,low": -1 pending, 0 on n1
    none = f["-1,-1"]
    assert none.startswith("delta items: fit-unresolvable dra-postfilter; ")
    assert ('v1.30: unschedulable ("%s")' % V130_NO_VICTIMS) in none
    assert ('v1.34: unschedulable ("%s")' % V134_NOT_HELPFUL) in none
    low_on_n1 = f["-1,0"]
    assert ('v1.30: unschedulable ("0/1 nodes are available: 1 Insufficient '
            'cpu. preemption: 0/1 nodes are available: 1 Insufficient '
            'cpu.")') in low_on_n1
    assert ('v1.34: unschedulable ("%s")' % V134_NOT_HELPFUL) in low_on_n1
    big_on_n1 = f["0,-1"]
    assert big_on_n1.startswith("delta items: dra-postfilter; ")
    assert ("v1.34: unschedulable (\"0/1 nodes are available: 1 Insufficient "
            "cpu. no new claims to deallocate, preemption: 0/1 nodes are "
            "available: 1 No preemption victims found for incoming pod.\")"
            ) in big_on_n1


def test_either_order_finds_the_same_states(tmp_path):
    d = enum_json(tmp_path / "w.db", "--compare-versions", "1.34,1.30")
    assert d["findings"]["version-visible"]["count"] == 3
    assert d["version_visible"]["fit-unresolvable"]["count"] == 2
    assert d["version_visible"]["dra-postfilter"]["count"] == 3


def test_without_the_option_no_version_line(tmp_path):
    out = run_kso("enum", fixture_path(UNIVERSE), "--db", tmp_path / "x.db",
                  "--quiet").stdout
    assert "version-visible" not in out and "fit-unresolvable" not in out
    out = run_kso("enum", fixture_path(UNIVERSE), "--db", tmp_path / "y.db",
                  "--quiet", "--compare-versions", "1.30,1.34").stdout
    assert "  version-visible      3 (3)\n" in out
    assert "    fit-unresolvable (1)         2 (2)\n" in out


def test_exported_minimized_and_replayable(tmp_path):
    db, exp = tmp_path / "v.db", tmp_path / "exp"
    p = run_kso("enum", fixture_path(UNIVERSE), "--db", db, "--quiet",
                "--compare-versions", "1.30,1.34", "--export", exp)
    assert p.returncode == 0, p.stderr
    files = sorted(exp.iterdir())
    assert len(files) == 3
    texts = {f: f.read_text() for f in files}
    # the state with both pods pending: low is dropped (big alone shows
    # the same two items)
    alone = [f for f, t in texts.items()
             if "fit-unresolvable dra-postfilter" in t and "name: low" not in t]
    assert alone, texts
    f = alone[0]
    assert "# minimized: " in texts[f]
    assert "--compare-versions 1.30,1.34" in texts[f]
    # replayed under each release alone, then both
    old = json.loads(run_kso("explain", f, "--pod", "default/big", "-o",
                             "json").stdout)
    new = json.loads(run_kso("explain", f, "--pod", "default/big", "-o",
                             "json", "--kube-version", "1.34").stdout)
    assert old["message"] == V130_NO_VICTIMS
    assert new["message"] == V134_NOT_HELPFUL
    cmp = json.loads(run_kso("explain", f, "--pod", "default/big", "-o",
                             "json", "--compare-versions", "1.30,1.34").stdout)
    assert any(x["path"] == "message" for x in cmp["differences"])


def test_usage(tmp_path):
    for bad in ["1.30", "1.30,1.30", "1.30,1.99", ",1.34"]:
        p = run_kso("enum", fixture_path(UNIVERSE), "--db", tmp_path / "z.db",
                    "--compare-versions", bad)
        assert p.returncode == 2
        assert "--compare-versions takes two releases A,B" in p.stderr
    p = run_kso("enum", fixture_path(UNIVERSE), "--db", tmp_path / "z.db",
                "--compare-versions", "1.30,1.34", "--kube-version", "1.34")
    assert p.returncode == 2
    assert "runs under 1.30: not --kube-version 1.34" in p.stderr


def test_another_run(tmp_path):
    db = tmp_path / "v.db"
    enum_json(db)
    import sqlite3
    enum_json(db, "--compare-versions", "1.30,1.34")
    con = sqlite3.connect(db)
    opts = [r[0] for r in con.execute("SELECT options FROM runs ORDER BY id")]
    con.close()
    assert "compare-versions" not in opts[0]
    assert opts[-1].endswith(" compare-versions=1.30,1.34")


def test_best_effort_pod_scores(tmp_path):
    # fixtures/universes/versions-best-effort.yaml's header: the three
    # states where be is decided differ by BalancedAllocation alone
    p = run_kso("enum", fixture_path("universes/versions-best-effort.yaml"),
                "--db", tmp_path / "b.db", "--force", "--quiet",
                "--no-symmetry", "-o", "json", "--compare-versions",
                "1.30,1.34")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["states"]["count"] == 9 and d["decisions"]["count"] == 5
    assert d["findings"]["version-visible"]["count"] == 3
    counts = {k: v["count"] for k, v in d["version_visible"].items()}
    assert counts.pop("balanced-skip") == 3
    assert set(counts.values()) == {0}
    f = findings(tmp_path / "b.db")
    assert sorted(f) == ["-1,-1", "-1,0", "-1,1"]
    # web on n1: v1.30 scored n1 87 (spread 0.125), v1.34 nothing
    assert f["-1,0"] == ("delta items: balanced-skip; v1.30: bind to n2; "
                         "v1.34: bind to n2; first difference: "
                         "nodes.n1.scores.NodeResourcesBalancedAllocation: "
                         "87 -> 0")


def test_every_difference_of_a_default_shard_is_attributed(tmp_path):
    # a property, not a count: every version-visible state of a shard of
    # the default universe (which covers the pod-side delta items) names
    # a delta item, none "unattributed", and the engines agree
    p = run_kso("enum", "--db", tmp_path / "d.db", "--force", "--quiet",
                "--shard", "3/200", "-o", "json", "--compare-versions",
                "1.30,1.34")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["disagreements"]["count"] == 0
    assert d["findings"]["version-visible"]["count"] > 0
    assert d["version_visible"]["unattributed"]["count"] == 0


# The compare-versions universes of the other delta items, each worked out
# by hand in its header: universe -> (states, decisions, {item: count},
# {placement: the items of its finding}).  A placement lists the pods in
# manifest order, -1 pending, else the node's index in manifest order.
ITEM_UNIVERSES = {
    "versions-absent-nodes": (18, 10, {"absent-nodes": 2, "dra-postfilter": 1}, {
        (0, "-1,0"): "absent-nodes",
        (1, "-1,0"): "dra-postfilter absent-nodes"}),
    "versions-not-found": (18, 10, {"dra-not-found": 3}, {
        (1, "-1,-1"): "dra-not-found", (1, "-1,0"): "dra-not-found",
        (1, "-1,1"): "dra-not-found"}),
    "versions-label-keys": (36, 20, {"label-keys": 8}, {
        (sc, pl): "label-keys" for sc in (0, 3)
        for pl in ("0,-1", "1,-1", "-1,0", "-1,1")}),
    "versions-ns-selector": (18, 10, {"ns-selector": 2}, {
        (0, "-1,0"): "ns-selector", (0, "-1,1"): "ns-selector"}),
    "versions-volume-texts": (18, 10, {"volume-texts": 9, "dra-postfilter": 5}, {
        (0, "0,-1"): "volume-texts", (0, "1,-1"): "volume-texts",
        (0, "-1,0"): "dra-postfilter volume-texts",
        (0, "-1,1"): "dra-postfilter volume-texts",
        (1, "-1,-1"): "volume-texts", (1, "0,-1"): "volume-texts",
        (1, "1,-1"): "dra-postfilter volume-texts",
        (1, "-1,0"): "dra-postfilter volume-texts",
        (1, "-1,1"): "dra-postfilter volume-texts"}),
    "versions-volume-limits": (18, 10, {"volumes": 5}, {
        (0, "-1,-1"): "volumes", (0, "1,-1"): "volumes", (0, "-1,1"): "volumes",
        (1, "1,-1"): "volumes", (1, "-1,1"): "volumes"}),
    "versions-spread": (18, 10, {}, {}),
}


def universe_findings(db):
    import sqlite3
    con = sqlite3.connect(db)
    rows = con.execute("SELECT s.scenario, s.pod_node, f.details FROM findings f "
                       "JOIN states s ON s.id=f.state_id WHERE "
                       "f.kind='version-visible'").fetchall()
    con.close()
    return {(sc, pl): d.split(";")[0].removeprefix("delta items: ")
            for sc, pl, d in rows}


@pytest.mark.parametrize("name", sorted(ITEM_UNIVERSES))
def test_item_universe(tmp_path, name):
    states, decisions, items, where = ITEM_UNIVERSES[name]
    db = tmp_path / "u.db"
    p = run_kso("enum", fixture_path(f"universes/{name}.yaml"), "--db", db,
                "--force", "--quiet", "--no-symmetry", "-o", "json",
                "--compare-versions", "1.30,1.34")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["states"]["count"] == states
    assert d["decisions"]["count"] == decisions
    assert d["disagreements"]["count"] == 0
    assert d["findings"]["version-visible"]["count"] == len(where)
    counts = {k: v["count"] for k, v in d["version_visible"].items() if v["count"]}
    assert counts == items
    assert universe_findings(db) == where


# what each release decides where the headers give it in words: placement
# -> the viable nodes (the pod PrioritySort takes) under v1.30 and v1.34
DECIDED = {
    "versions-volume-limits": {
        (0, "-1,-1"): ("n1,n2", "n2"), (0, "0,-1"): ("n2", "n2"),
        (0, "1,-1"): ("n1", "n2"), (0, "-1,0"): ("n2", "n2"),
        (0, "-1,1"): ("n1", "n2"),
        (1, "-1,-1"): ("n1,n2", "n1,n2"), (1, "0,-1"): ("n2", "n2"),
        (1, "1,-1"): ("n1", "n1"), (1, "-1,0"): ("n2", "n2"),
        (1, "-1,1"): ("n1", "n1")},
    "versions-spread": {
        (sc, pl): (v, v) for sc in (0, 1) for pl, v in (
            ("-1,-1", "n1,n2"), ("-1,0", "n2"), ("-1,1", "n1"),
            ("0,-1", "n2"), ("1,-1", "n1"))},
    "versions-label-keys": {
        (sc, pl): (v, v) for sc in range(4) for pl, v in (
            ("-1,-1", "n1,n2"), ("-1,0", "n2"), ("-1,1", "n1"),
            ("0,-1", "n2"), ("1,-1", "n1"))},
}


@pytest.mark.parametrize("name", sorted(DECIDED))
def test_item_universe_decisions(tmp_path, name):
    import sqlite3
    for i, version in enumerate(("1.30", "1.34")):
        db = tmp_path / f"{version}.db"
        p = run_kso("enum", fixture_path(f"universes/{name}.yaml"), "--db", db,
                    "--force", "--quiet", "--no-symmetry", "--store", "all",
                    "--kube-version", version)
        assert p.returncode == 0, p.stderr
        con = sqlite3.connect(db)
        got = {(sc, pl): v for sc, pl, v in con.execute(
            "SELECT s.scenario, s.pod_node, d.model_viable FROM decisions d "
            "JOIN states s ON s.id=d.state_id")}
        con.close()
        assert got == {k: v[i] for k, v in DECIDED[name].items()}, version


def default_slice(tmp_path, keep, name="default-slice.yaml"):
    """fixtures/universes/default.yaml with the dimensions named in keep
    cut to those values (by index; every part of a dimension alike)."""
    import yaml
    docs = list(yaml.safe_load_all(fixture_path("universes/default.yaml")
                                   .read_text()))
    for d in docs[0]["vary"]:
        if d["name"] in keep:
            for part in [d] + d.get("with", []):
                part["values"] = [part["values"][i] for i in keep[d["name"]]]
    sliced = tmp_path / name
    sliced.write_text(yaml.safe_dump_all(docs, sort_keys=False))
    return sliced


def test_the_default_universe_reaches_its_delta_items(tmp_path):
    # fixtures/universes/default.yaml's header names the delta items its
    # dimensions reach under --compare-versions (all a single decision
    # shows but 4, and DRA's claims): a slice of it, the values of every
    # other dimension fixed at their first, reaches each (24 scenarios,
    # 6144 states), with none unattributed.  db-requests' fifth value
    # (storage and devices) brings volume-texts and volumes (db's volume
    # on the zone-a nodes and on n3), dra-not-found (the web pods' absent
    # claim) and dra-claims (batch's GPU), worked out in the header
    sliced = default_slice(tmp_path, {
        "n2-zone": [0], "n3-taint": [0], "n1-cordoned": [0],
        "web-cpu": [0], "web-hostport": [0], "db-priority": [0],
        "db-requests": [2, 3, 4],   # 3 cpu (above allocatable), none,
                                    # storage and devices
        "web-sidecar": [1], "batch-priority": [0], "pdb-selects": [0]})
    p = run_kso("enum", sliced, "--db", tmp_path / "s.db", "--force",
                "--quiet", "-o", "json", "--compare-versions", "1.30,1.34")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["states"]["count"] == 24 * 256
    assert d["disagreements"]["count"] == 0
    reached = {k for k, v in d["version_visible"].items() if v["count"]}
    assert reached == {"fit-unresolvable", "dra-postfilter", "absent-nodes",
                       "balanced-skip", "label-keys", "sidecar-ports",
                       "pod-resources", "nonzero-sidecars", "ns-selector",
                       "volume-texts", "volumes", "dra-not-found",
                       "dra-claims"}


# The scenario of db-requests' fifth value with every other dimension at
# its first value: its states worked out by hand in default.yaml's header
# ("Worked by hand"); placements list web-1, web-2, db, batch (-1 pending,
# else n1 0, n2 1, n3 2).
STORAGE = {"n2-zone": [0], "n3-taint": [0], "n1-cordoned": [0],
           "web-cpu": [0], "web-hostport": [0], "web-anti-affinity": [0],
           "db-priority": [0], "db-requests": [4], "web-sidecar": [0],
           "batch-priority": [0], "batch-tier": [0], "pdb-selects": [0],
           "db-requires-zone-b": [0]}
DB_V134 = ("0/3 nodes are available: 1 node(s) exceed max volume count, 2 "
           "node(s) didn't match PersistentVolume's node affinity. no new "
           "claims to deallocate, preemption: 0/3 nodes are available: 1 No "
           "preemption victims found for incoming pod, 2 Preemption is not "
           "helpful for scheduling.")
WEB_V130 = ('0/3 nodes are available: persistentvolumeclaim "web-cache" not '
            'found. preemption: 0/3 nodes are available: 3 Preemption is not '
            'helpful for scheduling.')
WEB_V134 = ('0/3 nodes are available: persistentvolumeclaim "web-cache" not '
            'found. not found')


def test_the_default_universe_shows_storage_and_devices(tmp_path):
    # items 7 and 8 (db's volume), 12 (the web pods' absent claim) and
    # DynamicResources (batch's GPU) in the states the header works out
    db = tmp_path / "st.db"
    p = run_kso("enum", default_slice(tmp_path, STORAGE), "--db", db,
                "--force", "--quiet", "--no-symmetry", "-o", "json",
                "--compare-versions", "1.30,1.34")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert (d["states"]["count"], d["decisions"]["count"]) == (256, 175)
    assert d["disagreements"]["count"] == 0
    con = __import__("sqlite3").connect(db)
    f = dict(con.execute("SELECT s.pod_node, f.details FROM findings f JOIN "
                         "states s ON s.id=f.state_id WHERE "
                         "f.kind='version-visible'"))
    con.close()
    # all pending: db decided
    assert f["-1,-1,-1,-1"].startswith(
        "delta items: dra-postfilter volume-texts volumes; v1.30: bind to "
        "n3; v1.34: unschedulable (\"%s\")" % DB_V134)
    # db on n3: web-1 decided, rejected in PreFilter
    assert f["-1,-1,2,-1"].startswith("delta items: dra-not-found; ")
    assert 'v1.30: unschedulable ("%s")' % WEB_V130 in f["-1,-1,2,-1"]
    assert 'v1.34: unschedulable, PostFilter error ("%s")' % WEB_V134 \
        in f["-1,-1,2,-1"]
    # web-1 and db on n1, web-2 on n2: batch decided, its GPU only on n3
    assert f["0,1,0,-1"].startswith("delta items: dra-claims; v1.30: bind to "
                                    "n2; v1.34: bind to n3; ")


def test_the_default_universe_cross_checks_the_claims(tmp_path):
    # under v1.34 both engines decide batch with its claim: viable n3
    # alone in the state above, n2 rejected by DynamicResources; db's
    # volume leaves it no node (all pending)
    import sqlite3
    db = tmp_path / "x.db"
    p = run_kso("enum", default_slice(tmp_path, STORAGE), "--db", db,
                "--force", "--quiet", "--no-symmetry", "--store", "all",
                "--kube-version", "1.34", "-o", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert d["agreements"]["count"] == d["decisions"]["count"] == 175
    con = sqlite3.connect(db)
    got = {pl: rest for pl, *rest in con.execute(
        "SELECT s.pod_node, d.pod, d.model_feasible, d.oracle_feasible, "
        "d.model_viable, d.agree FROM decisions d JOIN states s "
        "ON s.id=d.state_id")}
    con.close()
    assert got["0,1,0,-1"] == ["default/batch", "n3", "n3", "n3", 1]
    assert got["-1,-1,-1,-1"] == ["default/db", "", "", "", 1]
