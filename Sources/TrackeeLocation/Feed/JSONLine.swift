/// Where one value sits in a JSON line.
struct JSONValue {
    enum Kind: UInt8 {
        case absent, string, escapedString, number, trueLiteral, falseLiteral, null, object, array
    }

    var kind = Kind.absent
    /// For strings, the bytes between the quotes.
    var start = 0
    var end = 0

    var isAbsent: Bool { kind == .absent }
    var isString: Bool { kind == .string || kind == .escapedString }
}

/// The top-level keys of a gpsd or OwnTracks line that trackee reads;
/// every other key is skipped.
struct JSONFields {
    /// gpsd's `class`.
    var reportClass = JSONValue()
    /// OwnTracks' `_type`.
    var messageType = JSONValue()
    /// `type`, as in trackee's own event lines.
    var eventType = JSONValue()
    var mode = JSONValue()
    /// gpsd's TPV `status`: what kind of fix (8 simulated, 5 dead reckoning).
    var status = JSONValue()
    var time = JSONValue()
    var lat = JSONValue()
    var lon = JSONValue()
    var eph = JSONValue()
    var epx = JSONValue()
    var epy = JSONValue()
    var tst = JSONValue()
    var wtst = JSONValue()
    var acc = JSONValue()
    var event = JSONValue()
    var desc = JSONValue()
}

/// A line that is not a JSON object, with the byte where that shows.
struct JSONSyntaxError: Error {
    var offset: Int
    var problem: Problem

    enum Problem {
        case truncated, unexpected, controlInString, trailing
    }
}

/// A one-pass scanner over a JSON object on one line.
///
/// It reads the top level's keys and the extent of their values, and
/// steps over nested objects and arrays by matching brackets (strings and
/// their escapes included) without looking inside: gpsd's and OwnTracks'
/// positions are all at the top level. Keys are matched by their bytes,
/// packed into one integer.
enum JSONLine {
    static func fields(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) throws(JSONSyntaxError) -> JSONFields {
        var fields = JSONFields()
        var i = start
        guard i < end, p[i] == UInt8(ascii: "{") else { throw JSONSyntaxError(offset: i, problem: .unexpected) }
        i += 1
        i = skipSpace(p, i, end)
        guard i < end else { throw JSONSyntaxError(offset: i, problem: .truncated) }
        if p[i] == UInt8(ascii: "}") {
            i += 1
        } else {
            while true {
                guard i < end else { throw JSONSyntaxError(offset: i, problem: .truncated) }
                guard p[i] == UInt8(ascii: "\"") else { throw JSONSyntaxError(offset: i, problem: .unexpected) }
                let keyStart = i + 1
                let (keyEnd, keyEscaped) = try string(p, keyStart, end)
                i = skipSpace(p, keyEnd + 1, end)
                guard i < end else { throw JSONSyntaxError(offset: i, problem: .truncated) }
                guard p[i] == UInt8(ascii: ":") else { throw JSONSyntaxError(offset: i, problem: .unexpected) }
                i = skipSpace(p, i + 1, end)
                let value = try self.value(p, &i, end)
                if !keyEscaped { assign(value, key: pack(p, keyStart, keyEnd), to: &fields) }
                i = skipSpace(p, i, end)
                guard i < end else { throw JSONSyntaxError(offset: i, problem: .truncated) }
                if p[i] == UInt8(ascii: ",") {
                    i = skipSpace(p, i + 1, end)
                } else if p[i] == UInt8(ascii: "}") {
                    i += 1
                    break
                } else {
                    throw JSONSyntaxError(offset: i, problem: .unexpected)
                }
            }
        }
        i = skipSpace(p, i, end)
        guard i == end else { throw JSONSyntaxError(offset: i, problem: .trailing) }
        return fields
    }

    @inline(__always)
    static func skipSpace(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        var i = from
        while i < end, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0A || p[i] == 0x0D { i += 1 }
        return i
    }

    /// The index of the closing quote of a string whose bytes begin at
    /// `from`, and whether it holds escapes.
    @inline(__always)
    private static func string(_ p: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) throws(JSONSyntaxError) -> (Int, Bool) {
        var i = from
        var escaped = false
        while i < end {
            let b = p[i]
            if b == UInt8(ascii: "\"") { return (i, escaped) }
            if b == UInt8(ascii: "\\") {
                escaped = true
                i += 2
                continue
            }
            // Raw control bytes are not JSON; they are what binary data looks like.
            if b < 0x20 { throw JSONSyntaxError(offset: i, problem: .controlInString) }
            i += 1
        }
        throw JSONSyntaxError(offset: end, problem: .truncated)
    }

    /// Reads the value at `i` and leaves `i` just after it.
    @inline(__always)
    private static func value(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int) throws(JSONSyntaxError) -> JSONValue {
        guard i < end else { throw JSONSyntaxError(offset: i, problem: .truncated) }
        let start = i
        switch p[i] {
        case UInt8(ascii: "\""):
            let (close, escaped) = try string(p, i + 1, end)
            i = close + 1
            return JSONValue(kind: escaped ? .escapedString : .string, start: start + 1, end: close)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            i += 1
            while i < end, ByteNumbers.isDigit(p[i]) || p[i] == UInt8(ascii: ".") || p[i] | 0x20 == UInt8(ascii: "e")
                || p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+")
            {
                i += 1
            }
            return JSONValue(kind: .number, start: start, end: i)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipNested(p, &i, end)
            return JSONValue(kind: p[start] == UInt8(ascii: "{") ? .object : .array, start: start, end: i)
        case UInt8(ascii: "t"):
            try literal(p, &i, end, "true")
            return JSONValue(kind: .trueLiteral, start: start, end: i)
        case UInt8(ascii: "f"):
            try literal(p, &i, end, "false")
            return JSONValue(kind: .falseLiteral, start: start, end: i)
        case UInt8(ascii: "n"):
            try literal(p, &i, end, "null")
            return JSONValue(kind: .null, start: start, end: i)
        default:
            throw JSONSyntaxError(offset: i, problem: .unexpected)
        }
    }

