"""Bug: answers with a line that is not JSON."""
import sys

for line in sys.stdin:
    if '"init"' in line:
        sys.stdout.write('{"type": "init_ok", "in_reply_to": 0}\n')
    else:
        sys.stdout.write("this is not json at all: [\n")
    sys.stdout.flush()
