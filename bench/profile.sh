#!/bin/sh
# Where trackee's time goes, on the fixtures bench/run.sh left in bench/out:
# CPU time and page faults per command (perf stat), the syscalls that cost
# (strace), and the hottest functions of `status` (perf record).
# Usage: bench/profile.sh [N]   (N: a store size run.sh built, default 10000)
# Needs perf and strace (Debian: linux-perf, strace); not part of `make bench`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/out"
n=${1:-10000}
T="$out/trackee"
S="$out/n$n/trackee.sqlite3"
[ -x "$T" ] && [ -f "$S" ] || { echo "run bench/run.sh first (no $S)" >&2; exit 1; }
export XDG_CONFIG_HOME="$out/config" XDG_DATA_HOME="$out/data"

echo "== perf stat, 30 runs each ($n entries)"
"$T" cancel --store "$S" >/dev/null
for cmd in "--version" "status --store $S" "summary --week --store $S" "start --store $S -p Docs"; do
    label=$(echo "$cmd" | sed "s| --store $S||")
    # shellcheck disable=SC2086
    perf stat -r 30 -x, -e task-clock,page-faults "$T" $cmd 2>&1 >/dev/null \
        | awk -F, -v c="$label" '$3 == "task-clock" { t = $1 } $3 == "page-faults" { p = $1 }
            END { printf "%-26s %7.2f ms CPU %6d page faults\n", c, t, p }'
done

echo "== syscalls of one start and one stop (wall time)"
"$T" cancel --store "$S" >/dev/null
strace -w -c "$T" start --store "$S" -p Docs 2>&1 >/dev/null | sed -n '1,10p'
strace -w -c "$T" stop --store "$S" 2>&1 >/dev/null | grep -E 'fdatasync|fsync|unlink|total'

echo "== hottest functions of status, 30 runs"
perf record -q -e cpu-clock -F 10000 -g -o "$out/perf.status" -- \
    sh -c "for i in \$(seq 30); do '$T' status --store '$S' >/dev/null; done" 2>/dev/null
perf report -i "$out/perf.status" --comm trackee --no-children --sort dso,symbol --stdio -g none \
    --percent-limit 1.5 2>/dev/null | grep '%' | cut -c1-150
