"""
test_enum_reachable_dra.py - reachable mode with ResourceClaims (kube
v1.34.1, issue 35): the claims' status (allocation, reservedFor) is part of
a state, the loop's bind, eviction and deallocation write it, and a stored
state exports and replays with it.  Every figure is worked out by hand in
the universes' headers (fixtures/universes/dra-reach-gpu.yaml,
dra-reach-shared.yaml).
"""
import json
import sqlite3
import subprocess

from conftest import FIXTURES, KSO

GPU = FIXTURES / "universes" / "dra-reach-gpu.yaml"
SHARED = FIXTURES / "universes" / "dra-reach-shared.yaml"


def kso(*args):
    return subprocess.run([KSO, *map(str, args)], capture_output=True,
                          text=True, timeout=600)


def reach(universe, db, *more):
    r = kso("enum", universe, "--mode", "reachable", "--arrivals", "ordered",
            "--kube-version", "1.34", "--db", db, "--store", "all", *more)
    assert r.returncode == 0, r.stderr
    return r.stdout


def summary(out, key):
    """The first number of the summary line `key:` (raw count)."""
    for line in out.splitlines():
        if line.startswith(key + ":"):
            return int(line.split(":", 1)[1].split()[0])
    raise AssertionError(f"no {key} line in {out}")


def rows(db, sql, *args):
    con = sqlite3.connect(db)
    try:
        return con.execute(sql, args).fetchall()
    finally:
        con.close()


def state_id(db, placement):
    found = rows(db, "SELECT min(id) FROM states WHERE placement = ?", placement)
    assert found[0][0] is not None, placement
    return found[0][0]


def test_gpu_counts(tmp_path):
    # the header's S0-S25: 24 states, 4 final, 15 decisions, PostFilter
    # in 4, worse-final at S20 and S21
    db = tmp_path / "g.db"
    out = reach(GPU, db)
    assert summary(out, "states") == 24
    assert summary(out, "final states") == 4
    assert summary(out, "decisions") == 15
    assert summary(out, "disagreements") == 0
    assert summary(out, "violations") == 0
    assert summary(out, "preemptions") == 4
    worse = rows(db, "SELECT s.placement FROM findings f JOIN states s ON "
                 "s.id = f.state_id WHERE f.kind = 'worse-final' ORDER BY 1")
    assert worse == [("default/a=n1 default/b=- default/h=n2",),
                     ("default/a=n2 default/b=- default/h=n1",)]


def test_gpu_preempts_only_the_pod_without_a_claim(tmp_path):
    # S18: a@n1 holds n1's device, b@n2 holds only cpu; h preempts b on
    # n2, never a (the dry run keeps a's device in use)
    db = tmp_path / "g.db"
    reach(GPU, db)
    pre = rows(db, "SELECT s.placement, p.kube_node, p.kube_victims, "
               "p.minimal_node, p.minimal_victims FROM preemptions p JOIN "
               "states s ON s.id = p.state_id WHERE p.kube_node != '-' "
               "ORDER BY 1")
    assert pre == [
        ("default/a=n1 default/b=n2 default/h=-", "n2", "default/b", "n2",
         "default/b"),
        ("default/a=n2 default/b=n1 default/h=-", "n1", "default/b", "n1",
         "default/b")]


def test_gpu_claims_in_the_state(tmp_path):
    # S10 (a@n1, h arrives later) and S15 (h@n2 first, then a@n1) are one
    # state: the same placement and the same claims (a-gpu on n1 for a,
    # h-gpu on n2 for h) - stored once
    db = tmp_path / "g.db"
    reach(GPU, db)
    same = rows(db, "SELECT count(DISTINCT s.id) FROM states s WHERE "
                "s.placement = 'default/a=n1 default/b=- default/h=n2' AND "
                "s.id IN (SELECT state_id FROM decisions)")
    assert same == [(1,)]
    final = state_id(db, "default/a=n1 default/b=x default/h=n2")
    r = kso("export", db, final)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    # a-gpu: gpu-0 of pool n1, node selector n1, reserved for a
    a = text[text.index("name: a-gpu"):]
    a = a[:a.index("---")]
    for want in ('pool: "n1"', 'device: "gpu-0"', '- "n1"', 'name: "a"',
                 'uid: "uid-a"'):
        assert want in a, a
    h = text[text.index("name: h-gpu"):]
    for want in ('pool: "n2"', '- "n2"', 'name: "h"'):
        assert want in h, h
    # b was evicted: not in the export
    assert "name: b\n" not in text


