#!/usr/bin/env python3
"""`trackee run` holding the benchmark calendar: its memory, and how long it
takes to re-arm after the calendar file changes.

memory:  the daemon is started with one rule on the calendar (whose events
         are all in 2027, so nothing fires); once it has loaded, its resident
         memory is sampled from /proc every 100 ms for IDLE seconds. The
         start-up peak (VmHWM) is reported beside it.
re-arm:  ROUNDS times, the calendar file is replaced (a new copy renamed
         over it, as editors and vdirsyncer do, with one summary changed);
         the time from the rename to the daemon's "deadlines re-armed" log
         line is measured. It includes the 100 ms quiet period the daemon
         waits for a burst of writes to end (the same as for rule files).

Usage: bench/calendar/daemon.py TRACKEE_BIN CALENDAR.ics OUT_DIR
Environment: BENCH_IDLE_SECONDS (default 10), BENCH_REARM_ROUNDS (default 7)
Prints a Markdown table, also written to OUT_DIR/daemon.md.
"""
import os
import signal
import statistics
import subprocess
import sys
import time

trackee, calendar, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
idle = float(os.environ.get("BENCH_IDLE_SECONDS", "10"))
rounds = int(os.environ.get("BENCH_REARM_ROUNDS", "7"))

config = os.path.join(out, "daemon-config", "trackee")
os.makedirs(config, exist_ok=True)
# The rule starts a project per meeting, which no one created first.
with open(os.path.join(config, "config.yaml"), "w") as f:
    f.write("create_projects: always\n")
held = os.path.join(out, "daemon-calendar.ics")
with open(calendar, "rb") as f:
    original = f.read()
with open(held, "wb") as f:
    f.write(original)
with open(os.path.join(config, "rules.yaml"), "w") as f:
    f.write(f"calendars:\n  big: {held}\nrules:\n  - id: meetings\n    when: {{calendar: big}}\n"
            "    do: [{start: {project: \"{{trigger.summary}}\"}}]\n")

env = dict(os.environ, XDG_CONFIG_HOME=os.path.dirname(config), XDG_DATA_HOME=os.path.join(out, "daemon-data"),
           TRACKEE_STORE=os.path.join(out, "daemon.sqlite3"), TZ="Europe/Prague")
for name in ("TRACKEE_NOW", "NOTIFY_SOCKET", "JOURNAL_STREAM"):
    env.pop(name, None)
log_path = os.path.join(out, "daemon.log")
log = open(log_path, "w")
daemon = subprocess.Popen([trackee, "run"], stdin=subprocess.DEVNULL, stderr=log, env=env)


def log_text():
    with open(log_path) as f:
        return f.read()


def wait_for(condition, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.002)
    return condition()


def status(field):
    with open(f"/proc/{daemon.pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


try:
    started = time.monotonic()
    if not wait_for(lambda: "and 1 of 1 calendar" in log_text(), 60):
        sys.exit(f"bench: the daemon did not load the calendar:\n{log_text()}")
    load_seconds = time.monotonic() - started
    time.sleep(1)
    rss = []
    end = time.monotonic() + idle
    while time.monotonic() < end:
        rss.append(status("VmRSS"))
        time.sleep(0.1)
    peak = status("VmHWM")

    latencies = []
    for i in range(rounds):
        before = log_text().count("deadlines re-armed")
        changed = original.replace(b"SUMMARY:", f"SUMMARY:round {i} ".encode(), 1)
        with open(held + ".new", "wb") as f:
            f.write(changed)
        os.rename(held + ".new", held)
        renamed = time.monotonic()
        if not wait_for(lambda: log_text().count("deadlines re-armed") > before, 30):
            sys.exit(f"bench: no re-arm after change {i}:\n{log_text()[-2000:]}")
        latencies.append((time.monotonic() - renamed) * 1000)
        time.sleep(1)
    rss_after = status("VmRSS")
finally:
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(30)

idle_max = max(rss) / 1024
lines = [
    "| what | measured | target | verdict |",
    "| --- | --- | --- | --- |",
    f"| RSS holding the calendar, idle {idle:.0f} s | max {idle_max:.1f} MB (start-up peak {peak / 1024:.1f} MB; "
    f"{rss_after / 1024:.1f} MB after {rounds} reloads) | ≤ 50 MB | {'met' if idle_max <= 50 else 'MISSED'} |",
    f"| re-arm after the file changes, {rounds} times | median {statistics.median(latencies):.0f} ms, "
    f"max {max(latencies):.0f} ms (of which 100 ms is the quiet period) | ≤ 300 ms | "
    f"{'met' if max(latencies) <= 300 else 'MISSED'} |",
    "",
    f"First load of the calendar at start-up: {load_seconds * 1000:.0f} ms (process start to the log line).",
]
text = "\n".join(lines)
print(text)
with open(os.path.join(out, "daemon.md"), "w") as f:
    f.write(text + "\n")
