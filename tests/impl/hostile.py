"""A scheduler under test whose every text is hostile to an HTML page: its
name and its unschedulable message carry a script tag, an attribute
breaking quote, an ampersand, a right-to-left override, a zero-width
joiner, a BEL and a C1 control (the -o html escaping test)."""
import kso_impl

HOSTILE = ("<script>alert(\"kso\")</script><img src=x onerror=alert(1)> "
           "'q' & \u202eevil\u202c \u200d\u0007\u009b end")


def decide(cluster, pod):
    return kso_impl.unschedulable("no: " + HOSTILE)


kso_impl.serve(decide, "hostile " + HOSTILE)
