import Foundation

/// A parsed JSON document that tests can index into and compare with
/// literals: `#expect(json["entry"]["start"] == "2026-11-20T10:00:00+01:00")`.
///
/// A key that is not there reads as `.absent`, which is how trackee
/// writes a field with no value (it omits it).
public enum JSONValue: Equatable, Decodable, CustomStringConvertible {
    case absent
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    public subscript(key: String) -> JSONValue {
        if case .object(let o) = self { return o[key] ?? .absent }
        return .absent
    }

    public subscript(index: Int) -> JSONValue {
        if case .array(let a) = self, a.indices.contains(index) { return a[index] }
        return .absent
    }

    /// The elements of an array; empty for anything else.
    public var elements: [JSONValue] {
        if case .array(let a) = self { return a }
        return []
    }

    /// The keys of an object, sorted.
    public var keys: [String] {
        if case .object(let o) = self { return o.keys.sorted() }
        return []
    }

    public var int: Int64? {
        if case .number(let n) = self, n == n.rounded() { return Int64(n) }
        return nil
    }

    /// A number, whole or not (times in seconds).
    public var number: Double? {
        if case .number(let n) = self { return n }
        return nil
    }

    public var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var description: String {
        switch self {
        case .absent: "(absent)"
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let n): n == n.rounded() ? "\(Int64(n))" : "\(n)"
        case .string(let s): "\"\(s)\""
        case .array(let a): "[" + a.map(\.description).joined(separator: ",") + "]"
        case .object(let o): "{" + o.keys.sorted().map { "\"\($0)\":\(o[$0]!)" }.joined(separator: ",") + "}"
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(nilLiteral: ()) { self = .null }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(uniqueKeysWithValues: elements)) }
}
