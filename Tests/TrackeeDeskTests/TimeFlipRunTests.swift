import Foundation
import GRDB
import Testing
import TrackeeCore
@testable import TrackeeDesk

extension DeskBusSuites {
    /// The cube through the real `trackee run`: the built binary with the
    /// settings' `timeflip:`, the fake cube behind a mock bluetoothd on a
    /// private bus that stands for the system bus, and the store read back.
    @Suite(.serialized)
    struct TimeFlipRunTests {
        typealias Stored = TrackeeRunProcess.Stored
        typealias Firing = TrackeeRunProcess.Firing

        static let rules = """
            rules:
              - {id: f1-docs, when: {flip: {facet: 1}}, do: [{start: {project: Docs}}]}
              - {id: f2-mail, when: {flip: {facet: 2}}, do: [{start: {project: Mail}}]}
              - {id: f3-code, when: {flip: {facet: 3}}, do: [{start: {project: Code}}]}
              - {id: f12-stop, when: {flip: {facet: 12}}, do: [stop]}
              - {id: paused-stop, when: {flip: paused}, do: [stop]}
            """

        /// The real time, in whole seconds.
        static var realNow: Int64 { Int64(Date().timeIntervalSince1970) }

        /// The password file of `run`'s settings.
        static func passwordFile(_ run: TrackeeRunProcess) -> URL {
            run.root.appendingPathComponent("home/timeflip.password")
        }

        /// Starts the fake cube (facet 5 up, its clock running from the real
        /// time) and `trackee run` with `rules` and the cube in its settings
        /// (password 000000), waits until the watch connected to it (unless
        /// `connects` is false), runs `body`, then expects SIGTERM to end the
        /// daemon with status 0. Everything is stopped and removed whatever
        /// happens.
        func withCubeRun(rules: String = Self.rules, _ options: [String] = [], connects: Bool = true,
                         _ body: (FakeCube, TrackeeRunProcess) async throws -> Void) async throws {
            let cube = try FakeCube(["--facet", "5"] + options, clock: Instant(seconds: Self.realNow))
            defer { cube.stop() }
            try cube.call("RunClock")
            let run = try TrackeeRunProcess(rules: rules)
            defer { run.stop() }
            let password = Self.passwordFile(run)
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
            if connects {
                #expect(await connected(run), "\(run.log)")
            }
            try await body(cube, run)
            #expect(await run.terminate() == 0, "\(run.log)")
        }

        /// Waits for the watch's `count`th connection to the cube in this run's log.
        func connected(_ run: TrackeeRunProcess, _ count: Int = 1) async -> Bool {
            await run.eventually { run.logLines(containing: "flip: connected to the cube").count >= count }
        }

