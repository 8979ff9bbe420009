"""Stand-in for a hard-mounted network filesystem: reads block while the node's mount is
unresponsive (mounts.json gives each node's current stall in seconds), then complete."""
import json
import os
import time


def read_bytes(path, node):
    stall = json.load(open("mounts.json")).get(node, 0.0)
    if stall:
        time.sleep(stall)  # the read() sits in the kernel until the server answers again
    with open(path, "rb") as f:
        return f.read()
