import ArgumentParser
import Foundation
import TrackeeAutomation
import TrackeeCore
import TrackeeLocation
import TrackeeRules
import TrackeeStore

extension Trackee {
    struct Simulate: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "simulate",
            abstract: "Dry-run the rules over a window of simulated time on a throwaway store.",
            discussion: """
                Plays every schedule occurrence and calendar edge from --from to --to, the timed events of \
                --events (JSON lines like trackee run reads, each with a "time"), and the arrive and \
                leave transitions of the track in --feed, in time order, \
                as if each were noticed on time. Prints every firing with its intents and what \
                notify and run actions would do (nothing is shown or run), then the resulting \
                timesheet; with --json, all of it as one object. The real store is never opened.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Option(parsing: .unconditional, help: "Start of the simulated window; see TIME FORMATS.")
        var from: String

        @Option(parsing: .unconditional, help: "End of the simulated window.")
        var to: String

        @Option(help: "A JSON-lines file of timed events, e.g. {\"time\":\"2026-11-23 10:00\",\"type\":\"focus\",\"mode\":\"deep\"}.")
        var events: String?

        @Option(help: "A recorded track (any format trackee feed reads) played through the places' geofences.")
        var feed: String?

        @Flag(help: "After each event, print why each rule it reached fired or did not, as `trackee rules why` does.")
        var why = false

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules)
                let start = try session.time(from, option: "--from")
                let end = try session.time(to, option: "--to")
                guard end >= start else { throw CommandFailure(StoreError.endBeforeStart(start: start, end: end)) }
                // Timed occurrences are played as the simulated store makes
                // them (a timer's running_for needs the timer the simulation
                // started), so only the other steps are laid out ahead.
                let timeline = try (readEvents(session, from: start, to: end) + readFeed(session, automation, from: start, to: end))
                    .enumerated()
                    .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
                    .map(\.element)

                let scratch = try Scratch()
                defer { scratch.remove() }
                let store = try Store(path: scratch.path + "/simulation.sqlite3")
                let runner = session.runner(store, performSideEffects: false)
                let count = automation.ruleSet.rules.filter(\.enabled).count
                var events = timeline.count { if case .places = $0 { false } else { true } }
                var firings: [FiringView] = []
                var lines: [String] = []
                var traces: [TraceView] = []
                var lastTrace: Int64 = 0
                /// Whether the step applied an intent, which may change
                /// what timed sources see.
                @discardableResult
                func play(_ step: Step) throws -> Bool {
                    let reports: [Runner.Report]
                    switch step {
                    case .trigger(let event):
                        reports = try runner.handle(event, automation: automation, now: event.time)
                    case .focus(let mode, let state, let at):
                        guard case .changed(_, let fired) = try runner.focus(
                            mode, state, automation: automation, at: at, source: .simulate)
                        else { return false }
                        reports = fired
                    case .places(let trackers, _):
                        try store.savePlaceTrackers(trackers)
                        return false
                    }
                    if session.out.json {
                        firings += reports.map { FiringView(simulated: $0, session: session) }
                    } else {
                        for report in reports { lines += session.dryRunLines(report) }
                    }
                    if why {
                        let (new, last) = try store.traces(after: lastTrace)
                        lastTrace = last
                        let views = new.map { TraceView($0, zone: session.zone) }
                        if session.out.json {
                            traces += views
                        } else {
                            // Under the firings of the same event, each trace's
                            // header marked and its steps indented below it.
                            for view in views {
                                for (index, line) in view.lines.enumerated() { lines.append((index == 0 ? "  why: " : "    ") + line) }
                            }
                        }
                    }
                    return reports.contains { if case .fired(let results) = $0.status { !results.isEmpty } else { false } }
                }
                // Before each step, and at the end, the timed occurrences due
                // by then, in time order; when an instant's firings changed
                // the store, the rest is looked at again from there.
                var played = start - 1
                for step in timeline.map(Optional.some) + [nil] {
                    let through = step?.time ?? end
                    look: while played < through {
                        let due = automation.occurrences(after: played, through: through, zone: session.zone,
                                                         state: runner.state)
                        var index = 0
                        while index < due.count {
                            let instant = due[index].time
                            var changed = false
                            while index < due.count && due[index].time == instant {
                                changed = try play(.trigger(due[index])) || changed
                                events += 1
                                index += 1
                            }
                            played = instant
                            if changed { continue look }
                        }
                        played = through
                    }
                    if let step { try play(step) }
                }
                if !session.out.json {
                    session.out.line("simulating \(session.zone.iso8601(start)) – \(session.zone.iso8601(end)), "
                                     + "\(count) rule\(count == 1 ? "" : "s"), \(events) event\(events == 1 ? "" : "s")")
                    for line in lines { session.out.line(line) }
                }
                if session.out.json {
                    try emitSimulation(store, from: start, to: end, rules: count, events: events, firings: firings,
                                       traces: why ? traces : nil, session)
                } else {
                    try printTimesheet(store, from: start, to: end, session)
                }
            }
        }

        /// Something that happens in the simulated window.
        enum Step {
            case trigger(TriggerEvent)
            case focus(mode: String, state: FocusState, at: Instant)
            /// Place states a fix of `--feed` changed, for `place:` conditions.
            case places([PlaceTracker], at: Instant)

            var time: Instant {
                switch self {
                case .trigger(let event): event.time
                case .focus(_, _, let at): at
                case .places(_, let at): at
                }
            }
        }

        /// The arrive and leave transitions of `--feed`, through fresh
        /// geofences (every place unknown at the start).
        private func readFeed(_ session: Session, _ automation: Automation, from: Instant, to: Instant) throws -> [Step] {
            guard let path = feed else { return [] }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CommandFailure.noInput("--feed: cannot read \(path)") }
            defer { close(fd) }
            var source = PlaceSource(automation, stored: [], defaultAccuracy: session.settings.defaultAccuracy)
            var steps: [Step] = []
            // A simulated window may lie ahead: fixes count as from the
            // future only beyond a day after it, not after now.
            let recorded = max(session.now, to)
            _ = try FeedInput.read(fd: fd, format: .auto, now: recorded, clock: { recorded }) { items, _ in
                for item in items {
                    guard let outcome = source.take(item) else { continue }
                    if case .fix(let fix) = item, !outcome.changed.isEmpty { steps.append(.places(outcome.changed, at: fix.time.instant)) }
                    // A transition is an event when a rule waits for it; the
                    // place's other dwells only keep its state.
                    steps += outcome.events.filter {
                        $0.time >= from && $0.time <= to && automation.engine.considers($0, zone: session.zone)
                    }.map(Step.trigger)
                }
            }
            return steps
        }

        private func readEvents(_ session: Session, from: Instant, to: Instant) throws -> [Step] {
            guard let path = events else { return [] }
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw CommandFailure.noInput("--events: cannot read \(path)")
            }
            var steps: [Step] = []
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let event: EventLine?
                do {
                    event = try EventLine.parse(line, line: index + 1, now: session.now, zone: session.zone)
                } catch {
                    throw CommandFailure.usage("\(path): line \(error.line): \(error.message)")
                }
                guard case .focus(let mode, let state, let time)? = event else { continue }
                guard let time else { throw CommandFailure.usage("\(path): line \(index + 1): \"time\" is required in a simulation") }
                if time >= from && time <= to { steps.append(.focus(mode: mode, state: state, at: time)) }
            }
            return steps
        }

        /// An argv element as a person would type it, for display only.
        static func quoted(_ s: String) -> String {
            s.allSatisfy { $0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0) } && !s.isEmpty
                ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }

        /// The whole simulation as one JSON object (trackee(1), JSON OUTPUT).
        struct View: Encodable {
            var from: String
            var to: String
            var rules: Int
            var events: Int
            var firings: [FiringView]
            /// With --why only: every trace, oldest first.
            var traces: [TraceView]?
            var entries: [EntryView]
            var totals: [Total]
            var total_seconds: Int64
        }

        /// Time per project in the timesheet.
        struct Total: Encodable {
            var project: String?
            var client: String?
            var seconds: Int64
        }

        private func emitSimulation(_ store: Store, from: Instant, to: Instant, rules: Int, events: Int,
                                    firings: [FiringView], traces: [TraceView]?, _ session: Session) throws {
            let entries = try store.log(limit: 10_000).reversed().map { e in
                var view = EntryView(e, session: session)
                // A timer still running counts up to the end of the window, not to the real now.
                view.duration_seconds = (e.end ?? to) - e.start
                return view
            }
            let summary = try store.summary(in: Timespan(start: from, end: to), now: to, by: .project)
            session.out.emit(View(
                from: session.zone.iso8601(from), to: session.zone.iso8601(to), rules: rules, events: events,
                firings: firings, traces: traces, entries: entries,
                totals: summary.lines.map { Total(project: $0.name, client: $0.client, seconds: $0.seconds) },
                total_seconds: summary.seconds))
        }

        private func printTimesheet(_ store: Store, from: Instant, to: Instant, _ session: Session) throws {
            let entries = try store.log(limit: 10_000).reversed()
            session.out.line("")
            session.out.line(session.out.bold("timesheet"))
            if entries.isEmpty { session.out.line("  no entries") }
            for e in entries {
                let end = e.end.map { session.zone.iso8601($0) } ?? "(running at the end)"
                let seconds = (e.end ?? to) - e.start
                session.out.line("  \(session.zone.iso8601(e.start)) – \(end)  \(session.duration(seconds).leftPadded(6))  \(session.label(e))")
            }
            let summary = try store.summary(in: Timespan(start: from, end: to), now: to, by: .project)
            let total = summary.seconds
            for line in summary.lines {
                let name = (line.name ?? "(no project)") + (line.client.map { " (\($0))" } ?? "")
                session.out.line("  total \(name): \(session.duration(line.seconds))")
            }
            session.out.line("  total: \(session.duration(total))")
        }
    }
}

/// A firing of a simulation, with what its `notify` and `run` actions
/// would have done (a simulation does neither).
extension FiringView {
    init(simulated report: Runner.Report, session: Session) {
        self.init(report, session: session)
        var notify: [String] = []
        var run: [[String]] = []
        if case .fired = report.status {
            for action in report.firing.actions {
                switch action {
                case .intent: break
                case .notify(let title, let body): notify.append(title + (body.map { ": \($0)" } ?? ""))
                case .run(let argv, _): run.append(argv)
                }
            }
        }
        would_notify = notify.isEmpty ? nil : notify
        would_run = run.isEmpty ? nil : run
    }
}

/// A temporary directory, removed by `remove()`.
struct Scratch {
    let path: String

    init() throws {
        var template = Array((FileManager.default.temporaryDirectory.path + "/trackee-simulate-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw CommandFailure(message: "cannot create a temporary directory for the simulation", status: 1)
        }
        path = String(cString: made)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
