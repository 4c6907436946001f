import Synchronization
import Testing
import TrackeeCore
import TrackeeDesk

extension DeskBusSuites {
    /// Sources that are not D-Bus watches (udev's netlink monitor) run beside
    /// the buses: their changes join the stream and the start line names them.
    struct DeskThreadWatchTests {
        /// A source that reports one device when started and records its stop.
        final class OneDevice: DeskThreadWatch {
            let name = "udev"
            let reports = "devices"
            let refusal: String?
            private let stops = Atomic<Bool>(false)
            var stopped: Bool { stops.load(ordering: .relaxed) }

            init(refusal: String? = nil) { self.refusal = refusal }

            func start(yield: @escaping @Sendable (DeskChange) -> Void) throws {
                if let refusal { throw DBusFailure(refusal) }
                yield(DeskChange(.device(DeviceChange(action: .added, devpath: "/devices/usb1/1-2", subsystem: "usb",
                                                      vendor: "17ef", product: "30b4")),
                                 time: SystemMocks.now))
            }

            func stop() { stops.store(true, ordering: .relaxed) }
        }

        func monitor(_ sources: [any DeskThreadWatch]) -> DeskMonitor {
            DeskMonitor(environment: [:], idle: [], watches: [], threadWatches: sources, clock: { SystemMocks.now },
                        log: { _, _ in })
        }

        @Test func aStartedSourceIsNamedAndItsChangesJoinTheStream() async {
            let source = OneDevice()
            let monitor = monitor([source])
            let changes = ChangeRecorder(monitor.changes)
            #expect(monitor.start().description == "desk: devices from udev")
            #expect(await changes.seen(1) == [
                Seen(.device(DeviceChange(action: .added, devpath: "/devices/usb1/1-2", subsystem: "usb", vendor: "17ef",
                                          product: "30b4")), at: SystemMocks.now),
            ])
            monitor.stop()
            #expect(source.stopped)
            #expect(await until { changes.finished })
        }

        @Test func aSourceThatCannotStartIsAbsentWithItsReason() {
            let source = OneDevice(refusal: "the kernel refused a netlink socket: Operation not permitted.")
            let monitor = monitor([source])
            #expect(monitor.start().description
                == "desk: nothing attached; absent: udev (the kernel refused a netlink socket: Operation not permitted)")
            monitor.stop()
            #expect(!source.stopped)
        }
    }
}
