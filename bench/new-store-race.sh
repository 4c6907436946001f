#!/bin/bash
# Fifty `trackee start` processes on a new store at once, ROUNDS times
# (default 20): each round's store is new, so every process tries to make
# it WAL. Prints how many processes failed, and the first error of a round
# that had any. Needs the release build: the debug build is too slow to
# collide (the test suite's ConcurrencyTests could not show it).
# Usage: bench/new-store-race.sh path/to/trackee [ROUNDS]
set -eu
bin=$1 rounds=${2:-20} failed=0
for _ in $(seq 1 "$rounds"); do
    d=$(mktemp -d /tmp/trackee-race.XXXXXX)
    mkdir "$d/config"
    for _ in $(seq 1 50); do
        XDG_CONFIG_HOME="$d/config" "$bin" start --store "$d/store.sqlite3" -p P --new-project >/dev/null 2>>"$d/errors" &
    done
    wait
    n=$(grep -c . "$d/errors" || true)
    failed=$((failed + n))
    if [ "$n" -gt 0 ]; then head -n 1 "$d/errors"; fi
    rm -rf "$d"
done
echo "failed processes: $failed of $((rounds * 50)) in $rounds rounds"
