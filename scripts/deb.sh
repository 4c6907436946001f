#!/bin/sh
# Makes trackee's Debian package out of what `make install PREFIX=/usr`
# put in WORK/debian/trackee (where dpkg-shlibdeps expects a package's
# tree, beside WORK/debian/control): moves the zsh completion where
# Debian's zsh looks, compresses the manuals, adds the systemd user unit,
# README, the recipes, the copyright file, the changelog and lintian's
# overrides, computes Depends from the dynamic binaries, and builds OUTPUT
# with dpkg-deb.
# Usage: scripts/deb.sh WORK VERSION OUTPUT
# DEB_SHLIBDEPS_FLAGS goes to dpkg-shlibdeps (the package test passes
# --ignore-missing-info: its debug binaries load the Swift runtime from the
# toolchain, which no Debian package holds), DEB_COMPRESSION to dpkg-deb.
set -eu
work=$(realpath "$1") version=$2 output=$3
root=$work/debian/trackee
maintainer="trackee maintainers <maintainers@users.noreply.a-seed-cd1941af.example>"
doc=$root/usr/share/doc/trackee
umask 022

# Debian's zsh reads vendor-completions, not site-functions (see README).
mkdir -p "$root/usr/share/zsh/vendor-completions"
mv "$root/usr/share/zsh/site-functions/_trackee" "$root/usr/share/zsh/vendor-completions/_trackee"
rmdir "$root/usr/share/zsh/site-functions"
# bash-completion sources the file: no #! line (lintian's
# bash-completion-with-hashbang).
sed -i '1{/^#!/d}' "$root/usr/share/bash-completion/completions/trackee"
gzip -9n "$root/usr/share/man/man1/trackee.1" "$root/usr/share/man/man5/trackee-rules.5"

# The recipe's unit with the packaged binary, and without the steps that
# copy it into ~/.config, which the package has done.
mkdir -p "$root/usr/lib/systemd/user"
sed -e 's|^ExecStart=%h/\.local/bin/trackee |ExecStart=/usr/bin/trackee |' \
    -e '/^# Install (after `make install/,/^#   systemctl --user daemon-reload$/c\
# The trackee package installs this unit for every user; to start it now\
# and at each login:' \
    recipes/systemd/trackee.service >"$root/usr/lib/systemd/user/trackee.service"
grep -q '^ExecStart=/usr/bin/trackee run$' "$root/usr/lib/systemd/user/trackee.service"

mkdir -p "$doc"
cp README.md "$doc/"
cp -R recipes "$doc/"
cat >"$doc/copyright" <<EOF
trackee $version

Copyright 2026 the trackee maintainers (the authors in its git history)
Contact: $maintainer

trackee's repository has no licence: no LICENSE or COPYING file, and no
licence statement in its sources or documentation. This package grants
none either. Ask the maintainers before you copy, change or pass on
trackee.

The binaries have other projects' code in them. trackee and
trackee-daemon are fully static: they contain the Swift runtime and
Foundation, swift-argument-parser, GRDB.swift, swift-log, Yams (with
libyaml), swift-service-lifecycle, SQLite, libical, ICU, libdbus, the GNU
C library and libstdc++; trackee-daemon also SwiftNIO, libpq and OpenSSL.
trackee-sync contains the Swift runtime, Foundation and GRDB.swift, and
loads libcurl, SQLite, libstdc++ and the C library from the Debian
packages it depends on; trackee-report contains the same and loads
cairo, libxlsxwriter, SQLite, libstdc++ and the C library. Each of those is under its own licence.
EOF
# A native package's changelog: one entry for the version, dated by the
# commit it was built from, so the same commit makes the same file.
date=$(git log -1 --format=%aD 2>/dev/null || date -R)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
cat >"$doc/changelog" <<EOF
trackee ($version) unstable; urgency=medium

  * trackee $version, built from commit $commit of its repository.

 -- $maintainer  $date
