import Foundation
import Glibc
import Testing
import TrackeeTestSupport
@testable import TrackeeDaemon

@Suite struct SystemdNotifierTests {
    @Test(arguments: [false, true])
    func readyStatusAndStoppingArriveAsOneDatagramEach(abstract: Bool) throws {
        let socket = try NotifySocket(abstract: abstract)
        let systemd = SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name])
        #expect(systemd.ready(status: "watching 6 rules"))
        #expect(socket.receive() == "READY=1\nSTATUS=watching 6 rules")
        #expect(systemd.status("next firing 09:00"))
        #expect(socket.receive() == "STATUS=next firing 09:00")
        #expect(systemd.stopping())
        #expect(socket.receive() == "STOPPING=1")
    }

    @Test func reloadingCarriesTheMonotonicClock() throws {
        let socket = try NotifySocket(abstract: false)
        let before = SystemdNotifier.monotonicMicroseconds()
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.name]).reloading())
        let message = try #require(socket.receive())
        let lines = message.split(separator: "\n")
        #expect(lines.first == "RELOADING=1")
        let usec = try #require(UInt64(lines.last!.dropFirst("MONOTONIC_USEC=".count)))
        #expect(lines.count == 2 && usec >= before && usec <= SystemdNotifier.monotonicMicroseconds())
    }

    @Test func withoutNotifySocketNothingIsSent() {
        #expect(SystemdNotifier(environment: [:]).socket == nil)
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": ""]).ready(status: "x"))
    }

    @Test func aSocketNobodyListensOnIsReportedNotFatal() {
        let systemd = SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"])
        #expect(!systemd.ready(status: "x"))
    }
}
