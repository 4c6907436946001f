#!/bin/sh
# SwiftPM leaves an empty folder in the temporary directory at each
# `swift build` and `swift test` (TemporaryDirectory.XXXXXX holding only
# .keep-directory), which nothing of trackee made or uses. `make demo` and
# `make test` remove at their end those made since their make began, and
# only those: a folder that holds anything else is someone's, and is kept.
# Usage: scripts/swiftpm-leftovers.sh clean SECONDS   (since the epoch)
set -eu
tmp=${TMPDIR:-/tmp}
case "${1:-}" in
clean)
    [ -n "${2:-}" ] || { echo "usage: scripts/swiftpm-leftovers.sh clean SECONDS" >&2; exit 64; }
    find "$tmp" -maxdepth 1 -type d -name 'TemporaryDirectory.*' -newermt "@$2" | while read -r folder; do
        if [ "$(ls -A "$folder")" = ".keep-directory" ]; then rm -f "$folder/.keep-directory" && rmdir "$folder"; fi
    done ;;
*) echo "usage: scripts/swiftpm-leftovers.sh clean SECONDS" >&2; exit 64 ;;
esac
