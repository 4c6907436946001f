#!/bin/sh
# Issue 37, §5: the terminal and HTML reports over 10,000 entries, beside
# Timewarrior's summary and week chart on the same intervals (the fixture
# of bench/fixture.sh: one 45-minute entry an hour, so 10,000 entries reach
# back 10,000 hours, about 417 days). Rows:
#   - the whole fixture (every entry): trackee report summary, in the
#     terminal and as HTML, beside `timew summary FIRST - now`;
#   - the calendar year (`--year`, `:year`): the entries of this year;
#   - `timew week`, the chart of this week, for its drawing cost.
# Times are hyperfine's medians (warm cache). Prints a Markdown table.
# Usage: bench/report-terminal.sh path/to/trackee
set -eu
[ $# -eq 1 ] || { echo "usage: bench/report-terminal.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
dir=$(mktemp -d "${TMPDIR:-/tmp}/trackee-bench-report.XXXXXX")
trap 'rm -rf "$dir"' EXIT
"$here/fixture.sh" "$bin" 10000 "$dir/f" >/dev/null
export TRACKEE_STORE="$dir/f/trackee.sqlite3" TIMEWARRIORDB="$dir/f/timew" COLUMNS=100 XDG_CONFIG_HOME="$dir/config"
first=$(sqlite3 "$TRACKEE_STORE" "SELECT strftime('%Y-%m-%dT%H:%M:%S', min(start), 'unixepoch') FROM entry")
entries=$(sqlite3 "$TRACKEE_STORE" "SELECT count(*) FROM entry")
year=$(sqlite3 "$TRACKEE_STORE" "SELECT count(*) FROM entry WHERE start >= CAST(strftime('%s', date('now', 'start of year')) AS INTEGER)")
hyperfine --style none --warmup 3 --runs 20 --export-json "$dir/h.json" \
    -n "trackee report --from FIRST (terminal)" "'$bin' report --from ${first}Z > /dev/null" \
    -n "trackee report --from FIRST --format html" "'$bin' report --from ${first}Z --format html > /dev/null" \
    -n "timew summary FIRST - now" "timew summary ${first} - now > /dev/null" \
    -n "trackee report --year (terminal)" "'$bin' report --year > /dev/null" \
    -n "trackee report --year --format html" "'$bin' report --year --format html > /dev/null" \
    -n "timew summary :year" "timew summary :year > /dev/null" \
    -n "timew week" "timew week > /dev/null" >/dev/null
python3 - "$dir/h.json" "$entries" "$year" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
entries, year = sys.argv[2], sys.argv[3]
targets = {"(terminal)": "≤ 50 ms", "html": "≤ 200 ms"}
print(f"| command ({entries} entries; {year} this year) | median | mean ± σ | target |")
print("| --- | ---: | ---: | ---: |")
for r in results:
    target = next((t for k, t in targets.items() if k in r["command"] and r["command"].startswith("trackee")), "")
    print(f"| `{r['command']}` | {r['median'] * 1000:.1f} ms | {r['mean'] * 1000:.1f} ± {r['stddev'] * 1000:.1f} ms | {target} |")
PY
