import Foundation
import Glibc
import Testing
import TrackeeTestSupport

/// `GET /v1/events/stream`: Server-Sent Events of timer changes from any
/// process and of rule firings, a heartbeat, and a clean end when the
/// daemon stops.
@Suite struct EventStreamTests {
    /// A start made with the CLI beside the daemon reaches a connected
    /// client within 100 ms of the CLI's exit.
    @Test func aStartMadeWithTheCLIArrivesWithin100Milliseconds() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let bar = try d.token("waybar", scopes: "read")
        let run = try await d.python(
            "event_stream.py", [bar, "started", try TrackeeBinary.path(), "start", "-p", "Docs", "--key", "bar-1"])
        #expect(run["status"] == 200, "\(run)")
        #expect(run["content_type"].string?.hasPrefix("text/event-stream") == true, "\(run)")
        #expect(run["exit_status"] == 0, "\(run)")

        let lines = run["lines"].elements.map { (time: $0[0], text: $0[1].string ?? "") }
        #expect(lines.first?.text.hasPrefix(": trackee ") == true, "\(run)")
        guard let event = lines.firstIndex(where: { $0.text == "event: started" }), event + 1 < lines.count,
              case .number(let arrived) = lines[event].time, case .number(let exited) = run["exited"]
        else {
            Issue.record("no started event: \(run)")
            return
        }
        let latency = arrived - exited
        #expect(latency <= 0.1, "the event came \(Int(latency * 1000)) ms after the CLI exited")
        #expect(lines[event - 1].text == "id: i1")
        let data = try parsedJSON(String(lines[event + 1].text.dropFirst("data: ".count)))
        #expect(data["outcome"] == "started")
        #expect(data["source"] == "cli")
        #expect(data["key"] == "bar-1")
        #expect(data["previous"] == .null)
        #expect(data["entry"]["id"] == 1)
        #expect(data["entry"]["project"] == "Docs")
        #expect(data["entry"]["running"] == true)
    }

    /// A rule firing comes as `fired` beside the timer change it made;
    /// heartbeats come every `heartbeat` seconds; SIGTERM ends the stream
    /// with `event: end` and curl exits 0.
    @Test func firingsHeartbeatsAndTheEndWhenTheDaemonStops() async throws {
        let d = try await ServingDaemon.start(http: ["heartbeat: 1"], rules: """
            rules:
              - id: deep
                name: Deep work
                when: {focus: deep}
                do: [{start: {project: Deep work}}]
            """)
        defer { d.stop() }
        let bar = try d.token("waybar", scopes: "read")
        let phone = try d.token("phone", scopes: "events")
        let streamFile = try d.sandbox.write("", to: "stream.txt")
        let curl = try ChildProcess(
            Curl.executable,
            ["-sS", "-N", "-o", streamFile, "-H", "Authorization: Bearer \(bar)", d.url("/v1/events/stream")],
            in: d.sandbox)
        defer { curl.stop() }
        let stream = { String(decoding: (try? d.sandbox.bytes(streamFile)) ?? Data(), as: UTF8.self) }
        #expect(await eventually(within: 10) { stream().hasPrefix(": trackee ") }, "\(stream())")

        let focus = try await d.curl("POST", "/v1/focus", token: phone, body: #"{"mode":"deep"}"#)
        #expect(focus.status == 202, "\(focus)")
        #expect(await eventually(within: 10) { stream().contains("event: fired\n") && stream().contains("event: started\n") },
                "\(stream())")
        #expect(await eventually(within: 5) { stream().contains(": heartbeat\n") }, "\(stream())")

        let stopped = try await d.terminate()
        #expect(stopped.status == 0, "\(stopped)")
        let ended = try await curl.finish()
        #expect(ended.status == 0, "curl: \(ended.stderr)")
        let text = stream()
        #expect(text.hasSuffix("event: end\ndata: {}\n\n"), "\(text)")

        let events = Self.events(text)
        #expect(events.map(\.event).filter { $0 != "heartbeat" } == ["fired", "started", "end"]
                || events.map(\.event).filter { $0 != "heartbeat" } == ["started", "fired", "end"], "\(text)")
        let fired = try #require(events.first { $0.event == "fired" })
        #expect(fired.id.hasPrefix("f"))
        let firing = try parsedJSON(fired.data)
        #expect(firing["rule"] == "deep")
        #expect(firing["trigger"].string?.contains("deep") == true, "\(fired.data)")
        #expect(firing["occurred"].string != nil)
        let started = try #require(events.first { $0.event == "started" })
        let change = try parsedJSON(started.data)
        #expect(change["source"] == "rule:deep")
        #expect(change["entry"]["project"] == "Deep work")
    }

    /// The events of a stream's text: id, event name and data of each;
    /// comments (heartbeats) as events named "heartbeat".
    static func events(_ text: String) -> [(id: String, event: String, data: String)] {
        var events: [(id: String, event: String, data: String)] = []
        for block in text.components(separatedBy: "\n\n") where !block.isEmpty {
            var id = "", event = "", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                if line == ": heartbeat" { event = "heartbeat" }
            }
            if !event.isEmpty { events.append((id, event, data)) }
        }
        return events
    }
}

