"""
test_check_stream.py - `kso check` judges a log the same whether it is a
file, stdin redirected from the file, or a pipe that delivers it all at
once or a line at a time (issue 36: "the same results from a file, from
a stream and from - on a pipe").  A stream is judged as it comes, so its
epochs end wherever the writer pauses; the verdicts must not depend on
that.  The logs are test_check_lag.py's hand-worked cases (a bind in
flight; a preemption while the cache held a deleted pod) and a day of
scripts/watchlog.py (20 nodes, 5 wrong binds, 3 unschedulable pods),
whose verdicts from the file are the reference.
"""
import json
import os
import re
import subprocess
import sys
import time

import test_check_lag as lag

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))


def verdicts(stdout):
    out = []
    for line in stdout.splitlines():
        d = json.loads(line)
        if "summary" in d:
            d["summary"].pop("decisions_per_second")
        out.append(d)
    return out


def from_file(path, *extra):
    p = subprocess.run([KSO, "check", path, *extra], capture_output=True,
                       text=True, timeout=120)
    return p.returncode, verdicts(p.stdout), p.stderr


def from_stdin_file(path, *extra):
    with open(path) as f:
        p = subprocess.run([KSO, "check", "-", *extra], stdin=f,
                           capture_output=True, text=True, timeout=120)
    return p.returncode, verdicts(p.stdout), p.stderr


def from_pipe(path, *extra, pause=0.0):
    """The log through a pipe, a line at a time with pause seconds between
    lines (0: as fast as the pipe takes it)."""
    p = subprocess.Popen([KSO, "check", "-", *extra], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    with open(path) as f:
        for line in f:
            p.stdin.write(line)
            if pause:
                p.stdin.flush()
                time.sleep(pause)
    p.stdin.close()
    out = p.stdout.read()
    err = p.stderr.read()
    p.wait(timeout=120)
    return p.returncode, verdicts(out), err


def day(tmp_path):
    path = tmp_path / "day.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "watchlog.py"),
                    "--nodes", "20", "--pods", "200", "--decisions", "150",
                    "--wrong", "5", "--unschedulable", "3", "--seed", "5",
                    "-o", str(path)], check=True)
    return path


def test_a_day_from_a_file_stdin_and_a_pipe(tmp_path):
    path = day(tmp_path)
    want = from_file(path)
    assert want[0] == 1 and want[2] == ""
    assert len(want[1]) == 151
    with open(str(path) + ".expected.json") as f:
        wrong = json.load(f)["wrong"]
    # the injected binds are infeasible at their decisions
    assert [d["seq"] for d in want[1][:-1] if d["verdict"] == "infeasible"] \
        == wrong
    assert from_stdin_file(path) == want
    assert from_pipe(path) == want
    # small epochs: a new one every few events, as a slow stream has
    env = dict(os.environ, KSO_CHECK_EPOCH="1")
    p = subprocess.run([KSO, "check", path], capture_output=True, text=True,
                       timeout=120, env=env)
    assert (p.returncode, verdicts(p.stdout), p.stderr) == want


def test_the_lag_cases_a_line_at_a_time(tmp_path):
    for make in (lag.in_flight_log, lag.held_log):
        path = tmp_path / "lag.json"
        path.write_text(make().text())
        want = from_file(path)
        assert want[0] == 0
        assert from_pipe(path, pause=0.05) == want


def test_a_stream_reports_bad_input_where_it_is(tmp_path):
    log = lag.in_flight_log()
    path = tmp_path / "bad.json"
    path.write_text(log.text() + '{"type": "MODIFIED", "object": null}\n')
    # a file: the error alone, before any verdict
    rc, out, err = from_file(path)
    assert (rc, out) == (1, [])
    assert err == f"{path}:4:32: expected an object, got null (object)\n"
    # a stream: the verdicts before it, then the error
    rc, out, err = from_pipe(path)
    assert rc == 1
    assert [d.get("verdict") for d in out] == ["ok", "ok", None]
    assert err == "<stdin>:4:32: expected an object, got null (object)\n"


def test_follow_on_a_pipe_ends_with_the_pipe(tmp_path):
    path = tmp_path / "lag.json"
    path.write_text(lag.in_flight_log().text())
    assert from_pipe(path, "--follow") == from_file(path)


