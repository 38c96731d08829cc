"""
test_readme.py - the README's quick start runs as written.

Every ```sh block of the README's "Quick start" section is one command;
each runs with /bin/sh in a scratch directory that holds the checkout's
kso, fixtures/ and tests/ (so the command's relative paths are the
checkout's and whatever it writes stays out of it), and its output is
checked against answers worked out by hand in the files' headers:

  fixtures/explain/taints_cpu.yaml      why default/web is pending
  fixtures/quickstart/shop.yaml         6 web pods on two 4-cpu nodes
  fixtures/impl/cluster.yaml            emptiest.py binds p to c, kube b
  fixtures/check/watch-log.md           the four decisions of the log
  fixtures/universes/greedy-gpu.yaml    3 states, a greedy-gap finding

Other tests keep the README's links and the doc/ files whole.
"""
import json
import os
import re
import subprocess

from conftest import KSO, REPO, UNPINNED_ENV

README = (REPO / "README.md").read_text()


def quick_start():
    """The commands of the Quick start section, in order."""
    m = re.search(r"^## Quick start.*?\n(.*?)(?=^## )", README, re.S | re.M)
    assert m, "README has no Quick start section"
    blocks = re.findall(r"^```sh\n(.*?)^```", m.group(1), re.S | re.M)
    return [b.strip() for b in blocks]


COMMANDS = quick_start()


def command(word):
    """The quick-start command whose text holds WORD."""
    found = [c for c in COMMANDS if word in c]
    assert len(found) == 1, (word, COMMANDS)
    return found[0]


