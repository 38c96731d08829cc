"""
test_zsh_completion.py - doc/completion/_kso in a real zsh (issue 38): a
zsh in a pseudo-terminal loads it with compinit, a command line is typed
and TAB pressed (tests/zsh_complete.zsh), and the matches it offers are
compared with what kso itself says: the commands of `kso --help`, a
command's options of `kso CMD --help`, the choices of an option's value
(`-o table|json|yaml`), the quirk names kso accepts and the bundled
universes' names.  zsh comes with scripts/setup.sh; without it these
tests are skipped, saying so (and fail under CI=true).
"""
import os
import shutil
import subprocess

import pytest

from conftest import KSO, REPO
from test_manpage import commands, help_options

ZSH = shutil.which("zsh")
HELPER = REPO / "tests" / "zsh_complete.zsh"
COMPDIR = REPO / "doc" / "completion"


def need_zsh():
    """Skips without zsh (fails under CI=true, where it must be there)."""
    if ZSH:
        return
    why = "zsh is not installed (scripts/setup.sh installs it)"
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


def complete(tmp_path, line):
    """The matches zsh offers for line, TAB pressed at its end."""
    need_zsh()
    out = tmp_path / "matches"
    env = dict(os.environ)
    # the kso under test first on PATH: _kso runs `kso CMD --help` and
    # finds the bundled universes beside it
    env["PATH"] = os.path.dirname(os.path.abspath(KSO)) + os.pathsep + \
        env.get("PATH", "")
    p = subprocess.run([ZSH, "-f", str(HELPER), str(COMPDIR), str(out),
                        line], env=env, cwd=tmp_path, capture_output=True,
                       text=True, timeout=90)
    assert p.returncode == 0, (line, p.returncode, p.stderr)
    got = out.read_text().splitlines()
    assert got[-1] == "<done>"
    return got[:-1]


def test_commands(tmp_path):
    assert sorted(complete(tmp_path, "kso ")) == sorted(commands())
    assert complete(tmp_path, "kso cap") == ["capacity"]


@pytest.mark.parametrize("cmd", ["capacity", "explain", "enum"])
def test_options_are_the_commands_own(tmp_path, cmd):
    want = {form.split("/")[-1] for form in help_options(cmd)}
    got = set(complete(tmp_path, "kso %s --" % cmd))
    assert want <= got, want - got
    assert {g for g in got if g.startswith("--")} <= want | {"--"}, got - want


def test_option_values(tmp_path):
    assert complete(tmp_path, "kso capacity -o ") == ["table", "json", "yaml"]
    assert complete(tmp_path, "kso explain --engine ") == ["oracle", "model"]
    assert complete(tmp_path, "kso capacity --workload ") == [
        "deployment/", "replicaset/", "statefulset/",
        "replicationcontroller/", "job/"]


def test_quirk_names(tmp_path):
    # the names kso accepts: its refusal of an unknown one lists them
    r = subprocess.run([KSO, "validate", "--quirk", "?"],
                       capture_output=True, text=True, timeout=60)
    names = r.stderr.split("NAME one of ", 1)[1].strip().split(", ")
    assert len(names) >= 5
    got = complete(tmp_path, "kso validate --quirk ")
    assert sorted(got) == sorted([n + "=off" for n in names] +
                                 [n + "=on" for n in names])


def test_bundled_universe_names(tmp_path):
    universes = sorted(f[:-len(".yaml")] for f in
                       os.listdir(REPO / "fixtures" / "universes")
                       if f.endswith(".yaml") and
                       not f.endswith(".config.yaml"))
    assert "default" in universes and "greedy-gpu" in universes
    got = complete(tmp_path, "kso enum ")
    assert set(universes) <= set(got), set(universes) - set(got)
    assert complete(tmp_path, "kso enum greedy-") == ["greedy-gpu"]
