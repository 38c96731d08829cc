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


def test_explain_score_heat_map():
    # fixtures/seeds/node-affinity-zones.yaml's header: north fails
    # NodeAffinity; NodeAffinity scores east 100 x weight 2 = 200, west 0;
    # east and west are alike otherwise (same allocatable, no pods), so
    # east's total is west's + 200 and east alone is viable.  The page as
    # written (its colours are inline styles: no browser needed)
    dom = browser.parse(kso("explain", FIX / "seeds/node-affinity-zones.yaml",
                            "-o", "html").decode())
    col = column(dom, "NodeAffinity \u00d72")
    east, west = matrix_row(dom, "east"), matrix_row(dom, "west")
    assert cells(east)[col].text() == "200" and cells(west)[col].text() == "0"
    # the heat: the column's largest deepest, 0 palest
    assert "hsl(212,80%,62%)" in cells(east)[col].attrs["style"]
    assert "hsl(212,80%,97%)" in cells(west)[col].attrs["style"]
    total = column(dom, "total")
    assert int(cells(east)[total].text()) - int(cells(west)[total].text()) \
        == 200
    assert "viable" in east.classes() and "viable" not in west.classes()
    north = matrix_row(dom, "north")
    assert cells(north)[total].text() == ""
    assert "uau" in cells(north)[column(dom, "NodeAffinity")].classes()


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


def big_cluster(path):
    """5,000 nodes: 4,000 small-NNNN (cpu 1), 990 tainted-NNNN (cpu 4,
    dedicated=gpu:NoSchedule), 10 big-NN (cpu 4), in that order; one
    pending pod web (cpu 2, no toleration).
    By hand: the small nodes fail NodeResourcesFit alone (Insufficient
    cpu, Unschedulable), the tainted ones TaintToleration alone
    (UnschedulableAndUnresolvable); the 10 big nodes are feasible and
    identical, so they score alike and all 10 are viable."""
    docs = []

    def node(name, cpu, taint=False):
        spec = ("spec:\n  taints:\n  - {key: dedicated, value: gpu, "
                "effect: NoSchedule}\n") if taint else ""
        docs.append(f"apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n"
                    f"  labels: {{kubernetes.io/hostname: {name}}}\n{spec}"
                    f"status:\n  allocatable: {{cpu: \"{cpu}\", memory: 8Gi, "
                    f"pods: \"110\"}}\n")
    for i in range(4000):
        node(f"small-{i:04d}", 1)
    for i in range(990):
        node(f"tainted-{i:04d}", 4, True)
    for i in range(10):
        node(f"big-{i:02d}", 4)
    docs.append("apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: "
                "default}\nspec:\n  containers:\n  - {name: c, image: x, "
                "resources: {requests: {cpu: \"2\"}}}\n")
    path.write_text("---\n".join(docs))


def test_explain_5000_nodes_viable_and_nearest_first_rest_folded(tmp_path):
    big_cluster(tmp_path / "big.yaml")
    p = page(tmp_path, "big", "explain", tmp_path / "big.yaml")
    # a few MB at most (the matrix is drawn for the nearest nodes only)
    assert p.stat().st_size < 3 << 20
    dom = browser.parse(browser.dump_dom(p))
    rows = dom.find("table", id="matrix").find("tbody").find_all("tr")
    names = [r.attrs["data-node"] for r in rows]
    # viable first, then the nearest: Unschedulable (one filter failing,
    # preemption may help) before UnschedulableAndUnresolvable
    assert names[:10] == [f"big-{i:02d}" for i in range(10)]
    assert all("viable" in r.classes() for r in rows[:10])
    assert names[10:] == [f"small-{i:04d}" for i in range(len(names) - 10)]
    assert len(names) < 100
    folded = dom.find("details", id="folded")
    rest = [cells(r)[0].text() for r in folded.find("tbody").find_all("tr")]
    assert len(rest) == 5000 - len(names)
    assert rest[0] == f"small-{len(names) - 10:04d}"
    assert rest[-990:] == [f"tainted-{i:04d}" for i in range(990)]
    assert cells(folded.find("tbody").find_all("tr")[-1])[-1].text() == \
        "rejected by TaintToleration: node(s) had untolerated taint " \
        "{dedicated: gpu}"
    body = dom.find("body")
    assert body.attrs["data-overflow"] == "0", body.attrs["data-overflow-cells"]
    assert int(body.attrs["data-page-width"]) <= browser.WIDTH


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


