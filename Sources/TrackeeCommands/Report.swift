import ArgumentParser
import Foundation
import TrackeeAPI
import TrackeeCore
import TrackeeReport
import TrackeeStore

extension Trackee {
    /// `trackee report [summary|detailed|weekly]`: reads the options, asks
    /// TrackeeReport for the report, and prints or writes it; PDF and XLSX
    /// are `trackee-report`'s, which this process becomes.
    struct ReportCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "A summary, detailed or weekly report, in the terminal or as JSON, CSV, HTML, PDF or XLSX.",
            discussion: """
                The kind is summary (totals by the grouping, with charts), detailed (every \
                entry under its groups) or weekly (a grid of days by the first grouping); \
                the default is summary for the week. Every format is drawn from the same \
                computed report, so their numbers agree to the second; see REPORTS.
                """)

        @OptionGroup var common: CommonOptions

        @Argument(help: "summary, detailed or weekly (default summary).")
        var kind: String?

        @OptionGroup var period: PeriodOptions

        @OptionGroup var filter: FilterOptions

        @Option(help: "Another person's timeline, which they share through the hub (see trackee hub grant).")
        var person: String?

        @Option(name: .customLong("by"), help: "Group by project, client, tag, day, week or description; two levels as client,project.")
        var grouping = "project"

        @Option(help: "Round each entry up to 6m or 15m; the store is not changed.")
        var round: String?

        @Option(help: "terminal, json, csv, html, pdf or xlsx (default from -o's extension, else terminal).")
        var format: String?

        @Option(name: [.short, .customLong("output")], help: "Write to this file, replaced only once complete (- for standard output).")
        var output: String?

        static let formats = ReportOptions.formats

        func validate() throws {
            try period.validate(with: filter)
            _ = try reportKind()
            _ = try levels()
            _ = try roundingMinutes()
            _ = try chosenFormat()
        }

        func reportKind() throws -> Report.Kind {
            do throws(ReportOptions.Failure) { return try ReportOptions.kind(kind) } catch { throw Self.usage(error) }
        }

        /// `--by`: one or two levels, none twice.
        func levels() throws -> [ReportGrouping] {
            do throws(ReportOptions.Failure) {
                return try ReportOptions.levels(grouping, option: "--by")
            } catch {
                throw Self.usage(error)
            }
        }

        func roundingMinutes() throws -> Int? {
            do throws(ReportOptions.Failure) {
                return try ReportOptions.rounding(round, option: "--round")
            } catch {
                throw Self.usage(error)
            }
        }

        /// The sentence as ArgumentParser shows a usage error: capitalised, with its full stop.
        static func usage(_ failure: ReportOptions.Failure) -> ValidationError {
            ValidationError(failure.message.prefix(1).uppercased() + failure.message.dropFirst() + ".")
        }

        /// `--format`, else `-o`'s extension, else JSON with `--json`,
        /// else the terminal.
        func chosenFormat() throws -> String {
            let accepted = Self.formats.joined(separator: ", ")
            if let format {
                guard Self.formats.contains(format) else {
                    throw ValidationError("--format is \"\(format)\"; the formats are \(accepted).")
                }
                if common.json && format != "json" {
                    throw ValidationError("--json asks for JSON; it does not combine with --format \(format).")
                }
                return format
            }
            if let output, output != "-" {
                let ext = (output as NSString).pathExtension.lowercased()
                let byExtension = ["txt": "terminal", "json": "json", "csv": "csv", "html": "html", "htm": "html", "pdf": "pdf",
                                   "xlsx": "xlsx"]
                guard let format = byExtension[ext] else {
                    throw ValidationError("-o \(output): the extension does not name a format; give --format (\(accepted)).")
                }
                if common.json && format != "json" {
                    throw ValidationError("--json asks for JSON; -o \(output) names \(format).")
                }
                return format
            }
            return common.json ? "json" : "terminal"
        }

        func run() throws {
            try Session.run(common) { session in
                let format = try chosenFormat()
                let entries = try filter.filter(session)
                let kind = try reportKind()
                let (span, title, _) = try period.span(session, filter: entries, default: .week)
                let request = ReportRequest(
                    kind: kind, span: span, title: title, zone: session.zone, grouping: try levels(),
                    roundingMinutes: try roundingMinutes(), currency: session.settings.currency,
                    filters: ReportFilters.describe(entries, person: person), now: session.now,
                    weekStart: session.settings.weekStart)
                let store = try session.openStore(person: person)
                let report = try ReportBuilder.build(request, store: store, matching: entries)
                switch format {
                case "pdf", "xlsx": try ReportTool(format: format, output: output).exec(report)
                case "json": try write(String(decoding: try report.json(), as: UTF8.self) + "\n")
                case "csv": try write(ReportCSV.render(report))
                case "html": try write(ReportHTML.render(report))
                default:
                    let toFile = output != nil && output != "-"
                    let style = toFile ? TextStyle(color: false) : session.out.style
                    let width = TerminalWidth.columns(environment: session.environment, terminal: !toFile)
                    try write(ReportText(report, width: width, style: style).lines().map { $0 + "\n" }.joined())
                }
            }
        }

        /// Writes `text` to standard output or to `-o`, beside it first and
        /// renamed into place once complete.
        func write(_ text: String) throws {
            do throws(Refusal) {
                let sink = try ExportFile(path: output)
                do throws(Refusal) {
                    try sink.write(text)
                    try sink.finish()
                } catch {
                    sink.abandon()
                    throw error
                }
            } catch {
                throw CommandFailure.refused(error.message)
            }
        }
    }
}

