import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show this device on the hub: its number, cursor, queue and last error.",
            discussion: """
                Reads the local store only, so it answers with the hub out of reach. `queued` \
                counts the changes made here that the hub has not received yet.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let hub = try Trackee.Hub.settings(session)
                let state = try session.openStore().hubDevice()
                let view = View(
                    device: hub.device, number: state?.number, joined: state?.joined.map { session.zone.iso8601($0) },
                    cursor: state?.pulled ?? 0, queued: state?.queued ?? 0, conflicts: state?.conflicts ?? 0,
                    clock: state?.clock, last_sync: state?.lastReplication.map { session.zone.iso8601($0) },
                    last_error: state?.lastError, last_error_at: state?.lastErrorAt.map { session.zone.iso8601($0) })
                if session.out.json {
                    session.out.emit(view)
                    return
                }
                session.out.line("device     \(view.device)" + (view.number.map { " (number \($0))" } ?? " (not joined yet)"))
                session.out.line("hub        \(HubSettings.shown(hub.url))")
                session.out.line("cursor     \(view.cursor)")
                session.out.line("queued     \(view.queued)")
                if view.conflicts > 0 { session.out.line("conflicts  \(view.conflicts)") }
                session.out.line("last sync  \(view.last_sync ?? "never")")
                if let error = view.last_error {
                    session.out.line("last error \(view.last_error_at ?? ""): \(error)")
                }
            }
        }

        struct View: Encodable {
            var device: String
            var number: Int64?
            var joined: String?
            var cursor: Int64
            var queued: Int
            var conflicts: Int
            var clock: String?
            var last_sync: String?
            var last_error: String?
            var last_error_at: String?

            /// Every key, null where there is no value.
            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(device, forKey: .device)
                try c.encode(number, forKey: .number)
                try c.encode(joined, forKey: .joined)
                try c.encode(cursor, forKey: .cursor)
                try c.encode(queued, forKey: .queued)
                try c.encode(conflicts, forKey: .conflicts)
                try c.encode(clock, forKey: .clock)
                try c.encode(last_sync, forKey: .last_sync)
                try c.encode(last_error, forKey: .last_error)
                try c.encode(last_error_at, forKey: .last_error_at)
            }

            enum CodingKeys: String, CodingKey {
                case device, number, joined, cursor, queued, conflicts, clock, last_sync, last_error, last_error_at
            }
        }
    }
}
