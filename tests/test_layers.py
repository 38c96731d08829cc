"""
test_layers.py - the architecture of doc/architecture.md holds in the
sources: each folder includes only the layers below it (cli -> enum ->
{oracle, model} -> core; yaml -> core), and the two engines never include
each other, so the enumerator's cross-check compares two independent
implementations.
"""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# what each folder may include besides itself
ALLOWED = {
    "core": set(),
    "yaml": {"core"},
    "model": {"core"},
    "oracle": {"core"},
    "enum": {"core", "yaml", "model", "oracle"},
    "cli": {"core", "yaml", "model", "oracle", "enum"},
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def includes_of(folder):
    """(file, included folder) for every quoted include leaving folder."""
    out = []
    path = os.path.join(ROOT, folder)
    for name in sorted(os.listdir(path)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(path, name), encoding="utf-8") as f:
            text = f.read()
        for inc in INCLUDE.findall(text):
            target = os.path.normpath(os.path.join(folder, inc))
            top = target.split(os.sep)[0]
            if top != folder:
                out.append((f"{folder}/{name}", top))
    return out


def test_every_folder_is_a_known_layer():
    for folder in ALLOWED:
        assert os.path.isdir(os.path.join(ROOT, folder)), folder


def test_includes_go_down_the_layers_only():
    wrong = []
    for folder, allowed in ALLOWED.items():
        for name, top in includes_of(folder):
            if top not in allowed:
                wrong.append(f"{name} includes {top}/")
    assert wrong == []


def test_the_checker_sees_a_wrong_include():
    # the pattern and the path arithmetic the check relies on
    text = '#include "../oracle/oracle.h"\n# include "plugin.h"\n'
    found = [os.path.normpath(os.path.join("model", i)).split(os.sep)[0]
             for i in INCLUDE.findall(text)]
    assert found == ["oracle", "model"]
