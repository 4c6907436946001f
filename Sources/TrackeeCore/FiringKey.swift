/// What makes a rule's firing happen once: the rule's id and the trigger
/// occurrence (a schedule's elapse, a focus change's number, a calendar
/// edge, a place transition). The store keeps it UNIQUE, so replays,
/// restarts and concurrent evaluators meet the same key.
///
/// The text forms are the ones every release has stored, so a ledger
/// written before this type existed still holds:
///
///     let key = FiringKey(rule: "office-hours", occurrence: "at:1795420800")
///     key.text         // "office-hours@at:1795420800"
///     key.intentKey(0) // "office-hours@at:1795420800#0"
public struct FiringKey: Sendable, Hashable {
    /// The rule's id: letters, digits, `-`, `_` and `.`, so it never holds
    /// the `@` that ends it.
    public var rule: String
    /// What identifies the occurrence within the rule.
    public var occurrence: String

    public init(rule: String, occurrence: String) {
        self.rule = rule
        self.occurrence = occurrence
    }

    /// `RULE@OCCURRENCE`, as the firing ledger keeps it.
    public var text: String { "\(rule)@\(occurrence)" }

    /// The idempotency key of the firing's action at `index` (in the rule's
    /// `do:` list): `RULE@OCCURRENCE#INDEX`, as the intent log keeps it.
    public func intentKey(_ index: Int) -> String { "\(text)#\(index)" }
}

extension FiringKey: CustomStringConvertible {
    public var description: String { text }
}

extension TriggerEvent {
    /// The key of `rule`'s firing on this event.
    public func firingKey(rule: String) -> FiringKey {
        FiringKey(rule: rule, occurrence: occurrence)
    }

    /// The key an older release gave `rule`'s firing on this event, where
    /// it differs (a calendar trigger's offset); the ledger honours both.
    public func formerFiringKey(rule: String) -> FiringKey? {
        formerOccurrence.map { FiringKey(rule: rule, occurrence: $0) }
    }
}
