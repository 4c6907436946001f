import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension ExportFormat: ListedArgument {}
extension ClockifyDateFormat: ListedArgument {}
extension ClockifyTimeFormat: ListedArgument {}
extension ClockifyDurationFormat: ListedArgument {}

extension Trackee {
    struct Export: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "export",
            abstract: "Export finished entries as CSV for Clockify or Toggl Track, trackee CSV, or JSON.",
            discussion: """
                Entries whose start lies in [--from, --to) are written in start order. \
                Clockify reads dates and times by the importing workspace's settings, \
                so match --date-format and --time-format to them. \
                --json is refused (status 64): for JSON, use --format json.
                """)

        @OptionGroup var common: CommonOptions

        @Option(help: "Another person's timeline, which they share through the hub (see trackee hub grant).")
        var person: String?

        @Option(help: "The file format.")
        var format: ExportFormat

        @Option(parsing: .unconditional, help: "Only entries starting at or after this time.")
        var from: String?

        @Option(parsing: .unconditional, help: "Only entries starting before this time.")
        var to: String?

        @Option(name: [.short, .customLong("output")], help: "Write to this file (replaced atomically) instead of stdout.")
        var output: String?

        @Option(help: "The Email column for clockify and toggl (default from config.yaml).")
        var email: String?

        @Option(name: .customLong("date-format"), help: "Clockify's Start Date format.")
        var dateFormat: ClockifyDateFormat?

        @Option(name: .customLong("time-format"), help: "Clockify's Start Time format.")
        var timeFormat: ClockifyTimeFormat?

        @Option(name: .customLong("duration-format"), help: "Clockify's Duration (h) format.")
        var durationFormat: ClockifyDurationFormat?

        func validate() throws {
            if common.json { throw ValidationError("export writes the --format you choose; for JSON use --format json.") }
        }

        func run() throws {
            try Session.run(common) { session in
                let from = try self.from.map { try session.time($0, option: "--from") }
                let to = try self.to.map { try session.time($0, option: "--to") }
                if let from, let to, to < from {
                    throw CommandFailure(StoreError.endBeforeStart(start: from, end: to))
                }
                var options = session.settings.export
                if let email { options.email = email }
                if let dateFormat { options.dateFormat = dateFormat }
                if let timeFormat { options.timeFormat = timeFormat }
                if let durationFormat { options.durationFormat = durationFormat }
                let store = try session.openStore(person: person)
                let sink: ExportFile
                do throws(Refusal) { sink = try ExportFile(path: output) } catch { throw CommandFailure.refused(error.message) }
                do {
                    try write(store: store, from: from, to: to, options: options, zone: session.zone, sink: sink)
                    try sink.finish()
                } catch {
                    sink.abandon()
                    throw (error as? Refusal).map { CommandFailure.refused($0.message) } ?? error
                }
            }
        }

        private func write(store: Store, from: Instant?, to: Instant?, options: ExportOptions, zone: Zone, sink: ExportFile) throws {
            try store.export(Exporter(format: format, options: options), from: from, to: to, zone: zone) {
                try sink.write($0)
            }
        }
    }
}
