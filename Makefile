# trackee — see README.md. `make demo` and `make test` are the two set-up commands.
SWIFT ?= $(shell command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)
PREFIX ?= /usr/local
# The installed binary is fully static (Swift runtime, SQLite, libical and
# the ICU it needs included) and not position-independent: a process then
# starts without loading and relocating shared libraries, which makes
# `trackee status` 15 % fewer instructions than the dynamic build even with
# libical linked in (see BENCHMARKS.md).
STATIC_LIBS = $(foreach l,$(shell pkg-config --static --libs-only-l libical sqlite3 2>/dev/null) -ldbus-1 -lstdc++,-Xlinker $(l))
# libical hands ICU a zone name of the wrong width; in a static link that
# costs 0.4 ms per recurrence iterator unless its calls go through the fix
# in Sources/CLibicalZoneFix.
ICU_MAJOR = $(firstword $(subst ., ,$(shell pkg-config --modversion icu-uc 2>/dev/null)))
RELEASE_FLAGS = -c release --static-swift-stdlib -Xswiftc -static-executable -Xlinker -no-pie $(STATIC_LIBS) \
	-Xlinker --wrap=ucal_open_$(ICU_MAJOR)
BIN = .build/release/trackee
# trackee-sync (what `trackee sync` runs to talk to Clockify and Toggl
# Track) links libcurl, so it is a dynamic executable (the Swift runtime
# linked in, so it needs no toolchain installed), built in a scratch folder
# of its own (the static build's flags would rebuild everything) and put
# next to trackee.
SYNC_BIN = .build/release/trackee-sync
# trackee-report (what `trackee report --format pdf|xlsx` runs) links cairo
# and libxlsxwriter, dynamically (Debian ships libxlsxwriter only as a
# shared library), built like trackee-sync and in the same scratch folder,
# whose modules it shares.
REPORT_BIN = .build/release/trackee-report
# trackee-daemon is trackee with the HTTP API's server (SwiftNIO) linked
# in, fully static like trackee; `trackee run` execs it when the settings
# have `http:`. Only it pays NIO's start-up cost (see BENCHMARKS.md).
DAEMON_BIN = .build/release/trackee-daemon
# When this make began (seconds since the epoch), before any prerequisite
# ran: `demo` and `test` remove at their end the empty folders SwiftPM
# left in the temporary directory since then (scripts/swiftpm-leftovers.sh).
# A time, not a file: a make that a test runs has its own.
MAKE_STARTED := $(shell date +%s.%N)
# It also holds the hub's PostgreSQL client, libpq, linked statically:
# libpq.a (libpq-dev) needs libpgcommon_shlib.a and libpgport_shlib.a
# (postgresql-server-dev-15, only for this release build) and OpenSSL's
# libssl.a and libcrypto.a (libssl-dev). GSSAPI and LDAP ship no static
# libraries; Sources/CLibpqStatic stands in for them.
PG_LIBDIR = $(shell pg_config --pkglibdir 2>/dev/null || echo /usr/lib/postgresql/15/lib)
PQ_STATIC = -Xlinker -L$(PG_LIBDIR) $(foreach l,-lpq -lpgcommon_shlib -lpgport_shlib -lssl -lcrypto,-Xlinker $(l))

.PHONY: all deps build build-trackee demo test bench conformance install uninstall deb deb-package clean

all: build

deps:
	@scripts/install-deps.sh

build: build-trackee
	@scripts/install-deps.sh postgresql-server-dev-15 libssl-dev libcairo2-dev libxlsxwriter-dev
	$(SWIFT) build $(RELEASE_FLAGS) $(PQ_STATIC) --product trackee-daemon
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-sync --product trackee-sync
	cp .build-sync/release/trackee-sync $(SYNC_BIN)
	$(SWIFT) build -c release --static-swift-stdlib --scratch-path .build-sync --product trackee-report
	cp .build-sync/release/trackee-report $(REPORT_BIN)

build-trackee: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product trackee

# The demo runs only trackee, so it builds only trackee, and in debug: the
# static release build alone takes 4.6 minutes on two cores, and `make
# test` reuses every module of the debug one. `make build` and `make
# install` make the release binary.
DEMO_BIN = .build/debug/trackee
# Debug builds keep line tables only: backtraces, gdb and failing tests
# still name files and lines, and the builds compile and link faster
# (`make test` after `make demo` went from 8:01-8:34 to 7:28). Every debug
# build here passes the same flags, so each reuses the others' modules.
DEBUG_FLAGS = -Xswiftc -gline-tables-only
demo: deps
	$(SWIFT) build $(DEBUG_FLAGS) --product trackee
	@scripts/demo.sh $(DEMO_BIN)
	@scripts/swiftpm-leftovers.sh clean $(MAKE_STARTED)

