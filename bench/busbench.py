"""What bench/desk.py and bench/cube.py share: a private bus's
configuration, polling for a condition, and a percentile."""
import os
import time


def bus_config(directory):
    """A session-type bus listening in `directory`, where anyone may own
    any name and see every message; returns its configuration file."""
    path = os.path.join(directory, "bus.conf")
    with open(path, "w") as f:
        f.write(f"""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={directory}/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
""")
    return path


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
