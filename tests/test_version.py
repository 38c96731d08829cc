"""
test_version.py - `kso version` and `kso --version` (issue 38): kso's
version (the Makefile's KSO_VERSION) and the kube-scheduler versions it
answers for, v1.34 (the default) and v1.30 (--kube-version 1.30), and
KSO_KUBE_VERSION, the environment's default release, marked as such.
"""
import json
import re
import subprocess

from conftest import KSO, REPO, UNPINNED_ENV

VERSION = re.search(r'^VERSION\s*[:?]?=\s*(\S+)', (REPO / "Makefile")
                    .read_text(), re.M).group(1)
TEXT = (f"kso {VERSION}\n"
        "kube-scheduler: v1.30 (--kube-version 1.30), v1.34 (default)\n")


def kso(*args, env=None):
    """kso with kso's own default release (the suite's pin dropped), or
    with KSO_KUBE_VERSION=env."""
    e = dict(UNPINNED_ENV, **({"KSO_KUBE_VERSION": env} if env else {}))
    return subprocess.run([KSO, *args], capture_output=True, text=True,
                          timeout=60, env=e)


def test_version_command_and_flag_agree():
    for args in (["version"], ["--version"]):
        r = kso(*args)
        assert (r.returncode, r.stdout, r.stderr) == (0, TEXT, "")


def test_version_json():
    r = kso("version", "-o", "json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == {"kso": VERSION,
                                    "kube_versions": ["1.30", "1.34"],
                                    "default": "1.34"}


def test_version_usage():
    assert kso("version", "extra").returncode == 2
    assert kso("version", "-o", "yaml").returncode == 2
    assert kso("version", "--help").returncode == 0


def test_the_environment_names_the_default_release():
    r = kso("version", env="1.34")
    assert (r.returncode, r.stdout) == (0, (
        f"kso {VERSION}\nkube-scheduler: v1.30 (--kube-version 1.30), "
        "v1.34 (default, KSO_KUBE_VERSION)\n"))
    assert json.loads(kso("version", "-o", "json", env="v1.34").stdout
                      )["default"] == "1.34"
    r = kso("version", env="1.30")
    assert r.stdout == (f"kso {VERSION}\nkube-scheduler: v1.30 (default, "
                        "KSO_KUBE_VERSION), v1.34 (--kube-version 1.34)\n")
    for args in (["version"], ["--version"]):
        r = kso(*args, env="1.33")
        assert (r.returncode, r.stdout) == (2, "")
        assert r.stderr == ("kso version: bad value '1.33' for "
                            "KSO_KUBE_VERSION (1.30, 1.34)\n")


def test_commands_answer_for_v134_by_default():
    # fixtures/kube134/absent-nodes.yaml's header: v1.34 counts big's
    # absent status in the FitError histogram
    f = str(REPO / "fixtures" / "kube134" / "absent-nodes.yaml")
    d = json.loads(kso("explain", f, "-o", "json").stdout)
    assert d["kube_version"] == "1.34"
    assert d["message"] == ("0/2 nodes are available: 1 Insufficient cpu, "
                            "1 node(s) didn't satisfy plugin(s) "
                            "[NodeAffinity].")
    assert kso("explain", f, "--kube-version", "1.30").stdout.endswith(
        "event: 0/2 nodes are available: 1 Insufficient cpu.\n")
