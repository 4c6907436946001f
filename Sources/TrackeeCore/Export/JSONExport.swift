/// trackee's JSON: an array with one object per line, keys in a fixed order,
/// so the output diffs and greps well and streams without a JSON encoder.
///
/// ```json
/// [
/// {"id":1,"start":"2026-11-20T09:00:00+01:00","end":"2026-11-20T10:00:00+01:00","duration_seconds":3600,"project":"Acme","client":"","description":"","tags":["dev"],"billable":true,"rate":80.00,"source":"cli"}
/// ]
/// ```
extension ExportBuffer {
    mutating func writeJSONObject(_ r: ExportRecord) {
        write("{\"id\":")
        write(r.id)
        write(",\"start\":\"")
        writeISO8601(r.start, offset: r.startOffset)
        write("\",\"end\":\"")
        writeISO8601(r.end, offset: r.endOffset)
        write("\",\"duration_seconds\":")
        write(r.durationSeconds)
        write(",\"project\":")
        writeJSONString(r.project)
        write(",\"client\":")
        writeJSONString(r.client)
        write(",\"description\":")
        writeJSONString(r.description)
        write(",\"tags\":[")
        for (index, tag) in r.tags.enumerated() {
            if index > 0 { bytes.append(ASCII.comma) }
            writeJSONString(tag)
        }
        write("],\"billable\":")
        write(r.billable ? "true" : "false")
        write(",\"rate\":")
        if let rate = r.rateCents { writeHundredths(rate) } else { write("null") }
        write(",\"source\":")
        writeJSONString(r.source)
        bytes.append(UInt8(ascii: "}"))
    }
}
