# pipe filter: prefix every input line with a local '%Y-%m-%d %H:%M:%S ' stamp (like moreutils ts)
import sys, time
for line in sys.stdin:
    sys.stdout.write(time.strftime("%Y-%m-%d %H:%M:%S ") + line); sys.stdout.flush()
