"""
test_engines.py - the oracle against the model, end to end, on every
fixture: both engines must print byte-identical output.

For every manifest file under fixtures/ (walked recursively; files that
`kso validate` rejects and KubeSchedulerConfiguration files are skipped):
  * `kso explain F --pod NS/NAME -o json --engine model` and `--engine
    oracle` for every pending pod (pods without spec.nodeName in
    `kso dump F -o json`): same exit status, same stdout bytes - the
    cycle (filters, scores, viable nodes, FitError message) and the
    "preemption" field (oracle_preempt_kube vs model_preempt_kube);
  * `kso schedule F -o json` with `--engine model` and `--engine oracle`
    (kube's node sampling on: every fixture has fewer than 100 nodes, so
    it evaluates every node), with the oracle's `--all-nodes`, and with
    `--tie random --seed 7` (seeded selectHost and preemption offset):
    same exit status, same stdout bytes.
A fixture X.yaml with a configuration X.config.yaml beside it is compared
both without and with `--config X.config.yaml`.  Everything runs under
both releases kso answers for (`--kube-version 1.30` and `1.34`, given
explicitly), each fixture under each release that validates it.

The equality is the whole assertion: the model states every rule
literally, the oracle computes the same answers kube's way (incremental
NodeInfo, PreFilter state with AddPod/RemovePod, dry runs on cloned
state), so any byte of difference is a bug in one of them.
"""
import functools
import json
import re
import subprocess

import pytest

from conftest import FIXTURES, KSO

CONFIG_KIND = re.compile(r"^kind:\s*['\"]?KubeSchedulerConfiguration", re.M)
MANIFEST_SUFFIXES = (".yaml", ".yml", ".json")


def run(*args):
    p = subprocess.run([KSO, *args], capture_output=True, timeout=600)
    return p.returncode, p.stdout


UNIVERSE_KIND = re.compile(r"^kind:\s*Universe\s*$", re.M)


def is_config(path):
    """A KubeSchedulerConfiguration or an enumerator universe: not a
    set of manifests to schedule."""
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return False
    return bool(CONFIG_KIND.search(text) or UNIVERSE_KIND.search(text))


def fixture_files():
    files = []
    for path in sorted(FIXTURES.rglob("*")):
        if path.is_file() and path.suffix in MANIFEST_SUFFIXES \
                and not is_config(path):
            files.append(path)
    return files


VERSIONS = ["1.30", "1.34"]


@functools.lru_cache(maxsize=None)
def valid(path, version):
    p = subprocess.run([KSO, "validate", str(path), "--kube-version", version],
                       capture_output=True, timeout=600)
    return p.returncode == 0


# Deliberately broken fixtures (fuzz seeds, validation cases) are left out
# at collection, so nothing is reported as skipped.
ALL_FILES = fixture_files()
FILES = [f for f in ALL_FILES if valid(f, "1.30")]
# (fixture, release): every fixture under every release that accepts it
CASES = [(f, v) for v in VERSIONS for f in ALL_FILES if valid(f, v)]


def case_id(case):
    return "%s:%s" % (case[1], rel(case[0]))


def test_most_fixtures_are_compared():
    assert len(FILES) >= 80, len(FILES)
    assert len(ALL_FILES) - len(FILES) <= 30
    v134 = [f for f, v in CASES if v == "1.34"]
    assert len(v134) >= 80, len(v134)
    assert len(ALL_FILES) - len(v134) <= 30


def pending_pods(path, version):
    rc, out = run("dump", str(path), "-o", "json", "--kube-version", version)
    assert rc == 0, "kso dump failed on a file kso validate accepted: %s" % path
    doc = json.loads(out)
    pods = []
    for pod in doc.get("pods", []):
        if pod.get("spec", {}).get("nodeName"):
            continue
        meta = pod["metadata"]
        pods.append("%s/%s" % (meta.get("namespace", "default"), meta["name"]))
    return pods


