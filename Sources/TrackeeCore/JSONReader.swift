/// A JSON value (RFC 8259) as another program wrote it: a change pulled
/// from the hub, a file to import. Numbers are kept whole when they are
/// integers; an object keeps each value's text too, so that a part of a
/// change can be kept as it came.
public enum JSONNode: Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([Member])

    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONNode
        /// The value's own text.
        public var text: Substring
    }

    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The text of member `key`'s value.
    public func text(of key: String) -> Substring? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.text
    }
}

/// Reads one JSON document from text, byte by byte: a pull reads one per
/// change, by the thousand.
public struct JSONReader {
    public struct Failure: Error, Equatable {
        /// The byte where it stopped being JSON.
        public var offset: Int
    }

    private let text: String
    private let bytes: [UInt8]
    private var at = 0

    /// The document in `text`; throws where it is not JSON.
    public static func read(_ text: String) throws(Failure) -> JSONNode {
        var reader = JSONReader(text: text)
        let value = try reader.value()
        reader.space()
        guard reader.at == reader.bytes.count else { throw Failure(offset: reader.at) }
        return value
    }

    /// The elements of the array `text` holds, each with the line it
    /// begins on (1 for the first), so that what is wrong with one can
    /// name its place; throws where it is not an array of JSON values,
    /// with the line there.
    public static func lines(_ text: String) throws(Failure) -> [(value: JSONNode, line: Int)] {
        var reader = JSONReader(text: text)
        reader.space()
        guard reader.at < reader.bytes.count, reader.bytes[reader.at] == UInt8(ascii: "[") else {
            throw Failure(offset: reader.at)
        }
        reader.at += 1
        var elements: [(JSONNode, Int)] = []
        var current = 1, counted = 0
        func line(at offset: Int) -> Int {
            while counted < offset {
                if reader.bytes[counted] == 0x0A { current += 1 }
                counted += 1
            }
            return current
        }
        reader.space()
        if reader.at < reader.bytes.count, reader.bytes[reader.at] == UInt8(ascii: "]") {
            reader.at += 1
        } else {
            while true {
                reader.space()
                let begins = line(at: reader.at)
                elements.append((try reader.value(), begins))
                reader.space()
                guard reader.at < reader.bytes.count else { throw Failure(offset: reader.at) }
                if reader.bytes[reader.at] == UInt8(ascii: ",") {
                    reader.at += 1
                    continue
                }
                guard reader.bytes[reader.at] == UInt8(ascii: "]") else { throw Failure(offset: reader.at) }
                reader.at += 1
                break
            }
        }
        reader.space()
        guard reader.at == reader.bytes.count else { throw Failure(offset: reader.at) }
        return elements
    }

    /// The line (1 for the first) of byte `offset` of `text`.
    public static func line(of offset: Int, in text: String) -> Int {
        1 + text.utf8.prefix(offset).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    private init(text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    private mutating func space() {
        while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
            at += 1
        }
    }

    private mutating func value() throws(Failure) -> JSONNode {
        space()
        guard at < bytes.count else { throw Failure(offset: at) }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "n"): try word("null"); return .null
        case UInt8(ascii: "t"): try word("true"); return .bool(true)
        case UInt8(ascii: "f"): try word("false"); return .bool(false)
        default: return try number()
        }
    }

    private mutating func word(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { throw Failure(offset: at) }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { throw Failure(offset: at + i) }
        at += count
    }

    private mutating func object() throws(Failure) -> JSONNode {
        at += 1
        var members: [JSONNode.Member] = []
        space()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") {
            at += 1
            return .object(members)
        }
        while true {
            space()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw Failure(offset: at) }
            let key = try string()
            space()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw Failure(offset: at) }
            at += 1
            space()
            let start = at
            let value = try value()
            members.append(.init(key: key, value: value, text: slice(start, at)))
            space()
            guard at < bytes.count else { throw Failure(offset: at) }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "}") else { throw Failure(offset: at) }
            at += 1
            return .object(members)
        }
    }

    private mutating func array() throws(Failure) -> JSONNode {
        at += 1
        var items: [JSONNode] = []
        space()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") {
            at += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            space()
            guard at < bytes.count else { throw Failure(offset: at) }
            if bytes[at] == UInt8(ascii: ",") {
                at += 1
                continue
            }
            guard bytes[at] == UInt8(ascii: "]") else { throw Failure(offset: at) }
            at += 1
            return .array(items)
        }
    }

    /// The text between two byte offsets (both on character boundaries).
    private func slice(_ start: Int, _ end: Int) -> Substring {
        let utf8 = text.utf8
        let from = utf8.index(utf8.startIndex, offsetBy: start), to = utf8.index(utf8.startIndex, offsetBy: end)
        return text[from..<to]
    }

    private mutating func string() throws(Failure) -> String {
        at += 1
        let start = at
        // Without escapes, the string is its bytes.
        while at < bytes.count, bytes[at] != UInt8(ascii: "\""), bytes[at] != UInt8(ascii: "\\") {
            guard bytes[at] >= 0x20 else { throw Failure(offset: at) }
            at += 1
        }
        guard at < bytes.count else { throw Failure(offset: at) }
        if bytes[at] == UInt8(ascii: "\"") {
            at += 1
            return String(decoding: bytes[start..<(at - 1)], as: UTF8.self)
        }
        var scalars = Array(bytes[start..<at])
        while true {
            guard at < bytes.count else { throw Failure(offset: at) }
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard at < bytes.count else { throw Failure(offset: at) }
                let escape = bytes[at]
                at += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        // A surrogate pair.
                        guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u")
                        else { throw Failure(offset: at) }
                        at += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Failure(offset: at) }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Failure(offset: at) }
                    scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
                default:
                    throw Failure(offset: at - 1)
                }
            default:
                guard byte >= 0x20 else { throw Failure(offset: at - 1) }
                scalars.append(byte)
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard at + 4 <= bytes.count else { throw Failure(offset: at) }
        var code: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[at]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw Failure(offset: at)
            }
            code = code * 16 + digit
            at += 1
        }
        return code
    }

    private mutating func number() throws(Failure) -> JSONNode {
        let start = at
        if at < bytes.count, bytes[at] == UInt8(ascii: "-") { at += 1 }
        var whole = true
        var digits = 0
        while at < bytes.count {
            let byte = bytes[at]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                digits += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
                || byte == UInt8(ascii: "+") || (byte == UInt8(ascii: "-") && at > start)
            {
                whole = false
            } else {
                break
            }
            at += 1
        }
        guard digits > 0 else { throw Failure(offset: start) }
        let literal = String(decoding: bytes[start..<at], as: UTF8.self)
        if whole, let n = Int64(literal) { return .integer(n) }
        guard let d = Double(literal) else { throw Failure(offset: start) }
        return .number(d)
    }
}
