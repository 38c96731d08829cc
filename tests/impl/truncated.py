"""Bug: its answer line is cut short (truncated JSON)."""
import sys

for line in sys.stdin:
    if '"init"' in line:
        sys.stdout.write('{"type": "init_ok", "in_reply_to": 0}\n')
    else:
        sys.stdout.write('{"type": "schedule_ok", "in_reply_to": 1, '
                         '"binding": {"apiVersion": "v1", "kind": "Bin\n')
    sys.stdout.flush()