# --------------------------------------------------------------- check

@pytest.fixture(scope="module")
def check_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("check")
    p = page(tmp, "check", "check", FIX / "check/watch-log.jsonl", ok=(1,))
    return p, browser.parse(browser.dump_dom(p)), tmp


def test_check_screenshot_is_a_page(check_page):
    p, _, tmp = check_page
    browser.assert_seen(browser.screenshot(p, tmp / "check.png"))


def test_check_findings_first_with_expected_and_observed(check_page):
    # fixtures/check/watch-log.md: 4 decisions; web-2 bound to n1 is
    # not-viable (viable n2), web-3 bound to n3 infeasible (the taint);
    # web-1's bind and batch's unschedulable are ok
    _, dom, _ = check_page
    findings = dom.find_all("details", cls="finding")
    assert [f.attrs["data-seq"] for f in findings] == ["2", "3"]
    assert [f.find("span", cls="badge").text() for f in findings] == \
        ["not-viable", "infeasible"]
    # the findings come before the table of every decision
    text = dom.find("body").text()
    assert text.index("default/web-2: bind n1") < text.index("Every decision")
    web2 = findings[0].find("table", cls="compare")
    observed, expected = cells(web2.find("tbody").find("tr"))
    assert observed.text() == "bind on n1"
    assert expected.text() == "viable: n2feasible: n1, n2"
    assert "TaintToleration: node(s) had untolerated taint {dedicated: gpu}" \
        in findings[1].text()
    marks = dom.find("svg", id="strip").find_all("rect")
    assert [m.attrs["fill"] for m in marks] == \
        ["#16a34a", "#dc2626", "#dc2626", "#16a34a"]
    summary = dom.find(id="summary").text()
    assert "decisions 4" in summary and "ok 2 (with lag 0)" in summary
    rows = dom.find("table", id="decisions").find("tbody").find_all("tr")
    assert [cells(r)[4].text() for r in rows] == \
        ["ok", "not-viable", "infeasible", "ok"]
    body = dom.find("body")
    assert body.attrs["data-overflow"] == "0", body.attrs["data-overflow-cells"]


# -------------------------------------------------------------- report

UNIVERSES = FIX / "universes"


@pytest.fixture(scope="module")
def report_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    db = tmp / "g.db"
    kso("enum", UNIVERSES / "greedy-gpu.yaml", "--mode", "reachable",
        "--greedy-gap", "--db", db, "--quiet")
    p = page(tmp, "report", "report", db)
    return p, browser.parse(browser.dump_dom(p)), tmp, db


def test_report_screenshot_is_a_page(report_page):
    p, _, tmp, _ = report_page
    browser.assert_seen(browser.screenshot(p, tmp / "report.png"))


def test_report_plan_totals_and_kinds(report_page):
    # greedy-gpu's header: 3 states, 2 decisions, one greedy-gap finding
    _, dom, _, _ = report_page
    run = cells(dom.find("table", id="runs").find("tbody").find("tr"))
    assert [c.text() for c in run[:3]] == ["1", "greedy-gpu", "reachable"]
    assert "greedy-gap=on" in run[3].text()
    assert [c.text() for c in run[5:8]] == ["1 / 1", "3 (3)", "2"]
    kinds = dom.find("table", id="kinds").find("tbody").find_all("tr")
    assert [[c.text() for c in cells(r)][:2] for r in kinds] == \
        [["greedy-gap", "1"]]


