/// A change of the machine at the desk, as a source reports it: idleness,
/// the screen lock, sleep, the network, the power supply, a device.
///
/// D-Bus watchers, the udev netlink monitor and event lines (`trackee run`'s
/// stdin, the HTTP API, `simulate`'s events files, a `swayidle` recipe) all
/// produce these; `DeskRuntime` in TrackeeAutomation turns them into trigger
/// events. What is reported is one ``DeskReport`` per kind, each in the
/// file of its payload; TrackeeDesk's `DeskKind.all` lists the kinds with
/// their watches. A source reports an edge once: a repeated signal with the
/// same state is not a second change.
///
/// ```swift
/// let change: DeskEvent = .session(.locked)
/// change.kindName  // "session"
/// ```
public struct DeskEvent: Sendable, Equatable {
    public var report: any DeskReport

    public init(_ report: some DeskReport) { self.report = report }

    /// The kind as rule files and event lines name it.
    public var kindName: String { type(of: report).kindName }

    public static func == (a: DeskEvent, b: DeskEvent) -> Bool { a.report.isEqual(to: b.report) }
}

/// What one kind of desk watch reports, and how an event line writes it.
public protocol DeskReport: Sendable, Equatable {
    /// The kind as event lines' `type` and rule files name it: `session`.
    static var kindName: String { get }
    /// The report an event line's fields describe. `type` and `time` are
    /// read before; a refusal names the field.
    static func read(_ line: EventFields) throws(EventFields.Failure) -> Self
}

extension DeskReport {
    /// Whether `other` is the same kind with the same values.
    public func isEqual(to other: any DeskReport) -> Bool { (other as? Self) == self }
}

/// How far the daemon has taken a source's own numbered history (a
/// TimeFlip2 cube's intervals): the number of the last change taken, when
/// it happened, and the series its numbers belong to. The store keeps one
/// per subject, so a watch reads only what came after it, after a restart
/// too.
public struct DeskCursor: Sendable, Equatable {
    /// What the numbers count: `flip:0C:61:CF:C7:77:71`.
    public var subject: String
    public var number: UInt32
    public var at: Instant
    /// How many times the source numbered from the start again (a cube
    /// reset or replaced): a change's number is unique within its series.
    public var series: UInt32

    public init(subject: String, number: UInt32, at: Instant, series: UInt32 = 0) {
        self.subject = subject
        self.number = number
        self.at = at
        self.series = series
    }

    /// Whether `other` stands after this cursor: in a later series, or in
    /// the same one later in time, then by number. The store keeps the
    /// later of the two, as ``later(_:_:)`` picks it.
    public func precedes(_ other: DeskCursor) -> Bool {
        (series, at, number) < (other.series, other.at, other.number)
    }

    /// The later of two cursors (either may be nil).
    public static func later(_ a: DeskCursor?, _ b: DeskCursor?) -> DeskCursor? {
        guard let a, let b else { return a ?? b }
        return a.precedes(b) ? b : a
    }
}

/// A report that is its own trigger payload: the new state of one subject
/// (the session, a connection, a device). A report that repeats its
/// subject's last state is no edge and fires nothing.
public protocol DeskEdge: DeskReport, TriggerPayload {
    /// What the change is about, and its state after it: `("session",
    /// "locked")`, `("network:<uuid>", "connected")`.
    var edge: (subject: String, state: String) { get }
    /// Where the change stands in its source's own numbered history, for
    /// the store to keep once it is taken; nil for most kinds.
    var cursor: DeskCursor? { get }
    /// The change, told the state its subject had before it (`edge.state`
    /// of the last change taken; nil: none since the start), for a kind
    /// whose rules fire on a crossing (a battery falling below a level).
    func following(_ previous: String?) -> Self
}

extension DeskEdge {
    public var kindName: String { Self.kindName }
    public var cursor: DeskCursor? { nil }
    public func following(_ previous: String?) -> Self { self }
}
