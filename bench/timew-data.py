#!/usr/bin/env python3
"""Writes a Timewarrior database from tab-separated rows on stdin.

Each row: start, end (unix seconds), client, project, tags (comma-separated),
description. Writes DIR/data/YYYY-MM.data (one `inc` line per interval, in
the month of its start, as timew 1.4 does), DIR/data/tags.data and
DIR/timewarrior.cfg with confirmation and verbose off.
Usage: ... | timew-data.py DIR
"""
import json
import os
import sys
import time
from collections import Counter, defaultdict


def tag(t):
    # timew quotes tags with spaces or quotes; ours are plain words.
    return t if t and all(c not in t for c in ' "#') else json.dumps(t)


def stamp(secs):
    return time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(secs))


def main():
    root = sys.argv[1]
    data = os.path.join(root, "data")
    os.makedirs(data, exist_ok=True)
    os.makedirs(os.path.join(root, "extensions"), exist_ok=True)
    months = defaultdict(list)
    counts = Counter()
    for line in sys.stdin:
        start, end, client, project, tags, desc = line.rstrip("\n").split("\t")
        start, end = int(start), int(end)
        names = sorted({t for t in [client, project, *tags.split(",")] if t})
        counts.update(names)
        text = f"inc {stamp(start)} - {stamp(end)}"
        if names or desc:
            text += " # " + " ".join(tag(t) for t in names)
        if desc:
            text += " # " + json.dumps(desc)
        months[time.strftime("%Y-%m", time.gmtime(start))].append(text)
    for month, lines in months.items():
        with open(os.path.join(data, month + ".data"), "w") as f:
            f.write("\n".join(lines) + "\n")
    with open(os.path.join(data, "tags.data"), "w") as f:
        body = ",\n".join(f"  {json.dumps(t)}:{{\"count\":{c}}}" for t, c in sorted(counts.items()))
        f.write("{\n" + body + "\n}" if body else "{}\n")
    with open(os.path.join(root, "timewarrior.cfg"), "w") as f:
        f.write("confirmation = off\nverbose = off\n")


main()
