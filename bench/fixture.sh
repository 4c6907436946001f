#!/bin/sh
# Builds one pair of benchmark fixtures holding the same N finished entries:
#   DIR/trackee.sqlite3  a trackee store (migrated by trackee itself, then
#                        filled with the sqlite3 CLI in one transaction)
#   DIR/timew/           a Timewarrior database (TIMEWARRIORDB) with the
#                        same intervals, written by bench/timew-data.py
# Entries are consecutive: one per hour, 45 minutes long, the newest ending
# 15 to 75 minutes before now, so today and this week have entries.
# Usage: bench/fixture.sh TRACKEE_BIN N DIR
set -eu
bin=$1 n=$2 dir=$3
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir"
mkdir -p "$dir/timew"
store="$dir/trackee.sqlite3"

# Let trackee create the file and run its own migrations.
"$bin" status --store "$store" >/dev/null

# The catalogue (clients and projects) is in every fixture, the empty one
# too: `start -p Docs` names a project that exists, as a user's would. The
# entries' sequence starts only when N > 0.
sqlite3 "$store" <<SQL
.bail on
BEGIN IMMEDIATE;
CREATE TEMP TABLE k AS
    SELECT CAST(strftime('%s', 'now') AS INTEGER) AS now,
           (CAST(strftime('%s', 'now') AS INTEGER) / 3600) * 3600 - 3600 AS base;
INSERT INTO client (id, name, created)
    SELECT v.id, v.name, k.base - $n * 3600 FROM k,
        (SELECT 1 AS id, 'Acme' AS name UNION ALL SELECT 2, 'Globex' UNION ALL SELECT 3, 'Initech') AS v;
INSERT INTO project (id, client_id, name, billable, rate_cents, created)
    SELECT v.id, v.client_id, v.name, v.billable, v.rate, k.base - $n * 3600 FROM k,
        (SELECT 1 AS id, 1 AS client_id, 'Docs' AS name, 1 AS billable, 9000 AS rate
         UNION ALL SELECT 2, 1, 'Backend', 1, 12000
         UNION ALL SELECT 3, 2, 'Design', 0, NULL
         UNION ALL SELECT 4, 2, 'Support', 1, 6000
         UNION ALL SELECT 5, 3, 'Research', 0, NULL
         UNION ALL SELECT 6, NULL, 'Admin', 0, NULL) AS v;
WITH RECURSIVE seq(i) AS (SELECT 1 WHERE $n > 0 UNION ALL SELECT i + 1 FROM seq WHERE i < $n)
INSERT INTO entry (project_id, description, tags, start, "end", source, created, updated)
    SELECT i % 6 + 1,
           CASE i % 5 WHEN 0 THEN '' WHEN 1 THEN 'review pull requests'
                      WHEN 2 THEN 'write release notes' WHEN 3 THEN 'weekly sync'
                      ELSE 'fix flaky test' END,
           CASE i % 4 WHEN 0 THEN '' WHEN 1 THEN 'billable' WHEN 2 THEN 'meeting'
                      ELSE 'billable,meeting' END,
           base - ($n - i) * 3600,
           base - ($n - i) * 3600 + 2700,
           'cli',
           base - ($n - i) * 3600 + 2700,
           base - ($n - i) * 3600 + 2700
    FROM seq, k;
COMMIT;
SQL

# The same intervals for Timewarrior: tags are client, project and the entry's
# tags; the description becomes the annotation.
sqlite3 -separator '	' "$store" '
    SELECT e.start, e."end", ifnull(c.name, ""), ifnull(p.name, ""), e.tags, e.description
    FROM entry e LEFT JOIN project p ON p.id = e.project_id LEFT JOIN client c ON c.id = p.client_id
    ORDER BY e.start, e.id' | python3 "$here/timew-data.py" "$dir/timew"
