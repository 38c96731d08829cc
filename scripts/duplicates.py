#!/usr/bin/env python3
"""duplicates.py - runs of six or more identical lines in the C sources
(core, model, oracle, enum, yaml, cli): the copies issue 13 asks the
tree to be free of.  A stand-in for the `duplicates` tool of the tool
library when it is not there.

Lines are compared with their leading and trailing blanks stripped;
blank lines, lines of only braces, brackets and punctuation, and comment
lines are skipped (they say nothing on their own), so a run is six lines
of code that say something.  Each run is reported once, at its longest,
as

    LEN  FILE:LINE  FILE:LINE

Usage: scripts/duplicates.py [--min N] [DIR...]; exit status 1 when a run
is found."""
import argparse
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parent.parent
DIRS = ["core", "model", "oracle", "enum", "yaml", "cli"]
TRIVIAL = re.compile(r"^[{}()\[\];,]*$|^(/\*|\*|//)|^(break|continue|"
                     r"return|default:|else|#endif)\b.{0,12}$|^#include ")


def code_lines(path):
    """[(normalized text, line number)] of the lines that count."""
    out = []
    for n, raw in enumerate(path.read_text(errors="replace").splitlines(), 1):
        s = raw.strip()
        if s and not TRIVIAL.search(s):
            out.append((s, n))
    return out


def runs(files, k):
    """Every maximal run of >= k equal counted lines between two places."""
    lines = {f: code_lines(f) for f in files}
    index = {}
    for f, ls in lines.items():
        for i in range(len(ls) - k + 1):
            key = tuple(t for t, _ in ls[i:i + k])
            index.setdefault(key, []).append((f, i))
    seen = set()
    found = []
    for places in index.values():
        if len(places) < 2:
            continue
        for a in range(len(places)):
            for b in range(a + 1, len(places)):
                (fa, ia), (fb, ib) = places[a], places[b]
                if fa == fb and abs(ia - ib) < k:
                    continue   # overlapping windows of one run
                # extend back to the start of the run
                while (ia > 0 and ib > 0 and
                       lines[fa][ia - 1][0] == lines[fb][ib - 1][0]):
                    ia, ib = ia - 1, ib - 1
                if (fa, ia, fb, ib) in seen:
                    continue
                seen.add((fa, ia, fb, ib))
                n = 0
                while (ia + n < len(lines[fa]) and ib + n < len(lines[fb]) and
                       lines[fa][ia + n][0] == lines[fb][ib + n][0]):
                    n += 1
                found.append((n, fa, lines[fa][ia][1], fb, lines[fb][ib][1]))
    return sorted(found, key=lambda r: (-r[0], str(r[1]), r[2]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--min", type=int, default=6)
    ap.add_argument("dirs", nargs="*", default=DIRS)
    a = ap.parse_args()
    files = sorted(p for d in a.dirs for p in (REPO / d).glob("*.[ch]"))
    found = runs(files, a.min)
    for n, fa, la, fb, lb in found:
        print("%3d  %s:%d  %s:%d" % (n, fa.relative_to(REPO), la,
                                      fb.relative_to(REPO), lb))
    print("%d runs of %d or more shared lines" % (len(found), a.min))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
