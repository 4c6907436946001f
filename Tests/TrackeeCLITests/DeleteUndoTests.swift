import Foundation
import Testing
import TrackeeTestSupport

/// `delete`, `clients delete` and `undo` of every kind of change.
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
        #expect(restored.lines == ["undid \"delete #2\": restored 1 entry (#2)"])
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

        let first = try t.run("undo", "--json").json()
        #expect(first["undid"] == .object(["step": 6, "label": "delete #3"]))
        #expect(first["step"] == 7)
        #expect(first["rows"].elements.map { [$0["table"], $0["id"], $0["change"], $0["entry"]["id"]] }
            == [["entry", 3, "restored", 3]])
        #expect(try ids(t) == [3, 2])

        let second = try t.run("undo")
        #expect(second.lines == ["undid \"delete #1\": restored 1 entry (#1)"])
        #expect(try ids(t) == [3, 2, 1])

        // Then the adds, one step further back each time.
        let third = try t.run("undo")
        #expect(third.lines == ["undid \"add A\": removed 1 entry (#3)"])
        #expect(try ids(t) == [2, 1])
    }

    @Test func undoWithNothingRecordedIsRefusedAndChangesNothing() throws {
        let t = try Sandbox()
        #expect(try t.run("status").status == 0)
        let before = t.storeFiles()
        let r = try t.run("undo")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("nothing to undo: every change the journal holds is undone already"))
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
        #expect(restored["undid"]["label"] == "delete client \"Acme\"")
        #expect(restored["rows"].elements.map { [$0["table"], $0["id"], $0["change"]] } == [
            ["entry", 1, "restored"], ["entry", 3, "restored"], ["entry", 2, "restored"],
            ["project", 1, "restored"], ["project", 2, "restored"], ["client", 1, "restored"],
        ])
        #expect(restored["rows"].elements.map(\.["name"]) == [.absent, .absent, .absent, "Docs", "Web", "Acme"])
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

    @Test func undoingAStartAfterADeleteOfTheRunningEntryGoesBackToIt() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "A", "--at", "10:00").status == 0)
        #expect(try t.run("delete", "running").lines == ["deleted 1 entry (#1); `trackee undo` restores"])
        #expect(try t.run("start", "-p", "B", "--at", "11:00").status == 0)

        #expect(try t.run("undo").lines == ["undid \"start B\": removed running #2; removed project \"B\""])
        #expect(try t.run("undo").lines == ["undid \"delete #1\": #1 A is running again since 10:00"])
        let status = try t.run("status", "--json").json()
        #expect(status["running"]["id"] == 1)
        #expect(status["running"]["start"] == "2026-11-20T10:00:00+01:00")
    }

    @Test func undoingAStopASwitchAndACancelSaysWhatRunsAgain() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "Docs", "--at", "09:00").status == 0)
        #expect(try t.run("stop", "--at", "10:00").status == 0)
        #expect(try t.run("undo").lines == ["undid \"stop #1\": #1 Docs is running again since 09:00"])
        #expect(try t.run("start", "-p", "Mail", "--at", "11:00").status == 0)
        #expect(try t.run("undo").lines == [
            "undid \"start Mail\": removed running #2; #1 Docs is running again since 09:00; removed project \"Mail\"",
        ])
        #expect(try t.run("cancel").status == 0)
        #expect(try t.run("undo").lines == ["undid \"cancel #1\": #1 Docs is running again since 09:00"])
        #expect(try t.run("status", "--json").json()["running"]["id"] == 1)
    }

    @Test func undoingAnEditPutsTheEntryBack() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "Docs", "--from", "08:00", "--to", "09:00", "first").status == 0)
        let original = try entry(t, id: 1)
        #expect(try t.run("edit", "1", "--from", "07:30", "--description", "changed").status == 0)
        #expect(try t.run("undo").lines == ["undid \"edit #1\": #1 as before"])
        #expect(try entry(t, id: 1) == original)
        #expect(try t.run("undo").lines == ["undid \"add Docs \"first\"\": removed 1 entry (#1); removed project \"Docs\""])
        #expect(try ids(t) == [])
    }

    @Test func anUndoOfARowChangedByHandIsRefusedAndChangesNothing() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("start", "-p", "Docs", "--at", "09:00").status == 0)
        #expect(try t.run("stop", "--at", "10:00").status == 0)
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [t.storePath, "UPDATE entry SET description = 'by hand' WHERE id = 1"]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
        let before = t.storeFiles()
        let r = try t.run("undo")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(r.stderr == failure(
            "cannot undo \"stop #1\": entry #1 was changed since by something other than trackee; nothing changed"))
        #expect(t.storeFiles() == before)
    }

    @Test func undoListShowsTheStepsNewestFirst() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("undo", "--list").lines == ["no changes recorded"])
        #expect(try t.run("start", "-p", "Docs", "--at", "09:00").status == 0)
        #expect(try t.run("stop", "--at", "10:00").status == 0)
        #expect(try t.run("undo").status == 0)
        #expect(try t.run("undo", "--list").lines == [
            "4  12:00  undo \"stop #1\"",
            "3  12:00  stop #1  (undone by 4)",
            "1  12:00  start Docs",
        ])
        #expect(try t.run("undo", "--list", "--limit", "1", "--json").json() == .array([.object([
            "step": 4, "at": "2026-11-20T12:00:00+01:00", "label": "undo \"stop #1\"", "rows": 1, "undoes": 3,
        ])]))
        let bad = try t.run("undo", "--limit", "2")
        #expect(bad.status == 64)
    }
}
