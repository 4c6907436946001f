import Testing
import TrackeeAPI
import TrackeeAutomation
import TrackeeCore
import TrackeeLocation
import TrackeeStore

/// `POST /v1/focus`, `/v1/events` and `/v1/owntracks`: decoded as
/// `trackee run` decodes its stdin's lines (or mosquitto_sub's), and the
/// daemon is handed the typed events.
@Suite struct EventRouteTests {
    @Test func focusBecomesTheFocusEvent() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/focus", #"{"mode":"work","state":"off"}"#)
        #expect(answer.status == 202)
        #expect(answer.text == #"{"accepted":true}"#)
        #expect(h.daemon.inputs == [.event(.focus(mode: "work", state: .off, time: nil))])
        #expect(h.daemon.sources == [.http(device: "phone")])
        let missing = await h.send("POST", "/v1/focus", #"{"state":"on"}"#)
        #expect(missing.text == problem(
            400, "missing-field", "The request cannot be read",
            "The field \"mode\" is missing; name the focus mode, as in {\"mode\": \"work\"}."))
        #expect(await h.send("POST", "/v1/focus", #"{"mode":"work","type":"idle"}"#).status == 400)
        let badState = await h.send("POST", "/v1/focus", #"{"mode":"work","state":"of","time":"08:00"}"#)
        #expect(badState.text == problem(
            422, "event-refused", "The request cannot be carried out", "stdin line 1: \"state\" must be \"on\" or \"off\""))
        let timed = await h.send("POST", "/v1/focus", #"{"mode":" deep ","time":"08:00"}"#)
        #expect(timed.status == 202)
        #expect(h.daemon.inputs.count == 2)
        #expect(h.daemon.inputs.last == .event(.focus(mode: "deep", state: .on, time: nine - 3600)))
    }

    @Test func eventsAreDecodedAsStdinsLinesAndARefusalIs422() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/events", "{\"type\":\"session\",\n \"state\":\"locked\"}\n")
        #expect(answer.status == 202)
        #expect(h.daemon.inputs == [.event(.desk(.session(.locked), time: nil))])
        let refused = await h.send("POST", "/v1/events", #"{"type":"nap"}"#)
        #expect(refused.status == 422)
        #expect(refused.text == problem(
            422, "event-refused", "The request cannot be carried out",
            "stdin line 1: unknown event type \"nap\" (known: focus, idle, session, sleep, network, power, device, flip)"))
        let badField = await h.send("POST", "/v1/events", #"{"type":"network","state":"connected"}"#)
        #expect(badField.text == problem(
            422, "event-refused", "The request cannot be carried out", "stdin line 1: \"connection\" is missing or blank"))
        #expect(await h.send("POST", "/v1/events", "nap").status == 400)
        let idle = await h.send("POST", "/v1/events", #"{"type":"idle","idle_for":60,"time":1795165200}"#)
        #expect(idle.status == 202)
        #expect(h.daemon.inputs == [
            .event(.desk(.session(.locked), time: nil)),
            .event(.desk(.idle(since: Instant(seconds: 1_795_165_140)), time: Instant(seconds: 1_795_165_200))),
        ])
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
        guard h.daemon.inputs.count == 2, case .place(.fix(let fix)) = h.daemon.inputs[0],
            case .place(.transition(let left)) = h.daemon.inputs[1]
        else {
            Issue.record("not a fix and a transition: \(h.daemon.inputs)")
            return
        }
        #expect([fix.latitude, fix.longitude, fix.accuracy] == [52.5163, 13.3777, 12])
        #expect([left.place, left.transition.rawValue] == ["Office", "leave"])
        #expect([left.fix.latitude, left.fix.longitude] == [52.5163, 13.3777])
        #expect(h.daemon.sources == [.http(device: "phone"), .http(device: "phone")])
        let notOwnTracks = await h.send("POST", "/v1/owntracks", #"{"lat":1}"#, token: nil, headers: basic)
        #expect(notOwnTracks.status == 400)
    }
}
