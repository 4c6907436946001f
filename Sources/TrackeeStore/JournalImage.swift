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
    private var text = "{"
    private var first = true

    mutating func add(_ key: String, _ value: Int64?) {
        field(key)
        text += value.map(String.init) ?? "null"
    }

    mutating func add(_ key: String, _ value: String?) {
        field(key)
        guard let value else { return text += "null" }
        text += "\""
        // Most text needs no escape: it goes in whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    private mutating func field(_ key: String) {
        if !first { text += "," }
        first = false
        text += "\"" + key + "\":"
    }

    var closed: String { text + "}" }
}
