import TrackeeCore

/// Reads CSV (RFC 4180): fields split by commas, a quoted field may hold
/// commas, doubled quotes and line breaks; lines end in CRLF or LF. A
/// leading byte-order mark is passed over.
enum CSVReader {
    struct Record {
        var fields: [String]
        /// The line the record begins on (1 for the first).
        var line: Int
    }

    /// The records of `text`, the empty lines left out; throws with the
    /// line of a quoted field that never ends.
    static func records(_ text: String) throws(ImportRefusal) -> [Record] {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var records: [Record] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1, begun = 1
        var quoted = false, wasQuoted = false
        var index = 0
        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            wasQuoted = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(Record(fields: fields, line: begun)) }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 2
                        continue
                    }
                    quoted = false
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "\"") where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case UInt8(ascii: ","):
                endField()
            case 0x0D where index + 1 < bytes.count && bytes[index + 1] == 0x0A:
                break
            case 0x0A:
                endRecord()
                line += 1
                begun = line
            default:
                field.append(byte)
            }
            index += 1
        }
        if quoted { throw ImportRefusal("line \(begun): a quoted field that never ends") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}

/// A CSV report's rows by their header's names (letter case, spaces
/// around and a byte-order mark aside).
struct CSVTable {
    let header: [String]
    let records: [CSVReader.Record]
    private let columns: [String: Int]

    init(_ text: String, file: String) throws(ImportRefusal) {
        var records: [CSVReader.Record]
        do {
            records = try CSVReader.records(text)
        } catch {
            throw ImportRefusal("\(file): \(error.description)")
        }
        guard !records.isEmpty else { throw ImportRefusal("\(file): no header line; is it a CSV report?") }
        header = records.removeFirst().fields.map { $0.trimmingWhitespace() }
        self.records = records
        var columns: [String: Int] = [:]
        for (index, name) in header.enumerated() where columns[name.lowercased()] == nil {
            columns[name.lowercased()] = index
        }
        self.columns = columns
    }

    /// The column named `name`, or the first whose name begins with it
    /// (`Billable Rate (USD)` for `billable rate (`).
    func column(_ name: String) -> Int? {
        if let exact = columns[name.lowercased()] { return exact }
        return header.firstIndex { $0.lowercased().hasPrefix(name.lowercased()) }
    }

    /// The columns a report must have, refused by name when one is missing.
    func require(_ names: [String], file: String, format: String) throws(ImportRefusal) -> [Int] {
        var found: [Int] = []
        for name in names {
            guard let index = column(name) else {
                throw ImportRefusal(
                    "\(file):1: no \"\(name)\" column; is it \(format) as CSV? Its header is: "
                        + header.joined(separator: ","))
            }
            found.append(index)
        }
        return found
    }
}

extension CSVReader.Record {
    /// Field `index`, trimmed; empty where the record is short.
    subscript(_ index: Int?) -> String {
        guard let index, index < fields.count else { return "" }
        return fields[index].trimmingWhitespace()
    }
}
