"""
test_kubectl_habits.py - kubectl's spellings kso takes too (issue 38):
-f PATH (and --filename) as a manifest path, -n/--namespace with --pod
NAME.  The old spellings keep working.
"""
import json
import subprocess

from conftest import FIXTURES, KSO

FIX = FIXTURES / "edge" / "unschedulable-node.yaml"

# web in namespaces a and b, both pending: --pod web is ambiguous
TWO_NS = ("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
          "status: {allocatable: {cpu: \"2\", pods: \"10\"}}\n---\n"
          "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: a}\n"
          "spec: {containers: [{name: c, image: x}]}\n---\n"
          "apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: b}\n"
          "spec: {containers: [{name: c, image: x}]}\n")


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def test_f_is_a_path():
    want = kso("validate", FIX)
    assert want.returncode == 0
    for args in (["-f", FIX], ["--filename", FIX], [f"--filename={FIX}"]):
        r = kso("validate", *args)
        assert (r.returncode, r.stdout) == (0, want.stdout)
    # with positional paths, in order: the same file twice is a duplicate
    r = kso("validate", FIX, "-f", FIX)
    assert r.returncode == 1 and "duplicate Node" in r.stderr
    for cmd in ("dump", "explain", "schedule"):
        assert kso(cmd, "-f", FIX, "-o", "json").returncode in (0, 1)
        assert kso(cmd, "-f", FIX, "-o", "json").stdout == \
            kso(cmd, FIX, "-o", "json").stdout


def test_namespace_with_pod(tmp_path):
    f = tmp_path / "two.yaml"
    f.write_text(TWO_NS)
    r = kso("explain", f, "--pod", "web")
    assert r.returncode == 1 and "is in 2 namespaces (a, b)" in r.stderr
    for args in (["-n", "b", "--pod", "web"], ["--namespace", "b", "--pod", "web"],
                 ["--pod", "web", "-nb"], ["-n", "b", "--pod", "b/web"]):
        r = kso("explain", "-f", f, *args, "-o", "json")
        assert r.returncode == 0, (args, r.stderr)
        assert json.loads(r.stdout)["pod"] == "b/web"
    r = kso("explain", f, "-n", "a", "--pod", "b/web")
    assert r.returncode == 2 and "-n a and --pod b/web name different " \
        "namespaces" in r.stderr
    r = kso("explain", f, "-n", "a")
    assert r.returncode == 2 and "give --pod" in r.stderr
    r = kso("explain", f, "-n", "c", "--pod", "web")
    assert r.returncode == 1 and "pod c/web not found" in r.stderr


# ---------------------------------------------------- -o is a format

TWO = FIXTURES / "universes" / "two-by-two.yaml"


def test_file_and_directory_options_and_their_old_spelling(tmp_path):
    import sqlite3
    db = tmp_path / "a.db"
    assert kso("enum", TWO, "--db", db, "-q").returncode == 0
    # merge: --out; -o still works, with the deprecation warning
    r = kso("merge", db, "--out", tmp_path / "m1.db")
    assert (r.returncode, r.stderr) == (0, "")
    r = kso("merge", db, "-o", tmp_path / "m2.db")
    assert r.returncode == 0
    assert r.stderr == ("kso merge: warning: -o ALL.db is deprecated: use "
                        "--out ALL.db (-o names an output format, as in "
                        "kubectl)\n")
    assert (tmp_path / "m2.db").exists()
    # export: --out FILE; -o FILE warns (quirk-victims with
    # --compare-quirks records quirk-visible findings)
    q = tmp_path / "q.db"
    assert kso("enum", FIXTURES / "universes" / "quirk-victims.yaml", "--db",
               q, "-q", "--compare-quirks").returncode == 0
    (sid,) = sqlite3.connect(q).execute(
        "SELECT state_id FROM findings LIMIT 1").fetchone()
    r = kso("export", q, sid, "--out", tmp_path / "x.yaml")
    assert (r.returncode, r.stderr) == (0, "")
    r = kso("export", q, sid, "-o", tmp_path / "y.yaml")
    assert r.returncode == 0 and r.stderr == (
        "kso export: warning: -o FILE is deprecated: use --out FILE (-o "
        "names an output format, as in kubectl)\n")
    x = (tmp_path / "x.yaml").read_text()
    y = (tmp_path / "y.yaml").read_text()
    # the reproduce line names the file written (issue 38: not FILE)
    assert f"# reproduce: kso explain {tmp_path / 'x.yaml'} --pod " in x
    assert x.replace("x.yaml", "y.yaml") == y
    # on stdout there is no file yet: save it as FILE
    s = kso("export", q, sid).stdout
    assert "# save this as FILE, then\n# reproduce: kso explain FILE --pod " \
        in s
    # corpus: --dir DIR; -o DIR warns
    r = kso("corpus", TWO, "--dir", tmp_path / "c1", "-q")
    assert (r.returncode, r.stderr) == (0, "")
    r = kso("corpus", TWO, "-o", tmp_path / "c2", "-q")
    assert r.returncode == 0 and r.stderr == (
        "kso corpus: warning: -o DIR is deprecated: use --dir DIR (-o names "
        "an output format, as in kubectl)\n")
    assert sorted(p.name for p in (tmp_path / "c1").iterdir()) == \
        sorted(p.name for p in (tmp_path / "c2").iterdir())


