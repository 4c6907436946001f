#!/usr/bin/env python3
"""Peak resident memory of `trackee feed --dry-run` on a short and a long
file of each format: flat means the feed does not grow with its input.

Usage: bench/location/rss.py TRACKEE_BIN SHORT_DIR LONG_DIR < "format file" lines
Each directory holds places.yaml and the fixture files (generate.py).
Prints one JSON object: {format: {"short_kb": …, "long_kb": …}}.
"""
import json
import os
import sys

trackee, short, long = sys.argv[1:4]


def peak_kb(directory, format, file):
    pid = os.fork()
    if pid == 0:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.execv(trackee, [trackee, "feed", "--dry-run", "--rules", os.path.join(directory, "places.yaml"),
                           "--format", format, os.path.join(directory, file)])
    _, status, usage = os.wait4(pid, 0)
    if status != 0:
        sys.exit(f"bench: trackee feed failed on {directory}/{file} (wait status {status})")
    return usage.ru_maxrss


result = {}
for line in sys.stdin:
    if not line.strip():
        continue
    format, file = line.split()
    result[format] = {"short_kb": peak_kb(short, format, file), "long_kb": peak_kb(long, format, file)}
print(json.dumps(result))
