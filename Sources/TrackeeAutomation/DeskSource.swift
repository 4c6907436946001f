import TrackeeCore

/// The desk triggers' source: a change a desk source reported (D-Bus,
/// udev, an event line) becomes the events the `idle`, `session`, `sleep`,
/// `network`, `power` and `device` rules see.
///
/// One type for the six kinds, because five are one line each; idleness,
/// which keeps a period and deadlines, is ``IdleSource``. A change that
/// repeats the last one of its kind (a second lock, a connection already
/// up) is no edge and makes nothing: a flood of signals fires once.
///
/// ```swift
/// var desk = DeskSource(idle: IdleSource(automation))
/// desk.take(.session(.locked), at: t)  // [session locked at t]
/// desk.take(.session(.locked), at: t + 5)  // []
/// ```
public struct DeskSource: Sendable {
    public var idle: IdleSource
    /// The last state of each thing a change is about (the session, a
    /// connection by its UUID or name, a device by its path).
    private var last: [String: String] = [:]

    public init(idle: IdleSource = IdleSource()) {
        self.idle = idle
    }

    /// The events of one change at `time`; none when it repeats the last.
    public mutating func take(_ event: DeskEvent, at time: Instant) -> [TriggerEvent] {
        let edge: (subject: String, state: String, payload: any TriggerPayload)
        switch event {
        case .idle, .active:
            return idle.take(event, at: time)
        case .session(let state):
            edge = ("session", state.rawValue, SessionEdge(state))
        case .sleep(let state):
            edge = ("sleep", state.rawValue, SleepEdge(state))
        case .power(let state):
            edge = ("power", state.rawValue, PowerEdge(state))
        case .network(let change):
            edge = ("network:" + (change.uuid ?? change.connection), change.state.rawValue, NetworkEdge(change))
        case .device(let change):
            edge = ("device:" + change.devpath, change.action.rawValue, DeviceEdge(change))
        }
        guard last[edge.subject] != edge.state else { return [] }
        last[edge.subject] = edge.state
        return [TriggerEvent(edge.payload, time: time)]
    }

    /// Idle lengths reached by `now`.
    public mutating func due(now: Instant) -> [TriggerEvent] { idle.due(now: now) }

    /// When the next idle length is reached.
    public var nextDeadline: Instant? { idle.nextDeadline }
}
