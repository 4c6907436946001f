import Foundation
import TrackeeCore
import TrackeeReplication
import TrackeeStore

/// A hub in memory, for tests that run the sync and the merge thousands of
/// times: one table of changes, unique by device and sequence (a second
/// push of the same change adds nothing, a different one under the same
/// number is refused), numbered in the order they came. One person, no
/// sharing.
final class MemoryHub: @unchecked Sendable {
    struct Change: Equatable {
        var id: Int64
        var device: String
        var sequence: Int64
        var clock: String
        var kind: String
        var body: String
    }

    private(set) var changes: [Change] = []
    private var numbers: [String: (number: Int64, store: String)] = [:]
    /// The hub's clock, in milliseconds.
    var now: Int64 = 0
    /// False while the hub is out of reach.
    var reachable = true

    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "cannot reach the hub: it is down" }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    func session() -> any HubSession { Session(hub: self) }

    private final class Session: HubSession {
        let hub: MemoryHub

        init(hub: MemoryHub) {
            self.hub = hub
        }

        func register(device: String, store: String, timeline: String?) throws -> Int64 {
            try hub.reach()
            guard timeline == nil else { throw Refused(description: "this hub keeps one person's timeline") }
            if let known = hub.numbers[device] {
                guard known.store == store else { throw Refused(description: "another store holds \(device)") }
                return known.number
            }
            let number = Int64(hub.numbers.count + 1)
            hub.numbers[device] = (number, store)
            return number
        }

        func now() throws -> Int64 {
            try hub.reach()
            return hub.now
        }

        func push(device: String, person: String?, _ changes: [HubOutgoingChange]) throws {
            try hub.reach()
            for change in changes {
                if let held = hub.changes.first(where: { $0.device == device && $0.sequence == change.sequence }) {
                    guard held.clock == change.clock, held.kind == change.kind, held.body == change.body else {
                        throw Refused(description: "the hub holds another change as \(device)'s \(change.sequence)")
                    }
                    continue
                }
                hub.changes.append(Change(
                    id: Int64(hub.changes.count + 1), device: device, sequence: change.sequence, clock: change.clock,
                    kind: change.kind, body: change.body))
            }
        }

        func pull(after cursor: Int64, person: String?, excluding device: String, limit: Int) throws
            -> [HubIncomingChange]
        {
            try hub.reach()
            return hub.changes.lazy.filter { $0.id > cursor && $0.device != device }.prefix(limit).map {
                HubIncomingChange(id: $0.id, device: $0.device, clock: $0.clock, kind: $0.kind, body: $0.body)
            }
        }

        func sharedWithMe() throws -> [String: String] { [:] }
        func share(with person: String, level: String?) throws {}
        func person() throws -> String { "alice" }
        func listen() throws {}
        func waitForPush(milliseconds: Int32, excluding device: String) throws -> Bool { false }
    }

    private func reach() throws {
        guard reachable else { throw Unreachable() }
    }
}