def test_report_draws_the_findings_trace(report_page):
    # the trace by hand: both pending; web binds n-gpu (124 > 99); trainer
    # unschedulable (no cpu left on n-gpu, no GPU on n-cpu)
    _, dom, _, _ = report_page
    issue = dom.find("details", cls="issue")
    cards = issue.find("div", cls="trace").find_all("div", cls="card")
    heads = [c.find("div", cls="cardhead").text() for c in cards]
    assert heads == ["start: every pod pending",
                     "step 1: default/web bind n-gpu",
                     "step 2: default/trainer unschedulable"]
    def boxes(card):
        return {b.find("span", cls="nodename").text():
                [c.text() for c in b.find_all("span", cls="chip")]
                for b in card.find_all("div", cls="nodebox")}
    assert boxes(cards[0]) == {"n-cpu": [], "n-gpu": [],
                               "pending": ["default/web", "default/trainer"]}
    assert boxes(cards[1]) == {"n-cpu": [], "n-gpu": ["default/web"],
                               "pending": ["default/trainer"]}
    # the step's node and pod highlighted
    hl = cards[1].find("div", cls="hl")
    assert hl.find("span", cls="nodename").text() == "n-gpu"
    assert cards[1].find("span", cls="hl").text() == "default/web"
    assert cards[2].find("span", cls="hl").text() == "default/trainer"
    # the minimized scenario: both nodes and both pods are needed
    scenario = issue.find("details", cls="scenario").text()
    for name in ("name: n-cpu", "name: n-gpu", "name: web", "name: trainer"):
        assert name in scenario
    body = dom.find("body")
    assert body.attrs["data-overflow"] == "0", body.attrs["data-overflow-cells"]


def test_report_json_is_the_same_tree(report_page):
    _, _, _, db = report_page
    doc = json.loads(kso("report", db, "-o", "json"))
    assert [r["id"] for r in doc["runs"]] == [1]
    assert doc["kinds"] == {"greedy-gap": 1}
    (f,) = doc["findings"]
    assert [(s["action"], s["pod"], s["node"]) for s in f["trace"]] == [
        ("start", "", ""), ("bind", "default/web", "n-gpu"),
        ("unschedulable", "default/trainer", "")]
    assert [(s["scenario"], s["states"]) for s in doc["scenarios"]] == [(0, 3)]


def test_report_quirk_answers_side_by_side(tmp_path):
    # quirk-ports' header: the two visible states, v1.30 preempts low on n1
    # where, ports-set-removal off, the pod is unschedulable
    db = tmp_path / "q.db"
    kso("enum", UNIVERSES / "quirk-ports.yaml", "--compare-quirks", "--db", db,
        "--quiet", ok=(1,))
    doc = json.loads(kso("report", db, "-o", "json"))
    assert doc["kinds"] == {"nominated-feasible": 2, "quirk-visible": 2}
    assert [q["answers"] for q in doc["quirk_visible"]] == [[
        {"label": "v1.30", "decision": "preempt on n1 evicting low"},
        {"label": "ports-set-removal off", "decision": "unschedulable"}]] * 2
    html = browser.parse(kso("report", db).decode())
    rows = html.find("table", id="quirks").find_all("table", cls="side")
    assert [[h.text() for h in t.find_all("th")] for t in rows] == \
        [["v1.30", "ports-set-removal off"]] * 2
    assert [[d.text() for d in t.find_all("td")] for t in rows] == \
        [["preempt on n1 evicting low", "unschedulable"]] * 2
    # a placements state is drawn as itself: (low, keeper) placed with
    # urgent to schedule, and (low, urgent) with keeper
    states = {(s["pod"], tuple(s["nodes"][0]["pods"]), tuple(s["pending"]))
              for f in doc["findings"] for s in f["trace"]}
    assert states == {
        ("default/urgent", ("default/low", "default/keeper"), ("default/urgent",)),
        ("default/keeper", ("default/low", "default/urgent"), ("default/keeper",))}
    assert all(len(f["trace"]) == 1 and f["trace"][0]["action"] == "decide"
               for f in doc["findings"])
    card = html.find("div", cls="card")
    assert card.find("span", cls="hl").text() in ("default/urgent",
                                                   "default/keeper")
    # the two stored states' decisions (urgent's and keeper's cycle, each
    # with the other holder of hostPort 9000 on n1): NodePorts rejects n1
    assert doc["rejections"] == {"states": 2, "of": 2,
                                 "plugins": {"NodePorts": 2}}
    rows = html.find("table", id="rejections").find("tbody").find_all("tr")
    assert [[c.text() for c in cells(r)][:2] for r in rows] == \
        [["NodePorts", "2"]]


