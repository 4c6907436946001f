#!/bin/sh
# Makes docs/'s pictures of one report, the realistic week of
# Tests/TrackeeReportTests/ReportFixture.swift, in every format:
#   report-terminal.png  the terminal summary, colours as a terminal shows them
#   report-html.png, report-html-375.png  the HTML page at 1280 and 375 px
#   report-pdf.png       the PDF's first page (pdftoppm)
#   report-xlsx.png      the workbook's Week sheet, as LibreOffice prints it
# The browser test writes the HTML screenshots, the week's JSON and its
# terminal text (TRACKEE_REPORT_SCREENSHOTS); trackee-report writes the PDF
# and the workbook. Needs the debug build with tests (make test),
# trackee-report (make build), chromium, poppler-utils and
# libreoffice-calc-nogui.
# Usage: scripts/report-screenshots.sh
set -eu
cd "$(dirname "$0")/.."
tool=.build/release/trackee-report
[ -x "$tool" ] || { echo "scripts/report-screenshots.sh: $tool is missing; run make build first" >&2; exit 69; }
work=$(mktemp -d "${TMPDIR:-/tmp}/trackee-shots.XXXXXX")
trap 'rm -rf "$work"' EXIT
TRACKEE_REPORT_SCREENSHOTS="$work" swift test --skip-build --filter ReportHTMLBrowserTests >"$work/test.log" 2>&1 \
    || { cat "$work/test.log" >&2; exit 1; }
cp "$work/report-html.png" "$work/report-html-375.png" docs/

"$tool" --format pdf -o "$work/report.pdf" <"$work/week-summary.json"
pdftoppm -png -r 100 -f 1 -l 1 -singlefile "$work/report.pdf" docs/report-pdf

"$tool" --format xlsx -o "$work/sheet.xlsx" <"$work/week-weekly.json"
HOME="$work" soffice --headless --convert-to pdf --outdir "$work" "$work/sheet.xlsx" >/dev/null 2>&1
# Page 2 is the Week sheet (page 1 the Report sheet); its top, where the grid is.
pdftoppm -png -r 130 -f 2 -l 2 -singlefile -x 80 -y 80 -W 920 -H 145 "$work/sheet.pdf" docs/report-xlsx

# The terminal's text with its colours, drawn as a terminal would: white
# on a dark background, each SGR colour as its 24-bit value.
python3 - "$work/week-terminal.ansi" "$work/terminal.html" <<'PY'
import html, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
out, style = [], {}
for piece in re.split(r"(\x1b\[[0-9;]*m)", text):
    match = re.fullmatch(r"\x1b\[([0-9;]*)m", piece)
    if not match:
        css = ";".join(f"{k}:{v}" for k, v in style.items())
        out.append(f'<span style="{css}">{html.escape(piece)}</span>' if css else html.escape(piece))
        continue
    codes = [int(c) for c in match.group(1).split(";") if c] or [0]
    i = 0
    while i < len(codes):
        code = codes[i]
        if code == 0: style = {}
        elif code == 1: style["font-weight"] = "bold"
        elif code == 2: style["opacity"] = "0.65"
        elif code == 38 and codes[i + 1:i + 2] == [2]:
            style["color"] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5]); i += 4
        elif 30 <= code <= 37:
            style["color"] = ["#000", "#e06c75", "#98c379", "#e5c07b", "#61afef", "#c678dd", "#56b6c2", "#ddd"][code - 30]
        i += 1
open(sys.argv[2], "w", encoding="utf-8").write(
    "<!doctype html><meta charset=utf-8><body style='margin:0;background:#1e1e1e'>"
    "<pre style='margin:0;padding:16px;color:#ddd;font:15px/1.25 \"DejaVu Sans Mono\",monospace'>"
    + "".join(out) + "</pre>")
PY
lines=$(wc -l <"$work/week-terminal.ansi")
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$work/chromium" \
    --window-size=920,$(( lines * 19 + 40 )) --screenshot="$work/terminal.png" "file://$work/terminal.html" >/dev/null 2>&1
cp "$work/terminal.png" docs/report-terminal.png
ls -l docs/report-*.png
