import TrackeeCore

/// A row's image for the journal: its columns (``JournalTable/columns``)
/// as one JSON object, in their order, built from the values in hand rather
/// than read back with SQL, so that journaling a `stop` costs one plain
/// insert.
extension JournalTable {
    func image(_ values: [HubValue]) -> String { JSONObject.of(columns, values) }
}

extension JournalRecord {
    var image: String { Self.image(values) }

    /// ``JournalTable/image(_:)`` from the record's own list, which a
    /// one-shot command has read already.
    static func image(_ values: [HubValue]) -> String {
        var o = JSONObject()
        o.add("id", values[0])
        for (column, value) in zip(columns, values.dropFirst()) { o.add(column.name, value) }
        return o.closed
    }
}

/// A JSON object written field by field (RFC 8259): integers, strings
/// and nulls are all a row holds.
struct JSONObject {
    // The one JSON string writer, Core's (ExportBuffer.writeJSONString).
    private var buffer = ExportBuffer(capacity: 256)
    private var first = true

    init() {
        buffer.write(byte: UInt8(ascii: "{"))
    }

    mutating func add(_ key: String, _ value: Int64?) {
        field(key)
        if let value { buffer.write(String(value)) } else { buffer.write(literal: "null") }
    }

    mutating func add(_ key: String, _ value: String?) {
        field(key)
        if let value { buffer.writeJSONString(value) } else { buffer.write(literal: "null") }
    }

    mutating func add(_ key: String, _ value: HubValue) {
        switch value {
        case .null: add(key, nil as Int64?)
        case .integer(let n): add(key, n)
        case .text(let t): add(key, t)
        }
    }

    private mutating func field(_ key: String) {
        if !first { buffer.write(byte: UInt8(ascii: ",")) }
        first = false
        buffer.writeJSONString(key)
        buffer.write(byte: UInt8(ascii: ":"))
    }

    /// `values` under `keys`, in order, as one object.
    static func of(_ keys: [String], _ values: [HubValue]) -> String {
        var o = JSONObject()
        for (key, value) in zip(keys, values) { o.add(key, value) }
        return o.closed
    }

    var closed: String {
        var done = buffer
        done.write(byte: UInt8(ascii: "}"))
        return String(decoding: done.bytes, as: UTF8.self)
    }
}
