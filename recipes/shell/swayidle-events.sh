#!/bin/sh
# Idleness, the screen lock and suspend on sway, Hyprland and other
# wlroots compositors, which tell them through the ext-idle-notify
# protocol and not over D-Bus: swayidle hears them and prints trackee's
# event lines into `trackee run`, which fires the idle:, session: and
# sleep: rules (recipes/rules/desk.yaml) as it would on GNOME or KDE.
#
# Each swayidle command prints one line; swayidle runs it with sh -c and
# trackee reads it as it comes. "idle_for":60 says idleness began 60 s
# before the line was read, so an `idle: {for: 10m}` rule fires ten
# minutes after the last key press, not eleven. Keep the timeout at or
# under the shortest idle length your rules wait for.
#
# lock, unlock, before-sleep and after-resume come from logind, which
# trackee run also watches: a lock heard twice is one edge and fires once.
# swayidle -w waits for before-sleep's command, but that is only the echo;
# what holds a suspend until the stop is committed is trackee run's own
# delay inhibitor on logind.
#
# Install: install -m 755 recipes/shell/swayidle-events.sh ~/.local/bin/trackee-swayidle
#          and in ~/.config/sway/config: exec trackee-swayidle
#          (instead of the trackee.service unit: one trackee run at a time)
# Try it:  trackee-swayidle, leave the keyboard for a minute, then
#          `trackee rules why` in another terminal; Ctrl-C stops it.
exec swayidle -w \
    timeout 60 'echo "{\"type\":\"idle\",\"idle_for\":60}"' \
    resume 'echo "{\"type\":\"idle\",\"state\":\"active\"}"' \
    lock 'echo "{\"type\":\"session\",\"state\":\"locked\"}"' \
    unlock 'echo "{\"type\":\"session\",\"state\":\"unlocked\"}"' \
    before-sleep 'echo "{\"type\":\"sleep\",\"state\":\"suspend\"}"' \
    after-resume 'echo "{\"type\":\"sleep\",\"state\":\"resume\"}"' \
    | trackee run