def run(tmp_path, cmd):
    for name, target in (("kso", KSO), ("fixtures", REPO / "fixtures"),
                         ("tests", REPO / "tests")):
        link = tmp_path / name
        if not link.exists():
            link.symlink_to(target)
    # as a user types them: kso's own default release, not the suite's pin
    env = dict(UNPINNED_ENV, PATH="/usr/bin:/bin:" + os.environ["PATH"],
               COLUMNS="200")
    return subprocess.run(["/bin/sh", "-c", cmd], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def row(out, name):
    """The first output line naming NAME as a word."""
    lines = [l for l in out.splitlines()
             if re.search(r"(^|\s)" + re.escape(name) + r"(\s|$)", l)]
    assert lines, (name, out)
    return lines[0]


def test_the_quick_start_is_five_commands_one_per_job():
    assert len(COMMANDS) == 5, COMMANDS
    assert [c.split()[:2] for c in COMMANDS] == [
        ["./kso", "explain"], ["./kso", "schedule"], ["./kso", "schedule"],
        ["./kso", "check"], ["./kso", "enum"]]
    for c in COMMANDS:
        assert "\n" not in c, c


def test_why_is_my_pod_pending(tmp_path):
    r = run(tmp_path, command("explain"))
    assert r.returncode == 0, r.stderr
    # node-a: taint dedicated=gpu:NoSchedule, not tolerated (TaintToleration
    # runs before NodeResourcesFit, so it is the recorded reason);
    # node-b, node-c: 1 cpu, the pod wants 2.
    a = row(r.stdout, "node-a")
    assert "TaintToleration" in a and "feasible" not in a.split()
    for n in ("node-b", "node-c"):
        line = row(r.stdout, n)
        assert "NodeResourcesFit" in line or "Insufficient cpu" in line, line
    # kso's default, v1.34: 2 cpu is above node-b's and node-c's
    # allocatable (UnschedulableAndUnresolvable), so no node is left for
    # preemption; DynamicResources' PostFilter speaks first.  At a width
    # (COLUMNS) the event's message wraps: joined again
    assert ("0/3 nodes are available: 1 node(s) had untolerated taint "
            "{dedicated: gpu}, 2 Insufficient cpu. no new claims to "
            "deallocate, preemption: 0/3 nodes are available: 3 Preemption "
            "is not helpful for scheduling.") in " ".join(r.stdout.split())


def test_what_happens_if_i_scale_this(tmp_path):
    r = run(tmp_path, command("--scale"))
    assert r.returncode == 0, r.stderr
    steps = []
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 4 and f[0].isdigit() and f[1].startswith("default/web-"):
            steps.append((f[2], f[3]))
    # shop.yaml's header: n1, n2, n1, n2, then two pods fit nowhere
    assert steps == [("bind", "n1"), ("bind", "n2"), ("bind", "n1"),
                     ("bind", "n2"), ("unschedulable", "-"),
                     ("unschedulable", "-")], r.stdout
    # the two pending pods named with kube's (v1.34's) message:
    # Insufficient cpu on both nodes (1500m <= 4 cpu allocatable:
    # resolvable), preemption finds no lower-priority pod to evict, and
    # DynamicResources' PostFilter speaks first
    pending = [l for l in r.stdout.splitlines() if l.startswith("pending ")]
    assert len(pending) == 2, r.stdout
    for l in pending:
        assert l.endswith("  0/2 nodes are available: 2 Insufficient cpu. "
                          "no new claims to deallocate, preemption: 0/2 "
                          "nodes are available: 2 No preemption victims "
                          "found for incoming pod."), l
    assert re.search(r"\bbound 4\b", r.stdout) and \
        re.search(r"\bpending 2\b", r.stdout), r.stdout


def test_judge_my_scheduler(tmp_path):
    r = run(tmp_path, command("--impl"))
    # emptiest.py binds p to c (no pod there); kube's viable set is {b}:
    # c 63 + 69 + 300 = 432, b 93 + 99 + 300 = 492 (cluster.yaml's header;
    # 300 is TaintToleration's 100 x 3 on both)
    assert r.returncode == 1, r.stdout + r.stderr
    line = row(r.stdout, "impl:")
    assert "bind c" in line and "not-viable" in line, line
    assert "432" in line and "492" in line, line


def test_check_what_my_clusters_scheduler_did(tmp_path):
    r = run(tmp_path, command("kso check"))
    assert r.returncode == 1, r.stdout + r.stderr
    expected = {"default/web-1": "ok", "default/web-2": "not-viable",
                "default/web-3": "infeasible", "default/batch": "ok"}
    for pod, verdict in expected.items():
        assert verdict in row(r.stdout, pod).split(), (pod, r.stdout)
    assert re.search(r"\bdecisions 4\b", r.stdout), r.stdout


def test_the_watch_log_example_in_detail():
    """fixtures/check/watch-log.md's numbers, from the JSON lines."""
    r = subprocess.run([KSO, "check", str(REPO / "fixtures" / "check" /
                                          "watch-log.jsonl"),
                        "--strict-message"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stderr
    lines = [json.loads(l) for l in r.stdout.splitlines()]
    got = [(d["pod"], d["verdict"]) for d in lines[:-1]]
    assert got == [("default/web-1", "ok"), ("default/web-2", "not-viable"),
                   ("default/web-3", "infeasible"), ("default/batch", "ok")]
    web2 = lines[1]
    assert "scores 449" in web2["detail"] and "450" in web2["detail"]
    assert "NodeResourcesBalancedAllocation n1 87 < n2 100" in web2["detail"]
    assert lines[2]["detail"].startswith("n3 is rejected by TaintToleration")
    assert lines[0]["expected"]["viable"] == ["n2"]
    s = lines[-1]["summary"]
    assert (s["decisions"], s["ok"], s["wrong"], s["findings"]) == \
        (4, 2, 2, {"not-viable": 1, "infeasible": 1})


def test_explore_edge_cases(tmp_path):
    cmd = command("kso enum")
    r = run(tmp_path, cmd)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"^states:\s+3\b", r.stdout, re.M), r.stdout
    assert re.search(r"^decisions:\s+2\b", r.stdout, re.M), r.stdout
    assert re.search(r"^disagreements:\s+0\b", r.stdout, re.M), r.stdout
    assert re.search(r"^violations:\s+0\b", r.stdout, re.M), r.stdout
    assert re.search(r"^\s*greedy-gap\s+1\b", r.stdout, re.M), r.stdout
    db = re.search(r"--db (\S+)", cmd).group(1)
    assert (tmp_path / db).exists()
    # the README's next step: kso findings lists it
    r = run(tmp_path, "./kso findings " + db)
    assert r.returncode == 0, r.stderr
    assert "greedy-gap" in r.stdout


def test_the_readme_links_documents_that_exist():
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" not in target:
            assert (REPO / target).exists(), target


def test_no_reference_outside_the_repository():
    docs = [REPO / "README.md", *sorted((REPO / "doc").glob("*.md"))]
    for p in docs:
        text = p.read_text()
        assert "../shared" not in text, p
        assert not re.search(r"\bseeds? 0\d\d\b", text, re.I), p
