import Foundation
import Testing
import TrackeeTestSupport

/// The examples of README.md, recipes/README.md, trackee(1) and
/// trackee-rules(5) run as shown, against the built binary, in
/// Europe/Prague.
///
/// A `$ command` whose comment names a date and time (`# Fri 2026-11-20
/// 09:00`) starts a session: a fresh store, with the clock at that time.
/// The `$ command`s after it in the same document belong to it, each at
/// the time of its comment (`# 09:20`, `# Tue 09:12`: the coming Tuesday),
/// and each must print exactly the output shown (stderr, then stdout),
/// exit 0, or exit with the status a following `$ echo $?` shows; a
/// `$ cat FILE` writes what it shows into FILE.
///
/// Every other command runs on its own in a sandbox set up as the
/// documents tell a reader to (the recipes installed, the sample calendar
/// and track in place) and must exit 0, or is listed in ``notHere`` with
/// the reason it cannot run here.
@Suite struct DocExamplesTests {
    static let documents = ["README.md", "recipes/README.md", "man/trackee.1", "man/trackee-rules.5"]

    /// Commands that cannot run here, and why (`$ ` before those shown with
    /// their output); a test fails when one is no longer in the documents.
    static let notHere: [String: String] = [
        "make demo": "builds the project; the suite runs inside make test",
        "$ trackee strat -p Docs": "shows a command line that cannot be parsed (UsageErrorTests checks its two lines and status 64)",
        "make test": "runs this suite",
        "make install PREFIX=$HOME/.local": "builds a release and installs it into the account (InstallTests installs into a folder)",
        "make install PREFIX=~/.local": "builds a release and installs it into the account (InstallTests installs into a folder)",
        "make deb && sudo apt install ./trackee_*.deb":
            "builds a release and installs it on the machine (DebPackageTests installs a package of the debug binaries)",
        "mkdir -p ~/.config/trackee/rules.d ~/.config/systemd/user": "changes the account; the sandboxes here are set up the same way",
        "mkdir -p ~/.config/systemd/user": "changes the account",
        "cp recipes/rules/office-hours.yaml ~/.config/trackee/rules.d/": "changes the account; the sandboxes here hold the same file",
        "cp recipes/systemd/trackee.service ~/.config/systemd/user/": "needs a systemd user manager (RecipeTests verifies the unit)",
        "cp recipes/systemd/trackee-gps.service ~/.config/systemd/user/": "needs a systemd user manager (RecipeTests verifies the unit)",
        "install -m 755 recipes/shell/trackee-gps.sh ~/.local/bin/trackee-gps": "changes the account",
        "systemctl --user enable --now trackee": "needs a systemd user manager",
        "systemctl --user daemon-reload": "needs a systemd user manager",
        "systemctl --user disable --now trackee": "needs a systemd user manager",
        "systemctl --user enable --now trackee-gps": "needs a systemd user manager",
        "man -l man/trackee.1": "opens a pager (ManPageTests reads the page)",
        "man -l man/trackee-rules.5": "opens a pager",
        "gpspipe -w | trackee feed": "needs a GPS receiver behind gpsd (FeedPipelineTests runs it behind gpsfake)",
        "gpsfake -1 -P 2947 walk.nmea & gpspipe -w localhost:2947 | trackee feed":
            "a pipeline of gpsd's tools (FeedPipelineTests runs it)",
        "mosquitto_sub -h broker -t 'owntracks/#' -v | trackee feed":
            "needs an MQTT broker named broker (FeedPipelineTests runs it against a local mosquitto)",
        "$ trackee history --limit 2": "shows a store with a deep-stop rule that the README does not set up",
        "$ trackee rules why late": "shows the trace of a rule the page does not set up (RulesWhyTests pins the same lines)",
        "$ trackee calendar list work --from today --to +7d":
            "its shown output comes from calendar files with faults that the README only describes",
        "$ trackee sync check": "talks to Clockify over the network (SyncCommandTests, against a fake)",
        "$ trackee sync backfill work --from 2026-11-01 --to now": "needs a Clockify token (SyncCommandTests, against a fake)",
        "$ trackee sync": "pushes to Clockify or Toggl Track over the network (SyncPushTests, against a fake)",
        "$ trackee sync status": "shows targets that pushes have used (SyncCommandTests, against a fake)",
        "$ trackee hub init": "needs a PostgreSQL hub (HubInitTests runs it against a private cluster)",
        "$ trackee hub sync": "needs a PostgreSQL hub (ReplicationPassTests and the other hub suites, against a private cluster)",
        "$ trackee hub status": "shows a device that has synced with a hub (HubOfflineTests checks its lines)",
        "$ trackee hub grant bob --read": "needs a PostgreSQL hub with a role bob (HubSharingTests)",
        "$ trackee hub grant bob --write": "needs a PostgreSQL hub with a role bob (HubSharingTests)",
        "$ trackee hub revoke bob": "needs a PostgreSQL hub with a role bob (HubSharingTests)",
        #"curl --json '{"project": "Docs", "idempotency_key": "docs-morning"}' -H "Authorization: Bearer $TRACKEE_TOKEN" http://127.0.0.1:7777/v1/start"#:
            "needs trackee run serving http: (ServedRecipeTests runs the README's curl lines against one)",
        #"curl -H "Authorization: Bearer $TRACKEE_TOKEN" http://127.0.0.1:7777/v1/status"#:
            "needs trackee run serving http: (ServedRecipeTests runs the README's curl lines against one)",
        #"curl -N -H "Authorization: Bearer $TRACKEE_TOKEN" http://127.0.0.1:7777/v1/events/stream"#:
            "needs trackee run serving http: (ServedRecipeTests runs the README's curl lines against one)",
    ]

