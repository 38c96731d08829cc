"""
test_corpus.py - the conformance corpus (`kso corpus`): every decision of
a universe as a self-contained case, minimized and deduplicated, and its
replay against implementations (`kso corpus --run`), judged by kso and,
from the cases' "expected" objects alone, by tests/corpus_judge.py.

Expected answers come from the fixtures' hand-derived headers:
fixtures/impl/cluster.yaml (p: a rejected by its taint, b 93/99, c 63/69:
viable {b}, feasible {b, c}; old, 100m on any node, changes none of
that) and fixtures/preemption/reprieve.yaml (a, b, c, d of priorities 1-4
fill n1; p needs 2 cpu: kube evicts {a, b}).
"""
import glob
import json
import os
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KSO = os.environ.get("KSO", os.path.join(ROOT, "kso"))
IMPL = os.path.join(ROOT, "tests", "impl")
JUDGE = os.path.join(ROOT, "tests", "corpus_judge.py")


def impl(name):
    return "/usr/bin/python3 %s" % os.path.join(IMPL, name + ".py")


def universe(tmp_path, fixture, name):
    """fixture as a universe, spec.nodeName left out (the enumerator
    places every pod)."""
    base = tmp_path / (name + ".yaml")
    with open(os.path.join(ROOT, "fixtures", fixture)) as f:
        base.write_text("".join(l for l in f if "nodeName:" not in l))
    u = tmp_path / (name + ".universe.yaml")
    u.write_text("kind: Universe\nname: %s\nmanifests: [%s]\n" % (name, base))
    return u


