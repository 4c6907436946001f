#!/usr/bin/env python3
"""Checks trackee's recurrence expansion against recurring-ical-events.

The package ships its test suite's calendars (about 95 .ics files) inside
its wheel. For each one, this expands the VEVENTs with trackee
(`trackee calendar list FILE --from --to --json`) and with the package
(after x_wr_timezone.to_standard, which recurring_ical_events.of applies),
over several windows, and compares the sets of (UID, start instant) of the
occurrences that are not cancelled. Runs under the virtualenv `make
conformance` makes.

Windows, in the zone ZONE (default Europe/Berlin): 1970-2040 as a whole,
then a week around the first, the middle and the last occurrence the
package finds, and a window that starts halfway through an occurrence.

Usage: scripts/conformance.py TRACKEE_BIN [--zone ZONE] [--only NAME] [--verbose]
Exit status: 0 when every calendar agrees or differs only as README
("Calendar conformance") documents; 1 otherwise.
"""
import argparse
import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import recurring_ical_events

CALENDARS = Path(recurring_ical_events.__file__).parent / "test" / "calendars"

# Calendars where trackee differs on purpose, with the RFC 5545 reason.
# README's "Calendar conformance" section says the same; a Swift test pins
# trackee's answer for each.
DOCUMENTED = {
    "issue_201_mixed_datetime_and_date.ics":
        "DTSTART is a DATE and DTEND a UTC DATE-TIME, which 3.8.2.2 forbids; trackee keeps DTSTART's "
        "meaning (an all-day event from local midnight), the package starts it at 00:00 UTC",
    "issue_201_test_matrix.ics":
        "END:VTOOD is read as the END of the VTODO, as the package reads it; two of its events pair a DATE or "
        "floating DTSTART with a UTC DTEND (3.8.2.2 and 3.6.1: DTEND takes DTSTART's form); trackee keeps "
        "DTSTART's meaning (local midnight, local wall time), the package reads the start as UTC",
    "bad_rrule_missing_until_event.ics":
        "the RRULE writes UNTL for UNTIL (3.3.10); the package refuses the whole calendar, trackee skips that "
        "event with a warning and reads the rest",
    "issue_28_rrule_with_UTC_endinginZ.ics":
        "an all-day series with a UTC DATE-TIME UNTIL (3.3.10 requires a DATE); trackee compares it with "
        "each instance's local start, so Outlook's UNTIL (the last day's midnight in its zone) keeps the "
        "last day; the package cuts UNTIL to its UTC date and drops it",
    "issue_75_range_parameter.ics":
        "a UTC series with a DATE UNTIL (3.3.10 requires a DATE-TIME); UNTIL bounds the set inclusively, "
        "so trackee keeps the instances on that day, the package stops at its 00:00 UTC",
}

# One fresh Python process per calendar: icalendar caches time zones for the
# whole process, so one calendar could change how the next one reads.
ORACLE = r"""
import datetime as dt, json, sys, warnings
from zoneinfo import ZoneInfo
warnings.simplefilter("ignore")
import icalendar, recurring_ical_events
path, zone, windows = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
local = ZoneInfo.no_cache(zone)
cal = icalendar.Calendar.from_ical(open(path, "rb").read())
def instant(value):
    if isinstance(value, dt.datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=local)
        return int(value.timestamp())
    return int(dt.datetime(value.year, value.month, value.day, tzinfo=local).timestamp())
out = []
for start, end in windows:
    try:
        query = recurring_ical_events.of(cal, components=["VEVENT"])
        found = query.between(dt.datetime.fromtimestamp(start, local), dt.datetime.fromtimestamp(end, local))
    except Exception as error:
        out.append({"error": f"{type(error).__name__}: {error}"})
        continue
    items = []
    for o in found:
        if str(o.get("STATUS", "")).upper() == "CANCELLED":
            continue
        items.append([str(o.get("UID", "")), instant(o["DTSTART"].dt)])
    out.append({"occurrences": sorted(items)})
print(json.dumps(out))
"""


