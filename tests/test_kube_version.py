"""--kube-version 1.30|1.34 (issue 34): every command that reads a cluster
or a configuration takes it, and every record of a run says which
release it answered for.  A run of v1.30 records nothing new (absent
means v1.30 everywhere), so v1.30's outputs stay byte for byte what they
were; a run of v1.34 carries the release in its JSON ("kube_version"),
its ITF trace (#meta.kso.kubeVersion), its stored enumerator options
(another release is another run), its corpus cases ("kubeVersion"), the
kso-impl/1 init message ("kubernetesVersion") and the reproduce lines of
its exports (--kube-version 1.34).

The semantic differences between the releases are tested per delta item
in test_kube_delta.py; this file holds the plumbing.
"""
import json
import os
import sqlite3
import subprocess

import pytest

from conftest import UNPINNED_ENV, fixture_path, run_kso

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TWO = fixture_path("universes/two-by-two.yaml")
CLUSTER = fixture_path("impl/cluster.yaml")

COMMANDS = [["validate", CLUSTER], ["dump", CLUSTER], ["explain", CLUSTER],
            ["schedule", CLUSTER], ["check", CLUSTER], ["serve"],
            ["replay", CLUSTER], ["enum", TWO], ["corpus", TWO, "--dir", "x"]]


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: c[0])
def test_a_bad_release_is_a_usage_error(cmd):
    p = run_kso(*cmd, "--kube-version", "1.31")
    assert p.returncode == 2
    assert p.stdout == ""
    assert ("bad value '1.31' for --kube-version (1.30, 1.34)"
            in p.stderr), p.stderr


@pytest.mark.parametrize("cmd", ["explain", "schedule"])
@pytest.mark.parametrize("fmt", ["json", "table", "itf"])
def test_v130_named_prints_what_the_default_prints(cmd, fmt):
    if cmd == "explain" and fmt == "itf":
        pytest.skip("explain has no ITF output")
    plain = run_kso(cmd, CLUSTER, "-o", fmt)
    named = run_kso(cmd, CLUSTER, "-o", fmt, "--kube-version", "1.30")
    assert (plain.returncode, plain.stdout) == (named.returncode, named.stdout)
    assert "kube_version" not in plain.stdout
    assert "kubeVersion" not in plain.stdout


def test_json_outputs_name_the_release():
    d = json.loads(run_kso("explain", CLUSTER, "-o", "json",
                           "--kube-version", "1.34").stdout)
    assert d["kube_version"] == "1.34"
    d = json.loads(run_kso("schedule", CLUSTER, "-o", "json",
                           "--kube-version", "v1.34").stdout)
    assert d["summary"]["kube_version"] == "1.34"
    t = run_kso("explain", CLUSTER, "--kube-version", "1.34").stdout
    assert "; kube 1.34)" in t.splitlines()[0]


def test_itf_trace_carries_the_release_and_replay_follows_it(tmp_path):
    trace = tmp_path / "t.itf.json"
    p = run_kso("schedule", CLUSTER, "-o", "itf", "--kube-version", "1.34")
    assert p.returncode == 0, p.stderr
    trace.write_text(p.stdout)
    meta = json.loads(p.stdout)["#meta"]
    assert meta["kso"]["kubeVersion"] == "1.34"
    assert "kube-scheduler v1.34's scheduling loop" in meta["description"]
    r = run_kso("replay", trace, "-o", "json")
    assert r.returncode == 0, r.stdout + r.stderr
    # a bad release in the trace: FILE:LINE:COL, exit 1
    bad = tmp_path / "bad.itf.json"
    bad.write_text(p.stdout.replace('"kubeVersion": "1.34"',
                                    '"kubeVersion": "1.99"'))
    r = run_kso("replay", bad)
    assert r.returncode == 1 and r.stdout == ""
    assert "#meta.kso.kubeVersion" in r.stderr and "1.30, 1.34" in r.stderr


def runs(db):
    with sqlite3.connect(db) as c:
        return [r[0] for r in c.execute("SELECT options FROM runs ORDER BY id")]


def test_enum_stores_the_release_as_part_of_the_run(tmp_path):
    db = tmp_path / "k.db"
    assert run_kso("enum", TWO, "--db", db, "-q").returncode == 0
    p = run_kso("enum", TWO, "--db", db, "-q", "--kube-version", "1.34")
    assert p.returncode == 0, p.stdout + p.stderr
    a, b = runs(db)
    assert "kube-version" not in a
    assert b == a + " kube-version=1.34"


def test_impl_init_names_the_release(tmp_path):
    seen = tmp_path / "init.json"
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    req = json.loads(line)\n"
        "    if req['type'] == 'init':\n"
        "        open(os.environ['SEEN'], 'w').write(req['kubernetesVersion'])\n"
        "        ans = {'type': 'init_ok', 'implementation': 'probe'}\n"
        "    else:\n"
        "        ans = {'type': 'error', 'code': 10, 'text': 'no'}\n"
        "    ans['in_reply_to'] = req['msg_id']\n"
        "    print(json.dumps(ans), flush=True)\n")
    for version, sent in [(None, "v1.30"), ("1.34", "v1.34")]:
        args = ["explain", CLUSTER, "--pod", "default/p", "--impl",
                "/usr/bin/python3 %s" % probe]
        if version:
            args += ["--kube-version", version]
        subprocess.run([os.path.join(ROOT, "kso"), *map(str, args)],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, SEEN=str(seen)))
        assert seen.read_text() == sent


