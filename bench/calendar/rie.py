#!/usr/bin/env python3
"""Times recurring-ical-events, the project's calendar oracle, on one file.

It reads the file, parses it with icalendar, applies x-wr-timezone (a no-op
unless the calendar has X-WR-TIMEZONE, as the package's own command line
does), and expands every VEVENT over [FROM, TO) with
recurring_ical_events.of(cal).between(FROM, TO), consuming the result.
FROM and TO are local midnights in $TZ (default Europe/Prague), passed as
aware datetimes, so the window is exactly the one naive.c and trackee use.
between() selects occurrences that overlap the window; the benchmark's file
has no event crossing midnight, so that is the same as "starts in it".

It prints one line to stdout, "COUNT SECONDS" (SECONDS: the importing of
the packages, reading, parsing and expanding, timed from the top of this
script, so the interpreter's own start, some 20 ms, is left out), and the
parts to stderr.

Runs in the virtualenv bench/calendar/run.sh makes under bench/out/venv
(recurring-ical-events 3.8.2 and x-wr-timezone from PyPI):
  python3 -m venv bench/out/venv
  bench/out/venv/bin/pip install recurring-ical-events==3.8.2 x-wr-timezone
Usage: bench/out/venv/bin/python bench/calendar/rie.py FILE FROM TO
       (FROM, TO: YYYYMMDD, e.g. 20270101 20280101)
"""
import time

t0 = time.perf_counter()

import datetime as dt  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from zoneinfo import ZoneInfo  # noqa: E402

import icalendar  # noqa: E402
import recurring_ical_events  # noqa: E402
import x_wr_timezone  # noqa: E402


def main() -> int:
    if len(sys.argv) != 4:
        print("usage: rie.py FILE FROM TO   (FROM, TO: YYYYMMDD)", file=sys.stderr)
        return 64
    path, a, b = sys.argv[1:]
    zone = ZoneInfo(os.environ.get("TZ") or "Europe/Prague")
    start = dt.datetime.strptime(a, "%Y%m%d").replace(tzinfo=zone)
    stop = dt.datetime.strptime(b, "%Y%m%d").replace(tzinfo=zone)

    t1 = time.perf_counter()
    with open(path, "rb") as f:
        data = f.read()
    cal = x_wr_timezone.to_standard(icalendar.Calendar.from_ical(data))
    t2 = time.perf_counter()
    count = 0
    for _ in recurring_ical_events.of(cal).between(start, stop):
        count += 1
    t3 = time.perf_counter()

    print(f"{count} {t3 - t0:.3f}")
    print(f"rie: {count} occurrences; import {t1 - t0:.2f} s, read and parse {t2 - t1:.2f} s, "
          f"expand {t3 - t2:.2f} s, total {t3 - t0:.2f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
