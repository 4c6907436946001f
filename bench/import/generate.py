#!/usr/bin/env python3
"""Writes a Timewarrior database of N closed intervals (25 minutes each, 5
minutes apart, from 2020-01-01 UTC) in Timewarrior's own data files, for
bench/import/run.sh: one or two tags each (the first names the project
with --project-from-tag first), every seventh with an annotation.

Usage: generate.py DIR N"""
import datetime
import os
import sys

directory, count = sys.argv[1], int(sys.argv[2])
os.makedirs(os.path.join(directory, "data"), exist_ok=True)
open(os.path.join(directory, "timewarrior.cfg"), "w").close()
tags = [["Docs", "writing"], ["Ops"], ["Mail", "inbox", "triage"], ["Review"]]
months = {}
at = datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc)
for i in range(count):
    end = at + datetime.timedelta(minutes=25)
    line = "inc %s - %s # %s" % (at.strftime("%Y%m%dT%H%M%SZ"), end.strftime("%Y%m%dT%H%M%SZ"), " ".join(tags[i % 4]))
    if i % 7 == 0:
        line += ' # "note %d"' % i
    months.setdefault(at.strftime("%Y-%m"), []).append(line)
    at = end + datetime.timedelta(minutes=5)
for month, lines in months.items():
    with open(os.path.join(directory, "data", month + ".data"), "w") as f:
        f.write("\n".join(lines) + "\n")
