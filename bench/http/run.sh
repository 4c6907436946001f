#!/bin/sh
# The HTTP API's benchmark (issue 20 §6): wrk on loopback against
# `trackee run` with the server on (`http:`) and a token with every scope.
#
# idle:     the daemon's resident memory (VmRSS from /proc) after start-up
#           and a few requests, then 2 s idle.
# intents:  keyed POST /v1/start alternating between two projects (a key of
#           its own per request, bench/http/start.lua), BENCH_HTTP_CONNECTIONS
#           (32) connections for BENCH_HTTP_SECONDS (10): requests/s and p99
#           latency (wrk --latency). Beside it, on the same store,
#           `trackee start -p A|B --key K` run as a process per intent, for
#           BENCH_HTTP_SECONDS or BENCH_HTTP_CLI_INTENTS (200) intents,
#           whichever ends first: intents/s.
# status:   GET /v1/status at the same connections for the same time,
#           once before the intents (one entry in the store) and once
#           after them (every entry they made is today's).
# The write-ahead log's size right after the intents: restarted once past
# 64 MB (WALCheckpointer.logLimit), looked at every fifth of a second, so
# it may pass that by what a fifth of a second writes (about 11 MB at
# 2,000 intents/s); the bound checked is 96 MB.
# Durability: the store's `PRAGMA synchronous` is set in one place that the
# CLI and the daemon both open the store through; it is printed, with the
# journal mode of the file.
# Prints a Markdown table, also written to bench/out/http/results.md.
#
# Usage: bench/http/run.sh path/to/trackee
# Needs: wrk, curl (`make bench` installs them).
set -eu
[ $# -eq 1 ] || { echo "usage: bench/http/run.sh path/to/trackee" >&2; exit 64; }
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/bench/out/http"
seconds=${BENCH_HTTP_SECONDS:-10}
connections=${BENCH_HTTP_CONNECTIONS:-32}
cli_intents=${BENCH_HTTP_CLI_INTENTS:-200}
for tool in wrk curl sqlite3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool not found (make bench installs it)" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/config/trackee"
# Private copies of the binaries, so a rebuild elsewhere cannot swap them
# mid-run: `trackee run` execs trackee-daemon, the one with the server,
# from its own folder.
daemon_bin="$(dirname "$1")/trackee-daemon"
[ -x "$daemon_bin" ] || { echo "bench: $daemon_bin not found (make build builds it)" >&2; exit 1; }
cp "$1" "$out/trackee"
cp "$daemon_bin" "$out/trackee-daemon"
T="$out/trackee"
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data" TRACKEE_STORE="$out/http.sqlite3" \
    TRACKEE_CONFIG="$out/config/trackee/config.yaml"
unset TRACKEE_NOW NOTIFY_SOCKET JOURNAL_STREAM
# The rate limit is per token; the benchmark measures the server, not it.
cat > "$TRACKEE_CONFIG" <<YAML
create_projects: always
http:
  listen: 127.0.0.1:0
  max_connections: 256
  rate_limit: 1000000
YAML
echo "rules: []" > "$out/config/trackee/rules.yaml"
TRACKEE_TOKEN=$("$T" tokens add bench | head -n 1)
export TRACKEE_TOKEN
auth="Authorization: Bearer $TRACKEE_TOKEN"

"$T" run </dev/null 2>"$out/daemon.log" &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null || true' EXIT
port=""
i=0
while [ -z "$port" ]; do
    port=$(sed -n 's|.*http: listening on http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$out/daemon.log")
    i=$((i + 1))
    if [ "$i" -gt 300 ] || ! kill -0 "$pid" 2>/dev/null; then
        echo "bench: trackee run did not start its server:" >&2
        cat "$out/daemon.log" >&2
        exit 1
    fi
    [ -n "$port" ] || sleep 0.1
done
url="http://127.0.0.1:$port"
echo "trackee $("$T" --version), $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2), server at $url" >&2

# --- idle memory: start-up and a few requests, then 2 s idle
# (curl reads the header from a file, so the token is on no command line)
printf '%s\n' "$auth" > "$out/auth.header"
chmod 600 "$out/auth.header"
for path in /v1/status /v1/openapi.json /v1/status; do
    curl -sSf -o /dev/null -H @"$out/auth.header" "$url$path"
done
curl -sSf -o /dev/null -H @"$out/auth.header" -H 'Content-Type: application/json' -d '{"project":"A"}' "$url/v1/start"
curl -sSf -o /dev/null -H @"$out/auth.header" -H 'Content-Type: application/json' -d '{}' "$url/v1/stop"
sleep 2
idle_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")

# --- status on the store as a day starts (the one entry above)
wrk -t 2 -c "$connections" -d "${seconds}s" --latency -s "$here/status.lua" "$url/v1/status" > "$out/status-fresh.txt"

# --- intents over HTTP
wrk -t 2 -c "$connections" -d "${seconds}s" --latency -s "$here/start.lua" "$url" > "$out/start.txt"
http_applied=$(sqlite3 "$TRACKEE_STORE" "SELECT count(*) FROM intent_log WHERE key LIKE 'bench-%' AND source LIKE 'http%'")
# The write-ahead log right after the load: the daemon checkpoints it on a
# thread of its own and restarts it past 64 MB, so it stays bounded.
wal_bytes=$(stat -c %s "$TRACKEE_STORE-wal" 2>/dev/null || echo 0)
db_bytes=$(stat -c %s "$TRACKEE_STORE")

# --- the same intents, a process each, beside it on the same store
n=0
began=$(date +%s.%N)
deadline=$(( $(date +%s) + seconds ))
while [ "$n" -lt "$cli_intents" ]; do
    if [ $((n % 2)) -eq 0 ]; then project=A; else project=B; fi
    "$T" start -p "$project" --key "cli-$n" >/dev/null
    n=$((n + 1))
    # The clock is read every 20 intents, so the loop's own forks stay
    # out of the process-per-intent figure.
    if [ $((n % 20)) -eq 0 ] && [ "$(date +%s)" -ge "$deadline" ]; then break; fi
done
ended=$(date +%s.%N)
cli_seconds=$(echo "$ended - $began" | bc -l)
cli_applied=$(sqlite3 "$TRACKEE_STORE" "SELECT count(*) FROM intent_log WHERE key LIKE 'cli-%' AND source = 'cli'")

# --- status again, today now holding every entry the intents made
wrk -t 2 -c "$connections" -d "${seconds}s" --latency -s "$here/status.lua" "$url/v1/status" > "$out/status.txt"
sleep 2
after_kb=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
hwm_kb=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status")
kill -TERM "$pid"
wait "$pid" || true
trap - EXIT

# --- durability: where the store's synchronous is set, and the file's journal
sync_lines=$(grep -rn 'PRAGMA synchronous' "$root/Sources" | sed "s|$root/||")
sync_count=$(printf '%s\n' "$sync_lines" | grep -c . || true)
synchronous=$(printf '%s\n' "$sync_lines" | sed -n 's/.*PRAGMA synchronous = \([A-Z]*\).*/\1/p' | head -n 1)
journal=$(sqlite3 "$TRACKEE_STORE" "PRAGMA journal_mode")
echo "PRAGMA synchronous: set $sync_count time(s) in Sources/: $sync_lines" >&2
echo "journal_mode of the store: $journal" >&2

field() { sed -n "s/^RESULT.* $2=\([^ ]*\).*/\1/p" "$1"; }
http_rps=$(field "$out/start.txt" rps)
http_p99=$(field "$out/start.txt" p99_ms)
http_p50=$(field "$out/start.txt" p50_ms)
http_requests=$(field "$out/start.txt" requests)
http_bad=$(( $(field "$out/start.txt" non2xx) + $(field "$out/start.txt" socket_errors) ))
fresh_rps=$(field "$out/status-fresh.txt" rps)
fresh_p99=$(field "$out/status-fresh.txt" p99_ms)
fresh_bad=$(( $(field "$out/status-fresh.txt" non2xx) + $(field "$out/status-fresh.txt" socket_errors) ))
today=$(sqlite3 "$TRACKEE_STORE" "SELECT count(*) FROM entry")
status_rps=$(field "$out/status.txt" rps)
status_p99=$(field "$out/status.txt" p99_ms)
status_bad=$(( $(field "$out/status.txt" non2xx) + $(field "$out/status.txt" socket_errors) ))
cli_rate=$(echo "$cli_applied / $cli_seconds" | bc -l)
ratio=$(echo "$http_rps / $cli_rate" | bc -l)

verdict() { if [ "$(echo "$1" | bc -l)" -eq 1 ]; then echo met; else echo "**MISSED**"; fi; }
{
    echo "| what | measured | target | verdict |"
    echo "| --- | --- | --- | --- |"
    printf '| keyed `POST /v1/start`, A/B alternating, %s connections, %s s | %.0f intents/s (%s answered, %s applied, %s not 200); p50 %.2f ms | — | — |\n' \
        "$connections" "$seconds" "$http_rps" "$http_requests" "$http_applied" "$http_bad" "$http_p50"
    printf '| `trackee start -p A|B --key K`, a process per intent | %.0f intents/s (%s in %.2f s) | — | — |\n' \
        "$cli_rate" "$cli_applied" "$cli_seconds"
    printf '| intents over HTTP against a process per intent | %.1f× | ≥ 10× | %s |\n' \
        "$ratio" "$(verdict "$ratio >= 10 && $http_bad == 0")"
    printf '| p99 latency of keyed `POST /v1/start` at %s connections | %.2f ms | ≤ 20 ms | %s |\n' \
        "$connections" "$http_p99" "$(verdict "$http_p99 <= 20")"
    printf '| `GET /v1/status`, %s connections, %s s, 1 entry in the store | %.0f requests/s (p99 %.2f ms, %s not 200) | ≥ 5,000/s | %s |\n' \
        "$connections" "$seconds" "$fresh_rps" "$fresh_p99" "$fresh_bad" "$(verdict "$fresh_rps >= 5000 && $fresh_bad == 0")"
    printf '| `GET /v1/status`, the same, after the intents (%s entries today) | %.0f requests/s (p99 %.2f ms, %s not 200) | ≥ 5,000/s | %s |\n' \
        "$today" "$status_rps" "$status_p99" "$status_bad" "$(verdict "$status_rps >= 5000 && $status_bad == 0")"
    printf '| the daemon idle with the server on (after a few requests, 2 s idle) | RSS %.1f MB (%.1f MB idle after the load, start-up and load peak %.1f MB) | ≤ 30 MB | %s |\n' \
        "$(echo "$idle_kb / 1024" | bc -l)" "$(echo "$after_kb / 1024" | bc -l)" "$(echo "$hwm_kb / 1024" | bc -l)" \
        "$(verdict "$idle_kb <= 30 * 1024")"
    printf '| the write-ahead log right after the intents | %.1f MB (the store %.1f MB) | ≤ 96 MB | %s |\n' \
        "$(echo "$wal_bytes / 1048576" | bc -l)" "$(echo "$db_bytes / 1048576" | bc -l)" "$(verdict "$wal_bytes <= 100663296")"
    printf '| durability | `PRAGMA synchronous = %s` (set in %s place, the store both the CLI and the daemon open), journal %s | unchanged | %s |\n' \
        "$synchronous" "$sync_count" "$journal" "$(verdict "$sync_count == 1")"
} | tee "$out/results.md"