def corpus(tmp_path, fixture, name, *extra):
    u = universe(tmp_path, fixture, name)
    out = tmp_path / (name + "-corpus" + "".join(extra))
    p = subprocess.run([KSO, "corpus", str(u), "--dir", str(out), "--quiet",
                        *extra], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    cases = {}
    for path in sorted(glob.glob(str(out / "case-*.json"))):
        with open(path) as f:
            cases[os.path.basename(path)] = json.load(f)
    assert "corpus:        %d cases in %s\n" % (len(cases), out) in p.stdout
    return out, cases


def pods_on(case):
    return {o["metadata"]["name"]: o["spec"].get("nodeName", "")
            for o in case["cluster"]["items"] if o["kind"] == "Pod"}


def replay(out, name, *extra):
    p = subprocess.run([KSO, "corpus", "--run", str(out), "--impl", impl(name),
                        *extra], capture_output=True, text=True, timeout=600)
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    return p, {l["case"]: l for l in lines[:-1]}, lines[-1]["summary"]


def test_a_case_is_minimized_and_holds_kubes_answer(tmp_path):
    out, cases = corpus(tmp_path, "impl/cluster.yaml", "impl")
    assert os.path.exists(out / "scheduler-config.json")
    assert not os.path.exists(out / ".corpus.db")   # removed when complete
    mine = [c for c in cases.values() if c["pod"]["name"] == "p"]
    # every state with p pending shrinks to the same case: old dropped
    assert len(mine) == 1
    case = mine[0]
    assert case["kind"] == "KsoCorpusCase" and case["version"] == 1
    assert case["pod"] == {"namespace": "default", "name": "p",
                           "uid": "kso-default-p"}
    assert pods_on(case) == {"p": ""}
    assert case["expected"] == {"decision": "bind", "feasible": ["b", "c"],
                                "viable": ["b"], "sampled": False}


def test_a_preemption_case_lists_kubes_victims(tmp_path):
    out, cases = corpus(tmp_path, "preemption/reprieve.yaml", "reprieve")
    full = [c for c in cases.values() if c["pod"]["name"] == "p" and
            pods_on(c) == {"a": "n1", "b": "n1", "c": "n1", "d": "n1",
                           "p": ""}]
    # no pod can go: without c or d kube would evict a alone
    assert len(full) == 1
    exp = full[0]["expected"]
    assert (exp["decision"], exp["feasible"], exp["viable"]) == ("preempt",
                                                                 [], [])
    assert [(a["nominatedNodeName"], sorted(v["name"] for v in a["victims"]),
             a["numPDBViolations"]) for a in exp["preemption"]] == [
        ("n1", ["a", "b"], 0)]
    assert sorted(v["uid"] for v in exp["preemption"][0]["victims"]) == [
        "kso-default-a", "kso-default-b"]


@pytest.mark.parametrize("fixture,name,bug,verdict,extra", [
    ("impl/cluster.yaml", "impl", "self", None, ()),
    ("impl/cluster.yaml", "impl", "self", None, ("--no-minimize",)),
    ("impl/cluster.yaml", "impl", "emptiest", "not-viable",
     ("--no-minimize",)),
    ("impl/cluster.yaml", "impl", "ignores_taints", "infeasible", ()),
    ("preemption/reprieve.yaml", "reprieve", "self", None, ()),
    ("preemption/reprieve.yaml", "reprieve", "never_preempts",
     "should-have-preempted", ()),
    ("preemption/reprieve.yaml", "reprieve", "wrong_victims",
     "victims-differ", ()),
])
def test_replay_judges_like_the_expected_answers(tmp_path, fixture, name, bug,
                                                 verdict, extra):
    out, cases = corpus(tmp_path, fixture, name, *extra)
    p, by_case, summary = replay(out, bug)
    assert summary["cases"] == len(cases) and summary["stale"] == 0
    if verdict is None:
        assert p.returncode == 0, p.stdout + p.stderr
        assert summary["ok"] == len(cases)
    else:
        assert p.returncode == 1
        assert summary[verdict] > 0
    # the corpus is self-sufficient: judged from "expected" alone, without
    # kso, every case gets the verdict kso gives it
    q = subprocess.run(["/usr/bin/python3", JUDGE, str(out), impl(bug)],
                       capture_output=True, text=True, timeout=600)
    alone = dict(l.split() for l in q.stdout.splitlines())
    assert alone == {c: l["verdict"] for c, l in by_case.items()}
    assert q.returncode == p.returncode


def test_minimizing_trades_cases_for_discrimination(tmp_path):
    # Minimized, p's one case holds p alone: the emptiest-node bug then
    # picks b (every node empty, first by name), which is kube's answer, so
    # the minimized corpus cannot see that bug.  The whole states
    # (--no-minimize) keep old: with old on b, emptiest binds c (no pods)
    # instead of b - not-viable, naming b.
    out, cases = corpus(tmp_path, "impl/cluster.yaml", "impl")
    p, by_case, summary = replay(out, "emptiest")
    assert p.returncode == 0 and summary["not-viable"] == 0
    out, whole = corpus(tmp_path, "impl/cluster.yaml", "impl", "--no-minimize")
    assert len(whole) > len(cases)
    name = next(n for n, c in whole.items() if c["pod"]["name"] == "p" and
                pods_on(c) == {"old": "b", "p": ""})
    p, by_case, _ = replay(out, "emptiest")
    assert by_case[name]["answer"] == "bind c"
    assert by_case[name]["verdict"] == "not-viable"
    assert "viable nodes (b)" in by_case[name]["detail"]


def test_an_edited_case_is_stale(tmp_path):
    out, cases = corpus(tmp_path, "impl/cluster.yaml", "impl")
    name = next(n for n, c in cases.items() if c["pod"]["name"] == "p")
    case = cases[name]
    case["expected"]["viable"] = ["c"]
    (out / name).write_text(json.dumps(case))
    p, by_case, summary = replay(out, "self")
    assert p.returncode == 1
    assert by_case[name]["verdict"] == "stale"
    assert summary["stale"] == 1


def test_corpus_refuses_a_directory_holding_one(tmp_path):
    out, _ = corpus(tmp_path, "impl/cluster.yaml", "impl")
    u = tmp_path / "impl.universe.yaml"
    p = subprocess.run([KSO, "corpus", str(u), "--dir", str(out)],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 1
    assert "already holds" in p.stderr and p.stdout == ""


def test_run_without_a_corpus_is_an_error(tmp_path):
    p = subprocess.run([KSO, "corpus", "--run", str(tmp_path), "--impl",
                        impl("self")], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 3 and p.stdout == ""
    assert "scheduler-config.json" in p.stderr


def test_a_case_carries_the_pdb_status_kso_assumed(tmp_path):
    # fixtures/impl/pdb-status.yaml as a universe: the enumerator places
    # w1-w3, d1 and p.  In each case's state the disruption controller's
    # rule (model/pdb.c) gives web max(0, bound web pods - minAvailable 2)
    # (expectedCount 3: every matched pod, bound or not) and db the bound
    # db pods (desiredHealthy 1 - maxUnavailable 1 = 0); frozen keeps 0.
    out, cases = corpus(tmp_path, "impl/pdb-status.yaml", "pdbs",
                        "--no-minimize")
    assert cases
    for case in cases.values():
        on = pods_on(case)
        web = sum(1 for n in ("w1", "w2", "w3") if on.get(n))
        db = 1 if on.get("d1") else 0
        got = {o["metadata"]["name"]: o.get("status")
               for o in case["cluster"]["items"]
               if o["kind"] == "PodDisruptionBudget"}
        assert got == {"web": {"disruptionsAllowed": max(0, web - 2)},
                       "db": {"disruptionsAllowed": db},
                       "frozen": {"disruptionsAllowed": 0}}, on


USAGE = "usage: corpus_judge.py [--strict-message] DIR 'CMD ARGS'\n"


def judge_alone(*args):
    return subprocess.run(["/usr/bin/python3", JUDGE, *map(str, args)],
                          capture_output=True, text=True, timeout=600)


def test_the_judge_prints_its_usage(tmp_path):
    for args in ((), ("only-a-dir",), ("a", "b", "c"), ("--bogus", "x")):
        q = judge_alone(*args)
        assert q.returncode == 2 and q.stdout == "", args
        assert q.stderr.startswith(USAGE), (args, q.stderr)
    for flag in ("-h", "--help"):
        q = judge_alone(flag)
        assert q.returncode == 0 and q.stdout.startswith(USAGE)
        assert "--strict-message" in q.stdout and "exit 0" in q.stdout
    # a directory without a corpus: exit 3, as kso corpus --run
    q = judge_alone(tmp_path, impl("self"))
    assert q.returncode == 3 and "holds no corpus" in q.stderr, q.stderr


def test_the_judge_under_strict_messages(tmp_path):
    # fixtures/explain/taints_cpu.yaml: web fits nowhere and no pod can be
    # evicted, so its case expects unschedulable with kube's message (its
    # header); terse_message.py answers unschedulable without the
    # " preemption: ..." part: ok, but message-differs under strict messages
    out, cases = corpus(tmp_path, "explain/taints_cpu.yaml", "taints")
    web = [c for c, v in cases.items() if v["pod"]["name"] == "web"]
    assert len(web) == 1
    assert cases[web[0]]["expected"]["decision"] == "unschedulable"
    for extra, verdict, rc in (((), "ok", 0),
                               (("--strict-message",), "message-differs", 1)):
        p, by_case, _ = replay(out, "terse_message", *extra)
        assert by_case[web[0]]["verdict"] == verdict
        q = judge_alone(*extra, out, impl("terse_message"))
        alone = dict(l.split() for l in q.stdout.splitlines())
        assert alone == {c: l["verdict"] for c, l in by_case.items()}
        assert q.returncode == p.returncode == rc
