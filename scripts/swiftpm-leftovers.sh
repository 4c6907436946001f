#!/bin/sh
# SwiftPM leaves an empty folder in the temporary directory at each
# `swift build` and `swift test` (TemporaryDirectory.XXXXXX holding only
# .keep-directory), which nothing of trackee made or uses. make marks when
# it starts, and `make demo` and `make test` remove at their end those
# made since, and only those: a folder that holds anything else is
# someone's, and is kept.
# Usage: scripts/swiftpm-leftovers.sh mark STAMP | clean STAMP
set -eu
tmp=${TMPDIR:-/tmp}
case "${1:-}" in
mark) : >"$2" ;;
clean)
    [ -f "$2" ] || exit 0
    find "$tmp" -maxdepth 1 -type d -name 'TemporaryDirectory.*' -newer "$2" | while read -r folder; do
        if [ "$(ls -A "$folder")" = ".keep-directory" ]; then rm -f "$folder/.keep-directory" && rmdir "$folder"; fi
    done ;;
*) echo "usage: scripts/swiftpm-leftovers.sh mark STAMP | clean STAMP" >&2; exit 64 ;;
esac
