"""A correct implementation: kso's own answer."""
import sys
import kso_impl

kso_impl.serve(lambda c, p: kso_impl.kso_decision(c, p), "kso-self 1")
