#!/bin/sh
# The daemon's costs: CPU and memory while idle, and firing latency.
#
# idle:    `trackee run` with rules whose next firing is a year away, for
#          BENCH_IDLE_SECONDS (default 60) after start-up; CPU time over
#          that time, and resident memory sampled every second of it, from
#          /proc (the start-up peak, VmHWM, is reported beside it).
# latency: a rule firing every second for BENCH_LATENCY_SECONDS (default
#          60); the daemon logs, for each firing, the time from the
#          scheduled instant to its intent committed (latency_ms, metadata
#          that only --verbose or the journal shows); p50, p99 and max over
#          all firings.
# Usage: bench/daemon.sh path/to/trackee
set -eu
T=$1
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out/daemon"
idle_seconds=${BENCH_IDLE_SECONDS:-60}
latency_seconds=${BENCH_LATENCY_SECONDS:-60}
rm -rf "$out"
mkdir -p "$out/config/trackee"
# The rules start projects no one created first: let them.
echo "create_projects: always" > "$out/config/trackee/config.yaml"
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" TRACKEE_STORE="$out/idle.sqlite3"
unset TRACKEE_NOW NOTIFY_SOCKET JOURNAL_STREAM
ticks=$(getconf CLK_TCK)

# --- idle
cat > "$out/config/trackee/rules.yaml" <<'YAML'
rules:
  - id: new-year
    when: {at: "*-01-01 00:00"}
    do: [{notify: {title: "Happy new year"}}]
  - id: deep
    when: {focus: deep}
    do: [{start: {project: Deep work}}]
YAML
"$T" run </dev/null 2>"$out/idle.log" &
pid=$!
sleep 2   # start-up and first pass
stat_start=$(cut -d' ' -f14,15 "/proc/$pid/stat")
max_kb=0
i=0
while [ "$i" -lt "$idle_seconds" ]; do
    sleep 1
    kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
    [ "$kb" -gt "$max_kb" ] && max_kb=$kb
    i=$((i + 1))
done
stat_end=$(cut -d' ' -f14,15 "/proc/$pid/stat")
rss_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
hwm_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || true
echo "$stat_start $stat_end" | awk -v t="$ticks" -v s="$idle_seconds" -v rss="$rss_kb" -v max="$max_kb" -v hwm="$hwm_kb" '{
    cpu = (($3 + $4) - ($1 + $2)) / t
    printf "| idle daemon, %d s, nothing due | CPU %.2f s (%.2f%%); RSS %.1f MB at the end, at most %.1f MB while idle (start-up peak %.1f MB) | CPU 0.0%%, RSS <= 20 MB | %s |\n",
        s, cpu, 100 * cpu / s, rss / 1024, max / 1024, hwm / 1024, (cpu / s < 0.0005 && max <= 20 * 1024) ? "met" : "**MISSED**" }'

# --- latency
cat > "$out/config/trackee/rules.yaml" <<'YAML'
rules:
  - id: every-second
    when: {at: "*:*:*"}
    do: [{start: {project: "P{{trigger.time}}"}}]
YAML
# A store of its own: the idle run's watermark would make its missed
# seconds catch up here.
TRACKEE_STORE="$out/latency.sqlite3" "$T" run --verbose </dev/null 2>"$out/latency.log" &
pid=$!
sleep "$latency_seconds"
kill -TERM "$pid"
wait "$pid" || true
sed -n 's/.*latency_ms=\([0-9.]*\).*/\1/p' "$out/latency.log" | sort -n > "$out/latency.txt"
awk '{ v[NR] = $1 } END {
    if (NR == 0) { print "| firing latency | no firings | p99 <= 20 ms | **MISSED** |"; exit }
    p50 = v[int((NR - 1) * 0.50) + 1]; p99 = v[int((NR - 1) * 0.99) + 1]
    printf "| firing latency, %d firings | p50 %.1f ms, p99 %.1f ms, max %.1f ms | p99 <= 20 ms | %s |\n",
        NR, p50, p99, v[NR], p99 <= 20 ? "met" : "**MISSED**" }' "$out/latency.txt"
