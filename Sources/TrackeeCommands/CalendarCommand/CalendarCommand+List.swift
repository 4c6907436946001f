import ArgumentParser
import Glibc
import TrackeeAutomation
import TrackeeCalendar
import TrackeeCore

extension Trackee.CalendarCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Print the occurrences of a calendar that overlap a window, in start order.",
            discussion: """
                CALENDAR is a name from the calendars: section of the rule files, or the path \
                of an .ics file or a vdir folder. Recurring events are expanded: exclusions \
                removed, moved and changed instances in their new place, cancelled ones \
                marked (they never fire a trigger). Times are in the local zone with their \
                offset; an all-day event runs from one local midnight to another. \
                What the calendar's files get wrong is skipped (a line, an event) or read as \
                floating time (an unknown TZID), each with a warning on stderr naming the \
                file and line; --strict makes any warning an error (exit 65).
                """)

        @OptionGroup var common: CommonOptions
        @OptionGroup var rules: RulesOption

        @Argument(help: "A calendar name from the rule files, or an .ics file or vdir folder.")
        var calendar: String

        @OptionGroup var window: RangeOptions

        @Flag(help: "Exit with status 65, listing nothing, when anything in the calendar had to be skipped or read as floating time.")
        var strict = false

        func run() throws {
            try Session.run(common) { session in
                let (start, end) = try window.range(session)
                Self.keepFreedMemory()
                let loaded = try load(session)
                for line in CalendarWarning.shown(loaded.warnings, first: CalendarFiles.shownWarnings) {
                    writeAll(2, "trackee: \(line)\n")
                }
                if strict && !loaded.warnings.isEmpty {
                    let count = loaded.warnings.count
                    throw CommandFailure(message: "\(count) calendar warning\(count == 1 ? "" : "s") (--strict)", status: 65)
                }
                let occurrences = loaded.occurrences(from: start, to: end)
                if session.out.json {
                    OccurrenceJSON.write(occurrences, zone: session.zone, to: 1)
                } else {
                    if occurrences.isEmpty {
                        session.out.line("no events from \(session.zone.iso8601(start)) to \(session.zone.iso8601(end))")
                    }
                    for o in occurrences { session.out.line(Self.text(o, session)) }
                }
                // Everything is written (unbuffered); freeing a busy
                // year's occurrences and the calendar one by one would
                // cost about a tenth of the run, for a process that ends.
                Glibc.exit(0)
            }
        }

        /// A year of a busy calendar allocates and frees tens of
        /// megabytes in large blocks; malloc keeps what is freed for the
        /// next block instead of handing it back and faulting it in
        /// again (about a tenth of a listing's time). The process ends
        /// soon after.
        private static func keepFreedMemory() {
            // M_MMAP_THRESHOLD, M_TRIM_THRESHOLD and M_TOP_PAD from <malloc.h>.
            _ = mallopt(-3, 1 << 30)
            _ = mallopt(-1, 1 << 30)
            _ = mallopt(-2, 64 << 20)
        }

        /// A calendar named in the rules, else a path (``CalendarFiles/named(_:among:zone:environment:)``).
        private func load(_ session: Session) throws -> EventCalendar {
            let defined = session.loadRules(rules.paths, calendars: false).automation.ruleSet.calendars
            do throws(Refusal) {
                return try CalendarFiles.named(calendar, among: defined, zone: session.zone, environment: session.environment)
            } catch {
                throw CommandFailure.config(error.message)
            }
        }

        /// `START  END  SUMMARY (all day) [cancelled]  uid UID  recurrence RID`.
        static func text(_ o: CalendarOccurrence, _ session: Session) -> String {
            let zone = session.zone
            var line = "\(zone.iso8601(o.start))  \(zone.iso8601(o.end))  \(o.summary.isEmpty ? "(no summary)" : o.summary)"
            if o.allDay { line += " (all day)" }
            if o.status != .confirmed { line += " [\(o.status.rawValue)]" }
            line += session.out.dim("  uid \(o.uid)")
            if let id = o.recurrenceID { line += session.out.dim("  recurrence \(zone.iso8601(id.instant(in: zone)))") }
            return line
        }
    }
}

/// glibc's mallopt(3), which Swift's Glibc module leaves out (it lives in
/// <malloc.h>).
@_silgen_name("mallopt")
private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
