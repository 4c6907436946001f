import Foundation
import TrackeeCore

/// An event a daemon reads as one JSON line on stdin.
///
/// ```
/// {"type":"focus","mode":"work","state":"on"}
/// {"type":"focus","mode":"work","state":"off"}
/// ```
public enum EventLine: Sendable, Equatable {
    /// Turn a focus mode on (it replaces any other) or off (only if it is
    /// the one on).
    case focus(mode: String, state: FocusState)

    /// A line that is not a valid event, with its line number.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "stdin line \(line): \(message)" }
    }

    /// Parses one line; nil for a blank line.
    public static func parse(_ text: some StringProtocol, line: Int) throws(Failure) -> EventLine? {
        let trimmed = String(text).trimmingWhitespace()
        if trimmed.isEmpty { return nil }
        func fail(_ message: String) -> Failure { Failure(line: line, message: message) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)) else {
            throw fail("not a JSON object")
        }
        guard let fields = object as? [String: Any] else { throw fail("not a JSON object") }
        guard let type = fields["type"] as? String else { throw fail("\"type\" is missing or not a string") }
        switch type {
        case "focus":
            guard let mode = (fields["mode"] as? String)?.trimmingWhitespace(), !mode.isEmpty else {
                throw fail("\"mode\" is missing or blank")
            }
            var state = FocusState.on
            if let value = fields["state"] {
                guard let text = value as? String, let parsed = FocusState(rawValue: text) else {
                    throw fail("\"state\" must be \"on\" or \"off\"")
                }
                state = parsed
            }
            return .focus(mode: mode, state: state)
        default:
            throw fail("unknown event type \"\(type)\" (known: focus)")
        }
    }
}