# Tests also need the real programs trackee is checked against: khal
# (calendars), gpsd with gpsfake and gpspipe, and the mosquitto broker and
# clients (location feeds); valgrind (the calendar leak check); and python3
# (the fake Clockify and Toggl Track servers in Tests/Servers); dbus-daemon
# and python3-dbusmock (the D-Bus tests, which run Debian's /usr/bin/python3
# against a private dbus-daemon, as does the fake TimeFlip2 cube in
# Tests/Servers, with the python3-dbus and python3-gi dbusmock brings;
# libdbus-1-dev itself is a build package);
# curl and openssl (the HTTP tests' client, and their TLS certificate);
# for the HTTP recipes, nginx (the reverse-proxy recipe run for real)
# and python3-jinja2 (Home Assistant's templates); postgresql-15, whose
# initdb and pg_ctl give the hub's tests a private cluster; dpkg-dev
# (dpkg-shlibdeps, for the Debian package DebPackageTests makes); the
# trackers `trackee import` is checked against: timewarrior, and Watson
# (td-watson, which Debian lacks, from PyPI into .build-watson/venv);
# what reads trackee-report's files back: poppler-utils (pdftotext,
# pdffonts, pdftoppm) and python3-openpyxl, with fonts-dejavu-core, the
# font the PDFs are set in; and for the HTML report and the web page,
# chromium, chromium-driver, python3-selenium and python3-pil
# (ReportHTMLBrowserTests opens the report in headless Chromium from
# Debian's python3, screenshots it and counts its inked pixels;
# poppler-utils' pdfinfo and pdftotext read it printed; WebBrowserTests
# signs in to the page of the built `trackee run` and uses it).
TEST_PACKAGES = khal gpsd gpsd-clients mosquitto mosquitto-clients valgrind python3 dbus-daemon python3-dbusmock \
	curl openssl nginx python3-jinja2 postgresql-15 dpkg-dev timewarrior python3-venv \
	poppler-utils python3-openpyxl fonts-dejavu-core chromium chromium-driver python3-selenium python3-pil \
	libcairo2-dev libxlsxwriter-dev
WATSON_VENV = .build-watson/venv
# The leak check is a release build of its own (only TrackeeCore and
# TrackeeCalendar): under valgrind the debug build takes 7 minutes a round.
LEAK_CHECK = .build-leaks/release/trackee-calendar-leaks
test: deps
	@scripts/install-deps.sh $(TEST_PACKAGES)
	@test -x $(WATSON_VENV)/bin/watson || { python3 -m venv $(WATSON_VENV) && \
		$(WATSON_VENV)/bin/pip install -q --disable-pip-version-check td-watson==2.1.0; } || \
		echo "td-watson could not be installed from PyPI; the Watson import test will say it is skipped"
	$(SWIFT) build $(DEBUG_FLAGS) --build-tests
	@# Beside the Swift tests, which wait on processes and buses much of
	@# the time and leave a core idle, one job builds the leak check (a
	@# release build, in a scratch path of its own), runs the own tests of
	@# the fake Clockify and Toggl Track servers and of the fake TimeFlip2
	@# cube behind a mock BlueZ (Debian's python3, for dbus-python), and
	@# runs the leak check: every test calendar loaded and expanded 10
	@# times under valgrind. Its log is printed after the Swift tests; both
	@# must succeed.
	@mkdir -p .build-leaks; \
	{ $(SWIFT) build -c release --scratch-path .build-leaks --product trackee-calendar-leaks && \
	  echo "== the fake Clockify and Toggl Track servers the sync tests run against" && \
	  python3 -m unittest Tests/Servers/test_fake_time_service.py && \
	  echo "== the fake TimeFlip2 cube behind a mock BlueZ" && \
	  /usr/bin/python3 -m unittest Tests/Servers/test_fake_timeflip_bluez.py && \
	  echo "== calendar leak check: every test calendar loaded and expanded 10 times under valgrind" && \
	  valgrind -q --leak-check=full --show-leak-kinds=definite --errors-for-leak-kinds=definite --error-exitcode=1 \
		$(LEAK_CHECK) --rounds 10 Tests/TrackeeCalendarTests/Calendars; \
	} >.build-leaks/beside.log 2>&1 & beside=$$!; \
	$(SWIFT) test --skip-build; tests=$$?; \
	wait $$beside; checks=$$?; \
	echo "== made beside the Swift tests: the leak check's build, the fakes' tests, the leak check (exit $$checks)"; \
	grep -v -e '^### unhandled dwarf2' -e '^--[0-9]*--' -e '^get_Form' .build-leaks/beside.log | grep -v '^\[[0-9]*/[0-9]*\]'; \
	scripts/swiftpm-leftovers.sh clean $(MAKE_STARTED); \
	[ $$tests -eq 0 ] && [ $$checks -eq 0 ]

