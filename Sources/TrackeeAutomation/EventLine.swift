import Foundation
import TrackeeCore
import TrackeeDesk

/// An event a daemon reads as one JSON line on stdin, or takes as the body
/// of an HTTP request.
///
/// ```
/// {"type":"focus","mode":"work","state":"on"}
/// {"type":"focus","mode":"work","state":"off","time":"2026-11-23T12:00:00+01:00"}
/// {"type":"idle","idle_for":60}
/// {"type":"session","state":"locked"}
/// ```
///
/// Every other `type` is a desk kind (`DeskKind.all`: idle, session, sleep,
/// network, power, device, flip), whose fields its report reads
/// (``DeskReport/read(_:)``).
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
        guard let object = try? JSONSerialization.jsonObject(with: Data(trimmed.utf8)), let fields = object as? [String: Any]
        else {
            throw Failure(line: line, message: "not a JSON object")
        }
        return try event(fields, line: line, now: now, zone: zone)
    }

    /// The event a JSON object's fields describe (a line's, or an HTTP
    /// body's read by the API); `line` is what a refusal names.
    public static func event(_ object: [String: Any], line: Int, now: Instant, zone: Zone) throws(Failure) -> EventLine {
        guard let type = object["type"] as? String else {
            throw Failure(line: line, message: "\"type\" is missing or not a string")
        }
        var fields = EventFields(object.mapValues(Self.value), now: now, zone: zone)
        do throws(EventFields.Failure) {
            if type == "focus" { return try focus(fields) }
            guard let kind = DeskKind.named(type) else {
                let known = (["focus"] + DeskKind.all.map(\.name)).joined(separator: ", ")
                throw EventFields.Failure("unknown event type \"\(type)\" (known: \(known))")
            }
            let time = try fields.time("time")
            fields.read = time ?? now
            return .desk(DeskEvent(try kind.report.read(fields)), time: time)
        } catch {
            throw Failure(line: line, message: error.message)
        }
    }

    /// `{"type":"focus","mode":"work","state":"on"}`: `state` is `on`
    /// unless given.
    private static func focus(_ fields: EventFields) throws(EventFields.Failure) -> EventLine {
        guard let mode = fields.string("mode")?.trimmingWhitespace(), !mode.isEmpty else {
            throw EventFields.Failure("\"mode\" is missing or blank")
        }
        var state = FocusState.on
        if let value = fields["state"] {
            guard case .text(let text) = value, let parsed = FocusState(rawValue: text) else {
                throw EventFields.Failure("\"state\" must be \"on\" or \"off\"")
            }
            state = parsed
        }
        return .focus(mode: mode, state: state, time: try fields.time("time"))
    }

    /// A JSON value as the kinds tell values apart: a whole number, a
    /// text, or anything else.
    private static func value(_ any: Any) -> EventFields.Value {
        if let number = any as? Int { return .integer(number) }
        if let text = any as? String { return .text(text) }
        return .other
    }
}
