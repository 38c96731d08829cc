"""
test_partial_outputs.py - a command that fails leaves no partial output
file and creates nothing it was only asked to read (brief: "no partial
output file").
"""
from conftest import run_kso


def test_merge_of_missing_input_writes_nothing(tmp_path):
    missing = tmp_path / "missing.db"
    out = tmp_path / "all.db"
    r = run_kso("merge", missing, "--out", out)
    assert r.returncode == 1
    assert len(r.stderr.strip().splitlines()) == 1
    assert "missing.db" in r.stderr
    assert not out.exists()
    assert not missing.exists()          # not created by opening it


def test_merge_of_non_database_writes_nothing(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n")
    out = tmp_path / "all.db"
    r = run_kso("merge", junk, "--out", out)
    assert r.returncode == 1
    # SQLite's own words for the cause
    assert r.stderr == "%s: not a readable database: file is not a " \
        "database\n" % junk
    assert not out.exists()
    assert not (tmp_path / "all.db-wal").exists()


def test_export_from_missing_database_writes_nothing(tmp_path):
    out = tmp_path / "scenario.yaml"
    r = run_kso("export", tmp_path / "missing.db", "1", "--out", out)
    assert r.returncode == 1
    assert not out.exists()
    assert not (tmp_path / "missing.db").exists()


def test_enum_of_broken_universe_writes_no_database(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("kind: Universe\nvary: [\n")
    db = tmp_path / "x.db"
    r = run_kso("enum", bad, "--db", db, "--quiet")
    assert r.returncode == 1
    assert r.stderr.startswith(str(bad) + ":3:1: ")
    assert not db.exists()


def enum_db(tmp_path):
    """A small enumerator database (two-by-two, every state stored)."""
    import os
    db = tmp_path / "t.db"
    u = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(
        __file__))), "fixtures", "universes", "two-by-two.yaml")
    r = run_kso("enum", u, "--db", db, "--store", "all", "--quiet")
    assert r.returncode == 0, r.stderr
    return db


def test_tampered_placement_is_refused_not_crashed(tmp_path):
    # a node index past the scenario's two nodes, a negative one below
    # SNAP_GONE, text, too few and too many entries: each row refused
    import sqlite3
    db = enum_db(tmp_path)
    for bad in ("99,-1", "-7,0", "abc", "0", "0,0,0", "0,0x"):
        con = sqlite3.connect(db)
        con.execute("UPDATE states SET pod_node=? WHERE id=1", (bad,))
        con.commit()
        con.close()
        out = tmp_path / "x.yaml"
        r = run_kso("export", db, "1", "--out", out)
        assert r.returncode == 1, bad
        assert r.stderr == ('state 1: the stored placement ("%s" / "-1,-1") '
                            'is not one of its scenario\'s 2 pods on 2 '
                            'nodes: a damaged or foreign database\n' % bad)
        assert not out.exists()


def test_truncated_database_names_sqlites_cause(tmp_path):
    db = enum_db(tmp_path)
    cut = tmp_path / "cut.db"
    cut.write_bytes(db.read_bytes()[:3000])
    for args in (("export", cut, "1"), ("merge", cut, "--out", tmp_path / "m.db")):
        r = run_kso(*args)
        assert r.returncode == 1
        assert r.stderr == "%s: not a readable database: database disk " \
            "image is malformed\n" % cut
    assert not (tmp_path / "m.db").exists()


def test_foreign_schema_and_huge_ids_are_refused(tmp_path):
    import sqlite3
    db = enum_db(tmp_path)
    r = run_kso("export", db, "99999999999999999999")
    assert (r.returncode, r.stderr) == (2, "kso export: state id "
                                        "99999999999999999999 is out of "
                                        "range\nusage: kso export DB "
                                        "STATE_ID [--out FILE] [OPTIONS]\n")
    con = sqlite3.connect(db)
    con.execute("PRAGMA user_version=7")
    con.commit()
    con.close()
    r = run_kso("export", db, "1")
    assert r.returncode == 1
    assert r.stderr == "%s: not a kso enum database (schema version 7, this " \
        "kso reads 1)\n" % db


UNIVERSE = """kind: Universe
name: inj
vary:
- name: %s
  target: Node/n2
  path: metadata.annotations.note
  values: [a, "b\\n---\\napiVersion: v1\\nkind: Node\\nmetadata: {name: zz}"]
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n2}
status: {allocatable: {cpu: "2", pods: "10"}}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "3"}}}]}
"""


def test_a_dimension_name_that_is_no_name_is_refused(tmp_path):
    u = tmp_path / "u.yaml"
    u.write_text(UNIVERSE % '"evil\\n---\\nkind: Node"')
    r = run_kso("enum", u, "--db", tmp_path / "x.db", "--quiet")
    assert r.returncode == 1
    assert r.stderr.startswith("%s:4:9: invalid dimension name: " % u)
    assert len(r.stderr.splitlines()) == 1
    assert not (tmp_path / "x.db").exists()


