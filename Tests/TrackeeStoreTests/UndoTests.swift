import GRDB
import Testing
import TrackeeCore
@testable import TrackeeStore

/// `Store.undo`: every kind of change reverted through the one journal,
/// newest first, refused when the row changed outside it.
@Suite struct UndoTests {
    private func stop(at time: Instant) -> Intent { Intent(.stop, at: time, source: .cli) }

    /// `table id change` for each row an undo put back.
    private func rows(_ u: UndoneStep) -> [String] {
        u.rows.map { "\($0.table) \($0.id) \($0.change)" }
    }

    private func journalCount(_ t: TemporaryStore) throws -> Int {
        try t.store.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM journal") ?? -1 }
    }

    @Test func undoingAStartRemovesTheEntryAndTheProjectItCreated() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", client: "Acme", at: nine), now: nine)
        let u = try t.store.undo(now: at(minutes: 5))
        #expect(u.label == "start Docs")
        #expect(rows(u) == ["client 1 removed", "project 1 removed", "entry 1 removed"])
        #expect(u.rows[2].wasRunning)
        #expect(try t.store.running() == nil)
        #expect(try t.store.clients().isEmpty)
        #expect(try t.store.projects().isEmpty)
    }

    @Test func undoingAStopMakesTheEntryRunAgainFromItsStart() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(stop(at: at(minutes: 30)), now: at(minutes: 30))
        let u = try t.store.undo(now: at(minutes: 31))
        #expect(u.label == "stop #1")
        #expect(rows(u) == ["entry 1 reverted"])
        #expect(u.rows[0].entry?.isRunning == true)
        #expect(!u.rows[0].wasRunning)
        #expect(try t.store.running()?.id == 1)
        #expect(try t.store.running()?.start == nine)
    }

    @Test func imagesKeepEveryCharacterOfADescription() throws {
        let t = try TemporaryStore()
        let text = "say \"hi\" \\ to Zoë\n\tthen \u{1}🙂"
        _ = try t.store.apply(start("Docs", text, at: nine), now: nine)
        _ = try t.store.apply(stop(at: at(minutes: 30)), now: at(minutes: 30))
        _ = try t.store.deleteEntries([1], now: at(minutes: 31))
        #expect(try t.store.undo(now: at(minutes: 32)).label == "delete #1")
        #expect(try t.store.entry(id: 1).description == text)
        #expect(try t.store.undo(now: at(minutes: 33)).label == "stop #1")
        #expect(try t.store.running()?.description == text)
    }

    @Test func undoingACancelPutsTheRunningEntryBack() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", "draft", at: nine), now: nine)
        _ = try t.store.apply(Intent(.cancel, at: at(minutes: 10), source: .cli), now: at(minutes: 10))
        let u = try t.store.undo(now: at(minutes: 11))
        #expect(u.label == "cancel #1")
        #expect(rows(u) == ["entry 1 restored"])
        #expect(try t.store.running()?.description == "draft")
        #expect(try t.store.running()?.start == nine)
    }

    @Test func undoingASwitchRemovesTheNewEntryAndTheOldOneRunsAgain() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(start("Mail", at: at(minutes: 20)), now: at(minutes: 20))
        let u = try t.store.undo(now: at(minutes: 21))
        #expect(u.label == "start Mail")
        #expect(rows(u) == ["project 2 removed", "entry 1 reverted", "entry 2 removed"])
        #expect(try t.store.running()?.id == 1)
        #expect(try t.store.running()?.end == nil)
        #expect(try t.store.log(limit: 10).map(\.id) == [1])
        #expect(try t.store.projects().map(\.name) == ["Docs"])
    }

    @Test func undoingAnAddAndAnEditRevertThem() throws {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 30), now: at(minutes: 30))
        let before = try t.store.entry(id: 1)
        _ = try t.store.edit(1, EntryChanges(start: at(minutes: -15), description: "review"), now: at(minutes: 40))
        let edit = try t.store.undo(now: at(minutes: 41))
        #expect(edit.label == "edit #1")
        #expect(rows(edit) == ["entry 1 reverted"])
        #expect(try t.store.entry(id: 1) == before)
        let add = try t.store.undo(now: at(minutes: 42))
        #expect(add.label == "add Docs")
        #expect(rows(add) == ["project 1 removed", "entry 1 removed"])
        #expect(try t.store.entryCount() == 0)
    }

    @Test func undoingAProjectDeletionRestoresItWithItsEntries() throws {
        let t = try TemporaryStore()
        for i in 0..<3 {
            _ = try t.store.add(TimerParameters(project: "Docs"), start: at(minutes: Int64(i * 30)),
                                end: at(minutes: Int64(i * 30 + 20)), now: at(minutes: 100))
        }
        let before = try t.store.log(limit: 10)
        _ = try t.store.deleteProject("Docs", client: nil, confirmed: true, now: at(minutes: 101))
        let u = try t.store.undo(now: at(minutes: 102))
        #expect(u.label == "delete project \"Docs\" (3 entries)")
        #expect(rows(u) == ["entry 1 restored", "entry 2 restored", "entry 3 restored", "project 1 restored"])
        #expect(try t.store.log(limit: 10) == before)
    }

    @Test func undoingAProjectRenameGivesItsNameBack() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: nil, now: nine)
        _ = try t.store.editProject("Docs", client: nil, rename: "Manual", changes: ProjectChanges(), now: nine)
        let u = try t.store.undo(now: nine)
        #expect(u.label == "rename project \"Docs\" to \"Manual\"")
        #expect(u.rows.map { "\($0.table) \($0.name ?? "") \($0.change)" } == ["project Docs reverted"])
        #expect(try t.store.projects().map(\.name) == ["Docs"])
    }

    @Test func withNothingToUndoNothingChanges() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.nothingToUndo) { try t.store.undo(now: nine) }
        // An intent that changed nothing is no step.
        _ = try t.store.apply(stop(at: nine), now: nine)
        #expect(throws: StoreError.nothingToUndo) { try t.store.undo(now: nine) }
        #expect(try journalCount(t) == 0)
    }

    @Test func aRowChangedOutsideTheJournalRefusesTheUndoAndNothingChanges() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(stop(at: at(minutes: 30)), now: at(minutes: 30))
        // As the sqlite3 shell would.
        try t.store.write { db in try db.execute(sql: "UPDATE entry SET description = 'by hand' WHERE id = 1") }
        let rows = try journalCount(t)
        #expect(throws: StoreError.undoConflict(
            step: "stop #1", reason: "entry #1 was changed since by something other than trackee")) {
            try t.store.undo(now: at(minutes: 31))
        }
        #expect(try journalCount(t) == rows)
        #expect(try t.store.entry(id: 1).end == at(minutes: 30))
        #expect(try t.store.entry(id: 1).description == "by hand")
    }

    @Test func anUndoneRuleFiringStaysFired() throws {
        let t = try TemporaryStore()
        let intent = Intent(.start(TimerParameters(project: "Office")), at: nine, source: .rule("office-arrive"),
                            key: "office-arrive@place:office:1")
        func fire() throws -> Bool {
            try t.store.fire(key: FiringKey(rule: "office-arrive", occurrence: "place:office:1"), occurred: nine,
                             trigger: "arrive office", description: "arrive office", intents: [intent], now: nine) != nil
        }
        #expect(try fire())
        #expect(try t.store.undo(now: at(minutes: 1)).label == "rule office-arrive")
        #expect(try t.store.running() == nil)
        #expect(try !fire())
        #expect(try t.store.running() == nil)
    }

    @Test func theListShowsStepsNewestFirstWithWhatUndidThem() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        _ = try t.store.apply(stop(at: at(minutes: 30)), now: at(minutes: 30))
        _ = try t.store.undo(now: at(minutes: 31))
        let steps = try t.store.steps(limit: 10)
        #expect(steps.map { "\($0.step) \($0.label) \($0.rows) \($0.undoes ?? 0) \($0.undoneBy ?? 0)" } == [
            "4 undo \"stop #1\" 1 3 0", "3 stop #1 1 0 4", "1 start Docs 2 0 0",
        ])
        #expect(steps.map(\.at) == [at(minutes: 31), at(minutes: 30), nine])
        #expect(try t.store.steps(limit: 1).map(\.step) == [4])
    }

    @Test func anOlderStoresDeletionsAndQueuedSyncChangesMoveIntoTheJournal() throws {
        let entry = { (id: Int, project: Int, start: Int64) in
            """
            {"created":\(start),"description":"","end":\(start + 600),"id":\(id),"project_id":\(project),\
            "source":"cli","start":\(start),"tags":"","updated":\(start)}
            """
        }
        let old = try OlderStore(upTo: "v10-sync-quota") { db in
            try db.execute(sql: """
                INSERT INTO client (id, name, created) VALUES (1, 'Acme', 0);
                INSERT INTO project (id, client_id, name, created) VALUES (1, 1, 'Docs', 0);
                INSERT INTO sync_target (name, service, since, cursor) VALUES ('work', 'clockify', 0, 5);
                INSERT INTO sqlite_sequence (name, seq) VALUES ('sync_journal', 7);
                """)
            for (id, start) in [(1, nine.seconds), (3, nine.seconds + 1200)] {
                try db.execute(sql: """
                    INSERT INTO entry (id, project_id, start, "end", source, created, updated) VALUES (?, 1, ?, ?, 'cli', 0, 0)
                    """, arguments: [id, start, start + 600])
            }
            try db.execute(sql: """
                CREATE TRIGGER sync_journal_insert AFTER INSERT ON entry WHEN NEW."end" IS NOT NULL
                BEGIN INSERT INTO sync_journal (entry_id, op) VALUES (NEW.id, 'put'); END;
                INSERT INTO sync_journal (seq, entry_id, op) VALUES (6, 1, 'put'), (7, 3, 'put');
                """)
            for (batch, kind, row) in [
                (1, "entry", entry(2, 1, nine.seconds + 600)), (2, "entry", entry(4, 2, nine.seconds + 2400)),
                (2, "project", #"{"billable":false,"client_id":1,"created":0,"id":2,"name":"Old"}"#),
            ] {
                try db.execute(sql: "INSERT INTO trash (batch, kind, row, deleted) VALUES (?, ?, ?, 10)",
                               arguments: [batch, kind, row])
            }
        }
        defer { withExtendedLifetime(old) {} }
        let store = try Store(path: old.path)
        func queue() throws -> [String] {
            try store.write { db in
                try store.collect(db)
                return try Row.fetchAll(db, sql: "SELECT entry_id, op FROM outbox ORDER BY seq").map {
                    "\($0[0] as Int64) \($0[1] as String)"
                }
            }
        }
        // The changes queued before push as they would have.
        #expect(try queue() == ["1 put", "3 put"])
        let project = try store.undo(now: nine + 3600)
        #expect(project.label == "delete project \"Old\" (1 entry)")
        #expect(project.rows.map { "\($0.table) \($0.id) \($0.change)" } == ["entry 4 restored", "project 2 restored"])
        #expect(try store.projects().map(\.name) == ["Docs", "Old"])
        #expect(try queue() == ["1 put", "3 put", "4 put"])
        let entries = try store.undo(now: nine + 3600)
        #expect(entries.label == "delete #2")
        #expect(try store.entry(id: 2).start == nine + 600)
        // The sync journal's rows were never steps: nothing further back.
        #expect(throws: StoreError.nothingToUndo) { try store.undo(now: nine + 3600) }
        // The old triggers are gone, and new changes number after the old.
        _ = try store.apply(start("Docs", client: "Acme", at: nine + 3600), now: nine + 3600)
        #expect(try store.steps(limit: 1).map(\.step) == [14])
    }

    @Test func anOlderStoresDeletionWhoseNameIsTakenAgainIsRefused() throws {
        let old = try OlderStore(upTo: "v10-sync-quota") { db in
            try db.execute(sql: """
                INSERT INTO trash (batch, kind, row, deleted) VALUES (1, 'client', '{"created":0,"id":1,"name":"Acme"}', 10);
                INSERT INTO client (id, name, created) VALUES (2, 'Acme', 20);
                """)
        }
        defer { withExtendedLifetime(old) {} }
        let store = try Store(path: old.path)
        #expect(throws: StoreError.undoConflict(
            step: "delete client \"Acme\"", reason: "another client is named \"Acme\" now; rename it first")) {
            try store.undo(now: nine)
        }
        #expect(try store.clients().map(\.id) == [2])
    }
}
