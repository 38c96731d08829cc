"""
test_long_reason.py - a filter's reason text is never cut: the longest one
(TaintToleration's, with a maximal taint key and value) reaches the JSON
and the event message whole, from both engines.
"""
import json

import pytest

from conftest import run_kso, FIXTURES

PREFIX = ".".join(["a" * 63, "b" * 63, "c" * 63, "d" * 61])
KEY = PREFIX + "/" + "k" * 63
VALUE = "v" * 63
REASON = "node(s) had untolerated taint {%s: %s}" % (KEY, VALUE)


@pytest.mark.parametrize("engine", ["model", "oracle"])
def test_longest_taint_reason_is_whole(engine):
    assert len(REASON) == 414
    r = run_kso("explain", FIXTURES / "edge" / "taint-long-key.yaml",
                "--engine", engine, "-o", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["nodes"]["n1"]["reasons"] == [REASON]
    assert doc["message"].startswith("0/1 nodes are available: 1 " + REASON + ".")
