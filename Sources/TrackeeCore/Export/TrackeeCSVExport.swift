/// trackee's own CSV: every ``ExportRecord`` field, lossless, one row per
/// entry. Instants carry their UTC offset so a reader needs no zone.
/// Tags share one field joined by `,`, so the list splits back apart only
/// while no tag itself contains a comma.
extension ExportBuffer {
    static let trackeeCSVHeader =
        "id,start,end,duration_seconds,project,client,description,tags,billable,rate,source"

    mutating func writeTrackeeCSVRow(_ r: ExportRecord) {
        write(r.id)
        bytes.append(ASCII.comma)
        writeISO8601(r.start, offset: r.startOffset)
        bytes.append(ASCII.comma)
        writeISO8601(r.end, offset: r.endOffset)
        bytes.append(ASCII.comma)
        write(r.durationSeconds)
        bytes.append(ASCII.comma)
        writeCSVField(r.project)
        bytes.append(ASCII.comma)
        writeCSVField(r.client)
        bytes.append(ASCII.comma)
        writeCSVField(r.description)
        bytes.append(ASCII.comma)
        writeCSVField(joining: r.tags, separator: ",")
        bytes.append(ASCII.comma)
        write(r.billable ? "true" : "false")
        bytes.append(ASCII.comma)
        if let rate = r.rateCents { writeHundredths(rate) }
        bytes.append(ASCII.comma)
        writeCSVField(r.source)
        writeCRLF()
    }
}
