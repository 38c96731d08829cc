"""Every command that prints results, in every output format it has: the
JSON fields are exactly those doc/outputs.md documents (its `<!-- fields: X -->`
lists), -o yaml holds the same values as -o json, tables line up, and
-o wide / -o name print what doc/outputs.md says they do."""
import json
import os
import re
import sys

import pytest
import yaml

from conftest import FIXTURES, REPO, run_kso

EXPORT = FIXTURES / "expand" / "cluster-export.yaml"
LOOP = FIXTURES / "preemption" / "loop.yaml"
REPRIEVE = FIXTURES / "preemption" / "reprieve.yaml"
TAINTED = FIXTURES / "impl" / "cluster.yaml"
SELF_IMPL = f"{sys.executable} {REPO / 'tests' / 'impl' / 'self.py'}"


def documented():
    """doc/outputs.md's field lists: {"explain.nodes.*": (required, optional)}."""
    text = (REPO / "doc" / "outputs.md").read_text()
    out = {}
    for m in re.finditer(r"<!-- fields: (\S+) -->\n((?:.+\n)+?)(?:\n|\Z)", text):
        names = re.findall(r"`([A-Za-z_]+)(\??)`", m.group(2))
        out[m.group(1)] = ({n for n, q in names if not q},
                           {n for n, q in names if q})
    return out


FIELDS = documented()


def check_fields(what, obj, with_optional=False):
    required, optional = FIELDS[what]
    keys = set(obj)
    assert required <= keys, (what, required - keys)
    extra = keys - required
    assert extra <= optional, (what, extra)
    if with_optional:
        assert extra == optional, (what, optional - extra)


def run_ok(*args):
    p = run_kso(*args)
    assert p.returncode == 0, (args, p.stderr)
    return p.stdout


def test_readme_documents_every_output():
    assert set(FIELDS) == {"validate", "dump", "explain", "explain.nodes.*",
                           "explain.preemption", "schedule",
                           "schedule.steps.*", "schedule.summary",
                           "check.decision", "check.summary", "enum",
                           "corpus.case", "replay", "replay.steps.*",
                           "capacity", "capacity.placed.*",
                           "capacity.stop"}


def test_corpus_run_lines(tmp_path):
    from test_corpus import corpus, replay
    out, cases = corpus(tmp_path, "impl/cluster.yaml", "impl")
    p, by_case, summary = replay(out, "self")
    assert p.returncode == 0, p.stderr
    assert set(by_case) == set(cases)
    for line in by_case.values():
        check_fields("corpus.case", line)
    assert summary["cases"] == len(cases)


def test_enum_summary_formats(tmp_path):
    two = FIXTURES / "universes" / "two-by-two.yaml"
    text = run_ok("enum", two, "--db", tmp_path / "a.db", "--quiet")
    doc = json.loads(run_ok("enum", two, "--db", tmp_path / "b.db", "--quiet",
                            "-o", "json"))
    check_fields("enum", doc)
    # the same numbers as the text: "states:        9 (4 classes ...)"
    m = re.search(r"^states: +(\d+) \((\d+) classes", text, re.M)
    assert doc["states"] == {"count": int(m.group(1)),
                             "classes": int(m.group(2))}
    m = re.search(r"^decisions: +(\d+) \((\d+) classes", text, re.M)
    assert doc["decisions"] == {"count": int(m.group(1)),
                                "classes": int(m.group(2))}
    assert doc["status"] == "complete" and doc["disagreements"]["count"] == 0
    y = yaml.safe_load(run_ok("enum", two, "--db", tmp_path / "c.db",
                              "--quiet", "-o", "yaml"))
    for k in ("milliseconds", "cpu_milliseconds", "run"):
        y.pop(k), doc.pop(k)
    assert y == doc
    reach = json.loads(run_ok("enum", two, "--db", tmp_path / "d.db",
                              "--quiet", "--mode", "reachable", "-o", "json"))
    check_fields("enum", reach, with_optional=True)


