import Foundation
import TrackeeCore

/// An event a daemon reads as one JSON line on stdin.
///
/// ```
/// {"type":"focus","mode":"work","state":"on"}
/// {"type":"focus","mode":"work","state":"off","time":"2026-11-23T12:00:00+01:00"}
/// {"type":"idle","idle_for":60}
/// {"type":"session","state":"locked"}
/// ```
///
/// The desk's lines (`idle`, `session`, `sleep`, `network`, `power`,
/// `device`) are read by ``DeskLine``.
///
/// `time` (any form `trackee start --at` takes, or seconds since the epoch)
/// is when the event happened; without it, when the line is read. A line
/// with a time is replay-safe: reading it again changes nothing.
public enum EventLine: Sendable, Equatable {
    /// Turn a focus mode on (it replaces any other) or off (only if it is
    /// the one on).
    case focus(mode: String, state: FocusState, time: Instant?)
    /// A change of the machine at the desk, as a D-Bus or udev source
    /// would report it.
    case desk(DeskEvent, time: Instant?)

    /// A line that is not a valid event, with its line number.
    public struct Failure: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "stdin line \(line): \(message)" }
    }

    /// Parses one line; nil for a blank line.
    public static func parse(_ text: some StringProtocol, line: Int, now: Instant, zone: Zone) throws(Failure) -> EventLine? {
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
            return .focus(mode: mode, state: state, time: try time(fields["time"], now: now, zone: zone, fail: fail))
        case "idle", "session", "sleep", "network", "power", "device":
            let time = try time(fields["time"], now: now, zone: zone, fail: fail)
            let event = try DeskLine.event(type, fields, read: time ?? now, now: now, zone: zone, fail: fail)
            return .desk(event, time: time)
        default:
            throw fail("unknown event type \"\(type)\" (known: focus, idle, session, sleep, network, power, device)")
        }
    }

    /// The value of `key`: a time text, or seconds since the epoch.
    static func time(_ value: Any?, key: String = "time", now: Instant, zone: Zone, fail: (String) -> Failure)
        throws(Failure) -> Instant?
    {
        switch value {
        case nil: return nil
        case let seconds as Int: return Instant(seconds: Int64(seconds))
        case let text as String:
            do {
                return try TimeExpression.parse(text, now: now, zone: zone)
            } catch {
                throw fail("\"\(key)\": \(error)")
            }
        default: throw fail("\"\(key)\" must be a time text or seconds since the epoch")
        }
    }
}
