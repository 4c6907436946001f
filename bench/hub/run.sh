#!/usr/bin/env bash
# The hub (issue 21), against a private PostgreSQL 15 cluster:
#  1. HUB_DEVICES devices (default 100) with HUB_CHANGES changes each
#     (default 1,000) push to one hub, two at a time;
#  2. a new device pulls all of them (target: >= 20,000 changes/s);
#  3. every device syncs until all have everything, and their exports are
#     compared (all converge); the hub's table and index sizes;
#  4. two running daemons: a change on one, seen on the other (target:
#     p99 <= 1 s);
#  5. the one-shot cost of a configured hub: `status` and `stop` in
#     instructions on a store of 10,000 entries that never joined, and on
#     the same store joined, with a hub: section.
# Usage: bench/hub/run.sh path/to/trackee   (trackee-daemon beside it)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out="$here/../out/hub"
devices=${HUB_DEVICES:-100}
per=${HUB_CHANGES:-1000}
mkdir -p "$out"
pg=/usr/lib/postgresql/15/bin
work=$(mktemp -d /tmp/trackee-hub-bench.XXXXXX)
chmod 755 "$work"
chown postgres "$work" 2>/dev/null || true
port=$((20000 + RANDOM % 20000))
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
mkdir -p "$work/data" && chown postgres "$work/data" 2>/dev/null || true
as_pg "$pg/initdb" -D "$work/data" -U bench --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
as_pg "$pg/pg_ctl" -D "$work/data" -l "$work/pg.log" -w start \
    -o "-k $work -c listen_addresses='' -p $port -c max_connections=50" >/dev/null
trap 'as_pg "$pg/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
"$pg/psql" -X -q -h "$work" -p "$port" -U bench -d postgres -c "CREATE DATABASE trackee"
url="postgresql:///trackee?host=$work&port=$port"

# device NAME: its settings directory and store; prints nothing. Every
# device is the person dev's, whom row-level security binds as it binds
# anyone; bench, the superuser, is the hub's administrator.
device() {
    mkdir -p "$work/$1/config/trackee"
    printf 'create_projects: always\nhub:\n  url: %s\n  user: dev\n  sslmode: disable\n  device: %s\n' "$url" "$1" \
        > "$work/$1/config/trackee/config.yaml"
}
run_as() {
    local name=$1; shift
    XDG_CONFIG_HOME="$work/$name/config" TRACKEE_STORE="$work/$name/store.sqlite3" "$bin" "$@"
}
export -f run_as
export bin work

device seed
run_as seed hub init --user bench >/dev/null
"$pg/psql" -X -q -h "$work" -p "$port" -U bench -d trackee -c "CREATE ROLE dev LOGIN IN ROLE trackee_person"
# More devices than a person's default limit (20).
run_as seed hub limit dev 999 --user bench >/dev/null
ms() { date +%s%3N; }

