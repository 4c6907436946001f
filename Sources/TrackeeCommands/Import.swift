import ArgumentParser
import TrackeeCore
import TrackeeImport
import TrackeeStore

extension ImportFormat: ListedArgument {}
extension ImportOptions.DateOrder: ListedArgument {}

extension Trackee {
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Import history from Timewarrior, Watson, Toggl Track, Clockify or trackee's own exports.",
            discussion: """
                Reads FILE (standard input for - or none) as FORMAT and adds each finished entry once: \
                each carries a key from its source, so importing the same file again, or a later export \
                that overlaps it, adds only what is new. Clients and projects are created as the \
                entries need them, and named. The import is one step that `trackee undo` takes back \
                whole. A row that cannot be read is skipped with a warning naming its line and field; \
                an entry that overlaps one already stored is added and listed. Times without an \
                offset (Toggl Track, Clockify) are read in TZ.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "timewarrior (timew export), watson (frames file or watson log --json), toggl or clockify (detailed report CSV), trackee (export --format csv or json).")
        var format: ImportFormat

        @Argument(help: "The file; - or none for standard input.")
        var file: String = "-"

        @Option(name: .customLong("project-from-tag"),
                help: "timewarrior: first, for the first tag, or a prefix such as project: for the tag that begins with it; that tag names the project.")
        var projectFromTag: String?

        @Option(name: .customLong("date-format"),
                help: "toggl, clockify: the order of the dates' day, month and year (default: worked out from the dates).")
        var dateFormat: ImportOptions.DateOrder?

        @Flag(name: .customLong("dry-run"), help: "Say what would be imported and created, and change nothing.")
        var dryRun = false

        func validate() throws {
            if let projectFromTag {
                guard format == .timewarrior else {
                    throw ValidationError("--project-from-tag goes with timewarrior only; \(format.rawValue) has projects of its own.")
                }
                guard !projectFromTag.trimmingWhitespace().isEmpty else {
                    throw ValidationError("--project-from-tag must be first or a tag prefix such as project:, not empty.")
                }
            }
            if dateFormat != nil, format != .toggl, format != .clockify {
                throw ValidationError("--date-format goes with toggl and clockify only.")
            }
        }

        func run() throws {
            try Session.run(common) { session in
                let text = try InputFile.read(file)
                let name = file == "-" ? "standard input" : file
                let tag: ImportOptions.ProjectTag? = projectFromTag.map { $0 == "first" ? .first : .prefix($0) }
                let options = ImportOptions(projectFromTag: tag, dateOrder: dateFormat, zone: session.zone)
                let parse: ImportParse
                do {
                    parse = try format.parse(text, file: name, options: options)
                } catch {
                    throw CommandFailure(message: "\(error); nothing imported", status: 65)
                }
                for warning in parse.warnings { writeAll(2, "trackee: warning: \(warning)\n") }
                let report = try session.openStore().importRows(
                    parse.rows, format: format.rawValue, dryRun: dryRun, now: session.now)
                ImportSummary(report: report, skipped: parse.warnings.count, dryRun: dryRun).print(session)
            }
        }
    }
}

/// What `trackee import` says it did.
struct ImportSummary {
    let report: ImportReport
    let skipped: Int
    let dryRun: Bool

    struct View: Encodable {
        struct Overlap: Encodable {
            var line: Int
            var id: Int64
            var overlaps: Int64
        }

        var dry_run: Bool
        var imported: Int
        var already_imported: Int
        var skipped: Int
        var created: [String]
        var overlapping: [Overlap]
        var step: Int64?
    }

    func print(_ session: Session) {
        if session.out.json {
            session.out.emit(View(
                dry_run: dryRun, imported: report.added.count, already_imported: report.known, skipped: skipped,
                created: report.created,
                overlapping: report.overlapping.map { View.Overlap(line: $0.line, id: $0.id, overlaps: $0.overlaps) },
                step: dryRun ? nil : report.step))
            return
        }
        for line in lines { session.out.line(line) }
    }

    /// `imported 3 entries (2 already imported, 1 skipped)`, then what was
    /// created and what overlaps.
    var lines: [String] {
        var notes: [String] = []
        if report.known > 0 { notes.append("\(report.known) already imported") }
        if skipped > 0 { notes.append("\(skipped) skipped") }
        var lines = [
            (dryRun ? "would import " : "imported ") + counted(report.added.count, "entry", "entries")
                + (notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"),
        ]
        if !report.created.isEmpty {
            lines.append((dryRun ? "would create " : "created ") + report.created.joined(separator: ", "))
        }
        if !report.overlapping.isEmpty {
            lines.append("overlapping: " + report.overlapping.map { "line \($0.line) (#\($0.id) overlaps #\($0.overlaps))" }
                .joined(separator: ", "))
        }
        if dryRun { lines.append("dry run: nothing changed") }
        return lines
    }
}
