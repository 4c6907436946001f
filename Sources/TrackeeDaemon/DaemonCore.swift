import Glibc
import Logging
import TrackeeCore
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
    let clock: @Sendable () -> Instant
    var automation: Automation
    /// Rung by a reload, so the schedule loop arms the new deadlines.
    let alarm = Alarm()
    var focusSeen: Int64 = 0
    /// How far schedules have been evaluated, kept in memory between
    /// passes; the store's copy is written only when a window held an
    /// occurrence, so an idle daemon does not write every minute.
    var watermark: Instant?
    var lastPass: (wall: Int64, boot: Int64, awake: Int64)?

    /// `clock` gives the wall time; tests pass a manual one.
    public init(runner: Runner, ruleFiles: [String], systemd: SystemdNotifier,
                clock: @escaping @Sendable () -> Instant = SystemClock.now) {
        self.runner = runner
        self.ruleFiles = ruleFiles
        self.systemd = systemd
        self.clock = clock
        automation = Automation(RuleSet())
    }

    var logger: Logger { runner.logger }

    /// Reads the rule files again. A rule with an error is logged with its
    /// position and left out; the others run. Returns the number of rules
    /// in force.
    @discardableResult
    public func reload() -> Int {
        let read = RuleFiles.read(RuleFiles.paths(explicit: ruleFiles, environment: runner.environment))
        let loaded = Automation.load(read.files)
        for error in read.errors { logger.error("\(error)") }
        for error in loaded.errors { logger.error("\(error.description); the rule is disabled") }
        automation = loaded.automation
        let count = automation.ruleSet.rules.filter(\.enabled).count
        logger.info("loaded \(count) rule\(count == 1 ? "" : "s") from \(read.files.count) file\(read.files.count == 1 ? "" : "s")")
        return count
    }

    /// The first start: the rules, and focus changes already in the store
    /// counted as seen.
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
                    try runner.store.advanceWatermark(Runner.scheduleWatermark, to: now)
                }
            } else {
                let report = try runner.tick(automation, now: now)
                if report.from == nil { logger.info("first run: schedules fire from \(runner.zone.iso8601(now)) on") }
            }
            watermark = max(watermark ?? now, now)
            focusSeen = try runner.catchUpFocus(after: focusSeen, automation: automation, now: now)
        } catch {
            logger.error("schedule pass failed: \(error)")
        }
        return automation.nextElapse(after: now, zone: runner.zone)
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
        systemd.ready(status: status(next: automation.nextElapse(after: clock(), zone: runner.zone)))
        alarm.ring()
    }

    /// Handles one event line.
    public func handle(_ line: EventLine) {
        switch line {
        case .focus(let mode, let state, let time):
            let at = time ?? clock()
            // A line with its own time is keyed by it, so a replay is a no-op.
            let key = time.map { "stdin:\($0.seconds):\(state.rawValue):\(mode.lowercased())" }
            do {
                let target: String?
                switch state {
                case .on:
                    target = mode
                case .off:
                    let current = try runner.store.focus().mode
                    guard current?.lowercased() == mode.lowercased() else {
                        logger.info("focus \(mode) off: \(current.map { "focus \($0) is on" } ?? "no focus is on"); nothing to do")
                        return
                    }
                    target = nil
                }
                let (change, _) = try runner.setFocus(target, automation: automation, at: at, source: "stdin", key: key)
                if let change { focusSeen = max(focusSeen, change.sequence) }
            } catch {
                logger.error("focus \(mode) \(state.rawValue): \(error)")
            }
        }
    }

    /// Logs, between two passes, a wall clock that was set (it moved unlike
    /// the time since boot) and a resume from suspend (time since boot
    /// moved unlike the time awake). Deadlines are worked out afresh on
    /// every pass, and late occurrences follow each rule's catch-up policy,
    /// so nothing else needs doing.
    private func noticeClockJumps() {
        let now = (wall: Self.nanoseconds(CLOCK_REALTIME), boot: Self.nanoseconds(CLOCK_BOOTTIME),
                   awake: Self.nanoseconds(CLOCK_MONOTONIC))
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

    static func nanoseconds(_ clock: clockid_t) -> Int64 {
        var t = timespec()
        clock_gettime(clock, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
    }
}
