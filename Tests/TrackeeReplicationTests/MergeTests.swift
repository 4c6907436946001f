import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeReplication
@testable import TrackeeStore

/// The merge through `Store.hubApply`, with changes as a pull brings them
/// (decoded as `hub sync` decodes them).
@Suite struct MergeTests {
    static let at = Instant(seconds: 1_795_000_000)

    /// A stamp at `second` past `at`, from `device`.
    static func stamp(_ second: Int64, _ device: String) -> String {
        HybridStamp(wall: (at.seconds + second) * 1000, counter: 0, device: device).description
    }

    /// Change `id` of the hub: fields of a row (entry 2002 unless told),
    /// written at `second`.
    static func change(
        _ id: Int64, _ second: Int64, _ device: String, kind: String = "entry", row: Int64 = 2002, _ fields: String
    ) -> HubIncomingChange {
        HubIncomingChange(
            id: id, device: device, clock: stamp(second, device), kind: kind,
            body: #"{"id":\#(row),"fields":{\#(fields)}}"#)
    }

    /// A store joined to the hub as device 1.
    static func joined() throws -> TemporaryStore {
        let t = try TemporaryStore()
        _ = try t.store.hubIdentity(name: "laptop")
        try t.store.hubJoin(number: 1, now: at)
        return t
    }

    static let made = #""_exists":1,"project_id":null,"description":"first","tags":"","start":1795000000,"end":1795003600,"source":"cli","created":1795003600,"updated":1795003600"#

    func apply(_ t: TemporaryStore, _ changes: [HubIncomingChange]) throws -> HubApplyReport {
        let batch = PulledBatch(changes)
        #expect(batch.warnings == [])
        return try t.store.hubApply(
            batch.changes, through: changes.last!.id, now: Self.at, physical: Self.at.seconds * 1000, merge: Merge.run)
    }

    /// The entry's description and tags, whether one `hub_row` keeps the
    /// change that made it, and the fields written since.
    func state(_ t: TemporaryStore) throws -> [String?] {
        try t.store.peek { db in
            let row = try Row.fetchOne(db, sql: "SELECT description, tags FROM entry WHERE id = 2002")
            let rows = try Int.fetchOne(db, sql: "SELECT count(*) FROM hub_row WHERE row_id = 2002") ?? 0
            let fields = try String.fetchAll(
                db, sql: "SELECT DISTINCT field FROM hub_write WHERE row_id = 2002 ORDER BY field")
            return [row?["description"], row?["tags"], "\(rows) row", fields.joined(separator: ",")]
        }
    }

    /// A row a pull makes whole is one `hub_row`; a field written since is
    /// a `hub_write` row, and so is a write older than the field's newest,
    /// which is kept but loses. Either way each field's newest write wins,
    /// as if every field had its own row.
    @Test func eachFieldKeepsItsNewestWriteWhereverItIsKept() throws {
        let t = try Self.joined()
        // Made on the desktop at 10 s: one hub_row, no field rows.
        #expect(try apply(t, [Self.change(1, 10, "desktop", Self.made)]).applied == 1)
        #expect(try state(t) == ["first", "", "1 row", ""])
        // An edit stamped before it was made changes nothing.
        var report = try apply(t, [Self.change(2, 5, "phone", #""description":"older""#)])
        #expect(report.superseded == 1 && report.applied == 0, "\(report)")
        #expect(try state(t) == ["first", "", "1 row", "description"])
        // A later edit is a field row, and wins.
        #expect(try apply(t, [Self.change(3, 30, "phone", #""description":"newer""#)]).applied == 1)
        #expect(try state(t) == ["newer", "", "1 row", "description"])
        // Between the two: its description loses to the field row, its
        // tags win over the hub_row.
        report = try apply(t, [Self.change(4, 20, "tablet", #""description":"between","tags":"x""#)])
        #expect(report.applied == 1, "\(report)")
        #expect(try state(t) == ["newer", "x", "1 row", "description,tags"])
        // A delete, and then the making change again (a late copy): the
        // tombstone is newer, so the entry stays gone.
        #expect(try apply(t, [Self.change(5, 40, "desktop", #""_exists":0"#)]).applied == 1)
        #expect(try state(t) == [nil, nil, "1 row", "_exists,description,tags"])
        report = try apply(t, [Self.change(6, 10, "desktop", Self.made)])
        #expect(report.superseded == 1, "\(report)")
        #expect(try state(t) == [nil, nil, "1 row", "_exists,description,tags"])
        // An undo of the delete, newer still, brings back the newest values.
        #expect(try apply(t, [Self.change(7, 50, "desktop", #""_exists":1"#)]).applied == 1)
        #expect(try state(t) == ["newer", "x", "1 row", "_exists,description,tags"])
    }

    @Test func theSameRowTwiceInABatchGoesOneByOne() throws {
        let t = try Self.joined()
        // Made, then edited, in one pull: not the fast path (two changes
        // to one row), so the making is a write of each field too.
        let report = try apply(t, [
            Self.change(1, 10, "desktop", Self.made), Self.change(2, 20, "desktop", #""description":"second""#),
        ])
        #expect(report.applied == 2, "\(report)")
        #expect(try state(t) == ["second", "", "0 row",
                                 "_exists,created,description,end,project_id,source,start,tags,updated"])
    }

    /// Every order of `changes`, one pull each, on a fresh store.
    static func orders(_ n: Int) -> [[Int]] {
        guard n > 1 else { return [[0]] }
        return orders(n - 1).flatMap { order in (0...order.count).map { i in
            var next = order
            next.insert(n - 1, at: i)
            return next
        } }
    }

    /// What the store shows of its entries, projects and maps.
    func seen(_ t: TemporaryStore) throws -> [String] {
        try t.store.peek { db in
            try Row.fetchAll(db, sql: """
                SELECT 'entry ' || e.id || ': ' || ifnull(p.name, '-') FROM entry e LEFT JOIN project p ON p.id = e.project_id
                UNION ALL SELECT 'project ' || id || ': ' || name FROM project
                UNION ALL SELECT 'alias ' || alias || ' of ' || canonical FROM hub_alias
                ORDER BY 1
                """).map { $0[0] as String }
        }
    }

    static let standup = #""_exists":1,"client_id":null,"name":"Standup","type":null,"billable":0,"rate_cents":null,"created":0"#
    /// Project `row` named Standup, made at `second`.
    static func standup(_ id: Int64, _ second: Int64, _ device: String, _ row: Int64) -> HubIncomingChange {
        change(id, second, device, kind: "project", row: row, standup)
    }
    /// Entry 27001, made at 30 s, of project `project`.
    static let entry = change(3, 30, "laptop", row: 27001, made.replacingOccurrences(
        of: #""project_id":null"#, with: #""project_id":5001"#))

    /// Two devices made a project of one name: the smaller id stands for
    /// both, and the maps follow from the fields alone, so every order of
    /// the same changes ends alike: when the kept one is deleted, the
    /// other is a project again; when the other is deleted, what referred
    /// to it has no project; brought back, it is the kept one's alias
    /// again; renamed, it is a project of its own.
    @Test(arguments: [
        ("the kept one deleted", [Self.change(4, 40, "phone", kind: "project", row: 2003, #""_exists":0"#)],
         ["entry 27001: Standup", "project 5001: Standup"]),
        ("the other deleted", [Self.change(4, 40, "laptop", kind: "project", row: 5001, #""_exists":0"#)],
         ["entry 27001: -", "project 2003: Standup"]),
        ("the other deleted and brought back", [
            Self.change(4, 40, "laptop", kind: "project", row: 5001, #""_exists":0"#),
            Self.change(5, 50, "laptop", kind: "project", row: 5001, #""_exists":1"#),
        ], ["alias 5001 of 2003", "entry 27001: Standup", "project 2003: Standup"]),
        ("the other renamed", [Self.change(4, 40, "laptop", kind: "project", row: 5001, #""name":"Meetings""#)],
         ["entry 27001: Meetings", "project 2003: Standup", "project 5001: Meetings"]),
        ("the kept one renamed", [Self.change(4, 40, "phone", kind: "project", row: 2003, #""name":"Meetings""#)],
         ["entry 27001: Standup", "project 2003: Meetings", "project 5001: Standup"]),
    ])
    func twinProjectsEndAlikeInEveryOrder(what: String, then: [HubIncomingChange], expected: [String]) throws {
        let changes = [Self.standup(1, 10, "phone", 2003), Self.standup(2, 20, "laptop", 5001), Self.entry] + then
        var endings: [[String]: [[Int]]] = [:]
        for order in Self.orders(changes.count) {
            let t = try Self.joined()
            for (n, i) in order.enumerated() {
                var change = changes[i]
                change.id = Int64(n + 1)
                _ = try apply(t, [change])
            }
            endings[try seen(t), default: []].append(order)
        }
        #expect(endings.keys.map { $0 } == [expected], "\(what): \(endings.mapValues { $0.prefix(3) })")
    }

    /// An intent without a key travels as its log row: kept to be pushed
    /// when applied here, entered once (naming its device) when pulled,
    /// and left out of what this store's own daemon reacts to.
    @Test func anIntentWithoutAKeyIsPushedAndPulledAsItsLogRow() throws {
        let t = try Self.joined()
        let started = try t.store.apply(Intent(.start(TimerParameters(project: "Docs")), at: Self.at), now: Self.at)
        let kept = try t.store.peek { db in
            try String.fetchAll(db, sql: "SELECT kind || ' ' || key || ' ' || json_extract(body, '$.action') FROM hub_key")
        }
        #expect(kept == ["log \(started.logID) start"])
        let outgoing = try t.store.hubOutgoing(limit: 10).filter { $0.kind == "key" }
        #expect(outgoing.count == 1 && outgoing[0].body.contains(#""kind":"log""#), "\(outgoing)")

        let row = #"{"applied":1795000060,"at":1795000050,"source":"cli","action":"stop","parameters":"{}","outcome":"stopped","entry_id":1002,"previous_entry_id":null,"key":null,"firing":null}"#
        let pulled = HubIncomingChange(
            id: 1, device: "desktop", clock: Self.stamp(60, "desktop"), kind: "key",
            body: #"{"key":"7","kind":"log","row":\#(row),"made":[]}"#)
        #expect(try apply(t, [pulled]).applied == 1)
        // A second copy of the same change enters nothing.
        var again = pulled
        again.id = 2
        #expect(try apply(t, [again]).applied == 0)

        let history = try t.store.intentHistory(limit: 10)
        #expect(history.map { "\($0.action) \($0.outcome) \($0.entryID ?? 0) \($0.device ?? "here")" }
                == ["stop stopped 1002 desktop", "start started \(started.entry!.id) here"])
        #expect(history[0].at == Instant(seconds: 1_795_000_050) && history[0].applied == Instant(seconds: 1_795_000_060))
        #expect(try t.store.loggedIntents(after: 0).map(\.id) == [started.logID])
    }

    /// What another program wrote into the hub that is not a change trackee
    /// makes is skipped with one sentence naming the change and what is
    /// wrong; the rest of the batch is taken in.
    @Test func aChangeThatCannotBeReadIsSkippedWithASentenceAndTheRestIsTakenIn() throws {
        let t = try Self.joined()
        let bad = [
            HubIncomingChange(id: 1, device: "desktop", clock: "yesterday", kind: "entry", body: "{}"),
            HubIncomingChange(id: 2, device: "desktop", clock: Self.stamp(1, "phone"), kind: "entry", body: "{}"),
            Self.change(3, 2, "desktop", #""_exists":1,"start":"nine""#),
            Self.change(4, 3, "desktop", #""colour":"red""#),
            HubIncomingChange(id: 5, device: "desktop", clock: Self.stamp(4, "desktop"), kind: "entry",
                              body: #"{"id":2002,"fields":{"description":"x"},"base":{"description":"soon"}}"#),
            HubIncomingChange(id: 6, device: "desktop", clock: Self.stamp(5, "desktop"), kind: "entry", body: #"{"id":2002,"#),
            HubIncomingChange(id: 7, device: "desktop", clock: Self.stamp(6, "desktop"), kind: "timer", body: #"{"id":1}"#),
            HubIncomingChange(id: 8, device: "desktop", clock: Self.stamp(7, "desktop"), kind: "key",
                              body: #"{"key":"k","kind":"firing","row":{"rule":"r"},"made":[]}"#),
        ]
        let batch = PulledBatch(bad + [Self.change(9, 10, "desktop", Self.made)])
        #expect(batch.warnings == [
            #"hub change 1 from desktop cannot be read (its clock "yesterday" is not a stamp); skipped"#,
            "hub change 2 from desktop cannot be read (its clock names device phone); skipped",
            #"hub change 3 from desktop cannot be read (entry #2002: start is "nine"); skipped"#,
            "hub change 4 from desktop cannot be read (entry #2002: no field colour); skipped",
            #"hub change 5 from desktop cannot be read (entry #2002: base of description is "soon"); skipped"#,
            "hub change 6 from desktop cannot be read (entry: not JSON); skipped",
            "hub change 7 from desktop cannot be read (kind timer); skipped",
            "hub change 8 from desktop cannot be read (key k: its firing); skipped",
        ])
        let report = try t.store.hubApply(
            batch.changes, through: 9, now: Self.at, physical: Self.at.seconds * 1000, merge: Merge.run)
        #expect(report.applied == 1)
        #expect(try state(t) == ["first", "", "1 row", ""])
        #expect(try t.store.hubDevice()?.pulled == 9)
    }
}
