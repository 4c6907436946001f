import Foundation
import Testing
import TrackeeTestSupport

/// Every key a command's `--json` prints is listed for that command in
/// trackee(1), JSON OUTPUT, "Keys by command", and every key listed there
/// shows up in this session: both directions, at any depth.
///
/// To add a command: append its runs to ``session`` (in an order where it
/// has something to show) and its line to the man page; a key that needs
/// what a test cannot set up goes into ``notShown`` with the reason.
@Suite struct JSONKeysDocumentedTests {
    /// The runs, in order, on one store; `command` is the name the man page
    /// lists it under, `arguments` what is run (with `--json` appended;
    /// `{entry}` is the id of the last `entry` printed). `status` is the
    /// exit status expected.
    static let session: [(command: String, arguments: [String], status: Int32)] = [
        ("start", ["start", "-p", "Docs", "-c", "Acme", "-t", "a", "--key", "k1", "--at", "10:00", "writing"], 0),
        ("start", ["start", "-p", "Docs", "-c", "Acme", "-t", "a", "--key", "k1", "writing"], 0),
        ("status", ["status"], 0),
        ("start", ["start", "-p", "Mail", "-c", "Acme", "--at", "11:00"], 0),
        ("stop", ["stop", "--at", "11:30", "--key", "s1"], 0),
        ("stop", ["stop"], 0),
        ("start", ["start", "-p", "Review", "-c", "Acme"], 0),
        ("cancel", ["cancel", "--key", "c1"], 0),
        ("cancel", ["cancel"], 0),
        ("continue", ["continue", "--key", "n1"], 0),
        ("continue", ["continue", "1"], 0),
        ("continue", ["continue"], 0),
        ("stop", ["stop"], 0),
        ("add", ["add", "-p", "Docs", "-c", "Acme", "--from", "08:00", "--to", "09:00", "--key", "a1"], 0),
        ("add", ["add", "-p", "Support", "-c", "Globex", "--from", "07:00", "--to", "07:30", "--key", "a2"], 0),
        ("delete", ["delete", "{entry}"], 0),
        ("add", ["add", "-p", "Support", "-c", "Globex", "--from", "07:00", "--to", "07:30", "--key", "a2"], 0),
        ("undo", ["undo"], 0),
        ("undo --list", ["undo", "--list"], 0),
        ("edit", ["edit", "1", "--description", "changed"], 0),
        ("projects edit", ["projects", "edit", "Docs", "-c", "Acme", "--rate", "80.50", "--billable", "--type", "work"], 0),
        ("projects add", ["projects", "add", "Web", "-c", "Acme", "--type", "work", "--rate", "50", "--billable"], 0),
        ("projects rename", ["projects", "rename", "Web", "Site", "-c", "Acme"], 0),
        ("projects list", ["projects", "list"], 0),
        ("projects delete", ["projects", "delete", "Site", "-c", "Acme"], 0),
        ("undo", ["undo"], 0),
        ("clients add", ["clients", "add", "Initech"], 0),
        ("clients rename", ["clients", "rename", "Initech", "Initrode"], 0),
        ("clients list", ["clients", "list"], 0),
        ("clients delete", ["clients", "delete", "Initrode"], 0),
        ("focus set", ["focus", "set", "deep", "--rules", "rules.yaml"], 0),
        ("focus show", ["focus", "show"], 0),
        ("focus clear", ["focus", "clear", "--rules", "rules.yaml"], 0),
        ("log", ["log"], 0),
        ("log", ["log", "--limit", "1"], 0),
        ("history", ["history"], 0),
        ("history", ["history", "--limit", "1"], 0),
        ("summary", ["summary", "--from", "2026-11-16", "--to", "2026-11-24"], 0),
        ("summary", ["summary", "--by", "client"], 0),
        ("summary", ["summary", "--by", "tag", "-p", "Docs"], 0),
        ("report", ["report"], 0),
        ("report", ["report", "detailed", "--by", "client,project", "--round", "6m"], 0),
        ("report", ["report", "weekly", "--by", "tag"], 0),
        ("tags", ["tags"], 0),
        ("tags", ["tags", "--from", "2026-11-01"], 0),
        ("import", ["import", "clockify", "clockify.csv"], 0),
        ("rules check", ["rules", "check", "rules.yaml"], 0),
        ("rules next", ["rules", "next", "--rules", "rules.yaml", "--from", "2026-11-22 00:00", "--count", "5"], 0),
        ("simulate", ["simulate", "--rules", "rules.yaml", "--from", "monday", "--to", "tuesday"], 0),
        ("calendar list", ["calendar", "list", "work", "--rules", "rules.yaml", "--from", "today", "--to", "+7d"], 0),
        ("feed", ["feed", "--rules", "rules.yaml", "fixes.csv"], 0),
        ("places", ["places", "--rules", "rules.yaml"], 0),
        ("sync status", ["sync", "status"], 0),
        ("sync backfill", ["sync", "backfill", "work", "--from", "2026-11-01", "--to", "now"], 0),
        ("tokens add", ["tokens", "add", "phone", "--scope", "start,stop"], 0),
        ("tokens revoke", ["tokens", "revoke", "phone"], 0),
        ("tokens list", ["tokens", "list"], 0),
        // Last: the ticks start timers after the sandbox's now.
        ("tick", ["tick", "--rules", "rules.yaml"], 0),
        ("tick", ["tick", "--rules", "rules.yaml", "--now", "2026-11-21 10:00:20"], 0),
        ("tick", ["tick", "--rules", "rules.yaml", "--now", "2026-11-23 12:00"], 0),
        // After the ticks: their traces, a false condition (never), a
        // firing (weekend) and a max_late skip (morning).
        ("rules why", ["rules", "why", "--rules", "rules.yaml"], 0),
        ("rules why", ["rules", "why", "never", "--rules", "rules.yaml"], 0),
        ("rules why", ["rules", "why", "weekend", "--rules", "rules.yaml"], 0),
        ("simulate --why", ["simulate", "--why", "--rules", "rules.yaml", "--from", "2026-11-21 00:00", "--to", "2026-11-24 00:00"], 0),
    ]

