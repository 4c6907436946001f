import TrackeeCore
import TrackeeRules
import TrackeeStore

/// The runtime half of a trigger kind fed by applied intents (a timer
/// started or stopped, whoever applied it): its trigger type turns one
/// applied intent into events, so ``Automation`` finds every such kind
/// through the conformance, without a list of kinds.
protocol IntentTrigger: RuleTrigger {
    /// The events `applied` makes for this kind; usually none or one.
    static func events(_ applied: LoggedIntent) -> [TriggerEvent]
}

extension Automation {
    /// Whether any enabled rule waits for an intent-fed kind: when none
    /// does, applied intents are not looked at.
    public var watchesIntents: Bool { !intentKinds.isEmpty }

    /// The events `applied` makes, over every intent-fed kind the rules use.
    func events(_ applied: LoggedIntent) -> [TriggerEvent] {
        intentKinds.flatMap { $0.events(applied) }
    }

    /// The intent-fed kinds some enabled rule uses, in first-use order.
    static func intentKinds(_ rules: [Rule]) -> [any IntentTrigger.Type] {
        var kinds: [any IntentTrigger.Type] = []
        for rule in rules where rule.enabled {
            for case let trigger as any IntentTrigger in rule.triggers {
                let kind = type(of: trigger)
                if !kinds.contains(where: { $0 == kind }) { kinds.append(kind) }
            }
        }
        return kinds
    }
}

extension Runner {
    /// The cursor over the intent log, in the watermark table: the id of
    /// the last intent looked at.
    public static let intentCursor = "intents"

    /// Fires the rules that intents applied since the cursor (by `trackee
    /// start`, `stop` and other processes that run no rules) wait for, then
    /// moves the cursor past them. The first run only sets the cursor.
    /// Intents a rule made were handled by the process that applied them
    /// (``handleApplied(_:automation:now:)``), so they are passed over
    /// here; keys in the ledger keep anything from firing twice.
    @discardableResult
    public func catchUpIntents(_ automation: Automation, now: Instant) throws -> [Report] {
        guard automation.watchesIntents else { return [] }
        guard let cursor = try store.watermark(Runner.intentCursor) else {
            try store.advanceWatermark(Runner.intentCursor, to: Instant(seconds: try store.lastIntentID()))
            return []
        }
        var reports: [Report] = []
        var last = cursor.seconds
        while true {
            let logged = try store.loggedIntents(after: last)
            guard let final = logged.last else { break }
            for applied in logged where applied.source?.rule == nil {
                for event in automation.events(applied) {
                    reports += try handle(event, automation: automation, now: now, cascade: false)
                }
            }
            last = final.id
            try store.advanceWatermark(Runner.intentCursor, to: Instant(seconds: last))
        }
        return reports
    }

    /// The rules that the intents a firing just applied wait for. Not
    /// called for a firing on an event that intents made: that is where a
    /// loop (a rule on `started` that starts a timer) is cut.
    func handleApplied(_ applied: [LoggedIntent], automation: Automation, now: Instant) throws -> [Report] {
        guard automation.watchesIntents else { return [] }
        var reports: [Report] = []
        for intent in applied {
            for event in automation.events(intent) {
                reports += try handle(event, automation: automation, now: now, cascade: false)
            }
        }
        return reports
    }
}
