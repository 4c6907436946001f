import Testing
import TrackeeCore
@testable import TrackeeStore

@Suite struct EntryTests {
    @Test func addRecordsAFinishedEntryAndCreatesItsProject() throws {
        let t = try TemporaryStore()
        let r = try t.store.add(TimerParameters(project: "Docs", client: "Acme", description: "x"),
                                start: nine, end: at(minutes: 90), now: nine)
        #expect(r.created == ["client \"Acme\"", "project \"Docs\""])
        #expect(r.entry.end == at(minutes: 90))
        #expect(r.entry.source == "cli")
        #expect(try t.store.running() == nil)
    }

    @Test func addWithTheEndBeforeTheStartIsRefused() throws {
        let t = try TemporaryStore()
        #expect(throws: StoreError.endBeforeStart(start: nine, end: at(minutes: -5))) {
            try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: -5), now: nine)
        }
        #expect(try t.store.projects() == [])
    }

    @Test func theRunningTimersStartMovesTwoHoursEarlier() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        let r = try t.store.edit(1, EntryChanges(start: nine - 7200), now: at(minutes: 10))
        #expect(r.entry.start == nine - 7200)
        #expect(r.entry.isRunning)
        #expect(try t.store.running()?.duration(now: at(minutes: 10)) == 7800)
    }

    @Test func theRunningTimersStartCannotMoveIntoTheFuture() throws {
        let t = try TemporaryStore()
        _ = try t.store.apply(start("Docs", at: nine), now: nine)
        #expect(throws: StoreError.startAfterNow(start: at(minutes: 20), now: at(minutes: 10))) {
            try t.store.edit(1, EntryChanges(start: at(minutes: 20)), now: at(minutes: 10))
        }
        #expect(throws: StoreError.editRunningEnd(1)) {
            try t.store.edit(1, EntryChanges(end: at(minutes: 5)), now: at(minutes: 10))
        }
        #expect(try t.store.running()?.start == nine)
    }

    @Test func editChangesFieldsAndRefusesAnEndBeforeTheStart() throws {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "Docs", tags: ["a"]), start: nine, end: at(minutes: 60), now: nine)
        let r = try t.store.edit(1, EntryChanges(end: at(minutes: 30), project: .some("Review"), client: "Acme",
                                                 description: "new", tags: ["z", "y"]), now: nine)
        #expect(r.entry == Entry(id: 1, project: "Review", client: "Acme", description: "new", tags: ["y", "z"],
                                 start: nine, end: at(minutes: 30), source: "cli"))
        #expect(r.created == ["client \"Acme\"", "project \"Review\""])
        #expect(throws: StoreError.endBeforeStart(start: at(minutes: 40), end: at(minutes: 30))) {
            try t.store.edit(1, EntryChanges(start: at(minutes: 40)), now: nine)
        }
        #expect(throws: StoreError.unknownEntry(7)) {
            try t.store.edit(7, EntryChanges(description: "x"), now: nine)
        }
        let removed = try t.store.edit(1, EntryChanges(project: .some(nil)), now: nine)
        #expect(removed.entry.project == nil)
    }

    @Test func deleteThenUndoRestoresTheSameEntries() throws {
        let t = try TemporaryStore()
        for i in 0..<3 {
            _ = try t.store.add(TimerParameters(project: "Docs", description: "e\(i)"),
                                start: at(minutes: Int64(i * 60)), end: at(minutes: Int64(i * 60 + 30)), now: nine)
        }
        let before = try t.store.log(limit: 10)
        #expect(try t.store.deleteEntries([1, 3], now: nine).entries == [1, 3])
        #expect(try t.store.deleteEntries([2], now: nine).entries == [2])
        #expect(try t.store.entryCount() == 0)
        let second = try t.store.undo(now: nine)
        #expect(second.label == "delete #2")
        #expect(second.rows.map { "\($0.table) \($0.id) \($0.change)" } == ["entry 2 restored"])
        #expect(try t.store.log(limit: 10).map(\.id) == [2])
        let first = try t.store.undo(now: nine)
        #expect(first.label == "delete #1 #3")
        #expect(first.rows.map { "\($0.table) \($0.id) \($0.change)" } == ["entry 1 restored", "entry 3 restored"])
        #expect(try t.store.log(limit: 10) == before)
    }

    @Test func deletingAnUnknownIdDeletesNothing() throws {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "Docs"), start: nine, end: at(minutes: 1), now: nine)
        #expect(throws: StoreError.unknownEntry(9)) { try t.store.deleteEntries([1, 9], now: nine) }
        #expect(try t.store.entryCount() == 1)
    }

    @Test func deletingAClientNeedsConfirmationThenCascadesAndUndoes() throws {
        let t = try TemporaryStore()
        _ = try t.store.add(TimerParameters(project: "Docs", client: "Acme"), start: nine, end: at(minutes: 30), now: nine)
        _ = try t.store.add(TimerParameters(project: "Review", client: "Acme"), start: at(minutes: 30), end: at(minutes: 60), now: nine)
        _ = try t.store.add(TimerParameters(project: "Review", client: "Acme"), start: at(minutes: 60), end: at(minutes: 70), now: nine)
        _ = try t.store.add(TimerParameters(project: "Other", client: "Globex"), start: at(minutes: 80), end: at(minutes: 90), now: nine)
        #expect(try t.store.clientImpact("acme") == (2, 3))
        #expect(throws: StoreError.needsConfirmation(kind: "client", name: "Acme", entries: 3)) {
            try t.store.deleteClient("Acme", confirmed: false, now: nine)
        }
        #expect(try t.store.entryCount() == 4)
        let removed = try t.store.deleteClient("Acme", confirmed: true, now: nine)
        #expect(removed == Removal(clients: ["Acme"], projects: ["Docs", "Review"], entries: [1, 2, 3]))
        #expect(try t.store.clients().map(\.name) == ["Globex"])
        #expect(try t.store.projects().map(\.name) == ["Other"])
        #expect(try t.store.log(limit: 10).map(\.id) == [4])
        let restored = try t.store.undo(now: nine)
        #expect(restored.label == "delete client \"Acme\"")
        #expect(restored.rows.map { "\($0.table) \($0.id) \($0.name ?? "") \($0.change)" } == [
            "entry 1  restored", "entry 2  restored", "entry 3  restored", "project 1 Docs restored",
            "project 2 Review restored", "client 1 Acme restored",
        ])
        #expect(try t.store.clients() == [Client(id: 1, name: "Acme", projects: 2, entries: 3),
                                          Client(id: 2, name: "Globex", projects: 1, entries: 1)])
    }

    @Test func anEmptyClientIsDeletedWithoutConfirmation() throws {
        let t = try TemporaryStore()
        try t.store.addClient("Solo", now: nine)
        #expect(try t.store.deleteClient("Solo", confirmed: false, now: nine).clients == ["Solo"])
    }

    @Test func undoGoesBackOneStepAtATimeNotUndoingItsOwnUndos() throws {
        let t = try TemporaryStore()
        try t.store.addClient("Acme", now: nine)
        _ = try t.store.deleteClient("Acme", confirmed: false, now: nine)
        try t.store.addClient("Acme", now: nine)
        #expect(try t.store.undo(now: nine).label == "add client \"Acme\"")
        #expect(try t.store.clients().map(\.id) == [])
        #expect(try t.store.undo(now: nine).label == "delete client \"Acme\"")
        #expect(try t.store.clients().map(\.id) == [1])
        #expect(try t.store.undo(now: nine).label == "add client \"Acme\"")
        #expect(try t.store.clients().map(\.id) == [])
        #expect(throws: StoreError.nothingToUndo) { try t.store.undo(now: nine) }
    }

    @Test func projectsAreRenamedAndPricedWithinTheirClient() throws {
        let t = try TemporaryStore()
        _ = try t.store.addProject("Docs", client: "Acme", changes: ProjectChanges(type: .some("work"), billable: true, rateCents: .some(8000)), now: nine)
        _ = try t.store.addProject("Docs", client: nil, now: nine)
        #expect(throws: StoreError.nameTaken(kind: "project", name: "docs")) {
            try t.store.addProject("docs", client: "Acme", now: nine)
        }
        let p = try t.store.editProject("Docs", client: "Acme", rename: "Manual", changes: ProjectChanges(rateCents: .some(9050)), now: nine)
        #expect(p == Project(id: 1, name: "Manual", client: "Acme", type: "work", billable: true, rateCents: 9050, entries: 0))
        #expect(try t.store.projects().map(\.name) == ["Docs", "Manual"])
    }
}