def oracle(path, zone, windows):
    run = subprocess.run([sys.executable, "-c", ORACLE, str(path), zone, json.dumps(windows)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return [{"error": run.stderr.strip().splitlines()[-1] if run.stderr.strip() else "failed"}] * len(windows)
    return json.loads(run.stdout)


def iso(seconds, zone):
    from zoneinfo import ZoneInfo
    return dt.datetime.fromtimestamp(seconds, ZoneInfo(zone)).isoformat()


def trackee(binary, path, zone, start, end):
    env = dict(os.environ, TZ=zone, NO_COLOR="1", XDG_CONFIG_HOME="/nonexistent-trackee-config")
    run = subprocess.run([binary, "calendar", "list", str(path), "--from", iso(start, zone), "--to", iso(end, zone),
                          "--json"], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        return {"error": run.stderr.strip()}
    anonymous = path.name + "#"
    items = []
    for o in json.loads(run.stdout):
        if o["status"] == "cancelled":
            continue
        uid = "" if o["uid"].startswith(anonymous) else o["uid"]
        items.append([uid, int(dt.datetime.fromisoformat(o["start"]).timestamp())])
    return {"occurrences": sorted(items)}


def windows_for(path, zone):
    """The whole range, then windows placed on what the package finds there."""
    whole = (int(dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc).timestamp()),
             int(dt.datetime(2040, 1, 1, tzinfo=dt.timezone.utc).timestamp()))
    first = oracle(path, zone, [whole])[0]
    windows = [whole]
    starts = sorted(s for _, s in first.get("occurrences", []))
    week = 7 * 86400
    for s in ([starts[0], starts[len(starts) // 2], starts[-1]] if starts else []):
        windows.append((s - 3 * 86400, s + 4 * 86400))
    if starts:
        windows.append((starts[len(starts) // 2] + 1, starts[len(starts) // 2] + week))
    return windows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trackee")
    parser.add_argument("--zone", default="Europe/Berlin")
    parser.add_argument("--only")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()

    files = sorted(CALENDARS.glob("*.ics"))
    if args.only:
        files = [f for f in files if args.only in f.name]
    agree, documented, differ = [], [], []
    for path in files:
        windows = windows_for(path, args.zone)
        theirs = oracle(path, args.zone, windows)
        problems = []
        for window, expected in zip(windows, theirs):
            ours = trackee(args.trackee, path, args.zone, *window)
            if "error" in expected and "error" in ours:
                continue  # both refuse the calendar (the package raises by default)
            if "error" in expected or "error" in ours:
                problems.append(f"{iso(window[0], args.zone)}..{iso(window[1], args.zone)}: "
                                f"package {expected.get('error', 'ok')}; trackee {ours.get('error', 'ok')}")
                continue
            a = set(map(tuple, expected["occurrences"]))
            b = set(map(tuple, ours["occurrences"]))
            if a != b or len(expected["occurrences"]) != len(ours["occurrences"]):
                only_theirs = sorted(a - b, key=lambda x: x[1])
                only_ours = sorted(b - a, key=lambda x: x[1])
                problems.append(
                    f"{iso(window[0], args.zone)}..{iso(window[1], args.zone)}: package {len(expected['occurrences'])}, "
                    f"trackee {len(ours['occurrences'])}; only package: "
                    + ", ".join(f"{u or '(no uid)'} {iso(s, args.zone)}" for u, s in only_theirs[:4])
                    + "; only trackee: "
                    + ", ".join(f"{u or '(no uid)'} {iso(s, args.zone)}" for u, s in only_ours[:4]))
        if not problems:
            agree.append(path.name)
            if args.verbose:
                print(f"agree     {path.name} ({len(windows)} windows)")
        elif path.name in DOCUMENTED:
            documented.append(path.name)
            print(f"differs   {path.name}: documented: {DOCUMENTED[path.name]}")
        else:
            differ.append(path.name)
            print(f"DIFFERS   {path.name}")
            for p in problems:
                print(f"          {p}")
    print(f"\n{len(agree)} of {len(files)} calendars agree with recurring-ical-events "
          f"{recurring_ical_events.__version__ if hasattr(recurring_ical_events, '__version__') else ''}".rstrip()
          + f"; {len(documented)} differ as documented; {len(differ)} differ otherwise")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
