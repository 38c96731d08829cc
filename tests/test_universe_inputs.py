"""
test_universe_inputs.py - hostile universe files (issue 33 N2 and the
leftovers): a config or manifest naming /dev/zero or /dev/urandom is
refused at the loader's 256 MiB cap instead of read for ever; a vary
path whose index is out of range is reported at its FILE:LINE:COL; two
dimensions of one name are refused.
"""
import subprocess

import pytest

from conftest import FIXTURES, KSO

CLUSTER = FIXTURES / "impl" / "cluster.yaml"


def enum(universe, tmp_path):
    return subprocess.run([KSO, "enum", str(universe), "--db",
                           str(tmp_path / "u.db"), "--quiet"],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("field,device", [("config", "/dev/zero"),
                                          ("manifests", "/dev/urandom"),
                                          ("manifests", "/dev/zero")])
def test_an_endless_file_is_refused_at_the_cap(tmp_path, field, device):
    u = tmp_path / "u.yaml"
    value = f"[{device}]" if field == "manifests" else device
    other = "" if field == "manifests" else f"manifests: [{CLUSTER}]\n"
    u.write_text(f"kind: Universe\nname: z\n{field}: {value}\n{other}")
    r = enum(u, tmp_path)       # the timeout: it used to hang
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == f"{device}: file too large (more than 256 MiB)\n"
    assert not (tmp_path / "u.db").exists()


def test_an_out_of_range_index_is_reported_at_its_place(tmp_path):
    # p has one container: containers[3] is past the end (a set may only
    # append at index 1)
    u = tmp_path / "u.yaml"
    u.write_text(f"kind: Universe\nname: z\nmanifests: [{CLUSTER}]\n"
                 "vary:\n"
                 "- name: image\n"
                 "  target: Pod/p\n"
                 "  path: spec.containers[3].image\n"
                 "  values: [a, b]\n")
    r = enum(u, tmp_path)
    assert r.returncode == 1
    assert r.stderr == (f"{u}:7:9: vary image: index [3] is out of range in "
                        "spec.containers[3].image (path)\n")


def test_duplicate_dimension_names_are_refused(tmp_path):
    u = tmp_path / "u.yaml"
    u.write_text(f"kind: Universe\nname: z\nmanifests: [{CLUSTER}]\n"
                 "vary:\n"
                 "- name: cpu\n"
                 "  target: Node/a\n"
                 "  path: status.allocatable.cpu\n"
                 "  values: ['1', '2']\n"
                 "- name: cpu\n"
                 "  target: Node/b\n"
                 "  path: status.allocatable.cpu\n"
                 "  values: ['1', '2']\n")
    r = enum(u, tmp_path)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"{u}:9:9: duplicate dimension name 'cpu' "
                        "(dimension 1 has it) (name)\n")


ROOM = ("kind: Universe\nname: room\n"
        "vary:\n"
        "- name: room\n"
        "  target: Node/x\n"
        "  path: status.allocatable.cpu\n"
        "  values: ['1', '0']\n"
        "  with:\n"
        "  - target: Node/y\n"
        "    path: status.allocatable.cpu\n"
        "    values: %s\n"
        "---\n"
        "apiVersion: v1\nkind: Node\nmetadata: {name: x}\n"
        "status: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n"
        "---\n"
        "apiVersion: v1\nkind: Node\nmetadata: {name: y}\n"
        "status: {allocatable: {cpu: '1', memory: 1Gi, pods: '10'}}\n"
        "---\n"
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: default}\n"
        "spec: {containers: [{name: c, image: i, resources: {requests: "
        "{cpu: '1'}}}]}\n")


def test_a_dimension_sets_its_with_fields_with_the_same_value(tmp_path):
    # value k of room sets x's cpu and, through `with`, y's: x has the
    # cpu in scenario 0 and y in scenario 1 - two scenarios, not the four
    # of two dimensions.  p (1 cpu) pending, placements p on x, on y or
    # pending: 3 states a scenario, 1 decision; the one node with room
    # is the feasible one
    import sqlite3
    u = tmp_path / "u.yaml"
    u.write_text(ROOM % "['0', '1']")
    db = tmp_path / "u.db"
    r = subprocess.run([KSO, "enum", str(u), "--db", str(db), "--quiet",
                        "--store", "all", "--no-symmetry"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    con = sqlite3.connect(db)
    assert con.execute("SELECT count(*) FROM states").fetchone() == (6,)
    got = sorted(con.execute("SELECT s.scenario, d.model_feasible FROM "
                             "decisions d JOIN states s ON s.id=d.state_id"))
    con.close()
    assert got == [(0, "x"), (1, "y")]


def test_a_with_entry_needs_as_many_values(tmp_path):
    # the with entry's values (line 11, column 13) has 3 of room's 2
    u = tmp_path / "u.yaml"
    u.write_text(ROOM % "['0', '1', '2']")
    r = enum(u, tmp_path)
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == (f"{u}:11:13: a with entry needs as many values as "
                        "its dimension (2), not 3 (values)\n")
