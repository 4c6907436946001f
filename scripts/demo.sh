#!/bin/sh
# A short scripted session on a throwaway store: the main job of trackee,
# shown on an embedded default. Usage: scripts/demo.sh path/to/trackee
set -eu
bin=${1:-.build/release/trackee}
dir=$(mktemp -d "${TMPDIR:-/tmp}/trackee-demo.XXXXXX")
trap 'rm -rf "$dir"' EXIT
export TRACKEE_STORE="$dir/demo.sqlite3" TRACKEE_CONFIG="$dir/none.yaml" NO_COLOR=1
export TZ=Europe/Prague
step() {
    printf '\n$ trackee'
    for arg in "$@"; do
        case $arg in *" "*) printf ' "%s"' "$arg" ;; *) printf ' %s' "$arg" ;; esac
    done
    printf '\n'
    TRACKEE_NOW="$now" "$bin" "$@"
}
now="2026-11-20 09:00"; step start --project Docs --client Acme --new-project "user guide" --tag writing
now="2026-11-20 09:00"; step start --project Docs --client Acme "user guide" --tag writing
now="2026-11-20 10:30"; step start --project Review --client Acme --new-project "pull requests"
now="2026-11-20 11:15"; step stop
now="2026-11-20 11:15"; step stop
now="2026-11-20 11:20"; step add --project Planning --new-project --from "09:00" --to "09:15" standup
now="2026-11-20 11:20"; step add --project Support --client Globex --new-project --from "yesterday 14:00" --to "yesterday 16:30" "ticket 4121"
now="2026-11-20 11:20"; step projects edit Docs --client Acme --rate 80 --billable
now="2026-11-20 11:20"; step log
now="2026-11-20 11:20"; step summary --week
now="2026-11-20 11:20"; step summary --week --by client
now="2026-11-20 11:20"; step export --format toggl --email ana@example.com
now="2026-11-20 11:20"; step export --format clockify --email ana@example.com

# Automations: every recipe in recipes/rules played over a sample Monday,
# with a morning of deep work and a meeting, and the phone's track of the
# walk to the office and back out, on a throwaway store of its own.
recipes=$(cd "$(dirname "$0")/../recipes/rules" && pwd)
# The meetings recipe reads ~/.calendars/work: give it the sample calendar.
mkdir -p "$dir/home/.calendars"
cp -r "$recipes/../calendars/work" "$dir/home/.calendars/"
export HOME="$dir/home"
# The recipes start projects this store has never seen; rules create them
# only under create_projects: always (no one is there to be asked).
printf 'create_projects: always\n' > "$dir/config.yaml"
export TRACKEE_CONFIG="$dir/config.yaml"
cat > "$dir/monday.jsonl" <<'JSONL'
{"time":"2026-11-23 10:00","type":"focus","mode":"deep"}
{"time":"2026-11-23 11:30","type":"focus","mode":"meeting"}
{"time":"2026-11-23 12:10","type":"focus","mode":"meeting","state":"off"}
JSONL
set --
for file in "$recipes"/*.yaml; do set -- "$@" --rules "$file"; done
now="2026-11-20 11:20"
printf '\n$ trackee simulate --rules recipes/rules/*.yaml --from "2026-11-23 00:00" --to "2026-11-24 00:00" --events monday.jsonl --feed recipes/location/walk-to-office.gpx\n'
TRACKEE_NOW="$now" "$bin" simulate "$@" --from "2026-11-23 00:00" --to "2026-11-24 00:00" --events "$dir/monday.jsonl" \
    --feed "$recipes/../location/walk-to-office.gpx"
