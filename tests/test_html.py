"""The -o html reports as a person sees them (issue 39): each page is
rendered by headless Chromium (tests/browser.py), screenshotted at
1280x900 and checked to be non-blank, and its DOM after load is read for
what a reader must see.  The expected values are kube's answers worked
out by hand in each fixture's header, never kso's own output.

The browser is slow and the machine shared: a page is rendered once per
module (the fixtures below) and every assertion reads that one DOM.
"""
import json
import os
import pathlib
import subprocess

import pytest

import browser

ROOT = pathlib.Path(__file__).resolve().parent.parent
KSO = os.environ.get("KSO", str(ROOT / "kso"))
FIX = ROOT / "fixtures"


def kso(*args, ok=(0,)):
    p = subprocess.run([KSO, *map(str, args)], capture_output=True,
                       timeout=300)
    assert p.returncode in ok, p.stderr.decode(errors="replace")
    return p.stdout


def page(tmp, name, *args, ok=(0,)):
    """kso ARGS -o html into tmp/name.html; the path."""
    out = pathlib.Path(tmp) / f"{name}.html"
    out.write_bytes(kso(*args, "-o", "html", ok=ok))
    return out


def cells(row):
    return row.find_all("td")


def matrix_row(dom, node):
    return dom.find("table", id="matrix").find("tr", data_node=node)


def column(dom, title):
    """The index of the matrix column headed title among a row's cells."""
    heads = [h.text() for h in dom.find("table", id="matrix")
             .find_all("tr")[1].find_all("th")]
    return 1 + heads.index(title)   # cell 0 is the node's name


# ------------------------------------------------------------- explain

@pytest.fixture(scope="module")
def explain_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("explain")
    p = page(tmp, "explain", "explain", FIX / "html/explain-three-nodes.yaml")
    return p, browser.parse(browser.dump_dom(p)), tmp


def test_explain_screenshot_is_a_page(explain_page):
    p, _, tmp = explain_page
    browser.assert_seen(browser.screenshot(p, tmp / "explain.png"))


def test_explain_marks_the_viable_node(explain_page):
    # fixture header: big-1 is the one feasible node, hence viable
    _, dom, _ = explain_page
    row = matrix_row(dom, "big-1")
    assert "viable" in row.classes()
    assert "viable" in cells(row)[-1].text()
    assert dom.find(id="viable").text().endswith("big-1")
    for other in ("gpu-1", "small-1"):
        assert "viable" not in matrix_row(dom, other).classes()
    # viable first, then the closest to feasible: Unschedulable (small-1)
    # before UnschedulableAndUnresolvable (gpu-1)
    rows = dom.find("table", id="matrix").find("tbody").find_all("tr")
    assert [r.attrs["data-node"] for r in rows] == ["big-1", "small-1", "gpu-1"]


def test_explain_shows_the_rejecting_plugins_reason(explain_page):
    _, dom, _ = explain_page
    small = matrix_row(dom, "small-1")
    fit = cells(small)[column(dom, "NodeResourcesFit")]
    assert "unsched" in fit.classes()
    assert "Insufficient cpu" in fit.attrs["title"]
    assert "Insufficient cpu" in fit.find("details").text()
    assert cells(small)[-1].text() == \
        "rejected by NodeResourcesFit: Insufficient cpu"
    gpu = matrix_row(dom, "gpu-1")
    taint = cells(gpu)[column(dom, "TaintToleration")]
    assert "uau" in taint.classes()
    assert "node(s) had untolerated taint {dedicated: gpu}" in \
        taint.attrs["title"]
    # every other filter passed on gpu-1, and all on big-1
    passed = [c for c in cells(gpu)[1:-1] if "pass" in c.classes()]
    n_filters = len(json.loads(kso("explain", FIX / "html/explain-three-nodes.yaml",
                                   "-o", "json"))["filter_plugins"])
    assert len(passed) == n_filters - 1
    assert sum("pass" in c.classes() for c in cells(matrix_row(dom, "big-1"))) \
        == n_filters
    # one feasible node: no scores, no FitError
    assert not dom.find_all(id="message")


def test_explain_text_stays_in_its_cells_at_1280px(explain_page):
    _, dom, _ = explain_page
    body = dom.find("body")
    assert body.attrs["data-overflow"] == "0", body.attrs["data-overflow-cells"]
    assert int(body.attrs["data-page-width"]) <= browser.WIDTH


@pytest.fixture(scope="module")
def preemption_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("preempt")
    p = page(tmp, "preempt", "explain", FIX / "preemption/pdb-budgets.yaml",
             "--pod", "default/p")
    return browser.parse(browser.dump_dom(p))


