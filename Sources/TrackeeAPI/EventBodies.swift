import Foundation
import TrackeeAutomation
import TrackeeCore

/// `POST /v1/focus`: `{"mode": "work", "state": "on"}` (state `on` or
/// `off`, default `on`; `time` optional), read as the focus event line
/// `trackee run` reads on stdin.
enum FocusRequest {
    /// The event line's fields, and the body's `idempotency_key` if it has one.
    static func fields(_ bytes: [UInt8]) throws(Problem) -> (fields: [String: Any], key: String?) {
        let body = try JSONBody(bytes, allowed: ["mode", "state", "time", "idempotency_key"])
        let key = try TimerRequest.key(in: body)
        guard let mode = try body.string("mode") else {
            throw Problem.badRequest("missing-field", "The field \"mode\" is missing; name the focus mode, as in {\"mode\": \"work\"}.")
        }
        var fields: [String: Any] = ["type": "focus", "mode": mode]
        if let state = try body.string("state") { fields["state"] = state }
        if let time = body.fields["time"] { fields["time"] = time }
        return (fields, key)
    }

    /// The focus event, or why it is refused (the sentence `trackee run`
    /// logs for the same line on stdin).
    static func decode(_ fields: [String: Any], now: Instant, zone: Zone) -> (inputs: [EventInput], refusal: String?) {
        do {
            return ([.event(try EventLine.event(fields, line: 1, now: now, zone: zone))], nil)
        } catch {
            return ([], "\(error)")
        }
    }
}

/// `POST /v1/events`: one event line of any kind `trackee run` reads on
/// stdin, as a JSON object, decoded as stdin's line would be. Its key comes
/// only in the `Idempotency-Key` header: every body field is the line's.
enum EventsRequest {
    static func line(_ bytes: [UInt8]) throws(Problem) -> String {
        _ = try JSONBody.object(bytes)
        return asSent(bytes)
    }

    /// A JSON body as one line, its bytes otherwise as sent: JSON strings
    /// hold no raw line breaks, so those between tokens become spaces.
    static func asSent(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
