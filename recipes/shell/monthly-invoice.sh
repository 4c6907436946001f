#!/bin/sh
# A client's invoice report for last month: every billable entry of the
# client's projects, each rounded up to 6 minutes, as a PDF named after the
# month (acme-2026-10.pdf). recipes/systemd/trackee-invoice.timer runs it
# on the 1st of each month; run it by hand any day for the month before.
#
# Usage: monthly-invoice.sh CLIENT [DIRECTORY [DAY]]
#   DIRECTORY  where the PDF goes (default ~/invoices, made if missing)
#   DAY        any day of the month wanted, YYYY-MM-DD (default: the last
#              day of last month)
#
# Install (after `make install PREFIX=~/.local`, which puts trackee and
# trackee-report in ~/.local/bin):
#   install -m 755 recipes/shell/monthly-invoice.sh ~/.local/bin/trackee-invoice
# Try it without touching your store, on a copy of it:
#   TRACKEE_STORE=/tmp/copy.sqlite3 trackee-invoice Acme /tmp
set -eu

client=${1:?usage: monthly-invoice.sh CLIENT [DIRECTORY [DAY]]}
directory=${2:-$HOME/invoices}
# The first of this month, one day back: the month before, whatever today is.
day=${3:-$(date -d "$(date +%Y-%m-01) -1 day" +%Y-%m-%d)}
month=$(echo "$day" | cut -c1-7)
name=$(echo "$client" | tr 'A-Z ' 'a-z-')

mkdir -p "$directory"
exec trackee report detailed --month --date "$day" --client "$client" --billable --round 6m \
    -o "$directory/$name-$month.pdf"
