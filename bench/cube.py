#!/usr/bin/python3
"""The TimeFlip2 cube's costs (issue 36): `trackee run` with the settings'
`timeflip:` and the fake cube of Tests/Servers/fake_timeflip_bluez.py (a
mock bluetoothd) on a private bus standing for the system bus.

catch-up: the store's cursor set an hour and a half back, BENCH_HISTORY
          (default 1000) intervals of 5 s made meanwhile in the cube's
          history, then `trackee run` started: the time from its log line
          "connected to the cube" to the last interval's firing committed.
idle:     CPU time over BENCH_IDLE_SECONDS (default 60) with the cube
          connected, from /proc/PID/task/*/schedstat.
latency:  BENCH_FLIPS (default 500) flips, alternately to facet 1 (start)
          and 12 (stop), a tenth of a second apart: the time from the
          fake's Flip call to the change committed in the store (polled
          every 0.2 ms). 500, so that the p99 is the fifth slowest, not
          the slowest (of 100 it would be the maximum).

The fake answers at once and the bus is local: the figures are trackee's
and BlueZ-on-D-Bus's, not the radio's. Runs Debian's python (dbus-python,
GLib). Prints a Markdown table. Usage: bench/cube.py path/to/trackee
"""
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

import dbus

import busbench

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "..", "Tests", "Servers", "fake_timeflip_bluez.py")
CUBE = "0C:61:CF:C7:77:71"
CONTROL = "org.trackee.FakeCube1"

RULES = """rules:
  - {id: docs, when: {flip: {facet: 1}}, do: [{start: {project: Docs}}]}
  - {id: mail, when: {flip: {facet: 2}}, do: [{start: {project: Mail}}]}
  - {id: done, when: {flip: {facet: 12}}, do: [stop]}
"""


def wait_for(predicate, seconds, what):
    busbench.wait_for(predicate, seconds, what, "bench/cube.py", 0.0002)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: bench/cube.py path/to/trackee")
    trackee = os.path.abspath(sys.argv[1])
    history = int(os.environ.get("BENCH_HISTORY", "1000"))
    idle_seconds = int(os.environ.get("BENCH_IDLE_SECONDS", "60"))
    flips = int(os.environ.get("BENCH_FLIPS", "500"))
    directory = tempfile.mkdtemp(prefix="trackee-bench-cube.")
    processes = []
    try:
        daemon = subprocess.Popen(
            ["dbus-daemon", *busbench.bus_arguments(directory), "--nofork", "--print-address"],
            stdout=subprocess.PIPE, text=True)
        processes.append(daemon)
        address = daemon.stdout.readline().strip()
        now = int(time.time())
        fake = subprocess.Popen(
            [sys.executable, FAKE, "--bus", address, "--clock", str(now), "--facet", "12", "--exit-on-stdin-eof"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        processes.append(fake)
        if fake.stdout.readline().strip() != "ready":
            raise SystemExit("bench/cube.py: the fake cube did not start")
        bus = dbus.bus.BusConnection(address)
        cube = dbus.Interface(bus.get_object("org.trackee.FakeCube", "/org/trackee/cube"), CONTROL)
        cube.RunClock()

        config = os.path.join(directory, "config", "trackee")
        os.makedirs(config)
        password = os.path.join(directory, "timeflip.password")
        with open(password, "w") as f:
            f.write("000000\n")
        os.chmod(password, 0o600)
        with open(os.path.join(config, "rules.yaml"), "w") as f:
            f.write(RULES)
        with open(os.path.join(config, "config.yaml"), "w") as f:
            f.write(f'create_projects: always\ntimeflip:\n  device: "{CUBE}"\n  password_file: {password}\n')
        store = os.path.join(directory, "trackee.sqlite3")
        run_env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=address, DBUS_SESSION_BUS_ADDRESS=address,
                       XDG_CONFIG_HOME=os.path.join(directory, "config"), XDG_DATA_HOME=os.path.join(directory, "data"),
                       TRACKEE_STORE=store)
        for key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "TRACKEE_NOW"):
            run_env.pop(key, None)
        subprocess.run([trackee, "status", "--store", store], env=run_env, stdout=subprocess.DEVNULL, check=True)

        # --- catch-up: the cursor an hour and a half back, the history since.
        first = 1000
        began = now - 5400
        with sqlite3.connect(store) as db:
            db.execute("INSERT INTO desk_cursor (subject, number, at) VALUES (?, ?, ?)", (f"flip:{CUBE}", first, began))
        for index in range(history):
            cube.AddHistory(dbus.UInt32(first + 1 + index), dbus.Byte(1 + index % 2),
                            dbus.UInt64(began + 5 + 5 * index), dbus.UInt32(5))
        log_path = os.path.join(directory, "run.log")
        log = open(log_path, "w")
        run = subprocess.Popen([trackee, "run"], env=run_env, stdin=subprocess.DEVNULL, stderr=log)
        processes.append(run)
        reader = sqlite3.connect(f"file:{store}?mode=ro", uri=True)

        def fired():
            try:
                return reader.execute("SELECT count(*) FROM rule_firing").fetchone()[0]
            except sqlite3.OperationalError:
                return 0

        wait_for(lambda: "connected to the cube" in open(log_path).read(), 30, "the connection")
        connected = time.perf_counter()
        wait_for(lambda: fired() >= history, 60, f"the catch-up of {history} intervals")
        catch_up = time.perf_counter() - connected
        applied = fired()
        wait_for(lambda: "desk:" in open(log_path).read(), 10, "the desk start line")
        attached = [line for line in open(log_path) if "desk:" in line][0].strip()

        # --- idle, connected
        time.sleep(2)

        def threads():
            times = {}
            for task in os.listdir(f"/proc/{run.pid}/task"):
                try:
                    times[task] = int(open(f"/proc/{run.pid}/task/{task}/schedstat").read().split()[0])
                except (FileNotFoundError, ProcessLookupError):
                    pass
            return times

        before, wall_start = threads(), time.monotonic()
        time.sleep(idle_seconds)
        after = threads()
        cpu_used = sum(ns - before.get(task, 0) for task, ns in after.items()) / 1e9
        wall = time.monotonic() - wall_start

        # --- latency: a flip to the change committed
        def running():
            return reader.execute('SELECT count(*) FROM entry WHERE "end" IS NULL').fetchone()[0]

        latencies = []
        for index in range(flips):
            facet, wanted = (1, 1) if index % 2 == 0 else (12, 0)
            if running() == wanted:
                raise SystemExit("bench/cube.py: the timer is already as the flip will leave it")
            started = time.perf_counter()
            cube.Flip(dbus.Byte(facet), dbus.UInt64(0))
            wait_for(lambda: running() == wanted, 5, f"the flip to {facet}")
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(0.1)

        print(f"attached: {attached.split('desk:', 1)[1].strip()}")
        print()
        print("| cube daemon | measured | target |")
        print("| --- | ---: | ---: |")
        print(f"| catch-up of {history} intervals made out of range: connected → the last one's firing committed "
              f"({applied} firings) | {catch_up * 1000:.0f} ms | ≤ 1 s |")
        print(f"| idle CPU over {wall:.0f} s, the cube connected | "
              f"{cpu_used * 1000:.1f} ms = {cpu_used / wall * 100:.4f} % | ≤ 0.1 % |")
        print(f"| a flip → its start or stop committed, p50 / p99 / max of {len(latencies)} | "
              f"{busbench.percentile(latencies, 50):.1f} / {busbench.percentile(latencies, 99):.1f} / {max(latencies):.1f} ms | p99 ≤ 20 ms |")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
