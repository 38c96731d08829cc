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
