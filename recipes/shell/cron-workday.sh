#!/bin/sh
# Start or stop the working-day timer from cron, safely repeatable.
#
#   # crontab -e
#   0 9  * * 1-5  /path/to/cron-workday.sh start
#   0 18 * * 1-5  /path/to/cron-workday.sh stop
#
# The --key names today's occurrence, so a second run of the same job on the
# same day (cron retry, manual re-run, two machines sharing the store) is
# reported as the first run's outcome and changes nothing. --new-project:
# the project is this script's own, so its first run may create it (cron
# has no terminal to ask on).
set -eu
project=${TRACKEE_WORK_PROJECT:-Work}
day=$(date +%Y-%m-%d)
case ${1:-} in
    start) exec trackee start --project "$project" --new-project --key "cron-workday-start-$day" ;;
    stop) exec trackee stop --key "cron-workday-stop-$day" ;;
    *) echo "usage: $0 start|stop" >&2; exit 64 ;;
esac
