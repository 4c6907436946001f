import Foundation
import Testing
import TrackeeDesk

/// The bus going away and garbage on it, through the real `trackee run`.
extension DeskBusSuites.DeskRunTests {
    static let lockRule = """
        rules:
          - id: lock
            when: {session: locked}
            do: [stop]
        """

    /// The bus is killed with every mock and a new one started on the same
    /// socket: the daemon logs the loss of each bus once, reconnects, and
    /// attaches the watches when their services are back.
    @Test func afterTheBusRestartsALockStillStopsTheEntry() async throws {
        try await withDesk(rules: Self.lockRule) { desk, run, start in
            try desk.restart(.all)
            // logind's mock may be on the bus before its session is: then
            // the lock watch attaches on a retry of its own.
            #expect(await run.eventually {
                run.log.filter { $0.contains("lock and sleep from logind") || $0.hasSuffix("info: desk: lock from logind") }
                    .count >= 2
            }, "\(run.log)")
            for bus in ["session", "system"] {
                #expect(run.logLines(containing: "warning: desk: lost the \(bus) bus (").count == 1, "\(run.log)")
                #expect(run.logLines(containing: "info: desk: connected to the \(bus) bus again: ").count == 1)
            }
            let locked = nextSecond()
            try desk.session("Lock")
            #expect(try await run.eventually { try run.entries().first?.end != nil })
            #expect(try run.entries() == [Stored(project: "Desk", start: start, end: locked, source: "cli")])
            #expect(try run.firings() == [Firing("lock", locked)])
            #expect(run.isRunning)
        }
    }

    /// The new logind is held off too: the sleep watch takes an inhibitor
    /// from it, and releases it once the stop is committed.
    @Test func afterTheBusRestartsASuspendIsStillHeldOffUntilItsStop() async throws {
        try await withDesk(orderedLogind: true, rules: """
            rules:
              - id: suspend
                when: {sleep: suspend}
                do: [stop]
            """) { desk, run, start in
            try desk.restart(.all)
            #expect(await run.eventually { run.orderLog.count >= 2 }, "\(run.log)")
            let suspended = nextSecond()
            try desk.prepare("PrepareForSleep", true)
            #expect(await run.eventually { run.orderLog.count >= 4 })
            // The first logind was killed with its inhibitor: no release.
            #expect(run.orderLog == [
                "Inhibit sleep:shutdown delay",
                "Inhibit sleep:shutdown delay",
                "PrepareForSleep true: 1 running",
                "released sleep:shutdown delay: 0 running",
            ])
            #expect(try run.firings() == [Firing("suspend", suspended)])
            #expect(try run.entries() == [Stored(project: "Desk", start: start, end: suspended, source: "cli")])
        }
    }

    /// Tests/Fixtures/dbusmock/desk_fuzz.py sends 200 malformed or
    /// unexpected signals, seed 19, most through the mocks themselves:
    /// the daemon lives on, the store is as it was, and a real lock
    /// afterwards still fires one stop.
    @Test func twoHundredFuzzedSignalsChangeNothingAndALockStillCounts() async throws {
        try await withDesk(rules: Self.lockRule) { desk, run, start in
            let fuzzer = Process()
            fuzzer.executableURL = URL(fileURLWithPath: PrivateBus.python)
            fuzzer.arguments = [
                PrivateBus.fixtures.appendingPathComponent("desk_fuzz.py").path, "--address", desk.bus.socketAddress,
                "--count", "200", "--seed", "19",
            ]
            fuzzer.environment = ["PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"]
            let output = Pipe()
            fuzzer.standardOutput = output
            try fuzzer.run()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            fuzzer.waitUntilExit()
            #expect(fuzzer.terminationStatus == 0)
            #expect(String(decoding: printed, as: UTF8.self) == "sent 200 messages\n")

            let locked = nextSecond()
            try desk.session("Lock")
            #expect(try await run.eventually { try run.entries().first?.end != nil })
            #expect(run.isRunning)
            #expect(try run.entries() == [Stored(project: "Desk", start: start, end: locked, source: "cli")])
            #expect(try run.firings() == [Firing("lock", locked)])
            // Garbage is dropped quietly: the log holds no warning, and
            // one firing.
            #expect(run.log.filter { !$0.hasPrefix("trackee run: info: ") } == [])
            #expect(run.logLines(containing: "fired rule") == [
                "trackee run: info: fired rule \"lock\": session locked at \(Self.iso8601(locked)): stopped",
            ])
            #expect(try run.firingKeys(of: ["lock"]) == ["lock@session:locked:\(locked)"])
        }
    }
}
