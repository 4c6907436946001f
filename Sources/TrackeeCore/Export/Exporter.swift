/// Turns finished entries into the text of one export file.
///
/// Call ``export(_:)`` for a whole file at once, or ``header()``, ``row(_:first:)``
/// for each record and ``footer(empty:)`` to stream. Rows come out in the
/// order given; callers pass them in start order.
///
/// The CSV formats (`clockify`, `toggl`, `csv`) follow RFC 4180: CRLF line
/// endings (which Clockify and Toggl also accept), a field is quoted only
/// when it holds a comma, double quote, CR or LF, and inner quotes are
/// doubled. Output is UTF-8 without a BOM. Text that starts with `=`, `+`,
/// `-` or `@` is written as is, although a spreadsheet may treat it as a
/// formula: the export is lossless, so open untrusted files with care.
///
/// ```swift
/// let exporter = Exporter(format: .clockify, options: ExportOptions(email: "ana@example.com"))
/// let text = exporter.export(records)
/// ```
public struct Exporter: Sendable {
    public var format: ExportFormat
    public var options: ExportOptions

    public init(format: ExportFormat, options: ExportOptions = ExportOptions()) {
        self.format = format
        self.options = options
    }

    /// The CSV header line with its CRLF, or `[` for JSON.
    public func header() -> String {
        switch format {
        case .clockify: ExportBuffer.clockifyHeader + "\r\n"
        case .toggl: ExportBuffer.togglHeader + "\r\n"
        case .csv: ExportBuffer.trackeeCSVHeader + "\r\n"
        case .json: "["
        }
    }

    /// One record. CSV rows end in CRLF; JSON rows start with the newline
    /// (and, unless `first`, the comma) that separates them from the
    /// previous one.
    public func row(_ record: ExportRecord, first: Bool) -> String {
        var buffer = ExportBuffer(capacity: 256)
        write(record, first: first, to: &buffer)
        return buffer.string
    }

    /// Nothing for CSV. For JSON, `]\n` after no rows and `\n]\n` after
    /// some, which is why the caller says whether it wrote any.
    public func footer(empty: Bool) -> String {
        switch format {
        case .clockify, .toggl, .csv: ""
        case .json: empty ? "]\n" : "\n]\n"
        }
    }

    /// The whole file for `records`.
    public func export(_ records: some Sequence<ExportRecord>) -> String {
        let head = header()
        var buffer = ExportBuffer(capacity: head.utf8.count + typicalRowBytes * records.underestimatedCount + 8)
        buffer.write(head)
        var first = true
        for record in records {
            write(record, first: first, to: &buffer)
            first = false
        }
        buffer.write(footer(empty: first))
        return buffer.string
    }

    /// A generous guess at one row's size, so a large export grows its
    /// buffer rarely.
    private var typicalRowBytes: Int {
        switch format {
        case .clockify, .toggl: 128
        case .csv: 160
        case .json: 288
        }
    }

    private func write(_ record: ExportRecord, first: Bool, to buffer: inout ExportBuffer) {
        switch format {
        case .clockify:
            buffer.writeClockifyRow(record, options: options)
        case .toggl:
            buffer.writeTogglRow(record, options: options)
        case .csv:
            buffer.writeTrackeeCSVRow(record)
        case .json:
            if !first { buffer.write(byte: ExportBuffer.ASCII.comma) }
            buffer.write(byte: ExportBuffer.ASCII.lf)
            buffer.writeJSONObject(record)
        }
    }
}
