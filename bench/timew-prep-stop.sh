#!/bin/sh
# Prepare step for timing `timew stop`: leave a timer running that can be
# stopped. timew refuses a zero-length interval (a stop in the same second
# as its start) and overlapping intervals, so the timer starts a minute ago
# and the interval the previous run saved is deleted first; the database
# keeps its size. `init` records the first interval to be deleted.
set -eu
if [ "${1:-}" = init ]; then
    timew start Docs 2min ago </dev/null >/dev/null
    timew stop </dev/null >/dev/null
    exit 0
fi
timew delete @1 :yes </dev/null >/dev/null
timew start Docs 1min ago </dev/null >/dev/null
