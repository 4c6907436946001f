import ArgumentParser
import Foundation
import TrackeeAutomation
import TrackeeAPI
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
                timesheet; with --json, all of it as one object. The throwaway store starts with \
                the clients and projects of the real store (with their types, billing and rates), \
                and create_projects applies as in trackee run; the real store is only read.
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
                let steps = try readEvents(session, automation, from: start, to: end) + readFeed(session, automation, from: start, to: end)
                let scratch = try Scratch()
                defer { scratch.remove() }
                let store = try Store(path: scratch.path + "/simulation.sqlite3")
                // The user's clients and projects, so that a rule starts
                // the projects it would start in the real store.
                try store.seed(session.catalog())
                let runner = session.runner(store, performSideEffects: false)
                let count = automation.ruleSet.rules.filter(\.enabled).count
                var firings: [FiringView] = []
                var lines: [String] = []
                var traces: [TraceView] = []
                var lastTrace: Int64 = 0
                let simulation = Simulation(automation: automation, runner: runner, from: start, to: end, steps: steps)
                let events = try simulation.play { _, reports in
                    if session.out.json {
                        firings += reports.map { FiringView(simulated: $0, zone: session.zone) }
                    } else {
                        for report in reports { lines += report.dryRunLines(zone: session.zone, style: session.out.style) }
                    }
                    guard why else { return }
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

        /// The arrive and leave transitions of `--feed`, through fresh
        /// geofences (every place unknown at the start).
        private func readFeed(_ session: Session, _ automation: Automation, from: Instant, to: Instant) throws
            -> [Simulation.Step]
        {
            guard let path = feed else { return [] }
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw CommandFailure.noInput("--feed: cannot read \(path)") }
            defer { close(fd) }
            // A simulated window may lie ahead: fixes count as from the
            // future only beyond a day after it, not after now.
            return try Simulation.feedSteps(
                fd: fd, automation: automation, defaultAccuracy: session.settings.defaultAccuracy,
                recorded: max(session.now, to), from: from, to: to, zone: session.zone)
        }

        private func readEvents(_ session: Session, _ automation: Automation, from: Instant, to: Instant) throws -> [Simulation.Step] {
            guard let path = events else { return [] }
            let text: String
            do {
                text = try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw CommandFailure.noInput("--events: cannot read \(path)")
            }
            do {
                return try Simulation.eventSteps(in: text, automation: automation, now: session.now, zone: session.zone,
                                                 from: from, to: to)
            } catch {
                throw CommandFailure.usage("\(path): line \(error.line): \(error.message)")
            }
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
                session.out.line("  total \(line.shownName(by: .project)): \(session.duration(line.seconds))")
            }
            session.out.line("  total: \(session.duration(total))")
        }
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