/// How wide the terminal report may be: `COLUMNS` when it is a number,
/// else the terminal's own width when standard output is one, else 80.
enum TerminalWidth {
    static func columns(environment: [String: String], terminal: Bool) -> Int {
        if let text = environment["COLUMNS"], let columns = Int(text), columns > 0 { return columns }
        var size = winsize()
        if terminal, isatty(1) == 1, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}

/// `trackee report --format pdf|xlsx`: `trackee-report`, which links cairo
/// and libxlsxwriter, gets the report's JSON on its standard input and
/// `--format FORMAT -o PATH`; this process becomes it, so its exit status
/// is the command's.
public struct ReportTool {
    var format: String
    var output: String?

    func exec(_ report: Report) throws -> Never {
        let tool = try Self.toolPath()
        let path = output ?? "-"
        if path != "-" {
            // Refused here, in trackee's words, before anything is drawn:
            // the probe is removed at once and the file left as it was.
            do throws(Refusal) { try ExportFile(path: path).abandon() } catch { throw CommandFailure.refused(error.message) }
        }
        // The JSON goes through an unlinked temporary file, not a pipe: a
        // pipe would hold only 64 KiB until the tool reads it.
        let json = try report.json()
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/trackee-report-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { throw CommandFailure.refused("cannot make a temporary file in \(directory): \(String(cString: strerror(errno)))") }
        unlink(template)
        json.withUnsafeBytes { writeAll(fd, $0.bindMemory(to: UInt8.self)) }
        guard lseek(fd, 0, SEEK_END) == json.count, lseek(fd, 0, SEEK_SET) == 0, dup2(fd, 0) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw CommandFailure.refused("cannot hand the report to trackee-report through \(directory): \(reason)")
        }
        close(fd)
        try SiblingTool.exec([tool, "--format", format, "-o", path])
    }

    /// The report as PDF or XLSX, from `trackee-report` run as a child
    /// (for the HTTP API, whose process goes on): its standard output, or
    /// an error with what it printed on standard error.
    public static func render(_ report: Report, format: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try toolPath())
        process.arguments = ["--format", format, "-o", "-"]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        try process.run()
        let json = try report.json()
        // Written from another thread: the tool may write before it has
        // read everything, and either pipe would fill.
        let writer = Thread { input.fileHandleForWriting.write(json); try? input.fileHandleForWriting.close() }
        writer.start()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure.refused(String(decoding: said, as: UTF8.self).trimmingWhitespace())
        }
        return Array(bytes)
    }

    /// What the HTTP API writes PDF and XLSX reports with; nil when
    /// `trackee-report` is not there to be run.
    public static var writer: ReportFileWriter? {
        guard (try? toolPath()) != nil else { return nil }
        return { report, format in try render(report, format: format) }
    }

    /// `trackee-report` next to this executable, or where TRACKEE_REPORT names it.
    static func toolPath() throws -> String {
        let (path, named) = SiblingTool.path("trackee-report", variable: "TRACKEE_REPORT")
        guard access(path, X_OK) == 0 else {
            throw CommandFailure.config(named
                ? "PDF and XLSX reports need trackee-report; TRACKEE_REPORT names \(path), which is not an executable"
                : "PDF and XLSX reports need trackee-report next to trackee (\(path) is missing); make install puts it there")
        }
        return path
    }
}