def test_check_lines(tmp_path):
    # test_check.py's watch-log builder: p (viable set {b}) bound to a,
    # which its taint rejects - a wrong decision, exported
    from test_check import CLUSTER, Log
    log = Log(CLUSTER)
    log.bind("p", "a")
    rc, decisions, summary = log.check(tmp_path, "--export", tmp_path / "x")
    assert rc == 1
    (d,) = decisions
    # every optional field but lag (test_check_lag.py has a line with it)
    check_fields("check.decision", d)
    assert set(d) - FIELDS["check.decision"][0] == \
        FIELDS["check.decision"][1] - {"lag"}
    check_fields("check.summary", dict(summary, decisions_per_second=0))
    assert (summary["decisions"], summary["wrong"]) == (1, 1)


def test_validate_formats():
    doc = json.loads(run_ok("validate", EXPORT, "-o", "json"))
    check_fields("validate", doc)
    # the export: 3 nodes, 11 pods (6 listed, 5 created), 5 bound
    assert (doc["nodes"], doc["pods"], doc["bound"], doc["pending"]) == \
        (3, 11, 5, 6)
    assert doc["profiles"] is None and len(doc["warnings"]) == 2
    assert yaml.safe_load(run_ok("validate", EXPORT, "-o", "yaml")) == doc
    table = run_ok("validate", EXPORT)
    assert table.startswith("ok: 3 nodes, 11 pods (5 bound, 6 pending)")


def test_dump_formats():
    doc = json.loads(run_ok("dump", EXPORT, "-o", "json"))
    check_fields("dump", doc)
    names = run_ok("dump", EXPORT, "-o", "name").splitlines()
    total = sum(len(v) for v in doc.values())
    assert len(names) == total
    assert names.count("node/node-a") == 1
    assert "statefulset.apps/db" in names and "pod/db-1" in names
    assert all(re.fullmatch(r"[a-z.0-9]+/[a-z0-9.-]+", n) for n in names)
    manifests = list(yaml.safe_load_all(run_ok("dump", EXPORT, "-o", "yaml")))
    kinds = [m["kind"] for m in manifests if m]
    assert kinds.count("Pod") == len(doc["pods"])


def test_explain_json_and_yaml_agree_and_match_readme():
    doc = json.loads(run_ok("explain", REPRIEVE, "-o", "json"))
    check_fields("explain", doc)
    for node in doc["nodes"].values():
        check_fields("explain.nodes.*", node)
    assert doc["preemption"] is not None
    check_fields("explain.preemption", doc["preemption"])
    assert yaml.safe_load(run_ok("explain", REPRIEVE, "-o", "yaml")) == doc


