/// `flip:` events: the TimeFlip2 cube on the desk turned to a facet,
/// paused or resumed by a double tap, or its battery's charge.
///
/// A flip or a pause begins an interval the cube numbers in its own
/// history; the event is keyed by that number (`event`) in its series
/// (how many times the cube was found numbering from 1 again), so a flip
/// seen live and again in the history, a second connection or a restart
/// fires nothing twice, and a reset cube's new intervals are not taken for
/// old ones. A change without a number (an event line without `event`) is
/// keyed by its time.
public struct FlipEdge: DeskEdge {
    public enum Change: Sendable, Equatable {
        /// Running on `facet` (1–12): a flip to it, or the end of a pause
        /// while on it.
        case facet(Int)
        /// Paused by a double tap while on `facet`.
        case paused(facet: Int)
        /// The battery's charge in percent, and the last one known before
        /// (nil: none since the daemon started).
        case battery(percent: Int, previous: Int?)
    }

    /// The cube's Bluetooth address, such as `0C:61:CF:C7:77:71`.
    public var device: String
    public var change: Change
    /// The cube's number of the interval this change began; nil for the
    /// battery, and for an event line that gives none.
    public var event: UInt32?
    /// When the cube says the interval began (its clock, corrected); the
    /// event's time. Nil for the battery.
    public var flippedAt: Instant?
    /// The series `event` is numbered in (``DeskCursor/series``).
    public var series: UInt32

    public init(device: String, _ change: Change, event: UInt32? = nil, flippedAt: Instant? = nil, series: UInt32 = 0) {
        self.device = device
        self.change = change
        self.event = event
        self.flippedAt = flippedAt
        self.series = series
    }

    public static let kindName = "flip"
    public static let pausedIndexKey = "flip:paused"
    public static let batteryIndexKey = "flip:battery"
    public static func indexKey(facet: Int) -> String { "flip:facet:\(facet)" }

    public var indexKey: String {
        switch change {
        case .facet(let facet): Self.indexKey(facet: facet)
        case .paused: Self.pausedIndexKey
        case .battery: Self.batteryIndexKey
        }
    }

    /// The facet up, for a flip or a pause.
    public var facet: Int? {
        switch change {
        case .facet(let facet), .paused(let facet): facet
        case .battery: nil
        }
    }

    public func occurrence(at time: Instant) -> String {
        let cube = "flip:\(keyPart(device))"
        if case .battery(let percent, _) = change { return "\(cube):battery:\(percent):\(time.seconds)" }
        guard let event else { return "\(cube):at:\(time.seconds)" }
        return series == 0 ? "\(cube):\(event)" : "\(cube):s\(series):\(event)"
    }

    public func fields(zone: Zone) -> [String: String] {
        var fields = [
            "device": device, "event": event.map { String($0) } ?? "", "facet": facet.map { String($0) } ?? "",
            "flipped_at": flippedAt.map(zone.iso8601) ?? "", "battery": "",
        ]
        switch change {
        case .facet: fields["state"] = "running"
        case .paused: fields["state"] = "paused"
        case .battery(let percent, _):
            fields["state"] = "battery"
            fields["battery"] = String(percent)
        }
        return fields
    }

    /// `flip 3 on 0C:61:CF:C7:77:71`, `flip paused on 3 on …`, `flip battery
    /// 18% on …`: the facet and the cube, as history shows the trigger.
    public var summary: String {
        switch change {
        case .facet(let facet): "flip \(facet) on \(device)"
        case .paused(let facet): "flip paused on \(facet) on \(device)"
        case .battery(let percent, _): "flip battery \(percent)% on \(device)"
        }
    }

    /// The interval's number and start, once the daemon has taken it.
    public var cursor: DeskCursor? {
        guard let event, let flippedAt else { return nil }
        return DeskCursor(subject: Self.cursorSubject(device: device), number: event, at: flippedAt, series: series)
    }

    /// A battery reading without the one before (an event line's) takes
    /// the last one the runtime saw, so a rule fires on a fall below its
    /// level once.
    public func following(_ previous: String?) -> FlipEdge {
        guard case .battery(let percent, nil) = change, let previous, let before = Int(previous) else { return self }
        var copy = self
        copy.change = .battery(percent: percent, previous: before)
        return copy
    }

    /// What the store keeps a cube's cursor under.
    public static func cursorSubject(device: String) -> String { "flip:" + device.uppercased() }

    /// A cube's facet and pause are one state; its battery another.
    public var edge: (subject: String, state: String) {
        switch change {
        case .facet(let facet): ("flip:" + device, "facet:\(facet)")
        case .paused(let facet): ("flip:" + device, "paused:\(facet)")
        case .battery(let percent, _): ("flip:" + device + ":battery", String(percent))
        }
    }

    /// `{"type":"flip","facet":3}`, `{"type":"flip","facet":3,"state":"paused"}`,
    /// `{"type":"flip","battery":18}`; `device` (the cube's address) and
    /// `event` (the cube's number of the interval) may be given.
    public static func read(_ line: EventFields) throws(EventFields.Failure) -> FlipEdge {
        typealias Failure = EventFields.Failure
        let device = try line.text("device") ?? "cube"
        var event: UInt32?
        if line["event"] != nil {
            guard let number = line.integer("event"), number >= 0, number <= Int(UInt32.max) else {
                throw Failure("\"event\" must be a whole number, the cube's number of the interval")
            }
            event = UInt32(number)
        }
        if line["battery"] != nil {
            guard let percent = line.integer("battery"), (0...100).contains(percent) else {
                throw Failure("\"battery\" must be a whole number from 0 to 100")
            }
            if line["facet"] != nil { throw Failure("give \"facet\" or \"battery\", not both") }
            return FlipEdge(device: device, .battery(percent: percent, previous: nil))
        }
        guard let facet = line.integer("facet"), (1...12).contains(facet) else {
            throw Failure("\"facet\" must be a whole number from 1 to 12")
        }
        let state: FlipState = try line.word("state", default: .running)
        return FlipEdge(device: device, state == .paused ? .paused(facet: facet) : .facet(facet), event: event,
                        flippedAt: line.read)
    }
}

/// Whether the cube is counting time on its facet or paused.
public enum FlipState: String, Sendable, Equatable, CaseIterable {
    case running, paused
}

extension TriggerPayload where Self == FlipEdge {
    public static func flip(device: String, _ change: FlipEdge.Change, event: UInt32? = nil, flippedAt: Instant? = nil,
                            series: UInt32 = 0) -> FlipEdge {
        FlipEdge(device: device, change, event: event, flippedAt: flippedAt, series: series)
    }
}

extension DeskEvent {
    public static func flip(device: String, _ change: FlipEdge.Change, event: UInt32? = nil, flippedAt: Instant? = nil,
                            series: UInt32 = 0) -> DeskEvent {
        DeskEvent(FlipEdge(device: device, change, event: event, flippedAt: flippedAt, series: series))
    }
}
