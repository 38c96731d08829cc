"""
test_findings.py - `kso findings DB` (issue 38): an enumerator database's
disagreements, violations and findings listed without SQL, each with the
command that reproduces it.

Expectations are worked by hand in the universes' headers:
- fixtures/universes/quirk-ports.yaml: 2 quirk-visible states, (low,
  keeper) placed with urgent deciding and (low, urgent) with keeper
  deciding; in both v1.30 preempts low ("preempt on n1 evicting low") where
  ports-set-removal off leaves the pod unschedulable; the same two states
  hold a nominated-feasible violation each.  No disagreement.
- fixtures/universes/greedy-gpu.yaml (reachable, --greedy-gap): one
  greedy-gap finding; its trace is web bind n-gpu, trainer unschedulable.
- fixtures/universes/two-by-two.yaml: nothing found.
"""
import json
import shlex
import sqlite3
import subprocess

from conftest import FIXTURES, KSO

U = FIXTURES / "universes"


def kso(*args, cwd=None):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


def quirk_db(tmp_path):
    db = tmp_path / "q.db"
    r = kso("enum", U / "quirk-ports.yaml", "--compare-quirks", "--db", db,
            "--quiet")
    assert r.returncode == 1, r.stderr   # the violations
    # the run's last line points at the listing
    assert r.stdout.splitlines()[-1] == f"list them:     kso findings {db}"
    return db


def test_lists_each_finding_with_its_kind_state_and_detail(tmp_path):
    db = quirk_db(tmp_path)
    r = kso("findings", db, "-o", "json")
    assert r.returncode == 0, r.stderr
    rows = json.loads(r.stdout)
    kinds = sorted(x["kind"] for x in rows)
    assert kinds == ["nominated-feasible"] * 2 + ["quirk-visible"] * 2
    assert all(x["run"] == 1 for x in rows)
    quirk = [x for x in rows if x["kind"] == "quirk-visible"]
    assert [x["detail"] for x in quirk] == [
        "v1.30: preempt on n1 evicting low; ports-set-removal off: "
        "unschedulable"] * 2
    # each visible state also breaks nominated-feasible, for the pod that
    # decides there: urgent and keeper
    nom = [x for x in rows if x["kind"] == "nominated-feasible"]
    assert {x["state"] for x in nom} == {x["state"] for x in quirk}
    assert sorted(x["detail"].split()[1] for x in nom) == [
        "default/keeper", "default/urgent"]
    # ids are the database's state ids (what kso export takes)
    con = sqlite3.connect(db)
    ids = {i for (i,) in con.execute(
        "SELECT state_id FROM findings WHERE kind = 'quirk-visible'")}
    con.close()
    assert {x["state"] for x in quirk} == ids
    # a placements run: the command exports a scenario
    for x in rows:
        assert x["reproduce"] == (f"kso export {db} {x['state']} --out "
                                  f"{x['kind']}-{x['state']}.yaml")


def test_kind_and_run_filters(tmp_path):
    db = quirk_db(tmp_path)
    r = kso("findings", db, "--kind", "quirk-visible", "-o", "json")
    assert r.returncode == 0
    assert [x["kind"] for x in json.loads(r.stdout)] == ["quirk-visible"] * 2
    r = kso("findings", db, "--kind", "disagreement")
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr == f"kso findings: no findings in {db} of kind disagreement\n"
    # a second run with nothing found: run 2 lists nothing, run 1 all four
    assert kso("enum", U / "two-by-two.yaml", "--db", db, "--quiet").returncode == 0
    assert json.loads(kso("findings", db, "--run", "2", "-o", "json").stdout) == []
    assert len(json.loads(kso("findings", db, "--run", "1", "-o",
                              "json").stdout)) == 4
    r = kso("findings", db, "--kind", "nope")
    assert r.returncode == 2 and "--kind 'nope' is no kind of finding" in r.stderr
    r = kso("findings", db, "--run", "0")
    assert r.returncode == 2 and "--run takes a run id" in r.stderr


def test_table_cuts_the_detail_and_shows_the_command(tmp_path):
    db = quirk_db(tmp_path)
    r = kso("findings", db, "--kind", "nominated-feasible")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["RUN", "STATE", "KIND", "DETAIL"]
    assert len(lines) == 5           # header, two rows, each with its command
    row, cmd = lines[1], lines[2]
    detail = row[row.index("pod "):]
    # the first 80 characters of the stored detail, then the ellipsis
    assert detail.endswith("…") and len(detail) == 81
    assert detail.startswith("pod default/")
    assert cmd.startswith("    kso export ") and cmd.endswith(".yaml")


def test_reachable_finding_replays_with_the_printed_command(tmp_path):
    db = tmp_path / "g.db"
    r = kso("enum", U / "greedy-gpu.yaml", "--mode", "reachable",
            "--greedy-gap", "--db", db, "--quiet")
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(f"list them:     kso findings {db}\n")
    rows = json.loads(kso("findings", db, "-o", "json").stdout)
    assert [x["kind"] for x in rows] == ["greedy-gap"]
    cmd = rows[0]["reproduce"]
    sid = rows[0]["state"]
    assert cmd == (f"kso export {db} {sid} --itf --out greedy-gap-{sid}.itf.json"
                   f" && kso replay greedy-gap-{sid}.itf.json")
    # run as printed (kso the binary under test)
    out = subprocess.run(cmd.replace("kso ", shlex.quote(KSO) + " "), shell=True,
                         capture_output=True, text=True, cwd=tmp_path,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert "default/web" in out.stdout and "bind n-gpu" in out.stdout
    assert "default/trainer" in out.stdout and "unschedulable" in out.stdout


def test_nothing_found_and_bad_databases(tmp_path):
    db = tmp_path / "t.db"
    r = kso("enum", U / "two-by-two.yaml", "--db", db, "--quiet")
    assert r.returncode == 0 and "kso findings" not in r.stdout
    r = kso("findings", db, "-o", "json")
    assert r.returncode == 0 and json.loads(r.stdout) == []
    r = kso("findings", tmp_path / "missing.db", "-o", "json")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith(f"kso findings: {tmp_path}/missing.db: ")
    r = kso("findings")
    assert r.returncode == 2 and "need one database" in r.stderr


def test_max_cuts_each_kind_and_says_how_many_more(tmp_path):
    """quirk-ports holds 2 nominated-feasible and 2 quirk-visible rows (the
    header above): --max 1 shows the first of each kind, then one line per
    kind cut with the count left out, the count in all and the command
    that lists them; JSON gets every row unless --max is given."""
    db = quirk_db(tmp_path)
    r = kso("findings", db, "--max", "1")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    kinds = [ln.split()[2] for ln in lines[1:] if ln[:1].isdigit()]
    assert sorted(kinds) == ["nominated-feasible", "quirk-visible"]
    q = shlex.quote(str(db))
    cut = [ln for ln in lines if ln.startswith("…")]
    assert sorted(cut) == sorted(
        f"… 1 more {k} (2 in all): kso findings {q} --kind {k} --max 0"
        for k in ("nominated-feasible", "quirk-visible"))
    # the default (20 a kind) cuts nothing here
    assert not [ln for ln in kso("findings", db).stdout.splitlines()
                if ln.startswith("…")]
    assert len(json.loads(kso("findings", db, "-o", "json").stdout)) == 4
    assert len(json.loads(kso("findings", db, "-o", "json", "--max",
                              "1").stdout)) == 2
    r = kso("findings", db, "--max", "-3")
    assert r.returncode == 2 and "--max takes a count" in r.stderr
