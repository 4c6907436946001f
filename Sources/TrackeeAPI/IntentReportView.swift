import TrackeeCore
import TrackeeStore

/// What an intent did, as `trackee start --json` prints it and
/// `POST /v1/start|stop|cancel` answers.
public struct IntentReportView: Encodable, Sendable {
    public var outcome: String
    public var replayed: Bool
    public var key: String?
    public var entry: EntryView?
    public var previous: EntryView?
    public var created: [String]

    /// The report of `result`, for an intent under `key`.
    public init(_ result: IntentResult, key: String?, zone: Zone, now: Instant) {
        outcome = result.outcome.rawValue
        replayed = result.replayed
        self.key = key
        entry = result.entry.map { EntryView($0, zone: zone, now: now) }
        previous = result.previous.map { EntryView($0, zone: zone, now: now) }
        created = result.created
    }
}