    /// Commands that take `--json` but are not run here, and why.
    static let notRun: [String: String] = [
        "export": "refuses --json; its JSON is --format json, described in EXPORT FORMATS",
        "run": "the daemon runs until stopped and logs as text",
        "sync push": "pushes to Clockify or Toggl Track over the network (SyncCommandTests, against a fake)",
        "sync check": "asks Clockify or Toggl Track over the network (SyncCommandTests, against a fake)",
        "sync resolve": "needs a conflict a push found (SyncCommandTests, against a fake)",
    ]

    /// Documented keys the session cannot make appear, by command, and why.
    static let notShown: [String: [String: String]] = [
        "tick": ["error": "only a firing whose intents fail has one"],
        "focus set": ["error": "only a firing whose intents fail has one"],
        "focus clear": ["error": "only a firing whose intents fail has one"],
        "simulate": ["error": "only a firing whose intents fail has one"],
        "simulate --why": [
            "error": "only a firing whose intents fail has one",
            "detail": "a simulation notices every event on time; only a cooldown or a refusal would have one",
        ],
        "tokens list": [
            "last_used": "only a request over HTTP sets it (TokenStoreTests, TokensCommandTests)",
            "id": "only a sign-in on the web page makes a session (WebSessionStoreTests, TokensCommandTests)",
            "expires": "only a sign-in on the web page makes a session (WebSessionStoreTests, TokensCommandTests)",
        ],
        "history": [
            "device": "only an intent pulled from a hub has one (HubKeyTests, against PostgreSQL)",
            "voided": "only a key two devices applied has one (HubKeyTests, against PostgreSQL)",
        ],
        "sync status": Dictionary(uniqueKeysWithValues: [
            "entry", "state", "message", "last_success", "last_error", "last_error_at", "retry_at", "waiting_until",
        ].map { ($0, "only a push (SyncPushTests, against a fake) leaves one") }),
    ]

