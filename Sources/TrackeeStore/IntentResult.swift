import TrackeeCore

/// What `Store.apply(_:now:)` did.
public struct IntentResult: Sendable, Equatable {
    public var outcome: Outcome
    /// The entry the intent is about: the one started or kept running, or
    /// the one stopped or cancelled. Nil when nothing was running to stop.
    public var entry: Entry?
    /// For `switched`: the entry that was saved before the new one started.
    public var previous: Entry?
    /// Clients and projects created on first use, as `client "X"` and
    /// `project "Y"`.
    public var created: [String]
    /// True when the key was already in the firing ledger: nothing changed
    /// and `outcome` is the first application's.
    public var replayed: Bool
    /// The intent log row written for this call.
    public var logID: Int64

    public init(outcome: Outcome, entry: Entry?, previous: Entry? = nil, created: [String] = [], replayed: Bool = false, logID: Int64) {
        self.outcome = outcome
        self.entry = entry
        self.previous = previous
        self.created = created
        self.replayed = replayed
        self.logID = logID
    }
}
