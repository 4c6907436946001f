import TrackeeCore
import TrackeeStore

/// `GET /v1/events/stream` as Server-Sent Events: the timer changes the
/// intent log records (from any process: the CLI, rules, HTTP) and the
/// rule firings the ledger records, read past a cursor whenever the store
/// changes. The store is the source, not the daemon's memory, so a
/// `trackee start` in a terminal reaches a status bar the same way a rule
/// does.
public enum EventStream {
    /// How far the stream has read: the intent log's and the ledger's last
    /// ids, and the journal's last step.
    public struct Cursor: Sendable, Equatable {
        public var intent: Int64
        public var firing: Int64
        public var step: Int64 = 0
    }

    /// The cursor at the store's current end: a client gets what happens
    /// after it connects.
    public static func end(of store: Store) throws -> Cursor {
        Cursor(intent: try store.lastIntentID(), firing: try store.lastFiringID(), step: try store.lastStep())
    }

    /// The frames for what was recorded after `cursor`, in the order it
    /// happened (a firing before the timer change it made), and moves the
    /// cursor past it. Intents that changed nothing are left out.
    public static func frames(after cursor: inout Cursor, store: Store, zone: Zone, now: Instant) throws -> [String] {
        var timed: [(at: Instant, order: Int, id: Int64, frame: String)] = []
        while true {
            let firings = try store.firings(after: cursor.firing)
            guard let last = firings.last else { break }
            for firing in firings {
                let view = FiringView(
                    rule: firing.rule, trigger: firing.trigger, occurred: zone.iso8601(firing.occurred),
                    description: firing.description)
                timed.append((firing.fired, 0, firing.id, frame(id: "f\(firing.id)", event: "fired", data: view)))
            }
            cursor.firing = last.id
        }
        while true {
            let intents = try store.loggedIntents(after: cursor.intent)
            guard let last = intents.last else { break }
            for intent in intents where intent.result.outcome != .unchanged {
                let result = intent.result
                let view = TimerChangeView(
                    outcome: result.outcome.rawValue, source: intent.source?.storedText, key: intent.key,
                    entry: result.entry.map { EntryView($0, zone: zone, now: now) },
                    previous: result.previous.map { EntryView($0, zone: zone, now: now) })
                timed.append((intent.at, 1, intent.id, frame(id: "i\(intent.id)", event: result.outcome.rawValue, data: view)))
            }
            cursor.intent = last.id
        }
        return timed.sorted { ($0.at, $0.order, $0.id) < ($1.at, $1.order, $1.id) }.map(\.frame)
    }

    /// The frame for the journal's steps after `cursor` (any change to the
    /// entries, whoever made it: an edit, a delete, an undo, an import, a
    /// pull), and moves the cursor past them: `changed` with the newest
    /// step, or none when there is no new one. Only the web page's stream
    /// takes it (``APIResponse/streamsChanges``): a timer change has its
    /// own frame, and the API's clients asked for those.
    public static func changes(after cursor: inout Cursor, store: Store) throws -> [String] {
        let last = try store.lastStep()
        guard last > cursor.step else { return [] }
        cursor.step = last
        return [frame(id: "s\(last)", event: "changed", data: ["step": last])]
    }

    /// The comment a stream opens with, so a client sees it is live.
    public static func opening(version: String) -> String { ": trackee \(version)\n\n" }
    /// Sent when nothing happened for a while, so proxies and clients keep
    /// the connection.
    public static let heartbeat = ": heartbeat\n\n"
    /// The last frame, when the daemon stops.
    public static let end = "event: end\ndata: {}\n\n"

    static func frame<T: Encodable>(id: String, event: String, data: T) -> String {
        "id: \(id)\nevent: \(event)\ndata: " + String(decoding: JSONBytes.encode(data), as: UTF8.self) + "\n\n"
    }

    struct TimerChangeView: Encodable {
        var outcome: String
        var source: String?
        var key: String?
        var entry: EntryView?
        var previous: EntryView?

        // Absent keys are written as null: a client reads one shape.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(outcome, forKey: .outcome)
            try c.encode(source, forKey: .source)
            try c.encode(key, forKey: .key)
            try c.encode(entry, forKey: .entry)
            try c.encode(previous, forKey: .previous)
        }

        enum CodingKeys: String, CodingKey { case outcome, source, key, entry, previous }
    }

    struct FiringView: Encodable {
        var rule: String
        var trigger: String
        var occurred: String
        var description: String
    }
}