# 1. Each device's changes: a project and per-1 entries, written into its
# store before it joins, so its first sync journals and pushes them all.
for i in $(seq 1 "$devices"); do
    device "d$i"
    run_as "d$i" status >/dev/null
    sqlite3 "$work/d$i/store.sqlite3" "
        INSERT INTO project (name, billable, created) VALUES ('P$i', 0, 0);
        WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < $per - 1)
        INSERT INTO entry (project_id, description, tags, start, \"end\", source, created, updated)
        SELECT 1, 'd$i #' || k, '', 1790000000 + k * 600, 1790000000 + k * 600 + 300, 'cli', 0, 0 FROM n;"
done
t0=$(ms)
seq 1 "$devices" | xargs -P 2 -I{} bash -c 'run_as d{} hub sync >/dev/null'
t1=$(ms)
total=$(( devices * per ))
push_s=$(echo "scale=1; ($t1 - $t0) / 1000" | bc)

# The statistics autovacuum gathers within a minute of a bulk load, at
# once, so that the planner reads the change table by its index.
"$pg/psql" -X -q -h "$work" -p "$port" -U bench -d trackee -c "ANALYZE trackee.change"

# HUB_KEEP=1: stop here and leave the cluster running (for profiling).
if [ -n "${HUB_KEEP:-}" ]; then
    trap - EXIT
    echo "kept: $work (port $port)"
    exit 0
fi

# 2. A new device pulls everything.
device fresh
t0=$(ms)
run_as fresh hub sync >/dev/null
t1=$(ms)
pull_s=$(echo "scale=2; ($t1 - $t0) / 1000" | bc)
pull_rate=$(echo "$total * 1000 / ($t1 - $t0)" | bc)
fresh_rows=$(sqlite3 "$work/fresh/store.sqlite3" "SELECT count(*) FROM entry")

# HUB_PULL_ONLY=1: stop here (for profiling the pull).
if [ -n "${HUB_PULL_ONLY:-}" ]; then
    echo "a new device pulls $total changes ($fresh_rows entries): $pull_s s, $pull_rate changes/s"
    exit 0
fi

# 3. Every device until all have everything.
t0=$(ms)
seq 1 "$devices" | xargs -P 2 -I{} bash -c 'run_as d{} hub sync >/dev/null'
t1=$(ms)
converge_s=$(echo "scale=1; ($t1 - $t0) / 1000" | bc)
reference=$(run_as fresh export --format json --from 2000-01-01 --to 2100-01-01 | sha256sum)
differing=0
for i in $(seq 1 "$devices"); do
    [ "$(run_as "d$i" export --format json --from 2000-01-01 --to 2100-01-01 | sha256sum)" = "$reference" ] \
        || differing=$((differing + 1))
done
sizes=$("$pg/psql" -X -A -t -h "$work" -p "$port" -U bench -d trackee -c "
    SELECT (SELECT count(*) FROM trackee.change) || ' changes; table ' || pg_size_pretty(pg_table_size('trackee.change'))
        || ', indexes ' || pg_size_pretty(pg_indexes_size('trackee.change'))")

# 4. Two daemons.
device laptop
device desktop
for d in laptop desktop; do run_as "$d" hub sync >/dev/null; done
daemons=()
for d in laptop desktop; do
    XDG_CONFIG_HOME="$work/$d/config" TRACKEE_STORE="$work/$d/store.sqlite3" "$bin" run --verbose >/dev/null 2>"$work/$d.log" &
    daemons+=($!)
done
trap 'kill ${daemons[*]} 2>/dev/null || true; as_pg "$pg/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
sleep 2
latency=$(python3 "$here/latency.py" "$bin" "$work" 100) || {
    echo "the daemons' logs:"; tail -n 20 "$work/laptop.log" "$work/desktop.log"; exit 1; }
kill -TERM "${daemons[@]}"
wait "${daemons[@]}" 2>/dev/null || true

# 5. One-shot cost, in instructions: `status` and `stop` on a store of
# 10,000 entries that never joined a hub, without a hub: section, against
# the same store joined to the hub, with it (what joining costs every
# command: stamps, the journal's device column, keys and intents kept for
# the hub). Runs 2 and 3 of 3 are kept; the first may migrate.
nodebug="$work/trackee.nodebug"
objcopy --strip-debug "$bin" "$nodebug"
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null | sed -n 's/.*I *refs: *//p' | tr -d ,
}
mkdir -p "$work/none/trackee"
echo "create_projects: always" > "$work/none/trackee/config.yaml"
device oneshot
XDG_CONFIG_HOME="$work/none" "$bin" status --store "$work/plain.sqlite3" >/dev/null
sqlite3 "$work/plain.sqlite3" "
    INSERT INTO project (name, billable, created) VALUES ('Docs', 0, 0);
    WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 10000)
    INSERT INTO entry (project_id, description, tags, start, \"end\", source, created, updated)
    SELECT 1, 'entry ' || k, '', 1790000000 + k * 600, 1790000000 + k * 600 + 300, 'cli', 0, 0 FROM n;"
cp "$work/plain.sqlite3" "$work/joined.sqlite3"
XDG_CONFIG_HOME="$work/oneshot/config" "$bin" hub sync --store "$work/joined.sqlite3" >/dev/null
oneshot() {  # oneshot CONFIG_DIR STORE: status and stop (each the median of runs 2 and 3) on a copy
    cp "$2" "$work/oneshot.sqlite3"
    local s=() t=()
    for _ in 1 2 3; do
        XDG_CONFIG_HOME=$1 "$nodebug" start --store "$work/oneshot.sqlite3" -p Docs >/dev/null
        s+=("$(XDG_CONFIG_HOME=$1 count "$nodebug" status --store "$work/oneshot.sqlite3")")
        t+=("$(XDG_CONFIG_HOME=$1 count "$nodebug" stop --store "$work/oneshot.sqlite3")")
    done
    echo "$(( (s[1] + s[2]) / 2 )) $(( (t[1] + t[2]) / 2 ))"
}
read -r status_none stop_none < <(oneshot "$work/none" "$work/plain.sqlite3")
read -r status_hub stop_hub < <(oneshot "$work/oneshot/config" "$work/joined.sqlite3")

{
    echo "| what | figure | target |"
    echo "| --- | ---: | --- |"
    echo "| $devices devices push $per changes each (2 at a time) | $push_s s | |"
    echo "| a new device pulls $total changes ($fresh_rows entries) | $pull_s s, **$pull_rate changes/s** | >= 20,000 changes/s |"
    echo "| every device syncs until all have all | $converge_s s; $differing of $devices exports differ from the new device's | all converge |"
    echo "| the hub's change table after | $sizes | |"
    echo "| a change on one running daemon seen on the other | $latency | p99 <= 1 s |"
    awk -v a="$status_none" -v b="$status_hub" 'BEGIN { printf "| `status`, 10,000 entries: never joined / joined, hub configured | %.2f M / %.2f M instructions (%+.1f%%) | <= +5%% |\n", a/1e6, b/1e6, (b-a)*100/a }'
    awk -v a="$stop_none" -v b="$stop_hub" 'BEGIN { printf "| `stop`, 10,000 entries: never joined / joined, hub configured | %.2f M / %.2f M instructions (%+.1f%%) | <= +3%% |\n", a/1e6, b/1e6, (b-a)*100/a }'
} | tee "$out/hub.md"
