"""
test_enum.py - `kso enum`, `kso merge`, `kso export` end to end: the
default universe, the symmetry reduction against --no-symmetry, shards
merged against one run, an interrupted run resumed, an exported finding
reproduced by `kso explain`, and the SQLite schema.

Counts are derived by hand from the universes:

fixtures/universes/default.yaml: dimensions of sizes
2 (n2-zone) * 3 (n3-taint) * 2 * 2 * 2 * 2 * 2 * 5 (db-requests, whose
fifth value also sets four fields of its `with` list: no factor of its
own) * 2 * 2 * 2 * 2 * 2 = 30720 scenarios, each with 3 nodes and 4 pods:
(3+1)^4 = 256 placements, so 30720 * 256 = 7864320 states.  Every pod has
the default profile and no scheduling gate (a claim of batch's adds none:
its claim exists, and the suite runs v1.30, which ignores claims), so a
state has a decision exactly when some pod is pending: 256 - 3^4 (every
pod bound) = 175 per scenario, 30720 * 175 = 5376000 decisions.

fixtures/universes/two-by-two.yaml: two identical nodes, two identical
pods: 9 placements in 4 classes ({both pending} 1, {one bound, one
pending} 4, {both on one node} 2, {on different nodes} 2); decisions in
the 1 + 4 = 5 placements with a pending pod (2 classes).  Reachable from
both pending: a binds to n1 or n2 (a tie: equal scores), then b to the
other, emptier node (LeastAllocated): 1 + 2 + 2 = 5 states, 2 final; under
node symmetry 3 classes, 1 final class.
"""
import os
import signal
import sqlite3
import subprocess
import time

import pytest

from conftest import FIXTURES, KSO, REPO, run_kso

DEFAULT = FIXTURES / "universes" / "default.yaml"
TWO = FIXTURES / "universes" / "two-by-two.yaml"
NRS = FIXTURES / "universes" / "no-resource-scores.yaml"
TWF = FIXTURES / "universes" / "tie-worse-final.yaml"
# the TLC yardstick's 4x5 (../shared/bench/tla): local pods, preemption
KUBESCHED = FIXTURES / "universes" / "kubesched-4x5.yaml"
# preemption-worse states among reused whole decisions (its header)
DRP = FIXTURES / "universes" / "reuse-preempt.yaml"

DEFAULT_STATES = 30720 * 256
DEFAULT_DECISIONS = 30720 * 175

# runs columns that must match between equivalent runs
COUNTS = ("universe", "mode", "options", "scenarios", "items_total", "states",
          "classes", "decisions", "agreements", "disagreements", "violations",
          "findings", "preemptions", "preemptions_unchecked", "tally")
WEIGHTED = ("states", "decisions", "agreements", "disagreements", "violations",
            "findings", "preemptions")


def enum(*args, timeout=600):
    r = subprocess.run([KSO, "enum", *map(str, args)], capture_output=True,
                       text=True, timeout=timeout)
    return r


def run_row(db, cols=COUNTS):
    con = sqlite3.connect(db)
    try:
        rows = con.execute(f"SELECT {', '.join(cols)} FROM runs").fetchall()
    finally:
        con.close()
    assert len(rows) == 1, rows
    return dict(zip(cols, rows[0]))


def stored(db):
    """Every stored state with its issues, independent of row ids."""
    con = sqlite3.connect(db)
    try:
        q = """SELECT s.scenario, s.placement, s.weight,
                      coalesce(d.pod, ''), coalesce(d.agree, -1),
                      coalesce(f.kind, ''), coalesce(v.invariant, '')
               FROM states s LEFT JOIN decisions d ON d.state_id = s.id
               LEFT JOIN findings f ON f.state_id = s.id
               LEFT JOIN violations v ON v.state_id = s.id"""
        return sorted(con.execute(q).fetchall())
    finally:
        con.close()


@pytest.fixture(scope="module")
def default_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("enum") / "default.db"
    r = enum(DEFAULT, "--db", db, "--jobs", "2", "--quiet")
    assert r.returncode == 0, r.stdout + r.stderr
    return db


@pytest.fixture(scope="module")
def nosym_db(tmp_path_factory):
    db = tmp_path_factory.mktemp("enum") / "nosym.db"
    r = enum(DEFAULT, "--db", db, "--jobs", "2", "--quiet", "--no-symmetry")
    assert r.returncode == 0, r.stdout + r.stderr
    return db


def test_default_universe_exits_0(default_db):
    row = run_row(default_db, ("complete", "states", "classes", "decisions",
                               "agreements", "disagreements", "violations"))
    assert row["complete"] == 1
    assert row["states"] == DEFAULT_STATES
    assert row["decisions"] == DEFAULT_DECISIONS
    assert row["agreements"] == DEFAULT_DECISIONS
    assert row["disagreements"] == 0 and row["violations"] == 0
    # identical web pods and, in some scenarios, identical n1/n2 reduce
    assert 0 < row["classes"] < row["states"]


def test_no_universe_argument_uses_default(tmp_path):
    # --limit 1 refuses before any work: the plan names the default
    r = subprocess.run([KSO, "enum", "--db", tmp_path / "x.db", "--limit", "1"],
                       capture_output=True, text=True, timeout=60,
                       cwd=FIXTURES.parent)
    assert r.returncode == 1
    assert "universe default" in r.stderr
    assert f"{DEFAULT_STATES} states" in r.stderr
    assert "exceed the limit of 1" in r.stderr


def test_two_by_two_counts(tmp_path):
    db = tmp_path / "t.db"
    r = enum(TWO, "--db", db, "--quiet", "--store", "all")
    assert r.returncode == 0, r.stderr
    row = run_row(db)
    assert (row["states"], row["classes"], row["decisions"]) == (9, 4, 5)
    con = sqlite3.connect(db)
    weights = sorted(w for (w,) in con.execute("SELECT weight FROM states"))
    con.close()
    assert weights == [1, 2, 2, 4]
    r = enum(TWO, "--db", db, "--quiet", "--mode", "reachable")
    assert r.returncode == 0, r.stderr
    assert "states:        5 (3 classes evaluated)" in r.stdout
    assert "final states:  2 (1 classes)" in r.stdout


def test_two_by_two_all_pending(tmp_path):
    # --all-pending decides every pending pod, not only the queue's first:
    # both pending gives 2 decisions, each of the 4 one-pending
    # placements 1: 6 (without it: 1 + 4 = 5)
    db = tmp_path / "t.db"
    r = enum(TWO, "--db", db, "--quiet", "--all-pending", "--no-symmetry")
    assert r.returncode == 0, r.stderr
    row = run_row(db)
    assert (row["states"], row["classes"], row["decisions"]) == (9, 9, 6)


