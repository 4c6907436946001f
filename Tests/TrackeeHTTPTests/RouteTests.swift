import Foundation
import Testing
import TrackeeTestSupport

/// Every route's happy path through a socket: curl against `trackee run`,
/// its answers held to what the CLI prints and the store holds.
@Suite struct RouteTests {
    @Test func startThenSwitchThenTheSameStartIsUnchanged() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")

        let started = try await d.curl(
            "POST", "/v1/start", token: phone, body: #"{"project":"Docs","description":"writing","tags":["a","b"]}"#)
        #expect(started.status == 200, "\(started)")
        #expect(started.header("Content-Type") == "application/json")
        let first = try started.json()
        #expect(first["outcome"] == "started")
        #expect(first["replayed"] == false)
        #expect(first["created"] == [#"project "Docs""#])
        #expect(first["previous"] == .absent)
        #expect(first["entry"]["id"] == 1)
        #expect(first["entry"]["project"] == "Docs")
        #expect(first["entry"]["description"] == "writing")
        #expect(first["entry"]["tags"] == ["a", "b"])
        #expect(first["entry"]["running"] == true)
        #expect(first["entry"]["source"] == "http:phone")

        let switched = try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"Mail"}"#)
        #expect(switched.status == 200, "\(switched)")
        let second = try switched.json()
        #expect(second["outcome"] == "switched")
        #expect(second["entry"]["id"] == 2)
        #expect(second["entry"]["project"] == "Mail")
        #expect(second["previous"]["id"] == 1)
        #expect(second["previous"]["running"] == false)
        #expect(second["previous"]["end"] == second["entry"]["start"])