    /// Commands of a session (shown with output), which `notHere` must
    /// not name, run in the document's sandbox.
    struct Session {
        let sandbox: Sandbox
        var date: DateComponents
        var time: String
    }

    @Test func everyExampleRunsAsShown() throws {
        var listed = Set<String>()
        for document in Self.documents {
            let text = try String(contentsOf: RecipeTests.root.appendingPathComponent(document), encoding: .utf8)
            let examples = document.hasPrefix("man/")
                ? DocExample.roff(text, document: document) : DocExample.markdown(text, document: document)
            #expect(!examples.isEmpty, "no examples found in \(document)")
            var session: Session?
            var index = 0
            while index < examples.count {
                let example = examples[index]
                index += 1
                let clock = example.comment.flatMap(Self.clock)
                if example.prompted, let clock, let date = clock.date {
                    session = Session(sandbox: try Self.world(now: "2026-11-20 00:00"), date: date, time: clock.time)
                } else if example.prompted, let clock, session != nil {
                    if let weekday = clock.weekday { session!.date = Self.coming(weekday, from: session!.date) }
                    session!.time = clock.time
                }
                if example.prompted, let current = session {
                    // `$ echo $?` after a command shows its exit status.
                    var status: Int32 = 0
                    if index < examples.count, examples[index].command == "echo $?" {
                        status = Int32(examples[index].output.first ?? "") ?? -1
                        index += 1
                    }
                    try Self.runInSession(example, current, status: status)
                    continue
                }
                let key = (example.prompted ? "$ " : "") + example.command
                if Self.notHere[key] != nil {
                    listed.insert(key)
                    continue
                }
                try Self.runAlone(example)
            }
        }
        for command in Set(Self.notHere.keys).subtracting(listed).sorted() {
            Issue.record("notHere names \"\(command)\", which no document shows any more")
        }
    }

    // MARK: Sessions

    private static func runInSession(_ example: DocExample, _ session: Session, status: Int32) throws {
        let words = DocExample.arguments(example.command, home: session.sandbox.path("home"))
        if words.first == "cat", words.count == 2 {
            try session.sandbox.write(example.output.joined(separator: "\n") + "\n", to: words[1])
            return
        }
        guard words.first == "trackee" else {
            Issue.record("\(example): a session runs only trackee")
            return
        }
        let d = session.date
        let now = "\(d.year!)-\(d.month! < 10 ? "0" : "")\(d.month!)-\(d.day! < 10 ? "0" : "")\(d.day!) \(session.time)"
        let r = try session.sandbox.run(Array(words.dropFirst()), now: now)
        #expect(r.status == status, "\(example)\n\(r)")
        #expect(Self.lines(r.stderr) + Self.lines(r.stdout) == example.output, "\(example)\n\(r)")
    }

