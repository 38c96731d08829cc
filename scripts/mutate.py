#!/usr/bin/env python3
"""mutate.py - `make mutate`: mutation testing of model/ and oracle/.

Applies each single-line mutation of MUTATIONS below, one at a time, to a
scratch copy of the tracked tree (build/mutate/), rebuilds, runs the C
unit tests and the pytest suite (each stops at its first failure) and
reports which mutations the suite failed to notice ("survived").  The
list is fixed: each entry is a bug a careless edit could make in a rule
the reference states (the section is given), and the suite must catch
every one.  Exit status 0 when every mutation was killed, 1 otherwise.

Every mutation's anchor (its original text) must occur exactly once in
its file: all of them are checked before anything is built, so an anchor
an edit removed fails the run at once, naming it.  `mutate.py --check`
does only that (tests/test_mutate.py runs it with the suite).

Never part of `make test`; about 20-40 s per mutation on a 2-core machine.
"""
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, "build", "mutate")
PYTHON = os.environ.get("PYTHON", "/usr/bin/python3")

# (file, original text, mutated text, what it breaks)
MUTATIONS = [
    ("model/pdb.c", "if (left[b] < 0)", "if (left[b] <= 0)",
     "model: a PDB budget reaching 0 counts as violated (§3.4 step 4)"),
    ("oracle/preemption.c", "if (--left[b] < 0)", "if (--left[b] <= 0)",
     "oracle: a PDB budget reaching 0 counts as violated (§3.4 step 4)"),
    ("model/pdb.c", "!in_disrupted(&c->pdbs[b], c->pods[p].name);", "true;",
     "model: status.disruptedPods ignored by the PDB split (§3.4 step 4)"),
    ("oracle/preemption.c", "|| in_disrupted(&c->pdbs[b], p->name))",
     "|| false)",
     "oracle: status.disruptedPods ignored by the PDB split (§3.4 step 4)"),
    ("model/score_node_resources_fit.c",
     "return s0 + (sk - s0) * (p - u0) / (prof->shape[k].utilization - u0);",
     "return s0 + (sk - s0) * (p - u0 + 1) / (prof->shape[k].utilization - u0);",
     "model: RequestedToCapacityRatio interpolation off by one (§2.7)"),
    ("oracle/fit.c", "(p - s[i - 1].utilization) /",
     "(p + 1 - s[i - 1].utilization) /",
     "oracle: RequestedToCapacityRatio interpolation off by one (§2.7)"),
    ("oracle/fit.c",
     "out[i] = (int64_t)round((double)score / (double)wsum);",
     "out[i] = score / wsum;",
     "oracle: RequestedToCapacityRatio's weighted mean truncated, not "
     "rounded (§2.7)"),
    ("model/score_balanced_allocation.c", "std = fabs((f[0] - f[1]) / 2);",
     "std = fabs((f[0] - f[1]) / 3);",
     "model: BalancedAllocation two-resource std (§2.8)"),
    ("oracle/balanced.c", "std = fabs((fr[0] - fr[1]) / 2);",
     "std = fabs((fr[0] - fr[1]) / 3);",
     "oracle: BalancedAllocation two-resource std (§2.8)"),
    ("model/match.c", "if (t->op == TOL_EXISTS)", "if (t->op != TOL_EXISTS)",
     "toleration operator Exists/Equal swapped (§2.4)"),
    ("model/filter_pod_topology_spread.c",
     "if (match + self - min_match > c->max_skew) {",
     "if (match + self - min_match >= c->max_skew) {",
     "model: maxSkew compared with >= (§2.11)"),
    ("oracle/spread.c", "if (skew > c->max_skew)", "if (skew >= c->max_skew)",
     "oracle: maxSkew compared with >= (§2.11)"),
    ("model/pod_requests.h", "#define MODEL_DEFAULT_MEMORY 209715200",
     "#define MODEL_DEFAULT_MEMORY 104857600",
     "model: non-zero memory default 100Mi, not 200Mi (§2.7)"),
    ("oracle/pod_requests.c", ": 209715200;", ": 104857600;",
     "oracle: non-zero memory default 100Mi, not 200Mi (§2.7)"),
    ("core/go_sort.c", "for (int j = i; j > a && lt(s, j, j - 1); j--)",
     "for (int j = i; j > a && lt(s, j - 1, j); j--)",
     "Go's insertion sort compares the wrong way (§3.4 step 3)"),
    ("model/jeopardy.c",
     "c->pods[q].deletion.has && c->pods[q].preemption_target)",
     "c->pods[q].deletion.has)",
     "model: any terminating pod blocks preemption (§3.1)"),
    ("oracle/preemption.c", "q->preemption_target) {", "true) {",
     "oracle: any terminating pod blocks preemption (§3.1)"),
    ("model/node_tree.c",
     "return (x->zone > y->zone) - (x->zone < y->zone);",
     "return (x->node > y->node) - (x->node < y->node);",
     "model: node tree rounds not in zone order (§1.4)"),
    ("oracle/cycle.c",
     "d->order_custom = !config_default_filter_order(prof) ||",
     "d->order_custom = false &&",
     "oracle: a profile's own Filter order ignored (§1.1)"),
    ("model/filter_node_resources_fit.c", '(const char *[]){"Insufficient ",',
     '(const char *[]){"insufficient ",',
     "model: reason text of NodeResourcesFit (§2.7)"),
]


def sh(cmd, cwd):
    return subprocess.run(cmd, cwd=cwd, shell=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode


def fresh_copy():
    if os.path.isdir(SCRATCH):
        shutil.rmtree(SCRATCH)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                           capture_output=True).stdout.split(b"\0")
    for f in files:
        if not f:
            continue
        src = os.path.join(ROOT, f.decode())
        dst = os.path.join(SCRATCH, f.decode())
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst)


SUITE = ("make -s -j2 kso unit >/dev/null 2>&1 && "
         "KSO=$PWD/kso %s -m pytest -x -q -p no:cacheprovider tests" % PYTHON)


def bad_anchors(root):
    """The mutations whose anchor does not occur exactly once in root's
    copy of their file, as messages."""
    bad = []
    for path, old, _, what in MUTATIONS:
        full = os.path.join(root, path)
        n = open(full).read().count(old) if os.path.isfile(full) else 0
        if n != 1:
            bad.append("mutate: %s: the text to mutate occurs %d times: %r "
                       "(%s)" % (path, n, old, what))
    return bad


def main():
    bad = bad_anchors(ROOT)
    for b in bad:
        print(b)
    if bad or sys.argv[1:] == ["--check"]:
        return 1 if bad else 0
    fresh_copy()
    if sh(SUITE, SCRATCH) != 0:
        print("mutate: the unmutated suite fails; fix that first")
        return 1
    survived = []
    start = time.time()
    for i, (path, old, new, what) in enumerate(MUTATIONS, 1):
        full = os.path.join(SCRATCH, path)
        text = open(full).read()
        open(full, "w").write(text.replace(old, new))
        t0 = time.time()
        killed = sh(SUITE, SCRATCH) != 0
        open(full, "w").write(text)
        os.utime(full)   # make rebuilds the original
        print("%2d/%d %-8s %5.1fs  %s" % (i, len(MUTATIONS),
                                          "killed" if killed else "SURVIVED",
                                          time.time() - t0, what))
        sys.stdout.flush()
        if not killed:
            survived.append(what)
    n = len(MUTATIONS)
    print("mutate: %d of %d mutations killed (%.0f%%) in %.0f s"
          % (n - len(survived), n, 100.0 * (n - len(survived)) / n,
             time.time() - start))
    for s in survived:
        print("  survived: " + s)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
