import GRDB
import TrackeeCore

extension Store {
    /// Takes a batch of pulled changes into the store, in one transaction
    /// that also moves the pull cursor past them. The changes made here
    /// are stamped first, so that each is weighed with the stamp it will
    /// carry; then the store reads what the batch concerns
    /// (``HubMergeInput``), `merge` decides every write (a pure function of
    /// that input), and the store makes them.
    public func hubApply(
        _ changes: [HubChange], through cursor: Int64, now: Instant, physical: Int64,
        merge: (HubMergeInput) -> HubMergeResult
    ) throws -> HubApplyReport {
        try write { db in
            try Self.stampPending(db)
            guard let device = try Row.fetchOne(db, sql: "SELECT name, clock FROM hub_device WHERE number IS NOT NULL")
            else { throw StoreError.hubNotJoined }
            var input = HubMergeInput(
                device: device[0], changes: changes, clock: Self.clock(device), physical: physical, now: now)
            var reader = HubMergeReader(db: db)
            try reader.read(&input)
            var plan: HubMergePlan
            while true {
                switch merge(input) {
                case .plan(let made):
                    plan = made
                case .needs(let needs):
                    guard needs.timerBornFrom < input.timerBornFrom else {
                        preconditionFailure("the merge asked again for what it was given")
                    }
                    try reader.timers(from: needs.timerBornFrom, into: &input)
                    continue
                }
                break
            }
            var writer = HubMergeWriter(db: db, now: now, loaded: Set(input.rows.keys).union(plan.rows.map(\.row)))
            try writer.apply(plan)
            try db.execute(sql: "UPDATE hub_device SET pulled = max(pulled, ?), clock = ?",
                           arguments: [cursor, plan.clock.description])
            // Every row is stamped now, or was pulled: the next stamping
            // starts after them. And when nothing made here waits to be
            // pushed, the next push looks from here on, not through what
            // was pulled since the last.
            try db.execute(sql: """
                UPDATE hub_device SET stamped = max(stamped, ifnull((SELECT max(seq) FROM journal), 0));
                UPDATE hub_device SET pushed = ifnull((SELECT max(seq) FROM journal), 0)
                WHERE NOT EXISTS (SELECT 1 FROM journal j WHERE j.seq > hub_device.pushed AND j.device IS NULL
                                  AND j.step <> 0 AND j.seq >= hub_device.first_seq);
                """)
            var report = plan.report
            report.conflicts = writer.conflicts
            return report
        }
    }
}