def test_explain_preemption_criteria(preemption_page):
    # fixtures/preemption/pdb-budgets.yaml's header: candidates n2 (evict y,
    # 0 PDB violations) and n1 (evict x, 1 violation); key 1 of §3.5 picks
    # n2.  Both victims are priority 10 (PriorityClass low), one each.
    dom = preemption_page
    assert "FitError" in dom.find(id="message").text()
    assert "0/2 nodes are available: 2 Insufficient cpu." in \
        dom.find(id="message").text()
    assert dom.find(id="preempt-node").text() == "kube nominates n2"
    assert dom.find(id="victims").text() == "victims default/y"
    rows = dom.find("table", id="candidates").find("tbody").find_all("tr")
    got = [[c.text() for c in cells(r)] for r in rows]
    # earliest start: y started 2024-01-01T00:00:00Z = 1704067200, x five
    # minutes later
    assert got == [
        ["n2 chosen", "default/y", "0", "10", "10", "1", "1704067200"],
        ["n1", "default/x", "1", "10", "10", "1", "1704067500"]]
    assert "chosen" in rows[0].classes()


# ------------------------------------------------------------ schedule

@pytest.fixture(scope="module")
def schedule_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("schedule")
    p = page(tmp, "schedule", "schedule", FIX / "html/schedule-run.yaml")
    return p, browser.parse(browser.dump_dom(p)), tmp


def test_schedule_screenshot_is_a_page(schedule_page):
    p, _, tmp = schedule_page
    browser.assert_seen(browser.screenshot(p, tmp / "schedule.png"))


def test_schedule_timeline(schedule_page):
    # fixtures/html/schedule-run.yaml's header: urgent preempts low-b on n2
    # (§3.5 key 2), then binds n2; web stays pending
    _, dom, _ = schedule_page
    rows = dom.find("table", id="steps").find("tbody").find_all("tr")
    got = [[c.text() for c in cells(r)][:5] for r in rows]
    assert got == [
        ["1", "default/urgent", "preempt", "n2", "default/low-b"],
        ["2", "default/urgent", "bind (nominated node)", "n2", ""],
        ["3", "default/web", "unschedulable", "", ""]]
    marks = dom.find("svg", id="strip").find_all("rect")
    assert [m.attrs["fill"] for m in marks] == ["#d97706", "#16a34a", "#dc2626"]
    summary = dom.find(id="summary").text()
    for fact in ("steps 3", "bound 1", "pending 1", "evicted 1"):
        assert fact in summary


def test_schedule_pending_reason(schedule_page):
    _, dom, _ = schedule_page
    rows = dom.find("table", id="pending").find("tbody").find_all("tr")
    assert [[c.text() for c in cells(r)] for r in rows] == [[
        "default/web", "0/2 nodes are available: 2 Insufficient cpu. "
        "preemption: 0/2 nodes are available: 2 No preemption victims "
        "found for incoming pod."]]


def test_schedule_fill_before_and_after(schedule_page):
    # cpu 1500m -> 2 on n2 (low-b out, urgent in), 2 -> 2 on n1; one pod
    # on each before and after; no pod requests memory
    _, dom, _ = schedule_page
    table = dom.find("table", id="fill")
    heads = [h.text() for h in table.find_all("th")]
    assert heads == ["node", "cpu", "memory", "pods"]
    rows = table.find("tbody").find_all("tr")
    got = [[c.text() for c in cells(r)] for r in rows]
    assert got == [["n2", "1.5 \u2192 2 / 2", "0 \u2192 0 / 4Gi", "1 \u2192 1 / 110"],
                   ["n1", "2 \u2192 2 / 2", "0 \u2192 0 / 4Gi", "1 \u2192 1 / 110"]]
    # the bars: before 1500/2000 of 150 px, after full
    bars = cells(rows[0])[1].find_all("rect")
    assert [b.attrs["width"] for b in bars[1:]] == ["112.5", "150.0"]
    body = dom.find("body")
    assert body.attrs["data-overflow"] == "0", body.attrs["data-overflow-cells"]
    assert int(body.attrs["data-page-width"]) <= browser.WIDTH


# --------------------------------------------------------------- hostile

def test_hostile_text_is_inert(tmp_path):
    # the scheduler under test names itself and answers with a script tag,
    # an img with onerror, quotes, & and a right-to-left override, a
    # zero-width joiner, BEL and a C1 control (tests/impl/hostile.py)
    impl = f"/usr/bin/python3 {ROOT / 'tests/impl/hostile.py'}"
    p = page(tmp_path, "hostile", "explain",
             FIX / "html/explain-three-nodes.yaml", "--impl", impl, ok=(1,))
    raw = p.read_bytes().decode("utf-8")
    for ch in "\u202e\u202c\u200d\u0007\u009b":
        assert ch not in raw
    for shown in ("\\u202E", "\\u202C", "\\u200D", "\\u0007", "\\u009B"):
        assert shown in raw
    dom = browser.parse(browser.dump_dom(p))
    # after load: kso's one script and the probe's, no img, no handler
    assert len(dom.find_all("script")) == 2
    assert not dom.find_all("img")
    assert not [e for e in dom.iter() if any(a.startswith("on") for a in e.attrs)]
    text = dom.find("body").text()
    assert '<script>alert("kso")</script><img src=x onerror=alert(1)> ' \
        "'q' & \\u202Eevil\\u202C \\u200D\\u0007\\u009B end" in text
