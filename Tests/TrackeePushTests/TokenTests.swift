import Foundation
import Testing
import TrackeeCore
import TrackeePush
import TrackeeTestSupport

/// No failure text shows the token, whatever went wrong, even when the
/// service puts it in its error message. (Every failure in the other
/// suites is checked as well, through `serviceFailure` and `httpFailure`.)
@Suite struct TokenTests {
    @Test(arguments: ["clockify", "toggl"])
    func noFailureTextContainsTheToken(service name: String) throws {
        let fake = try FakeTimeServiceProcess(service: name, token: secretToken)
        func service(token: String = secretToken, workspace: String = "My Company", createMissing: Bool = true,
                     timeout: Double = 10) -> any TimeService {
            name == "clockify"
                ? ClockifyService(baseURL: fake.baseURL, token: token, workspace: workspace, createMissing: createMissing,
                                  timeout: timeout)
                : TogglService(baseURL: fake.baseURL, token: token, workspace: workspace, createMissing: createMissing,
                               timeout: timeout)
        }
        var texts: [String] = []
        func record(_ body: () throws -> Void) {
            do {
                try body()
                Issue.record("expected a failure")
            } catch {
                texts.append("\(error)")
            }
        }
        let entry = pushed("Docs", monday(), monday(minutes: 30))
        let creates = name == "clockify" ? "^POST .*/time-entries$" : "^POST .*/time_entries$"

        record { _ = try service(token: "wrong-" + secretToken).identity() }
        record { _ = try service(workspace: "Nope").identity() }
        record { _ = try service(createMissing: false).create(pushed("Docs", monday(), monday(minutes: 30),
                                                                     project: RemoteProjectName(name: "Nope", client: nil))) }
        let s = service(timeout: 1)
        _ = try s.identity()
        for status in [400, 401, 403, 404, 429, 500, 502] {
            try fake.fail(["match": creates, "mode": "status", "status": status, "message": "bad token \(secretToken)"])
            record { _ = try s.create(entry) }
        }
        for mode in ["drop_after_store", "drop", "hang"] {
            try fake.fail(["match": creates, "mode": mode, "seconds": 5])
            record { _ = try s.create(entry) }
        }
        record { try s.delete(id: "1234") }
        try fake.down(mode: "close")
        record { _ = try s.create(entry) }
        // Down while down is ignored: up first, to switch the mode.
        try fake.up()
        try fake.down(mode: "refuse")
        record { _ = try s.create(entry) }

        #expect(texts.count == 16)
        #expect(texts.last?.contains(": could not connect (") == true)
        // The service's echo was kept, with the token taken out.
        #expect(texts.filter { $0.hasSuffix("bad token (token)") || $0.hasSuffix("bad token (token))") }.count == 5)
        for text in texts {
            #expect(!text.contains(secretToken), "the token is in \(text.debugDescription)")
        }
    }
}
