"""What bench/desk.py and bench/cube.py share: a private bus's
arguments, polling for a condition, and a percentile."""
import os
import time


def bus_arguments(directory):
    """dbus-daemon's arguments for the repository's private session bus
    (Tests/Fixtures/private-bus.conf, where anyone may own any name and
    see every message) on a socket in `directory`."""
    config = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures", "private-bus.conf")
    return ["--config-file", config, "--address", "unix:path=" + os.path.join(directory, "bus")]


def wait_for(predicate, seconds, what, script, every):
    """Polls `predicate` every `every` seconds; ends `script` with a
    sentence naming `what` when it does not hold within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(every)
    raise SystemExit(f"{script}: {what} did not happen within {seconds} s")


def percentile(values, p):
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))
    return ordered[index]
