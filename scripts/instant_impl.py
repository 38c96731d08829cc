"""instant_impl.py - a kso-impl/1 implementation that answers at once,
without reading the cluster: every pod is unschedulable.  `make bench`
uses it to measure kso's own cost per request (the implementation's
time is not kso's)."""
import re
import sys

ID = re.compile(r'"msg_id":(\d+)')
out = sys.stdout
for line in sys.stdin:
    n = ID.search(line).group(1)
    if n == "0":
        out.write('{"type":"init_ok","in_reply_to":0,"implementation":"instant 1"}\n')
    else:
        out.write('{"type":"schedule_ok","in_reply_to":%s,"unschedulable":'
                  '{"message":""}}\n' % n)
    out.flush()