    /// Objects whose keys are data (`feed`'s reasons), not field names.
    static let dataObjects: Set<String> = ["ignored"]

    static let rules = """
        calendars:
          work: ~/.calendars/work
          broken: ~/.calendars/broken
        places:
          office: {lat: 50.0875, lon: 14.4213, radius: 150}
          client: {polygon: [[50.1, 14.4], [50.1, 14.41], [50.11, 14.41]]}
        rules:
          - id: morning
            name: Morning
            when: {at: "Mon..Fri 09:00"}
            catchup: skip
            do:
              - start: {project: Office, client: Acme}
              - notify: {title: Started, body: Office}
              - run: ["true"]
          - id: weekend
            when: {at: "Sat 10:00"}
            do: [{start: {project: Weekend}}]
          - id: never
            when: {at: "Sat 10:00"}
            if: {timer: {running: Nothing}}
            do: [stop]
          - id: deep
            when: {focus: deep}
            do: [{start: {project: Deep}}]
          - id: deep-off
            when: {focus: deep, state: off}
            do: [stop]
          - id: meetings
            when: {calendar: work, event: start, offset: -2m}
            do: [{start: {project: Meetings, description: "{{trigger.summary}}"}}]
          - id: broken-end
            when: {calendar: broken, event: end}
            do: [stop]
          - id: arrive
            when: {arrive: office, for: 2m}
            do: [{start: {project: Office}}]
          - id: phone
            enabled: false
            when: {leave: client, source: owntracks}
            do: [stop]
          - id: long-docs
            when: {timer: {running_for: 4h}, project: Docs, client: Acme, tag: a}
            do: [{stop: {at: "{{trigger.start + 4h}}"}}]
          - id: away
            when: [{idle: {for: 10m}}, {idle: {ended: true, after: 5m}}]
            do: [{stop: {at: "{{trigger.idle_since}}"}}]
          - id: desk
            when:
              - session: locked
              - sleep: suspend
              - power: battery
              - network: {ssid: ACME-Office, connection: ACME}
              - device: {usb: "17ef:30b4", serial: X1, subsystem: usb, name: Dock}
            do: [stop]
        """

    /// A Toggl Track target, for `sync status` and `sync backfill`, which
    /// read the store only; the currency, for `report`'s.
    static let settings = """
        sync:
          work:
            service: toggl
            workspace: "123456"
            token_env: TOGGL_API_TOKEN
            since: 2026-11-01
        create_projects: always
        currency: EUR
        """

    /// A calendar with one line trackee reads past, for `warnings`.
    static let brokenCalendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//trackee tests//EN\r
        BEGIN:VEVENT\r
        UID:broken@example.com\r
        DTSTART:20261123T100000Z\r
        DTEND:20261123T110000Z\r
        SUMMARY\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    /// Three minutes at the office on Friday morning, UTC.
    static let fixes = """
        time,lat,lon,accuracy
        2026-11-20T08:00:00Z,50.0875,14.4213,5
        2026-11-20T08:01:00Z,50.0875,14.4213,5
        2026-11-20T08:03:00Z,50.0875,14.4213,5

        """

