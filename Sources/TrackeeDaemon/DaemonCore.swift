import Glibc
import Logging
import TrackeeAutomation
import TrackeeCalendar
import TrackeeCore
import TrackeeLocation
import TrackeeRules
import TrackeeStore

/// The daemon's state: the rules in force, the store, and how far schedules
/// and focus changes have been handled. An actor, so a schedule pass, an
/// event line and a reload take turns, and shutdown waits for the one under
/// way (each ends with its store transaction).
public actor DaemonCore {
    let runner: Runner
    let ruleFiles: [String]
    let systemd: SystemdNotifier
    /// What every part of the daemon reads the time from and sleeps on.
    public nonisolated let clocks: Clocks
    var automation: Automation
    /// Rung by a reload, so the schedule loop arms the new deadlines.
    let alarm: Alarm
    var focusSeen: Int64 = 0
    /// How far schedules have been evaluated, kept in memory between
    /// passes; the store's copy is written only when a window held an
    /// occurrence, so an idle daemon does not write every minute.
    var watermark: Instant?
    var lastPass: ClockReading?
    /// The rules as last read, before calendars are added.
    var ruleSet = RuleSet()
    /// Each calendar's last good contents, by name, with the path it was
    /// read from: a calendar that breaks keeps these until it is fixed.
    var calendars: [String: (path: String, calendar: EventCalendar)] = [:]
    /// Each calendar's warnings as last logged, so a reload for another
    /// reason does not log them again.
    var loggedWarnings: [String: [CalendarWarning]] = [:]
    /// Told about the folders of calendars, so their changes are heard.
    var fileWatch: FileWatch?
    /// The folders rule files live in, for telling rule changes apart.
    var ruleDirectories: [String] = []
    /// Arrive and leave: the places' geofences and where fixes left them.
    var places: PlaceRuntime?
    /// Trackers taken since they were last stored (their last fix moves
    /// with every fix; that is stored at each pass, not at each fix).
    var placesDirty = false
    /// Meters for fixes without accuracy (the settings' default_accuracy).
    let defaultAccuracy: Double
    /// The desk's last states and the idle period under way, with the
    /// idle lengths the rules wait for.
    var desk = DeskRuntime()

    /// `clocks` are the system's; tests pass a manual one.
    public init(runner: Runner, ruleFiles: [String], systemd: SystemdNotifier,
                clocks: Clocks = .system, defaultAccuracy: Double = 25) {
        self.runner = runner
        self.ruleFiles = ruleFiles
        self.systemd = systemd
        self.clocks = clocks
        alarm = Alarm(clock: clocks.sleep)
        self.defaultAccuracy = defaultAccuracy
        automation = Automation(RuleSet())
    }

    var logger: Logger { runner.logger }

    /// The wall time.
    func clock() -> Instant { clocks.wall.now }

    /// Reads the rule files again, and the calendars they name. A rule
    /// with an error is logged with its position and left out; the others
    /// run. Returns the number of rules in force.
    @discardableResult
    public func reload() -> Int {
        let read = RuleFiles.read(RuleFiles.paths(explicit: ruleFiles, environment: runner.environment))
        let loaded = Automation.load(read.files)
        for error in read.errors { logger.error("\(error)") }
        for error in loaded.errors { logger.error("\(error.description); the rule is disabled") }
        ruleSet = loaded.automation.ruleSet
        let names = Set(ruleSet.calendars.map(\.name))
        calendars = calendars.filter { names.contains($0.key) }
        loggedWarnings = loggedWarnings.filter { names.contains($0.key) }
        for source in ruleSet.calendars { readCalendar(source) }
        rebuild()
        if !ruleSet.calendars.isEmpty { Footprint.settleAfterReading() }
        let count = automation.ruleSet.rules.filter(\.enabled).count
        let defined = ruleSet.calendars.count
        let read_ = defined == 0 ? "" : " and \(calendars.count) of \(defined) calendar\(defined == 1 ? "" : "s")"
        logger.info("loaded \(count) rule\(count == 1 ? "" : "s") from \(read.files.count) file\(read.files.count == 1 ? "" : "s")\(read_)")
        return count
    }

    /// Reads one calendar. On success it replaces the last good contents;
    /// on failure the error is logged once, and the last good contents (if
    /// the path is the same) stay in force. Read again, only the events
    /// whose text changed are parsed.
    ///
    /// Its warnings are logged once per change of its files (`changed`),
    /// and on other reads only when they differ from those last logged.
    private func readCalendar(_ source: CalendarReference, changed: Bool = false) {
        let path = XDGDirectories.expandingHome(source.path, environment: runner.environment)
        fileWatch?.watch(Self.watchedFolder(path))
        do {
            let previous = calendars[source.name].flatMap { $0.path == path ? $0.calendar : nil }
            let calendar = try EventCalendar.load(name: source.name, path: path, zone: runner.zone,
                                                  remember: true, rereading: previous)
            calendars[source.name] = (path, calendar)
            if changed || loggedWarnings[source.name] ?? [] != calendar.warnings {
                for line in CalendarWarning.shown(calendar.warnings, first: CalendarFiles.shownWarnings) {
                    logger.warning("calendar \"\(source.name)\": \(line)")
                }
            }
            loggedWarnings[source.name] = calendar.warnings
        } catch {
            let kept = calendars[source.name]?.path == path
            if !kept { calendars[source.name] = nil }
            let effect = kept ? "its last good contents stay in force" : "its triggers are off until it is fixed"
            logger.error("calendar \"\(source.name)\": \(error); \(effect)")
        }
    }

    private func rebuild() {
        automation = Automation(ruleSet, calendars: calendars.mapValues(\.calendar))
        desk.idle = desk.idle.with(IdleRuntime(automation))
        savePlaces()
        do {
            places = PlaceRuntime(automation, stored: try runner.store.placeTrackers(), defaultAccuracy: defaultAccuracy)
        } catch {
            logger.error("place states: \(error)")
            places = PlaceRuntime(automation, stored: [], defaultAccuracy: defaultAccuracy)
        }
    }

    /// Stores the place trackers, with the last fix each took.
    func savePlaces() {
        guard placesDirty, let places else { return }
        do {
            try runner.store.savePlaceTrackers(places.trackersToStore)
            placesDirty = false
        } catch {
            logger.error("place states not stored: \(error)")
        }
    }

    /// A fix or an OwnTracks transition from stdin: through the geofences,
    /// and the rules its transitions fire.
    public func handle(_ item: FeedItem) {
        guard var runtime = places, let outcome = runtime.take(item) else { return }
        places = runtime
        if let ignored = outcome.ignored {
            logger.debug("fix ignored: \(ignored.rawValue)")
            return
        }
        placesDirty = true
        for event in outcome.events {
            do {
                _ = try runner.handle(event, automation: automation, now: max(clock(), event.time), inside: runtime.inside)
            } catch {
                logger.error("\(event.kindName) \(event.time): \(error)")
            }
        }
        // Stored after the firings: killed in between, the daemon takes the
        // fix again and the ledger turns the repeated firing away; the
        // other way round, the transition would be stored and never fired.
        if !outcome.changed.isEmpty {
            do { try runner.store.savePlaceTrackers(outcome.changed) } catch { logger.error("place states not stored: \(error)") }
        }
    }

    /// A calendar file's folder (editors replace files by renaming), or a
    /// vdir folder itself.
    static func watchedFolder(_ path: String) -> String {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return path }
        return path.folder
    }

    /// Something changed at `path`: a rule file (reload everything), a
    /// calendar file or a file in a vdir folder (read that calendar again
    /// and re-arm), or neither.
    public func changed(_ path: String) {
        if ruleDirectories.contains(path.folder) && RuleFiles.matters(path.fileName) {
            reloadAndAnnounce(reason: "\(path) changed")
            return
        }
        let touched = ruleSet.calendars.filter { source in
            let calendar = XDGDirectories.expandingHome(source.path, environment: runner.environment)
            let trimmed = calendar.count > 1 && calendar.hasSuffix("/") ? String(calendar.dropLast()) : calendar
            return path == trimmed || (path.folder == trimmed && path.fileName.lowercased().hasSuffix(".ics") && !path.fileName.hasPrefix("."))
        }
        guard !touched.isEmpty else { return }
        for source in touched {
            logger.info("calendar \"\(source.name)\": \(path) changed; reading it again")
            readCalendar(source, changed: true)
        }
        rebuild()
        let next = automation.nextElapse(after: clock(), zone: runner.zone, state: runner.state)
        alarm.ring()
        systemd.status(status(next: next))
        let upcoming = next.map { "; next firing \(runner.zone.iso8601($0))" } ?? ""
        logger.info("deadlines re-armed\(upcoming)")
        Footprint.settleAfterReading()
    }

    /// Where changes come from: calendars' folders are added to `watch` as
    /// they are read.
    func watching(_ watch: FileWatch, ruleDirectories: [String]) {
        fileWatch = watch
        self.ruleDirectories = ruleDirectories.map { $0.count > 1 && $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    /// The first start: the rules, and focus changes already in the store
    /// counted as seen.
    /// The rules loaded and their next `count` timed firings, for the web
    /// page's "why".
    public func outlook(count: Int) -> RulesOutlook {
        automation.outlook(after: clock(), count: count, zone: runner.zone, state: runner.state)
    }

    public func start() throws {
        reload()
        focusSeen = try runner.store.focus().sequence
    }

    /// One pass: every schedule occurrence due since the watermark, and
    /// focus changes other processes recorded. Returns when the next
    /// schedule elapse is due, if any.
    public func pass() -> Instant? {
        noticeClockJumps()
        let now = clock()
        do {
            if let from = watermark {
                let report = try runner.evaluate(automation, after: from, now: now)
                if !report.reports.isEmpty || !report.skipped.isEmpty || !report.quiet.isEmpty {
                    try runner.store.advanceWatermark(Runner.timedWatermark, to: now)
                }
            } else {
                let report = try runner.tick(automation, now: now)
                if report.from == nil { logger.info("first run: schedules fire from \(runner.zone.iso8601(now)) on") }
            }
            watermark = max(watermark ?? now, now)
            focusSeen = try runner.catchUpFocus(after: focusSeen, automation: automation, now: now)
            try runner.catchUpIntents(automation, now: now)
            savePlaces()
        } catch {
            logger.error("schedule pass failed: \(error)")
        }
        fire(desk.due(now: now))
        let next = automation.nextElapse(after: now, zone: runner.zone, state: runner.state)
        guard let idle = desk.nextDeadline else { return next }
        return min(next ?? idle, idle)
    }

    /// A change at the desk (from D-Bus, udev or an event line) at `time`:
    /// the rules its edges fire. An idle period arms its next length as a
    /// deadline, and the schedule loop is woken when that is sooner than
    /// what it sleeps until.
    /// A change that stands in its source's numbered history (a cube's
    /// interval) moves the store's cursor once every rule it fires is
    /// committed, so the next connection reads the history after it.
    public func handle(_ event: DeskEvent, at time: Instant) {
        let before = desk.nextDeadline
        let fired = fire(desk.take(event, at: time))
        if let deadline = desk.nextDeadline, deadline < before ?? .init(seconds: .max) { alarm.ring() }
        guard fired, let cursor = (event.report as? any DeskEdge)?.cursor else { return }
        do {
            try runner.store.takeDeskCursor(cursor)
        } catch {
            logger.error("\(cursor.subject): the cursor at \(cursor.number) was not stored: \(error)")
        }
    }

    /// How soon (milliseconds) an idle watch that polls rather than
    /// reports since when must tell of idleness: the shortest idle length
    /// the rules name, and at most a minute (rules added by a reload with
    /// a shorter one see idleness reported up to that much late, and fire
    /// at once then, at since + length).
    public var idleWatchInterval: Int {
        let seconds = min(60, max(1, desk.idle.shortestThreshold ?? 60))
        return Int(seconds) * 1000
    }

    /// Runs desk events through the rules; an error is logged, and the
    /// other events still run.
    /// Whether every event's firings were committed.
    @discardableResult
    private func fire(_ events: [TriggerEvent]) -> Bool {
        var committed = true
        for event in events {
            do {
                _ = try runner.handle(event, automation: automation, now: max(clock(), event.time))
            } catch {
                logger.error("\(event.summary): \(error)")
                committed = false
            }
        }
        return committed
    }

    /// The one-line state `systemctl status` shows.
    func status(next: Instant?) -> String {
        let count = automation.ruleSet.rules.filter(\.enabled).count
        let rules = "\(count) rule\(count == 1 ? "" : "s")"
        return next.map { "\(rules); next firing \(runner.zone.iso8601($0))" } ?? "\(rules); no schedule firing ahead"
    }

    /// Tells systemd the daemon is ready (after the first pass), or what it
    /// waits for next.
    public func announce(next: Instant?, ready: Bool) {
        if ready {
            systemd.ready(status: status(next: next))
        } else {
            systemd.status(status(next: next))
        }
    }

    /// Reloads on request (SIGHUP, a changed rule file), telling systemd.
    public func reloadAndAnnounce(reason: String) {
        logger.info("reloading rules: \(reason)")
        systemd.reloading()
        reload()
        systemd.ready(status: status(next: automation.nextElapse(after: clock(), zone: runner.zone, state: runner.state)))
        alarm.ring()
    }

    /// Takes what a line of stdin or an HTTP request gave, in order; a
    /// focus change it makes carries `source`.
    public func take(_ inputs: [EventInput], source: ChangeSource = .stdin) {
        for input in inputs {
            switch input {
            case .event(let event): handle(event, source: source)
            case .place(let item): handle(item)
            }
        }
    }

    /// Handles one event line; a focus change it makes carries `source`.
    public func handle(_ line: EventLine, source: ChangeSource = .stdin) {
        switch line {
        case .focus(let mode, let state, let time):
            let at = time ?? clock()
            // A line with its own time is keyed by it, so a replay is a no-op.
            let key = time.map { FocusLineKey(time: $0, state: state, mode: mode) }
            do {
                switch try runner.focus(mode, state, automation: automation, at: at, source: source, key: key) {
                case .changed(let change, _):
                    focusSeen = max(focusSeen, change.sequence)
                case .unchanged:
                    break
                case .notOn(let current):
                    logger.info("focus \(mode) off: \(current.map { "focus \($0) is on" } ?? "no focus is on"); nothing to do")
                }
            } catch {
                logger.error("focus \(mode) \(state.rawValue): \(error)")
            }
        case .desk(let event, let time):
            handle(event, at: time ?? clock())
        }
    }

    /// Logs, between two passes, a wall clock that was set (it moved unlike
    /// the time since boot) and a resume from suspend (time since boot
    /// moved unlike the time awake). Deadlines are worked out afresh on
    /// every pass, and late occurrences follow each rule's catch-up policy,
    /// so nothing else needs doing.
    private func noticeClockJumps() {
        let now = clocks.wall.read()
        defer { lastPass = now }
        guard let last = lastPass else { return }
        let jumped = (now.wall - last.wall) - (now.boot - last.boot)
        if abs(jumped) > 2_000_000_000 {
            logger.notice("the wall clock was set \(jumped / 1_000_000_000) s; deadlines re-armed")
        }
        let slept = (now.boot - last.boot) - (now.awake - last.awake)
        if slept > 2_000_000_000 {
            logger.notice("resumed after \(slept / 1_000_000_000) s of suspend; deadlines re-armed")
        }
    }

    /// For the firing log's latency, which is measured, not simulated.
    static func nanoseconds(_ clock: clockid_t) -> Int64 {
        SystemWallClock.nanoseconds(clock)
    }
}
