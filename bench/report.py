#!/usr/bin/env python3
"""Turns bench/run.sh's hyperfine JSON files into one markdown table.

Usage: report.py JSON_DIR TRACKEE_BIN
Each JSON file is named ACTION-N-rROUND.json and holds two results,
trackee's first and timewarrior's second, as run.sh orders them. Rounds are
pooled: the median is over every timed run of every round, and CPU time
(user + system, which other load on the machine disturbs less than wall
time) is the mean over all runs.
"""
import datetime
import glob
import json
import os
import platform
import statistics
import subprocess
import sys

ACTIONS = ["version", "start", "stop", "status", "summary", "export"]
LABELS = {
    "version": "`--version` (process start)",
    "start": "`start`",
    "stop": "`stop`",
    "status": "`status` (timew: `timew`)",
    "summary": "`summary --week` (timew: `summary :week`)",
    "export": "`export --format toggl` (timew: `export`)",
}


def target(action, n, trackee_ms, ratio):
    """The issue's target for this row: (text, met) or None."""
    if action in ("start", "stop", "status") and n == 10000:
        return "ratio ≤ 1.0", ratio <= 1.0
    if action == "summary" and n == 100000:
        return "≤ 5 ms", trackee_ms <= 5.0
    if action == "export" and n == 100000:
        return "< 1000 ms", trackee_ms < 1000.0
    return None


def out(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def source_revision(repo):
    head = out(["git", "-C", repo, "rev-parse", "--short", "HEAD"])
    dirty = out(["git", "-C", repo, "status", "--porcelain", "--", "Sources", "Package.swift"])
    return head + (" with uncommitted changes in Sources/" if dirty not in ("", "?") else "")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def main():
    json_dir, trackee = sys.argv[1:3]
    pooled = {}  # (action, n) -> [[times], [times]], [[cpu, runs], [cpu, runs]]
    rounds = set()
    for path in glob.glob(os.path.join(json_dir, "*.json")):
        action, n, rnd = os.path.basename(path)[:-5].rsplit("-", 2)
        rounds.add(rnd)
        with open(path) as f:
            results = json.load(f)["results"]
        times, cpu = pooled.setdefault((action, int(n)), ([[], []], [[0.0, 0], [0.0, 0]]))
        for i, r in enumerate(results[:2]):
            times[i].extend(r["times"])
            cpu[i][0] += (r["user"] + r["system"]) * len(r["times"])
            cpu[i][1] += len(r["times"])
    rows = []
    for (action, n), (times, cpu) in pooled.items():
        mine, theirs = (statistics.median(t) * 1000 for t in times)
        cpu_mine, cpu_theirs = (c / k * 1000 for c, k in cpu)
        rows.append((ACTIONS.index(action), n, action, mine, theirs, cpu_mine, cpu_theirs, len(times[0])))
    rows.sort()

    print("| command | entries | trackee median | timewarrior median | ratio | target | "
          "met | trackee CPU | timewarrior CPU |")
    print("| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: |")
    missed = []
    counts = set()
    for _, n, action, mine, theirs, cpu_mine, cpu_theirs, count in rows:
        counts.add((action == "export", count))
        ratio = mine / theirs
        t = target(action, n, mine, ratio)
        goal, verdict = ("", "") if t is None else (t[0], "met" if t[1] else "**MISSED**")
        if t is not None and not t[1]:
            missed.append(f"{action} at {n:,}")
        entries = "—" if action == "version" else f"{n:,}"
        print(f"| {LABELS[action]} | {entries} | {mine:.1f} ms | {theirs:.1f} ms "
              f"| {ratio:.2f} | {goal} | {verdict} | {cpu_mine:.1f} ms | {cpu_theirs:.1f} ms |")
    print()
    print(f"Targets missed: {', '.join(missed) if missed else 'none'}.")
    print()
    print(f"- machine: {os.cpu_count()} cores ({out(['nproc'])} usable), {cpu_model()}, "
          f"Linux {platform.release()}")
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(json_dir))))
    print(f"- trackee {out([trackee, '--version'])} (release build of {source_revision(repo)}), timewarrior {out(['timew', '--version'])}, "
          f"{out(['hyperfine', '--version'])}, SQLite {out(['sqlite3', '--version']).split(' ')[0]}")
    one_shot = "/".join(str(c) for e, c in sorted(counts) if not e)
    export = "/".join(str(c) for e, c in sorted(counts) if e) or "0"
    print(f"- {one_shot} timed runs per one-shot command and {export} per export, in {len(rounds)} "
          f"rounds, each after warm-up runs; hyperfine -N (no shell), output through a pipe; "
          f"median wall time, CPU = mean user + system time")
    loads = []
    for when in ("start", "end"):
        try:
            with open(os.path.join(os.path.dirname(json_dir), "loadavg-" + when)) as f:
                loads.append(f"{' '.join(f.read().split()[:3])} at the {when}")
        except OSError:
            pass
    if loads:
        print(f"- load average (1, 5, 15 min): {'; '.join(loads)}")
    try:
        with open(os.path.join(os.path.dirname(json_dir), "date")) as f:
            when = f.read().strip()
    except OSError:
        when = f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC"
    print(f"- date: {when}")


main()
