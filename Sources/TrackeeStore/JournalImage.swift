import TrackeeCore

/// A row's image for the journal: its columns as one JSON object, built
/// from the record in hand rather than read back with SQL, so that
/// journaling a `stop` costs one plain insert. A migration that adds a
/// column to these tables adds it here and in `JournalStep.columns`.
protocol JournalImage {
    var image: String { get }
}

extension ClientRecord: JournalImage {
    var image: String {
        var o = JSONObject()
        o.add("id", id)
        o.add("name", name)
        o.add("created", created)
        return o.closed
    }
}

extension ProjectRecord: JournalImage {
    var image: String {
        var o = JSONObject()
        o.add("id", id)
        o.add("client_id", clientID)
        o.add("name", name)
        o.add("type", type)
        o.add("billable", Int64(billable ? 1 : 0))
        o.add("rate_cents", rateCents)
        o.add("created", created)
        return o.closed
    }
}

extension EntryRecord: JournalImage {
    var image: String {
        var o = JSONObject()
        o.add("id", id)
        o.add("project_id", projectID)
        o.add("description", description)
        o.add("tags", tags)
        o.add("start", start)
        o.add("end", end)
        o.add("source", source)
        o.add("created", created)
        o.add("updated", updated)
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

    private mutating func field(_ key: String) {
        if !first { buffer.write(byte: UInt8(ascii: ",")) }
        first = false
        buffer.writeJSONString(key)
        buffer.write(byte: UInt8(ascii: ":"))
    }

    var closed: String {
        var done = buffer
        done.write(byte: UInt8(ascii: "}"))
        return String(decoding: done.bytes, as: UTF8.self)
    }
}
