#!/bin/sh
# Makes docs/'s pictures of the web page of `trackee run`, signed in, over
# the realistic store of Tests/Browser/trackee_web.py (a week of entries,
# today's with gaps and a timer running, three rules), before anything
# is changed on it:
#   web-1280.png  the whole page 1280 px wide
#   web-375.png   the whole page 375 px wide, as a phone shows it
# WebBrowserTests takes them (TRACKEE_WEB_SCREENSHOTS). Needs the debug
# build with tests (make test), chromium, chromium-driver and
# python3-selenium.
# Usage: scripts/web-screenshots.sh
set -eu
cd "$(dirname "$0")/.."
[ -x .build/debug/trackee ] || { echo "scripts/web-screenshots.sh: .build/debug/trackee is missing; run make test first" >&2; exit 69; }
work=$(mktemp -d "${TMPDIR:-/tmp}/trackee-shots.XXXXXX")
trap 'rm -rf "$work"' EXIT
TRACKEE_WEB_SCREENSHOTS="$work" swift test --skip-build --filter WebBrowserTests >"$work/test.log" 2>&1 \
    || { cat "$work/test.log" >&2; exit 1; }
[ -f "$work/web-1280.png" ] || { echo "scripts/web-screenshots.sh: the test took no screenshots:" >&2; cat "$work/test.log" >&2; exit 1; }
cp "$work/web-1280.png" "$work/web-375.png" docs/
ls -l docs/web-*.png
