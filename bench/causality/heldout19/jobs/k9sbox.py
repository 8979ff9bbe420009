#!/usr/bin/env python3
"""Renders a log the way it looks when copied out of k9s's log view in a terminal
(wrap on): a box-drawing frame with the view title on top, `│ ` and ` │` at the sides of
every row, long lines wrapped to the box width, and the bottom border.

usage: k9sbox.py --title 'default/pod:container' --width 118 < log > copied.txt
"""
import argparse
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--title", required=True)
ap.add_argument("--width", type=int, default=118)
a = ap.parse_args()
W = a.width
title = f" Logs({a.title})[tail] "
left = (W - len(title)) // 2
out = sys.stdout
out.write("┌" + "─" * left + title + "─" * (W + 2 - left - len(title)) + "┐\n")
for raw in sys.stdin:
    line = raw.rstrip("\n").replace("\t", "    ")
    rows = [line[i:i + W] for i in range(0, len(line), W)] or [""]
    for r in rows:
        out.write("│ " + r + " " * (W - len(r)) + " │\n")
out.write("└" + "─" * (W + 2) + "┘\n")