def rel(path):
    return str(path.relative_to(FIXTURES))


def kube(version):
    return ["--kube-version", version]


def config_args(path):
    """The argument lists to compare path under: none, and --config with
    its X.config.yaml when there is one."""
    cfg = path.with_name(path.stem + ".config.yaml")
    return [[]] + ([["--config", str(cfg)]] if cfg.is_file() else [])


# Totals over the run, printed at the end (pytest -s) and checked to be
# non-trivial so the comparison cannot pass by comparing nothing.
COUNTS = {"files": 0, "pods": 0, "schedules": 0, "steps": 0}


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_explain_engines_identical(case):
    path, version = case
    COUNTS["files"] += 1
    for cfg in config_args(path):
        cfg = cfg + kube(version)
        for pod in pending_pods(path, version):
            m = run("explain", str(path), "--pod", pod, "-o", "json",
                    "--engine", "model", *cfg)
            o = run("explain", str(path), "--pod", pod, "-o", "json",
                    "--engine", "oracle", *cfg)
            assert m[0] == o[0], "%s %s %s: exit %d (model) vs %d (oracle)" % (
                rel(path), pod, cfg, m[0], o[0])
            assert m[1] == o[1], "%s %s %s: explain output differs" % (
                rel(path), pod, cfg)
            COUNTS["pods"] += 1


SCHEDULE_VARIANTS = [
    ([], []),
    ([], ["--all-nodes"]),
    (["--tie", "random", "--seed", "7"], []),
]


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_schedule_engines_identical(case):
    path, version = case
    for (common, oracle_only), cfg in (
            (v, c) for v in SCHEDULE_VARIANTS for c in config_args(path)):
        common = common + cfg + kube(version)
        m = run("schedule", str(path), "-o", "json", *common,
                "--engine", "model")
        o = run("schedule", str(path), "-o", "json", *common,
                "--engine", "oracle", *oracle_only)
        assert m[0] == o[0], "%s %s: exit %d (model) vs %d (oracle)" % (
            rel(path), common + oracle_only, m[0], o[0])
        assert m[1] == o[1], "%s %s: schedule output differs" % (
            rel(path), common + oracle_only)
        COUNTS["schedules"] += 1
        if m[0] in (0, 1) and m[1]:
            COUNTS["steps"] += len(json.loads(m[1])["steps"])


def test_engines_compared_something():
    """Runs last (file order): the comparisons above covered real work."""
    print("\ntest_engines: %(files)d fixtures, %(pods)d pending pods "
          "explained, %(schedules)d schedule runs, %(steps)d steps "
          "compared" % COUNTS)
    if COUNTS["files"] == 0:
        pytest.skip("run together with the tests above")
    assert COUNTS["pods"] > 100
    assert COUNTS["steps"] > 100


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_incremental_invariants_equal_full(case):
    # the capacity check after each step looks only at the nodes the step
    # put a pod on; the full recheck of every node must give the same
    # verdicts, byte for byte
    path, version = case
    for engine in ("oracle", "model"):
        full = run("schedule", str(path), "-o", "json", "--engine", engine,
                   "--check-invariants", "full", *kube(version))
        inc = run("schedule", str(path), "-o", "json", "--engine", engine,
                  *kube(version))
        assert full == inc, "%s (%s): incremental invariants differ" % (
            rel(path), engine)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_incremental_invariants_equal_full_random(tmp_path, seed):
    gen = FIXTURES.parent / "scripts" / "gen_cluster.py"
    f = tmp_path / "c.yaml"
    subprocess.run(["/usr/bin/python3", str(gen), "--nodes", "40", "--bound",
                    "120", "--pending", "80", "--zones", "3", "--seed",
                    str(seed), "-o", str(f)], check=True)
    full = run("schedule", str(f), "-o", "json", "--check-invariants", "full")
    inc = run("schedule", str(f), "-o", "json")
    assert full[0] == 0 and full == inc
