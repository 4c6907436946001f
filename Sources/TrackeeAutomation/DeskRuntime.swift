import TrackeeCore

/// The desk triggers' runtime: a change a desk watch reported (D-Bus,
/// udev, an event line) becomes the events the `idle`, `session`, `sleep`,
/// `network`, `power` and `device` rules see.
///
/// One type for every desk kind: a kind's report that is its own payload
/// (a ``DeskEdge``: the session, sleep, the network, power, a device) is
/// an edge of its subject's state; idleness, which keeps a period and
/// deadlines, is ``IdleRuntime``. A change that
/// repeats the last one of its kind (a second lock, a connection already
/// up) is no edge and makes nothing: a flood of signals fires once.
///
/// ```swift
/// var desk = DeskRuntime(idle: IdleRuntime(automation))
/// desk.take(.session(.locked), at: t)  // [session locked at t]
/// desk.take(.session(.locked), at: t + 5)  // []
/// ```
public struct DeskRuntime: Sendable {
    public var idle: IdleRuntime
    /// The last state of each thing a change is about (the session, a
    /// connection by its UUID or name, a device by its path).
    private var last: [String: String] = [:]

    public init(idle: IdleRuntime = IdleRuntime()) {
        self.idle = idle
    }

    /// The events of one change at `time`; none when it repeats the last.
    public mutating func take(_ event: DeskEvent, at time: Instant) -> [TriggerEvent] {
        switch event.report {
        case let report as IdleReport:
            return idle.take(report, at: time)
        case let edge as any DeskEdge:
            let (subject, state) = edge.edge
            guard last[subject] != state else { return [] }
            defer { last[subject] = state }
            return [Self.event(edge, after: last[subject], at: time)]
        default:
            return []
        }
    }

    /// `edge`'s event, told its subject's state before it.
    private static func event<Edge: DeskEdge>(_ edge: Edge, after previous: String?, at time: Instant) -> TriggerEvent {
        TriggerEvent(edge.following(previous), time: time)
    }

    /// Idle lengths reached by `now`.
    public mutating func due(now: Instant) -> [TriggerEvent] { idle.due(now: now) }

    /// When the next idle length is reached.
    public var nextDeadline: Instant? { idle.nextDeadline }
}
