import ArgumentParser
import Foundation
import TrackeeAutomation
import TrackeeCore
import TrackeeLocation
import TrackeeStore

extension FeedFormat: ListedArgument {}

extension Trackee {
    struct Feed: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "feed",
            abstract: "Read GPS fixes and fire arrive and leave rules as they come.",
            discussion: """
                Reads fixes from the files, or from standard input when none is given (so \
                gpspipe -w | trackee feed acts live): NMEA 0183, gpsd JSON, OwnTracks JSON (also as \
                mosquitto_sub -v prints it), GPX 1.1 or CSV (time,lat,lon[,accuracy]). Each fix goes \
                through the geofences of the places in the rule files; an arrive or leave fires the \
                rules that wait for it, at the time of the fix that began it. Lines that are not \
                fixes are counted, the first few shown with their line number. Ends with a count of \
                lines read, fixes used, fixes ignored and why, and rules fired.
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Option(help: "The input format; auto tells lines apart by their first byte and keys (GPX by file).")
        var format: FeedFormat = .auto

        @Flag(help: "Print each transition and what its rules would do, on a throwaway store; change nothing.")
        var dryRun = false

        @Flag(help: "Exit with status 65 when any line was rejected (not a fix, malformed, impossible).")
        var strict = false

        @Argument(help: "Files to read, in order (default: standard input).")
        var files: [String] = []

        func run() throws {
            try Session.run(common) { session in
                let automation = try session.strictRules(rules, calendars: false)
                // Every file is opened first: one that cannot be read stops
                // the feed before the store is touched.
                var inputs: [(fd: Int32, name: String)] = []
                defer { for input in inputs { Glibc.close(input.fd) } }
                for file in files { inputs.append((try InputFile.open(file), file)) }
                let (store, scratch) = try Self.store(session, dryRun: dryRun)
                defer { scratch?.remove() }
                var run = try FeedRun(automation: automation, store: store,
                                      runner: session.runner(store, performSideEffects: !dryRun, batchTraces: true),
                                      zone: session.zone, now: session.now,
                                      defaultAccuracy: session.settings.defaultAccuracy, dryRun: dryRun,
                                      observer: Self.printer(session, dryRun: dryRun))
                if files.isEmpty {
                    try run.read(fd: 0, name: "stdin", format: format, clock: session.currentTime)
                } else {
                    for input in inputs { try run.read(fd: input.fd, name: input.name, format: format, clock: session.currentTime) }
                }
                try run.finish()
                Self.printCounts(run, session: session)
                if strict && run.counts.rejected > 0 {
                    throw CommandFailure(message: "\(run.counts.rejected) rejected line\(run.counts.rejected == 1 ? "" : "s") (--strict)", status: 65)
                }
            }
        }

        /// Warnings past these many are only counted.
        static let shownWarnings = 5

        /// The store the feed fires into: the real one, or for a dry run a
        /// copy of it, if there is one, so transitions and rules are judged
        /// as the real run would judge them (place states, the timer, the
        /// firing ledger, focus); nothing is written to the real one.
        private static func store(_ session: Session, dryRun: Bool) throws -> (Store, Scratch?) {
            guard dryRun else { return (try session.openStore(), nil) }
            let scratch = try Scratch()
            let path = scratch.path + "/feed.sqlite3"
            do {
                try session.existingStore()?.copy(to: path)
                return (try Store(path: path), scratch)
            } catch {
                scratch.remove()
                throw error
            }
        }

        /// Prints each transition and firing as it comes (not with
        /// `--json`), and the first few warnings.
        private static func printer(_ session: Session, dryRun: Bool) -> FeedRun.Observer {
            FeedRun.Observer(
                transition: { p in
                    guard !session.out.json else { return }
                    let accuracy = p.fix.accuracy.map { ", accuracy \(Int($0.rounded())) m" } ?? ""
                    // The fix's own time, to the millisecond; the rules fire at its whole second.
                    session.out.line("\(session.zone.iso8601(p.fix.time))  \(p.transition.rawValue) \(p.place)"
                                     + (p.geofence == .owntracks ? " (OwnTracks)" : "") + accuracy)
                },
                report: { report in
                    guard !session.out.json else { return }
                    if dryRun {
                        for line in report.dryRunLines(zone: session.zone, style: session.out.style) { session.out.line(line) }
                    } else {
                        session.out.line(report.line(zone: session.zone))
                    }
                },
                warning: { text, number in
                    if number <= shownWarnings { writeAll(2, "trackee: \(text)\n") }
                })
        }

        /// The closing line: the counts, and how many warnings were not shown.
        private static func printCounts(_ run: FeedRun, session: Session) {
            let counts = run.counts
            if run.warnings > shownWarnings {
                writeAll(2, "trackee: … and \(run.warnings - shownWarnings) more ignored line\(run.warnings - shownWarnings == 1 ? "" : "s")\n")
            }
            if session.out.json {
                session.out.emit(counts)
                return
            }
            let reasons = counts.ignored.sorted { $0.key < $1.key }.map { "\($0.key.replacingOccurrences(of: "_", with: " ")) \($0.value)" }
            let ignored = counts.ignored.values.reduce(0, +)
            session.out.line("read \(counts.lines) line\(counts.lines == 1 ? "" : "s"), \(counts.used) fix\(counts.used == 1 ? "" : "es") used, "
                             + "\(ignored) ignored" + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))")
                             + ", \(counts.transitions) transition\(counts.transitions == 1 ? "" : "s"), "
                             + "\(counts.fired) rule\(counts.fired == 1 ? "" : "s") fired" + (run.dryRun ? " (dry run)" : ""))
        }
    }
}
