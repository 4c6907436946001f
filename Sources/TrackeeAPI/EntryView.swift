import TrackeeCore

/// The JSON form of an entry, shared by the CLI's `--json` output and the
/// HTTP API. Field names are part of the documented interface (trackee(1),
/// JSON OUTPUT, and openapi.json); add fields, never rename them.
public struct EntryView: Encodable, Sendable {
    public var id: Int64
    public var project: String?
    public var client: String?
    public var description: String
    public var tags: [String]
    public var start: String
    public var end: String?
    public var duration_seconds: Int64
    public var running: Bool
    public var source: String
    public var billable: Bool

    /// Times are written in `zone`; a running entry's duration runs to `now`.
    public init(_ e: Entry, zone: Zone, now: Instant) {
        id = e.id
        project = e.project
        client = e.client
        description = e.description
        tags = e.tags
        start = zone.iso8601(e.start)
        end = e.end.map(zone.iso8601)
        duration_seconds = e.duration(now: now)
        running = e.isRunning
        source = e.source
        billable = e.billable
    }
}
