#!/usr/bin/env python3
"""Writes the calendar benchmark's fixture: one deterministic iCalendar file.

The file is what a large work calendar exported from a server looks like,
written to RFC 5545 (CRLF line endings, lines folded at 75 octets without
splitting a UTF-8 character, TEXT values escaped):

- one VCALENDAR with one VTIMEZONE, Europe/Prague (CET/CEST, the DAYLIGHT
  and STANDARD observances with their yearly RRULEs);
- N events (--events, default 10,000), each with its own UID, a
  DTSTART;TZID=Europe/Prague local time, DTEND or DURATION, SUMMARY,
  DESCRIPTION (several lines, long enough to fold), LOCATION and CATEGORIES;
- four fifths of them single events spread over 2027;
- one fifth recurring series starting in September to December 2026, split
  evenly among weekly on one to three weekdays (FREQ=WEEKLY;BYDAY=..),
  every other day (FREQ=DAILY;INTERVAL=2) and the last Friday of each month
  (FREQ=MONTHLY;BYDAY=-1FR); none ends except one in 40, which has an UNTIL
  in 2027 (in UTC, as RFC 5545 requires with a TZID start; half of them
  exactly on an instance, which UNTIL includes);
- about a quarter of the series exclude instances with EXDATE (two to five
  values in one property, and in half of them a second EXDATE property);
- about an eighth of the series move one to three instances of 2027 with a
  RECURRENCE-ID override (by one to three hours or by one or two days, never
  onto another instance) that also changes the SUMMARY. Overrides are extra
  VEVENTs with their series' UID, mostly right after their series, one in
  four at the end of the file.

No event crosses midnight, so "starts in the window" and "overlaps the
window" select the same occurrences for any window of whole days.

It prints what it wrote and the number of occurrences in calendar year 2027
(Europe/Prague) according to its own model of these three rules, with and
without EXDATE and overrides applied. recurring-ical-events (rie.py) is the
oracle; the model is a cross-check. Everything is drawn from
random.Random(--seed), so the same arguments give the same bytes.

Usage: bench/calendar/generate.py OUT.ics [--events 10000] [--seed 1]
"""
import argparse
import datetime as dt
import random
import sys
from zoneinfo import ZoneInfo

TZID = "Europe/Prague"
ZONE = ZoneInfo(TZID)
UTC = dt.timezone.utc
YEAR_START = dt.datetime(2027, 1, 1)           # the window, local wall time
YEAR_END = dt.datetime(2028, 1, 1)
LAST_DAY = dt.date(2027, 12, 31)                # instances are built up to here
WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

VTIMEZONE = [
    "BEGIN:VTIMEZONE",
    "TZID:Europe/Prague",
    "X-LIC-LOCATION:Europe/Prague",
    "BEGIN:DAYLIGHT",
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0200",
    "TZNAME:CEST",
    "DTSTART:19700329T020000",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "END:DAYLIGHT",
    "BEGIN:STANDARD",
    "TZOFFSETFROM:+0200",
    "TZOFFSETTO:+0100",
    "TZNAME:CET",
    "DTSTART:19701025T030000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD",
    "END:VTIMEZONE",
]

SUMMARIES = [
    "Weekly sync", "Stand-up", "Design review", "1:1 with Jana", "Sprint planning",
    "Porada týmu", "Code review; backend", "Customer call, Acme", "Retrospective",
    "Budget \\ forecast", "Schůzka s klientem – Globex", "Lunch & learn",
    "Release readiness", "Interview: senior engineer", "Office hours",
]
LOCATIONS = [
    "Room 4.12", "Praha – Karlín, Pernerova 697/35", "Brno office, 2nd floor",
    "https://meet.example.com/abc-defg-hij", "Zasedačka Vltava", "Café Louvre, Národní 22",
    "Online", "Building B; room 101",
]
CATEGORY_SETS = [
    ["Work"], ["Work", "Meeting"], ["Meeting", "Billable"], ["Personal"],
    ["Work", "Focus time"], ["Client: Acme", "Billable"], ["Schůzky"],
]
DESCRIPTION_LINES = [
    "Agenda: status of each workstream, blockers, decisions needed this week.",
    "Please read the notes from last time before joining; link in the invite.",
    "Dial-in: +420 222 000 111, PIN 4455#; video link in the location field.",
    "Připravte si prosím podklady k rozpočtu a plán na další čtvrtletí.",
    "Bring laptops, chargers, and the printed draft (pages 3–7).",
    "Notes are kept in the shared folder \"Meetings\\2027\".",
]


