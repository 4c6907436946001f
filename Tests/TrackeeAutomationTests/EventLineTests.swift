import Glibc
import Testing
import TrackeeCore
@testable import TrackeeAutomation

extension EventLine {
    static func parse(_ text: String, line: Int) throws(Failure) -> EventLine? {
        try parse(text, line: line, now: Instant(seconds: 1_795_165_200), zone: try! Zone(identifier: "Europe/Prague"))
    }
}

@Suite struct EventLineTests {
    @Test func focusLines() throws {
        #expect(try EventLine.parse(#"{"type":"focus","mode":"work","state":"on"}"#, line: 1)
            == .focus(mode: "work", state: .on, time: nil))
        #expect(try EventLine.parse(#" {"type":"focus","mode":" deep work ","state":"off"} "#, line: 2)
            == .focus(mode: "deep work", state: .off, time: nil))
        #expect(try EventLine.parse(#"{"type":"focus","mode":"work"}"#, line: 3) == .focus(mode: "work", state: .on, time: nil))
        #expect(try EventLine.parse("   ", line: 4) == nil)
    }

    @Test func anEventMayCarryItsOwnTime() throws {
        #expect(try EventLine.parse(#"{"type":"focus","mode":"w","time":"2026-11-23T12:00:00+01:00"}"#, line: 1)
            == .focus(mode: "w", state: .on, time: Instant(seconds: 1_795_431_600)))
        #expect(try EventLine.parse(#"{"type":"focus","mode":"w","time":"2026-11-23 12:00"}"#, line: 1)
            == .focus(mode: "w", state: .on, time: Instant(seconds: 1_795_431_600)))
        #expect(try EventLine.parse(#"{"type":"focus","mode":"w","time":1795431600}"#, line: 1)
            == .focus(mode: "w", state: .on, time: Instant(seconds: 1_795_431_600)))
    }

    @Test(arguments: [
        ("not json", "stdin line 7: not a JSON object"),
        ("[1,2]", "stdin line 7: not a JSON object"),
        (#"{"mode":"work"}"#, #"stdin line 7: "type" is missing or not a string"#),
        (#"{"type":"gps","lat":1}"#, #"stdin line 7: unknown event type "gps" (known: focus, idle, session, sleep, network, power, device, flip)"#),
        (#"{"type":"focus"}"#, #"stdin line 7: "mode" is missing or blank"#),
        (#"{"type":"focus","mode":"  "}"#, #"stdin line 7: "mode" is missing or blank"#),
        (#"{"type":"focus","mode":"work","state":"maybe"}"#, #"stdin line 7: "state" must be "on" or "off""#),
        (#"{"type":"focus","mode":"work","state":true}"#, #"stdin line 7: "state" must be "on" or "off""#),
        (#"{"type":"focus","mode":"work","time":[1]}"#, #"stdin line 7: "time" must be a time text or seconds since the epoch"#),
        (#"{"type":"focus","mode":"work","time":"soonish"}"#, #"stdin line 7: "time": cannot read "soonish" as a time; use 2026-11-20T11:03+01:00, 2026-11-20 11:03, 11:03, yesterday 11:03, -2h or 90m ago"#),
    ])
    func badLinesNameTheLineAndTheField(line: String, message: String) {
        #expect(throws: EventLine.Failure(line: 7, message: String(message.dropFirst("stdin line 7: ".count)))) {
            try EventLine.parse(line, line: 7)
        }
        #expect((try? EventLine.parse(line, line: 7)) == nil)
        do {
            _ = try EventLine.parse(line, line: 7)
        } catch {
            #expect(error.description == message)
        }
    }
}

@Suite struct NotificationRouteTests {
    @Test func withoutASessionBusTheNotificationIsLogged() {
        #expect(NotificationRoute.choose(title: "t", body: "b", environment: ["PATH": "/usr/bin:/bin"])
            == .log(reason: "no session bus"))
        #expect(NotificationRoute.choose(title: "t", body: "b", environment: ["XDG_RUNTIME_DIR": "/nonexistent"])
            == .log(reason: "no session bus"))
    }

    @Test func withABusButNoNotifySendTheReasonSaysWhatToInstall() {
        #expect(NotificationRoute.choose(title: "t", body: "b", environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "PATH": "/nonexistent"])
            == .log(reason: "notify-send is not installed (Debian: libnotify-bin)"))
    }

    @Test func withABusNotifySendGetsTitleAndBodyAsSeparateArguments() throws {
        // /bin/true stands in for notify-send in a folder on PATH.
        let stub = try NotifySendStub()
        let env = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/x", "PATH": stub.directory]
        #expect(NotificationRoute.choose(title: "Lunch; rm -rf ~", body: "$(id)", environment: env)
            == .desktop([stub.directory + "/notify-send", "--app-name=trackee", "--", "Lunch; rm -rf ~", "$(id)"]))
        #expect(NotificationRoute.choose(title: "Only a title", body: "", environment: env)
            == .desktop([stub.directory + "/notify-send", "--app-name=trackee", "--", "Only a title"]))
    }
}

/// A temporary folder holding an executable named notify-send (a link to
/// /bin/true), removed with its link when released.
final class NotifySendStub {
    let directory: String

    struct Failed: Error {}

    init() throws {
        var template = Array("/tmp/trackee-notify-send-stub.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failed() }
        directory = String(cString: made)
        guard symlink("/bin/true", directory + "/notify-send") == 0 else { throw Failed() }
    }

    deinit {
        unlink(directory + "/notify-send")
        rmdir(directory)
    }
}
