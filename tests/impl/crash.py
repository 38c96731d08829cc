"""Bug: crashes on its first schedule request (exit status 3)."""
import sys
import kso_impl


def decide(cluster, pod):
    sys.exit(3)


kso_impl.serve(decide, "crash 1")
