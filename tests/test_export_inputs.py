"""
test_export_inputs.py - what `kso export` says of bad input (issue 33
N13): a state id that is no number is named as such, and an error in a
run's stored configuration names that configuration, not the temporary
file kso read it from.
"""
import sqlite3

from conftest import FIXTURES, run_kso
from test_enum import enum

NRS = FIXTURES / "universes" / "no-resource-scores.yaml"


def test_an_invalid_state_id_is_named():
    for bad in ("abc", "0", "12x"):
        r = run_kso("export", "any.db", bad)
        assert r.returncode == 2
        assert r.stderr.splitlines()[0] == f"kso export: invalid state id '{bad}'"


def test_an_error_in_a_stored_configuration_names_it(tmp_path):
    db = tmp_path / "c.db"
    assert enum(NRS, "--db", db, "--quiet").returncode == 0
    con = sqlite3.connect(db)
    # line 3, column 27: the value 101 (kube writes the range [0-100])
    con.execute("UPDATE configs SET yaml = ?", (
        "apiVersion: kubescheduler.config.k8s.io/v1\n"
        "kind: KubeSchedulerConfiguration\n"
        "percentageOfNodesToScore: 101\n",))
    con.commit()
    con.close()
    r = run_kso("export", db, "1")
    assert (r.returncode, r.stdout) == (1, "")
    assert r.stderr == ("stored configuration of run 1:3:27: not in valid "
                        "range [0-100] (percentageOfNodesToScore)\n")
