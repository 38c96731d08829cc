"""
test_mutate.py - `make mutate`'s list (scripts/mutate.py) still applies:
every mutation's anchor occurs exactly once in its file, so no mutation
silently stops being tried after an edit moves the code it mutates.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_mutation_anchor_applies():
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts",
                                                     "mutate.py"), "--check"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    assert p.stdout == ""


def test_a_missing_anchor_fails_at_once(tmp_path):
    # the same check on a tree where one anchor is gone names it
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import mutate
    path, old, _, _ = mutate.MUTATIONS[0]
    for p, *_ in mutate.MUTATIONS:
        dst = tmp_path / p
        dst.parent.mkdir(parents=True, exist_ok=True)
        dst.write_text(open(os.path.join(ROOT, p)).read())
    (tmp_path / path).write_text("")
    bad = mutate.bad_anchors(str(tmp_path))
    assert len(bad) == sum(1 for m in mutate.MUTATIONS if m[0] == path)
    assert bad[0].startswith("mutate: %s: the text to mutate occurs 0 times"
                             % path)
