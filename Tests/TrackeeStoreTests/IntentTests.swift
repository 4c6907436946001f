import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

@Suite struct IntentTests {
    @Test func startWithNothingRunningStarts() throws {
        let t = try TemporaryStore()
        let r = try t.store.apply(start("Docs", client: "Acme", "guide", tags: ["b", "a"], at: nine), now: nine)
        #expect(r.outcome == .started)
        #expect(r.created == ["client \"Acme\"", "project \"Docs\""])
        let e = try #require(try t.store.running())
        #expect(e == Entry(id: 1, project: "Docs", client: "Acme", description: "guide", tags: ["a", "b"],
                           start: nine, end: nil, source: "cli"))
    }

    @Test func startWithSameParametersIsUnchangedAndKeepsTheStart() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", "guide", tags: ["a", "b"], at: nine), now: nine)
        // Same tags in another order are the same timer.
        let r = try t.store.apply(start("Docs", "guide", tags: ["b", "a", "a"], at: at(minutes: 30)), now: at(minutes: 30))
        #expect(r.outcome == .unchanged)
        #expect(r.created == [])
        #expect(try t.store.running()?.start == nine)
        #expect(try t.store.entryCount() == 1)
    }

    /// `.refuse` finds existing projects as before, and refuses a new one
    /// (or an existing one under a new client) with the nearest name, in
    /// the transaction that would have written it: nothing is created.
    @Test func refusingNewProjectsNamesTheNearestAndCreatesNothing() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: "Acme", now: nine)
        let found = try t.store.apply(start("Docs", at: nine), now: nine, newProjects: .refuse)
        #expect(found.outcome == .started)
        #expect(found.created == [])
        #expect(throws: StoreError.noSuchProject(name: "Dcos", client: nil, nearest: "Docs")) {
            try t.store.apply(start("Dcos", at: at(minutes: 5)), now: at(minutes: 5), newProjects: .refuse)
        }
        #expect(throws: StoreError.noSuchProject(name: "Docs", client: "Globex", nearest: "Docs")) {
            try t.store.add(TimerParameters(project: "Docs", client: "Globex"), start: nine - 3600, end: nine,
                            now: at(minutes: 5), newProjects: .refuse)
        }
        #expect(throws: StoreError.noSuchProject(name: "Web", client: nil, nearest: nil)) {
            try t.store.edit(1, EntryChanges(project: .some("Web")), now: at(minutes: 5), newProjects: .refuse)
        }
        #expect(try t.store.projects().map(\.name) == ["Docs"])
        #expect(try t.store.clients().map(\.name) == ["Acme"])
        #expect(try t.store.running()?.project == "Docs")
        #expect(try t.store.entryCount() == 1)
        #expect(StoreError.noSuchProject(name: "Dcos", client: nil, nearest: "Docs").description
            == #"no project "Dcos"; did you mean "Docs"?"#)
    }

    @Test func startWithOtherParametersSwitchesInOneStep() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        for (change, minutes) in [(start("Review", at: at(minutes: 30)), 30),
                                  (start("Review", "other words", at: at(minutes: 40)), 40),
                                  (start("Review", "other words", tags: ["x"], at: at(minutes: 50)), 50),
                                  (start("Review", client: "Acme", "other words", tags: ["x"], at: at(minutes: 60)), 60)] {
            let r = try t.store.apply(change, now: at(minutes: Int64(minutes)))
            #expect(r.outcome == .switched)
            #expect(r.previous?.end == at(minutes: Int64(minutes)))
            #expect(r.entry?.start == at(minutes: Int64(minutes)))
        }
        let log = try t.store.log(limit: 10)
        #expect(log.map(\.id) == [5, 4, 3, 2, 1])
        #expect(log.map { $0.duration(now: at(minutes: 70)) } == [600, 600, 600, 600, 1800])
        #expect(log.filter(\.isRunning).map(\.id) == [5])
    }

    @Test func stopSavesTheRunningEntry() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        let r = try t.store.apply(Intent(.stop, at: at(minutes: 45)), now: at(minutes: 50))
        #expect(r.outcome == .stopped)
        #expect(r.entry?.end == at(minutes: 45))
        #expect(try t.store.running() == nil)
        #expect(try t.store.entry(id: 1).end == at(minutes: 45))
    }

    @Test func stopAndCancelWithNothingRunningAreUnchanged() throws {
        let t = try TemporaryStore()
        #expect(try t.store.apply(Intent(.stop, at: nine), now: nine).outcome == .unchanged)
        #expect(try t.store.apply(Intent(.cancel, at: nine), now: nine).outcome == .unchanged)
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 5)), now: at(minutes: 5))
        let again = try t.store.apply(Intent(.stop, at: at(minutes: 9)), now: at(minutes: 9))
        #expect(again.outcome == .unchanged)
        #expect(try t.store.entry(id: 1).end == at(minutes: 5))
        #expect(try t.store.apply(Intent(.cancel, at: nine), now: nine).outcome == .unchanged)
        #expect(try t.store.entryCount() == 1)
    }

    @Test func cancelDiscardsTheRunningEntry() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        let r = try t.store.apply(Intent(.cancel, at: at(minutes: 10)), now: at(minutes: 10))
        #expect(r.outcome == .cancelled)
        #expect(r.entry?.id == 1)
        #expect(try t.store.entryCount() == 0)
        #expect(try t.store.running() == nil)
    }

    @Test func stopBeforeTheStartIsRefusedAndWritesNothing() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        #expect(throws: StoreError.endBeforeStart(start: nine, end: at(minutes: -1))) {
            try t.store.apply(Intent(.stop, at: at(minutes: -1)), now: nine)
        }
        // A switch is refused for its start, the time the user gave.
        #expect(throws: StoreError.startBeforeRunning(start: at(minutes: -1), running: nine)) {
            try t.store.apply(start("Other", at: at(minutes: -1)), now: nine)
        }
        #expect(try t.store.running()?.start == nine)
        // The refused switch did not create its project either.
        #expect(try t.store.projects().map(\.name) == ["Docs"])
    }

    @Test func aRepeatedKeyChangesNothingAndReportsTheFirstOutcome() throws {
        let t = try TemporaryStore()
        let first = try t.store.apply(start("Docs", at: nine, key: "k1"), now: nine)
        #expect(first.outcome == .started)
        #expect(first.replayed == false)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 30)), now: at(minutes: 30))
        let replay = try t.store.apply(start("Docs", at: at(minutes: 40), key: "k1"), now: at(minutes: 40))
        #expect(replay.outcome == .started)
        #expect(replay.replayed)
        #expect(replay.entry?.id == 1)
        #expect(try t.store.running() == nil)
        #expect(try t.store.entryCount() == 1)
        // A key on stop works the same way.
        _ = try t.store.apply(start("Docs", at: at(minutes: 50)), now: at(minutes: 50))
        #expect(try t.store.apply(Intent(.stop, at: at(minutes: 55), key: "s"), now: at(minutes: 55)).outcome == .stopped)
        _ = try t.store.apply(start("Docs", at: at(minutes: 60)), now: at(minutes: 60))
        let stopReplay = try t.store.apply(Intent(.stop, at: at(minutes: 65), key: "s"), now: at(minutes: 65))
        #expect(stopReplay.outcome == .stopped)
        #expect(stopReplay.replayed)
        #expect(try t.store.running()?.start == at(minutes: 60))
    }

    @Test func everyApplicationIsLoggedAndKeysAreLedgered() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine, key: "k"), now: nine)
        _ = try t.store.apply(start("Docs", at: nine, key: "k"), now: nine)
        _ = try t.store.apply(Intent(.stop, at: at(minutes: 1), source: .rule("r1")), now: at(minutes: 1))
        let rows = try t.store.read { db in
            try Row.fetchAll(db, sql: "SELECT action, outcome, key, replay_of, source FROM intent_log ORDER BY id")
        }
        #expect(rows.map { $0["outcome"] as String } == ["started", "started", "stopped"])
        #expect(rows.map { $0["replay_of"] as Int64? } == [nil, 1, nil])
        #expect(rows.map { $0["source"] as String } == ["cli", "cli", "rule:r1"])
        let firings = try t.store.read { db in try String.fetchAll(db, sql: "SELECT key FROM firing") }
        #expect(firings == ["k"])
        // The ledger's key is UNIQUE in the schema itself.
        #expect(throws: DatabaseError.self) {
            try t.store.queue.write { db in try db.execute(sql: "INSERT INTO firing(key, intent_id, fired) VALUES ('k', 1, 0)") }
        }
    }

    @Test func theSchemaAllowsOneRunningTimer() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        #expect(throws: DatabaseError.self) {
            try t.store.queue.write { db in
                try db.execute(sql: "INSERT INTO entry(start, source, created, updated) VALUES (0, 'x', 0, 0)")
            }
        }
    }

    @Test func aProjectNameUnderTwoClientsNeedsAClient() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: "Acme", now: nine)
        _ = try t.store.addProject("Docs", client: "Globex", now: nine)
        #expect(throws: StoreError.ambiguousProject(name: "Docs", clients: ["Acme", "Globex"])) {
            try t.store.apply(start("Docs", at: nine), now: nine)
        }
        #expect(try t.store.entryCount() == 0)
        let r = try t.store.apply(start("Docs", client: "Globex", at: nine), now: nine)
        #expect(r.entry?.client == "Globex")
        #expect(r.created == [])
    }

    @Test func namesMatchWithoutRegardToCase() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", client: "Acme", at: nine), now: nine)
        let r = try t.store.apply(start("docs", client: "ACME", at: at(minutes: 5)), now: at(minutes: 5))
        #expect(r.outcome == .unchanged)
    }

    @Test func aTagWithACommaIsRefused() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.invalidTag("a,b")) {
            try t.store.apply(start("Docs", tags: ["a,b"], at: nine), now: nine)
        }
    }

    @Test func aClientWithoutAProjectIsRefused() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.clientNeedsProject) {
            try t.store.apply(start(nil, client: "Acme", at: nine), now: nine)
        }
        #expect(try t.store.clients() == [])
    }
}