/// The web page's `GET /events`: the same frames as the API's stream, and
/// `changed` for every step of the journal (an edit, a delete, an undo
/// from the CLI), which the API's stream does not send.
@Suite struct PageEventStreamTests {
    @Test func thePagesStreamHearsEditsAndUndosAndTheAPIsDoesNot() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let tablet = try d.token("tablet", scopes: "read")
        let signIn = try ChildProcess(
            Curl.executable,
            ["-sS", "-i", "-H", "Origin: http://127.0.0.1:\(d.port)", "--data-urlencode", "token=\(tablet)", d.url("/sign-in")],
            in: d.sandbox)
        let signedIn = try await signIn.finish()
        let cookie = try #require(signedIn.stdout.components(separatedBy: "\r\n")
            .first { $0.hasPrefix("Set-Cookie: ") }?.dropFirst("Set-Cookie: ".count).split(separator: ";").first)
        let pageFile = try d.sandbox.write("", to: "page.txt")
        let apiFile = try d.sandbox.write("", to: "api.txt")
        let page = try ChildProcess(Curl.executable, ["-sS", "-N", "-o", pageFile, "-b", String(cookie), d.url("/events")],
                                    in: d.sandbox)
        defer { page.stop() }
        let api = try ChildProcess(
            Curl.executable, ["-sS", "-N", "-o", apiFile, "-H", "Authorization: Bearer \(tablet)", d.url("/v1/events/stream")],
            in: d.sandbox)
        defer { api.stop() }
        let read = { (file: String) in String(decoding: (try? d.sandbox.bytes(file)) ?? Data(), as: UTF8.self) }
        #expect(await eventually(within: 10) { read(pageFile).hasPrefix(": trackee ") && read(apiFile).hasPrefix(": trackee ") })

        #expect(try d.run("add", "-p", "Docs", "--from", "09:00", "--to", "10:00").status == 0)
        #expect(await eventually(within: 10) { read(pageFile).contains("event: changed\n") }, "\(read(pageFile))")
        let first = EventStreamTests.events(read(pageFile)).filter { $0.event == "changed" }.count
        #expect(try d.run("edit", "1", "-d", "edited").status == 0)
        #expect(try d.run("undo").status == 0)
        let undone: Int64 = try #require(try d.rows("SELECT MAX(step) FROM journal").first?[0])
        #expect(await eventually(within: 10) {
            EventStreamTests.events(read(pageFile)).last { $0.event == "changed" }?.id == "s\(undone)"
        }, "\(read(pageFile))")
        #expect(EventStreamTests.events(read(pageFile)).filter { $0.event == "changed" }.count > first)
        #expect(EventStreamTests.events(read(pageFile)).last { $0.event == "changed" }?.data == "{\"step\":\(undone)}")
        // A timer change reaches both; only the page's has `changed`.
        #expect(try d.run("start", "-p", "Review").status == 0)
        #expect(await eventually(within: 10) { read(apiFile).contains("event: started\n") && read(pageFile).contains("event: started\n") })
        #expect(!read(apiFile).contains("event: changed"))
    }
}
