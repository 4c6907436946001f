import TrackeeCore

/// Reading the `Idempotency-Key` header of the IETF httpapi draft: an
/// sf-string (`"abc"`, RFC 8941) or, as many clients send it, bare.
package enum IdempotencyKey {
    /// The key in `value`; a throw names what is wrong with it.
    static func parse(header value: String) throws(Problem) -> String {
        let text = value.trimmingWhitespace()
        var key = text
        if text.hasPrefix("\"") {
            guard text.count >= 2, text.hasSuffix("\"") else {
                throw Problem.badRequest("bad-idempotency-key", "The Idempotency-Key header opens a quoted string it does not close.")
            }
            key = ""
            var escaped = false
            for c in text.dropFirst().dropLast() {
                if escaped {
                    guard c == "\"" || c == "\\" else {
                        throw Problem.badRequest("bad-idempotency-key", "The Idempotency-Key header escapes \(c), which a quoted string may not.")
                    }
                    key.append(c)
                    escaped = false
                } else if c == "\\" {
                    escaped = true
                } else if c == "\"" {
                    throw Problem.badRequest("bad-idempotency-key", "The Idempotency-Key header has an unescaped quote inside its quoted string.")
                } else {
                    key.append(c)
                }
            }
            if escaped {
                throw Problem.badRequest("bad-idempotency-key", "The Idempotency-Key header ends in a lone backslash.")
            }
        }
        try check(key, field: "The Idempotency-Key header")
        return key
    }

    /// Refuses an empty key or one with control characters.
    static func check(_ key: String, field: String) throws(Problem) {
        if key.isEmpty { throw Problem.badRequest("bad-idempotency-key", "\(field) is empty; leave it out or give a key.") }
        if key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw Problem.badRequest("bad-idempotency-key", "\(field) holds a control character.")
        }
    }

    /// The request an answer belongs to: method, path, and the SHA-256 of
    /// the body bytes exactly as sent (its `idempotency_key` field
    /// included).
    package static func fingerprint(method: String, path: String, body: [UInt8]) -> String {
        "\(method) \(path) \(body.count) \(SHA256.hex(SHA256.digest(body)))"
    }
}
