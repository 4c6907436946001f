import Foundation
import Testing
import TrackeeTestSupport

/// The web page through the real `trackee run`'s server (issue 38 §3,
/// Limits): the API's body limit refuses an oversized form before the
/// page reads it, and the access log shows the page's requests by route
/// and token name, never a path's id, a query or a token.
@Suite struct WebPageServerTests {
    @Test func theAPIsLimitsAndAccessLogCoverThePage() async throws {
        let s = try await ServingSandbox(http: ["access_log: true"])
        let root = s.sandbox.root
        let origin = ["--header", "Origin: \(s.url)"]
        let huge = try curl(origin + ["--data", "token=" + String(repeating: "a", count: 70_000)], s.url + "/sign-in", in: root)
        #expect(huge.status == 413, "\(huge)")
        let signedIn = try curl(origin + ["--include", "--data-urlencode", "token=\(s.token)"], s.url + "/sign-in", in: root)
        #expect(signedIn.status == 303, "\(signedIn)")
        let cookie = try #require(signedIn.body.components(separatedBy: "\r\n")
            .first { $0.hasPrefix("Set-Cookie: ") }?.dropFirst("Set-Cookie: ".count).split(separator: ";").first)
        let page = try curl(["--cookie", String(cookie)], s.url + "/?project=secret-query", in: root)
        #expect(page.status == 200)
        #expect(try curl(["--cookie", String(cookie)], s.url + "/entries/4711", in: root).status == 404)
        #expect(try curl(["--data", "token=wrong"], s.url + "/sign-in", in: root).status == 403)
        let ended = try await s.stop()
        let lines = ended.stderr.split(separator: "\n").filter { $0.contains("http: ") && $0.contains(" ms") }
            .map { line in line.split(separator: " ").dropLast(2).joined(separator: " ") }
        #expect(lines == [
            "trackee run: info: http: POST /sign-in 413 -",
            "trackee run: info: http: POST /sign-in 303 -",
            "trackee run: info: http: GET / 200 recipes",
            "trackee run: info: http: GET /entries/{id} 404 recipes",
            "trackee run: info: http: POST /sign-in 403 -",
        ], "\(ended.stderr)")
        #expect(!ended.stderr.contains(s.token))
        #expect(!ended.stderr.contains("secret-query"))
    }
}
