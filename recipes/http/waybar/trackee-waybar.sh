#!/bin/sh
# The running timer in waybar, updated the moment it changes: this script
# prints the timer once from GET /v1/status, then follows the event stream
# (GET /v1/events/stream) and prints one JSON line per timer change, the
# format of a waybar custom module with "return-type": "json":
#   {"text":"Docs","alt":"started","class":"running","tooltip":"Docs since 09:41"}
#   {"text":"idle","alt":"stopped","class":"idle","tooltip":"no timer runs"}
# When the stream ends it reads the status again and follows the stream
# anew; while trackee does not answer (trackee run stopped or restarting)
# it prints {"text":"off",...,"class":"offline"} and tries again every 5
# seconds. Nothing but sh, curl and sed.
#
# Install (trackee run must have `http:` in its settings):
#   trackee tokens add waybar --scope read
#   (put the token it prints alone in ~/.config/trackee/waybar.token, chmod 600)
#   install -m 755 recipes/http/waybar/trackee-waybar.sh ~/.local/bin/trackee-waybar
# and add recipes/http/waybar/config.jsonc's module to your waybar config.
# Try it in a terminal first: trackee-waybar, then trackee start -p Docs.
#
# TRACKEE_URL (default http://127.0.0.1:7777) and TRACKEE_TOKEN_FILE
# (default ~/.config/trackee/waybar.token) change where it looks.
set -u

url=${TRACKEE_URL:-http://127.0.0.1:7777}
token_file=${TRACKEE_TOKEN_FILE:-${XDG_CONFIG_HOME:-$HOME/.config}/trackee/waybar.token}
cr=$(printf '\r')

# curl reads the Authorization header from a config on its standard input,
# so the token never shows in the process list.
fetch() {
    path=$1
    shift
    printf 'header = "Authorization: Bearer %s"\n' "$(cat "$token_file")" |
        curl --silent --fail --config - "$@" "$url$path"
}

# The waybar line for the timer in the object under "$2" in the JSON text
# "$1" ("running" of a status, "entry" of an event), with "$3" as its alt.
running() {
    project=$(printf '%s\n' "$1" | sed -n -E 's/.*"'"$2"'": *\{[^}]*"project": *"(([^"\\]|\\.)*)".*/\1/p')
    since=$(printf '%s\n' "$1" | sed -n -E 's/.*"'"$2"'": *\{[^}]*"start": *"[^"T]*T([0-9][0-9]:[0-9][0-9]).*/\1/p')
    [ -n "$project" ] || project="(no project)"
    printf '{"text":"%s","alt":"%s","class":"running","tooltip":"%s since %s"}\n' "$project" "$3" "$project" "$since"
}

idle() {
    printf '{"text":"idle","alt":"%s","class":"idle","tooltip":"no timer runs"}\n' "$1"
}

offline() {
    printf '{"text":"off","alt":"offline","class":"offline","tooltip":"trackee does not answer at %s"}\n' "$url"
}

while :; do
    if status=$(fetch /v1/status); then
        if printf '%s\n' "$status" | grep -q '"running": *{'; then
            running "$status" running status
        else
            idle status
        fi
        # Server-sent events: "event:" and "data:" lines, a blank line ends
        # one; lines starting with ":" (the greeting, heartbeats) are comments.
        fetch /v1/events/stream --no-buffer | {
            event="" data=""
            while IFS= read -r line; do
                line=${line%"$cr"}
                case $line in
                    "event: "*) event=${line#event: } ;;
                    "data: "*) data=${line#data: } ;;
                    "")
                        case $event in
                            started | switched) running "$data" entry "$event" ;;
                            stopped | cancelled) idle "$event" ;;
                        esac
                        event="" data=""
                        ;;
                esac
            done
        }
        # The stream ended: trackee stopped, or a proxy closed it. Look again
        # soon, without spinning on a stream that keeps ending at once.
        sleep 1
    else
        offline
        sleep 5
    fi
done