def test_report_rejections_over_every_stored_state(tmp_path):
    # --store all keeps quirk-ports' 8 states, 7 with a decision (all three
    # pods placed: none).  The pending pod's hostPort 9000 is held on n1 by
    # a placed pod in each but the first (nothing placed: keeper binds):
    # NodePorts rejects n1 in 6 cycles, no other plugin anything
    db = tmp_path / "all.db"
    kso("enum", UNIVERSES / "quirk-ports.yaml", "--store", "all", "--db", db,
        "--quiet", ok=(1,))
    doc = json.loads(kso("report", db, "-o", "json"))
    assert doc["rejections"] == {"states": 7, "of": 7,
                                 "plugins": {"NodePorts": 6}}


def test_report_bad_database_prints_only_its_error(tmp_path):
    bad = tmp_path / "not.db"
    bad.write_text("not a database")
    p = subprocess.run([KSO, "report", str(bad)], capture_output=True,
                       timeout=60)
    assert p.returncode == 1 and p.stdout == b""
    assert p.stderr.decode().startswith("kso report: ")


def test_html_and_compare_versions_is_a_usage_error():
    p = subprocess.run([KSO, "explain", str(FIX / "html/explain-three-nodes.yaml"),
                        "--compare-versions", "1.30,1.34", "-o", "html"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("kso explain: -o html draws one explanation: "
                               "no --compare-versions\n")


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
    # markup characters as entities, quotes too (the one escaping function
    # also writes attribute values)
    assert "&lt;script&gt;alert(&quot;kso&quot;)&lt;/script&gt;" in raw
    assert "&#39;q&#39; &amp; " in raw
    assert "<script>alert" not in raw
    dom = browser.parse(browser.dump_dom(p))
    # after load: kso's one script and the probe's, no img, no handler
    assert len(dom.find_all("script")) == 2
    assert not dom.find_all("img")
    assert not [e for e in dom.iter() if any(a.startswith("on") for a in e.attrs)]
    text = dom.find("body").text()
    assert '<script>alert("kso")</script><img src=x onerror=alert(1)> ' \
        "'q' & \\u202Eevil\\u202C \\u200D\\u0007\\u009B end" in text


def test_report_version_answers_side_by_side(tmp_path):
    # versions-fit's header: 3 version-visible states - 'none' and 'low'
    # show fit-unresolvable and dra-postfilter, 'big' dra-postfilter only;
    # both releases call each decision unschedulable
    db = tmp_path / "v.db"
    kso("enum", UNIVERSES / "versions-fit.yaml", "--compare-versions", "1.30,1.34",
        "--db", db, "--quiet")
    doc = json.loads(kso("report", db, "-o", "json"))
    rows = [{a["label"]: a["decision"] for a in v["answers"]}
            for v in doc["version_visible"]]
    assert sorted(r["delta items"] for r in rows) == [
        "dra-postfilter", "fit-unresolvable dra-postfilter",
        "fit-unresolvable dra-postfilter"]
    for r in rows:
        assert list(r) == ["delta items", "v1.30", "v1.34", "first difference"]
        assert r["v1.30"].startswith("unschedulable (") and \
            r["v1.34"].startswith("unschedulable (")
        assert "no new claims to deallocate" in r["v1.34"]
        assert "no new claims to deallocate" not in r["v1.30"]
    html = browser.parse(kso("report", db).decode())
    tables = html.find("table", id="versions").find_all("table", cls="side")
    assert [[h.text() for h in t.find_all("th")] for t in tables] == \
        [["delta items", "v1.30", "v1.34", "first difference"]] * 3
