#!/usr/bin/env python3
"""coverage.py - `make coverage`: line coverage of `make test` per folder.

Builds kso and the unit tests with --coverage under build-cov/, runs the
unit tests and the pytest suite against that binary, then asks gcov for
every source file's executed lines and prints, per folder (core, model,
oracle, enum, yaml, cli), lines executed / lines, and the total.  Never part of
`make test`.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = "build-cov"
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")
FOLDERS = ["core", "model", "oracle", "enum", "yaml", "cli"]


def run(cmd, **kw):
    return subprocess.run(cmd, cwd=ROOT, shell=True, **kw)


def main():
    for f in glob.glob(os.path.join(ROOT, BUILD, "**", "*.gcda"), recursive=True):
        os.remove(f)
    make = ("make -s -j2 BUILD=%s OPT='-O0 -g --coverage' %s/kso "
            "$(ls tests/unit/test_*.c | sed 's|tests/unit/|%s/tests/|; s|\\.c$||')"
            % (BUILD, BUILD, BUILD))
    if run(make).returncode:
        return 1
    units = sorted(glob.glob(os.path.join(ROOT, BUILD, "tests", "test_*")))
    for t in units:
        if "." in os.path.basename(t) or not os.access(t, os.X_OK):
            continue
        if run(t, stdout=subprocess.DEVNULL).returncode:
            print("coverage: %s failed" % t)
            return 1
    if run("KSO=%s/%s/kso %s -m pytest -q -p no:cacheprovider tests"
           % (ROOT, BUILD, PYTHON), stdout=subprocess.DEVNULL).returncode:
        print("coverage: the pytest suite failed")
        return 1
    totals = {}
    for folder in FOLDERS:
        done = total = 0
        for src in sorted(glob.glob(os.path.join(ROOT, folder, "*.c"))):
            obj = os.path.join(ROOT, BUILD, folder,
                               os.path.basename(src)[:-2] + ".o")
            out = subprocess.run(["gcov", "-n", "-o", obj, src], cwd=ROOT,
                                 capture_output=True, text=True).stdout
            m = re.search(r"File '%s'\nLines executed:([\d.]+)%% of (\d+)"
                          % re.escape(src.replace(ROOT + "/", "")), out)
            if not m:
                m = re.search(r"File '[^']*%s'\nLines executed:([\d.]+)%% of (\d+)"
                              % re.escape(os.path.basename(src)), out)
            if not m:
                continue
            n = int(m.group(2))
            total += n
            done += round(float(m.group(1)) * n / 100)
        totals[folder] = (done, total)
        print("%-7s %6d / %6d lines  %5.1f%%" % (folder, done, total,
                                               100.0 * done / max(total, 1)))
    d = sum(v[0] for v in totals.values())
    t = sum(v[1] for v in totals.values())
    print("%-7s %6d / %6d lines  %5.1f%%" % ("total", d, t, 100.0 * d / max(t, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
