import TrackeeCore

/// `idle: {for: 10m}`, `idle: ended` or `idle: {ended: true, after: 10m}`:
/// the user has been idle that long (once per idle period), or is active
/// again (after at least that long idle).
public struct IdleTrigger: DeskTrigger, Equatable {
    public enum Edge: Sendable, Equatable {
        /// Idleness reached this many seconds, more than 0.
        case reached(Int64)
        /// Activity again, after at least this many seconds idle (nil: any).
        case ended(after: Int64?)
    }

    public var edge: Edge

    public init(_ edge: Edge) { self.edge = edge }

    public var kindName: String { "idle" }

    public var index: TriggerIndex {
        switch edge {
        case .reached(let seconds): .key(IdleEdge.indexKey(threshold: seconds))
        case .ended: .key(IdleEdge.endedIndexKey)
        }
    }

    public func accepts(_ event: TriggerEvent, zone: Zone) -> Bool {
        switch (edge, event.payload as? IdleEdge) {
        case (.reached(let wanted), .reached(_, let threshold)?): wanted == threshold
        case (.ended(let after), .ended(_, let duration)?): duration >= after ?? 0
        default: false
        }
    }

    /// `{"idle": "for", "for": "10m"}`, `{"idle": "ended", "after": "10m"}`;
    /// `idle for 10m`, `idle ended after 10m or more`.
    public func checkView(ahead: [TriggerEvent]?, enabled: Bool, zone: Zone) -> TriggerCheckView {
        switch edge {
        case .reached(let seconds):
            return TriggerCheckView(fields: ["idle": .text("for"), "for": .text(durationText(seconds))],
                                    text: "idle for \(durationText(seconds))")
        case .ended(let after):
            guard let after else { return TriggerCheckView(fields: ["idle": .text("ended")], text: "idle ended") }
            return TriggerCheckView(fields: ["idle": .text("ended"), "after": .text(durationText(after))],
                                    text: "idle ended after \(durationText(after)) or more")
        }
    }
}

extension RuleTrigger where Self == IdleTrigger {
    public static func idle(_ edge: IdleTrigger.Edge) -> IdleTrigger { IdleTrigger(edge) }
}

extension TriggerKind {
    static let idle = TriggerKind(
        key: "idle", options: [], fields: ["state", "idle_since", "idle_duration", "threshold"],
        timeFields: ["idle_since"]
    ) { fields, reader in
        guard let value = fields["idle"] else { return nil }
        guard case .mapping = value.node else {
            guard let word = reader.string(value) else { return nil }
            if word == "ended" { return IdleTrigger(.ended(after: nil)) }
            if (try? parseDuration(word)) != nil {
                reader.fail("a length of idleness goes under for: write idle: {for: \(word)}", at: value)
            } else {
                reader.failUnknown(word, at: value, noun: "idle edge", known: ["ended", "{for: DURATION}"])
            }
            return nil
        }
        guard let keys = reader.fields(value, known: ["for", "ended", "after"]) else { return nil }
        if let length = keys["for"] {
            if let other = keys["ended"] ?? keys["after"] {
                reader.fail("{for: …} and {ended: true, after: …} are two triggers; make each its own list item", at: other)
                return nil
            }
            return reader.positiveDuration(length, "idleness").map { IdleTrigger(.reached($0)) }
        }
        guard let ended = keys["ended"] else {
            reader.fail("expected {for: DURATION} or {ended: true, after: DURATION}, such as {for: 10m}", at: value)
            return nil
        }
        guard let flag = reader.bool(ended) else { return nil }
        guard flag else {
            reader.fail("ended: takes true; for idleness itself write {for: DURATION}", at: ended)
            return nil
        }
        guard let after = keys["after"] else { return IdleTrigger(.ended(after: nil)) }
        return reader.positiveDuration(after, "after:").map { IdleTrigger(.ended(after: $0)) }
    }
}
