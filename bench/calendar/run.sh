#!/bin/sh
# The calendar benchmark: expanding a year of a large calendar file.
#
# Generates bench/out/calendar/calendar.ics (generate.py: 10,000 events in
# Europe/Prague, a fifth of them recurring series with EXDATEs and moved
# instances, about 200,000 occurrences in 2027), builds naive.c (the floor
# for anything built on libical: parse, then walk every RRULE from DTSTART),
# and times, for calendar year 2027 in Europe/Prague:
#   trackee   TRACKEE_BIN calendar list FILE --from 2027-01-01 --to 2028-01-01 --json
#   naive     bench/out/calendar/naive FILE 20270101 20280101
# in one hyperfine invocation (-N, no shell; output to /dev/null; TZ set),
# and recurring-ical-events 3.8.2 (rie.py, the project's oracle; about 20 s
# a run, so BENCH_RIE_RUNS runs) in a virtualenv at bench/out/venv, made
# here if it is missing. Prints a table of medians, occurrence counts and
# ratios with the targets (>= 50x faster than recurring-ical-events, <= 1.5x
# the naive floor, <= 250 ms), also written to bench/out/calendar/results.md.
#
# If `trackee calendar list` fails, its row says so (with the first line of
# its stderr), its targets are missed, and the other two tools are still
# timed and reported.
#
# Usage: bench/calendar/run.sh path/to/trackee
# Environment (optional):
#   BENCH_CALENDAR_EVENTS  events in the file (default 10000)
#   BENCH_CALENDAR_RUNS    timed runs of trackee and naive each (default 10)
#   BENCH_RIE_RUNS         runs of recurring-ical-events (default 2)
# Needs: hyperfine, python3 (with venv and PyPI access the first time), cc,
# pkg-config, libical-dev (scripts/install-deps.sh hyperfine installs them).
set -eu