def escape_text(s: str) -> str:
    return (s.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\n", "\\n"))


def fold(line: str) -> bytes:
    """One content line, folded at 75 octets (RFC 5545 3.1), with its CRLF."""
    b = line.encode("utf-8")
    parts, start, limit = [], 0, 75
    while len(b) - start > limit:
        end = start + limit
        while (b[end] & 0xC0) == 0x80:          # never split a UTF-8 character
            end -= 1
        parts.append(b[start:end])
        start, limit = end, 74                   # the leading space is one octet
    parts.append(b[start:])
    return b"\r\n ".join(parts) + b"\r\n"


def local(t: dt.datetime) -> str:
    return t.strftime("%Y%m%dT%H%M%S")


def utc_of(t: dt.datetime) -> dt.datetime:
    return t.replace(tzinfo=ZONE).astimezone(UTC)


def in_window(t: dt.datetime) -> bool:
    return YEAR_START <= t < YEAR_END


def last_friday(year: int, month: int) -> dt.date:
    nxt = dt.date(year + month // 12, month % 12 + 1, 1)
    d = nxt - dt.timedelta(days=1)
    return d - dt.timedelta(days=(d.weekday() - 4) % 7)


def instances(kind: str, start: dt.datetime, days: list, until_utc) -> list:
    """Local start times of a series, from DTSTART up to the end of 2027."""
    out = []
    if kind == "monthly":
        y, m = start.year, start.month
        while True:
            d = last_friday(y, m)
            if d > LAST_DAY:
                break
            if d >= start.date():
                out.append(dt.datetime.combine(d, start.time()))
            y, m = (y + 1, 1) if m == 12 else (y, m + 1)
    else:
        step = 2 if kind == "daily" else 1
        d = start.date()
        while d <= LAST_DAY:
            if kind == "daily" or d.weekday() in days:
                out.append(dt.datetime.combine(d, start.time()))
            d += dt.timedelta(days=step)
    if until_utc is not None:
        out = [t for t in out if utc_of(t) <= until_utc]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out")
    ap.add_argument("--events", type=int, default=10000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)

    n_series = args.events // 5
    n_single = args.events - n_series
    kinds = ["weekly", "daily", "monthly"]
    # Series and single events interleaved in a fixed, shuffled order.
    order = ["series"] * n_series + ["single"] * n_single
    rng.shuffle(order)

    stamp = "DTSTAMP:20261101T120000Z"
    body: list = []          # content lines of the events, in file order
    tail: list = []          # overrides written at the end of the file
    stats = dict(single=0, weekly=0, daily=0, monthly=0, until=0, exdate_series=0,
                 exdate_values=0, exdate_in_2027=0, overrides=0, overrides_at_end=0)
    model = 0                # 2027 occurrences, EXDATE and overrides applied
    naive_model = 0          # ... ignoring them (what naive.c counts)
    series_no = 0

    def common(i: int, summary: str) -> list:
        desc_lines = rng.sample(DESCRIPTION_LINES, rng.randint(2, 4))
        cats = rng.choice(CATEGORY_SETS)
        return [
            f"SUMMARY:{escape_text(summary)}",
            f"DESCRIPTION:{escape_text(chr(10).join(desc_lines))} (event {i})",
            f"LOCATION:{escape_text(rng.choice(LOCATIONS))}",
            "CATEGORIES:" + ",".join(escape_text(c) for c in cats),
        ]

    def timing(start: dt.datetime, minutes: int, use_duration: bool) -> list:
        lines = [f"DTSTART;TZID={TZID}:{local(start)}"]
        if use_duration:
            h, m = divmod(minutes, 60)
            lines.append("DURATION:PT" + (f"{h}H" if h else "") + (f"{m}M" if m else ""))
        else:
            lines.append(f"DTEND;TZID={TZID}:{local(start + dt.timedelta(minutes=minutes))}")
        return lines

    for i, what in enumerate(order):
        uid = f"UID:{i:05d}-{rng.getrandbits(48):012x}@bench.trackee.invalid"
        summary = rng.choice(SUMMARIES)
        minutes = rng.choice([15, 30, 45, 60, 90, 120])
        use_duration = rng.random() < 0.3
        clock = dt.time(rng.randint(7, 18), rng.choice([0, 15, 30, 45]))

        if what == "single":
            day = dt.date(2027, 1, 1) + dt.timedelta(days=rng.randrange(365))
            start = dt.datetime.combine(day, clock)
            body += ["BEGIN:VEVENT", uid, stamp, *timing(start, minutes, use_duration),
                     *common(i, summary), "STATUS:CONFIRMED", "END:VEVENT"]
            stats["single"] += 1
            model += 1
            naive_model += 1
            continue

        kind = kinds[series_no % 3]
        series_no += 1
        stats[kind] += 1
        first = dt.date(2026, 9, 1) + dt.timedelta(days=rng.randrange(110))
        days: list = []
        if kind == "weekly":
            days = sorted(rng.sample(range(5), rng.randint(1, 3)))
            while first.weekday() not in days:       # DTSTART is an instance
                first += dt.timedelta(days=1)
            rule = "FREQ=WEEKLY;BYDAY=" + ",".join(WEEKDAYS[d] for d in days)
        elif kind == "daily":
            rule = "FREQ=DAILY;INTERVAL=2"
        else:
            first = last_friday(first.year, first.month)
            rule = "FREQ=MONTHLY;BYDAY=-1FR"
        start = dt.datetime.combine(first, clock)

        until_utc = None
        if series_no % 40 == 0:
            all_inst = instances(kind, start, days, None)
            cut = [t for t in all_inst if dt.datetime(2027, 3, 1) <= t < dt.datetime(2027, 11, 1)]
            last = rng.choice(cut)
            if series_no % 80 == 0:                  # exactly on an instance
                until_utc = utc_of(last)
            else:                                    # late that evening
                until_utc = utc_of(dt.datetime.combine(last.date(), dt.time(23, 30)))
            rule += ";UNTIL=" + until_utc.strftime("%Y%m%dT%H%M%SZ")
            stats["until"] += 1
        inst = instances(kind, start, days, until_utc)
        in_2027 = [t for t in inst if in_window(t)]
        naive_model += len(in_2027)

        lines = ["BEGIN:VEVENT", uid, stamp, *timing(start, minutes, use_duration),
                 f"RRULE:{rule}"]
        excluded: set = set()
        if rng.random() < 0.25 and len(inst) > 12:
            stats["exdate_series"] += 1
            props = [rng.randint(2, 5)] + ([rng.randint(1, 3)] if rng.random() < 0.5 else [])
            pool = rng.sample(inst[1:], sum(props))   # never DTSTART itself
            for k in props:
                chosen, pool = sorted(pool[:k]), pool[k:]
                excluded.update(chosen)
                lines.append(f"EXDATE;TZID={TZID}:" + ",".join(local(t) for t in chosen))
            stats["exdate_values"] += len(excluded)
            stats["exdate_in_2027"] += sum(1 for t in excluded if in_window(t))
        lines += [*common(i, summary), "SEQUENCE:0", "STATUS:CONFIRMED", "END:VEVENT"]
        body += lines

        kept = [t for t in in_2027 if t not in excluded]
        model += len(kept)
        if rng.random() < 0.125:
            starts = set(inst)
            movable = [t for t in kept if dt.datetime(2027, 2, 1) <= t < dt.datetime(2027, 12, 1)]
            for original in rng.sample(movable, min(len(movable), rng.randint(1, 3))):
                while True:
                    if rng.random() < 0.5:
                        moved = original + dt.timedelta(hours=rng.choice([-3, -2, -1, 1, 2, 3]))
                        if not dt.time(6, 0) <= moved.time() <= dt.time(21, 0):
                            continue
                    else:
                        moved = original + dt.timedelta(days=rng.choice([-2, -1, 1, 2]))
                    if moved not in starts:
                        break
                starts.add(moved)
                # The override replaces an instance counted above; it stays in 2027.
                naive_model += 1                     # naive counts it once more
                ov = ["BEGIN:VEVENT", uid, "DTSTAMP:20261115T080000Z",
                      f"RECURRENCE-ID;TZID={TZID}:{local(original)}",
                      *timing(moved, minutes, use_duration),
                      *common(i, f"Moved: {summary}"), "SEQUENCE:1", "STATUS:CONFIRMED",
                      "END:VEVENT"]
                stats["overrides"] += 1
                if rng.random() < 0.25:
                    tail += ov
                    stats["overrides_at_end"] += 1
                else:
                    body += ov

    head = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//trackee//calendar benchmark//EN",
            "CALSCALE:GREGORIAN", "X-WR-CALNAME:trackee benchmark", *VTIMEZONE]
    with open(args.out, "wb") as f:
        for line in head + body + tail + ["END:VCALENDAR"]:
            f.write(fold(line))

    s = stats
    print(f"wrote {args.out}: {args.events} events ({s['single']} single; "
          f"{n_series} series: {s['weekly']} weekly, {s['daily']} every other day, "
          f"{s['monthly']} last Friday; {s['until']} with UNTIL), "
          f"{s['overrides']} RECURRENCE-ID overrides ({s['overrides_at_end']} at the end), "
          f"{s['exdate_values']} EXDATE values in {s['exdate_series']} series "
          f"({s['exdate_in_2027']} of them in 2027)")
    print(f"model: {model} occurrences in 2027 with EXDATE and overrides applied; "
          f"{naive_model} ignoring them (+{s['exdate_in_2027']} excluded, "
          f"+{s['overrides']} overrides counted at both times)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
