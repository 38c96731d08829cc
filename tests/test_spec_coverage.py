"""`make spec-coverage` (scripts/spec_coverage.py) and the traceability it
reports: every reference section and seed is cited by code or tests,
every model/ file names the section or seed it implements, and every
kube quirk switch (core/quirks.h) names its section."""
import os
import re
import subprocess
import sys

from conftest import REPO

SCRIPT = REPO / "scripts" / "spec_coverage.py"


def run(*args, env=None):
    return subprocess.run([sys.executable, str(SCRIPT), *args],
                          capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))


def test_every_section_and_seed_is_cited():
    p = run()
    assert p.returncode == 0, p.stderr
    assert re.search(r"^uncited: 0 of \d+$", p.stdout, re.M), p.stdout[-800:]
    # NodeResourcesFit is §2.7: its model filter cites it
    block = p.stdout.split("§2.7 NodeResourcesFit\n", 1)[1].split("\n§", 1)[0]
    assert "model/filter_node_resources_fit.c" in block
    assert "tests/" in block


def test_an_uncited_section_is_reported(tmp_path):
    # the number is made at run time: this file must not cite it itself
    num = str(40 + 57)
    ref = tmp_path / "ref.md"
    ref.write_text("# ref\n## 1. Cycle\n### 1.3 One cycle\n"
                   f"## {num}. Nothing cites this\n")
    p = run("--uncited", env={"KSO_REFERENCE": str(ref)})
    assert p.returncode == 0
    assert "\u00a7" + num + " Nothing cites this" in p.stdout
    assert "One cycle" not in p.stdout


def test_every_model_file_cites_what_it_implements():
    for f in sorted((REPO / "model").glob("*.[ch]")):
        head = f.read_text()
        assert re.search(r"§\s*\d|seeds?[ /]00\d", head), f.name


def test_every_quirk_names_its_section():
    text = (REPO / "core" / "quirks.h").read_text()
    blocks = re.findall(r"/\*((?:(?!\*/).)*)\*/\s*(QUIRK_\w+),", text, re.S)
    assert len(blocks) >= 8
    for comment, name in blocks:
        assert "§" in comment, name


def test_stand_in_section_list_is_the_reference_s():
    # doc/spec-sections.txt stands in for ../shared where a clone has none
    listed = (REPO / "doc" / "spec-sections.txt").read_text().splitlines()
    assert any(line.startswith("2.7\tNodeResourcesFit") for line in listed)
    assert sum(line.startswith("seed 00") for line in listed) == 5
    ref = REPO.parent / "shared" / "reference" / "kube-scheduler-v1.30.md"
    if ref.exists():
        heads = re.findall(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", ref.read_text(),
                           re.M)
        assert [line.split("\t")[0] for line in listed
                if not line.startswith("seed")] == heads
