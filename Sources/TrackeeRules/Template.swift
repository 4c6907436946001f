import TrackeeCore

/// Text with `{{trigger.FIELD}}` placeholders, filled from the event that
/// fired a rule. Spaces inside the braces are allowed.
///
/// Filling is plain text replacement: whatever the event's text holds
/// (spaces, quotes, `$(…)`, `;`) lands verbatim in the one string this
/// template makes, so a `run` argument stays one argument.
///
///     let t = try Template("Focus {{ trigger.mode }} since {{trigger.time}}")
///     t.fields                                   // ["mode", "time"]
///     t.render(["mode": "deep", "time": "09:00"]) // "Focus deep since 09:00"
public struct Template: Sendable, Equatable, CustomStringConvertible {
    /// The text as written in the rule file.
    public let source: String
    private let parts: [Part]

    private enum Part: Sendable, Equatable {
        case text(String)
        /// A field, and seconds added to it when it is a time (`+ 8h`).
        case field(String, shift: Int64)
    }

    /// Reads `source`; every `{{` must close and name `trigger.FIELD`, where
    /// FIELD is letters, digits and `_`. Which fields exist is the rule
    /// loader's business.
    public init(_ source: String) throws(TemplateError) {
        var parts: [Part] = []
        var rest = source[...]
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            let inside = rest[open.upperBound...]
            guard let close = inside.firstRange(of: "}}") else {
                throw TemplateError("\"{{\" is not closed; write {{trigger.FIELD}}, such as {{trigger.time}}")
            }
            var placeholder = String(inside[..<close.lowerBound]).trimmingWhitespace()
            var shift: Int64 = 0
            if let sign = placeholder.lastIndex(where: { $0 == "+" || $0 == "-" }) {
                let length = String(placeholder[placeholder.index(after: sign)...]).trimmingWhitespace()
                guard let seconds = try? parseDuration(length).components.seconds else {
                    throw TemplateError(
                        "\"\(length)\" in \"{{\(inside[..<close.lowerBound])}}\" is not a length of time; write {{trigger.start + 8h}}")
                }
                shift = placeholder[sign] == "-" ? -seconds : seconds
                placeholder = String(placeholder[..<sign]).trimmingWhitespace()
            }
            let name = placeholder.dropFirst("trigger.".count)
            guard placeholder.hasPrefix("trigger."), !name.isEmpty, name.utf8.allSatisfy(Template.isNameByte) else {
                throw TemplateError(
                    "\"{{\(inside[..<close.lowerBound])}}\" is not a template field; write {{trigger.FIELD}}, such as {{trigger.time}}"
                )
            }
            parts.append(.field(String(name), shift: shift))
            rest = inside[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.source = source
        self.parts = parts
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
            true
        default: false
        }
    }

    /// The fields shifted by a length (`{{trigger.start + 8h}}`), in order:
    /// the rule loader checks that each holds a time for the rule's kinds.
    public var shiftedFields: [String] {
        parts.compactMap { if case .field(let name, let shift) = $0, shift != 0 { name } else { nil } }
    }

    /// The names after `trigger.` that this template uses, in order.
    public var fields: [String] {
        parts.compactMap { if case .field(let name, _) = $0 { name } else { nil } }
    }

    /// The text with each field replaced by its value; a field without a
    /// value becomes empty. A shifted time is written in `zone` with its
    /// offset; a shifted field that holds no time (a running entry's end)
    /// becomes empty.
    public func render(_ values: [String: String], zone: Zone = .utc) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .field(let name, let shift) where shift == 0: text += values[name] ?? ""
            case .field(let name, let shift):
                guard let value = values[name], !value.isEmpty,
                      let time = try? TimeExpression.parse(value, now: Instant(seconds: 0), zone: zone)
                else { continue }
                text += zone.iso8601(time + shift)
            }
        }
        return text
    }

    public var description: String { source }
}

/// Template text that does not read as `{{trigger.FIELD}}` placeholders.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
