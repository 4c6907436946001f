#!/usr/bin/env python3
"""Checks trackee's RRULE expansion against recurring-ical-events on random rules.

Makes SEED-determined random rules across FREQ (YEARLY to MINUTELY), INTERVAL, BYDAY (with and
without ordinals), BYMONTHDAY, BYMONTH, BYSETPOS, BYHOUR, COUNT, UNTIL and
WKST, each on a DTSTART in one of several zones (most with DST). Each
DTSTART is moved to the rule's first instance (as python-dateutil finds it
from a random start), so every set is defined. The rules go, a batch per
.ics file, to `trackee calendar list FILE --from --to --json` and to the
package (through conformance.py's oracle, one fresh process per file), over
a five-year window and a six-week one (which makes trackee jump into a
rule instead of walking it from DTSTART), and each rule's sets of start
instants are compared.

Usage: scripts/random-rules.py TRACKEE_BIN [--seed N] [--rules N] [--batch N] [--verbose]
A rule where the package is wrong by RFC 5545 (README, "Calendar
conformance": WEEKLY BYSETPOS in DTSTART's week) counts as documented only
when trackee gives exactly the RFC's set (rfc_weekly_setpos).

Exit status: 0 when every rule agrees or differs only as documented; 1
otherwise.
"""
import argparse
import datetime as dt
import os
import random
import signal
import sys
import tempfile
from pathlib import Path
from zoneinfo import ZoneInfo

from dateutil import rrule as du

sys.path.insert(0, str(Path(__file__).resolve().parent))
import conformance  # noqa: E402  (its oracle and its trackee runner)

# UTC is written as DTSTART:…Z, the others with TZID.
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "America/Santiago", "UTC"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
WINDOWS = [((2024, 6, 1), (2029, 6, 1)), ((2027, 3, 1), (2027, 4, 12))]


WEEKLY_SETPOS = ("WEEKLY BYSETPOS in DTSTART's week: RFC 5545 3.3.10, \"BYSETPOS operates on a set of recurrence "
                 "instances in one interval of the recurrence rule. For example, in a WEEKLY rule, the interval would "
                 "be one week A set of recurrence instances starts at the beginning of the interval defined by the "
                 "FREQ rule part\"; the package (python-dateutil, its issue 1398) counts from DTSTART's day instead; "
                 "trackee gives the RFC's set")