def test_shard_counts_from_1_and_auto_reads_the_job_index(tmp_path):
    import os
    import sqlite3

    def shard_of(db):
        return sqlite3.connect(db).execute(
            "SELECT shard FROM runs").fetchone()[0]
    assert kso("enum", TWO, "--shard", "1/3", "--db", tmp_path / "a.db",
               "-q").returncode == 0
    assert shard_of(tmp_path / "a.db") == "1/3"
    r = kso("enum", TWO, "--shard", "0/3", "--db", tmp_path / "z.db")
    assert r.returncode == 2 and "I counts from 1" in r.stderr
    # an Indexed Job's pod: JOB_COMPLETION_INDEX 0-based, so index 1 is
    # shard 2; auto/N takes N from the command line
    env = dict(os.environ, JOB_COMPLETION_INDEX="1")
    env.pop("KSO_SHARDS", None)
    r = subprocess.run([KSO, "enum", str(TWO), "--shard", "auto/3", "--db",
                        str(tmp_path / "b.db"), "-q"], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert shard_of(tmp_path / "b.db") == "2/3"
    env["JOB_COMPLETION_INDEX"] = "3"
    r = subprocess.run([KSO, "enum", str(TWO), "--shard", "auto/3", "--db",
                        str(tmp_path / "c.db")], env=env,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert "JOB_COMPLETION_INDEX is not below" in r.stderr


def test_enum_finds_a_bundled_universe_by_name(tmp_path):
    by_name = kso("enum", "two-by-two", "--db", tmp_path / "a.db", "-q",
                  "-o", "json")
    by_path = kso("enum", TWO, "--db", tmp_path / "b.db", "-q", "-o", "json")
    assert by_name.returncode == by_path.returncode == 0, by_name.stderr
    a, b = json.loads(by_name.stdout), json.loads(by_path.stdout)
    for d in (a, b):
        for k in [k for k in d if "second" in k or k in ("db", "time",
                                                        "cpu")]:
            d.pop(k)
    assert a == b
    r = kso("enum", "no-such-universe", "--db", tmp_path / "c.db")
    assert r.returncode == 1 and r.stdout == ""
    assert r.stderr.startswith("kso enum: no file no-such-universe, and no "
                               "bundled universe of that name (bundled: "
                               "default, ")
    assert "two-by-two" in r.stderr and ".config" not in r.stderr
    assert not (tmp_path / "c.db").exists()


def test_all_namespaces():
    # -A: --pod NAME in any namespace (the default), never with -n
    a = kso("explain", FIXTURES / "impl" / "cluster.yaml", "-A", "--pod", "p",
            "-o", "json")
    assert a.returncode == 0 and json.loads(a.stdout)["pod"] == "default/p"
    r = kso("explain", FIXTURES / "impl" / "cluster.yaml", "-A", "-n", "x",
            "--pod", "p")
    assert r.returncode == 2 and "contradict" in r.stderr
    s = kso("schedule", FIX, "--all-namespaces", "-o", "json")
    assert s.stdout == kso("schedule", FIX, "-o", "json").stdout
