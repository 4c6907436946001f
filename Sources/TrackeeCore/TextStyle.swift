/// How text for people is styled: bold, dim and two colours as ANSI
/// escapes when colour is on, the text unchanged when it is off.
///
///     TextStyle(color: true).bold("Docs")   // "\u{1B}[1mDocs\u{1B}[0m"
///     TextStyle(color: false).bold("Docs")  // "Docs"
public struct TextStyle: Sendable {
    public let color: Bool

    public init(color: Bool) {
        self.color = color
    }

    /// Colour only on a terminal (`terminal`, asked last and only when
    /// the rest allow colour), never for JSON, never when `NO_COLOR` is set
    /// and not empty (no-color.org) or `TERM` is `dumb`.
    public init(environment: [String: String], json: Bool, terminal: @autoclosure () -> Bool) {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        color = !json && !noColor && environment["TERM"] != "dumb" && terminal()
    }

    public func bold(_ s: String) -> String { color ? "\u{1B}[1m\(s)\u{1B}[0m" : s }
    public func dim(_ s: String) -> String { color ? "\u{1B}[2m\(s)\u{1B}[0m" : s }
    public func green(_ s: String) -> String { color ? "\u{1B}[32m\(s)\u{1B}[0m" : s }
    public func yellow(_ s: String) -> String { color ? "\u{1B}[33m\(s)\u{1B}[0m" : s }

    /// `s` in the colour `hex` (`#1f77b4`) as a 24-bit foreground, as a
    /// report's charts colour a project; unchanged without colour or when
    /// `hex` is not six hexadecimal digits after `#`.
    public func rgb(_ s: String, hex: String) -> String {
        guard color, hex.utf8.count == 7, hex.hasPrefix("#"), let value = Int(hex.dropFirst(), radix: 16) else { return s }
        return "\u{1B}[38;2;\(value >> 16);\(value >> 8 & 0xFF);\(value & 0xFF)m\(s)\u{1B}[0m"
    }
}
