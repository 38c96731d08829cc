#!/usr/bin/env python3
"""spec_coverage.py - `make spec-coverage`: which part of kso cites which
section of the reference (../shared/reference/kube-scheduler-v1.30.md)
and which seed (../shared/seeds/00N_*), and what nothing cites.

A citation is "§N" or "§N.M" (a range "§1.3-§1.7" or "§3.1-3.6" cites
every section between) in any comment or text of core/, model/, oracle/,
yaml/, enum/, cli/ (code) and tests/ (tests), model/DEVIATIONS.md
included; a seed is cited as "seed 00N" or "seeds/00N".  A section cites
its subsections' parent too (§2.7 counts for §2).

The reference and the seeds live beside the repository (../shared); where
they are not (a clean clone elsewhere), doc/spec-sections.txt - their
section numbers and titles, written by --write-sections - stands in.

Prints, per section of the reference: its number and title, the code
files and the test files that cite it; then the seeds; then the sections
and seeds nothing cites.  Exit status 0; 1 when the reference cannot be
read.  --uncited prints only the uncited list (a check for CI scripts).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
REFERENCE = os.environ.get(
    "KSO_REFERENCE", os.path.join(SHARED, "reference", "kube-scheduler-v1.30.md"))
SECTIONS = os.path.join(ROOT, "doc", "spec-sections.txt")
CODE_DIRS = ["core", "model", "oracle", "yaml", "enum", "cli"]
TEST_DIRS = ["tests"]
EXTS = (".c", ".h", ".py", ".md")

CITE = re.compile(r"§\s*(\d+(?:\.\d+)?)(?:\s*[-–]\s*§?\s*(\d+(?:\.\d+)?))?")
SEED = re.compile(r"seeds?[ /](00\d)")


def sections(path):
    """[(number, title)] of the reference's ## and ### headings."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? (.*)", line)
            if m:
                out.append((m.group(1), m.group(2).split(" — ")[0].strip()))
    return out


def key(num):
    return tuple(int(x) for x in num.split("."))


def expand(lo, hi, known):
    """Every known section from lo to hi (a range citation)."""
    if not hi:
        return [lo]
    a, b = key(lo), key(hi if "." in hi or "." not in lo else
                        lo.split(".")[0] + "." + hi)
    return [n for n in known if a <= key(n) <= b] or [lo]


def files(dirs):
    for d in dirs:
        for base, subdirs, names in os.walk(os.path.join(ROOT, d)):
            subdirs[:] = [s for s in subdirs if not s.startswith((".", "__"))]
            for n in sorted(names):
                if n.endswith(EXTS):
                    yield os.path.relpath(os.path.join(base, n), ROOT)


def citations(dirs, known):
    """{section or "seed 00N": {file: count}}."""
    cited = {}
    for rel in files(dirs):
        with open(os.path.join(ROOT, rel), encoding="utf-8",
                  errors="replace") as f:
            text = f.read()
        for m in CITE.finditer(text):
            for n in expand(m.group(1), m.group(2), known):
                for s in {n, n.split(".")[0]}:
                    cited.setdefault(s, {}).setdefault(rel, 0)
                    cited[s][rel] += 1
        for m in SEED.finditer(text):
            s = "seed " + m.group(1)
            cited.setdefault(s, {}).setdefault(rel, 0)
            cited[s][rel] += 1
    return cited


def seeds():
    d = os.path.join(SHARED, "seeds")
    names = sorted(os.listdir(d)) if os.path.isdir(d) else []
    return [("seed " + n[:3], n) for n in names if re.match(r"00\d_", n)]


def listing(refs):
    if not refs:
        return "-"
    return ", ".join(f"{f} ({n})" for f, n in sorted(refs.items()))


def stand_in():
    """doc/spec-sections.txt: "NUMBER<TAB>TITLE" lines, seeds included."""
    with open(SECTIONS, encoding="utf-8") as f:
        return [tuple(line.rstrip("\n").split("\t", 1)) for line in f
                if "\t" in line]


def main(argv):
    if os.path.exists(REFERENCE):
        rows = sections(REFERENCE) + seeds()
    elif "KSO_REFERENCE" not in os.environ and os.path.exists(SECTIONS):
        rows = stand_in()
    else:
        print(f"spec_coverage: {REFERENCE}: cannot read it", file=sys.stderr)
        return 1
    if "--write-sections" in argv:
        with open(SECTIONS, "w", encoding="utf-8") as f:
            f.writelines(f"{n}\t{t}\n" for n, t in rows)
        return 0
    known = [n for n, _ in rows if not n.startswith("seed")]
    code = citations(CODE_DIRS, known)
    tests = citations(TEST_DIRS, known)
    uncited = [(n, t) for n, t in rows if n not in code and n not in tests]
    if "--uncited" not in argv:
        for n, t in rows:
            label = n if n.startswith("seed") else "§" + n
            print(f"{label} {t}")
            print(f"    code:  {listing(code.get(n))}")
            print(f"    tests: {listing(tests.get(n))}")
        print()
    print(f"uncited: {len(uncited)} of {len(rows)}")
    for n, t in uncited:
        print(f"  {n if n.startswith('seed') else '§' + n} {t}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
