"""
test_cli_usage.py - every command's --help (exit 0, usage on stdout) and
its usage errors (exit 2, one line on stderr, nothing on stdout).
"""
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))


def kso(*args):
    return subprocess.run([KSO, *args], capture_output=True, text=True,
                          timeout=120)


@pytest.mark.parametrize("cmd,first", [
    ([], "usage: kso COMMAND [ARGS...]"),
    (["enum"], "usage: kso enum [UNIVERSE]"),
    (["export"], "usage: kso export DB STATE_ID [--out FILE]"),
    (["merge"], "usage: kso merge A.db B.db ... --out ALL.db"),
    (["validate"], "usage: kso validate PATH..."),
    (["dump"], "usage: kso dump PATH..."),
    (["explain"], "usage: kso explain PATH..."),
    (["schedule"], "usage: kso schedule PATH..."),
    (["check"], "usage: kso check LOG..."),
    (["serve"], "usage: kso serve [--config FILE]"),
])
def test_help(cmd, first):
    p = kso(*cmd, "--help")
    assert p.returncode == 0
    assert p.stdout.startswith(first), p.stdout[:200]
    assert p.stderr == ""


# a usage error: what is wrong, then the command's usage line
@pytest.mark.parametrize("args,err", [
    (["export"], "kso export: need DB and a state id\n"
     "usage: kso export DB STATE_ID [--out FILE] [OPTIONS]\n"),
    (["merge"], "kso merge: need input databases and --out ALL.db\n"
     "usage: kso merge A.db B.db ... --out ALL.db\n"),
    (["nope"], "kso: unknown command 'nope' (kso --help)\n"),
    (["explain", "x.yaml", "--extension", "Nope"],
     "kso explain: unknown extension 'Nope' (available: SelectorSpread)\n"),
    (["schedule", "x.yaml", "--config"], "kso schedule: --config needs a value\n"
     "usage: kso schedule PATH... [-o table|wide|json|yaml|itf|html] [OPTIONS]\n"),
    (["dump", "x.yaml", "--frob"], "kso dump: unknown option '--frob'\n"
     "usage: kso dump PATH... [-o json|yaml|name] [OPTIONS]\n"),
    # kubectl takes no abbreviations
    (["validate", "x.yaml", "--conf", "c"], "kso validate: unknown option "
     "'--conf'\nusage: kso validate PATH... [-o table|json|yaml] "
     "[OPTIONS]\n"),
    (["enum", "--jobs"], "kso enum: --jobs needs a value\n"
     "usage: kso enum [UNIVERSE] [OPTIONS]\n"),
    (["explain", "x.yaml", "-x"], "kso explain: unknown option '-x'\n"
     "usage: kso explain PATH... [--pod [NAMESPACE/]NAME] "
     "[-o table|wide|json|yaml|html] [OPTIONS]\n"),
])
def test_usage_errors(args, err):
    p = kso(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr == err


def test_no_command_prints_usage():
    p = kso()
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.startswith("usage: kso COMMAND [ARGS...]")


def test_option_values_in_every_spelling(tmp_path):
    # kubectl's forms: "-o json", "-ojson", "--output json", "--output=json",
    # "--pod=ns/name", "--db=FILE": the same output
    import json as _json
    cluster = os.path.join(ROOT, "fixtures", "impl", "cluster.yaml")
    outs = set()
    for form in (["-o", "json"], ["-ojson"], ["--output", "json"],
                 ["--output=json"]):
        r = kso("explain", cluster, "--pod=default/p", *form)
        assert r.returncode == 0, (form, r.stderr)
        outs.add(r.stdout)
    assert len(outs) == 1 and _json.loads(outs.pop())["viable"] == ["b"]
    two = os.path.join(ROOT, "fixtures", "universes", "two-by-two.yaml")
    db = tmp_path / "x.db"
    r = kso("enum", two, "--db=%s" % db, "--quiet", "--mode=placements")
    assert r.returncode == 0, r.stderr
    assert db.exists()
    r = kso("schedule", cluster, "-oyaml")
    assert r.returncode == 0
    assert r.stdout.startswith('---\napiVersion: "v1"\nkind: "Node"\n')


def test_schedule_table_columns_line_up():
    # the fixed columns (STEP, POD, ACTION, NODE) are as wide as their
    # longest possible value: every row's ACTION, NODE and VICTIMS start
    # where the header's do
    loop = os.path.join(ROOT, "fixtures", "preemption", "loop.yaml")
    r = kso("schedule", loop)
    rows = r.stdout.split("\n\n")[0].splitlines()
    head = rows[0]
    starts = [head.index(h) for h in ("POD", "ACTION", "NODE", "VICTIMS")]
    assert starts == [6, 6 + 10 + 2, 6 + 10 + 2 + 13 + 2,
                      6 + 10 + 2 + 13 + 2 + 4 + 2]   # pod keys default/xx
    for row in rows[1:]:
        for s in starts:
            assert row[s - 2:s] == "  " and row[s] != " ", (row, s)


def test_options_after_paths_whatever_posixly_correct(tmp_path):
    # kubectl's order (options after the arguments) holds even where the
    # environment asks getopt for POSIX order; "--" ends the options
    cluster = os.path.join(ROOT, "fixtures", "impl", "cluster.yaml")
    r = subprocess.run([KSO, "explain", cluster, "--pod", "default/p", "-o",
                        "json"], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, POSIXLY_CORRECT="1"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith('{\n  "pod": "default/p"')
    dash = tmp_path / "-o"
    dash.write_text("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n")
    r = kso("validate", "--", str(dash))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("ok: 1 nodes")


@pytest.mark.parametrize("cmd", ["explain", "schedule", "replay", "check",
                                 "serve"])
def test_engine_is_one_option_with_one_error(cmd):
    # every command that takes --engine refuses an unknown one with the
    # same words, naming the registered engines, then its usage line
    p = kso(cmd, "x.yaml", "--engine", "nope")
    assert p.returncode == 2
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert lines[0] == ("kso %s: unknown engine 'nope' (available: oracle, "
                        "model)" % cmd)
    assert lines[1].startswith("usage: kso %s " % cmd)
    assert len(lines) == 2
