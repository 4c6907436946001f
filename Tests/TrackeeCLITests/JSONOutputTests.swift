import Testing
import TrackeeTestSupport

/// Every command's `--json` output is one line of JSON with the
/// documented top-level fields.
@Suite struct JSONOutputTests {
    /// A session that touches every command, in an order where each one
    /// has something to do. Empty `keys` means a JSON array.
    static let session: [(arguments: [String], keys: [String])] = [
        (["start", "-p", "Docs", "-c", "Acme", "writing", "--at", "10:00"], ["created", "entry", "outcome", "replayed"]),
        (["status"], ["elapsed_seconds", "running", "today_seconds", "week_seconds"]),
        (["start", "-p", "Mail"], ["created", "entry", "outcome", "previous", "replayed"]),
        (["stop"], ["created", "entry", "outcome", "replayed"]),
        (["stop"], ["created", "outcome", "replayed"]),
        (["start", "-p", "Docs", "-c", "Acme", "--key", "k1"], ["created", "entry", "key", "outcome", "replayed"]),
        (["cancel"], ["created", "entry", "outcome", "replayed"]),
        (["cancel"], ["created", "outcome", "replayed"]),
        (["add", "-p", "Docs", "-c", "Acme", "--from", "08:00", "--to", "09:00"], ["action", "created", "entry"]),
        (["edit", "1", "--description", "changed"], ["action", "created", "entry"]),
        (["delete", "2"], ["action", "clients", "entries", "projects"]),
        (["undo"], ["rows", "step", "undid"]),
        (["undo", "--list", "--limit", "3"], []),
        (["log"], ["days"]),
        (["log", "--limit", "1"], ["days", "next_before"]),
        (["summary"], ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
        (["summary", "--week", "--by", "client"], ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
        (["summary", "--month"], ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
        (["log", "--project", "Docs", "--from", "today"], ["days"]),
        (["summary", "--by", "tag", "--client", "Acme"],
         ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
        (["tags"], ["tags", "to"]),
        (["tags", "--from", "today"], ["from", "tags", "to"]),
        (["continue"], ["created", "entry", "outcome", "replayed"]),
        (["stop"], ["created", "entry", "outcome", "replayed"]),
        (["summary", "--from", "2026-11-01", "--to", "2026-11-15"], ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
        (["clients"], []),
        (["clients", "list"], []),
        (["clients", "add", "Globex"], ["entries", "id", "name", "projects"]),
        (["clients", "rename", "Globex", "Initech"], ["entries", "id", "name", "projects"]),
        (["clients", "delete", "Initech"], ["action", "clients", "entries", "projects"]),
        (["projects"], []),
        (["projects", "list", "-c", "Acme"], []),
        (["projects", "add", "Web", "-c", "Acme", "--rate", "50", "--billable", "--type", "work"],
         ["billable", "client", "entries", "id", "name", "rate_cents", "type"]),
        (["projects", "rename", "Web", "Site", "-c", "Acme"], ["billable", "client", "entries", "id", "name", "rate_cents", "type"]),
        (["projects", "edit", "Site", "--rate", "60"], ["billable", "client", "entries", "id", "name", "rate_cents", "type"]),
        (["projects", "delete", "Site"], ["action", "clients", "entries", "projects"]),
        (["summary"], ["billable_seconds", "from", "grouping", "lines", "non_billable_seconds", "to", "total_seconds"]),
    ]

    @Test func everyCommandPrintsOneLineOfJSON() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        for (arguments, keys) in Self.session {
            let r = try t.run(arguments + ["--json"])
            #expect(r.status == 0, "\(r)")
            #expect(r.stderr == "", "\(r)")
            #expect(r.stdout.hasSuffix("\n") && r.lines.count == 1, "\(r)")
            let json = try r.json()
            if keys.isEmpty {
                guard case .array = json else {
                    Issue.record("\(arguments) did not print an array: \(r.stdout)")
                    continue
                }
            } else {
                #expect(json.keys == keys, "\(arguments)")
            }
        }
    }

    @Test func valuesAreTypedAsDocumented() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("projects", "add", "Web", "-c", "Acme", "--rate", "50", "--billable", "--type", "work").status == 0)
        #expect(try t.run("projects", "--json").json() == .array([.object([
            "id": 1, "name": "Web", "client": "Acme", "type": "work", "billable": true, "rate_cents": 5000, "entries": 0,
        ])]))
        #expect(try t.run("clients", "--json").json() == .array([.object([
            "id": 1, "name": "Acme", "projects": 1, "entries": 0,
        ])]))

        let started = try t.run("start", "-p", "Web", "-t", "b", "-t", "a", "--at", "11:30", "fix", "--json").json()
        #expect(started["entry"] == .object([
            "id": 1, "project": "Web", "client": "Acme", "description": "fix", "tags": ["a", "b"],
            "start": "2026-11-20T11:30:00+01:00", "duration_seconds": 1800, "running": true, "source": "cli",
            "billable": true,
        ]))
    }

    @Test func exportHasItsOwnFormatsAndRefusesJSONFlag() throws {
        let t = try Sandbox(now: "2026-11-20 12:00")
        #expect(try t.run("add", "-p", "Docs", "--from", "08:00", "--to", "09:00").status == 0)
        let export = try t.run("export", "--format", "json")
        #expect(export.status == 0)
        #expect(try export.json()[0]["project"] == "Docs")

        let flag = try t.run("export", "--format", "csv", "--json")
        #expect(flag.status == 64)
        #expect(flag.stdout == "")
        #expect(flag.stderr == "trackee: export writes the --format you choose; for JSON use --format json\nSee 'trackee export --help'.\n")
    }
}