        let again = try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"Mail"}"#)
        #expect(again.status == 200, "\(again)")
        let third = try again.json()
        #expect(third["outcome"] == "unchanged")
        #expect(third["created"] == [])
        #expect(third["entry"]["id"] == 2)

        #expect(try d.storedEntries() == ["1 Docs http:phone", "2 Mail http:phone running"])
        #expect(try d.intents() == [
            "http:phone start started -", "http:phone start switched -", "http:phone start unchanged -",
        ])
    }

    @Test func stopAndCancelAnswerTheEntryTheyEnded() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")
        #expect(try d.run("start", "-p", "Docs").status == 0)

        let stopped = try await d.curl("POST", "/v1/stop", token: phone, body: "{}")
        #expect(stopped.status == 200, "\(stopped)")
        let stop = try stopped.json()
        #expect(stop["outcome"] == "stopped")
        #expect(stop["entry"]["id"] == 1)
        #expect(stop["entry"]["running"] == false)
        #expect(stop["entry"]["source"] == "cli")
        let nothing = try await d.curl("POST", "/v1/stop", token: phone)
        #expect(nothing.status == 200)
        #expect(nothing.text == #"{"created":[],"outcome":"unchanged","replayed":false}"#)

        #expect(try d.run("start", "-p", "Mail").status == 0)
        let cancelled = try await d.curl("POST", "/v1/cancel", token: phone, body: "{}")
        #expect(cancelled.status == 200, "\(cancelled)")
        let cancel = try cancelled.json()
        #expect(cancel["outcome"] == "cancelled")
        #expect(cancel["entry"]["id"] == 2)
        #expect(try d.storedEntries() == ["1 Docs cli"])
        #expect(try d.intents() == [
            "cli start started -", "http:phone stop stopped -", "http:phone stop unchanged -",
            "cli start started -", "http:phone cancel cancelled -",
        ])
    }

    /// The same fields and values as `trackee status --json`; the
    /// running times may have moved on by the seconds between the two.
    @Test func statusIsWhatStatusJSONPrints() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        #expect(try d.run("add", "--from", "1 hour ago", "--to", "30 minutes ago", "-p", "Earlier").status == 0)
        #expect(try d.run("start", "-p", "Docs", "--at", "10 minutes ago", "writing").status == 0)

        // The times run on between the two by the seconds the two take.
        let before = Date()
        let answer = try await d.curl("GET", "/v1/status", token: hub)
        let cli = try d.run("status", "--json")
        let took = Int64(Date().timeIntervalSince(before).rounded(.up))
        #expect(answer.status == 200, "\(answer)")
        #expect(cli.status == 0, "\(cli)")
        let served = try answer.json()
        let printed = try cli.json()
        #expect(served.keys == printed.keys)
        #expect(served["running"].keys == printed["running"].keys)
        for key in printed["running"].keys where key != "duration_seconds" {
            #expect(served["running"][key] == printed["running"][key], "running.\(key)")
        }
        #expect(served["running"]["project"] == "Docs")
        for (a, b) in [
            (served["elapsed_seconds"], printed["elapsed_seconds"]),
            (served["running"]["duration_seconds"], printed["running"]["duration_seconds"]),
            (served["today_seconds"], printed["today_seconds"]), (served["week_seconds"], printed["week_seconds"]),
        ] {
            let moved = (b.int ?? -100) - (a.int ?? 0)
            #expect(moved >= 0 && moved <= took, "served \(a), printed \(b), \(took) s apart")
        }
        #expect((served["elapsed_seconds"].int ?? 0) >= 600)
    }

    @Test func entriesAreWhatExportWrites() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        #expect(try d.run("add", "--from", "2026-11-02 09:00", "--to", "2026-11-02 10:30", "-p", "Docs", "--tag", "a").status == 0)
        #expect(try d.run("add", "--from", "2026-11-03 14:00", "--to", "2026-11-03 14:45", "-p", "Mail", "answers").status == 0)
        #expect(try d.run("add", "--from", "2026-11-09 08:00", "--to", "2026-11-09 09:00", "-p", "Late").status == 0)

        let answer = try await d.curl(
            "GET", "/v1/entries", token: hub,
            options: ["--get", "--data-urlencode", "from=2026-11-01", "--data-urlencode", "to=2026-11-08"])
        let export = try d.run("export", "--format", "json", "--from", "2026-11-01", "--to", "2026-11-08")
        #expect(answer.status == 200, "\(answer)")
        #expect(export.status == 0, "\(export)")
        #expect(answer.text == export.stdout)
        #expect(try answer.json().elements.map(\.["project"]) == ["Docs", "Mail"])
    }

    /// A focus posted over HTTP is the daemon's focus: the store records
    /// it from the device, and the focus rules fire.
    @Test func focusSetsTheFocusAndFiresItsRules() async throws {
        let d = try await ServingDaemon.start(rules: """
            rules:
              - id: deep
                when: {focus: deep}
                do: [{start: {project: Deep work}}]
            """)
        defer { d.stop() }
        let phone = try d.token("phone", scopes: "events")
        let time = Int(Date().timeIntervalSince1970) / 60 * 60 - 60

        let answer = try await d.curl("POST", "/v1/focus", token: phone, body: #"{"mode":"deep","time":\#(time)}"#)
        #expect(answer.status == 202, "\(answer)")
        #expect(answer.text == #"{"accepted":true}"#)
        #expect(await eventually(within: 10) { (try? d.storedEntries()) == ["1 Deep work rule:deep running"] })
        let change = try d.rows("SELECT mode, at, source FROM focus_change")
        #expect(change.map { "\($0[0] as String) \($0[1] as Int) \($0[2] as String)" } == ["deep \(time) http:phone"])
        #expect(try d.run("focus", "show").lines.first?.hasPrefix("focus deep since ") == true)
    }

    /// Any event line `trackee run` reads on stdin, posted: the daemon
    /// takes it (202), and its rule fires.
    @Test func eventsTakesAnEventLineAndItsRuleFires() async throws {
        let d = try await ServingDaemon.start(rules: """
            rules:
              - id: locked
                when: {session: locked}
                do: [{stop: }]
            """)
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "events")
        #expect(try d.run("start", "-p", "Docs").status == 0)

        let answer = try await d.curl("POST", "/v1/events", token: hub, body: #"{"type":"session","state":"locked"}"#)
        #expect(answer.status == 202, "\(answer)")
        #expect(answer.text == #"{"accepted":true}"#)
        #expect(await eventually(within: 10) { (try? d.storedEntries()) == ["1 Docs cli"] })
        let intents = try d.rows("SELECT source, action, outcome FROM intent_log ORDER BY id").map {
            "\($0[0] as String) \($0[1] as String) \($0[2] as String)"
        }
        #expect(intents == ["cli start started", "rule:locked stop stopped"])
    }

    @Test func ownTracksTakesBasicCredentialsNamedForTheDevice() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("alice-phone", scopes: "owntracks")
        let location = #"{"_type":"location","tid":"al","lat":50.0875,"lon":14.4213,"acc":12,"tst":\#(Int(Date().timeIntervalSince1970) - 60)}"#

        let answer = try await d.curl("POST", "/v1/owntracks", body: location, options: ["-u", "alice-phone:\(phone)"])
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.header("Content-Type") == "application/json")
        #expect(answer.text == "[]")

        let wrongUser = try await d.curl("POST", "/v1/owntracks", body: location, options: ["-u", "bob-phone:\(phone)"])
        #expect(wrongUser.status == 401, "\(wrongUser)")
        #expect(wrongUser.headerText.contains("\r\nWWW-Authenticate: Basic realm=\"trackee\", charset=\"UTF-8\"\r\n"))
        #expect(try wrongUser.json() == problem(
            401, "unauthorized", "Credentials missing or wrong",
            "Send a token made by `trackee tokens add` as Authorization: Bearer <token> "
                + "(OwnTracks: as HTTP Basic credentials, user = device)."))

        // What the app sends besides positions is taken and ignored.
        let card = try await d.curl(
            "POST", "/v1/owntracks", body: #"{"_type":"card","name":"Alice","tid":"al"}"#,
            options: ["-u", "alice-phone:\(phone)"])
        #expect(card.status == 200)
        #expect(card.text == "[]")
    }

    @Test func openAPIIsServedAndParses() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        let answer = try await d.curl("GET", "/v1/openapi.json", token: hub)
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.header("Content-Type") == "application/json")
        let document = try answer.json()
        #expect(document["openapi"].string?.hasPrefix("3.1") == true)
        #expect(document["paths"].keys == [
            "/v1/cancel", "/v1/entries", "/v1/events", "/v1/events/stream", "/v1/focus", "/v1/openapi.json",
            "/v1/owntracks", "/v1/reports/detailed", "/v1/reports/summary", "/v1/reports/weekly", "/v1/start", "/v1/status",
            "/v1/stop",
        ])
    }

    /// The daemon's reports: JSON equal to `trackee report --json`, and a
    /// PDF and a workbook that `trackee-report` beside it wrote.
    @Test func reportsAreTheCommandsAndPDFAndXLSXComeFromTrackeeReport() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let dashboard = try d.token("dashboard", scopes: "read")
        #expect(try d.run("add", "-p", "Docs", "--from", "2026-11-16T09:00:00Z", "--to", "2026-11-16T11:30:00Z").status == 0)
        #expect(try d.run("add", "-p", "Mail", "--from", "2026-11-17T08:00:00Z", "--to", "2026-11-17T08:45:00Z").status == 0)
        let json = try await d.curl("GET", "/v1/reports/summary?from=2026-11-16T00:00:00Z&to=2026-11-23T00:00:00Z", token: dashboard)
        #expect(json.status == 200, "\(json)")
        let cli = try d.run("report", "--from", "2026-11-16T00:00:00Z", "--to", "2026-11-23T00:00:00Z", "--json")
        let served = try json.json()
        let printed = try JSONDecoder().decode(JSONValue.self, from: Data(cli.stdout.utf8))
        // Made a moment apart: all else is the same.
        guard case .object(var servedFields) = served, case .object(var printedFields) = printed else {
            Issue.record("not objects: \(json) \(cli.stdout)")
            return
        }
        #expect(servedFields.removeValue(forKey: "generated_at") != nil)
        #expect(printedFields.removeValue(forKey: "generated_at") != nil)
        #expect(servedFields == printedFields)
        #expect(served["total"]["seconds"] == 11_700)
        let pdf = try await d.curl("GET", "/v1/reports/summary?format=pdf", token: dashboard)
        #expect(pdf.status == 200, "\(pdf)")
        #expect(pdf.header("Content-Type") == "application/pdf")
        #expect(pdf.body.prefix(5) == Data("%PDF-".utf8))
        let xlsx = try await d.curl("GET", "/v1/reports/weekly", token: dashboard,
                                    headers: ["Accept: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"])
        #expect(xlsx.status == 200, "\(xlsx)")
        #expect(xlsx.body.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
    }
}