    /// Printed text as the documents show it, a line each; the CSV of
    /// `export` ends its lines in CRLF, which is one Character in Swift.
    static func lines(_ text: String) -> [String] {
        var text = text.replacingOccurrences(of: "\r\n", with: "\n")
        if text.hasSuffix("\n") { text.removeLast() }
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }

    /// `Fri 2026-11-20 09:00`, `Tue 09:12` or `09:00`; nil for a comment
    /// that is no time.
    static func clock(_ comment: String) -> (weekday: Int?, date: DateComponents?, time: String)? {
        var words = comment.split(separator: " ").map(String.init)
        guard let time = words.popLast(), time.range(of: #"^\d{1,2}:\d{2}$"#, options: .regularExpression) != nil else {
            return nil
        }
        var date: DateComponents?
        if let last = words.last, last.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil {
            let parts = last.split(separator: "-").map { Int($0)! }
            date = DateComponents(year: parts[0], month: parts[1], day: parts[2])
            words.removeLast()
        }
        var weekday: Int?
        if let name = words.last {
            guard let day = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].firstIndex(of: name) else { return nil }
            weekday = day + 1
            words.removeLast()
        }
        return words.isEmpty ? (weekday, date, time) : nil
    }

    /// The first date on or after `date` that falls on `weekday` (1 is Sunday).
    static func coming(_ weekday: Int, from date: DateComponents) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = calendar.date(from: date)!
        while calendar.component(.weekday, from: day) != weekday { day = calendar.date(byAdding: .day, value: 1, to: day)! }
        return calendar.dateComponents([.year, .month, .day], from: day)
    }

    // MARK: Commands on their own

    /// Runs a command shown without output in a sandbox set up as the
    /// documents say; it must exit 0.
    private static func runAlone(_ example: DocExample) throws {
        let t = try world(now: "2026-11-23 14:00")
        let words = DocExample.arguments(example.command, home: t.path("home"))
        guard words.first == "trackee" else {
            Issue.record("\(example): not trackee; list it in notHere with the reason")
            return
        }
        let r = try t.run(Array(words.dropFirst()))
        #expect(r.status == 0, "\(example)\n\(r)")
        if example.prompted {
            #expect(Self.lines(r.stderr) + Self.lines(r.stdout) == example.output, "\(example)\n\(r)")
        }
    }

    /// A sandbox as a reader who followed the documents has it: the rules
    /// README and recipes/README.md install (office hours, meetings, the
    /// office by location) in rules.d, the sample calendar in
    /// ~/.calendars/work, the sample track in ~/tracks, and in the working
    /// folder what the pages name relative to it (recipes' rules/ and
    /// location/, office-hours.yaml, focus-tracking.yaml,
    /// walk-to-office.gpx).
    static func world(now: String) throws -> Sandbox {
        // The default settings, as a reader has them: a new project needs
        // --new-project or `projects add`, as the documents must show.
        let t = try RecipeTests.sandbox(now: now, createProjects: nil)
        let recipes = RecipeTests.recipes
        let files = FileManager.default
        for rule in ["office-hours.yaml", "meetings.yaml", "office-arrive-leave.yaml"] {
            try t.write(String(contentsOf: recipes.appendingPathComponent("rules/" + rule), encoding: .utf8),
                        to: "config/trackee/rules.d/" + rule)
        }
        for rule in ["office-hours.yaml", "focus-tracking.yaml"] {
            try files.copyItem(atPath: RecipeTests.rule(rule), toPath: t.path(rule))
        }
        try files.copyItem(atPath: recipes.appendingPathComponent("rules").path, toPath: t.path("rules"))
        try files.copyItem(atPath: recipes.appendingPathComponent("location").path, toPath: t.path("location"))
        let track = recipes.appendingPathComponent("location/walk-to-office.gpx").path
        try files.copyItem(atPath: track, toPath: t.path("walk-to-office.gpx"))
        try files.createDirectory(atPath: t.path("home/tracks"), withIntermediateDirectories: true)
        try files.copyItem(atPath: track, toPath: t.path("home/tracks/2026-11-23.gpx"))
        return t
    }
}
