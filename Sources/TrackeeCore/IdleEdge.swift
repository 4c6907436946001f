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

/// What an idle watch reports: the user went idle at `since` (reported
/// when the source noticed, which may be later: Mutter's watch fires after
/// its interval), or is active again (`since` is when the idleness began,
/// when the source knows it). The idle rules' events (``IdleEdge``) are
/// made from these by the runtime's `IdleRuntime`, which keeps the period.
public enum IdleReport: DeskReport {
    case idle(since: Instant)
    case active(since: Instant?)

    public static let kindName = "idle"

    /// `{"type":"idle","since":"09:50"}`, `{"type":"idle","idle_for":60}`
    /// (since 60 s before the line's time), `{"type":"idle","state":"active"}`
    /// (`since` optional).
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> IdleReport {
        typealias Failure = EventFields.Failure
        let since = try line.time("since")
        switch line.string("state") ?? (line["state"] == nil ? "idle" : "") {
        case "active":
            if line["idle_for"] != nil { throw Failure("\"idle_for\" goes with an idle line, not an active one") }
            return .active(since: since)
        case "idle":
            if let since {
                if line["idle_for"] != nil { throw Failure("give \"since\" or \"idle_for\", not both") }
                return .idle(since: since)
            }
            guard let seconds = line.integer("idle_for"), seconds >= 0 else {
                throw Failure("an idle line needs \"since\" (a time) or \"idle_for\" (whole seconds, 0 or more)")
            }
            return .idle(since: line.read - Int64(seconds))
        default:
            throw Failure("\"state\" must be \"idle\" or \"active\"")
        }
    }
}

extension DeskEvent {
    public static func idle(since: Instant) -> DeskEvent { DeskEvent(IdleReport.idle(since: since)) }
    public static func active(since: Instant?) -> DeskEvent { DeskEvent(IdleReport.active(since: since)) }
}