def test_no_symmetry_weighted_counts_equal(default_db, nosym_db):
    sym = run_row(default_db, WEIGHTED)
    raw = run_row(nosym_db, WEIGHTED + ("classes",))
    assert raw.pop("classes") == DEFAULT_STATES
    assert raw == sym
    # reachable mode: node symmetry only, weights are exact as well
    for universe in (TWO, DEFAULT):
        rows = []
        for extra in ([], ["--no-symmetry"]):
            db = nosym_db.parent / f"reach-{universe.stem}-{len(extra)}.db"
            r = enum(universe, "--db", db, "--quiet", "--jobs", "2",
                     "--mode", "reachable", *extra)
            assert r.returncode == 0, r.stderr
            rows.append(run_row(db, WEIGHTED))
        assert rows[0] == rows[1]


def test_three_shards_merged_equal_unsharded(default_db, tmp_path):
    shards = []
    for i in (1, 2, 3):
        db = tmp_path / f"shard{i}.db"
        r = enum(DEFAULT, "--db", db, "--shard", f"{i}/3", "--jobs", "2", "--quiet")
        assert r.returncode == 0, r.stderr
        shards.append(db)
        assert run_row(db, ("states",))["states"] < DEFAULT_STATES
    merged = tmp_path / "all.db"
    r = run_kso("merge", *shards, "--out", merged)
    assert r.returncode == 0, r.stderr
    assert run_row(merged) == run_row(default_db)
    assert run_row(merged, ("complete",))["complete"] == 1
    assert stored(merged) == stored(default_db)


def ties_universe(tmp_path):
    """4 identical nodes (cpu 4) and 7 pods (cpu 500m / 1 alternating):
    5^7 = 78125 placements, several work items of 16384, and ties between
    identical nodes in most decisions."""
    docs = ["kind: Universe\nname: ties7\n"]
    for n in ("n1", "n2", "n3", "n4"):
        docs.append("apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: "
                    "{kubernetes.io/hostname: %s}}\nstatus: {allocatable: "
                    "{cpu: \"4\", memory: 4Gi, pods: \"110\"}}\n" % (n, n))
    for i, p in enumerate("abcdefg"):
        docs.append("apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: "
                    "default}\nspec:\n  containers:\n  - {name: c, image: pause, "
                    "resources: {requests: {cpu: \"%s\"}}}\n"
                    % (p, "1" if i % 2 else "500m"))
    u = tmp_path / "ties7.yaml"
    u.write_text("---\n".join(docs))
    return u


def decision_rows(db):
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT s.scenario, s.placement, d.pod, d.model_viable, "
        "d.oracle_choice, d.agree FROM decisions d JOIN states s "
        "ON s.id = d.state_id ORDER BY 1, 2, 3").fetchall()
    con.close()
    return rows