def test_shared_counts(tmp_path):
    # the header's S0-S16: 17 states, 3 final, 11 decisions, PostFilter
    # in 5, worse-final at S10 and S16
    db = tmp_path / "s.db"
    out = reach(SHARED, db)
    assert summary(out, "states") == 17
    assert summary(out, "final states") == 3
    assert summary(out, "decisions") == 11
    assert summary(out, "disagreements") == 0
    assert summary(out, "preemptions") == 5
    worse = rows(db, "SELECT DISTINCT s.placement FROM findings f JOIN "
                 "states s ON s.id = f.state_id WHERE f.kind = 'worse-final' "
                 "ORDER BY 1")
    assert worse == [("default/s1=- default/s2=- default/h=n1",),
                     ("default/s1=x default/s2=- default/h=n1",)]


def status_of(text, claim):
    """The ResourceClaim manifest `claim` of an export, as text."""
    part = text[text.index(f"name: {claim}\n"):]
    return part[:part.index("---")] if "---" in part else part


def test_shared_second_pod_joins_the_allocation(tmp_path):
    # S5: s1 and s2 on n1, the claim allocated once (gpu-0 of n1) and
    # reserved for s1, then s2
    db = tmp_path / "s.db"
    reach(SHARED, db)
    s5 = state_id(db, "default/s1=n1 default/s2=n1 default/h=?")
    r = kso("export", db, s5)
    assert r.returncode == 0, r.stderr
    st = status_of(r.stdout, "shared")
    assert st.count('device: "gpu-0"') == 1, st
    assert st.index('name: "s1"') < st.index('name: "s2"'), st


def test_shared_deallocated_when_its_pods_are_evicted(tmp_path):
    # S11: h evicted s1 and s2; the claim reserved for no pod is
    # deallocated: exported without a status, as loaded
    db = tmp_path / "s.db"
    reach(SHARED, db)
    s11 = state_id(db, "default/s1=x default/s2=x default/h=-(>n1)")
    r = kso("export", db, s11)
    assert r.returncode == 0, r.stderr
    assert "status" not in status_of(r.stdout, "shared")
    # S8: s1 evicted alone (it was the only consumer): deallocated too;
    # s2, pending, then may allocate gpu-0 again - explain of the export
    s8 = state_id(db, "default/s1=x default/s2=- default/h=-(>n1)")
    r = kso("export", db, s8)
    assert "status" not in status_of(r.stdout, "shared")


