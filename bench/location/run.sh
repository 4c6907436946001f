#!/bin/sh
# The location benchmark: feed throughput per format, feed memory, and the
# cost of a live 1 Hz feed into trackee run.
#
# Fixtures (bench/location/generate.py, kept between runs while generate.py
# and the sizes stay the same): 1,000 circle places with two rules, and one
# track of BENCH_FIXES fixes (default 1,000,000) in every format; a tenth of
# it in every format for the memory check.
#
# throughput: for each format, one hyperfine invocation (-N, no shell,
#   output to /dev/null) times
#     trackee feed --dry-run --rules places.yaml --format F FILE
#     wc -l FILE
#   in the same run, process start included; fixes/s = fixes / median.
#   One untimed `feed --json` run first checks every fix was used.
# memory: peak RSS (ru_maxrss) of `feed --dry-run` on the tenth and on the
#   whole file of each format: flat means no growth with the file's length.
# live: bench/location/live.py: trackee run reading one gpsd TPV line a
#   second for BENCH_LIVE_SECONDS (60), its CPU time over that window.
#
# Prints a Markdown table (also bench/out/location/results.md) with the
# targets of the issue: >= 1,000,000 fixes/s for NMEA and CSV, >= 300,000
# for gpsd and OwnTracks JSON, < 0.1 % CPU live, RSS flat.
#
# Usage: bench/location/run.sh path/to/trackee
# Environment (optional): BENCH_FIXES (1000000), BENCH_FEED_RUNS (5),
#   BENCH_LIVE_SECONDS (60).
# Needs hyperfine and python3 (scripts/install-deps.sh hyperfine python3).
set -eu

[ $# -eq 1 ] || { echo "usage: bench/location/run.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
bench=$(dirname "$here")
out="$bench/out/location"
fixes=${BENCH_FIXES:-1000000}
tenth=$((fixes / 10))
runs=${BENCH_FEED_RUNS:-5}
for tool in hyperfine python3 wc; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (scripts/install-deps.sh hyperfine)" >&2; exit 1; }
done

# A private copy of the binary, so a rebuild elsewhere cannot swap it
# mid-run; trackee kept away from the user's files.
mkdir -p "$out"
rm -rf "$out/config" "$out/data" "$out/json" "$out/results.md"
mkdir -p "$out/config" "$out/data" "$out/json"
T="$out/trackee"
cp "$1" "$T"
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" TZ=Europe/Prague
# The rules start projects no one created first: let them, as before the
# create_projects setting, so every run does the same work.
mkdir -p "$out/config/trackee"
echo "create_projects: always" > "$out/config/trackee/config.yaml"
unset TRACKEE_STORE
date -u '+%Y-%m-%d %H:%M UTC' > "$out/date"

# Fixtures, regenerated only when the generator or the size changed.
stamp="$(cksum < "$here/generate.py") $fixes"
for size in "$fixes" "$tenth"; do
    dir="$out/fixtures-$size"
    if [ "$(cat "$dir/stamp" 2>/dev/null)" != "$stamp" ]; then
        echo "== fixtures: $size fixes"
        rm -rf "$dir"
        python3 "$here/generate.py" "$dir" --fixes "$size"
        echo "$stamp" > "$dir/stamp"
    fi
done
F="$out/fixtures-$fixes"

# format  file
formats="nmea fixes.nmea
csv fixes.csv
gpsd fixes.gpsd.jsonl
owntracks fixes.owntracks.jsonl
gpx fixes.gpx"

echo "$formats" | while read -r format file; do
    echo "== $format: $file"
    "$T" feed --dry-run --json --rules "$F/places.yaml" --format "$format" "$F/$file" > "$out/json/$format.summary.json"
    hyperfine -N --style basic --output=null --warmup 1 --runs "$runs" \
        --export-json "$out/json/$format.json" \
        -n trackee "'$T' feed --dry-run --rules '$F/places.yaml' --format $format '$F/$file'" \
        -n wc "wc -l '$F/$file'"
done

echo "== memory: peak RSS on a tenth and on the whole of each file"
echo "$formats" | python3 "$here/rss.py" "$T" "$out/fixtures-$tenth" "$F" > "$out/json/rss.json"

echo "== live: trackee run with one fix a second"
python3 "$here/live.py" "$T" "$F/places.yaml" "$out" > "$out/json/live.json"
cat "$out/json/live.json"

python3 "$here/report.py" "$out" "$fixes" | tee "$out/results.md"
