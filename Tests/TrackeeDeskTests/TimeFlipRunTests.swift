import Foundation
import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// The cube through the real `trackee run`: the built binary with the
    /// settings' `timeflip:`, the fake cube behind a mock bluetoothd on a
    /// private bus that stands for the system bus, and the store read back.
    @Suite(.serialized)
    struct TimeFlipRunTests {
        static let rules = """
            rules:
              - {id: f1-docs, when: {flip: {facet: 1}}, do: [{start: {project: Docs}}]}
              - {id: f2-mail, when: {flip: {facet: 2}}, do: [{start: {project: Mail}}]}
              - {id: f12-stop, when: {flip: {facet: 12}}, do: [stop]}
            """

        @Test func aFlipStartsAndSwitchesTheTimerAtTheFlipsSecond() async throws {
            let now = Instant(seconds: Int64(Date().timeIntervalSince1970))
            let cube = try FakeCube(["--facet", "5"], clock: now)
            defer { cube.stop() }
            try cube.call("RunClock")
            let run = try TrackeeRunProcess(rules: Self.rules)
            defer { run.stop() }
            let password = run.root.appendingPathComponent("home/timeflip.password")
            try "000000\n".write(to: password, atomically: true, encoding: .utf8)
            chmod(password.path, 0o600)
            try """
                create_projects: always
                timeflip:
                  device: "\(cube.device)"
                  password_file: \(password.path)
                """.write(to: run.root.appendingPathComponent("config/trackee/config.yaml"), atomically: true, encoding: .utf8)
            run.desk = ["DBUS_SYSTEM_BUS_ADDRESS": cube.bus.address]
            try run.start()
            let attached = await run.eventually { !run.logLines(containing: "flips from").isEmpty }
            #expect(attached, "\(run.log)")

            let first = Instant(seconds: Int64(Date().timeIntervalSince1970))
            try cube.flip(1, at: .init(seconds: 0))
            #expect(try await run.eventually(10) { try run.entries().last?.project == "Docs" }, "\(run.log)")
            let docs = try #require(try run.entries().last)
            #expect((first.seconds...first.seconds + 2).contains(docs.start), "\(docs) \(first.seconds)")
            try cube.flip(2, at: .init(seconds: 0))
            #expect(try await run.eventually(10) { try run.entries().last?.project == "Mail" }, "\(run.log)")
            try cube.flip(12, at: .init(seconds: 0))
            #expect(try await run.eventually(10) { try run.entries().last?.end != nil }, "\(run.log)")
            #expect(try run.entries().map(\.project) == ["Docs", "Mail"])
            #expect(try run.entries().map(\.source) == ["rule:f1-docs", "rule:f2-mail"])
            #expect(await run.terminate() == 0, "\(run.log)")
        }
    }
}
