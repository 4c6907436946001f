#!/usr/bin/env python3
"""The location benchmark's table, from what bench/location/run.sh left in OUT_DIR/json.

Usage: bench/location/report.py OUT_DIR FIXES
"""
import json
import os
import statistics
import sys

out, fixes = sys.argv[1], int(sys.argv[2])
j = os.path.join(out, "json")


def load(name):
    with open(os.path.join(j, name)) as f:
        return json.load(f)


targets = {"nmea": 1_000_000, "csv": 1_000_000, "gpsd": 300_000, "owntracks": 300_000, "gpx": None}
names = {"nmea": "NMEA (RMC+GGA+GST, 3 lines a fix)", "csv": "CSV", "gpsd": "gpsd JSON (gpspipe -w)",
         "owntracks": "OwnTracks JSON", "gpx": "GPX 1.1"}
rows = ["| format | file | trackee feed median | fixes/s | `wc -l` median | feed / wc | target | verdict |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
for format, target in targets.items():
    summary = load(f"{format}.summary.json")
    if summary["used"] != fixes:
        sys.exit(f"bench: feed used {summary['used']} of {fixes} {format} fixes")
    medians = {r["command"]: statistics.median(r["times"]) for r in load(f"{format}.json")["results"]}
    t, w = medians["trackee"], medians["wc"]
    rate = fixes / t
    size = os.path.getsize(os.path.join(out, f"fixtures-{fixes}", {
        "nmea": "fixes.nmea", "csv": "fixes.csv", "gpsd": "fixes.gpsd.jsonl",
        "owntracks": "fixes.owntracks.jsonl", "gpx": "fixes.gpx"}[format]))
    verdict = "" if target is None else ("met" if rate >= target else "**MISSED**")
    rows.append(f"| {names[format]} | {size / 1e6:.0f} MB | {t * 1e3:.0f} ms | {rate / 1e3:,.0f}k | {w * 1e3:.0f} ms | "
                f"{t / w:.1f} | {'' if target is None else f'≥ {target / 1e3:,.0f}k/s'} | {verdict} |")

rss = load("rss.json")
rows += ["", "| format | peak RSS, a tenth of the file | peak RSS, the whole file | growth |", "| --- | ---: | ---: | ---: |"]
flat = True
for format, r in rss.items():
    growth = r["long_kb"] - r["short_kb"]
    flat = flat and growth <= 2048
    rows.append(f"| {format} | {r['short_kb'] / 1024:.1f} MB | {r['long_kb'] / 1024:.1f} MB | {growth / 1024:+.1f} MB |")
rows.append(f"\nRSS flat (growth ≤ 2 MB for ten times the fixes): {'met' if flat else '**MISSED**'}")

live = load("live.json")
ok = live["cpu_percent"] < 0.1 and live["office_state"] == "inside" and live["daemon_exit"] == 0
rows += ["", "| live 1 Hz gpsd feed into `trackee run` | measured | target | verdict |", "| --- | --- | --- | --- |",
         f"| CPU over {live['seconds']:.0f} s ({live['fixes']} fixes, one arrive) | {live['cpu_seconds'] * 1e3:.1f} ms = "
         f"{live['cpu_percent']:.3f} % | < 0.1 % | {'met' if ok else '**MISSED**'} |",
         f"| RSS at the first and the last fix | {live['rss_start_kb'] / 1024:.1f} MB → {live['rss_end_kb'] / 1024:.1f} MB | flat | |"]
with open(os.path.join(out, "date")) as f:
    rows.append(f"\nRun of {f.read().strip()}; {fixes:,} fixes, 1,000 places; hyperfine -N, medians.")
print("\n".join(rows))
