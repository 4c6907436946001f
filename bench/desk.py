#!/usr/bin/python3
"""The desk sources' costs (issue 19): `trackee run` attached to mocks of
logind, UPower, NetworkManager and Mutter's idle monitor on a private bus.

idle:    CPU time over BENCH_IDLE_SECONDS (default 60) after start-up, from
         /proc/PID/task/*/schedstat, and resident memory (VmRSS at the end, VmHWM).
latency: BENCH_LOCKS (default 60) screen locks, a second apart: the time
         from the mock's Lock signal to the `stop` it fires committed in
         the store (the store file polled every 0.2 ms by a reader).

Runs Debian's python (dbus-python and python-dbusmock). Prints a Markdown
table. Usage: bench/desk.py path/to/trackee
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
FIXTURES = os.path.join(HERE, "..", "Tests", "Fixtures", "dbusmock")
MOCK = "org.freedesktop.DBus.Mock"

RULES = """rules:
  - id: lock
    when: {session: locked}
    do: [stop]
  - id: unlock
    when: {session: unlocked}
    do: [{start: {project: Desk}}]
  - id: away
    when: {idle: {for: 10m}}
    do: [{stop: {at: "{{trigger.idle_since}}"}}]
  - id: suspend
    when: {sleep: suspend}
    do: [stop]
  - id: office
    when: {network: {ssid: ACME-Office}}
    do: [{start: {project: Office}}]
  - id: battery
    when: {power: battery}
    do: [{notify: "on battery"}]
