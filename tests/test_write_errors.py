"""
test_write_errors.py - every write checked (issue 33 N3): output that
cannot be written is a runtime failure, exit status 3, with one line
naming the file, and no partial file is left behind as if whole.

A full device is /dev/full (every write fails with ENOSPC); a full disk
under a regular file is a file-size limit (RLIMIT_FSIZE, SIGXFSZ ignored:
writes past it fail with EFBIG), which stdio meets exactly as it meets a
full disk.
"""
import os
import resource
import signal
import sqlite3
import subprocess

import pytest

from conftest import FIXTURES, KSO

CLUSTER = FIXTURES / "impl" / "cluster.yaml"
NRS = FIXTURES / "universes" / "no-resource-scores.yaml"
FULL = "standard output: write failed: No space left on device"


def kso(*args, stdout=subprocess.PIPE, fsize=None, cwd=None):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return subprocess.run([KSO, *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120,
                          cwd=cwd, preexec_fn=limit if fsize else None)


@pytest.mark.parametrize("args", [
    ("validate", CLUSTER),
    ("dump", CLUSTER, "-o", "yaml"),
    ("explain", CLUSTER, "--pod", "default/p"),
    ("schedule", CLUSTER),
    ("--help",),
])
def test_stdout_on_a_full_device_exits_3(args):
    with open("/dev/full", "w") as full:
        r = kso(*args, stdout=full)
    assert (r.returncode, r.stderr) == (3, f"kso: {FULL}\n")


def test_check_stdout_on_a_full_device_exits_3(tmp_path):
    f = tmp_path / "w.json"
    f.write_text("")
    with open("/dev/full", "w") as full:
        r = kso("check", f, stdout=full)
    assert (r.returncode, r.stderr) == (3, f"kso: {FULL}\n")


@pytest.fixture(scope="module")
def finding(tmp_path_factory):
    """A database with one finding (no-resource-scores.yaml's header)."""
    d = tmp_path_factory.mktemp("wdb")
    db = d / "c.db"
    r = subprocess.run([KSO, "enum", str(NRS), "--db", str(db), "--quiet"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    (sid,) = con.execute("SELECT state_id FROM findings").fetchone()
    # out of WAL mode, so that reading it writes nothing (no -shm) and a
    # file-size limit meets only the export's own writes
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    return db, sid


def test_export_to_a_full_device_exits_3(finding):
    db, sid = finding
    r = kso("export", db, sid, "--out", "/dev/full")
    assert r.returncode == 3, r.stderr
    assert r.stderr == "/dev/full: write failed: No space left on device\n"


def test_export_onto_a_full_disk_leaves_no_partial_file(finding, tmp_path):
    db, sid = finding
    whole = tmp_path / "whole.yaml"
    assert kso("export", db, sid, "--out", whole).returncode == 0
    size = whole.stat().st_size
    assert size > 1024
    out = tmp_path / "found.yaml"
    out.write_text("the previous content\n")
    r = kso("export", db, sid, "--out", out, fsize=1024)
    assert r.returncode == 3, r.stderr
    assert r.stderr == f"{out}: write failed: File too large\n"
    # the old file untouched, no temporary left
    assert out.read_text() == "the previous content\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "found.config.yaml", "found.yaml", "whole.config.yaml", "whole.yaml"]


def test_check_export_onto_a_full_disk_exits_3(tmp_path):
    # a wrong decision (p bound to the tainted a: fixtures/impl/cluster.yaml)
    # whose state cannot be written: reported, no 0-byte or partial file
    from test_check import Log
    log = Log(CLUSTER)
    log.bind("p", "a")
    f = tmp_path / "watch.json"
    f.write_text("\n".join(log.lines) + "\n")
    out = tmp_path / "cases"
    out.mkdir()
    big = os.path.getsize(f)
    r = kso("check", f, "--export", out, fsize=1024)
    assert big > 1024    # the limit is no obstacle to reading the log
    assert r.returncode == 3
    assert r.stderr == (f"kso check: {out}/check-1.yaml: write failed: "
                        "File too large\n")
    assert os.listdir(out) == []
    assert '"verdict":"infeasible"' in r.stdout.replace(" ", "")