def test_reachable_follows_tied_preemption_candidates(tmp_path):
    # counts worked out in the universe's header
    u = FIXTURES / "universes" / "reach-tied-preemption.yaml"
    r = enum(u, "--db", tmp_path / "t.db", "--mode", "reachable",
             "--no-symmetry", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "states:        9 (9 classes evaluated" in r.stdout
    assert "final states:  2 (2 classes)" in r.stdout
    assert "decisions:     7 (7 classes)" in r.stdout
    assert "preemptions:   2 (2)" in r.stdout


def test_universe_manifests_by_path(tmp_path):
    # the two-by-two universe's objects in a file the universe names
    text = TWO.read_text()
    head, _, body = text.partition("---\n")
    (tmp_path / "objects.yaml").write_text(body)
    u = tmp_path / "u.yaml"
    u.write_text("kind: Universe\nname: by-path\nmanifests: [objects.yaml]\n")
    db = tmp_path / "t.db"
    r = enum(u, "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr
    assert (run_row(db)["states"], run_row(db)["decisions"]) == (9, 5)


def test_second_writer_refused(tmp_path):
    # one writer per database: a second run (here a --resume of the same
    # run) while the first is still writing is refused, and writes nothing
    db = tmp_path / "l.db"
    first = subprocess.Popen([KSO, "enum", DEFAULT, "--db", db, "--quiet",
                              "--no-symmetry"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not db.exists() and time.time() < deadline:
        time.sleep(0.02)
    time.sleep(0.2)
    second = enum(DEFAULT, "--db", db, "--quiet", "--no-symmetry", "--resume")
    out, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    assert second.returncode == 3   # kso could not complete, not bad input
    assert second.stderr == (f"{db}: another kso is writing this database "
                             "(one writer at a time; wait for it or use "
                             "another --db)\n")
    assert run_row(db, ("complete", "states"))["complete"] == 1


def test_shards_of_an_edited_universe_do_not_merge(tmp_path):
    # shard 1 of two-by-two, then the universe edited (node cpu 2 -> 3),
    # then shard 2: a run's identity includes the universe's content, so
    # the merge refuses instead of making one "complete" run of both
    u = tmp_path / "u.yaml"
    u.write_text(TWO.read_text())
    s1, s2, m = tmp_path / "s1.db", tmp_path / "s2.db", tmp_path / "m.db"
    assert enum(u, "--db", s1, "--shard", "1/2", "--quiet").returncode == 0
    u.write_text(TWO.read_text().replace('cpu: "2"', 'cpu: "3"'))
    assert enum(u, "--db", s2, "--shard", "2/2", "--quiet").returncode == 0
    r = run_kso("merge", s1, s2, "--out", m)
    assert r.returncode == 1
    assert r.stderr.startswith(f"{s2}: its run of {u} read another version "
                               "of that universe (content ")
    assert r.stderr.endswith("shards of an edited universe do not merge\n")
    assert not m.exists()
    # the unedited universe's shards still merge
    u.write_text(TWO.read_text())
    s3 = tmp_path / "s3.db"
    assert enum(u, "--db", s3, "--shard", "2/2", "--quiet").returncode == 0
    r = run_kso("merge", s1, s3, "--out", m)
    assert r.returncode == 0, r.stderr
    assert run_row(m, ("complete",))["complete"] == 1


def test_stored_choices_independent_of_jobs_and_shards(tmp_path):
    # the oracle's tie-break is seeded from each state, not from what a
    # worker happened to evaluate before it (issue 18 item 2)
    u = ties_universe(tmp_path)
    dbs = {}
    for name, args in (("j1", ["--jobs", "1"]), ("j2", ["--jobs", "2"]),
                       ("s1", ["--shard", "1/2"]), ("s2", ["--shard", "2/2"])):
        dbs[name] = tmp_path / (name + ".db")
        r = enum(u, "--db", dbs[name], "--quiet", "--store", "all", *args)
        assert r.returncode == 0, r.stderr
    merged = tmp_path / "m.db"
    r = run_kso("merge", dbs["s1"], dbs["s2"], "--out", merged)
    assert r.returncode == 0, r.stderr
    one = decision_rows(dbs["j1"])
    assert len(one) > 100
    assert decision_rows(dbs["j2"]) == one
    assert decision_rows(merged) == one


def test_interrupted_run_resumes(nosym_db, tmp_path):
    db = tmp_path / "int.db"
    p = subprocess.Popen([KSO, "enum", DEFAULT, "--db", db, "--quiet",
                          "--no-symmetry"], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    # wait until the first work items are committed (a group commit
    # comes after 1 s), then interrupt: poll often, the whole run takes
    # only a few seconds
    deadline = time.time() + 60
    while time.time() < deadline:
        time.sleep(0.05)
        if db.exists():
            try:
                con = sqlite3.connect(db)
                n = con.execute("SELECT count(*) FROM work").fetchone()[0]
                con.close()
            except sqlite3.Error:
                n = 0
            if n >= 1:
                break
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, out + err
    assert "interrupted" in out
    row = run_row(db, ("complete", "states"))
    assert row["complete"] == 0
    assert 0 < row["states"] < DEFAULT_STATES
    # an interrupted session still ends by building the indexes
    con = sqlite3.connect(db)
    indexes = {n for (n,) in con.execute(
        "SELECT name FROM sqlite_master WHERE type = 'index'")}
    con.close()
    assert "findings_state" in indexes
    r = enum(DEFAULT, "--db", db, "--quiet", "--no-symmetry", "--resume",
             "--jobs", "2")
    assert r.returncode == 0, r.stderr
    assert run_row(db, ("complete",))["complete"] == 1
    assert run_row(db) == run_row(nosym_db)
    # nothing left to resume
    r = enum(DEFAULT, "--db", db, "--quiet", "--no-symmetry", "--resume")
    assert r.returncode == 1 and "no incomplete run" in r.stderr


def test_export_reproduces_with_explain(default_db, tmp_path):
    con = sqlite3.connect(default_db)
    (sid,) = con.execute("SELECT state_id FROM findings WHERE "
                         "kind = 'preemption-worse' ORDER BY state_id "
                         "LIMIT 1").fetchone()
    con.close()
    out = tmp_path / "finding.yaml"
    r = run_kso("export", default_db, sid, "--out", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "# finding preemption-worse" in text
    # the reproduce line names the file as --out wrote it
    # the suite runs v1.30 (conftest.py), kso's default is v1.34
    assert (f"# reproduce: kso explain {out} --pod default/db "
            "--kube-version 1.30\n") in text
    r = run_kso("explain", out, "--pod", "default/db", "-o", "json")
    assert r.returncode == 0, r.stderr
    import json
    pre = json.loads(r.stdout)["preemption"]
    # the universe's finding (see its header): with batch at priority 100,
    # started first, kube reprieves batch and evicts both web pods;
    # evicting batch alone is the least Casualty
    assert sorted(pre["victims"]) == ["default/web-1", "default/web-2"]
    assert pre["minimal"]["victims"] == ["default/batch"]
    assert pre["differs"] is True
    # minimized: n1 and n2 play no part and are dropped
    assert "name: n1" not in text and "name: n2" not in text


def viable(path, *config):
    import json
    r = run_kso("explain", path, *config, "--pod", "default/b", "-o", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["viable"]


def test_export_carries_the_universe_config(tmp_path):
    # no-resource-scores.yaml (derivation in its header): with its config
    # (both resource scores disabled) a on n1 and b pending has viable
    # {n1, n2} and b on n1 breaks a's hostname spread (skew 2 > 1); under
    # the default profile the resource scores prefer the empty n2 and
    # there is no finding.  Placements with a on a node and b pending:
    # a=n1 and a=n2, one symmetry class: 2 raw states (1 class).
    db = tmp_path / "c.db"
    r = enum(NRS, "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    (n,) = con.execute("SELECT count(*) FROM findings WHERE kind = "
                       "'breaks-earlier'").fetchone()
    (sid,) = con.execute("SELECT state_id FROM findings").fetchone()
    (cfg,) = con.execute("SELECT yaml FROM configs").fetchone()
    con.close()
    assert n == 1 and "NodeResourcesBalancedAllocation" in cfg
    out = tmp_path / "found.yaml"
    r = run_kso("export", db, sid, "--out", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    conf = tmp_path / "found.config.yaml"
    assert conf.read_text() == cfg
    assert ("kso explain found.yaml --config found.config.yaml "
            "--pod default/b") in text
    # minimized under the config: nothing can go (without n2 or a there is
    # no skew), so it is marked minimized rather than left whole
    assert "# minimized:" in text
    assert viable(out, "--config", conf) == ["n1", "n2"]
    assert viable(out) == ["n2"]          # reproduces only with the config
    # on stdout the config comes along as comment lines
    r = run_kso("export", db, sid)
    assert r.returncode == 0 and "#   kind: KubeSchedulerConfiguration" in r.stdout
    # a merged database keeps the config
    merged = tmp_path / "m.db"
    assert run_kso("merge", db, "--out", merged).returncode == 0
    con = sqlite3.connect(merged)
    assert con.execute("SELECT yaml FROM configs").fetchone() == (cfg,)
    con.close()


def test_export_minimizes_worse_final_through_a_tie(tmp_path):
    # tie-worse-final.yaml (derivation in its header): a ties n1/n2; a on
    # n1 leaves b (2 cpu) pending for good, a on n2 lets b onto n1, so
    # {a=n1, b=-} is a worse final state.  It has no decision to re-check:
    # the export re-checks it by a reachable search of each smaller
    # scenario; n3 (tainted, tolerated by nobody) goes, the rest stays.
    db = tmp_path / "w.db"
    r = enum(TWF, "--mode", "reachable", "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    rows = con.execute("SELECT s.id, s.placement FROM findings f JOIN states s "
                       "ON s.id = f.state_id WHERE f.kind = 'worse-final'"
                       ).fetchall()
    con.close()
    assert [p for _, p in rows] == ["default/a=n1 default/b=-"]
    out = tmp_path / "wf.yaml"
    r = run_kso("export", db, rows[0][0], "--out", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert "# finding worse-final" in text
    assert "# minimized: " in text and "reachable search" in text
    assert "name: n3" not in text
    for name in ("n1", "n2", "a", "b"):
        assert f"name: {name}\n" in text
    assert (tmp_path / "wf.config.yaml").exists()


def test_reachable_progress_lines(tmp_path):
    # stderr is not a terminal here: plain lines, the last one forced at the
    # end.  two-by-two under node symmetry has 3 canonical states (module
    # docstring), all expanded, so the frontier ends empty; 1 scenario.
    r = enum(TWO, "--mode", "reachable", "--db", tmp_path / "p.db")
    assert r.returncode == 0, r.stderr
    lines = [l for l in r.stderr.splitlines() if "reachable:" in l]
    assert lines and lines[-1].startswith(
        "kso enum: reachable: 3 states visited, frontier 0, "), r.stderr
    assert lines[-1].endswith(" states/s, 1/1 scenarios")
    r = enum(TWO, "--mode", "reachable", "--db", tmp_path / "q.db", "--quiet")
    assert "reachable:" not in r.stderr


def test_export_dir(tmp_path):
    db = tmp_path / "e.db"
    d = tmp_path / "exported"
    r = enum(TWO, "--db", db, "--quiet", "--export", d)
    assert r.returncode == 0, r.stderr
    assert d.is_dir() and list(d.iterdir()) == []   # nothing to export


def test_sql_schema(default_db):
    con = sqlite3.connect(default_db)
    try:
        assert con.execute("PRAGMA user_version").fetchone()[0] == 1
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {n for (n,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"runs", "scenarios", "states", "decisions", "preemptions",
                "violations", "findings", "work"} <= tables
        # the secondary indexes are built when the run's session ends
        indexes = {n for (n,) in con.execute(
            "SELECT name FROM sqlite_master WHERE type = 'index'")}
        assert {"states_run", "decisions_state", "preemptions_state",
                "violations_state", "findings_state"} <= indexes
        # --store findings keeps the manifests of exactly the scenarios
        # with a stored state (--store all: every scenario, see
        # test_store_all_keeps_every_scenario)
        stored = {i for (i,) in con.execute("SELECT DISTINCT scenario FROM states")}
        rows = {i for (i,) in con.execute("SELECT idx FROM scenarios")}
        assert stored and rows == stored
        idx = min(stored)
        (y,) = con.execute("SELECT yaml FROM scenarios WHERE idx = ?", (idx,)).fetchone()
        assert "kind: Node" in y and "name: web-1" in y
    finally:
        con.close()


def test_store_all_keeps_every_scenario(tmp_path):
    # two-by-two has no disagreement, violation or finding (two identical
    # pods, nothing that can break): --store findings keeps no state and so
    # no scenario; --store all keeps its one scenario and all 4 classes
    def rows(db):
        con = sqlite3.connect(db)
        try:
            return (con.execute("SELECT count(*) FROM scenarios").fetchone()[0],
                    con.execute("SELECT count(*) FROM states").fetchone()[0])
        finally:
            con.close()
    r = enum(TWO, "--db", tmp_path / "f.db", "--quiet")
    assert r.returncode == 0, r.stderr
    assert rows(tmp_path / "f.db") == (0, 0)
    r = enum(TWO, "--db", tmp_path / "a.db", "--quiet", "--store", "all")
    assert r.returncode == 0, r.stderr
    assert rows(tmp_path / "a.db") == (1, 4)


def test_foreign_database_refused(tmp_path):
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE t(x)")
    con.commit()
    con.close()
    r = enum(TWO, "--db", db, "--quiet")
    assert r.returncode == 1
    assert "not a kso database" in r.stderr


def test_bad_universe_one_line_error(tmp_path):
    u = tmp_path / "bad.yaml"
    u.write_text("kind: Universe\nvary:\n- target: Node/nope\n  path: a\n"
                 "  values: [1]\n")
    r = enum(u, "--db", tmp_path / "b.db")
    assert r.returncode == 1
    lines = r.stderr.strip().splitlines()
    assert lines[-1].startswith(f"{u}:3:11: no object 'Node/nope'"), r.stderr


def test_usage_errors():
    assert enum("--mode", "sideways").returncode == 2
    assert enum("--shard", "4/3").returncode == 2
    assert run_kso("merge", "a.db").returncode == 2
    assert run_kso("export", "a.db").returncode == 2


def _mount_tmpfs(path, size):
    """A size-limited tmpfs at path; False where mounting is not allowed
    (not root, or a container without the capability)."""
    if os.geteuid() != 0:
        return False
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}",
                           "tmpfs", str(path)], capture_output=True).returncode == 0


def test_full_disk_exits_3_and_resumes_to_the_same_states(tmp_path):
    # A run whose disk fills: exit status 3 with SQLite's own reason (not
    # the failed commit after it), one line, then --resume once there is
    # room ends with exactly the states of a run that never failed.
    ref = tmp_path / "ref.db"
    args = (DEFAULT, "--store", "all", "--shard", "1/16", "--quiet")
    assert enum(*args, "--db", ref).returncode == 0
    mnt = tmp_path / "small"
    mnt.mkdir()
    if not _mount_tmpfs(mnt, "256k"):
        pytest.skip("cannot mount a small tmpfs here")
    try:
        db = mnt / "f.db"
        r = enum(*args, "--db", db)
        assert r.returncode == 3, r.stdout + r.stderr
        assert r.stderr.endswith(": database or disk is full\n"), r.stderr
        assert r.stderr.count("\n") == 1
        subprocess.run(["mount", "-o", "remount,size=256m", str(mnt)], check=True)
        r = enum(*args, "--db", db, "--resume")
        assert r.returncode == 0, r.stdout + r.stderr
        assert run_row(db, WEIGHTED + ("complete",)) == \
            run_row(ref, WEIGHTED + ("complete",))
        assert stored(db) == stored(ref)
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)
    # full before the schema is even written: still a failure (3), never
    # a misread "schema version -1" (1)
    if not _mount_tmpfs(mnt, "16k"):
        pytest.skip("cannot mount a small tmpfs here")
    try:
        r = enum(*args, "--db", mnt / "g.db")
        assert r.returncode == 3, r.stdout + r.stderr
        assert r.stderr.count("\n") == 1 and "version -1" not in r.stderr
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_db_that_is_not_a_database_is_bad_input(tmp_path):
    # the user named the wrong file: exit 1 (bad input), not 3 (failure)
    db = tmp_path / "notes.db"
    db.write_text("not sqlite\n" * 200)
    r = enum(DEFAULT, "--db", db, "--quiet")
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"{db}: file is not a database\n"
    assert db.read_text() == "not sqlite\n" * 200


def test_read_only_file_system_names_the_cause_and_exports_still_read(tmp_path):
    # a database on a file system mounted read-only: writing (a new run,
    # a resume, a merge output) exits 3 naming the system's cause, while
    # export still reads it (a WAL database is read as immutable there)
    mnt = tmp_path / "ro"
    mnt.mkdir()
    if not _mount_tmpfs(mnt, "16m"):
        pytest.skip("cannot mount a tmpfs here")
    try:
        db = mnt / "w.db"
        r = enum(TWO, "--db", db, "--store", "all", "--quiet")
        assert r.returncode == 0, r.stderr
        subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
        r = enum(TWO, "--db", mnt / "new.db", "--quiet")
        assert (r.returncode, r.stderr) == (3, "%s: cannot create: %s: "
                                            "Read-only file system\n"
                                            % (mnt / "new.db", mnt))
        r = enum(TWO, "--db", db, "--quiet", "--resume")
        assert (r.returncode, r.stderr) == (3, "%s: cannot write: Read-only "
                                            "file system\n" % db)
        outside = tmp_path / "o.db"
        assert enum(TWO, "--db", outside, "--quiet").returncode == 0
        r = run_kso("merge", outside, "--out", mnt / "m.db")
        assert (r.returncode, r.stderr) == (3, "%s: cannot create: %s: "
                                            "Read-only file system\n"
                                            % (mnt / "m.db", mnt))
        r = run_kso("export", db, "1")
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("# exported by kso")
    finally:
        subprocess.run(["umount", str(mnt)], capture_output=True)


def test_io_errors_exit_3_and_resume_to_the_same_states(tmp_path):
    # A disk that starts failing writes (EIO from an LD_PRELOAD shim,
    # tests/fault/eio.c) after 5, 50 or 200 writes to the database: exit
    # status 3 with SQLite's and the system's reason on one line; then,
    # with the disk back, --resume (or, when the failure came before the
    # run was recorded, a plain run) ends with exactly the states of a run
    # that never failed.
    shim = tmp_path / "eio.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(shim),
                    str(REPO / "tests" / "fault" / "eio.c"), "-ldl"], check=True)
    args = (DEFAULT, "--store", "all", "--shard", "1/16", "--quiet")
    ref = tmp_path / "ref.db"
    assert enum(*args, "--db", ref).returncode == 0
    for n in (5, 50, 200):
        db = tmp_path / ("eio%d.db" % n)
        env = dict(os.environ, LD_PRELOAD=str(shim), KSO_EIO_AFTER=str(n),
                   ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=0")
        r = subprocess.run([KSO, "enum", *map(str, args), "--db", str(db)],
                           capture_output=True, text=True, env=env,
                           timeout=600)
        assert r.returncode == 3, (n, r.stdout, r.stderr)
        assert r.stderr.count("\n") == 1 and "disk I/O error" in r.stderr, \
            r.stderr
        r = enum(*args, "--db", db, "--resume")
        if r.returncode == 1 and "no incomplete run" in r.stderr:
            r = enum(*args, "--db", db)
        assert r.returncode == 0, (n, r.stdout, r.stderr)
        assert run_row(db, WEIGHTED + ("complete",)) == \
            run_row(ref, WEIGHTED + ("complete",))
        assert stored(db) == stored(ref)


def test_a_bad_vary_value_is_reported_where_the_manifest_has_the_field(tmp_path):
    # the varied Node lives in its own file: a value the loader refuses
    # is reported in that file, at the field it replaces (zone's value,
    # line 6 col 11) or, for a new field, at the map it joins (labels'
    # first key, line 6 col 5) - not at a line of the universe
    m = tmp_path / "m.yaml"
    m.write_text("apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n"
                 "  labels:\n    zone: a\nstatus:\n"
                 "  allocatable: {cpu: \"2\", pods: \"10\"}\n")
    why = ("invalid label value \"bad value!\": a valid label must be an "
           "empty string or must consist of alphanumeric characters, '-', "
           "'_' or '.', and must start and end with an alphanumeric "
           "character")
    for key, at, scenario, label in (
            ("zone", "6:11", 1, 'zone="bad value!"'),
            ("tier", "6:5", 0, 'tier="bad value!"')):
        u = tmp_path / ("u-%s.yaml" % key)
        values = '[b, "bad value!"]' if key == "zone" else '["bad value!"]'
        u.write_text("kind: Universe\nname: anc\nmanifests: [%s]\nvary:\n"
                     "- name: %s\n  target: Node/n1\n  path: metadata.labels.%s\n"
                     "  values: %s\n" % (m, key, key, values))
        r = enum(u, "--db", tmp_path / ("%s.db" % key), "--quiet")
        assert r.returncode == 1
        assert r.stderr == ("%s:%s: %s (metadata.labels.%s) in scenario %d "
                            "(%s)\n" % (m, at, why, key, scenario, label))


def test_an_indexed_job_of_shards_merges_to_one_run(tmp_path):
    # deploy/enum-job.yaml's pods, simulated: each process gets the
    # environment an Indexed Job gives its pod (JOB_COMPLETION_INDEX) and
    # the manifest's KSO_SHARDS, runs `--shard auto` at once beside the
    # others, and the merged databases hold exactly one run's states
    import yaml
    with open(REPO / "deploy" / "enum-job.yaml") as f:
        job, pvc = list(yaml.safe_load_all(f))
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    env = {e["name"]: e["value"] for e in
           spec["template"]["spec"]["containers"][0]["env"]}
    assert env["KSO_SHARDS"] == str(spec["completions"])
    assert "auto" in spec["template"]["spec"]["containers"][0]["args"]
    # six scenarios (3 zones x 2 requests) of two nodes and two pods
    u = tmp_path / "u.yaml"
    u.write_text(
        "kind: Universe\nname: job\nvary:\n"
        "- {name: zone, target: Node/n2, path: metadata.labels.zone, "
        "values: [a, b, c]}\n"
        "- {name: cpu, target: Pod/a, path: 'spec.containers[0].resources."
        "requests.cpu', values: ['1', 500m]}\n---\n" +
        "".join("apiVersion: v1\nkind: Node\nmetadata: {name: %s, labels: "
                "{zone: a}}\nstatus: {allocatable: {cpu: '2', pods: '10'}}"
                "\n---\n" % nn for nn in ("n1", "n2")) +
        "".join("apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\nspec: "
                "{containers: [{name: c, image: x, resources: {requests: "
                "{cpu: '1'}}}]}\n---\n" % pn for pn in ("a", "b")))
    n = 3
    args = [str(u), "--shard", "auto", "--store", "all", "--quiet"]
    procs = []
    for k in range(n):
        e = dict(os.environ, JOB_COMPLETION_INDEX=str(k), KSO_SHARDS=str(n))
        procs.append(subprocess.Popen(
            [KSO, "enum", *args, "--db", str(tmp_path / ("shard-%d.db" % k))],
            env=e, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, out + err
    merged = tmp_path / "all.db"
    r = run_kso("merge", *[tmp_path / ("shard-%d.db" % k) for k in range(n)],
                "--out", merged)
    assert r.returncode == 0, r.stderr
    one = tmp_path / "one.db"
    assert enum(u, "--store", "all", "--quiet", "--db", one).returncode == 0
    assert run_row(one, ("states",)) == {"states": 6 * 9}
    assert run_row(merged, WEIGHTED + ("complete",)) == \
        run_row(one, WEIGHTED + ("complete",))
    assert stored(merged) == stored(one)
    r = enum(DEFAULT, "--shard", "auto", "--db", tmp_path / "x.db")
    assert r.returncode == 2 and "JOB_COMPLETION_INDEX" in r.stderr


def test_progress_ends_with_the_whole_count_and_no_time_left(tmp_path):
    # not on a terminal: the plan, then a progress line (every 10 s and at
    # the end); two-by-two has 3 x 3 = 9 placements
    import re
    r = enum(TWO, "--db", tmp_path / "p.db")
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("kso enum: universe two-by-two (")
    assert re.fullmatch(r"kso enum: 9/9 states \(100\.0%\), \d+ classes, "
                        r"\d+ states/s, ETA 0:00:00", lines[-1]), lines[-1]


GPU = FIXTURES / "universes" / "greedy-gpu.yaml"


def test_greedy_gap_on_the_gpu_example(tmp_path):
    # fixtures/universes/greedy-gpu.yaml's header: web binds n-gpu (124 >
    # 99), trainer is then left pending; web on n-cpu and trainer on n-gpu
    # would place both
    db = tmp_path / "g.db"
    r = enum(GPU, "--mode", "reachable", "--greedy-gap", "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr
    assert "  greedy-gap           1 (1)\n" in r.stdout
    con = sqlite3.connect(db)
    rows = con.execute("SELECT kind, details FROM findings").fetchall()
    con.close()
    assert rows == [("greedy-gap",
                     "the scheduler's best final state places 1 pod(s) "
                     "(priority 100); placing every pod at once, 2 (priority "
                     "110) pass every filter: default/web on n-cpu, "
                     "default/trainer on n-gpu; the scheduler's: 1. "
                     "default/web bind n-gpu; 2. default/trainer unschedulable"
                     " (steps name the canonical state's objects: identical "
                     "nodes or pods may be renamed between steps; "
                     "--no-symmetry gives literal traces)")]
    # without the option: not searched, not reported
    r = enum(GPU, "--mode", "reachable", "--db", tmp_path / "n.db", "--quiet")
    assert r.returncode == 0 and "greedy-gap" not in r.stdout


def test_no_greedy_gap_when_a_tie_lets_the_loop_reach_the_optimum(tmp_path):
    # n-cpu with 4 cpu as well: web scores the same on both nodes (the GPU
    # is no scored resource), the loop may bind it to n-cpu, and one of its
    # runs places both pods: no finding
    u = tmp_path / "tie.yaml"
    u.write_text(GPU.read_text().replace(
        'allocatable: {cpu: "3", memory: 8Gi, pods: "110"}',
        'allocatable: {cpu: "4", memory: 8Gi, pods: "110"}'))
    r = enum(u, "--mode", "reachable", "--greedy-gap", "--db",
             tmp_path / "t.db", "--quiet")
    assert r.returncode == 0, r.stderr
    assert "  greedy-gap           0 (0)\n" in r.stdout


def test_greedy_gap_needs_reachable_mode_and_a_small_universe(tmp_path):
    r = enum(GPU, "--greedy-gap", "--db", tmp_path / "x.db")
    assert r.returncode == 2 and "--greedy-gap needs --mode reachable" in r.stderr
    # 9 nodes, 7 pods: 10^7 placements a scenario, over the 10^6 searched
    u = tmp_path / "big.yaml"
    u.write_text("kind: Universe\nname: big\n---\n" + "".join(
        "apiVersion: v1\nkind: Node\nmetadata: {name: n%d}\nstatus: "
        "{allocatable: {cpu: '1', pods: '10'}}\n---\n" % i for i in range(9)) +
        "".join("apiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec: "
                "{containers: [{name: c, image: x}]}\n---\n" % i
                for i in range(7)))
    r = enum(u, "--mode", "reachable", "--greedy-gap", "--db",
             tmp_path / "b.db", "--quiet", "--force")
    assert r.returncode == 1
    assert r.stderr.endswith("--greedy-gap searches every placement of each "
                             "scenario: 10000000 here, at most 1000000\n")


# --arrivals on two-by-two (n1, n2 of 2 cpu; a, b of 1 cpu, equal
# priority).  A pod is absent (?), pending (-) or bound; the queue order
# of pending pods is their arrival order.  The first pod scheduled ties
# n1/n2 (both empty); the second then fits only the emptier other node
# (LeastAllocated and BalancedAllocation both prefer it).  Any order:
#   init {?,?}                                                     1
#   one arrived {-,?} {?,-}                                        2
#   one bound, the other absent {n1,?} {n2,?} {?,n1} {?,n2}         4
#   both pending, a first or b first                               2
#   one bound, the other pending (4 placements)                    4
#   finals: both bound on different nodes, a or b arrived first    4
# = 17 states, 4 final, 8 decisions (the states with a pending pod); up
# to the node swap 11, 2 and 6.  In manifest order (a before b): init,
# {-,?}, {n1,?} {n2,?} {-,-}, {n1,-} {n2,-}, 2 finals = 9 states, 2
# final, 4 decisions (6, 1, 3 up to the swap).
@pytest.mark.parametrize("order,counts", [
    ("any", ((17, 11), (4, 2), (8, 6))),
    ("ordered", ((9, 6), (2, 1), (4, 3))),
])
def test_arrivals_two_by_two(tmp_path, order, counts):
    r = enum(TWO, "--db", tmp_path / "a.db", "--quiet", "--mode",
             "reachable", "--arrivals", order)
    assert r.returncode == 0, r.stderr
    (s, sc), (f, fc), (d, dc) = counts
    assert f"states:        {s} ({sc} classes evaluated)" in r.stdout
    assert f"final states:  {f} ({fc} classes)" in r.stdout
    assert f"decisions:     {d} ({dc} classes)" in r.stdout


def test_arrivals_needs_reachable(tmp_path):
    r = enum(TWO, "--db", tmp_path / "p.db", "--arrivals", "any")
    assert r.returncode == 2
    assert r.stderr.startswith("kso enum: --arrivals needs --mode reachable")
    r = enum(TWO, "--db", tmp_path / "p.db", "--mode", "reachable",
             "--arrivals", "sometimes")
    assert r.returncode == 2
    db = tmp_path / "a.db"
    r = enum(TWO, "--db", db, "--quiet", "--mode", "reachable", "--arrivals",
             "any", "--store", "all")
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    # a state before anything arrived: both pods "?" (absent)
    assert ("default/a=? default/b=?",) in con.execute(
        "SELECT placement FROM states").fetchall()
    con.close()


VOLUMES = FIXTURES / "universes" / "volumes.yaml"


@pytest.mark.parametrize("mode", ["placements", "reachable"])
def test_volume_universe_engines_agree(tmp_path, mode):
    # 1536 scenarios (2*2*2*2*2*2*2*3*2*2 values) of 3 nodes and 3 pods with
    # claims: (3+1)^3 = 64 placements each, of which 64 - 3^3 = 37 have a
    # pending pod to decide.  The model's and the oracle's volume plugins
    # must agree on every one, with and without the symmetry reduction
    # (CSINode n1 and the PVs' hostnames name the nodes).
    runs = []
    for sym in ([], ["--no-symmetry"]):
        db = tmp_path / f"v{len(runs)}.db"
        r = enum(VOLUMES, "--db", db, "--quiet", "--mode", mode, *sym)
        assert r.returncode == 0, r.stderr
        runs.append(run_row(db, WEIGHTED))
    for row in runs:
        assert row["disagreements"] == 0 and row["violations"] == 0
        if mode == "placements":
            assert row["states"] == 1536 * 64
            assert row["decisions"] == 1536 * 37
    assert runs[0] == runs[1]


def every_row(db):
    """Every stored table's rows (runs without its timestamps), sorted:
    what two runs that must agree are compared on."""
    con = sqlite3.connect(db)
    try:
        out = {"runs": run_row(db)}
        for t in ("scenarios", "states", "decisions", "findings",
                  "preemptions", "violations"):
            out[t] = sorted(map(repr, con.execute(f"SELECT * FROM {t}")))
        return out
    finally:
        con.close()


@pytest.mark.parametrize("universe,extra", [
    (DEFAULT, ("--shard", "1/8")),
    (DEFAULT, ("--shard", "2/8", "--all-pending")),
    (DEFAULT, ("--mode", "reachable", "--shard", "1/16")),
    (FIXTURES / "universes" / "greedy-gpu.yaml", ()),
    (FIXTURES / "universes" / "greedy-gpu.yaml", ("--mode", "reachable")),
    (FIXTURES / "universes" / "quirk-victims.yaml", ("--no-symmetry",)),
    (FIXTURES / "universes" / "volumes.yaml", ()),
    (TWF, ("--mode", "reachable")),
    (KUBESCHED, ()),
    (KUBESCHED, ("--no-symmetry", "--all-pending")),
    (KUBESCHED, ("--mode", "reachable")),
    (FIXTURES / "universes" / "no-resource-scores.yaml", ("--no-symmetry",)),
    (FIXTURES / "universes" / "quirk-ports.yaml", ("--all-pending",)),
    (DEFAULT, ("--shard", "5/64", "--no-symmetry")),
])
def test_verdict_reuse_changes_no_stored_row(tmp_path, universe, extra):
    # both engines' per-node verdicts, scores and FitError messages
    # reused across states and compared once per pair, and the binds and
    # preemption steps found clean (enum/verdict_reuse.c), must leave
    # every stored row as both engines evaluating every node of every
    # state and checking every step leave it (one job: row ids then
    # follow the states' order); a profile with its own score weights
    # (no-resource-scores), host ports, every pending pod decided
    # (quirk-ports), the default universe without symmetry
    dbs = []
    for reuse in ((), ("--no-reuse",)):
        db = tmp_path / f"r{len(reuse)}.db"
        r = enum(universe, "--db", db, "--quiet", "--store", "all",
                 "--jobs", "1", *extra, *reuse)
        assert r.returncode in (0, 1), r.stderr
        dbs.append(every_row(db))
    assert dbs[0]["states"], "the run stored no state"
    assert dbs[0] == dbs[1]


@pytest.mark.parametrize("universe,extra", [
    (DEFAULT, ("--shard", "5/64")),
    (DEFAULT, ("--shard", "5/64", "--no-symmetry")),
    (DEFAULT, ("--shard", "2/8", "--all-pending")),
    (KUBESCHED, ()),
    (KUBESCHED, ("--no-symmetry", "--all-pending")),
    (FIXTURES / "universes" / "quirk-ports.yaml", ("--all-pending",)),
    (FIXTURES / "universes" / "volumes.yaml", ()),
    (NRS, ("--no-symmetry",)),
    (DRP, ()),
    (DRP, ("--no-symmetry", "--all-pending")),
])
def test_decision_reuse_changes_no_stored_row(tmp_path, universe, extra):
    # whole clean decisions reused for states whose key is the same
    # (enum/decision_reuse.c) are only taken when nothing of a clean
    # state is stored: a findings run (the default --store) must store
    # the same rows and count the same tallies as every state decided
    # afresh; default's shard 5/64 stores preemption-worse states (604
    # with symmetry), quirk-ports two capacity violations.  The default
    # universe (its PodDisruptionBudget), volumes and no-resource-scores
    # keep no decision, kubesched-4x5 finds nothing and quirk-ports meets
    # no kept key again: only reuse-preempt's 7 preemption-worse
    # states sit among states whose decisions are reused (a key reading
    # a rejecting node's verdict without a feasible node hides them)
    dbs = []
    for reuse in ((), ("--no-reuse",)):
        db = tmp_path / f"d{len(reuse)}.db"
        r = enum(universe, "--db", db, "--quiet", "--jobs", "1", *extra,
                 *reuse)
        assert r.returncode in (0, 1), r.stderr
        dbs.append(every_row(db))
    assert dbs[0]["runs"]["decisions"] > 0
    assert dbs[0] == dbs[1]


@pytest.mark.parametrize("extra", [(), ("--no-symmetry",), ("--no-reuse",)])
def test_decision_reuse_keeps_the_preemption_worse_states(tmp_path, extra):
    # reuse-preempt.yaml's header: p pending with n1 holding
    # {x, y1, y2} or {x, y1, w} or {x, y2, w} (the fourth pod pending or
    # on n2: 2 states each) or all four: 7 states where kube evicts more
    # than the least-Casualty {x} / {x, w}; 3^5 - 2^5 = 211 decisions
    db = tmp_path / "e.db"
    r = enum(DRP, "--db", db, "--quiet", "--jobs", "1", *extra)
    assert r.returncode == 0, r.stderr   # findings alone: exit 0
    row = run_row(db, ("states", "decisions", "findings", "disagreements",
                       "violations"))
    assert row == {"states": 243, "decisions": 211, "findings": 7,
                   "disagreements": 0, "violations": 0}
    con = sqlite3.connect(db)
    try:
        got = sorted(con.execute(
            "SELECT s.pod_node, p.kube_victims, p.minimal_victims "
            "FROM states s JOIN findings f ON f.state_id = s.id "
            "JOIN preemptions p ON p.state_id = s.id "
            "WHERE f.kind = 'preemption-worse'").fetchall())
    finally:
        con.close()
    # pod_node in manifest order p, x, y1, y2, w: -1 pending, 0 n1, 1 n2
    y12, y1w, y2w = ("default/y1,default/y2", "default/y1,default/w",
                     "default/y2,default/w")
    assert got == sorted([
        ("-1,0,0,0,-1", y12, "default/x"), ("-1,0,0,0,1", y12, "default/x"),
        ("-1,0,0,-1,0", y1w, "default/x"), ("-1,0,0,1,0", y1w, "default/x"),
        ("-1,0,-1,0,0", y2w, "default/x"), ("-1,0,1,0,0", y2w, "default/x"),
        ("-1,0,0,0,0", "default/y1,default/y2,default/w",
         "default/x,default/y1"),
    ])


TEN_PODS = "kind: Universe\nname: ten-pods\n" + "".join(
    "---\napiVersion: v1\nkind: Node\nmetadata: {name: n%d}\nstatus: "
    "{allocatable: {cpu: '2', memory: 4Gi, pods: '110'}}\n" % i
    for i in (1, 2)) + "".join(
    "---\napiVersion: v1\nkind: Pod\nmetadata: {name: p%d}\nspec: "
    "{containers: [{name: c, image: x}]}\n" % i for i in range(10))


@pytest.mark.parametrize("shard,states", [
    # 2 nodes, 10 pods: 3^10 = 59049 placements in chunks of 16384: items
    # 0, 1, 2 hold 16384 each, item 3 the rest, 59049 - 3*16384 = 9897.
    # Shard i/3 takes the items k with k % 3 == i - 1.
    ("1/3", 16384 + 9897), ("2/3", 16384), ("3/3", 16384),
])
def test_a_shard_counts_its_own_states(tmp_path, shard, states):
    u = tmp_path / "ten.yaml"
    u.write_text(TEN_PODS)
    p = run_kso("enum", u, "--db", tmp_path / "e.db", "--shard", shard,
                "--limit", "1")
    assert p.returncode == 1
    assert "; mode placements;  %d states in this shard\n" % states in p.stderr
    assert "about %d states exceed the limit of 1" % states in p.stderr


def test_reachable_progress_counts_the_shards_scenarios(tmp_path):
    # the default universe's 30720 scenarios over 1024 shards: 30 each,
    # one work item per scenario in reachable mode
    p = run_kso("enum", "--db", tmp_path / "e.db", "--shard", "1/1024",
                "--mode", "reachable")
    assert p.returncode in (0, 1), p.stderr
    last = [l for l in p.stderr.splitlines() if "reachable:" in l][-1]
    assert last.endswith(", 30/30 scenarios"), last


def test_without_db_results_go_to_the_cache_and_do_not_grow(tmp_path):
    """The README's smoke run (kso enum without --db) leaves nothing in the
    working directory: the results go to $XDG_CACHE_HOME/kso/NAME.db, named
    on stderr and in the findings hint, and a second run replaces the first
    (one run in the file, not two)."""
    cache, work = tmp_path / "cache", tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, XDG_CACHE_HOME=str(cache))
    u = FIXTURES / "universes" / "quirk-ports.yaml"
    db = cache / "kso" / "quirk-ports.db"
    for _ in range(2):
        r = subprocess.run([KSO, "enum", str(u)], cwd=work, env=env,
                           capture_output=True, text=True, timeout=300)
        assert r.returncode == 1, r.stderr   # quirk-ports has 2 violations
        assert f"kso enum: results in {db} " in r.stderr
        assert f"list them:     kso findings {db}\n" in r.stdout
    assert list(work.iterdir()) == []
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT count(*) FROM runs").fetchone() == (1,)


DRA_UNIVERSE = FIXTURES / "universes" / "dra.yaml"


def test_dra_universe(tmp_path):
    # fixtures/universes/dra.yaml's header: 12 scenarios x 81 placements, 780
    # with a pending pod; no symmetry (the slices name the nodes, the pods'
    # uids differ); the engines agree everywhere
    db = tmp_path / "dra.db"
    r = enum(DRA_UNIVERSE, "--kube-version", "1.34", "--db", db, "--quiet",
             "--store", "all")
    assert r.returncode == 0, r.stderr
    row = run_row(db)
    assert (row["states"], row["classes"], row["decisions"],
            row["disagreements"], row["violations"]) == (972, 972, 780, 0, 0)
    con = sqlite3.connect(db)

    def feasible(devices, shared, placement):
        # dimensions of sizes 2, 3, 2, the first varying slowest;
        # c-priority none (value 0)
        scenario = devices * 6 + shared * 2
        rows = con.execute(
            "SELECT d.pod, d.model_feasible, d.oracle_feasible FROM states s "
            "JOIN decisions d ON d.state_id = s.id WHERE s.scenario = ? AND "
            "s.placement = ?", (scenario, placement)).fetchall()
        assert len(rows) == 1 and rows[0][1] == rows[0][2], rows
        return rows[0][:2]

    only_a = "default/a=n1 default/b=- default/t=- default/c=-"
    a_t = "default/a=n1 default/b=- default/t=n1 default/c=-"
    b_n2 = "default/a=n1 default/b=n2 default/t=- default/c=-"
    none = "default/a=- default/b=- default/t=- default/c=-"
    assert feasible(0, 0, only_a) == ("default/b", "n1,n2")
    assert feasible(0, 0, a_t) == ("default/b", "n2")
    assert feasible(0, 1, b_n2) == ("default/t", "n2")
    assert feasible(1, 1, b_n2) == ("default/t", "n1,n2")
    assert feasible(0, 2, none) == ("default/a", "n2")
    con.close()
    # reachable mode keeps the claims' status in its states: both engines
    # agree on every state the loop reaches, in each of the 12 scenarios
    # (tests/test_enum_reachable_dra.py works smaller ones out by hand)
    r = enum(DRA_UNIVERSE, "--kube-version", "1.34", "--db",
             tmp_path / "r.db", "--quiet", "--mode", "reachable")
    assert r.returncode == 0, r.stderr
    row = run_row(tmp_path / "r.db")
    assert (row["scenarios"], row["disagreements"], row["violations"]) == (12, 0, 0)