def test_shared_export_explains(tmp_path):
    # S4: s1@n1 holds the claim; s2, pending, may share it: n1 feasible
    db = tmp_path / "s.db"
    reach(SHARED, db)
    s4 = state_id(db, "default/s1=n1 default/s2=- default/h=?")
    out = tmp_path / "s4.yaml"
    r = kso("export", db, s4, "--out", out)
    assert r.returncode == 0, r.stderr
    for engine in ("model", "oracle"):
        r = kso("explain", out, "--pod", "default/s2", "--kube-version",
                "1.34", "--engine", engine, "-o", "json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["viable"] == ["n1"]


def test_itf_of_a_state_with_claims_replays(tmp_path):
    # the shortest way to S12 (h bound after evicting both sharers), the
    # first found breadth-first (a state's arrival is tried before its
    # scheduling step): s1 and s2 arrive, s1 binds, s2 binds (joins the
    # claim), h arrives, preempts s1 and s2 (the claim deallocated), h
    # binds - and kso replay agrees step by step
    db = tmp_path / "s.db"
    reach(SHARED, db)
    s12 = state_id(db, "default/s1=x default/s2=x default/h=n1")
    itf = tmp_path / "s12.itf.json"
    r = kso("export", db, s12, "--itf", "--out", itf)
    assert r.returncode == 0, r.stderr
    trace = json.loads(itf.read_text())
    assert [s["mbt::actionTaken"] for s in trace["states"]] == [
        "init", "arrive", "arrive", "bind", "bind", "arrive", "preempt",
        "bind"]
    # each state carries the claims' status: after s2's bind the claim
    # holds gpu-0 of n1 for s1, then s2; after the preemption, nothing
    claims = [s["claims"]["#map"] for s in trace["states"]]
    assert claims[4] == [["default/shared", {
        "allocated": True, "devices": ["gpu.example.com/n1/gpu-0"],
        "reservedFor": ["default/s1", "default/s2"]}]]
    assert claims[6] == [["default/shared", {
        "allocated": False, "devices": [], "reservedFor": []}]]
    r = kso("replay", itf)
    assert r.returncode == 0, r.stdout + r.stderr
    # a trace whose claims the loop does not reach is a difference
    claims[4][0][1]["reservedFor"].reverse()
    bad = tmp_path / "bad.itf.json"
    bad.write_text(json.dumps(trace))
    r = kso("replay", bad)
    assert r.returncode == 1, r.stdout + r.stderr
    assert ('the claims after it: the trace has "default/shared: allocated '
            '[gpu.example.com/n1/gpu-0] reservedFor [default/s2 default/s1]", '
            'the engine "default/shared: allocated [gpu.example.com/n1/gpu-0] '
            'reservedFor [default/s1 default/s2]"') in r.stdout, r.stdout


def test_symmetry_changes_nothing_here(tmp_path):
    # the slices name n1 and n2: no node is interchangeable, so
    # --no-symmetry stores the same states
    a, b = tmp_path / "a.db", tmp_path / "b.db"
    reach(GPU, a)
    reach(GPU, b, "--no-symmetry")
    q = ("SELECT s.placement, coalesce(c.status, '') FROM states s LEFT JOIN "
         "claims c ON c.state_id = s.id ORDER BY 1, 2")
    assert rows(a, q) == rows(b, q)


DEALLOC = FIXTURES / "universes" / "dra-reach-dealloc.yaml"


def test_postfilter_deallocation_is_a_step(tmp_path):
    # the header's S0-S2: S0's PostFilter deallocates old, S1 (the same
    # placement, old unallocated) binds p to n1
    db = tmp_path / "d.db"
    r = kso("enum", DEALLOC, "--mode", "reachable", "--kube-version", "1.34",
            "--db", db, "--store", "all")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout, "states") == 3
    assert summary(r.stdout, "final states") == 1
    assert summary(r.stdout, "decisions") == 2
    assert rows(db, "SELECT s.depth, s.placement, d.model_viable FROM states s "
                "JOIN decisions d ON d.state_id = s.id ORDER BY s.depth") == [
        (0, "default/p=-", ""), (1, "default/p=-", "n1")]


def universe(tmp_path, manifests):
    path = tmp_path / "u.yaml"
    path.write_text("kind: Universe\nname: u\n---\n" + manifests)
    return path


