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
        case field(String)
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
            let placeholder = String(inside[..<close.lowerBound]).trimmingWhitespace()
            let name = placeholder.dropFirst("trigger.".count)
            guard placeholder.hasPrefix("trigger."), !name.isEmpty, name.utf8.allSatisfy(Template.isNameByte) else {
                throw TemplateError(
                    "\"{{\(inside[..<close.lowerBound])}}\" is not a template field; write {{trigger.FIELD}}, such as {{trigger.time}}"
                )
            }
            parts.append(.field(String(name)))
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

    /// The names after `trigger.` that this template uses, in order.
    public var fields: [String] {
        parts.compactMap { if case .field(let name) = $0 { name } else { nil } }
    }

    /// The text with each field replaced by its value; a field without a
    /// value becomes empty.
    public func render(_ values: [String: String]) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .field(let name): text += values[name] ?? ""
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
