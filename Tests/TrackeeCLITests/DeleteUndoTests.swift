import Testing

/// `delete`, `clients delete` and `undo`.
@Suite struct DeleteUndoTests {
    private func ids(_ t: Sandbox) throws -> [JSONValue] {
        try t.run("log", "--json").json()["days"].elements.flatMap { $0["entries"].elements.map(\.["id"]) }
    }

    private func entry(_ t: Sandbox, id: Int) throws -> JSONValue {
        let all = try t.run("log", "--json").json()["days"].elements.flatMap(\.["entries"].elements)
        return all.first { $0["id"] == .number(Double(id)) } ?? .absent
    }

    @Test func undoRestoresADeletedEntryWithItsIdAndFields() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "Docs", "-c", "Acme", "--from", "08:00", "--to", "09:00", "one").status == 0)
        #expect(try t.run("add", "-p", "Docs", "-c", "Acme", "-t", "x", "-t", "y", "--from", "09:00", "--to", "10:15",
                          "two").status == 0)
        #expect(try t.run("add", "-p", "Mail", "--from", "10:30", "--to", "11:00").status == 0)
        let original = try entry(t, id: 2)
        #expect(original["tags"] == ["x", "y"])

        let deleted = try t.run("delete", "2")
        #expect(deleted.status == 0)
        #expect(deleted.lines == ["deleted 1 entry (#2); `trackee undo` restores"])
        #expect(try ids(t) == [3, 1])

        let restored = try t.run("undo")
        #expect(restored.status == 0)
        #expect(restored.lines == ["restored 1 entry (#2)"])
        #expect(try ids(t) == [3, 2, 1])
        #expect(try entry(t, id: 2) == original)
    }

    @Test func twoDeletesAreUndoneNewestFirst() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        for (from, to) in [("08:00", "09:00"), ("09:00", "10:00"), ("10:00", "11:00")] {
            #expect(try t.run("add", "-p", "A", "--from", from, "--to", to).status == 0)
        }
        #expect(try t.run("delete", "1").status == 0)
        #expect(try t.run("delete", "3", "--json").json()
            == .object(["action": "deleted", "clients": [], "projects": [], "entries": [3]]))
        #expect(try ids(t) == [2])

        let first = try t.run("undo", "--json")
        #expect(try first.json() == .object(["action": "restored", "clients": [], "projects": [], "entries": [3]]))
        #expect(try ids(t) == [3, 2])

        let second = try t.run("undo")
        #expect(second.lines == ["restored 1 entry (#1)"])
        #expect(try ids(t) == [3, 2, 1])

        let third = try t.run("undo")
        #expect(third.status == 1)
        #expect(third.stderr == failure("nothing to undo: no deletion is recorded"))
    }

    @Test func undoWithNothingDeletedIsRefused() throws {
        let t = try Sandbox()
        #expect(try t.run("add", "-p", "A", "--from", "08:00", "--to", "09:00").status == 0)
        let before = t.storeFiles()
        let r = try t.run("undo")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("nothing to undo: no deletion is recorded"))
        #expect(t.storeFiles() == before)
    }

    /// Acme has Docs (2 entries) and Web (1 entry); Other has no client.
    private func clientWithProjects() throws -> Sandbox {
        let t = try Sandbox(now: "2026-11-20 12:00")
        for args in [["-p", "Docs", "-c", "Acme", "--from", "08:00", "--to", "09:00"],
                     ["-p", "Web", "-c", "Acme", "--from", "09:00", "--to", "10:00"],
                     ["-p", "Docs", "-c", "Acme", "--from", "10:00", "--to", "10:30"],
                     ["-p", "Other", "--from", "10:30", "--to", "11:00"]] {
            #expect(try t.run(["add"] + args).status == 0)
        }
        return t
    }

    @Test func deletingAClientWithProjectsNeedsYes() throws {
        let t = try clientWithProjects()
        let before = t.storeFiles()

        let r = try t.run("clients", "delete", "Acme")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "client \"Acme\" has 2 projects and 3 entries, which would be deleted too; run again with --yes to delete them (`trackee undo` restores them)"))
        #expect(t.storeFiles() == before)
        #expect(try ids(t) == [4, 3, 2, 1])
        let clients = try t.run("clients", "--json").json()
        #expect(clients.elements.map(\.["name"]) == ["Acme"])
    }

    @Test func deletingAClientWithYesTakesProjectsAndEntriesAndUndoBringsThemBack() throws {
        let t = try clientWithProjects()
        let log = try t.run("log", "--json").json()
        let projects = try t.run("projects", "--json").json()
        let clients = try t.run("clients", "--json").json()

        let r = try t.run("clients", "delete", "Acme", "--yes", "--json")
        #expect(r.status == 0)
        let removal = try r.json()
        #expect(removal["action"] == "deleted")
        #expect(removal["clients"] == ["Acme"])
        #expect(removal["projects"].elements.compactMap(\.string).sorted() == ["Docs", "Web"])
        #expect(removal["entries"].elements.compactMap(\.int).sorted() == [1, 2, 3])

        #expect(try ids(t) == [4])
        #expect(try t.run("projects", "--json").json().elements.map(\.["name"]) == ["Other"])
        #expect(try t.run("clients", "--json").json() == [])
        let again = try t.run("clients", "delete", "Acme", "--yes")
        #expect(again.status == 1)
        #expect(again.stderr == failure("no client named \"Acme\"; `trackee clients` lists them"))

        let undo = try t.run("undo", "--json")
        #expect(undo.status == 0)
        let restored = try undo.json()
        #expect(restored["action"] == "restored")
        #expect(restored["clients"] == ["Acme"])
        #expect(restored["entries"].elements.compactMap(\.int).sorted() == [1, 2, 3])
        #expect(try t.run("log", "--json").json() == log)
        #expect(try t.run("projects", "--json").json() == projects)
        #expect(try t.run("clients", "--json").json() == clients)
    }

    @Test func deletingAnEmptyClientNeedsNoConfirmation() throws {
        let t = try Sandbox()
        #expect(try t.run("clients", "add", "Empty").lines == ["added client \"Empty\""])
        let r = try t.run("clients", "delete", "Empty")
        #expect(r.status == 0)
        #expect(r.lines == ["deleted client \"Empty\"; `trackee undo` restores"])
    }

    @Test func undoWaitsWhileAnotherTimerRunsInsteadOfMakingTwo() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "A", "--at", "10:00").status == 0)
        #expect(try t.run("delete", "running").lines == ["deleted 1 entry (#1); `trackee undo` restores"])
        #expect(try t.run("start", "-p", "B", "--at", "11:00").status == 0)

        let refused = try t.run("undo")
        #expect(refused.status == 1)
        #expect(refused.stderr == failure(
            "cannot undo: the deleted entry was the running timer and another timer runs now; stop it first"))
        #expect(try t.run("status", "--json").json()["running"]["id"] == 2)

        #expect(try t.run("stop", "--at", "11:30").status == 0)
        #expect(try t.run("undo").lines == ["restored 1 entry (#1)"])
        let status = try t.run("status", "--json").json()
        #expect(status["running"]["id"] == 1)
        #expect(status["running"]["start"] == "2026-11-20T10:00:00+01:00")
    }

    @Test func undoRefusesToRestoreAClientWhoseNameIsTakenAgain() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "Docs", "-c", "Acme", "--from", "08:00", "--to", "09:00").status == 0)
        #expect(try t.run("clients", "delete", "Acme", "--yes").status == 0)
        #expect(try t.run("clients", "add", "Acme").status == 0)
        let r = try t.run("undo")
        #expect(r.status == 1)
        #expect(r.stderr == failure("cannot undo: a client with the deleted client's name exists again; rename it first"))
        #expect(try t.run("clients", "--json").json() == .array([.object([
            "id": 2, "name": "Acme", "projects": 0, "entries": 0,
        ])]))
    }
}