def rfc_weekly_setpos(rule, first, zone, all_day, window):
    """The start instants in `window` that RFC 5545 gives a WEEKLY BYSETPOS rule.

    python-dateutil counts BYSETPOS in a whole week only when DTSTART is
    the week's first day (WKST), so it is asked from there, with DTSTART's
    time of day and weekday kept; its instances from DTSTART on, cut by
    COUNT (which, as in the package, does not count a DTSTART the rule does
    not give), with DTSTART, are the set.
    """
    parts = dict(p.split("=", 1) for p in rule.split(";"))
    count = int(parts.pop("COUNT", 0))
    parts.setdefault("BYDAY", DAYS[first.weekday()])
    week_start = first - dt.timedelta(days=(first.weekday() - DAYS.index(parts.get("WKST", "MO"))) % 7)
    local = ZoneInfo(zone)
    aware = (lambda t: t) if all_day else (lambda t: t.replace(tzinfo=local))
    end = dt.datetime.fromtimestamp(window[1], local).replace(tzinfo=None)
    found = []
    for x in du.rrulestr(";".join(f"{k}={v}" for k, v in parts.items()), dtstart=aware(week_start)):
        x = x.replace(tzinfo=None)
        if x > end or (count and len(found) >= count):
            break
        if x >= first:
            found.append(x)
    return sorted(s for s in {int(t.replace(tzinfo=local).timestamp()) for t in found + [first]}
                  if window[0] <= s < window[1])


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def random_rule(rng, all_day):
    freq = rng.choices(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY"], [25, 30, 25, 20, 6, 3])[0]
    if all_day and freq in ("HOURLY", "MINUTELY"):
        freq = "DAILY"
    parts = [f"FREQ={freq}"]
    if rng.random() < 0.45:
        parts.append(f"INTERVAL={rng.choice([1, 2, 2, 3, 4, 5])}")
    months = []
    if rng.random() < (0.3 if freq != "YEARLY" else 0.5):
        months = sorted(rng.sample(range(1, 13), rng.choice([1, 1, 2, 3, 4])))
        parts.append("BYMONTH=" + ",".join(map(str, months)))
    if rng.random() < 0.35:
        # Days every BYMONTH month has, so that the rule has instances.
        longest = min([31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1] for m in months) if months else 31
        pool = list(range(1, longest + 1)) + [-1, -1, -2, -3, -7, -10]
        parts.append("BYMONTHDAY=" + ",".join(map(str, rng.sample(pool, rng.choice([1, 1, 2, 3])))))
    if rng.random() < 0.55:
        chosen = rng.sample(DAYS, rng.choice([1, 1, 2, 3, 5]))
        entries = []
        for day in chosen:
            if freq in ("MONTHLY", "YEARLY") and rng.random() < 0.55:
                if freq == "MONTHLY" or months:
                    n = rng.choice([1, 2, 3, 4, 5, -1, -1, -2, -5])
                else:
                    n = rng.choice([1, 2, 10, 20, 26, 52, 53, -1, -2, -10, -52, -53])
                entries.append(f"{n}{day}")
            else:
                entries.append(day)
        parts.append("BYDAY=" + ",".join(entries))
    if not all_day and rng.random() < 0.3:
        parts.append("BYHOUR=" + ",".join(map(str, sorted(rng.sample(range(24), rng.choice([1, 2, 3]))))))
    if rng.random() < 0.3:
        parts.append("BYSETPOS=" + ",".join(map(str, rng.sample([1, 2, 3, -1, -1, -2, -3], rng.choice([1, 1, 2])))))
    if rng.random() < 0.3:
        parts.append(f"WKST={rng.choice(DAYS)}")
    tail = parts[1:]
    rng.shuffle(tail)  # the parts may come in any order after FREQ
    return ";".join(parts[:1] + tail)


def make_rule(rng, index):
    """One rule, moved to its first instance, as (uid, zone, lines of its VEVENT, rule text)."""
    while True:
        zone = ZONES[index % len(ZONES)]
        all_day = rng.random() < 0.1
        rule = random_rule(rng, all_day)
        start = dt.datetime(rng.choice([2025, 2026]), rng.randint(1, 12), rng.randint(1, 28),
                            0 if all_day else rng.randint(0, 23), 0 if all_day else rng.choice([0, 15, 30, 45]))
        # A rule with no instance makes python-dateutil search to the year
        # 9999; a rule with one finds it in milliseconds.
        signal.setitimer(signal.ITIMER_REAL, 0.4)
        try:
            instances = []
            for x in du.rrulestr(rule, dtstart=start):
                if x > start + dt.timedelta(days=6 * 366) or len(instances) >= 30:
                    break
                instances.append(x)
        except (Timeout, ValueError):
            instances = []
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if not instances:
            continue
        first = instances[0]
        bounded = rule
        # Sub-daily rules always end, or the package would list thousands.
        short = "FREQ=HOURLY" in rule or "FREQ=MINUTELY" in rule
        if rng.random() < (0.5 if short else 0.3):
            bounded += f";COUNT={rng.randint(1, 25)}"
        elif short or rng.random() < 0.45:
            # UNTIL on an instance (it is inclusive), or just before or after one.
            pick = instances[rng.randrange(len(instances))]
            pick += rng.choice([dt.timedelta(0), dt.timedelta(0), dt.timedelta(seconds=-1), dt.timedelta(hours=1)])
            if all_day:
                bounded += f";UNTIL={pick:%Y%m%d}"
            else:
                utc = pick.replace(tzinfo=ZoneInfo(zone)).astimezone(dt.timezone.utc)
                bounded += f";UNTIL={utc:%Y%m%dT%H%M%SZ}"
        uid = f"rule-{index:05d}"
        if all_day:
            dtstart = f"DTSTART;VALUE=DATE:{first:%Y%m%d}"
        elif zone == "UTC":
            dtstart = f"DTSTART:{first:%Y%m%dT%H%M%S}Z"
        else:
            dtstart = f"DTSTART;TZID={zone}:{first:%Y%m%dT%H%M%S}"
        lines = ["BEGIN:VEVENT", f"UID:{uid}", "DTSTAMP:20260101T000000Z", dtstart,
                 "DURATION:P1D" if all_day else "DURATION:PT30M", f"RRULE:{bounded}", f"SUMMARY:{uid}", "END:VEVENT"]
        return uid, zone, lines, bounded, dtstart, first, all_day


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("trackee")
    parser.add_argument("--seed", type=int, default=5545)
    parser.add_argument("--rules", type=int, default=1200)
    parser.add_argument("--batch", type=int, default=60)
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    signal.signal(signal.SIGALRM, _alarm)
    # Stopped halfway, it still removes its folder of calendars.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))

    rng = random.Random(args.seed)
    made = [make_rule(rng, i) for i in range(args.rules)]
    by_zone = {}
    for entry in made:
        by_zone.setdefault(entry[1], []).append(entry)

    agree, documented_rules, differ = 0, [], []
    with tempfile.TemporaryDirectory(prefix="trackee-random-rules-") as folder:
        for zone, entries in by_zone.items():
            local = ZoneInfo(zone)
            windows = [(int(dt.datetime(*a, tzinfo=local).timestamp()), int(dt.datetime(*b, tzinfo=local).timestamp()))
                       for a, b in WINDOWS]
            for at in range(0, len(entries), args.batch):
                batch = entries[at:at + args.batch]
                path = Path(folder) / f"{zone.replace('/', '-')}-{at // args.batch}.ics"
                text = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee//random rules//EN"]
                for entry in batch:
                    text += entry[2]
                text.append("END:VCALENDAR")
                path.write_text("\r\n".join(text) + "\r\n")
                theirs = conformance.oracle(path, zone, windows)
                problems = {entry[0]: [] for entry in batch}
                # Rules where the package is wrong by the RFC, held to the RFC's set instead.
                explained = {entry[0]: True for entry in batch}
                for window, expected in zip(windows, theirs):
                    ours = conformance.trackee(args.trackee, path, zone, *window)
                    if "error" in expected or "error" in ours:
                        for uid in problems:
                            explained[uid] = False
                            problems[uid].append(f"package {expected.get('error', 'ok')}; trackee {ours.get('error', 'ok')}")
                        continue
                    for uid in problems:
                        a = sorted(s for u, s in expected["occurrences"] if u == uid)
                        b = sorted(s for u, s in ours["occurrences"] if u == uid)
                        if a != b:
                            entry = next(e for e in batch if e[0] == uid)
                            explained[uid] = explained[uid] and "FREQ=WEEKLY" in entry[3] and "BYSETPOS" in entry[3] \
                                and b == rfc_weekly_setpos(entry[3], entry[5], zone, entry[6], window)
                            only_a = sorted(set(a) - set(b))
                            only_b = sorted(set(b) - set(a))
                            problems[uid].append(
                                f"{conformance.iso(window[0], zone)[:10]}..{conformance.iso(window[1], zone)[:10]}: "
                                f"package {len(a)}, trackee {len(b)}; only package: "
                                + ", ".join(conformance.iso(s, zone) for s in only_a[:3])
                                + "; only trackee: " + ", ".join(conformance.iso(s, zone) for s in only_b[:3]))
                for uid, zone_, _, rule, dtstart, _, _ in batch:
                    if not problems[uid]:
                        agree += 1
                        if args.verbose:
                            print(f"agree     {uid} {zone_} {dtstart} {rule}")
                        continue
                    if explained[uid]:
                        documented_rules.append(uid)
                        print(f"differs   {uid} {zone_} {dtstart} RRULE:{rule}: documented: {WEEKLY_SETPOS}")
                    else:
                        differ.append(uid)
                        print(f"DIFFERS   {uid} {zone_} {dtstart} RRULE:{rule}")
                    for p in problems[uid]:
                        print(f"          {p}")
    print(f"\n{agree} of {len(made)} random rules (seed {args.seed}, {len(ZONES)} zones) agree with "
          f"recurring-ical-events; {len(documented_rules)} differ as documented; {len(differ)} differ otherwise")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
