import ArgumentParser
import Foundation
import TrackeeCore
import TrackeeStore

extension Trackee.Hub {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the changes a merge made that discarded someone's work.",
            discussion: """
                overwritten: a field two devices wrote, neither having seen the other's write \
                (the newer stood; the line says what lost and whose it was). edited-deleted: an \
                entry edited on one device and deleted on another (the delete stood). \
                deleted-in-use: a client or project deleted on one device while rows here used \
                it (they lost it). applied-twice: work on an entry that a key's earlier \
                application on another device voided. `hub resolve N --keep` puts back what was \
                lost; `--drop` lets the merge stand.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                _ = try Trackee.Hub.settings(session)
                let conflicts = try session.openStore().hubConflicts()
                if session.out.json {
                    session.out.emit(conflicts.map { View($0, zone: session.zone) })
                    return
                }
                if conflicts.isEmpty {
                    session.out.line("no conflicts")
                    return
                }
                for c in conflicts {
                    session.out.line("\(c.id)  \(c.what)  \(View.summary(c, time: session.clock))  (\(c.device) won)")
                }
            }
        }

        struct View: Encodable {
            var id: Int64
            var what: String
            var kind: String
            var row: Int64
            var device: String
            var noticed: String
            var summary: String
            /// For `overwritten`: the field, the value that lost (a time as
            /// the other times), and the device it was from.
            var field: String?
            var lost: String?
            var lost_device: String?

            init(_ c: HubConflict, zone: Zone) {
                id = c.id
                what = c.what
                kind = c.kind
                row = c.rowID
                device = c.device
                noticed = zone.iso8601(c.noticed)
                summary = Self.summary(c, time: zone.iso8601)
                field = c.field
                lost = Self.lost(c, time: zone.iso8601)
                lost_device = c.lostDevice
            }

            /// `entry #1001 Docs 2026-11-20 09:00 "write"`, `project #2001 "Mail"`;
            /// for `overwritten`, then `: end 13:30 from laptop lost`.
            static func summary(_ c: HubConflict, time: (Instant) -> String) -> String {
                var words = ["\(c.kind) #\(c.rowID)"]
                if let name = c.name { words.append("\"\(name)\"") }
                if let project = c.project { words.append(project) }
                if let start = c.start { words.append(time(start)) }
                if let text = c.description, !text.isEmpty { words.append("\"\(text)\"") }
                var summary = words.joined(separator: " ")
                if let field = c.field {
                    summary += ": \(field) \(lost(c, time: time) ?? "none") from \(c.lostDevice ?? "another device") lost"
                }
                return summary
            }

            /// The value that lost as a person reads it: a time for `start`
            /// and `end`, text in quotes.
            static func lost(_ c: HubConflict, time: (Instant) -> String) -> String? {
                switch c.lost {
                case nil: return nil
                case .null: return "none"
                case .integer(let n): return c.field == "start" || c.field == "end" ? time(Instant(seconds: n)) : String(n)
                case .text(let text): return "\"\(text)\""
                }
            }
        }
    }
}
