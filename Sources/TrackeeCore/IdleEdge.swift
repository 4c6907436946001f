/// `idle:` events: the user's idleness reached a length a rule waits for,
/// or ended.
///
/// Both are keyed by the moment idleness began (logind's `IdleSinceHint`,
/// an event line's `since`), so a source that reports the same idle period
/// again, or a daemon that restarts in it, fires nothing twice.
public enum IdleEdge: TriggerPayload {
    /// Idle since `since` for `threshold` seconds; the event's time is
    /// `since + threshold`.
    case reached(since: Instant, threshold: Int64)
    /// Active again after `duration` seconds idle; the event's time is
    /// `since + duration`, the moment activity came back.
    case ended(since: Instant, duration: Int64)

    /// Rules waiting for exactly this length of idleness.
    public static func indexKey(threshold: Int64) -> String { "idle:for:\(threshold)" }
    public static let endedIndexKey = "idle:ended"

    public var kindName: String { "idle" }

    public var since: Instant {
        switch self {
        case .reached(let since, _), .ended(let since, _): since
        }
    }

    /// How long the user was idle at the event.
    public var duration: Int64 {
        switch self {
        case .reached(_, let threshold): threshold
        case .ended(_, let duration): duration
        }
    }

    /// When the event happened.
    public var time: Instant { since + duration }

    public var indexKey: String {
        switch self {
        case .reached(_, let threshold): Self.indexKey(threshold: threshold)
        case .ended: Self.endedIndexKey
        }
    }

    public func occurrence(at time: Instant) -> String {
        switch self {
        case .reached(let since, let threshold): "idle:\(since.seconds):for:\(threshold)"
        case .ended(let since, _): "idle:\(since.seconds):ended"
        }
    }

    public func fields(zone: Zone) -> [String: String] {
        var fields = ["idle_since": zone.iso8601(since), "idle_duration": formatDuration(duration, .human)]
        switch self {
        case .reached(_, let threshold):
            fields["state"] = "idle"
            fields["threshold"] = formatDuration(threshold, .human)
        case .ended:
            fields["state"] = "active"
            fields["threshold"] = ""
        }
        return fields
    }

    /// `idle 10m`, `active after 12m idle`: descriptions add the event's
    /// time in the rules' zone, and idleness began that length before it.
    public var summary: String {
        switch self {
        case .reached(_, let threshold): "idle \(formatDuration(threshold, .human))"
        case .ended(_, let duration): "active after \(formatDuration(duration, .human)) idle"
        }
    }
}

extension TriggerPayload where Self == IdleEdge {
    public static func idleReached(since: Instant, threshold: Int64) -> IdleEdge { .reached(since: since, threshold: threshold) }
    public static func idleEnded(since: Instant, duration: Int64) -> IdleEdge { .ended(since: since, duration: duration) }
}