def test_a_random_deallocation_is_followed_each_way(tmp_path):
    # tests/test_dra_engines.py's case: p's claims a and b are both
    # allocated for n2 (no such node) and reserved for no pod; n1 has no
    # ResourceSlice.  S0: n1 "resourceclaim not available on the node";
    # PostFilter deallocates a or b, picked by a Go map's order (kso
    # schedule stops there): reachable mode follows both.  S1 (a
    # deallocated) and S2 (b) have one placement and one queue (p
    # re-queued by its claim's change) and differ in the claims alone.
    # S1: kube's Filter runs the allocator for a first - no slice:
    # "cannot allocate all claims", returned before b's unavailability is
    # recorded - so PostFilter finds nothing to deallocate ("still not
    # schedulable"); p waits: S3.  S2 likewise: S4.  5 states, 2 final,
    # 3 decisions, PostFilter in each.
    from test_dra_engines import CLASS, ON_N2, claim, pod
    path = universe(tmp_path, CLASS + claim("a", ON_N2) + claim("b", ON_N2) +
                    pod("p", "a", "b"))
    db = tmp_path / "r.db"
    r = kso("enum", path, "--mode", "reachable", "--kube-version", "1.34",
            "--db", db, "--store", "all")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout, "states") == 5
    assert summary(r.stdout, "final states") == 2
    assert summary(r.stdout, "decisions") == 3
    assert summary(r.stdout, "preemptions") == 3
    assert summary(r.stdout, "disagreements") == 0
    # the claims' words (store.c): per claim allocation (1 as loaded, 0
    # none), node -1, 0 results, 0 reservedFor
    got = rows(db, "SELECT s.depth, c.status FROM states s JOIN claims c ON "
               "c.state_id = s.id JOIN decisions d ON d.state_id = s.id "
               "ORDER BY 1, 2")
    assert got == [(0, "1,-1,0,0,1,-1,0,0"), (1, "0,-1,0,0,1,-1,0,0"),
                   (1, "1,-1,0,0,0,-1,0,0")]


def test_devices_picked_in_map_order_are_followed_each_way(tmp_path):
    # tests/test_dra_engines.py's case (kso schedule stops there): n1 holds
    # gpu-0 of pool p1 and gpu-0 of pool p2, a and b each ask for one
    # device.  S0: a first, n1 fits; kube's allocator walks the pools in a
    # Go map's order, so a's claim gets p1's device (S1) or p2's (S2) - one
    # placement, two states.  S1: b gets the other one, the only free
    # device (S3); S2 likewise (S4).  5 states, 2 final, 3 decisions.
    from test_dra_engines import CLASS, claim, pod, slice_
    path = universe(tmp_path, CLASS + slice_("p1") + slice_("p2") +
                    claim("a-gpu") + claim("b-gpu") + pod("a", "a-gpu") +
                    pod("b", "b-gpu"))
    db = tmp_path / "r.db"
    r = kso("enum", path, "--mode", "reachable", "--kube-version", "1.34",
            "--db", db, "--store", "all")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout, "states") == 5
    assert summary(r.stdout, "final states") == 2
    assert summary(r.stdout, "decisions") == 3
    assert summary(r.stdout, "disagreements") == 0
    # the final states: a's claim on p1's device and b's on p2's, or the
    # other way round (slices p1 = 0, p2 = 1 in the claims' words)
    finals = rows(db, "SELECT c.status FROM states s JOIN claims c ON "
                  "c.state_id = s.id WHERE s.placement = "
                  "'default/a=n1 default/b=n1' ORDER BY 1")
    assert finals == [("2,0,1,0,0,0,0,-1,1,0,2,0,1,1,0,0,0,-1,1,1",),
                      ("2,0,1,1,0,0,0,-1,1,0,2,0,1,0,0,0,0,-1,1,1",)]
    # one pool: the device order decides - 3 states (b waits, nothing left)
    path = universe(tmp_path, CLASS + slice_("p1") + claim("a-gpu") +
                    claim("b-gpu") + pod("a", "a-gpu") + pod("b", "b-gpu"))
    r = kso("enum", path, "--mode", "reachable", "--kube-version", "1.34",
            "--db", tmp_path / "s.db", "--quiet")
    assert r.returncode == 0, r.stderr
    assert summary(r.stdout, "states") == 3


