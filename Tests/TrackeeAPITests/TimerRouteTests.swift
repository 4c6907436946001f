import Testing
import TrackeeAPI
import TrackeeCore
import TrackeeStore

/// `POST /v1/start|stop|cancel`: the CLI's fields, ensure semantics and
/// `--json` answer, with the source `http(device)`.
@Suite struct TimerRouteTests {
    let docsAtNine = #"{"billable":false,"description":"writing","duration_seconds":0,"id":1,"project":"Docs","running":true,"source":"http:phone","start":"2026-11-20T09:00:00Z","tags":["a","b"]}"#

    @Test func startAnswersWhatStartJSONPrints() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/start", #"{"project":"Docs","description":"writing","tags":["a","b"]}"#)
        #expect(answer.status == 200)
        #expect(answer.header("content-type") == "application/json")
        #expect(answer.text == #"{"created":["project \"Docs\""],"entry":\#(docsAtNine),"outcome":"started","replayed":false}"#)
        #expect(try h.store.running()?.source == "http:phone")
    }

    @Test func theSameStartAgainIsUnchangedAndAnotherSwitches() async throws {
        let h = try Harness()
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs","description":"writing","tags":["a","b"]}"#)
        h.clock.advance(seconds: 600)
        let again = await h.send("POST", "/v1/start", #"{"project":"Docs","description":"writing","tags":["a","b"]}"#)
        #expect(again.status == 200)
        #expect(again.text.hasPrefix(#"{"created":[],"entry":{"billable":false,"description":"writing","duration_seconds":600,"id":1,"#))
        #expect(again.text.hasSuffix(#""outcome":"unchanged","replayed":false}"#))

        let other = await h.send("POST", "/v1/start", #"{"project":"Mail"}"#)
        #expect(other.status == 200)
        #expect(other.text == #"{"created":["project \"Mail\""],"entry":{"billable":false,"description":"","duration_seconds":0,"id":2,"project":"Mail","running":true,"source":"http:phone","start":"2026-11-20T09:10:00Z","tags":[]},"outcome":"switched","previous":{"billable":false,"description":"writing","duration_seconds":600,"end":"2026-11-20T09:10:00Z","id":1,"project":"Docs","running":false,"source":"http:phone","start":"2026-11-20T09:00:00Z","tags":["a","b"]},"replayed":false}"#)
    }

    @Test func stopAtATimeAndCancelThenBothUnchanged() async throws {
        let h = try Harness()
        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#)
        h.clock.advance(seconds: 3600)
        let stop = await h.send("POST", "/v1/stop", #"{"at":"09:45"}"#)
        #expect(stop.status == 200)
        #expect(stop.text == #"{"created":[],"entry":{"billable":false,"description":"","duration_seconds":2700,"end":"2026-11-20T09:45:00Z","id":1,"project":"Docs","running":false,"source":"http:phone","start":"2026-11-20T09:00:00Z","tags":[]},"outcome":"stopped","replayed":false}"#)
        #expect(await h.send("POST", "/v1/stop").text == #"{"created":[],"outcome":"unchanged","replayed":false}"#)

        _ = await h.send("POST", "/v1/start", #"{"project":"Docs"}"#)
        let cancel = await h.send("POST", "/v1/cancel", "{}")
        #expect(cancel.status == 200)
        #expect(cancel.text.hasSuffix(#""outcome":"cancelled","replayed":false}"#))
        #expect(try h.store.running() == nil)
        #expect(await h.send("POST", "/v1/cancel").text == #"{"created":[],"outcome":"unchanged","replayed":false}"#)
    }

    @Test func atIsReadAsTheCLIReadsIt() async throws {
        let h = try Harness()
        let answer = await h.send("POST", "/v1/start", #"{"project":"Docs","at":"15 minutes ago"}"#)
        #expect(answer.status == 200)
        #expect(try h.store.running()?.start == Instant(seconds: nine.seconds - 900))
        let bad = await h.send("POST", "/v1/stop", #"{"at":"teatime"}"#)
        #expect(bad.status == 422)
        #expect(bad.text.hasPrefix(#"{"detail":"The field \"at\": "#))
        #expect(try h.store.running() != nil)
    }

    @Test func anUnknownProjectIsRefusedWhenCreationIsOff() async throws {
        let h = try Harness(createsProjects: false)
        let answer = await h.send("POST", "/v1/start", #"{"project":"Dcos"}"#)
        #expect(answer.status == 422)
        #expect(answer.header("Content-Type") == "application/problem+json")
        #expect(answer.text == problem(
            422, "unknown-project", "The request cannot be carried out",
            "The field \"project\": no project \"Dcos\"; create it with `trackee projects add`, or set create_projects: always."))
        #expect(try h.store.running() == nil)
    }

    @Test func badBodiesAreProblemsNamingTheField() async throws {
        let h = try Harness()
        let cases: [(String, String, Int, String, String)] = [
            ("/v1/start", "{\"project\":", 400, "bad-json", "The body is not JSON."),
            ("/v1/start", "[1]", 400, "bad-json", "The body is JSON but not an object."),
            ("/v1/start", #"{"tags":"a"}"#, 400, "wrong-type", "The field \"tags\" must be an array of strings."),
            ("/v1/start", #"{"tags":["a",1]}"#, 400, "wrong-type", "The field \"tags\" must be an array of strings."),
            ("/v1/start", #"{"project":7}"#, 400, "wrong-type", "The field \"project\" must be a string."),
            ("/v1/start", #"{"projet":"Docs"}"#, 400, "unknown-field",
             "The field \"projet\" is unknown here; the fields are at, client, description, idempotency_key, project, tags."),
            ("/v1/stop", #"{"project":"Docs"}"#, 400, "unknown-field",
             "The field \"project\" is unknown here; the fields are at, idempotency_key."),
            ("/v1/start", #"{"project":"  "}"#, 422, "blank-name",
             "The field \"project\" is blank; leave it out for a timer without a project."),
        ]
        for (path, body, status, kind, detail) in cases {
            let answer = await h.send("POST", path, body)
            let title = status == 400 ? "The request cannot be read" : "The request cannot be carried out"
            #expect(answer.status == status, "\(body)")
            #expect(answer.text == problem(status, kind, title, detail), "\(body)")
        }
        #expect(try h.store.running() == nil)
    }
}
