/// Toggl Track's CSV import template: ISO dates, 24-hour times and
/// `HH:MM:SS` durations, which Toggl reads regardless of profile settings.
extension ExportBuffer {
    static let togglHeader =
        "Email,Client,Project,Description,Billable,Start date,Start time,Duration,Tags"

    mutating func writeTogglRow(_ r: ExportRecord, options: ExportOptions) {
        writeCSVField(options.email)
        bytes.append(ASCII.comma)
        writeCSVField(r.client)
        bytes.append(ASCII.comma)
        writeCSVField(r.project)
        bytes.append(ASCII.comma)
        writeCSVField(r.description)
        bytes.append(ASCII.comma)
        writeYesNo(r.billable)
        bytes.append(ASCII.comma)
        writeDate(r.start.date, separator: ASCII.hyphen)
        bytes.append(ASCII.comma)
        writeTime(r.start, seconds: true)
        bytes.append(ASCII.comma)
        writeHoursMinutesSeconds(r.durationSeconds)
        bytes.append(ASCII.comma)
        writeCSVField(joining: r.tags, separator: ", ")
        writeCRLF()
    }
}
