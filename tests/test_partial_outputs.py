"""
test_partial_outputs.py - a command that fails leaves no partial output
file and creates nothing it was only asked to read (brief: "no partial
output file").
"""
from conftest import run_kso


def test_merge_of_missing_input_writes_nothing(tmp_path):
    missing = tmp_path / "missing.db"
    out = tmp_path / "all.db"
    r = run_kso("merge", missing, "-o", out)
    assert r.returncode == 1
    assert len(r.stderr.strip().splitlines()) == 1
    assert "missing.db" in r.stderr
    assert not out.exists()
    assert not missing.exists()          # not created by opening it


def test_merge_of_non_database_writes_nothing(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n")
    out = tmp_path / "all.db"
    r = run_kso("merge", junk, "-o", out)
    assert r.returncode == 1
    assert "not a kso enum database" in r.stderr
    assert not out.exists()
    assert not (tmp_path / "all.db-wal").exists()


def test_export_from_missing_database_writes_nothing(tmp_path):
    out = tmp_path / "scenario.yaml"
    r = run_kso("export", tmp_path / "missing.db", "1", "-o", out)
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