[ $# -eq 1 ] || { echo "usage: bench/calendar/run.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
out="$bench/out/calendar"
venv="$bench/out/venv"
events=${BENCH_CALENDAR_EVENTS:-10000}
runs=${BENCH_CALENDAR_RUNS:-10}
rie_runs=${BENCH_RIE_RUNS:-2}

for tool in hyperfine python3 cc pkg-config; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (scripts/install-deps.sh hyperfine)" >&2; exit 1; }
done

# Fresh results every run; a private copy of the binary, so a rebuild
# elsewhere cannot swap it mid-run. Keep trackee away from the user's files.
rm -rf "$out"
mkdir -p "$out/config" "$out/data"
T="$out/trackee"
cp "$1" "$T" 2>/dev/null || T=$1   # missing: let `calendar list` fail below
F="$out/calendar.ics"
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" TZ=Europe/Prague
unset TRACKEE_STORE

date -u '+%Y-%m-%d %H:%M UTC' > "$out/date"
cat /proc/loadavg > "$out/loadavg-start" 2>/dev/null || true

echo "== calendar file"
python3 "$here/generate.py" "$F" --events "$events" | tee "$out/generate.txt"

echo "== naive libical floor: build"
# shellcheck disable=SC2046
cc -O2 -o "$out/naive" "$here/naive.c" $(pkg-config --cflags --libs libical icu-uc)

echo "== recurring-ical-events: virtualenv $venv"
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys, x_wr_timezone
sys.exit(m.version("recurring-ical-events") != "3.8.2")' 2>/dev/null; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check recurring-ical-events==3.8.2 x-wr-timezone
fi
"$venv/bin/python" -c 'import importlib.metadata as m
import sys
print(" ".join(p + " " + m.version(p) for p in ("recurring-ical-events", "icalendar", "x-wr-timezone")),
      "on Python", sys.version.split()[0])' > "$out/rie-versions"
pkg-config --modversion libical > "$out/libical-version"
hyperfine --version > "$out/hyperfine-version"

# One untimed run of each for the occurrence counts (and for trackee, to
# find out whether the command works at all).
echo "== trackee: one untimed run"
if "$T" calendar list "$F" --from 2027-01-01 --to 2028-01-01 --json >"$out/trackee.json" 2>"$out/trackee.err"; then
    echo ok > "$out/trackee.status"
else
    echo "exit status $?" > "$out/trackee.status"
    echo "   calendar list failed: $(head -n 1 "$out/trackee.err" | grep . || cat "$out/trackee.status")"
fi
version=$("$T" --version 2>/dev/null | head -n 1 | cut -c1-100) || true
echo "${version:-(no --version)}" > "$out/trackee-version"
echo "== naive: one untimed run"
"$out/naive" "$F" 20270101 20280101 >"$out/naive.count" 2>"$out/naive.err"
cat "$out/naive.err"

echo "== hyperfine: $runs runs each"
naive_cmd="'$out/naive' '$F' 20270101 20280101"
trackee_cmd="'$T' calendar list '$F' --from 2027-01-01 --to 2028-01-01 --json"
hf() {
    hyperfine -N --style basic --output=null --warmup 2 --runs "$runs" \
        --export-json "$out/hyperfine.json" "$@"
}
if [ "$(cat "$out/trackee.status")" = ok ]; then
    if ! hf -n trackee "$trackee_cmd" -n naive "$naive_cmd"; then
        # hyperfine keeps no output of the failed run: run it once more for its stderr.
        echo "failed during the timed runs" > "$out/trackee.status"
        "$T" calendar list "$F" --from 2027-01-01 --to 2028-01-01 --json >/dev/null 2>"$out/trackee.err" || true
        echo "trackee failed during the timed runs; timing naive alone" >&2
        hf -n naive "$naive_cmd"
    fi
else
    hf -n naive "$naive_cmd"
fi

echo "== recurring-ical-events: $rie_runs run(s)"
: > "$out/rie.txt"
[ "$rie_runs" -gt 0 ] || echo "not run (BENCH_RIE_RUNS=0)" > "$out/rie.status"
i=1
while [ "$i" -le "$rie_runs" ]; do
    if ! "$venv/bin/python" "$here/rie.py" "$F" 20270101 20280101 >>"$out/rie.txt" 2>>"$out/rie.err"; then
        echo "rie.py failed:" >&2
        echo "rie.py failed: $(tail -n 1 "$out/rie.err")" > "$out/rie.status"
        tail -n 3 "$out/rie.err" >&2
        break
    fi
    tail -n 1 "$out/rie.err"
    i=$((i + 1))
done
cat /proc/loadavg > "$out/loadavg-end" 2>/dev/null || true

echo
python3 - "$out" <<'PY' | tee "$out/results.md"
import json, os, re, statistics, sys

out = sys.argv[1]
def read(name, default=""):
    try:
        with open(os.path.join(out, name), encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return default

def count_json(path):
    """Occurrences in trackee's --json output: a list, an object holding one
    list (occurrences/events/items), an object with a count, or JSON lines."""
    with open(path, "rb") as f:
        data = f.read()
    try:
        doc = json.loads(data)
    except ValueError:
        return sum(1 for line in data.splitlines() if line.strip() and json.loads(line) is not None)
    if isinstance(doc, list):
        return len(doc)
    if isinstance(doc, dict):
        for key in ("occurrences", "events", "items", "results"):
            if isinstance(doc.get(key), list):
                return len(doc[key])
        if isinstance(doc.get("count"), int):
            return doc["count"]
        lists = [v for v in doc.values() if isinstance(v, list)]
        if len(lists) == 1:
            return len(lists[0])
    raise ValueError("no list of occurrences found")

def ms(s):
    return f"{s * 1e3:.1f} ms" if s < 1 else f"{s:.2f} s"

def cell(s):
    return s.replace("|", "\\|").strip()

medians = {}
try:
    with open(os.path.join(out, "hyperfine.json")) as f:
        for r in json.load(f)["results"]:
            medians[r["command"]] = statistics.median(r["times"])
except (OSError, ValueError, KeyError):
    pass

status = read("trackee.status")
trackee_ok = status == "ok" and "trackee" in medians
trackee_count = None
failure = None
if trackee_ok:
    try:
        trackee_count = count_json(os.path.join(out, "trackee.json"))
    except ValueError as e:
        trackee_count = f"? ({e})"
else:
    first = (read("trackee.err").splitlines() or [""])[0] or status
    failure = f"trackee: calendar list failed: {first}"

naive_count = int(read("naive.count", "0") or 0)
naive_parts = re.search(r"parse ([\d.]+) ms, iterate ([\d.]+) ms", read("naive.err"))
rie_rows = [line.split() for line in read("rie.txt").splitlines() if line.strip()]
rie_count = int(rie_rows[0][0]) if rie_rows else None
rie_time = statistics.median(float(r[1]) for r in rie_rows) if rie_rows else None
rie_parts = re.search(r"read and parse ([\d.]+) s, expand ([\d.]+) s", read("rie.err"))

t = medians.get("trackee") if trackee_ok else None
n = medians.get("naive")
r_tn = t / n if t and n else None
r_rt = rie_time / t if t and rie_time else None

n_events = re.search(r": (\d+) events", read("generate.txt")).group(1)
print(f"Calendar list of 2027 (Europe/Prague) from a file of {int(n_events):,} events, "
      f"run of {read('date')}")
print()
print("| tool | median | occurrences | trackee/naive | rie/trackee |")
print("| --- | ---: | ---: | ---: | ---: |")
if failure:
    print(f"| {cell(failure)} | — | — | — | — |")
else:
    c = f"{trackee_count:,}" if isinstance(trackee_count, int) else cell(str(trackee_count))
    rt = f"{r_rt:.1f}" if r_rt else "—"
    print(f"| trackee `calendar list --json` | {ms(t)} | {c} | {r_tn:.2f} | {rt} |")
print(f"| naive libical floor (C; no EXDATE, no overrides) | {ms(n) if n else '—'} | {naive_count:,} | | |")
if rie_rows:
    print(f"| recurring-ical-events 3.8.2 ({len(rie_rows)} run{'s' if len(rie_rows) > 1 else ''}) "
          f"| {ms(rie_time)} | {rie_count:,} | | |")
else:
    print(f"| recurring-ical-events 3.8.2: {cell(read('rie.status', 'no result'))} | — | — | | |")
print()

def verdict(ok):
    return "met" if ok else "**MISSED**"
print("| target | measured | met |")
print("| --- | --- | --- |")
print(f"| ≥ 50× faster than recurring-ical-events | "
      f"{f'{r_rt:.1f}×' if r_rt else '—'} | {verdict(r_rt is not None and r_rt >= 50)} |")
print(f"| ≤ 1.5× the naive libical floor | "
      f"{f'{r_tn:.2f}×' if r_tn else '—'} | {verdict(r_tn is not None and r_tn <= 1.5)} |")
print(f"| ≤ 250 ms | {ms(t) if t else '—'} | {verdict(t is not None and t <= 0.250)} |")
same = isinstance(trackee_count, int) and trackee_count == rie_count
print(f"| same occurrences as recurring-ical-events | "
      f"{'—' if failure else f'{trackee_count} vs {rie_count}'} | {'yes' if same else '**NO**'} |")
print()

gen = read("generate.txt")
m = re.search(r"model: (\d+) .*?; (\d+) ignoring them \(\+(\d+) excluded, \+(\d+) overrides", gen)
print("Occurrences in 2027: "
      f"trackee {'— (failed)' if failure else trackee_count}, "
      f"recurring-ical-events {rie_count if rie_count is not None else '—'}, naive {naive_count}.")
if m:
    model, naive_model, exd, ovr = map(int, m.groups())
    print(f"naive is not expected to agree: it ignores EXDATE and RECURRENCE-ID, so it also counts "
          f"the {exd} excluded instances in 2027 and counts each of the {ovr} moved instances twice "
          f"(at its original and its new time): {naive_count} − {exd} − {ovr} = {naive_count - exd - ovr}"
          f"{' = recurring-ical-events' if rie_count == naive_count - exd - ovr else ' (recurring-ical-events: %s)' % rie_count}. "
          f"generate.py's own model of the file gives {model} ({naive_model} ignoring EXDATE and overrides).")
print()
print(f"- trackee: {read('trackee-version')}; naive: `cc -O2`, libical {read('libical-version')}; "
      f"{read('rie-versions')}; {read('hyperfine-version')}")
parts = []
if naive_parts:
    parts.append(f"naive (its untimed run): parse {naive_parts.group(1)} ms, "
                 f"iterate {naive_parts.group(2)} ms")
if rie_parts:
    parts.append(f"recurring-ical-events (its first run): read and parse {rie_parts.group(1)} s, "
                 f"expand {rie_parts.group(2)} s")
if parts:
    print(f"- where the time goes: {'; '.join(parts)}")
print(f"- hyperfine -N, output to /dev/null, TZ=Europe/Prague, 2 warm-up runs; median wall time. "
      f"recurring-ical-events: median of its runs, each timed inside rie.py from before its imports "
      f"to the last occurrence (the interpreter's start, about 20 ms, left out)")
print(f"- machine: {os.cpu_count()} cores, {os.uname().sysname} {os.uname().release}; load average "
      f"(1, 5, 15 min): {' '.join(read('loadavg-start').split()[:3])} at the start; "
      f"{' '.join(read('loadavg-end').split()[:3])} at the end")
PY
