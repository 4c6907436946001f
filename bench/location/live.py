#!/usr/bin/env python3
"""`trackee run` reading a live 1 Hz gpsd feed: its CPU time and memory.

The daemon is started with the benchmark's rule file (1,000 places) and a
pipe on its standard input. Once it has loaded its rules, one gpsd TPV line
(as `gpspipe -w` prints it) is written every second for SECONDS seconds,
timed now: the first half 400 m south of the office, the second half at its
centre, so the feed crosses a geofence once (an arrive whose 2-minute dwell
is still pending at the end, as most arrivals are a minute in). The CPU
time of every thread of the daemon (/proc/PID/task/*/schedstat, in
nanoseconds) is read just before the first fix and just after the last;
the share is that time over the wall time between the two readings. VmRSS
is read at both ends too; afterwards `trackee places` must show the office
inside, or the fixes did not go through.

Usage: bench/location/live.py TRACKEE_BIN PLACES.yaml OUT_DIR
Environment: BENCH_LIVE_SECONDS (default 60).
Prints one JSON object.
"""
import datetime as dt
import json
import os
import re
import signal
import subprocess
import sys
import time

trackee, places, out = (os.path.abspath(a) for a in sys.argv[1:4])
seconds = int(os.environ.get("BENCH_LIVE_SECONDS", "60"))

with open(places) as f:
    match = re.search(r"office: \{lat: ([-\d.]+), lon: ([-\d.]+)", f.read())
office = (float(match.group(1)), float(match.group(2)))
south = (office[0] - 400 / 111_195, office[1])

env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(out, "live-config"), XDG_DATA_HOME=os.path.join(out, "live-data"),
           TRACKEE_STORE=os.path.join(out, "live.sqlite3"), TZ="Europe/Prague")
for name in ("TRACKEE_NOW", "NOTIFY_SOCKET", "JOURNAL_STREAM"):
    env.pop(name, None)
# The rules start projects no one created first: let them.
os.makedirs(os.path.join(out, "live-config", "trackee"), exist_ok=True)
with open(os.path.join(out, "live-config", "trackee", "config.yaml"), "w") as f:
    f.write("create_projects: always\n")
for name in ("live.sqlite3", "live.sqlite3-wal", "live.sqlite3-shm"):
    if os.path.exists(os.path.join(out, name)):
        os.remove(os.path.join(out, name))
log_path = os.path.join(out, "live.log")
log = open(log_path, "w")
daemon = subprocess.Popen([trackee, "run", "--rules", places], stdin=subprocess.PIPE, stderr=log, env=env)


def log_text():
    with open(log_path) as f:
        return f.read()


def cpu_ns():
    total = 0
    for task in os.listdir(f"/proc/{daemon.pid}/task"):
        try:
            with open(f"/proc/{daemon.pid}/task/{task}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def rss_kb():
    with open(f"/proc/{daemon.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def tpv(position):
    now = dt.datetime.now(dt.timezone.utc)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"
    return (json.dumps({"class": "TPV", "device": "/dev/ttyACM0", "mode": 3, "time": stamp,
                        "lat": round(position[0], 7), "lon": round(position[1], 7), "eph": 6.5, "speed": 0.0},
                       separators=(",", ":")) + "\n").encode()


try:
    deadline = time.monotonic() + 30
    while "loaded" not in log_text() and time.monotonic() < deadline:
        time.sleep(0.01)
    if "loaded" not in log_text():
        sys.exit(f"bench: trackee run did not start:\n{log_text()}")
    time.sleep(1)
    rss_start = rss_kb()
    cpu_start = cpu_ns()
    wall_start = time.monotonic()
    for i in range(seconds):
        daemon.stdin.write(tpv(south if i < seconds // 2 else office))
        daemon.stdin.flush()
        next_tick = wall_start + i + 1
        time.sleep(max(0, next_tick - time.monotonic()))
    cpu_end = cpu_ns()
    wall = time.monotonic() - wall_start
    rss_end = rss_kb()
finally:
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(30)

# The fixes really went through the geofences: the office is inside now.
listed = subprocess.run([trackee, "places", "--json", "--rules", places], env=env, capture_output=True, check=True)
office_state = next(p["state"] for p in json.loads(listed.stdout) if p["name"] == "office")
cpu = (cpu_end - cpu_start) / 1e9
print(json.dumps({"seconds": round(wall, 3), "fixes": seconds, "cpu_seconds": round(cpu, 6),
                  "cpu_percent": round(100 * cpu / wall, 5), "rss_start_kb": rss_start, "rss_end_kb": rss_end,
                  "daemon_exit": daemon.returncode, "office_state": office_state}))
