"""
test_merge_inputs.py - what `kso merge` and the read-only readers take
(issue 33 N4, N12 and the URI leftover): every run of an input however
many, an input in a read-only place read as export reads it, and a path
with '?', '#' or '%' being that file, not an SQLite URI with parameters.
"""
import shutil
import sqlite3
import subprocess

import pytest

from conftest import FIXTURES, run_kso
from test_enum import _mount_tmpfs, enum

NRS = FIXTURES / "universes" / "no-resource-scores.yaml"


def one_run(db):
    r = enum(NRS, "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr


def runs(db):
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT options, items_total FROM runs ORDER BY id").fetchall()
    finally:
        con.close()


def test_merge_copies_every_run_past_4096(tmp_path):
    # 4,100 runs in one input, told apart by their number of work items
    # (a different run each: merge keys a run by universe, mode, options
    # and items)
    db = tmp_path / "many.db"
    one_run(db)
    con = sqlite3.connect(db)
    cols = ("universe, universe_name, mode, options, shard, kso_version, "
            "started, ended, scenarios, items_total, items, estimate")
    for i in range(1, 4100):
        con.execute(f"INSERT INTO runs({cols}) SELECT universe, "
                    "universe_name, mode, options, shard, kso_version, "
                    "started, ended, scenarios, items_total + ?, "
                    "items, estimate FROM runs WHERE id = 1", (i,))
    con.commit()
    con.close()
    out = tmp_path / "all.db"
    r = run_kso("merge", db, "--out", out)
    assert (r.returncode, r.stderr) == (0, "")
    assert len(runs(out)) == 4100
    assert runs(out) == runs(db)


def test_merge_reads_an_input_on_a_read_only_file_system(tmp_path):
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if not _mount_tmpfs(mnt, "16m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        db = mnt / "w.db"
        one_run(db)       # left in WAL mode: reading it wants a -shm file
        want = runs(db)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        assert run_kso("export", db, "1").returncode == 0
        out = tmp_path / "m.db"
        r = run_kso("merge", db, "--out", out)
        assert (r.returncode, r.stderr) == (0, "")
        assert runs(out) == want
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


@pytest.mark.parametrize("name", ["a?mode=memory.db", "b#c.db", "c%41.db",
                                  "d?immutable=0#x%.db"])
def test_paths_with_uri_characters_are_those_files(tmp_path, name):
    db = tmp_path / name
    one_run(db)
    assert db.exists()
    r = run_kso("export", db, "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# exported by kso")
    out = tmp_path / ("m" + name)
    r = run_kso("merge", db, "--out", out)
    assert (r.returncode, r.stderr) == (0, "")
    assert out.exists() and len(runs(out)) == 1
    # nothing created under a name cut at the special character
    assert sorted(p.name for p in tmp_path.iterdir()
                  if not p.name.endswith(("-wal", "-shm"))) == sorted(
                      [name, "m" + name])


def test_uri_characters_on_a_read_only_file_system(tmp_path):
    # where a WAL database is read as immutable (through an SQLite URI):
    # the name must still be that file's
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if not _mount_tmpfs(mnt, "16m"):
        pytest.skip("cannot mount a tmpfs here")
    names = ["a?mode=memory.db", "b#c.db", "c%41.db"]
    try:
        want = {}
        for name in names:
            one_run(mnt / name)
            want[name] = runs(mnt / name)
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        for name in names:
            r = run_kso("export", mnt / name, "1")
            assert (r.returncode, r.stderr) == (0, ""), name
            assert r.stdout.startswith("# exported by kso"), name
            out = tmp_path / ("m" + name)
            r = run_kso("merge", mnt / name, "--out", out)
            assert (r.returncode, r.stderr) == (0, ""), name
            assert runs(out) == want[name]
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_merge_says_what_the_result_holds(tmp_path):
    """kso merge ends with one line: the runs in the result, how many are
    complete, their states and what there is to look at - the sums of the
    inputs' own runs rows (two different universes: two runs)."""
    a, b, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "all.db"
    for u, db in (("quirk-ports.yaml", a), ("two-by-two.yaml", b)):
        enum(FIXTURES / "universes" / u, "--db", db, "--quiet")
    states = issues = 0
    for db in (a, b):
        con = sqlite3.connect(db)
        s, i = con.execute("SELECT sum(states), sum(disagreements + violations"
                           " + findings) FROM runs").fetchone()
        con.close()
        states, issues = states + s, issues + i
    r = run_kso("merge", a, b, "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (f"kso merge: 2 database(s) into {out}: 2 run(s) (2 "
                        f"complete), {states} states, {issues} to look at "
                        "(disagreements, violations, findings)\n")
    assert issues > 0   # quirk-ports holds violations: the count is real
