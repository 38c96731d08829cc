"""
test_version.py - `kso version` and `kso --version` (issue 38): kso's
version (the Makefile's KSO_VERSION) and the kube-scheduler versions it
answers for, v1.30 (the default) and v1.34 (--kube-version 1.34).
"""
import json
import re
import subprocess

from conftest import KSO, REPO

VERSION = re.search(r'^VERSION\s*[:?]?=\s*(\S+)', (REPO / "Makefile")
                    .read_text(), re.M).group(1)
TEXT = (f"kso {VERSION}\n"
        "kube-scheduler: v1.30 (default), v1.34 (--kube-version 1.34)\n")


def kso(*args):
    return subprocess.run([KSO, *args], capture_output=True, text=True,
                          timeout=60)


def test_version_command_and_flag_agree():
    for args in (["version"], ["--version"]):
        r = kso(*args)
        assert (r.returncode, r.stdout, r.stderr) == (0, TEXT, "")


def test_version_json():
    r = kso("version", "-o", "json")
    assert r.returncode == 0
    assert json.loads(r.stdout) == {"kso": VERSION,
                                    "kube_versions": ["1.30", "1.34"],
                                    "default": "1.30"}


def test_version_usage():
    assert kso("version", "extra").returncode == 2
    assert kso("version", "-o", "yaml").returncode == 2
    assert kso("version", "--help").returncode == 0
