"""Two running daemons (laptop, desktop): a change made with `trackee add`
on one, timed until the other's store holds it. Prints p50, p99 and max.
Usage: latency.py TRACKEE WORKDIR ROUNDS"""
import json
import os
import sqlite3
import subprocess
import sys
import time

trackee, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])


def env(name):
    e = dict(os.environ)
    e["XDG_CONFIG_HOME"] = f"{work}/{name}/config"
    e["TRACKEE_STORE"] = f"{work}/{name}/store.sqlite3"
    return e


latencies = []
for i in range(rounds):
    source, target = ("laptop", "desktop") if i % 2 == 0 else ("desktop", "laptop")
    mark = f"latency {i}"
    start = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1790000000 + i * 3600))
    end = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1790000000 + i * 3600 + 60))
    added = subprocess.run([trackee, "add", "-p", "Bench", "-d", mark, "--from", start, "--to", end, "--json"],
                           env=env(source), check=True, capture_output=True, text=True)
    entry = json.loads(added.stdout)["entry"]["id"]
    made = time.monotonic()
    db = sqlite3.connect(f"file:{work}/{target}/store.sqlite3?mode=ro", uri=True, timeout=5)
    while True:
        if db.execute("SELECT count(*) FROM entry WHERE id = ?", (entry,)).fetchone()[0] == 1:
            break
        if time.monotonic() - made > 10:
            sys.exit(f"round {i}: {target} did not see the change within 10 s")
        time.sleep(0.005)
    latencies.append(time.monotonic() - made)
    db.close()
latencies.sort()


def pct(p):
    return latencies[min(len(latencies) - 1, int(len(latencies) * p))]


print(f"{rounds} changes: p50 {pct(0.5) * 1000:.0f} ms, p99 {pct(0.99) * 1000:.0f} ms, max {latencies[-1] * 1000:.0f} ms")
