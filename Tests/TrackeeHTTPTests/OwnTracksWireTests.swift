import Foundation
import Testing
import TrackeeTestSupport

/// OwnTracks in HTTP mode: a phone's messages posted one by one, as the
/// app posts them, fire the place rules exactly as the same messages do
/// through `trackee feed`.
@Suite struct OwnTracksWireTests {
    /// trackee's own geofence around the office, from the positions, and
    /// the phone's own region "client", from its transitions.
    static let rules = """
        places:
          office: {lat: 50.0875, lon: 14.4213, radius: 150}
          client: {lat: 50.0740, lon: 14.4395, radius: 120}
        rules:
          - id: office-arrive
            when: {arrive: office}
            do: [{start: {project: Office}}]
          - id: office-leave
            when: {leave: office}
            do: [{stop: }]
          - id: client-arrive
            when: {arrive: client, source: owntracks}
            do: [{start: {project: Client visit}}]
          - id: client-leave
            when: {leave: client, source: owntracks}
            do: [{stop: }]
        """

    /// Alice's phone in move mode, starting at `base`: a walk into the
    /// office and out, its own region "client" entered and left, and the
    /// card and last will the app sends besides.
    static func messages(from base: Int) -> [String] {
        [
            #"{"_type":"card","name":"Alice","tid":"al"}"#,
            #"{"_type":"location","tid":"al","lat":50.084982,"lon":14.425645,"acc":12,"alt":238,"batt":81,"bs":1,"conn":"m","tst":\#(base),"vac":5,"vel":5,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.086061,"lon":14.423683,"acc":8,"alt":236,"batt":81,"bs":1,"conn":"m","tst":\#(base + 150),"vac":4,"vel":5,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.087095,"lon":14.421861,"acc":16,"alt":237,"batt":80,"bs":1,"conn":"w","tst":\#(base + 220),"vac":6,"vel":3,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.087320,"lon":14.421510,"acc":20,"alt":241,"batt":80,"bs":1,"conn":"w","tst":\#(base + 310),"vac":9,"vel":1,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.087338,"lon":14.421468,"acc":30,"alt":240,"batt":80,"bs":1,"conn":"w","tst":\#(base + 540),"vac":12,"vel":0,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.089209,"lon":14.418917,"acc":10,"alt":235,"batt":79,"bs":1,"conn":"m","tst":\#(base + 680),"vac":4,"vel":5,"m":1,"t":"u"}"#,
            #"{"_type":"location","tid":"al","lat":50.095414,"lon":14.410647,"acc":6,"alt":231,"batt":79,"bs":1,"conn":"m","tst":\#(base + 1020),"vac":3,"vel":22,"m":1,"t":"u"}"#,
            #"{"_type":"transition","tid":"al","event":"enter","desc":"client","lat":50.07401,"lon":14.43952,"acc":15,"tst":\#(base + 1530),"wtst":1794902400,"rid":"b7c1e2","t":"c"}"#,
            #"{"_type":"transition","tid":"al","event":"leave","desc":"client","lat":50.07602,"lon":14.43601,"acc":18,"tst":\#(base + 2400),"wtst":1794902400,"rid":"b7c1e2","t":"c"}"#,
            #"{"_type":"lwt","tst":\#(base + 2500)}"#,
        ]
    }

    @Test func postedMessagesFireThePlaceRulesAsTheFeedDoes() async throws {
        // Two hours ago, on a whole minute, so both runs see the same past.
        let base = Int(Date().timeIntervalSince1970) / 60 * 60 - 7200
        let messages = Self.messages(from: base)

        let d = try await ServingDaemon.start(rules: Self.rules)
        defer { d.stop() }
        let phone = try d.token("alice-phone", scopes: "owntracks")
        for message in messages {
            let answer = try await d.curl(
                "POST", "/v1/owntracks", body: message,
                headers: ["X-Limit-U: alice", "X-Limit-D: phone", "User-Agent: Owntracks-Android/2.5.3"],
                options: ["-u", "alice-phone:\(phone)"])
            #expect(answer.status == 200, "\(message): \(answer)")
            #expect(answer.text == "[]")
        }
        let served = { try d.rows("SELECT rule, occurred FROM rule_firing ORDER BY occurred") }
        #expect(await eventually(within: 15) { (try? served().count) == 4 }, "\(d.stderrSoFar)")

        let fed = try Sandbox()
        fed.now = ""
        try fed.write(Self.rules, to: "config/trackee/rules.yaml")
        let file = try fed.write(messages.map { $0 + "\n" }.joined(), to: "phone.json")
        let feed = try fed.run("feed", "--rules", fed.path("config/trackee/rules.yaml"), file)
        #expect(feed.status == 0, "\(feed)")
        #expect(feed.lines.last == "read 11 lines, 9 fixes used, 0 ignored, 4 transitions, 4 rules fired",
                "\(feed)")

        let firings = try served().map { "\($0[0] as String) \(($0[1] as Int) - base)" }
        #expect(firings == ["office-arrive 220", "office-leave 680", "client-arrive 1530", "client-leave 2400"])
        let fedFirings = try ServingDaemon.rows(fed.storePath, "SELECT rule, occurred FROM rule_firing ORDER BY occurred")
        #expect(fedFirings.map { "\($0[0] as String) \(($0[1] as Int) - base)" } == firings)

        let servedExport = try d.run("export", "--format", "json")
        let fedExport = try fed.run("export", "--format", "json")
        #expect(servedExport.status == 0)
        #expect(servedExport.stdout == fedExport.stdout)
        #expect(try servedExport.json().elements.map(\.["project"]) == ["Office", "Client visit"])
        #expect(try servedExport.json().elements.map(\.["source"]) == ["rule:office-arrive", "rule:client-arrive"])
    }
}
