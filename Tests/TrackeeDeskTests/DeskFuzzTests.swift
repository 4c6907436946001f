import Foundation
import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// The three watches on one connection while Tests/Fixtures/dbusmock/desk_fuzz.py
    /// sends 200 malformed or unexpected signals, most through the mocks that
    /// own the services' names: nothing is reported, nothing traps, and a real
    /// edge afterwards is still one change per watch.
    @Suite
    struct DeskFuzzTests {
        let mutter = "org.gnome.Mutter.IdleMonitor"
        let mutterPath = "/org/gnome/Mutter/IdleMonitor/Core"
        let screenSaver = "org.freedesktop.ScreenSaver"
        let screenSaverPath = "/org/freedesktop/ScreenSaver"

        /// Runs the fuzzer and returns its standard output and exit status.
        func fuzz(_ bus: PrivateBus, count: Int, seed: Int, to: String? = nil,
                  while reading: () throws -> Void) throws -> (String, Int32) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: PrivateBus.python)
            process.arguments = [
                PrivateBus.fixtures.appendingPathComponent("desk_fuzz.py").path, "--address", bus.address,
                "--count", String(count), "--seed", String(seed),
            ] + (to.map { ["--to", $0] } ?? [])
            process.environment = ["PATH": "/usr/bin:/bin"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Read while it sends, as the monitor would, so that the bus never
            // holds a backlog for this connection.
            while process.isRunning { try reading() }
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            try reading()
            return (String(decoding: printed, as: UTF8.self), process.terminationStatus)
        }

        func callBus(_ connection: DBusConnection, _ member: String, _ name: String) throws -> String {
            let reply = try connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                member: member, arguments: [.string(name)])
            guard case .string(let owner) = reply.first else { throw PrivateBus.Failure(description: "\(member): \(reply)") }
            return owner
        }

        /// How many fuzzed signals reached the watches' connection.
        struct Received: Equatable, CustomStringConvertible {
            var all = 0
            /// Those not from a service's owner.
            var fromStranger = 0

            var description: String { "\(all) received, \(fromStranger) of them from a stranger" }
        }

        /// Attaches the three watches, runs the fuzzer (its own messages
        /// addressed to the watches' connection when `addressed`), expects no
        /// change, then one real edge per watch and exactly its change.
        func fuzzTheWatches(seed: Int, addressed: Bool) throws -> Received {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let control = try DBusConnection(address: bus.address)
            try bus.startTemplate("mutter_idle_monitor", name: mutter, on: control)
            try bus.startTemplate("screensaver", name: screenSaver, on: control)
            let desk = try NetworkWatchTests.Desk(bus)
            let office = try desk.activate(desk.office, as: "1")

            let connection = try DBusConnection(address: bus.address)
            var watches: [any DeskWatch] = [
                MutterIdleWatch(intervalMilliseconds: 600_000), ScreenSaverIdleWatch(), NetworkWatch(),
            ]
            for index in watches.indices {
                #expect(try watches[index].attach(connection, now: morning).map(Reported.init) == [])
            }
            let owners = try Set([mutter, screenSaver, NetworkWatchTests.service].map { name in
                try callBus(control, "GetNameOwner", name)
            })
            var seen: [Reported] = []
            var received = Received()
            let (printed, status) = try fuzz(bus, count: 200, seed: seed, to: addressed ? connection.uniqueName : nil) {
                while let signal = try connection.nextSignal(timeoutMilliseconds: 300) {
                    if signal.interface != "org.freedesktop.DBus" {
                        received.all += 1
                        if !owners.contains(signal.sender) { received.fromStranger += 1 }
                    }
                    for index in watches.indices {
                        seen += watches[index].take(signal, connection: connection, now: morning).map(Reported.init)
                    }
                }
            }
            #expect(status == 0)
            #expect(printed == "sent 200 messages\n")
            #expect(seen == [])

            try callMock(control, mutter, mutterPath, "SetIdletime", [.uint64(600_000)])
            try callMock(control, screenSaver, screenSaverPath, "SetSessionIdleTime", [.int32(60)])
            try callMock(control, screenSaver, screenSaverPath, "SetActive", [.bool(true)])
            let disconnected = try desk.change(.disconnected, office, ssid: "ACME-Office")
            try desk.deactivate(office)
            #expect(try feedSignals(&watches, connection, now: morning + 700) == [
                Reported(.idle(since: morning + 100), at: morning + 100),
                Reported(.idle(since: morning + 640), at: morning + 640),
                Reported(disconnected, at: morning + 700),
            ])
            return received
        }

        @Test func twoHundredMalformedSignalsReportNothingAndARealEdgeStillCountsOnce() throws {
            // Seed 19 on this bus: those sent through the mocks on what the
            // watches listen to, and those the stranger happened to address
            // to the watches' connection; the rest went elsewhere.
            let received = try fuzzTheWatches(seed: 19, addressed: false)
            #expect(received == Received(all: 66, fromStranger: 20))
        }

        @Test func wellFormedSignalsFromAStrangerAddressedToTheWatchesReportNothing() throws {
            // Among them WatchFired with the id Mutter gave and ActiveChanged
            // with a boolean: only the sender tells them from the real ones.
            let received = try fuzzTheWatches(seed: 19, addressed: true)
            #expect(received == Received(all: 193, fromStranger: 134))
        }

        @Test func theSameSeedSendsTheSameMessages() throws {
            let bus = try PrivateBus()
            defer { bus.stop() }
            let control = try DBusConnection(address: bus.address)
            try bus.startTemplate("screensaver", name: screenSaver, on: control)
            let listener = try DBusConnection(address: bus.address)
            // Eavesdropping, to see those addressed to other connections too.
            try listener.addMatch("type='signal',eavesdrop='true'")
            /// Every signal the fuzzer sent, but for who sent it: its own
            /// unique name differs from one run to the next.
            func sent(seed: Int) throws -> [String] {
                var signals: [String] = []
                let (printed, status) = try fuzz(bus, count: 60, seed: seed) {
                    while let signal = try listener.nextSignal(timeoutMilliseconds: 300) {
                        if signal.interface != "org.freedesktop.DBus" {
                            signals.append("\(signal.path) \(signal.interface).\(signal.member) \(signal.arguments)")
                        }
                    }
                }
                #expect(status == 0)
                #expect(printed == "sent 60 messages\n")
                return signals
            }
            let first = try sent(seed: 7)
            #expect(first.count == 60)
            #expect(try sent(seed: 7) == first)
            #expect(try sent(seed: 8) != first)
        }
    }
}