def test_too_many_pool_orders_are_refused(tmp_path):
    # six pools on n1 (6! = 720 orders, more than the 120 kso tries): a's
    # devices may be any pool's, and b, still to schedule, would see the
    # rest - kso cannot list kube's picks, so the search stops (exit 3)
    from test_dra_engines import CLASS, claim, pod, slice_
    pools = "".join(slice_("p%d" % i) for i in range(6))
    path = universe(tmp_path, CLASS + pools + claim("a-gpu") + claim("b-gpu") +
                    pod("a", "a-gpu") + pod("b", "b-gpu"))
    r = kso("enum", path, "--mode", "reachable", "--kube-version", "1.34",
            "--db", tmp_path / "r.db", "--quiet")
    assert r.returncode == 3, r.stderr
    assert r.stderr.startswith(
        "reachable mode stops at a state it cannot judge (state 0, depth 0): "
        "pod default/a bound to n1: the devices kube's allocator picks there")


def test_a_claim_reserved_for_256_is_refused(tmp_path):
    # shared is allocated on n1 and reserved for 256 consumers already (the
    # API server's limit): p's PreBind would fail, a path kso's loop has
    # not - the search stops before p's cycle (exit 3)
    from test_dra_engines import CLASS, claim, pod, slice_
    many = "".join("    - {resource: pods, name: x%03d, uid: u%03d}\n" % (i, i)
                   for i in range(256))
    status = ("status:\n  allocation:\n    devices:\n      results:\n"
              "      - {request: gpu, driver: gpu.example.com, pool: n1, "
              "device: gpu-0}\n  reservedFor:\n" + many)
    path = universe(tmp_path, CLASS + slice_("n1") + claim("shared", status) +
                    pod("p", "shared"))
    r = kso("enum", path, "--mode", "reachable", "--kube-version", "1.34",
            "--db", tmp_path / "r.db", "--quiet")
    assert r.returncode == 3, r.stderr
    assert r.stderr == (
        "reachable mode stops at a state it cannot judge (state 0, depth 0): "
        "pod default/p: its claim default/shared is reserved for 256 pods "
        "already, the API server's limit: kube's PreBind would fail to add it "
        "and the binding with it, which kso's loop does not model\n")


def test_merge_keeps_the_claims(tmp_path):
    # kso merge copies each state's claims with it: the merged database
    # exports the same state the same way.  19 rows: the 17 states, the
    # two worse-final ones stored again with their finding (--store all
    # stores a state at its visit, a worse-final at the end)
    db, out = tmp_path / "s.db", tmp_path / "all.db"
    reach(SHARED, db)
    r = kso("merge", db, "--out", out)
    assert r.returncode == 0, r.stderr
    q = ("SELECT s.placement, c.status FROM states s JOIN claims c ON "
         "c.state_id = s.id ORDER BY 1, 2")
    assert rows(out, q) == rows(db, q) and len(rows(db, q)) == 19
    s5 = "default/s1=n1 default/s2=n1 default/h=?"
    a = kso("export", db, state_id(db, s5))
    b = kso("export", out, state_id(out, s5))
    strip = lambda t: [l for l in t.splitlines() if not l.startswith("#")]
    assert a.returncode == b.returncode == 0
    assert strip(a.stdout) == strip(b.stdout)


def test_export_of_pods_without_uid(tmp_path):
    # dra-reach-shared without the pods' uids: S4's claim is reserved for
    # s1 by the loop; the export names s1 by kso's stand-in uid
    # (kso-default-s1), written into s1's manifest too, so that it loads
    # and s2 still finds the claim shareable - n1 viable, as with uids
    text = SHARED.read_text().replace(", uid: uid-s1", "").replace(
        ", uid: uid-s2", "")
    path = tmp_path / "nouid.yaml"
    path.write_text(text)
    db = tmp_path / "n.db"
    reach(path, db)
    s4 = state_id(db, "default/s1=n1 default/s2=- default/h=?")
    out = tmp_path / "s4.yaml"
    r = kso("export", db, s4, "--out", out)
    assert r.returncode == 0, r.stderr
    assert out.read_text().count("kso-default-s1") == 2
    for engine in ("model", "oracle"):
        r = kso("explain", out, "--pod", "default/s2", "--kube-version",
                "1.34", "--engine", engine, "-o", "json")
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout)["viable"] == ["n1"]
