import TrackeeCore
import TrackeeDesk

/// A change a watch reported, comparable in a test.
struct Reported: Equatable, CustomStringConvertible {
    let event: DeskEvent
    let time: Instant

    init(_ event: DeskEvent, at time: Instant) {
        self.event = event
        self.time = time
    }

    init(_ change: DeskChange) {
        self.init(change.event, at: change.time)
    }

    var description: String { "\(event) at \(time)" }
}

/// Feeds every signal `connection` receives to `watches` until none comes
/// for `quietMilliseconds`, as the bus monitor does, and returns what they
/// reported, in order.
func feedSignals(_ watches: inout [any DeskWatch], _ connection: DBusConnection, now: Instant,
           quietMilliseconds: Int = 300) throws -> [Reported] {
    var seen: [Reported] = []
    while let signal = try connection.nextSignal(timeoutMilliseconds: quietMilliseconds) {
        for index in watches.indices {
            seen += watches[index].take(signal, connection: connection, now: now).map(Reported.init)
        }
    }
    return seen
}

func feedSignals<Watch: DeskWatch>(_ watch: inout Watch, _ connection: DBusConnection, now: Instant,
                             quietMilliseconds: Int = 300) throws -> [Reported] {
    var seen: [Reported] = []
    while let signal = try connection.nextSignal(timeoutMilliseconds: quietMilliseconds) {
        seen += watch.take(signal, connection: connection, now: now).map(Reported.init)
    }
    return seen
}

/// Calls a method of a mock's `org.freedesktop.DBus.Mock` interface.
@discardableResult
func callMock(_ connection: DBusConnection, _ service: String, _ path: String, _ member: String,
          _ arguments: [DBusValue] = []) throws -> [DBusValue] {
    try connection.call(destination: service, path: path, interface: "org.freedesktop.DBus.Mock", member: member,
                        arguments: arguments)
}

/// 2026-11-23T08:00:00Z, the instant the tests call now.
let morning = Instant(seconds: 1_795_420_800)
