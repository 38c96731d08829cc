"""Bug: never answers a schedule request."""
import time
import kso_impl


def decide(cluster, pod):
    time.sleep(3600)


kso_impl.serve(decide, "hang 1")
