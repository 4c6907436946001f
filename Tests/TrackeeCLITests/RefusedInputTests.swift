import Foundation
import Testing
import TrackeeTestSupport

/// Input trackee refuses: one sentence on stderr, the documented status
/// (1 refused, 64 usage), and not a byte written to the store.
@Suite struct RefusedInputTests {
    /// A store with one finished entry (#1, 08:00–09:00) and Docs running
    /// since 11:00; now is 12:00.
    private func store() throws -> Sandbox {
        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "A", "--from", "08:00", "--to", "09:00").status == 0)
        #expect(try t.run("start", "-p", "Docs", "--at", "11:00").status == 0)
        return t
    }

    private func expectRefused(
        _ arguments: [String], status: Int32, stderr: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let t = try store()
        let before = t.storeFiles()
        let r = try t.run(arguments)
        #expect(r.status == status, "\(r)", sourceLocation: sourceLocation)
        #expect(r.stdout == "", sourceLocation: sourceLocation)
        #expect(r.stderr == stderr, sourceLocation: sourceLocation)
        #expect(t.storeFiles() == before, "\(arguments) changed the store", sourceLocation: sourceLocation)
        let running = try t.run("status", "--json").json()["running"]
        #expect(running["id"] == 2, sourceLocation: sourceLocation)
        #expect(running["start"] == "2026-11-20T11:00:00+01:00", sourceLocation: sourceLocation)
    }

    @Test func addWithTheEndBeforeTheStart() throws {
        try expectRefused(["add", "-p", "A", "--from", "11:00", "--to", "10:00"], status: 1, stderr: failure(
            "end 2026-11-20T10:00:00+01:00 is before start 2026-11-20T11:00:00+01:00; give an end after the start"))
    }

    @Test func stopAtATimeBeforeTheRunningStart() throws {
        try expectRefused(["stop", "--at", "10:00"], status: 1, stderr: failure(
            "end 2026-11-20T10:00:00+01:00 is before start 2026-11-20T11:00:00+01:00; give an end after the start"))
    }

    /// The user gave a start, not an end: the message is about the start.
    @Test func switchingAtATimeBeforeTheRunningStart() throws {
        try expectRefused(["start", "-p", "Mail", "--at", "10:30"], status: 1, stderr: failure(
            "the new start 2026-11-20T10:30:00+01:00 is before the running timer's start 2026-11-20T11:00:00+01:00; "
                + "give a later --at, or `trackee stop` it first and add the earlier time with `trackee add`"))
    }

    @Test func anUnreadableTimeIsAUsageError() throws {
        try expectRefused(["start", "-p", "Mail", "--at", "tomorow"], status: 64, stderr: failure(
            "--at: cannot read \"tomorow\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago"))
    }

    @Test func anUnreadableTimeCreatesNoStore() throws {
        let t = try Sandbox()
        let r = try t.run("start", "-p", "Mail", "--at", "tomorow")
        #expect(r.status == 64)
        #expect(r.stderr == failure(
            "--at: cannot read \"tomorow\" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago"))
        #expect(t.listing(t.path("store")) == [])
    }

    @Test func anUnreadableMoveIsAUsageError() throws {
        try expectRefused(["edit", "running", "--move-start", "2h"], status: 64, stderr: failure(
            "--move-start: cannot read \"2h\" as an amount of time; use a signed amount such as -2h, +15m or -1h30m"))
    }

    @Test func editingAnUnknownEntry() throws {
        try expectRefused(["edit", "999", "--description", "x"], status: 1,
                          stderr: failure("no entry with id 999; `trackee log` lists entry ids"))
    }

    @Test func deletingAnUnknownEntry() throws {
        try expectRefused(["delete", "999"], status: 1,
                          stderr: failure("no entry with id 999; `trackee log` lists entry ids"))
        // All or nothing: a known id next to an unknown one is not deleted either.
        try expectRefused(["delete", "1", "999"], status: 1,
                          stderr: failure("no entry with id 999; `trackee log` lists entry ids"))
    }

    @Test func anEntryArgumentThatIsNotAnId() throws {
        try expectRefused(["delete", "first"], status: 64, stderr: failure(
            "\"first\" is not an entry id; use a number from `trackee log` or `running`"))
    }

    @Test func aTagWithAComma() throws {
        try expectRefused(["start", "-p", "Docs", "-t", "a,b"], status: 1, stderr: failure(
            "tag \"a,b\" contains a comma; tags are separated by commas, so use one --tag per tag"))
    }

    @Test func aClientWithoutAProject() throws {
        try expectRefused(["start", "-c", "Acme"], status: 1, stderr: failure(
            "--client needs --project: entries belong to a project, and the project to the client"))
    }

    @Test func aTimerCannotStartInTheFuture() throws {
        try expectRefused(["edit", "running", "--from", "13:00"], status: 1, stderr: failure(
            "a timer cannot start in the future (2026-11-20T13:00:00+01:00); give a start time before now"))
        try expectRefused(["start", "-p", "Mail", "--at", "+1h"], status: 1, stderr: failure(
            "a timer cannot start in the future (2026-11-20T13:00:00+01:00); give a start time before now"))

        let t = try Sandbox(zone: "Europe/Prague", now: "2026-11-20 12:00")
        let r = try t.run("start", "-p", "Docs", "--at", "+1h")
        #expect(r.status == 1)
        #expect(r.stderr == failure(
            "a timer cannot start in the future (2026-11-20T13:00:00+01:00); give a start time before now"))
        #expect(try t.run("status", "--json").json()["running"] == .absent)
    }

    @Test func aTimerCannotStopInTheFuture() throws {
        try expectRefused(["stop", "--at", "12:30"], status: 1, stderr: failure(
            "a timer cannot stop in the future (2026-11-20T12:30:00+01:00); give a stop time before now"))
    }

    /// A blank name given as an option is a usage error that names the
    /// option; given as a `projects add` argument, the store refuses it.
    @Test func aBlankProjectName() throws {
        try expectRefused(["start", "-p", "  "], status: 64, stderr: failure(
            "--project is blank; leave it out for a timer without a project"))
        try expectRefused(["add", "-p", "Docs", "-c", " ", "--from", "09:00", "--to", "10:00"], status: 64,
                          stderr: failure("--client is blank; leave it out for a project without a client"))
        let t = try Sandbox()
        let r = try t.run("projects", "add", "  ")
        #expect(r.status == 1)
        #expect(r.stderr == failure("a project name cannot be empty"))
    }

    /// `-p "$PROJECT"` with the variable unset would otherwise start a
    /// timer without a project and say nothing.
    @Test func anEmptyProjectIsAUsageErrorNamingTheOption() throws {
        try expectRefused(["start", "-p", ""], status: 64, stderr: failure(
            "--project is empty; leave it out for a timer without a project"))
        try expectRefused(["start", "--project", "", "Docs"], status: 64, stderr: failure(
            "--project is empty; leave it out for a timer without a project"))
        try expectRefused(["add", "-p", "", "--from", "09:00", "--to", "10:00"], status: 64, stderr: failure(
            "--project is empty; leave it out for an entry without a project"))
        try expectRefused(["edit", "1", "-p", ""], status: 64, stderr: failure(
            "--project is empty; use --no-project to remove the entry's project"))
    }

    @Test func anEmptyClientIsAUsageErrorNamingTheOption() throws {
        try expectRefused(["start", "-p", "Mail", "-c", ""], status: 64, stderr: failure(
            "--client is empty; leave it out for a project without a client"))
        try expectRefused(["add", "-p", "A", "--client", "", "--from", "09:00", "--to", "10:00"], status: 64,
                          stderr: failure("--client is empty; leave it out for a project without a client"))
        try expectRefused(["edit", "running", "-c", " "], status: 64, stderr: failure(
            "--client is blank; give a client name, or leave it out"))
        try expectRefused(["projects", "list", "-c", ""], status: 64, stderr: failure(
            "--client is empty; leave it out to list every project"))
        try expectRefused(["projects", "add", "B", "-c", ""], status: 64, stderr: failure(
            "--client is empty; leave it out for a project without a client"))
        for command in [["rename", "A", "B"], ["edit", "A", "--billable"], ["delete", "A"]] {
            try expectRefused(["projects"] + command + ["-c", ""], status: 64, stderr: failure(
                "--client is empty; leave it out when the project name is unique"))
        }
    }

    /// An empty tag was dropped without a word; on `edit` it even cleared
    /// every tag.
    @Test func anEmptyTagIsAUsageErrorNamingTheOption() throws {
        try expectRefused(["start", "-p", "Mail", "-t", ""], status: 64, stderr: failure(
            "--tag is empty; leave it out for a timer without tags"))
        try expectRefused(["start", "-p", "Mail", "-t", "a", "--tag", " "], status: 64, stderr: failure(
            "--tag is blank; leave it out for a timer without tags"))
        try expectRefused(["add", "-p", "A", "-t", "", "--from", "09:00", "--to", "10:00"], status: 64,
                          stderr: failure("--tag is empty; leave it out for an entry without tags"))
        try expectRefused(["edit", "running", "-t", ""], status: 64, stderr: failure(
            "--tag is empty; use --clear-tags to remove all tags"))
    }

    @Test func anEmptyProjectCreatesNoStore() throws {
        let t = try Sandbox()
        let r = try t.run("start", "-p", "")
        #expect(r.status == 64)
        #expect(r.stdout == "")
        #expect(r.stderr == failure("--project is empty; leave it out for a timer without a project"))
        #expect(t.listing(t.path("store")) == [])
    }
}
