extension ExportBuffer {
    /// Writes `text` as a JSON string literal.
    ///
    /// Quote, backslash, and the control characters U+0000–U+001F are
    /// escaped (`\n`, `\r`, `\t` by name, the rest as `\u00XX`); everything
    /// else, including non-ASCII, passes through as UTF-8.
    public mutating func writeJSONString(_ text: String) {
        bytes.append(ASCII.quote)
        var text = text
        text.withUTF8 { utf8 in
            if utf8.contains(where: Self.needsJSONEscape) {
                for byte in utf8 {
                    if Self.needsJSONEscape(byte) {
                        writeJSONEscape(byte)
                    } else {
                        bytes.append(byte)
                    }
                }
            } else {
                bytes.append(contentsOf: utf8)
            }
        }
        bytes.append(ASCII.quote)
    }

    private mutating func writeJSONEscape(_ byte: UInt8) {
        bytes.append(ASCII.backslash)
        switch byte {
        case ASCII.quote, ASCII.backslash: bytes.append(byte)
        case ASCII.lf: bytes.append(UInt8(ascii: "n"))
        case ASCII.cr: bytes.append(UInt8(ascii: "r"))
        case ASCII.tab: bytes.append(UInt8(ascii: "t"))
        default:
            write("u00")
            bytes.append(Self.hexDigit(byte >> 4))
            bytes.append(Self.hexDigit(byte & 0x0F))
        }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private static func needsJSONEscape(_ byte: UInt8) -> Bool {
        byte < ASCII.space || byte == ASCII.quote || byte == ASCII.backslash
    }
}
