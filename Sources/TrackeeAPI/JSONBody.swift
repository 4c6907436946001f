import Foundation

/// A request body read as one JSON object whose fields a route takes one
/// by one; every refusal names the field.
struct JSONBody {
    private(set) var fields: [String: Any]

    /// The body as a JSON object; anything else is refused.
    static func object(_ bytes: [UInt8]) throws(Problem) -> [String: Any] {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(bytes))
        } catch {
            throw Problem.badRequest("bad-json", "The body is not JSON.")
        }
        guard let fields = object as? [String: Any] else {
            throw Problem.badRequest("bad-json", "The body is JSON but not an object.")
        }
        return fields
    }

    /// Reads `bytes`; an empty body is an empty object. Only `allowed`
    /// fields may appear.
    init(_ bytes: [UInt8], allowed: Set<String>) throws(Problem) {
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) {
            fields = [:]
            return
        }
        let fields = try Self.object(bytes)
        if let unknown = fields.keys.filter({ !allowed.contains($0) }).sorted().first {
            throw Problem.badRequest(
                "unknown-field",
                "The field \"\(unknown)\" is unknown here; the fields are \(allowed.sorted().joined(separator: ", ")).")
        }
        self.fields = fields
    }

    /// A string field; nil when absent or null.
    func string(_ name: String) throws(Problem) -> String? {
        guard let value = fields[name], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw Self.wrongType(name, "a string") }
        return text
    }

    /// A field holding an array of strings; empty when absent or null.
    func strings(_ name: String) throws(Problem) -> [String] {
        guard let value = fields[name], !(value is NSNull) else { return [] }
        guard let list = value as? [Any] else { throw Self.wrongType(name, "an array of strings") }
        var texts: [String] = []
        for item in list {
            guard let text = item as? String else { throw Self.wrongType(name, "an array of strings") }
            texts.append(text)
        }
        return texts
    }

    static func wrongType(_ name: String, _ type: String) -> Problem {
        Problem.badRequest("wrong-type", "The field \"\(name)\" must be \(type).")
    }
}
