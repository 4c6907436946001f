#!/bin/sh
# Instructions executed by one run of each one-shot command, trackee and
# Timewarrior side by side, counted by valgrind's callgrind. Unlike wall
# time, the count does not move with the machine's load, so it shows what
# each process does. Runs on the fixtures run.sh built.
# Usage: bench/instructions.sh path/to/trackee N   (N: a fixture size)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
n=$2
S="$out/n$n/trackee.sqlite3"
export TIMEWARRIORDB="$out/n$n/timew"
# callgrind cannot read the release binary's debug sections; the symbol
# table is enough.
T="$out/trackee.nodebug"
objcopy --strip-debug "$1" "$T"

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
        | sed -n 's/.*I *refs: *//p' | tr -d ,
}

row() {
    # row LABEL TRACKEE_COUNT TIMEW_COUNT
    awk -v l="$1" -v a="$2" -v b="$3" 'BEGIN {
        printf "| %s | %.1f M | %.1f M | %.2f |\n", l, a / 1e6, b / 1e6, a / b }'
}

echo "| command ($n entries) | trackee | timewarrior | ratio |"
echo "| --- | ---: | ---: | ---: |"
row "--version" "$(count "$T" --version)" "$(count timew --version)"
"$T" cancel --store "$S" >/dev/null
timew cancel </dev/null >/dev/null
row "start" "$(count "$T" start --store "$S" -p Docs)" "$(count timew start Docs)"
a=$(count "$T" stop --store "$S")
timew cancel </dev/null >/dev/null
"$here/timew-prep-stop.sh"
row "stop" "$a" "$(count timew stop)"
"$T" start --store "$S" -p Docs >/dev/null
timew start Docs </dev/null >/dev/null
row "status (timew: \`timew\`)" "$(count "$T" status --store "$S")" "$(count timew)"
row "summary --week" "$(count "$T" summary --week --store "$S")" "$(count timew summary :week)"

# The sync outbox's cost on `stop` (issue 9): the same stop with a settings
# file that names one sync target, and with one that names none, on a copy
# of the store so the fixture is left as it was.
cp "$S" "$out/sync.sqlite3"
mkdir -p "$out/sync-config/none/trackee" "$out/sync-config/one/trackee"
echo "week_start: monday" > "$out/sync-config/none/trackee/config.yaml"
cat > "$out/sync-config/one/trackee/config.yaml" <<'YAML'
week_start: monday
sync:
  work:
    service: clockify
    workspace: My Company
    token_env: CLOCKIFY_API_KEY
    since: 2000-01-01
YAML
stop_with() (
    export XDG_CONFIG_HOME="$out/sync-config/$1"
    "$T" start --store "$out/sync.sqlite3" -p Docs >/dev/null
    count "$T" stop --store "$out/sync.sqlite3"
)
none=$(stop_with none)
stop_with one >/dev/null   # registers the target and creates the journal's triggers
one=$(stop_with one)
echo
awk -v a="$none" -v b="$one" 'BEGIN {
    printf "stop with a settings file and no sync target: %.1f M; with one sync target: %.1f M (%+.1f %%; target <= +3 %%)\n", a / 1e6, b / 1e6, (b / a - 1) * 100 }'
rm -f "$out/sync.sqlite3" "$out/sync.sqlite3-wal" "$out/sync.sqlite3-shm"

# The floor for any Swift tool built this way: a program that prints one
# line, linked like trackee (static Swift runtime).
swiftc=${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}
if [ -x "$swiftc" ]; then
    echo 'print("hello")' > "$out/hello.swift"
    "$swiftc" -O -static-stdlib "$out/hello.swift" -o "$out/hello" 2>/dev/null
    echo
    echo "A Swift program that only prints a line, linked the same way: $(count "$out/hello" | awk '{ printf "%.1f M", $1 / 1e6 }') instructions."
fi
