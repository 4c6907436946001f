import Foundation
import Testing
import TrackeeTestSupport

/// Per-device tokens against the running daemon: revoked ones are refused
/// at once, scopes hold, the device is the intent's source, and no token
/// is ever written anywhere but by the `tokens add` that made it.
@Suite struct TokenWireTests {
    @Test func aRevokedTokenIsRefusedOnItsNextRequestWhileTheDaemonRuns() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("phone")
        let hub = try d.token("hub", scopes: "read")
        #expect(try await d.curl("GET", "/v1/status", token: phone).status == 200)

        let revoke = try d.run("tokens", "revoke", "phone")
        #expect(revoke.status == 0, "\(revoke)")
        let refused = try await d.curl("GET", "/v1/status", token: phone)
        #expect(refused.status == 401, "\(refused)")
        #expect(refused.header("WWW-Authenticate") == #"Bearer realm="trackee""#)
        #expect(try refused.json()["type"] == "urn:trackee:problem:unauthorized")
        let start = try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"Docs"}"#)
        #expect(start.status == 401)

        #expect(d.process.process.isRunning)
        #expect(try await d.curl("GET", "/v1/status", token: hub).status == 200)
        #expect(try d.storedEntries() == [])
    }

    @Test func aReadTokenReadsButCannotStart() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let hub = try d.token("hub", scopes: "read")
        let start = try await d.curl("POST", "/v1/start", token: hub, body: #"{"project":"Docs"}"#)
        #expect(start.status == 403, "\(start)")
        #expect(try start.json() == problem(
            403, "forbidden", "Scope not granted", #"The token of device "hub" does not have the scope "start"."#))
        #expect(try d.storedEntries() == [])
        #expect(try d.intents() == [])
        #expect(try await d.curl("GET", "/v1/status", token: hub).status == 200)
        // The use is recorded: `tokens list` shows when.
        let list = try d.run("tokens", "list", "--json")
        #expect(try list.json()[0]["name"] == "hub")
        #expect(try list.json()[0]["last_used"].string != nil)
    }

    @Test func historyShowsTheDeviceAsTheSource() async throws {
        let d = try await ServingDaemon.start()
        defer { d.stop() }
        let phone = try d.token("alice-phone", scopes: "start,stop")
        #expect(try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"Docs"}"#).status == 200)
        #expect(try await d.curl("POST", "/v1/stop", token: phone).status == 200)

        let json = try d.run("history", "--json")
        #expect(json.status == 0, "\(json)")
        #expect(try json.json()["intents"].elements.map(\.["source"]) == ["http:alice-phone", "http:alice-phone"])
        #expect(try json.json()["intents"].elements.map(\.["outcome"]) == ["stopped", "started"])
        let text = try d.run("history")
        #expect(text.lines.count == 2, "\(text)")
        #expect(text.lines.allSatisfy { $0.contains(" http:alice-phone ") }, "\(text)")
    }

    /// A whole session (a start, a status, a bad request, a refused token,
    /// a revoke, the daemon's stop), then every output and every file of
    /// the sandbox searched for the tokens: only `tokens add` printed them.
    /// The daemon logs each request (`access_log: true`) and each failed
    /// authentication, and not even 8 characters of a token.
    @Test func noOutputAndNoFileEverHoldsAToken() async throws {
        let d = try await ServingDaemon.start(http: ["access_log: true"])
        defer { d.stop() }
        let phone = try d.token("phone")
        let hub = try d.token("hub", scopes: "read")

        #expect(try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"Docs"}"#).status == 200)
        #expect(try await d.curl("GET", "/v1/status", token: phone).status == 200)
        #expect(try await d.curl("POST", "/v1/start", token: phone, body: #"{"project":"#).status == 400)
        #expect(try await d.curl("POST", "/v1/start", token: hub, body: #"{"project":"Docs"}"#).status == 403)
        #expect(try await d.curl("GET", "/v1/status", token: String(phone.dropLast()) + "x").status == 401)
        #expect(try await d.curl("GET", "/v1/status", options: ["-u", "phone:\(phone)"]).status == 401)
        #expect(try await d.curl("POST", "/v1/owntracks", body: "{}", options: ["-u", "hub:\(phone)"]).status == 401)
        #expect(try d.run("tokens", "revoke", "hub").status == 0)
        #expect(try await d.curl("GET", "/v1/status", token: hub).status == 401)
        #expect(try d.run("tokens", "list").status == 0)
        #expect(try d.run("history").status == 0)
        let stopped = try await d.terminate()
        #expect(stopped.status == 0, "\(stopped)")

        let secrets = [phone, hub].flatMap { [$0, String($0.dropFirst("trk_".count))] }
        for (index, output) in d.outputs.enumerated() {
            for secret in secrets {
                #expect(!output.contains(secret), "output \(index): \(output)")
            }
        }
        #expect(stopped.stderr.contains("warning: http: authentication failed from 127.0.0.1: "), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("info: http: GET /v1/status 200 phone "), "\(stopped.stderr)")
        for secret in [phone, hub] {
            let random = Array(secret.dropFirst("trk_".count))
            for start in 0...(random.count - 8) {
                let part = String(random[start..<(start + 8)])
                #expect(!stopped.stderr.contains(part), "the daemon's log holds \"\(part)\"")
            }
        }
        var files = 0
        let walker = FileManager.default.enumerator(atPath: d.sandbox.root.path)
        while let relative = walker?.nextObject() as? String {
            let path = d.sandbox.path(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue
            else { continue }
            files += 1
            let bytes = try d.sandbox.bytes(path)
            for secret in secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(relative) holds a token")
            }
        }
        // The store and the settings at least.
        #expect(files >= 2)
        #expect(d.outputs.count >= 20)
    }
}