    private static func literal(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int, _ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        for k in 0..<count {
            guard i + k < end else { throw JSONSyntaxError(offset: end, problem: .truncated) }
            guard p[i + k] == word.utf8Start[k] else { throw JSONSyntaxError(offset: i + k, problem: .unexpected) }
        }
        i += count
    }

    /// Steps over an object or array by counting brackets outside strings.
    private static func skipNested(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int) throws(JSONSyntaxError) {
        var depth = 0
        while i < end {
            switch p[i] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 {
                    i += 1
                    return
                }
            case UInt8(ascii: "\""):
                i = try string(p, i + 1, end).0
            case let b where b < 0x20 && b != 0x09 && b != 0x0A && b != 0x0D:
                throw JSONSyntaxError(offset: i, problem: .unexpected)
            default:
                break
            }
            i += 1
        }
        throw JSONSyntaxError(offset: end, problem: .truncated)
    }

    /// Up to eight bytes as one little-endian integer; 0 for longer keys,
    /// which trackee never reads.
    @inline(__always)
    static func pack(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> UInt64 {
        guard end - start <= 8 else { return 0 }
        var key: UInt64 = 0
        var shift: UInt64 = 0
        for i in start..<end {
            key |= UInt64(p[i]) << shift
            shift += 8
        }
        return key
    }

    @inline(__always)
    private static func assign(_ value: JSONValue, key: UInt64, to fields: inout JSONFields) {
        switch key {
        case 0x7373_616c_63: fields.reportClass = value  // class
        case 0x6570_7974_5f: fields.messageType = value  // _type
        case 0x6570_7974: fields.eventType = value  // type
        case 0x6564_6f6d: fields.mode = value  // mode
        case 0x7375_7461_7473: fields.status = value  // status
        case 0x656d_6974: fields.time = value  // time
        case 0x74_616c: fields.lat = value  // lat
        case 0x6e_6f6c: fields.lon = value  // lon
        case 0x68_7065: fields.eph = value  // eph
        case 0x78_7065: fields.epx = value  // epx
        case 0x79_7065: fields.epy = value  // epy
        case 0x74_7374: fields.tst = value  // tst
        case 0x7473_7477: fields.wtst = value  // wtst
        case 0x63_6361: fields.acc = value  // acc
        case 0x746e_6576_65: fields.event = value  // event
        case 0x6373_6564: fields.desc = value  // desc
        default: break
        }
    }

    /// Whether a plain string value is exactly `word`.
    @inline(__always)
    static func equals(_ p: UnsafeBufferPointer<UInt8>, _ value: JSONValue, _ word: StaticString) -> Bool {
        guard value.kind == .string, value.end - value.start == word.utf8CodeUnitCount else { return false }
        for k in 0..<word.utf8CodeUnitCount where p[value.start + k] != word.utf8Start[k] { return false }
        return true
    }

    /// A string value with its escapes resolved; invalid UTF-8 and lone
    /// surrogates become U+FFFD.
    static func text(_ p: UnsafeBufferPointer<UInt8>, _ value: JSONValue) -> String {
        guard value.kind == .escapedString else {
            return String(decoding: UnsafeBufferPointer(rebasing: p[value.start..<value.end]), as: UTF8.self)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.end - value.start)
        var i = value.start
        var pendingHigh: UInt32?
        func append(_ scalar: UInt32) {
            let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
            bytes.append(contentsOf: Array(String(s).utf8))
        }
        while i < value.end {
            let b = p[i]
            guard b == UInt8(ascii: "\\"), i + 1 < value.end else {
                if let high = pendingHigh { append(high); pendingHigh = nil }
                bytes.append(b)
                i += 1
                continue
            }
            let e = p[i + 1]
            i += 2
            if e == UInt8(ascii: "u"), i + 4 <= value.end, let unit = hex4(p, i) {
                i += 4
                if (0xD800..<0xDC00).contains(unit) {
                    if pendingHigh != nil { append(0xFFFD) }
                    pendingHigh = unit
                } else if (0xDC00..<0xE000).contains(unit), let high = pendingHigh {
                    append(0x10000 + ((high - 0xD800) << 10) + (unit - 0xDC00))
                    pendingHigh = nil
                } else {
                    if pendingHigh != nil { append(0xFFFD); pendingHigh = nil }
                    append(unit)
                }
                continue
            }
            if pendingHigh != nil { append(0xFFFD); pendingHigh = nil }
            switch e {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            default: bytes.append(e)
            }
        }
        if pendingHigh != nil { append(0xFFFD) }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hex4(_ p: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        var value: UInt32 = 0
        for k in 0..<4 {
            guard let digit = hexDigit(p[at + k]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    @inline(__always)
    static func hexDigit(_ b: UInt8) -> UInt8? {
        if b &- 0x30 < 10 { return b &- 0x30 }
        let lower = b | 0x20
        if lower &- 0x61 < 6 { return lower &- 0x61 + 10 }
        return nil
    }
}
