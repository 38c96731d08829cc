"""Bug: ignores taints (schedules as a profile without TaintToleration)."""
import os
import kso_impl

CONFIG = os.path.join(os.path.dirname(__file__), "no-taints.config.yaml")
kso_impl.serve(lambda c, p: kso_impl.kso_decision(c, p, CONFIG),
               "ignores-taints 1")