    @Test func everyKeyIsDocumentedAndEveryDocumentedKeyAppears() throws {
        let documented = try Self.documentedKeys()
        let t = try RecipeTests.sandbox(now: "2026-11-20 12:00")
        try t.write(Self.rules, to: "rules.yaml")
        try t.write(Self.fixes, to: "fixes.csv")
        // An entry that overlaps the one before it, for the import's
        // overlapping list.
        try t.write("""
            Project,Client,Description,Start Date,Start Time,End Date,End Time
            Docs,Acme,Imported,2026-11-02,09:00,2026-11-02,10:00
            Docs,Acme,Overlapping,2026-11-02,09:30,2026-11-02,10:30
            """, to: "clockify.csv")
        try t.write(Self.settings, to: "config/trackee/config.yaml")
        try FileManager.default.createDirectory(atPath: t.path("home/.calendars/broken"), withIntermediateDirectories: true)
        try t.write(Self.brokenCalendar, to: "home/.calendars/broken/broken.ics")

        var seen: [String: Set<String>] = [:]
        var entry = ""
        for (command, arguments, status) in Self.session {
            let r = try t.run(arguments.map { $0 == "{entry}" ? entry : $0 } + ["--json"])
            #expect(r.status == status, "\(r)")
            #expect(r.lines.count == 1, "\(r)")
            guard let json = try? r.json() else {
                Issue.record("\(command) printed no JSON: \(r)")
                continue
            }
            if case .number(let id) = json["entry"]["id"] { entry = String(Int(id)) }
            seen[command, default: []].formUnion(Self.keys(of: json))
        }

        for (command, keys) in seen.sorted(by: { $0.key < $1.key }) {
            guard let listed = documented[command] else {
                Issue.record("trackee(1), Keys by command, has no line for \"\(command)\"")
                continue
            }
            for key in keys.subtracting(listed).sorted() {
                Issue.record("\(command) --json prints \"\(key)\", which trackee(1) does not list for it")
            }
            let excused = Set(Self.notShown[command, default: [:]].keys)
            for key in listed.subtracting(keys).subtracting(excused).sorted() {
                Issue.record("trackee(1) lists \"\(key)\" for \(command), which its --json never printed here")
            }
        }
        for command in Set(documented.keys).subtracting(seen.keys).subtracting(Self.notRun.keys).sorted() {
            Issue.record("trackee(1) lists keys for \"\(command)\", which this test neither runs nor excuses")
        }
    }

    /// Every key of every object in `value`, at any depth.
    static func keys(of value: JSONValue) -> Set<String> {
        switch value {
        case .object(let object):
            var keys = Set(object.keys)
            for (key, nested) in object where !dataObjects.contains(key) { keys.formUnion(Self.keys(of: nested)) }
            return keys
        case .array(let items):
            return items.reduce(into: []) { $0.formUnion(keys(of: $1)) }
        default:
            return []
        }
    }

    /// The "Keys by command" subsection of man/trackee.1: each `.TP` item
    /// is `.B` and the command, then one line of comma-separated keys.
    static func documentedKeys() throws -> [String: Set<String>] {
        let page = try String(contentsOf: RecipeTests.root.appendingPathComponent("man/trackee.1"), encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: ".SS \"Keys by command\"") else {
            Issue.record("man/trackee.1 has no .SS \"Keys by command\"")
            return [:]
        }
        var result: [String: Set<String>] = [:]
        var index = start + 1
        while index < lines.count, !lines[index].hasPrefix(".SS"), !lines[index].hasPrefix(".SH") {
            if lines[index] == ".TP", index + 2 < lines.count, lines[index + 1].hasPrefix(".B ") {
                let command = plain(String(lines[index + 1].dropFirst(3))).replacingOccurrences(of: "\"", with: "")
                let keys = plain(lines[index + 2]).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                #expect(result[command] == nil, "\(command) is listed twice")
                result[command] = Set(keys)
                index += 3
            } else {
                index += 1
            }
        }
        return result
    }

    /// A roff line without font changes and with `\-` as `-`.
    static func plain(_ line: String) -> String {
        line.replacingOccurrences(of: "\\fB", with: "").replacingOccurrences(of: "\\fR", with: "")
            .replacingOccurrences(of: "\\fI", with: "").replacingOccurrences(of: "\\-", with: "-")
    }
}