EOF
# Policy 12.3, as dh_compress does it: the changelog and any other file
# over 4 kB, but not the copyright file.
gzip -9n "$doc/changelog"
find "$doc" -type f -size +4k ! -name copyright -exec gzip -9n {} +

# What lintian reports that is so on purpose (README, "Set up", says why).
mkdir -p "$root/usr/share/lintian/overrides"
cat >"$root/usr/share/lintian/overrides/trackee" <<'EOF'
# trackee and trackee-daemon are static on purpose: a one-shot command
# starts without loading and relocating shared libraries (BENCHMARKS.md).
trackee: statically-linked-binary [usr/bin/trackee]
trackee: statically-linked-binary [usr/bin/trackee-daemon]
# Yams, the YAML parser the rules are read with, carries its own libyaml.
trackee: embedded-library libyaml [usr/bin/trackee]
trackee: embedded-library libyaml [usr/bin/trackee-daemon]
# The binaries lose their debug sections but keep the symbol table, so
# crash backtraces, gdb and perf name functions, as `make install` does.
trackee: unstripped-binary-or-object [usr/bin/trackee]
trackee: unstripped-binary-or-object [usr/bin/trackee-daemon]
trackee: unstripped-binary-or-object [usr/bin/trackee-sync]
trackee: unstripped-binary-or-object [usr/bin/trackee-report]
EOF

# dh_fixperms' modes: only the programs are executable.
find "$root" -type d -exec chmod 0755 {} +
find "$root" -type f -exec chmod 0644 {} +
chmod 0755 "$root"/usr/bin/*

# Depends from the libraries the dynamic binaries load; the static ones
# load none (dpkg-shlibdeps refuses a static binary).
dynamic=""
for program in "$root"/usr/bin/*; do
    if readelf --dynamic "$program" | grep -q '(NEEDED)'; then dynamic="$dynamic $program"; fi
done
mkdir -p "$root/DEBIAN"
printf 'Source: trackee\n\nPackage: trackee\nArchitecture: any\n' >"$work/debian/control"
depends=""
if [ -n "$dynamic" ]; then
    # shellcheck disable=SC2086
    (cd "$work" && dpkg-shlibdeps -O ${DEB_SHLIBDEPS_FLAGS:-} $dynamic) >"$work/substvars"
    depends=$(sed -n 's/^shlibs:Depends=//p' "$work/substvars")
    [ -n "$depends" ] || { echo "deb.sh: dpkg-shlibdeps found no Depends for$dynamic" >&2; exit 1; }
fi

size=$(du -sk --apparent-size --exclude=DEBIAN "$root" | cut -f1)
{
    printf 'Package: trackee\nVersion: %s\nArchitecture: %s\nMaintainer: %s\n' \
        "$version" "$(dpkg --print-architecture)" "$maintainer"
    printf 'Installed-Size: %s\n' "$size"
    [ -z "$depends" ] || printf 'Depends: %s\n' "$depends"
    cat <<'EOF'
Section: utils
Priority: optional
Description: time tracker driven by automations
 trackee keeps a timer and a log of time entries in a local SQLite store,
 and is meant to run itself: rules start and stop the timer on a
 schedule, at calendar events, on arriving at or leaving a place, when
 the desk goes idle or locks, and from a phone or home automation over
 an HTTP API. Every change is an idempotent intent, so a repeated or
 retried command never counts anything twice, and any change can be
 undone. Entries sync to Clockify and Toggl Track, and between a
 person's devices through a PostgreSQL hub.
 .
 The package holds trackee, trackee-daemon (what `trackee run` becomes
 when it serves the HTTP API or a hub), trackee-sync and trackee-report
 (the PDF and XLSX reports), the manuals,
 completions for bash, zsh and fish, a systemd user unit
 (systemctl --user enable --now trackee) and the recipes.
EOF
} >"$root/DEBIAN/control"
(cd "$root" && find . -type f ! -path './DEBIAN/*' | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

# Every file dated no later than the commit, so the same commit and
# binaries make the same package.
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH
dpkg-deb --build --root-owner-group ${DEB_COMPRESSION:-} "$root" "$output"