def test_serve_takes_the_release_of_the_init_message():
    # kso explain --impl 'kso serve' under 1.34: the init message says
    # v1.34 and serve answers with v1.34's message (fixtures/kube134/
    # fit-above-allocatable.yaml's header), which explain judges strictly
    fix = fixture_path("kube134/fit-above-allocatable.yaml")
    serve = "%s serve" % os.path.join(ROOT, "kso")
    want = {"1.30": "preemption: 0/3 nodes are available: 1 No preemption "
                    "victims found for incoming pod, 2 Insufficient cpu.",
            "1.34": "no new claims to deallocate, preemption: 0/3 nodes are "
                    "available: 1 No preemption victims found for incoming "
                    "pod, 2 Preemption is not helpful for scheduling."}
    for v, tail in want.items():
        p = run_kso("explain", fix, "--kube-version", v, "--impl", serve,
                    "--strict-message", "-o", "json")
        assert p.returncode == 0, p.stdout + p.stderr
        impl = json.loads(p.stdout)["impl"]
        assert impl["verdict"] == "ok"
        assert impl["message"] == ("0/3 nodes are available: 3 Insufficient "
                                   "cpu. " + tail)


def test_check_reproduce_line_names_the_release(tmp_path):
    from test_check import CLUSTER as CHECK_CLUSTER, Log
    log = Log(CHECK_CLUSTER)
    log.bind("p", "c")                   # not-viable under both releases
    f = tmp_path / "watch.json"
    f.write_text("\n".join(log.lines) + "\n")
    # a reproduce line names every release but kso's default, v1.34
    for release, switch in (("1.34", ""), ("1.30", " --kube-version 1.30")):
        out = tmp_path / ("cases-" + release)
        p = run_kso("check", f, "--export", out, "--kube-version", release)
        assert p.returncode == 1
        d = json.loads(p.stdout.splitlines()[0])
        assert d["reproduce"] == ("kso explain %s/check-1.yaml --pod "
                                  "default/p --no-admission%s" % (out, switch))


def test_corpus_cases_name_the_release(tmp_path):
    out = tmp_path / "corpus"
    p = run_kso("corpus", TWO, "--dir", out, "-q", "--kube-version", "1.34")
    assert p.returncode == 0, p.stdout + p.stderr
    cases = sorted(out.glob("case-*.json"))
    assert cases
    for c in cases:
        assert json.loads(c.read_text())["kubeVersion"] == "1.34"
    out30 = tmp_path / "corpus30"
    assert run_kso("corpus", TWO, "--dir", out30, "-q").returncode == 0
    for c in out30.glob("case-*.json"):
        assert "kubeVersion" not in json.loads(c.read_text())


# KSO_KUBE_VERSION: the release a command answers for without
# --kube-version (as kubectl reads KUBECONFIG); the suite pins it to 1.30
# (conftest.py), these tests set it themselves.
def kso_env(release, *args):
    env = dict(UNPINNED_ENV, **({"KSO_KUBE_VERSION": release} if release
                                else {}))
    return subprocess.run([os.environ.get("KSO", os.path.join(ROOT, "kso")),
                           *map(str, args)], capture_output=True, text=True,
                          timeout=120, env=env)


@pytest.mark.parametrize("cmd", ["explain", "schedule", "dump", "validate"])
def test_the_environment_sets_the_default_release(cmd):
    for release in ("1.30", "1.34"):
        by_env = kso_env(release, cmd, CLUSTER, "-o", "json")
        by_flag = kso_env(None, cmd, CLUSTER, "-o", "json", "--kube-version",
                          release)
        assert by_env.returncode == by_flag.returncode, by_env.stderr
        assert by_env.stdout == by_flag.stdout
    # the command line wins over the environment
    assert (kso_env("1.34", cmd, CLUSTER, "-o", "json", "--kube-version",
                    "1.30").stdout ==
            kso_env(None, cmd, CLUSTER, "-o", "json", "--kube-version",
                    "1.30").stdout)


def test_the_environment_release_shows_where_it_is_recorded(tmp_path):
    d = json.loads(kso_env("1.34", "explain", CLUSTER, "-o", "json").stdout)
    assert d["kube_version"] == "1.34"
    db = tmp_path / "k.db"
    assert kso_env("1.34", "enum", TWO, "--db", db, "-q").returncode == 0
    assert kso_env("1.30", "enum", TWO, "--db", db, "-q").returncode == 0
    a, b = runs(db)
    assert a.endswith(" kube-version=1.34") and "kube-version" not in b


@pytest.mark.parametrize("cmd", COMMANDS, ids=lambda c: c[0])
def test_a_bad_environment_release_is_a_usage_error(cmd):
    p = kso_env("1.31", *cmd)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr == (f"kso {cmd[0]}: bad value '1.31' for "
                        "KSO_KUBE_VERSION (1.30, 1.34)\n"), p.stderr
    # an empty value is no value
    assert kso_env("", "validate", CLUSTER).returncode == 0


def test_a_v130_trace_replays_as_v130_whatever_the_environment(tmp_path):
    # a kso trace records kubeVersion for every release but v1.30
    trace = tmp_path / "t.itf.json"
    p = kso_env("1.30", "schedule", CLUSTER, "-o", "itf")
    assert p.returncode == 0, p.stderr
    assert "kubeVersion" not in p.stdout
    trace.write_text(p.stdout)
    old = kso_env("1.30", "replay", trace, "-o", "json")
    new = kso_env("1.34", "replay", trace, "-o", "json")
    assert old.returncode == 0, old.stdout + old.stderr
    assert (new.returncode, new.stdout) == (old.returncode, old.stdout)
