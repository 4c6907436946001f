#!/bin/sh
# Times trackee's one-shot commands against Timewarrior with hyperfine, on
# stores of 0, 10,000 and 100,000 entries, and prints a table of medians and
# ratios (also written to bench/out/results.md). See BENCHMARKS.md.
#
# The timed runs are split into rounds; every round times every command on
# every size, and the report takes the median over all rounds. A burst of
# other work on the machine then lands on both tools alike instead of on
# whichever hyperfine happened to be running.
#
# Usage: bench/run.sh path/to/trackee
# Environment (optional):
#   BENCH_SIZES        store sizes (default "0 10000 100000")
#   BENCH_ROUNDS       rounds (default 3)
#   BENCH_RUNS         timed runs per one-shot command, all rounds (default 120)
#   BENCH_EXPORT_RUNS  timed runs per export, all rounds (default 12)
# Needs: hyperfine, timew, sqlite3, python3, and valgrind for the
# instruction counts (`make bench` installs them).
set -eu

[ $# -eq 1 ] || { echo "usage: bench/run.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
sizes=${BENCH_SIZES:-"0 10000 100000"}
rounds=${BENCH_ROUNDS:-3}
runs=${BENCH_RUNS:-120}
export_runs=${BENCH_EXPORT_RUNS:-12}
per_round=$(( (runs + rounds - 1) / rounds ))
export_per_round=$(( (export_runs + rounds - 1) / rounds ))
largest=$(echo "$sizes" | tr ' ' '\n' | sort -n | tail -n 1)

for tool in hyperfine timew sqlite3 python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (make bench installs it)" >&2; exit 1; }
done

# Fresh fixtures and results every run. A private copy of the binary, so a
# rebuild elsewhere cannot swap it mid-run.
rm -rf "$out"
mkdir -p "$out/json" "$out/config" "$out/data"
cp "$1" "$out/trackee"
T="$out/trackee"

# Keep both tools away from the user's own files and settings.
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data"
unset TRACKEE_STORE

hf() {
    # hyperfine without a shell, with output through a pipe as a script sees it.
    hyperfine -N --style basic --output=pipe "$@"
}

total_seconds() {
    # this week's total from both tools, in seconds: trackee, then timew
    "$T" summary --week --json --store "$1" \
        | python3 -c 'import json,sys; print(json.load(sys.stdin)["total_seconds"])'
    timew summary :week </dev/null | python3 -c '
import re, sys
totals = re.findall(r"(\d+):(\d\d):(\d\d)\s*$", sys.stdin.read(), re.M)
h, m, s = map(int, totals[-1]) if totals else (0, 0, 0)
print(h * 3600 + m * 60 + s)'
}

date -u '+%Y-%m-%d %H:%M UTC' > "$out/date"
cat /proc/loadavg > "$out/loadavg-start" 2>/dev/null || true
echo "== trackee $("$T" --version), timew $(timew --version), $(hyperfine --version)"
echo "== $rounds rounds of $per_round timed runs per command ($export_per_round per export)"

for n in $sizes; do
    dir="$out/n$n"
    echo "== fixtures: $n entries"
    "$here/fixture.sh" "$T" "$n" "$dir"
    export TIMEWARRIORDB="$dir/timew"
    totals=$(total_seconds "$dir/trackee.sqlite3")
    # shellcheck disable=SC2086
    set -- $totals
    if [ "$1" != "$2" ]; then
        echo "bench: fixtures differ: this week trackee $1 s, timew $2 s" >&2
        exit 1
    fi
    echo "   this week in both: $1 s"
done

round=1
while [ "$round" -le "$rounds" ]; do
    r="r$round"
    echo "== round $round of $rounds: process start only (--version)"
    hf --warmup 3 --runs "$per_round" --export-json "$out/json/version-0-$r.json" \
        -n "trackee --version" "$T --version" \
        -n "timew --version" "timew --version"

    for n in $sizes; do
        dir="$out/n$n"
        S="$dir/trackee.sqlite3"
        export TIMEWARRIORDB="$dir/timew"

        echo "== round $round: start ($n entries)"
        hf --warmup 3 --runs "$per_round" --export-json "$out/json/start-$n-$r.json" \
            -n "trackee start" --prepare "$T cancel --store $S" "$T start --store $S -p Docs" \
            -n "timew start" --prepare "timew cancel" "timew start Docs"

        echo "== round $round: stop ($n entries)"
        "$T" cancel --store "$S" >/dev/null
        timew cancel </dev/null >/dev/null
        if [ ! -e "$dir/timew-stop-init" ]; then
            "$here/timew-prep-stop.sh" init
            touch "$dir/timew-stop-init"
        fi
        hf --warmup 3 --runs "$per_round" --export-json "$out/json/stop-$n-$r.json" \
            -n "trackee stop" --prepare "$T start --store $S -p Docs" "$T stop --store $S" \
            -n "timew stop" --prepare "$here/timew-prep-stop.sh" "timew stop"

        echo "== round $round: status ($n entries, a timer running in both)"
        "$T" start --store "$S" -p Docs >/dev/null
        timew start Docs </dev/null >/dev/null
        hf --warmup 3 --runs "$per_round" --export-json "$out/json/status-$n-$r.json" \
            -n "trackee status" "$T status --store $S" \
            -n "timew" "timew"

        echo "== round $round: summary of this week ($n entries)"
        hf --warmup 3 --runs "$per_round" --export-json "$out/json/summary-$n-$r.json" \
            -n "trackee summary --week" "$T summary --week --store $S" \
            -n "timew summary :week" "timew summary :week"

        if [ "$n" = "$largest" ]; then
            echo "== round $round: export of all entries ($n entries)"
            hf --warmup 2 --runs "$export_per_round" --export-json "$out/json/export-$n-$r.json" \
                -n "trackee export --format toggl" "$T export --format toggl --store $S" \
                -n "timew export" "timew export"
        fi
    done
    round=$((round + 1))
done

cat /proc/loadavg > "$out/loadavg-end" 2>/dev/null || true
echo
python3 "$here/report.py" "$out/json" "$T" | tee "$out/results.md"

if [ "$(echo "$sizes" | tr ' ' '\n' | grep -cx 10000)" = 1 ] && command -v valgrind >/dev/null; then
    echo
    echo "== instructions per command (callgrind, one run each)"
    "$here/instructions.sh" "$T" 10000 | tee -a "$out/results.md"
fi
