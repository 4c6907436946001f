import GRDB
import TrackeeCore

extension Store {
    /// Ensures a timer runs for what an entry tracked: its project,
    /// description and tags, as `timew continue` and `watson restart` do.
    ///
    /// `id` names the entry; without it, the running timer if one runs
    /// (so continuing changes nothing), else the entry that ended last.
    /// The entry becomes a start intent applied by ``apply(_:now:)`` in the
    /// same transaction as the lookup, so the ensure semantics hold:
    /// `unchanged` when that timer already runs, `switched` when another
    /// does.
    ///
    ///     try store.apply(continuing: 12, at: now, source: .cli, key: nil, now: now)
    public func apply(continuing id: Int64?, at: Instant, source: ChangeSource, key: String?, now: Instant) throws
        -> IntentResult
    {
        try write { db in
            let entry: Entry
            if let id {
                entry = try self.entry(db, id: id)
            } else {
                guard let last = try Row.fetchOne(db, sql: Store.entrySelect + """
                     ORDER BY e."end" IS NULL DESC, e."end" DESC, e.id DESC LIMIT 1
                    """).map(Store.entry(from:))
                else { throw StoreError.nothingToContinue }
                entry = last
            }
            return try apply(db, Intent(.start(entry.parameters), at: at, source: source, key: key), now: now, newProjects: .refuse)
        }
    }
}