def test_follow_judges_a_growing_file_as_it_grows(tmp_path):
    # the log written in two parts: the first bind's verdict comes out
    # before the second part exists, and the second's after it does
    log = lag.in_flight_log()
    path = tmp_path / "grow.json"
    path.write_text("\n".join(log.lines[:2]) + "\n")
    p = subprocess.Popen([KSO, "check", "--follow", "--lag", "0", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True)
    try:
        first = json.loads(p.stdout.readline())
        assert (first["seq"], first["pod"]) == (1, "default/b")
        with open(path, "a") as f:
            f.write(log.lines[2] + "\n")
        second = json.loads(p.stdout.readline())
        assert (second["seq"], second["pod"], second["verdict"]) == \
            (2, "default/a", "ok")
    finally:
        p.kill()
        p.wait(timeout=30)


def table_cells(stdout):
    """A table's rows as their cells (split on runs of two spaces or
    more): the same whatever widths the parts were printed with."""
    return [re.split(r"\s{2,}", line.strip()) for line in stdout.splitlines()
            if line.strip() and not line.startswith("decisions ")]


def test_an_audit_log_a_line_at_a_time(tmp_path):
    # the audit run through a pipe, the writer pausing after each line:
    # the same verdicts as from the file
    audit = os.path.join(ROOT, "fixtures", "check", "run.audit.jsonl")
    want = from_file(audit)
    assert want[0] == 1 and len(want[1]) == 7
    assert from_pipe(audit, pause=0.02) == want
    assert from_stdin_file(audit) == want


def test_a_table_is_streamed_in_parts(tmp_path):
    # a day of 300 decisions: printed in parts of 256 rows from a file,
    # a row at a time from a pipe; the same rows either way, the header
    # once, the summary last
    path = tmp_path / "day.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "watchlog.py"),
                    "--nodes", "20", "--pods", "200", "--decisions", "300",
                    "--wrong", "3", "--unschedulable", "2", "--seed", "9",
                    "-o", str(path)], check=True)
    f = subprocess.run([KSO, "check", path, "-o", "table"], capture_output=True,
                       text=True, timeout=120)
    with open(path) as src:
        p = subprocess.run(["sh", "-c", 'cat | "$1" check - -o table', "sh", KSO],
                           stdin=src, capture_output=True, text=True, timeout=120)
    assert f.returncode == p.returncode == 1
    rows = table_cells(f.stdout)
    assert rows[0] == ["SEQ", "POD", "DECISION", "VERDICT", "DETAIL"]
    assert [r[0] for r in rows[1:]] == [str(i) for i in range(1, 301)]
    assert table_cells(p.stdout) == rows
    def summary(out):
        return re.sub(r"; \d+ decisions/s$", "", out.splitlines()[-1])
    assert summary(f.stdout).startswith("decisions 300, ok ")
    assert summary(f.stdout) == summary(p.stdout)
    assert f.stdout.count("SEQ") == 1 and p.stdout.count("SEQ") == 1


def test_at_100_nodes_a_bind_is_judged_by_its_node_alone(tmp_path):
    # 120 nodes: kube scores a sample, so kso check judges a bind by its
    # node's feasibility (doc/check.md); the generator binds each pod to
    # a node where it fits, but 2 binds to one where it does not
    path = tmp_path / "day.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "watchlog.py"),
                    "--nodes", "120", "--pods", "600", "--decisions", "60",
                    "--wrong", "2", "--unschedulable", "1", "--seed", "3",
                    "-o", str(path)], check=True)
    with open(str(path) + ".expected.json") as f:
        wrong = json.load(f)["wrong"]
    rc, out, err = from_file(path)
    assert (rc, err) == (1, "")
    decisions = out[:-1]
    assert len(decisions) == 60
    assert [d["seq"] for d in decisions if d["verdict"] != "ok"] == wrong
    binds = [d for d in decisions if d["observed"]["action"] == "bind" and
             d["verdict"] == "ok"]
    assert binds
    for d in binds:
        node = d["observed"]["node"]
        assert d["detail"] == (f"{node} is feasible; with 120 nodes kube "
                               "scores a sample, so only feasibility is "
                               "judged")
        assert d["expected"]["sampled"] is True


def test_a_list_is_one_epoch(tmp_path):
    # kubectl's List of 5,000 pods (each with its resourceVersion) is one
    # state: the epoch after the nodes' takes it whole - 2 epochs, not a
    # new one every 4,096 pods (each rebuilding the pods so far)
    path = tmp_path / "list.json"
    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "watchlog.py"),
                    "--nodes", "80", "--pods", "5000", "--decisions", "20",
                    "--wrong", "1", "--unschedulable", "1", "--seed", "4",
                    "-o", str(path)], check=True)
    env = dict(os.environ, KSO_CHECK_DEBUG="1")
    p = subprocess.run([KSO, "check", path], capture_output=True, text=True,
                       timeout=120, env=env)
    epochs = [x for x in p.stderr.splitlines() if x.startswith("kso check: epoch")]
    assert len(epochs) == 2, p.stderr
    assert epochs[1].startswith("kso check: epoch 2 from event 80 to 5176:")
    # the same verdicts as small epochs give (a new one every few events)
    small = dict(os.environ, KSO_CHECK_EPOCH="1")
    q = subprocess.run([KSO, "check", path], capture_output=True, text=True,
                       timeout=120, env=small)
    assert verdicts(p.stdout) == verdicts(q.stdout)
    assert len(verdicts(p.stdout)) == 21
