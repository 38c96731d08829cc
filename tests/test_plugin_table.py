"""
test_plugin_table.py - doc/architecture.md's plugin table says what
core/plugins.def says: one row per line of the list, in its order, with
the same extension points, default weight, Filter position and releases,
so a newcomer reading doc/architecture.md reads the list the code reads.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

POINTS = {"PRE_ENQUEUE": "PreEnqueue", "QUEUE_SORT": "QueueSort",
          "PRE_FILTER": "PreFilter", "FILTER": "Filter",
          "POST_FILTER": "PostFilter", "PRE_SCORE": "PreScore",
          "SCORE": "Score", "RESERVE": "Reserve", "PERMIT": "Permit",
          "PRE_BIND": "PreBind", "BIND": "Bind", "POST_BIND": "PostBind"}
RELEASES = {"PLUGIN_IN_ALL": "1.30, 1.34", "PLUGIN_IN(KUBE_1_30)": "1.30",
            "PLUGIN_IN(KUBE_1_34)": "1.34",
            "0": "none: kso's extension (`--extension SelectorSpread`)"}


def def_rows():
    text = open(os.path.join(ROOT, "core", "plugins.def")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    rows = []
    for m in re.finditer(r'PLUGIN\(\s*(\w+),\s*"(\w+)",\s*([^,]+),\s*(\d+),'
                         r'\s*(\d+),\s*(PLUGIN_IN_ALL|PLUGIN_IN\(\w+\)|0)\s*\)',
                         text):
        _, name, points, weight, pos, releases = m.groups()
        pts = ", ".join(POINTS[p.strip().replace("PLUGIN_EP_", "")]
                        for p in points.split("|"))
        rows.append("| %s | %s | %s | %s | %s |" % (
            name, pts, "" if weight == "0" else weight,
            "" if pos == "0" else pos, RELEASES[releases]))
    return rows


def readme_rows():
    lines = open(os.path.join(ROOT, "doc", "architecture.md")).read().splitlines()
    start = lines.index("| plugin | extension points | default weight | "
                        "Filter position | releases |") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def cells(row):
    return [c.strip() for c in row.strip().strip("|").split("|")]


def test_readme_plugin_table_is_plugins_def():
    want = def_rows()
    assert len(want) >= 21, want
    assert [cells(r) for r in readme_rows()] == [cells(r) for r in want]
