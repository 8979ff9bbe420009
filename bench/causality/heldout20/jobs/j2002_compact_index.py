"""The nightly index compaction: takes an exclusive lock on one index for a while."""
import sqlite3
import sys
import time

path, delay, hold = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
time.sleep(delay)
db = sqlite3.connect(path, isolation_level=None)
db.execute("begin exclusive")
db.execute("update samples set weight = weight")
time.sleep(hold)
db.execute("commit")
db.close()
