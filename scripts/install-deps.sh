#!/bin/sh
# Installs the system packages trackee builds and tests against, if missing.
# As root it runs apt-get; otherwise it prints the exact command and stops.
# Usage: scripts/install-deps.sh [extra-package ...]
set -eu
packages="libsqlite3-dev libical-dev libcurl4-openssl-dev libdbus-1-dev libpq-dev pkg-config tzdata binutils $*"
missing=""
for p in $packages; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
    echo "trackee needs these Debian packages:$missing" >&2
    echo "run: sudo apt-get update && sudo apt-get install -y$missing" >&2
    exit 1
fi
echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq $missing >/dev/null