        @Test func aFlipStartsAndSwitchesTheTimerAtTheFlipsSecond() async throws {
            try await withCubeRun { cube, run in
                let first = nextSecond()
                try cube.flip(1, at: .init(seconds: first))
                #expect(try await run.eventually(10) { try run.entries().last?.project == "Docs" }, "\(run.log)")
                let second = nextSecond()
                try cube.flip(2, at: .init(seconds: second))
                #expect(try await run.eventually(10) { try run.entries().last?.project == "Mail" }, "\(run.log)")
                let third = nextSecond()
                try cube.flip(12, at: .init(seconds: third))
                #expect(try await run.eventually(10) { try run.entries().last?.end != nil }, "\(run.log)")
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: first, end: second, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: second, end: third, source: "rule:f2-mail"),
                ])
                #expect(try run.firings() == [Firing("f1-docs", first), Firing("f2-mail", second), Firing("f12-stop", third)])
            }
        }

        @Test func aPauseStopsTheTimerAndLeavingItStartsTheFacetsRuleAgain() async throws {
            try await withCubeRun { cube, run in
                let flipped = nextSecond()
                try cube.flip(1, at: .init(seconds: flipped))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                let paused = nextSecond()
                try cube.doubleTap(at: .init(seconds: paused))
                #expect(try await run.eventually(10) { try run.entries().last?.end != nil }, "\(run.log)")
                let resumed = nextSecond()
                try cube.doubleTap(at: .init(seconds: resumed))
                #expect(try await run.eventually(10) { try run.entries().count == 2 }, "\(run.log)")
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: flipped, end: paused, source: "rule:f1-docs"),
                    Stored(project: "Docs", start: resumed, end: nil, source: "rule:f1-docs"),
                ])
                #expect(try run.firings() == [
                    Firing("f1-docs", flipped), Firing("paused-stop", paused), Firing("f1-docs", resumed),
                ])
            }
        }

        /// A first start that reported no flip still keeps where the cube's
        /// history starts: flips made while `trackee run` is stopped after
        /// it are applied at the next start.
        @Test func aFirstStartWithoutFlipsIsRememberedAndTheFlipsAfterItApplied() async throws {
            try await withCubeRun { cube, run in
                #expect(run.logLines(containing: "first connection").count == 1, "\(run.log)")
                #expect(await run.terminate() == 0, "\(run.log)")
                let r = nextSecond()
                try cube.flip(1, at: .init(seconds: r))
                try cube.flip(2, at: .init(seconds: r + 5))
                // The cube's clock back to the real time, which has passed its last flip.
                _ = await run.eventually(15) { Self.realNow >= r + 6 }
                try cube.call("SetClock", [.uint64(UInt64(Self.realNow))])
                try cube.call("RunClock")
                try run.start()
                #expect(try await run.eventually(10) { try run.entries().count == 2 }, "\(run.log)")
                #expect(run.logLines(containing: "first connection") == [], "\(run.log)")
                let entries = try run.entries()
                #expect(entries == [
                    Stored(project: "Docs", start: r, end: r + 5, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: r + 5, end: nil, source: "rule:f2-mail"),
                ], "\(run.log)")
            }
        }

        @Test func flipsMadeOutOfRangeOrWhileStoppedAreAppliedOnceAtTheCubesTimes() async throws {
            try await withCubeRun { cube, run in
                let r = nextSecond()
                try cube.flip(1, at: .init(seconds: r))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                try cube.call("OutOfRange")
                #expect(await run.eventually(10) { !run.logLines(containing: "flip: the cube \(cube.device) disconnected").isEmpty },
                        "\(run.log)")
                try cube.flip(2, at: .init(seconds: r + 5))
                try cube.flip(3, at: .init(seconds: r + 10))
                // The cube's clock back to the real time, which has passed its last flip.
                _ = await run.eventually(15) { Self.realNow >= r + 11 }
                try cube.call("SetClock", [.uint64(UInt64(Self.realNow))])
                try cube.call("RunClock")
                try cube.call("BackInRange", [.bool(true)])
                #expect(try await run.eventually(10) { try run.entries().count == 3 }, "\(run.log)")
                #expect(run.logLines(containing: "caught up") == [
                    "trackee run: info: flip: caught up with the cube \(cube.device): 1 interval",
                ])
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: r, end: r + 5, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: r + 5, end: r + 10, source: "rule:f2-mail"),
                    Stored(project: "Code", start: r + 10, end: nil, source: "rule:f3-code"),
                ])

                // trackee run stopped: a flip meanwhile is applied at its restart.
                #expect(await run.terminate() == 0, "\(run.log)")
                _ = await run.eventually(15) { Self.realNow >= r + 16 }
                try cube.flip(1, at: .init(seconds: r + 15))
                try run.start()
                #expect(try await run.eventually(10) { try run.entries().count == 4 }, "\(run.log)")
                #expect(try run.entries().last == Stored(project: "Docs", start: r + 15, end: nil, source: "rule:f1-docs"))

                // Started again without flips: nothing fires twice; a flip
                // after the catch-up is the next entry.
                #expect(await run.terminate() == 0, "\(run.log)")
                try run.start()
                #expect(await connected(run), "\(run.log)")
                let live = nextSecond()
                try cube.flip(2, at: .init(seconds: live))
                #expect(try await run.eventually(10) { try run.entries().count == 5 }, "\(run.log)")
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: r, end: r + 5, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: r + 5, end: r + 10, source: "rule:f2-mail"),
                    Stored(project: "Code", start: r + 10, end: r + 15, source: "rule:f3-code"),
                    Stored(project: "Docs", start: r + 15, end: live, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: live, end: nil, source: "rule:f2-mail"),
                ])
                #expect(try run.firings() == [
                    Firing("f1-docs", r), Firing("f2-mail", r + 5), Firing("f3-code", r + 10), Firing("f1-docs", r + 15),
                    Firing("f2-mail", live),
                ])
            }
        }

        @Test func aCubeBackInRangeIsConnectedAgainByTrackeeWhenBluetoothdDoesNot() async throws {
            try await withCubeRun { cube, run in
                let r = nextSecond()
                try cube.flip(1, at: .init(seconds: r))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                try cube.call("OutOfRange")
                #expect(await run.eventually(10) { !run.logLines(containing: "could not connect").isEmpty }, "\(run.log)")
                // Back, and bluetoothd does not connect it: trackee's own next try does.
                try cube.call("BackInRange", [.bool(false)])
                try cube.flip(2, at: .init(seconds: r + 1))
                #expect(await connected(run, 2), "\(run.log)")
                #expect(try await run.eventually(10) { try run.entries().count == 2 }, "\(run.log)")
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: r, end: r + 1, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: r + 1, end: nil, source: "rule:f2-mail"),
                ])
                #expect(run.logLines(containing: "could not connect") == [
                    "trackee run: warning: flip: could not connect to the cube \(cube.device) (the D-Bus call "
                        + "org.bluez.Device1.Connect on org.bluez \(cube.devicePath) failed: le-connection-abort-by-local "
                        + "(org.bluez.Error.Failed)); trying again later",
                ])
            }
        }

        @Test func aResetCubesNewIntervalsFireThoughTheirNumbersFiredBefore() async throws {
            try await withCubeRun { cube, run in
                let r = nextSecond()
                try cube.flip(1, at: .init(seconds: r))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                let s = nextSecond()
                try cube.flip(2, at: .init(seconds: s))
                #expect(try await run.eventually(10) { try run.entries().count == 2 }, "\(run.log)")
                #expect(await run.terminate() == 0, "\(run.log)")
                // Reset while trackee run is stopped: numbers 1 and 2 come again.
                try cube.call("FactoryReset")
                _ = await run.eventually(15) { Self.realNow >= s + 2 }
                try cube.flip(3, at: .init(seconds: s + 1))
                try run.start()
                #expect(try await run.eventually(10) { try run.entries().count == 3 }, "\(run.log)")
                #expect(run.logLines(containing: "was reset or replaced").count == 1, "\(run.log)")
                let live = nextSecond()
                try cube.flip(1, at: .init(seconds: live))
                #expect(try await run.eventually(10) { try run.entries().count == 4 }, "\(run.log)")
                #expect(try run.entries() == [
                    Stored(project: "Docs", start: r, end: s, source: "rule:f1-docs"),
                    Stored(project: "Mail", start: s, end: s + 1, source: "rule:f2-mail"),
                    Stored(project: "Code", start: s + 1, end: live, source: "rule:f3-code"),
                    Stored(project: "Docs", start: live, end: nil, source: "rule:f1-docs"),
                ])
                #expect(try run.firings() == [
                    Firing("f1-docs", r), Firing("f2-mail", s), Firing("f3-code", s + 1), Firing("f1-docs", live),
                ])
            }
        }

        @Test func aCatchUpKilledHalfWayIsAppliedOnceWhenRunStartsAgain() async throws {
            try await killedCatchUp(restartingAfter: .seconds(3))
        }

        /// Restarted at once after the kill: still each interval once. (The
        /// fake stops streaming when the killed run's notify session ends,
        /// so this does not show an earlier stream's tail reaching the new
        /// run; `TimeFlipWatchTests` scripts that case.)
        @Test func aCatchUpKilledAndRestartedWhileItsStreamStillComesIsAppliedOnce() async throws {
            try await killedCatchUp(restartingAfter: .zero)
        }

        /// 200 intervals made while no run was there, a run killed a second
        /// into their catch-up, and another started `restartingAfter` later.
        func killedCatchUp(restartingAfter pause: Duration) async throws {
            try await withCubeRun(["--notify-interval-ms", "15"]) { cube, run in
                // The cursor a run left 5000 s ago at interval 1; the 200
                // intervals since then, 10 s each, alternately on 1 and 2.
                #expect(await run.terminate() == 0, "\(run.log)")
                let base = Self.realNow - 5000
                let subject = FlipEdge.cursorSubject(device: cube.device)
                try await DatabaseQueue(path: run.storePath).write { db in
                    try db.execute(sql: "INSERT OR REPLACE INTO desk_cursor (subject, number, at) VALUES (?, 1, ?)",
                                   arguments: [subject, base])
                }
                var expected: [Stored] = []
                for number in UInt32(2)...201 {
                    let start = base + 10 * Int64(number - 1)
                    let facet: UInt8 = number % 2 == 0 ? 1 : 2
                    try cube.call("AddHistory", [.uint32(number), .byte(facet), .uint64(UInt64(start)), .uint32(10)])
                    expected.append(Stored(project: facet == 1 ? "Docs" : "Mail", start: start, end: start + 10,
                                           source: facet == 1 ? "rule:f1-docs" : "rule:f2-mail"))
                }
                // Facet 5 (no rule) has been up since the last interval ended.
                let request: [UInt8] = [2, 0, 0, 0, 2]
                try run.start()
                #expect(try await run.eventually(10) { try cube.written(FakeCube.history).filter { $0 == request }.count == 1 },
                        "\(run.log)")
                try await Task.sleep(for: .seconds(1))
                run.crash()
                #expect(try run.entries().count < 200, "the stream of 3 s was over in 1 s")
                try await Task.sleep(for: pause)
                try run.start()
                #expect(try await run.eventually(20) { try run.entries().count == 200 }, "\(run.log)")
                #expect(run.logLines(containing: "caught up") == [
                    "trackee run: info: flip: caught up with the cube \(cube.device): 200 intervals",
                ])
                // Facet 5 has no rule: the last entry runs on.
                expected[199].end = nil
                #expect(try run.entries() == expected)
                #expect(try run.firings() == expected.map { Firing(String($0.source.dropFirst(5)), $0.start) })
                // Each once, keyed by its interval's number.
                #expect(try run.firingKeys(of: ["f1-docs", "f2-mail"]).map { $0.split(separator: ":").last.map(String.init) }
                    == (2...201).map { String($0) })
            }
        }

        /// The passwords written to the cube, in order.
        func passwords(_ cube: FakeCube) throws -> [String] {
            try cube.written(FakeCube.password).map { String(decoding: $0, as: UTF8.self) }
        }

        @Test func aRefusedPasswordIsOneWarningUntilTheFileIsRightThenFlipsFire() async throws {
            try await withCubeRun(["--password", "123456"], connects: false) { cube, run in
                let refused = "trackee run: warning: flip: the cube \(cube.device) refused the password in "
                    + "\(Self.passwordFile(run).path); it is not tried again until that file changes"
                #expect(await run.eventually(10) { !run.logLines(containing: "refused the password").isEmpty }, "\(run.log)")
                try cube.flip(1, at: .init(seconds: 0))
                // Connected again, the same file is not tried again.
                try cube.call("DropConnection")
                #expect(try await run.eventually(10) { try cube.state("connected") == .bool(true) }, "\(run.log)")
                #expect(try passwords(cube) == ["000000"])
                #expect(try run.firings() == [])
                try "123456\n".write(to: Self.passwordFile(run), atomically: true, encoding: .utf8)
                chmod(Self.passwordFile(run).path, 0o600)
                // The file is read again every 10 s: the new password is
                // written once, on the connection as it is, and accepted.
                #expect(await connected(run), "\(run.log)")
                #expect(try passwords(cube) == ["000000", "123456"])
                let live = nextSecond()
                try cube.flip(2, at: .init(seconds: live))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                #expect(try run.entries() == [Stored(project: "Mail", start: live, end: nil, source: "rule:f2-mail")])
                #expect(try run.firings() == [Firing("f2-mail", live)])
                #expect(run.logLines(containing: "refused the password") == [refused])
            }
        }

        @Test func aCubeAskingForTheTimeIsGivenTheCurrentTime() async throws {
            try await withCubeRun { cube, run in
                let asked = nextSecond()
                try cube.call("RequireTimeSync")
                #expect(try await run.eventually(10) { try cube.written(FakeCube.command).last?.first == 0x08 }, "\(run.log)")
                #expect(try cube.written(FakeCube.command).last == TimeFlipProtocol.setClock(.init(seconds: asked)))
                #expect(try cube.state("system_state") == FakeCube.bytes([0, 0, 0, 0]))
                #expect(run.logLines(containing: "set the clock") == [
                    "trackee run: info: flip: set the clock of the cube \(cube.device), which asked for it",
                ])
            }
        }

        @Test func aBatteryRuleFiresOnEachFallBelowItsLimit() async throws {
            let rules = """
                rules:
                  - {id: low, when: {flip: {battery_below: 20}}, do: [{notify: "cube at {{trigger.battery}}%"}]}
                """
            try await withCubeRun(rules: rules) { cube, run in
                for percent: UInt8 in [30, 18, 15, 25, 10] {
                    try cube.call("SetBattery", [.byte(percent)])
                }
                #expect(await run.eventually(10) { run.logLines(containing: "notify (").count == 2 }, "\(run.log)")
                #expect(run.logLines(containing: "notify (") == [
                    "trackee run: notice: notify (no session bus): cube at 18%",
                    "trackee run: notice: notify (no session bus): cube at 10%",
                ])
                #expect(try run.firings().map(\.rule) == ["low", "low"])
            }
        }

        @Test func twoHundredMalformedValuesFireNothingAndTheDaemonGoesOn() async throws {
            try await withCubeRun { cube, run in
                let values: [(String, [UInt8])] = [
                    (FakeCube.facets, [0]), (FakeCube.facets, [13]), (FakeCube.facets, [255]), (FakeCube.facets, []),
                    (FakeCube.facets, [1, 2]), (FakeCube.doubleTap, [0]), (FakeCube.doubleTap, [66]),
                    (FakeCube.doubleTap, [141]), (FakeCube.doubleTap, [3, 3]), (FakeCube.systemState, []),
                    (FakeCube.systemState, [2, 1, 0]), (FakeCube.history, [1]),
                    (FakeCube.history, [UInt8](repeating: 7, count: 20)), (FakeCube.history, [UInt8](repeating: 1, count: 25)),
                ]
                var sent = 0
                while sent < 200 {
                    let (uuid, value) = values[sent % values.count]
                    #expect(try cube.notify(uuid, value), "\(uuid) \(value)")
                    sent += 1
                }
                let live = nextSecond()
                try cube.flip(3, at: .init(seconds: live))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                #expect(run.isRunning)
                #expect(try run.entries() == [Stored(project: "Code", start: live, end: nil, source: "rule:f3-code")])
                #expect(try run.firings() == [Firing("f3-code", live)])
            }
        }

        @Test func afterBluetoothdRestartsTheDaemonAttachesAgainAndAFlipFires() async throws {
            try await withCubeRun { cube, run in
                try cube.call("RestartBlueZ", [.uint32(200)])
                #expect(await connected(run, 2), "\(run.log)")
                let live = nextSecond()
                try cube.flip(2, at: .init(seconds: live))
                #expect(try await run.eventually(10) { try run.entries().count == 1 }, "\(run.log)")
                #expect(try run.entries() == [Stored(project: "Mail", start: live, end: nil, source: "rule:f2-mail")])
                #expect(try run.firings() == [Firing("f2-mail", live)])
            }
        }
    }
}
