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
