#!/usr/bin/python3
"""trackee-report's cost (issue 37 §5): a year of 10,000 entries written as
PDF and as XLSX, each as the detailed report (every entry, under its
project, with subtotals) and as the summary (client then project, a bar
per group, a stacked bar per day for 365 days, the table). The report's
JSON is made here as `trackee report --json` prints it (seeded, so every
run times the same input): 12 projects of 4 clients, 10 billable with a
rate, entries of 5 to 30 minutes spread over 2026 in Europe/Prague.

Each case runs BENCH_RUNS times (default 5) after one warm-up run; the
table gives the median and the slowest wall time (from the fork to the
exit, the JSON read from a file on stdin), the median CPU time (user and
system, which other load on the machine disturbs less) and the largest
resident set.
Target: 1 s each. Prints a Markdown table.
Usage: bench/report-files.py path/to/trackee-report
"""
import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

ENTRIES = 10_000
COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"]


def totals(seconds, billable, amount, entries):
    return {"seconds": seconds, "billable_seconds": billable, "non_billable_seconds": seconds - billable,
            "amount_cents": amount, "entries": entries}


def amount(rate, seconds):
    return (rate * seconds + 1800) // 3600


def year_report(kind):
    rng = random.Random(37)
    clients = ["Acme, Inc.", "Café \"Ü\" s.r.o.", "Globex", None]
    projects = [(f"Project {i + 1:02d}", clients[i % 4], i < 10, 4000 + 500 * i if i < 10 else None)
                for i in range(12)]
    start = datetime.datetime(2026, 1, 1, 8, 0)
    entries = []
    minute = 0
    for i in range(ENTRIES):
        # 10,000 over 365 days: about 27 a day of 5 to 30 minutes, back to
        # back from 08:00 (so none crosses midnight).
        day = i * 365 // ENTRIES
        if i == 0 or day != (i - 1) * 365 // ENTRIES:
            minute = 0
        length = rng.randint(5, 30) * 60
        begin = start + datetime.timedelta(days=day, minutes=minute)
        end = begin + datetime.timedelta(seconds=length)
        minute += length // 60 + 1
        name, client, billable, rate = projects[rng.randrange(12)]
        offset = "+02:00" if datetime.date(2026, 3, 29) <= begin.date() < datetime.date(2026, 10, 25) else "+01:00"
        entries.append({
            "id": f"e{i}", "start": begin.strftime("%Y-%m-%dT%H:%M:%S") + offset,
            "end": end.strftime("%Y-%m-%dT%H:%M:%S") + offset, "seconds": length, "rounded_seconds": length,
            "project": name, "client": client, "description": f"Task {i} for {name}, \"review\"",
            "tags": ["a,b"] if i % 7 == 0 else [], "billable": billable,
            "amount_cents": amount(rate, length) if billable and rate else None, "running": False,
        })
    by_project = {}
    for e in entries:
        by_project.setdefault(e["project"], []).append(e)
    project_totals = {}
    for name, client, billable, rate in projects:
        seconds = sum(e["seconds"] for e in by_project.get(name, []))
        project_totals[name] = totals(seconds, seconds if billable else 0,
                                      amount(rate, seconds) if billable and rate else None, len(by_project.get(name, [])))
    ranked = sorted(projects, key=lambda p: -project_totals[p[0]]["seconds"])
    days = []
    for d in range(365):
        date = (start + datetime.timedelta(days=d)).date().isoformat()
        days.append({"date": date, "seconds": 0, "projects": []})
    per_day = {}
    for e in entries:
        per_day.setdefault(e["start"][:10], {}).setdefault(e["project"], 0)
        per_day[e["start"][:10]][e["project"]] += e["seconds"]
    for day in days:
        slices = per_day.get(day["date"], {})
        day["projects"] = [{"name": p[0], "seconds": slices[p[0]]} for p in ranked if slices.get(p[0])]
        day["seconds"] = sum(slices.values())

    def add(a, b):
        return None if a is None and b is None else (a or 0) + (b or 0)

    def group_of(level_totals):
        t = totals(0, 0, None, 0)
        for x in level_totals:
            t = totals(t["seconds"] + x["seconds"], t["billable_seconds"] + x["billable_seconds"],
                       add(t["amount_cents"], x["amount_cents"]), t["entries"] + x["entries"])
        return t

    total = group_of(project_totals.values())
    if kind == "detailed":
        grouping = ["project"]
        groups = [{"name": p[0], "label": p[0], "totals": project_totals[p[0]], "groups": [],
                   "entry_ids": [e["id"] for e in by_project.get(p[0], [])]} for p in ranked]
    else:
        grouping = ["client", "project"]
        groups = []
        for client in clients:
            subs = [{"name": p[0], "label": p[0], "totals": project_totals[p[0]], "groups": []}
                    for p in ranked if p[1] == client]
            groups.append({"name": client, "label": client or "(no client)",
                           "totals": group_of(s["totals"] for s in subs), "groups": subs})
        groups.sort(key=lambda g: -g["totals"]["seconds"])
    return {
        "kind": kind, "title": "2026", "from": "2026-01-01", "to": "2026-12-31", "zone": "Europe/Prague",
        "grouping": grouping, "currency": "EUR", "filters": [], "generated_at": "2027-01-01T09:00:00+01:00",
        "total": total, "groups": groups, "days": days,
        "projects": [{"name": p[0], "client": p[1], "billable": p[2], "color": COLORS[i],
                      "seconds": project_totals[p[0]]["seconds"]} for i, p in enumerate(ranked)],
        "clients": [{"name": g["name"], "seconds": g["totals"]["seconds"], "amount_cents": g["totals"]["amount_cents"]}
                    for g in groups] if kind == "summary" else [],
        "entries": entries if kind == "detailed" else None,
    }


def run_once(binary, source, fmt, output):
    with open(source, "rb") as stdin:
        began = time.perf_counter()
        process = subprocess.Popen([binary, "--format", fmt, "-o", output], stdin=stdin,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - began
    error = process.stderr.read().decode()
    process.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"trackee-report --format {fmt} failed: {error}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    print(f"trackee-report: {binary}")
    print(f"{ENTRIES:,} entries over 2026; {runs} timed runs after one warm-up each")
    print()
    print("| report | format | file | wall p50 | wall max | CPU p50 | max RSS | target |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="trackee-bench-report-") as work:
        for kind in ("detailed", "summary"):
            source = os.path.join(work, f"{kind}.json")
            with open(source, "w") as f:
                json.dump(year_report(kind), f, ensure_ascii=False, sort_keys=True)
            for fmt in ("pdf", "xlsx"):
                output = os.path.join(work, f"{kind}.{fmt}")
                run_once(binary, source, fmt, output)
                walls, cpus, rss = [], [], []
                for _ in range(runs):
                    wall, cpu, maxrss = run_once(binary, source, fmt, output)
                    walls.append(wall)
                    cpus.append(cpu)
                    rss.append(maxrss)
                p50 = statistics.median(walls)
                size = os.path.getsize(output)
                verdict = "met" if max(walls) <= 1.0 else "MISSED"
                print(f"| {kind} ({os.path.getsize(source) / 1e6:.1f} MB of JSON) | {fmt} | {size / 1e6:.2f} MB | "
                      f"{p50 * 1000:.0f} ms | {max(walls) * 1000:.0f} ms | {statistics.median(cpus) * 1000:.0f} ms | {max(rss):.0f} MB | ≤ 1 s: {verdict} |")


if __name__ == "__main__":
    main()
