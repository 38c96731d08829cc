"""
test_check_events.py - `kso check` on hostile watch events (issue 33 N7,
N8): an event whose object is null or no object at all is refused at its
FILE:LINE:COL (skipping it would leave a deleted pod in the state and
judge the next decision against it), and the reproduce command of an
exported decision is shell-quoted.

The cluster is fixtures/impl/cluster.yaml (its header: b has cpu 16 and
runs `old` at 100m; p asks cpu 1).  A pod `big` (cpu 15) bound to b and
then deleted leaves b room for p: 16 - 0.1 = 15.9 >= 1; had big stayed,
0.9 < 1 and binding p to b would read as infeasible.
"""
import copy
import json
import os
import shlex
import subprocess

from test_check import CLUSTER, KSO, Log, kso


def big_on_b(log):
    pod = copy.deepcopy(log.pods["p"])
    pod["metadata"]["name"] = "big"
    pod["metadata"].pop("uid", None)
    pod["spec"]["nodeName"] = "b"
    pod["spec"]["containers"][0]["resources"]["requests"]["cpu"] = "15"
    log.pods["big"] = pod
    log._event("ADDED", pod)


def test_a_deleted_pod_frees_its_node(tmp_path):
    # the baseline the null event must not silently change
    log = Log(CLUSTER)
    big_on_b(log)
    log._event("DELETED", log.pods["big"])
    log.bind("p", "b")
    rc, got, _ = log.check(tmp_path)
    assert (rc, [d["verdict"] for d in got]) == (0, ["ok"])


def null_event_text(log, obj_text):
    """The log with a DELETED event whose object is obj_text, on its own
    line after the others; returns (text, its line number, column of the
    object)."""
    text = "\n".join(log.lines) + "\n"
    line = text.count("\n") + 1
    ev = '{"type": "DELETED", "object": %s}' % obj_text
    return text + ev + "\n", line, ev.index(obj_text) + 1


def test_a_null_object_is_an_error_at_its_place(tmp_path):
    for obj, what in (("null", "null"), ('"x"', "a scalar"),
                      ("[]", "a sequence")):
        log = Log(CLUSTER)
        big_on_b(log)
        text, line, col = null_event_text(log, obj)
        log2 = Log(CLUSTER)
        log2.lines = []
        log2.bind("p", "b")
        f = tmp_path / "watch.json"
        f.write_text(text + "\n".join(log2.lines) + "\n")
        p = kso("check", f)
        assert (p.returncode, p.stdout) == (1, "")
        assert p.stderr == (f"{f}:{line}:{col}: expected an object, got "
                            f"{what} (object)\n")


def test_an_object_without_a_kind_is_an_error(tmp_path):
    # a partial object: what it was cannot be told, so nor what it deletes
    log = Log(CLUSTER)
    big_on_b(log)
    text, line, col = null_event_text(
        log, '{"metadata": {"name": "big", "namespace": "default"}}')
    f = tmp_path / "watch.json"
    f.write_text(text)
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == f"{f}:{line}:{col}: the object has no kind (object.kind)\n"


def test_a_list_item_that_is_not_an_object_is_an_error(tmp_path):
    f = tmp_path / "watch.json"
    f.write_text('{"kind": "List", "items": [\n  null]}\n')
    p = kso("check", f)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == f"{f}:2:3: expected an object, got null (items[0])\n"


def test_the_reproduce_command_is_shell_quoted(tmp_path):
    # a directory whose name a shell would expand: pasting the line must
    # run kso on that directory and nothing else
    out = tmp_path / "x $(touch PWNED) 'q'"
    log = Log(CLUSTER)
    log.bind("p", "c")                   # not-viable: viable {b}
    f = tmp_path / "watch.json"
    f.write_text("\n".join(log.lines) + "\n")
    p = kso("check", f, "--export", out)
    assert p.returncode == 1
    line = json.loads(p.stdout.splitlines()[0])["reproduce"]
    assert shlex.split(line) == ["kso", "explain", f"{out}/check-1.yaml",
                                 "--pod", "default/p", "--no-admission",
                                 "--kube-version", "1.30"]
    # run as pasted into a shell (kso on PATH as `kso`)
    bindir = tmp_path / "bin"
    bindir.mkdir()
    os.symlink(KSO, bindir / "kso")
    r = subprocess.run(["sh", "-c", line + " -o json"], cwd=tmp_path,
                       capture_output=True, text=True,
                       env={**os.environ, "PATH": f"{bindir}:/usr/bin:/bin"})
    assert not (tmp_path / "PWNED").exists()
    assert json.loads(r.stdout)["viable"] == ["b"]
