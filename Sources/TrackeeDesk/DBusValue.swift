/// One D-Bus value, as a Swift value: what a signal or a method reply
/// carried, or what a method call sends.
public indirect enum DBusValue: Equatable, Sendable {
    case string(String)
    case objectPath(String)
    case signature(String)
    case bool(Bool)
    case byte(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case variant(DBusValue)
    /// The element signature is kept because an empty array still has one.
    case array(elementSignature: String, [DBusValue])
    case structure([DBusValue])
    /// One key and value of a dictionary (an array of entries).
    case entry(key: DBusValue, value: DBusValue)
    /// A Unix file descriptor (`h`) from a method reply read with
    /// `keepingDescriptors`: the caller owns it and must close it. In a
    /// signal, or a reply read without that flag, a descriptor is
    /// `.unsupported("h")` and never opened in this process.
    case fileDescriptor(Int32)
    /// A type trackee does not read, by its type code.
    case unsupported(Character)

    /// The D-Bus type signature of this value, such as `s` or `a{sv}`.
    public var signature: String {
        switch self {
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .bool: "b"
        case .byte: "y"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .fileDescriptor: "h"
        case .variant: "v"
        case .array(let element, _): "a" + element
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .entry(let key, let value): "{" + key.signature + value.signature + "}"
        case .unsupported(let code): String(code)
        }
    }

    /// The value inside a variant, or the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }
}