bench: build
	@scripts/install-deps.sh timewarrior hyperfine sqlite3 python3 python3-venv valgrind binutils gcc bc curl \
		dbus-daemon python3-dbusmock wrk postgresql-15 chromium chromium-driver python3-selenium
	$(SWIFT) build -c release --product trackee-bench-rules
	@bench/run.sh $(BIN)
	@echo "== rules engine and daemon"
	@.build/release/trackee-bench-rules | tee bench/out/rules.txt
	@bench/daemon.sh $(BIN) | tee bench/out/daemon.md
	@echo "== the desk: trackee run attached to mocks of logind, UPower, NetworkManager and Mutter on a private bus"
	@/usr/bin/python3 bench/desk.py $(BIN) | tee bench/out/desk.md
	@echo "== the TimeFlip2 cube: trackee run with the fake cube behind a mock bluetoothd: a catch-up of 1,000 intervals, idle CPU connected, a flip to its change committed"
	@/usr/bin/python3 bench/cube.py $(BIN) | tee bench/out/cube.md
	@echo "== calendars: a year of a 10,000-event calendar, beside libical's floor and recurring-ical-events"
	@bench/calendar/run.sh $(BIN)
	@echo "== calendars: trackee run holding that calendar"
	@python3 bench/calendar/daemon.py $(BIN) bench/out/calendar/calendar.ics bench/out/calendar
	@echo "== location: feed throughput per format beside wc -l, feed memory, a live 1 Hz feed into trackee run"
	@bench/location/run.sh $(BIN)
	@echo "== import: 100,000 Timewarrior intervals into an empty store, beside timew export writing them (target: 5 s)"
	@bench/import/run.sh $(BIN)
	@echo "== sync: pushing 10,000 queued entries to a local Clockify fake that answers at once"
	@bench/sync/run.sh $(BIN)
	@echo "== reports: trackee report over 10,000 entries in the terminal and as HTML, beside timew summary and timew week (targets: 50 ms and 200 ms)"
	@bench/report-terminal.sh $(BIN) | tee bench/out/report-terminal.md
	@echo "== report files: trackee-report writing a year of 10,000 entries as PDF and XLSX, detailed and summary (target: 1 s each)"
	@scripts/install-deps.sh fonts-dejavu-core
	@python3 bench/report-files.py $(REPORT_BIN) | tee bench/out/report-files.md
	@echo "== the HTTP API: keyed POST /v1/start and GET /v1/status with wrk at 32 connections, beside trackee start as a process per intent; the daemon's idle memory"
	@bench/http/run.sh $(BIN)
	@echo "== the web page: trackee run's page in headless Chromium, signed in: first paint of / over 20 loads, its weight (target: 100 KB), the daemon's memory idle with the page open (target: 30 MB)"
	@/usr/bin/python3 -B bench/web.py $(BIN) | tee bench/out/web.md
	@echo "== the hub: 100 devices of 1,000 changes, a new device's pull, convergence, two daemons, one-shot cost (PostgreSQL 15)"
	@bench/hub/run.sh $(BIN)
	@echo "== the pure merge alone: 100,000 new entries and 100,000 edits, as the pull's batches"
	@$(SWIFT) build -c release --product trackee-bench-merge
	@.build/release/trackee-bench-merge | tee bench/out/merge.txt
	@echo "== trackee run's service group through a week on a manual clock, alone (target: under 2 s in all)"
	@$(SWIFT) build $(DEBUG_FLAGS) --build-tests
	@$(SWIFT) test --skip-build --filter RunWeekTests 2>&1 | grep -E "a week of|passed|failed"

# Recurrence expansion checked against the recurring-ical-events package on
# the calendars its test suite ships and on seeded random rules (README:
# "Calendar conformance").
CONFORMANCE_VENV = .build-conformance/venv
conformance: deps
	@scripts/install-deps.sh python3-venv
	$(SWIFT) build $(DEBUG_FLAGS) --product trackee
	@test -x $(CONFORMANCE_VENV)/bin/python || python3 -m venv $(CONFORMANCE_VENV)
	@$(CONFORMANCE_VENV)/bin/pip install -q recurring-ical-events==3.8.2 icalendar==7.3.0 \
		python-dateutil==2.9.0.post0 x-wr-timezone==2.0.1
	$(CONFORMANCE_VENV)/bin/python scripts/conformance.py .build/debug/trackee
	$(CONFORMANCE_VENV)/bin/python scripts/random-rules.py .build/debug/trackee

