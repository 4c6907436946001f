#!/bin/sh
# The import benchmark: `trackee import timewarrior` of BENCH_INTERVALS
# (100,000) intervals into an empty store, beside `timew export` writing the
# same intervals (Timewarrior 1.4 has no import of its own).
#
# Fixture: bench/import/generate.py writes a Timewarrior database of the
# intervals; `timew export` of it is the file imported.
# One hyperfine invocation (-N, no shell, output to /dev/null) times both in
# the same run, process start included; each trackee run imports into a
# store made empty before it (--prepare). A run after it checks the store
# holds every interval and that importing the file again adds none.
#
# Prints a Markdown table (also bench/out/import/results.md); target: the
# import in at most 5 s.
#
# Usage: bench/import/run.sh path/to/trackee
# Environment (optional): BENCH_INTERVALS (100000), BENCH_IMPORT_RUNS (5).
set -eu

[ $# -eq 1 ] || { echo "usage: bench/import/run.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
out="$(dirname "$here")/out/import"
intervals=${BENCH_INTERVALS:-100000}
runs=${BENCH_IMPORT_RUNS:-5}
for tool in hyperfine python3 timew; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (scripts/install-deps.sh hyperfine timewarrior)" >&2; exit 1; }
done
rm -rf "$out"
mkdir -p "$out/data"
T="$out/trackee"
cp "$1" "$T"
export TIMEWARRIORDB="$out/timew" XDG_DATA_HOME="$out/data" XDG_CONFIG_HOME="$out/config" TZ=UTC
unset TRACKEE_STORE
store="$out/store.sqlite3"

python3 "$here/generate.py" "$TIMEWARRIORDB" "$intervals"
# The first export notes that it built the tag index; the second is the file.
timew export >/dev/null 2>&1
timew export >"$out/timew.json"
count=$(grep -c '"start"' "$out/timew.json")
[ "$count" -eq "$intervals" ] || { echo "bench: timew export wrote $count intervals, not $intervals" >&2; exit 1; }

hyperfine -N --runs "$runs" --warmup 1 --export-json "$out/hyperfine.json" \
    --prepare "rm -f $store $store-wal $store-shm" \
    -n "trackee import timewarrior" "$T import timewarrior $out/timew.json --project-from-tag first --store $store" \
    -n "timew export" "timew export" >"$out/hyperfine.txt"

rm -f "$store" "$store-wal" "$store-shm"
first=$("$T" import timewarrior "$out/timew.json" --project-from-tag first --store "$store" --json)
again=$("$T" import timewarrior "$out/timew.json" --project-from-tag first --store "$store" --json)
peak=$( { /usr/bin/time -f %M "$T" import timewarrior "$out/timew.json" --project-from-tag first \
    --store "$out/peak.sqlite3" >/dev/null; } 2>&1 )
python3 - "$out" "$intervals" "$first" "$again" "$peak" <<'PY'
import json, sys
out, n, first, again, peak = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), json.loads(sys.argv[4]), int(sys.argv[5])
assert first["imported"] == n, first
assert again["imported"] == 0 and again["already_imported"] == n, again
runs = {r["command"]: r for r in json.load(open(out + "/hyperfine.json"))["results"]}
imp, exp = runs["trackee import timewarrior"], runs["timew export"]
def row(name, r):
    return "| %s | %.3f s | %.3f s | %s |" % (name, r["median"], r["min"], "{:,.0f}".format(n / r["median"]))
lines = [
    "| %s intervals | median | best | intervals/s |" % "{:,}".format(n),
    "| --- | --- | --- | --- |",
    row("`trackee import timewarrior` (empty store)", imp),
    row("`timew export` (the same intervals)", exp),
    "",
    "target: import ≤ 5 s: %s (median %.2f s, %.1f× timew export); peak RSS of the import %d MiB; "
    "imported again: 0 added, %s already imported" % (
        "met" if imp["median"] <= 5 else "MISSED", imp["median"], imp["median"] / exp["median"], peak // 1024,
        "{:,}".format(again["already_imported"])),
]
text = "\n".join(lines) + "\n"
open(out + "/results.md", "w").write(text)
print(text, end="")
PY
