#!/bin/bash
# `trackee run` with gpsd's fixes on its standard input: schedules, focus
# events and arrive:/leave: rules in one process, for
# recipes/systemd/trackee-gps.service.
#
#   trackee-gps [server[:port[:device]]]     (as gpspipe takes it; default localhost:2947)
#
# gpspipe is started again five seconds after it ends (gpsd restarted, the
# receiver unplugged), so the fixes come back by themselves; trackee run
# never sees the end of its input and keeps firing schedules meanwhile.
# When trackee run ends, gpspipe is stopped within a second, even while
# gpsd sends nothing. Needs bash 5.1 or later (wait -n with process ids).
# The script becomes trackee run (exec), so a service manager signals
# trackee itself: SIGHUP reloads the rules, SIGTERM stops it, and systemd
# hears READY=1 from it. Once trackee run is gone, the loop ends too.
#
# Install: install -m 755 recipes/shell/trackee-gps.sh ~/.local/bin/trackee-gps
# Try it:  trackee-gps, then `trackee places` in another terminal; Ctrl-C stops it.
main=$$
exec trackee run < <(
    while kill -0 "$main" 2>/dev/null; do
        gpspipe -w "$@" &
        pipe=$!
        # Ends when trackee run does (tail checks once a second), so a
        # gpspipe waiting on a quiet gpsd does not outlive it.
        tail --pid="$main" -f /dev/null &
        watch=$!
        wait -n "$pipe" "$watch"
        if ! kill -0 "$main" 2>/dev/null; then
            kill "$pipe" 2>/dev/null
            exit 0
        fi
        kill "$watch" 2>/dev/null
        wait "$pipe"
        # 128 and above: gpspipe was killed, by SIGPIPE when trackee run is gone.
        [ $? -lt 128 ] || exit 0
        sleep 5
    done
)