def test_explain_with_impl_has_its_optional_field():
    p = run_kso("explain", TAINTED, "--pod", "default/p", "--impl", SELF_IMPL,
                "-o", "json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    check_fields("explain", doc)
    assert "impl" in doc and "bound_node" not in doc


def test_explain_of_a_bound_pod_has_its_optional_field():
    # fixtures/impl/cluster.yaml: old runs on b
    doc = json.loads(run_ok("explain", TAINTED, "--pod", "default/old", "-o",
                            "json"))
    check_fields("explain", doc)
    assert doc["bound_node"] == "b" and "impl" not in doc
    assert list(doc["nodes"]) == ["b"] and doc["preemption"] is None


def test_explain_table_and_wide():
    table = run_ok("explain", TAINTED, "--pod", "default/p")
    wide = run_ok("explain", TAINTED, "--pod", "default/p", "-o", "wide")
    # the table shortens kube's texts (in its REASON column), wide prints
    # them whole in the matrix
    assert "rejected  TaintToleration: taint {dedicated: infra}" in table
    assert "✗ node(s) had untolerated taint {dedicated: infra}" in wide
    assert "ResourcesFit" in table and " NodeResourcesFit " in wide
    for out in (table, wide):
        rows = [r for r in out.split("\n\n")[1].splitlines()[1:]
                if not r.startswith(("+", " "))]
        head = rows[0]
        starts = [m.start() for m in re.finditer(r"(?<=  )\S", head)]
        for row in rows[1:]:
            for s in starts:
                # a feasible node's REASON is empty
                assert row[s - 2:s] == "  " and (
                    row[s] != " " or head[s:].startswith("REASON")), (row, s)


def test_schedule_formats():
    doc = json.loads(run_ok("schedule", LOOP, "-o", "json"))
    check_fields("schedule", doc)
    check_fields("schedule.summary", doc["summary"])
    for st in doc["steps"]:
        check_fields("schedule.steps.*", st)
    final = list(yaml.safe_load_all(run_ok("schedule", LOOP, "-o", "yaml")))
    bound = {m["metadata"]["name"]: m["spec"].get("nodeName")
             for m in final if m and m["kind"] == "Pod"}
    for key, node in doc["final"].items():
        assert bound[key.split("/")[1]] == node
    wide = run_ok("schedule", LOOP, "-o", "wide").splitlines()
    assert wide[0].split() == ["STEP", "POD", "PRIORITY", "ACTION", "NODE",
                               "VICTIMS", "VIABLE", "MESSAGE"]
    # loop.yaml: h1 (priority 1000) binds first
    assert wide[1].split()[:5] == ["1", "default/h1", "1000", "bind", "n2"]
    table = run_ok("schedule", LOOP).splitlines()
    assert table[0].split() == ["STEP", "POD", "ACTION", "NODE", "VICTIMS",
                                "VIABLE", "MESSAGE"]


def test_replay_json(tmp_path):
    trace = tmp_path / "loop.itf.json"
    trace.write_text(run_ok("schedule", LOOP, "-o", "itf"))
    out = json.loads(run_ok("replay", trace, "-o", "json"))
    check_fields("replay", out)
    for s in out["steps"]:
        check_fields("replay.steps.*", s)
    # a step that differs carries its optional field
    t = json.loads(trace.read_text())
    t["states"][1]["mbt::nondetPicks"]["node"] = {"tag": "None",
                                                  "value": {"#tup": []}}
    trace.write_text(json.dumps(t))
    p = run_kso("replay", trace, "-o", "json")
    assert p.returncode == 1
    check_fields("replay.steps.*", json.loads(p.stdout)["steps"][0],
                 with_optional=True)


def test_schedule_detail_adds_the_viable_nodes():
    """LOOP's header: h1 fits only n2 (step 1); h2, m1, m2 bind through
    their nominated node, the only node such a cycle looks at (steps 3,
    7, 8); every other step has no viable node (12 steps, v1.30).  Without --detail the
    steps are the same but for "viable" (issue 37: the lists only on
    request)."""
    plain = json.loads(run_ok("schedule", LOOP, "-o", "json"))["steps"]
    full = json.loads(run_ok("schedule", LOOP, "-o", "json", "--detail"))["steps"]
    assert [st["viable"] for st in full] == [
        ["n2"], [], ["n1"], [], [], [], ["n1"], ["n2"], [], [], [], []]
    assert all("viable" not in st for st in plain)
    assert [{k: v for k, v in st.items() if k != "viable"} for st in full] == plain


def test_schedule_with_impl_has_its_optional_fields():
    # --detail: every optional field of a step
    p = run_kso("schedule", LOOP, "--impl", SELF_IMPL, "-o", "json", "--detail")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    check_fields("schedule", doc, with_optional=True)
    # queue/flush-nominated.yaml under v1.30: step 3 follows the 5-minute
    # unschedulable timeout (the fixture's header)
    p = run_kso("schedule", FIXTURES / "queue" / "flush-nominated.yaml",
                "--kube-version", "1.30", "--impl", SELF_IMPL, "-o", "json",
                "--detail")
    assert p.returncode == 0, p.stderr
    flushed = json.loads(p.stdout)
    check_fields("schedule.steps.*", flushed["steps"][2], with_optional=True)
    check_fields("schedule.summary", flushed["summary"], with_optional=True)


def test_schedule_table_abbreviates_viable_nodes(tmp_path):
    # five equal nodes: the table lists three and "+2", wide all five
    nodes = "".join(f"""---
apiVersion: v1
kind: Node
metadata: {{name: n{i}}}
status: {{allocatable: {{cpu: "1", memory: 1Gi, pods: "10"}}}}
""" for i in range(5))
    f = tmp_path / "five.yaml"
    f.write_text(nodes + """---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: x}]}
""")
    table = run_ok("schedule", f).splitlines()
    assert table[1].split()[4] == "-"
    assert table[1].split()[5] == "n0,n1,n2,+2"
    wide = run_ok("schedule", f, "-o", "wide").splitlines()
    assert wide[1].split()[6] == "n0,n1,n2,n3,n4"


@pytest.mark.parametrize("cmd,formats", [
    ("validate", ["table", "json", "yaml"]),
    ("dump", ["json", "yaml", "name"]),
    ("explain", ["table", "wide", "json", "yaml", "html"]),
    ("schedule", ["table", "wide", "json", "yaml", "itf", "html"]),
])
def test_every_format_is_accepted_and_listed_in_help(cmd, formats):
    for fmt in formats:
        for spelled in (["-o", fmt], [f"-o{fmt}"], [f"--output={fmt}"]):
            p = run_kso(cmd, LOOP, *spelled)
            assert p.returncode in (0, 1), (cmd, spelled, p.stderr)
            assert p.stdout, (cmd, spelled)
    p = run_kso(cmd, LOOP, "-o", "xml")
    assert p.returncode == 2
    assert p.stderr.startswith(f"kso {cmd}: unknown output format 'xml' "
                               f"({', '.join(formats)})\nusage: kso {cmd} ")
    h = run_kso(cmd, "--help")
    assert h.returncode == 0
    assert "|".join(formats) in h.stdout


@pytest.mark.parametrize("cmd", ["validate", "dump", "explain", "schedule",
                                 "check", "serve", "enum", "corpus", "export",
                                 "merge", "replay", "capacity"])
def test_help_lists_every_option_the_command_takes(cmd):
    h = run_kso(cmd, "--help")
    assert h.returncode == 0 and h.stderr == ""
    assert h.stdout.startswith(f"usage: kso {cmd}")
    listed = dict(re.findall(r"^ {2,4}(?:-\w, )?(--[a-z-]+)( \S+)?",
                             h.stdout, re.M))
    assert "--help" in listed
    # each listed option is read (a listed one is never "unknown"); an
    # unknown option after it stops the command before it runs anything
    for opt, value in listed.items():
        if opt == "--help":
            continue
        word = f"{opt}=x" if value else opt
        p = run_kso(cmd, word, "--no-such-option")
        assert p.returncode == 2, (cmd, word, p.stderr)
        assert f"unknown option '{opt}'" not in p.stderr, (cmd, opt)
    p = run_kso(cmd, "--no-such-option")
    assert p.returncode == 2
    assert "unknown option '--no-such-option'" in p.stderr


def test_check_table_and_wide(tmp_path):
    from test_check import CLUSTER, Log
    log = Log(CLUSTER)
    log.bind("p", "a")          # a's taint rejects p: infeasible
    f = tmp_path / "watch.json"
    f.write_text("\n".join(log.lines) + "\n")
    table = run_kso("check", f, "-o", "table")
    assert table.returncode == 1
    rows = table.stdout.splitlines()
    assert rows[0].split() == ["SEQ", "POD", "DECISION", "VERDICT", "DETAIL"]
    assert rows[1].split()[:5] == ["1", "default/p", "bind", "a", "infeasible"]
    assert re.fullmatch(r"decisions 1, ok 0 \(with lag 0\), wrong 1 "
                        r"\(infeasible 1\), inconclusive 0; \d+ decisions/s",
                        rows[-1])
    wide = run_kso("check", f, "-o", "wide").stdout.splitlines()
    assert wide[0].split() == ["SEQ", "RV", "POD", "DECISION", "VERDICT",
                               "VIABLE", "DETAIL"]
    # p's viable set is {b} (fixtures/impl/cluster.yaml)
    assert wide[1].split()[5:7] == ["infeasible", "b"]


@pytest.mark.parametrize("what", [
    ["--podspec", FIXTURES / "capacity" / "web.yaml"],
    ["--workload", "deploy/web", FIXTURES / "capacity" / "web-running.yaml"],
    ["--podspec", FIXTURES / "capacity" / "high-priority.yaml",
     "--preemption", FIXTURES / "capacity" / "busy-node.yaml"],
])
def test_capacity_formats(what):
    cluster = FIXTURES / "capacity" / "three-nodes.yaml"
    args = ["capacity", *what] if "--workload" in what or \
        "--preemption" in what else ["capacity", cluster, *what]
    doc = json.loads(run_ok(*args, "-o", "json"))
    check_fields("capacity", doc)
    assert doc["placed"], doc
    for placed in doc["placed"]:
        check_fields("capacity.placed.*", placed)
    check_fields("capacity.stop", doc["stop"])
    assert yaml.safe_load(run_ok(*args, "-o", "yaml")) == doc