# `make install` builds the release binaries first. Given BIN, SYNC_BIN,
# DAEMON_BIN and REPORT_BIN on the command line it installs those as they
# are, without building (the install test passes the debug binaries, so
# `make test` needs no release build).
INSTALL_NEEDS = $(if $(filter command line,$(origin BIN) $(origin SYNC_BIN) $(origin DAEMON_BIN) $(origin REPORT_BIN)),$(BIN) $(SYNC_BIN) $(DAEMON_BIN) $(REPORT_BIN),build)
# The installed binaries lose their debug sections but keep the symbol
# table, so Swift's crash backtraces, gdb and perf still name functions
# (`strip` would save another 19 MB on trackee and leave bare addresses;
# see README). The copies in .build keep everything.
STRIP_DEBUG = objcopy --strip-debug
BASH_COMPLETION = share/bash-completion/completions/trackee
ZSH_COMPLETION = share/zsh/site-functions/_trackee
FISH_COMPLETION = share/fish/vendor_completions.d/trackee.fish
INSTALLED = bin/trackee bin/trackee-sync bin/trackee-daemon bin/trackee-report share/man/man1/trackee.1 share/man/man5/trackee-rules.5 \
	$(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)

install: $(INSTALL_NEEDS)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/trackee
	$(STRIP_DEBUG) $(DESTDIR)$(PREFIX)/bin/trackee
	install -D -m 0755 $(SYNC_BIN) $(DESTDIR)$(PREFIX)/bin/trackee-sync
	$(STRIP_DEBUG) $(DESTDIR)$(PREFIX)/bin/trackee-sync
	install -D -m 0755 $(DAEMON_BIN) $(DESTDIR)$(PREFIX)/bin/trackee-daemon
	$(STRIP_DEBUG) $(DESTDIR)$(PREFIX)/bin/trackee-daemon
	install -D -m 0755 $(REPORT_BIN) $(DESTDIR)$(PREFIX)/bin/trackee-report
	$(STRIP_DEBUG) $(DESTDIR)$(PREFIX)/bin/trackee-report
	install -D -m 0644 man/trackee.1 $(DESTDIR)$(PREFIX)/share/man/man1/trackee.1
	install -D -m 0644 man/trackee-rules.5 $(DESTDIR)$(PREFIX)/share/man/man5/trackee-rules.5
	install -d $(dir $(addprefix $(DESTDIR)$(PREFIX)/,$(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION)))
	$(BIN) --generate-completion-script bash > $(DESTDIR)$(PREFIX)/$(BASH_COMPLETION)
	$(BIN) --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETION)
	$(BIN) --generate-completion-script fish > $(DESTDIR)$(PREFIX)/$(FISH_COMPLETION)
	chmod 0644 $(addprefix $(DESTDIR)$(PREFIX)/,$(BASH_COMPLETION) $(ZSH_COMPLETION) $(FISH_COMPLETION))

uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED))

# `make deb` makes trackee_VERSION_ARCH.deb here from the release binaries
# (or from BIN, SYNC_BIN, DAEMON_BIN and REPORT_BIN, as `make install` does) and has
# lintian check it; `deb-package` makes it without lintian (the package
# test builds one from the debug binaries that way). The version is the
# one `trackee --version` prints. scripts/deb.sh says what goes in.
VERSION = $(shell sed -n 's/^ *public static let string = "\(.*\)"$$/\1/p' Sources/TrackeeCommands/Trackee.swift)
DEB = trackee_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo amd64).deb
DEB_WORK = .build-deb
deb: deb-package
	@scripts/install-deps.sh lintian
	lintian --fail-on error $(DEB)
	@ls -l $(DEB)
	@dpkg-deb --field $(DEB) Installed-Size Depends

deb-package: $(INSTALL_NEEDS)
	@scripts/install-deps.sh dpkg-dev
	rm -rf $(DEB_WORK)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(DEB_WORK))/debian/trackee PREFIX=/usr \
		BIN=$(BIN) SYNC_BIN=$(SYNC_BIN) DAEMON_BIN=$(DAEMON_BIN) REPORT_BIN=$(REPORT_BIN)
	scripts/deb.sh $(DEB_WORK) $(VERSION) $(DEB)
	rm -rf $(DEB_WORK)

clean:
	rm -rf .build .build-sync .build-leaks .build-watson .build-deb
