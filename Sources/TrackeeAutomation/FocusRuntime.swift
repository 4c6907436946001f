import TrackeeCore
import TrackeeStore

/// Focus triggers' runtime: a change the store recorded becomes the events
/// rules see. The store keeps changes; only this makes them events.
public enum FocusRuntime {
    /// The previous mode going off, then the new one coming on; both share
    /// the change's sequence number, so each fires a rule once.
    public static func events(_ change: FocusChange) -> [TriggerEvent] {
        var events: [TriggerEvent] = []
        if let previous = change.previous {
            events.append(TriggerEvent(.focus(mode: previous, state: .off, sequence: change.sequence), time: change.at))
        }
        if let mode = change.mode {
            events.append(TriggerEvent(.focus(mode: mode, state: .on, sequence: change.sequence), time: change.at))
        }
        return events
    }
}

/// Focus triggers (`focus: MODE`, `state: on|off`): how a focus change
/// reaches the rules, from `trackee focus`, from event lines (`trackee
/// run`, `simulate --events`), and from other processes between two daemon
/// passes.
extension Runner {
    /// What a request to turn a mode on or off came to.
    public enum FocusOutcome: Sendable {
        /// The focus changed; these rules fired.
        case changed(FocusChange, [Report])
        /// That mode was already on, or no mode was on to clear.
        case unchanged
        /// `mode` off while another mode (or none) is on: only the mode that
        /// is on can be switched off. Carries the mode that is on.
        case notOn(current: String?)
    }

    /// `mode` on (replacing any other) or off (only if it is the one on),
    /// firing the focus rules the change triggers. A line with its own time
    /// passes a `key`, so a replay changes nothing.
    public func focus(
        _ mode: String, _ state: FocusState, automation: Automation, at: Instant, source: ChangeSource,
        key: FocusLineKey? = nil
    ) throws -> FocusOutcome {
        var target: String? = mode
        if state == .off {
            let current = try store.focus().mode
            guard current?.lowercased() == mode.lowercased() else { return .notOn(current: current) }
            target = nil
        }
        let (change, reports) = try setFocus(target, automation: automation, at: at, source: source, key: key)
        return change.map { .changed($0, reports) } ?? .unchanged
    }

    /// Turns a focus mode on (`mode`, replacing any other) or clears it
    /// (nil), and fires the focus rules the change triggers. A repeat of the
    /// mode already on changes and fires nothing.
    public func setFocus(
        _ mode: String?, automation: Automation, at: Instant, source: ChangeSource, key: FocusLineKey? = nil
    ) throws -> (FocusChange?, [Report]) {
        guard let change = try store.setFocus(mode, at: at, source: source, key: key) else { return (nil, []) }
        var reports: [Report] = []
        for event in FocusRuntime.events(change) {
            reports += try handle(event, automation: automation, now: at)
        }
        return (change, reports)
    }

    /// Fires focus rules for every change after sequence `after` that is in
    /// the store; a change already handled elsewhere (`trackee focus set`)
    /// meets its keys in the ledger and fires nothing again.
    public func catchUpFocus(after sequence: Int64, automation: Automation, now: Instant) throws -> Int64 {
        let changes = try store.focusChanges(after: sequence)
        for change in changes {
            for event in FocusRuntime.events(change) {
                _ = try handle(event, automation: automation, now: now)
            }
        }
        return changes.last?.sequence ?? sequence
    }
}