def test_export_cannot_be_injected_through_stored_text(tmp_path):
    # the annotation value (valid: annotations may hold anything) reaches
    # the scenario label of the export's header; there it must stay one
    # comment line, so the export holds just the universe's objects
    import sqlite3
    import yaml
    u = tmp_path / "u.yaml"
    u.write_text(UNIVERSE % "note")
    db = tmp_path / "x.db"
    r = run_kso("enum", u, "--db", db, "--store", "all", "--quiet")
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    sid = con.execute("SELECT id FROM states WHERE scenario=1 LIMIT 1"
                      ).fetchone()[0]
    # a tampered label with a carriage return and U+2028, too
    con.execute("UPDATE scenarios SET label=label || ?", ("\r---\u2028x: 1",))
    con.commit()
    con.close()
    out = tmp_path / "e.yaml"
    r = run_kso("export", db, sid, "--out", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    header = text.split("\n---\n", 1)[0]
    assert all(l.startswith("# ") for l in header.splitlines())
    docs = [d for d in yaml.safe_load_all(text) if d]
    assert sorted(d["metadata"]["name"] for d in docs) == ["a", "n1", "n2"]


def test_a_dimension_that_renames_an_object_is_refused_at_its_path(tmp_path):
    u = tmp_path / "u.yaml"
    u.write_text(UNIVERSE.replace("metadata.annotations.note",
                                  "metadata.name") % "rename")
    r = run_kso("enum", u, "--db", tmp_path / "x.db", "--quiet")
    assert r.returncode == 1
    assert r.stderr == ("%s:6:9: a vary dimension must not change an "
                        "object's kind, name or namespace (metadata.name): "
                        "objects are found by them (path)\n" % u)


def test_merged_shards_keep_the_estimate(tmp_path):
    # two scenarios (note a, b), 3 states each (a pending, on n1, on n2):
    # shard 1/2 takes one scenario, 2/2 the other; merged, the run's
    # estimate is the universe's 6 states, however often a shard is given
    import sqlite3
    u = tmp_path / "u.yaml"
    u.write_text(UNIVERSE % "note")
    for i in (1, 2):
        r = run_kso("enum", u, "--shard", "%d/2" % i, "--db",
                    tmp_path / ("s%d.db" % i), "--quiet")
        assert r.returncode == 0, r.stderr
    out = tmp_path / "all.db"
    r = run_kso("merge", tmp_path / "s1.db", tmp_path / "s2.db",
                tmp_path / "s1.db", "--out", out)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(out)
    assert con.execute("SELECT estimate, states, complete FROM runs"
                       ).fetchall() == [(6, 6, 1)]


def test_a_long_path_keeps_the_reason(tmp_path):
    # 15 directories of 200 characters: a 3 KB file name before the reason
    d = tmp_path
    for _ in range(15):
        d = d / ("d" * 200)
    d.mkdir(parents=True)
    f = d / "x.yaml"
    f.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: Bad_Name}\n")
    r = run_kso("validate", f)
    assert r.returncode == 1
    assert r.stderr.startswith(str(f) + ":3:18: invalid name \"Bad_Name\"")
    assert r.stderr.endswith(" (metadata.name)\n")


def test_a_stored_violation_is_exported_with_its_text(tmp_path):
    # clean code breaks no invariant, so the row is written by hand: the
    # export names it, says it did not re-check, and stays loadable
    import sqlite3
    import yaml
    db = enum_db(tmp_path)
    con = sqlite3.connect(db)
    con.execute("INSERT INTO violations(state_id, invariant, detail, trace) "
                "VALUES(2, 'capacity', 'n1 over allocatable cpu', '')")
    con.commit()
    con.close()
    out = tmp_path / "v.yaml"
    r = run_kso("export", db, "2", "--out", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "# violation capacity: n1 over allocatable cpu\n" in text
    assert "# not minimized: " in text
    assert len([d for d in yaml.safe_load_all(text) if d]) == 4


def test_corpus_help_lists_both_forms():
    r = run_kso("corpus", "--help")
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout.startswith("usage: kso corpus [UNIVERSE] --dir DIR "
                               "[OPTIONS]  (or: kso corpus --run DIR "
                               "--impl CMD)\n")
    for opt in ("-o, --output DIR", "--no-minimize", "--mode", "--jobs"):
        assert opt in r.stdout, opt
    r = run_kso("corpus", "--run", "x", "--help")
    assert r.returncode == 0
    assert r.stdout.startswith("usage: kso corpus --run DIR --impl CMD")
    for opt in ("--impl-timeout S", "--strict-message"):
        assert opt in r.stdout, opt
