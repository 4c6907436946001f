#!/bin/sh
# The sync benchmark: pushing 10,000 queued entries to the fake Clockify
# server (Tests/Servers/fake_time_service.py) on loopback, which answers at
# once. A store of N finished entries (bench/fixture.sh) is given a sync
# target, `trackee sync backfill` queues every entry, and `trackee sync`
# (trackee-sync next to it, the whole process) pushes them: entries per
# second is N over its wall time. The server is started afresh for each of
# BENCH_SYNC_RUNS runs (the median is reported) and must hold exactly N
# entries afterwards. The target states a quota of a million requests an
# hour (requests_per_hour:): the default, Clockify's Free 30 an hour, would
# make the push wait hours, and the benchmark measures pushing, not waiting.
# Prints a Markdown table, also written to bench/out/sync/results.md.
#
# Usage: bench/sync/run.sh path/to/trackee   (trackee-sync next to it)
# Environment: BENCH_SYNC_ENTRIES (10000), BENCH_SYNC_RUNS (3)
set -eu
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/bench/out/sync"
n=${BENCH_SYNC_ENTRIES:-10000}
runs=${BENCH_SYNC_RUNS:-3}
mkdir -p "$out"

times=""
for run in $(seq 1 "$runs"); do
    dir="$out/run$run"
    "$here/../fixture.sh" "$bin" "$n" "$dir" >/dev/null
    rm -rf "$dir/timew"
    ports="$dir/ports.txt"
    # The server stops when this script's end closes its stdin.
    mkfifo "$dir/stdin"
    python3 "$root/Tests/Servers/fake_time_service.py" --service clockify --token bench-token --port 0 \
        --exit-on-stdin-eof < "$dir/stdin" > "$ports" 2>"$dir/server.log" &
    server=$!
    exec 3>"$dir/stdin"
    while [ "$(wc -l < "$ports")" -lt 2 ]; do sleep 0.1; done
    api=$(sed -n 1p "$ports" | sed 's/.*://')
    control=$(sed -n 2p "$ports" | sed 's/.*://')
    mkdir -p "$dir/config/trackee"
    printf 'bench-token\n' > "$dir/token"
    chmod 600 "$dir/token"
    cat > "$dir/config/trackee/config.yaml" <<YAML
sync:
  work:
    service: clockify
    workspace: My Company
    token_file: $dir/token
    since: 2000-01-01
    create_missing: true
    url: http://127.0.0.1:$api/api/v1
    requests_per_hour: 1000000
YAML
    export XDG_CONFIG_HOME="$dir/config"
    "$bin" sync backfill work --from 2000-01-01 --to 2100-01-01 --store "$dir/trackee.sqlite3" >/dev/null
    start=$(date +%s.%N)
    "$bin" sync --store "$dir/trackee.sqlite3" > "$dir/sync.txt"
    end=$(date +%s.%N)
    held=$(curl -s "http://127.0.0.1:$control/_control/state" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["time_entries"]))')
    exec 3>&-
    wait "$server" || true
    if [ "$held" != "$n" ]; then
        echo "run $run: the server holds $held entries, not $n ($(cat "$dir/sync.txt"))" >&2
        exit 1
    fi
    seconds=$(echo "$end - $start" | bc -l)
    times="$times $seconds"
    echo "run $run: $n entries in $(printf '%.2f' "$seconds") s ($(cat "$dir/sync.txt"))" >&2
done

median=$(echo "$times" | tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
rate=$(echo "$n / $median" | bc -l)
verdict=$(echo "$rate >= 500" | bc -l | sed 's/1/met/; s/0/**MISSED**/')
{
    echo "| what | measured | target | verdict |"
    echo "| --- | --- | --- | --- |"
    printf '| `trackee sync`, %s queued entries to a local Clockify fake (median of %s) | %.2f s = %.0f entries/s | >= 500 entries/s | %s |\n' \
        "$n" "$runs" "$median" "$rate" "$verdict"
} | tee "$out/results.md"
