import TrackeeCore
import TrackeeStore

/// The running timer and today's and this week's totals: `trackee status
/// --json` and `GET /v1/status`.
public struct StatusView: Encodable, Sendable {
    public var running: EntryView?
    public var elapsed_seconds: Int64?
    public var today_seconds: Int64
    public var week_seconds: Int64

    public init(running: EntryView?, elapsed_seconds: Int64?, today_seconds: Int64, week_seconds: Int64) {
        self.running = running
        self.elapsed_seconds = elapsed_seconds
        self.today_seconds = today_seconds
        self.week_seconds = week_seconds
    }
}

/// What a status shows, read from the store.
public struct StatusReading: Sendable {
    public var running: Entry?
    public var today: Int64
    public var week: Int64

    /// Reads the running entry and the totals of the day and the week
    /// (starting on `weekStart`) containing `now` in `zone`.
    public init(store: Store, zone: Zone, now: Instant, weekStart: Weekday) throws {
        running = try store.running()
        today = try store.total(in: zone.span(.day, containing: now), now: now)
        week = try store.total(in: zone.span(.week, containing: now, weekStart: weekStart), now: now)
    }

    public func view(zone: Zone, now: Instant) -> StatusView {
        StatusView(
            running: running.map { EntryView($0, zone: zone, now: now) },
            elapsed_seconds: running?.duration(now: now), today_seconds: today, week_seconds: week)
    }
}