"""


def wait_for(predicate, seconds, what):
    busbench.wait_for(predicate, seconds, what, "bench/desk.py", 0.01)


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: bench/desk.py path/to/trackee")
    trackee = os.path.abspath(sys.argv[1])
    idle_seconds = int(os.environ.get("BENCH_IDLE_SECONDS", "60"))
    locks = int(os.environ.get("BENCH_LOCKS", "60"))
    directory = tempfile.mkdtemp(prefix="trackee-bench-desk.")
    processes = []
    try:
        daemon = subprocess.Popen(
            ["dbus-daemon", *busbench.bus_arguments(directory), "--nofork", "--print-address"],
            stdout=subprocess.PIPE, text=True)
        processes.append(daemon)
        address = daemon.stdout.readline().strip()
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, DBUS_SYSTEM_BUS_ADDRESS=address)
        bus = dbus.bus.BusConnection(address)

        def mock(arguments, name):
            processes.append(subprocess.Popen(
                [sys.executable, "-m", "dbusmock"] + arguments, env=env,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_for(lambda: bus.name_has_owner(name), 10, f"the {name} mock")

        mock(["--system", "--template", "logind"], "org.freedesktop.login1")
        mock(["--system", "--template", "upower"], "org.freedesktop.UPower")
        mock(["--system", "--template", "networkmanager"], "org.freedesktop.NetworkManager")
        mock(["--session", "--template", os.path.join(FIXTURES, "mutter_idle_monitor.py")],
             "org.gnome.Mutter.IdleMonitor")
        login = bus.get_object("org.freedesktop.login1", "/org/freedesktop/login1")
        session_path = login.AddSession("c1", "seat0", dbus.UInt32(os.getuid()), "bench", True,
                                        dbus_interface=MOCK)
        session = bus.get_object("org.freedesktop.login1", session_path)

        config = os.path.join(directory, "config", "trackee")
        os.makedirs(config)
        with open(os.path.join(config, "rules.yaml"), "w") as f:
            f.write(RULES)
        with open(os.path.join(config, "config.yaml"), "w") as f:
            f.write("create_projects: always\n")
        store = os.path.join(directory, "trackee.sqlite3")
        log_path = os.path.join(directory, "run.log")
        run_env = dict(env, XDG_CONFIG_HOME=os.path.join(directory, "config"),
                       XDG_DATA_HOME=os.path.join(directory, "data"), TRACKEE_STORE=store, XDG_SESSION_ID="c1")
        for key in ("NOTIFY_SOCKET", "JOURNAL_STREAM", "TRACKEE_NOW"):
            run_env.pop(key, None)
        log = open(log_path, "w")
        run = subprocess.Popen([trackee, "run"], env=run_env, stdin=subprocess.DEVNULL, stderr=log)
        processes.append(run)
        wait_for(lambda: "desk:" in open(log_path).read(), 10, "the desk start line")
        attached = [line for line in open(log_path) if "desk:" in line][0].strip()

        # --- idle
        time.sleep(2)

        def threads():
            # Nanoseconds each thread has been on a CPU (schedstat is exact
            # where /proc/PID/stat counts 10 ms ticks).
            times = {}
            for task in os.listdir(f"/proc/{run.pid}/task"):
                try:
                    times[task] = int(open(f"/proc/{run.pid}/task/{task}/schedstat").read().split()[0])
                except (FileNotFoundError, ProcessLookupError):
                    pass
            return times

        def ticks():
            fields = open(f"/proc/{run.pid}/stat").read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

        before, ticks_before, wall_start = threads(), ticks(), time.monotonic()
        time.sleep(idle_seconds)
        after, ticks_after = threads(), ticks()
        # A thread that ended meanwhile is left out (its share is lost); one
        # that began counts whole.
        cpu_used = sum(ns - before.get(task, 0) for task, ns in after.items()) / 1e9
        cpu_ticks = ticks_after - ticks_before
        wall = time.monotonic() - wall_start
        status = dict(line.split(":", 1) for line in open(f"/proc/{run.pid}/status") if ":" in line)
        rss_mb = int(status["VmRSS"].split()[0]) / 1024
        hwm_mb = int(status["VmHWM"].split()[0]) / 1024

        # --- latency: lock -> stop committed
        subprocess.run([trackee, "start", "-p", "Desk", "--store", store], env=run_env,
                       stdout=subprocess.DEVNULL, check=True)
        reader = sqlite3.connect(f"file:{store}?mode=ro", uri=True)

        def running():
            return reader.execute('SELECT count(*) FROM entry WHERE "end" IS NULL').fetchone()[0]

        latencies = []
        for _ in range(locks):
            # Edges are keyed to the second: one lock per second.
            time.sleep(max(0.0, 1.05 - (time.time() % 1.0)))
            started = time.perf_counter()
            session.Lock(dbus_interface="org.freedesktop.login1.Session")
            while running() != 0:
                if time.perf_counter() - started > 5:
                    raise SystemExit("bench/desk.py: a lock fired no stop within 5 s")
                time.sleep(0.0002)
            latencies.append((time.perf_counter() - started) * 1000)
            time.sleep(max(0.0, 1.05 - (time.time() % 1.0)))
            session.Unlock(dbus_interface="org.freedesktop.login1.Session")
            wait_for(lambda: running() == 1, 5, "the unlock's start")

        print(f"attached: {attached.split('desk:', 1)[1].strip()}")
        print()
        print("| desk daemon | measured | target |")
        print("| --- | ---: | ---: |")
        print(f"| idle CPU over {wall:.0f} s (threads alive at the end; whole process in 10 ms ticks) | "
              f"{cpu_used * 1000:.1f} ms = {cpu_used / wall * 100:.4f} % ({cpu_ticks * 1000:.0f} ms) | ≤ 0.1 % |")
        print(f"| RSS after idling (start-up peak) | {rss_mb:.1f} MB ({hwm_mb:.1f} MB) | ≤ 25 MB |")
        print(f"| lock signal → stop committed, p50 / p99 / max of {len(latencies)} | "
              f"{busbench.percentile(latencies, 50):.1f} / {busbench.percentile(latencies, 99):.1f} / {max(latencies):.1f} ms | p99 ≤ 20 ms |")
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGKILL if process is not processes[-1] else signal.SIGTERM)
                try:
                    process.wait(5)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
