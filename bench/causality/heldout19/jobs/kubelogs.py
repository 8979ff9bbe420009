#!/usr/bin/env python3
"""Prints the saved container logs of several pods the way
`kubectl logs -l training.kubeflow.org/job-name=JOB --prefix --tail=-1 --all-containers`
does: pod after pod (in the API's name order, not by time), every line prefixed with
`[pod/NAME/CONTAINER] `.  There is no API server on this machine; each "pod" here is a
process whose stdout+stderr went to pods/NAME.log (what the container runtime keeps).

usage: kubelogs.py --container trainer pods/*.log
"""
import argparse
import os
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--container", default="trainer")
ap.add_argument("files", nargs="+")
a = ap.parse_args()
for path in sorted(a.files):
    pod = os.path.basename(path)[:-len(".log")]
    with open(path, errors="replace") as fh:
        for line in fh:
            sys.stdout.write(f"[pod/{pod}/{a.container}] {line if line.endswith(chr(10)) else line + chr(10)}")
