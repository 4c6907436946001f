extension ExportBuffer {
    /// Writes one RFC 4180 field: bare unless it holds a comma, double quote,
    /// CR or LF; then wrapped in double quotes with inner quotes doubled.
    ///
    /// Text starting with `=`, `+`, `-` or `@` is written unchanged even though
    /// a spreadsheet may run it as a formula (CSV injection): exports are
    /// meant to round-trip, and prefixing a quote would alter the data.
    public mutating func writeCSVField(_ text: String) {
        if text.utf8.contains(where: Self.needsQuoting) {
            bytes.append(ASCII.quote)
            writeQuotedContent(text)
            bytes.append(ASCII.quote)
        } else {
            write(text)
        }
    }

    /// Writes `items` joined by `separator` as a single field, quoted under
    /// the same rule as ``writeCSVField(_:)``.
    public mutating func writeCSVField(joining items: [String], separator: String) {
        let quoted = (items.count > 1 && separator.utf8.contains(where: Self.needsQuoting))
            || items.contains { $0.utf8.contains(where: Self.needsQuoting) }
        if quoted { bytes.append(ASCII.quote) }
        for (index, item) in items.enumerated() {
            if index > 0 {
                if quoted { writeQuotedContent(separator) } else { write(separator) }
            }
            if quoted { writeQuotedContent(item) } else { write(item) }
        }
        if quoted { bytes.append(ASCII.quote) }
    }

    private mutating func writeQuotedContent(_ text: String) {
        for byte in text.utf8 {
            if byte == ASCII.quote { bytes.append(ASCII.quote) }
            bytes.append(byte)
        }
    }

    private static func needsQuoting(_ byte: UInt8) -> Bool {
        byte == ASCII.comma || byte == ASCII.quote || byte == ASCII.cr || byte == ASCII.lf
    }
}
