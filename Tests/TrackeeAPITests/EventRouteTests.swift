import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// `POST /v1/focus`, `/v1/events` and `/v1/owntracks`: lines for the
/// daemon, as `trackee run` reads them on stdin or from mosquitto_sub.
@Suite struct EventRouteTests {
    @Test func focusBecomesTheFocusEventLine() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/focus", #"{"mode":"work","state":"off"}"#)
        #expect(answer.status == 202)
        #expect(answer.text == #"{"accepted":true}"#)
        #expect(h.daemon.lines == [#"{"mode":"work","state":"off","type":"focus"}"#])
        #expect(h.daemon.sources == [.http(device: "phone")])
        let missing = await h.send("POST", "/v1/focus", #"{"state":"on"}"#)
        #expect(missing.text == problem(
            400, "missing-field", "The request cannot be read",
            "The field \"mode\" is missing; name the focus mode, as in {\"mode\": \"work\"}."))
        #expect(await h.send("POST", "/v1/focus", #"{"mode":"work","type":"idle"}"#).status == 400)
        #expect(h.daemon.lines.count == 1)
    }

    @Test func eventsPassTheLineAsSentAndARefusalIs422() async throws {
        let daemon = FakeDaemon { line in line.contains("nap") ? "stdin line 1: \"type\" nap is not an event" : nil }
        let h = try Harness(daemon: daemon)
        let answer = await h.send("POST", "/v1/events", "{\"type\":\"session\",\n \"state\":\"locked\"}\n")
        #expect(answer.status == 202)
        #expect(h.daemon.lines == [#"{"type":"session",  "state":"locked"}"#])
        let refused = await h.send("POST", "/v1/events", #"{"type":"nap"}"#)
        #expect(refused.status == 422)
        #expect(refused.text == problem(
            422, "event-refused", "The request cannot be carried out", "stdin line 1: \"type\" nap is not an event"))
        #expect(await h.send("POST", "/v1/events", "nap").status == 400)
        #expect(h.daemon.lines.count == 2)
    }

    /// Shaped as OwnTracks' HTTP-mode documentation (owntracks.org/booklet/
    /// tech/http and tech/json) shows: the app posts one JSON message a
    /// request, with Basic credentials and its user and device in
    /// X-Limit-U and X-Limit-D, sometimes an empty body (a deleted friend),
    /// and reads a JSON array back.
    @Test func ownTracksLocationsAndTransitionsGoToTheDaemon() async throws {
        let h = try Harness()
        let basic = [("Authorization", "Basic cGhvbmU6b3Qtc2VjcmV0"), ("X-Limit-U", "anna"), ("X-Limit-D", "phone")]
        let location = #"{"_type":"location","acc":12,"alt":48,"batt":81,"conn":"w","lat":52.5163,"lon":13.3777,"tid":"ph","tst":1795165200,"vac":3,"vel":0,"topic":"owntracks/anna/phone"}"#
        let transition = #"{"_type":"transition","wtst":1790000000,"lat":52.5163,"lon":13.3777,"tst":1795165260,"acc":12,"tid":"ph","event":"leave","desc":"Office","t":"c"}"#
        let lwt = #"{"_type":"lwt","tst":1795165300}"#
        for body in [location, transition, lwt, ""] {
            let answer = await h.send("POST", "/v1/owntracks", body, token: nil, headers: basic)
            #expect(answer.status == 200)
            #expect(answer.text == "[]")
            #expect(answer.header("Content-Type") == "application/json")
        }
        #expect(h.daemon.lines == [location, transition])
        #expect(h.daemon.sources == [.http(device: "phone"), .http(device: "phone")])
        let notOwnTracks = await h.send("POST", "/v1/owntracks", #"{"lat":1}"#, token: nil, headers: basic)
        #expect(notOwnTracks.status == 400)
    }
}
