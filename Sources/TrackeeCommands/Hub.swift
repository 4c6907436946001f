import ArgumentParser
import Foundation
import Synchronization
import TrackeeCore
import TrackeeHub
import TrackeeStore

/// Where `trackee-daemon` registers the hub's PostgreSQL client; in
/// `trackee` there is none, and `trackee hub …` becomes the daemon.
public enum HubServing {
    private static let client = Mutex<(any HubClient)?>(nil)

    public static func register(_ made: any HubClient) {
        client.withLock { $0 = made }
    }

    static var registered: (any HubClient)? { client.withLock { $0 } }
}

extension Trackee {
    struct Hub: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hub",
            abstract: "Set up the PostgreSQL hub that devices are to replicate through.",
            discussion: """
                The hub is a PostgreSQL database named by `hub:` in the settings (see \
                CONFIGURATION in `man trackee`). Clients, projects and entries replicate through \
                it with `hub sync`; every other command works on the local store alone. The \
                PostgreSQL client is in trackee-daemon, installed next to trackee, which `hub \
                init` and `hub sync` become.
                """,
            subcommands: [Init.self, Sync.self, Status.self, Conflicts.self, Resolve.self, Grant.self, Revoke.self])

        /// The settings' hub, or the refusal of a command that needs one.
        static func settings(_ session: Session) throws -> HubSettings {
            guard let hub = session.settings.hub else {
                throw CommandFailure.config(
                    "\(Settings.path(environment: session.environment)): the settings have no hub: section; "
                        + "add one with the hub's url (see CONFIGURATION in man trackee)")
            }
            return hub
        }

        /// The registered PostgreSQL client; `trackee` becomes the daemon.
        static func client() throws -> any HubClient {
            guard let client = HubServing.registered else {
                try HTTPServing.execDaemon(for: "holds the hub's PostgreSQL client")
            }
            return client
        }

        struct Init: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "init",
                abstract: "Create the hub's schema, or bring it up to date.",
                discussion: """
                    Migrations are versioned and append-only, and each is applied once, in order, \
                    in one transaction; running it again changes nothing. A hub whose schema a \
                    newer trackee made is refused, and left as it is.
                    """)
            @OptionGroup var common: CommonOptions

            func run() throws {
                try Session.run(common) { session in
                    let hub = try Hub.settings(session)
                    let client = try Hub.client()
                    let password = try Self.password(hub, environment: session.environment)
                    let report: HubSchema.Report
                    do {
                        report = try client.initialize(hub, password: password)
                    } catch {
                        throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
                    }
                    if session.out.json {
                        session.out.emit(Report(applied: report.applied, current: report.current))
                    } else if report.applied.isEmpty {
                        session.out.line("hub schema up to date (\(report.current))")
                    } else {
                        session.out.line("hub schema: applied \(report.applied.joined(separator: ", "))")
                    }
                }
            }

            struct Report: Encodable {
                var applied: [String]
                var current: String
            }

            /// The password the settings point at, read now; nil leaves it
            /// to libpq (`~/.pgpass`, a socket's peer authentication).
            static func password(_ hub: HubSettings, environment: [String: String]) throws -> String? {
                switch hub.password {
                case .none:
                    return nil
                case .environment(let name):
                    guard let value = environment[name], !value.isEmpty else {
                        throw CommandFailure.config("\(hub.origin): hub.password_env names \(name), which is not set")
                    }
                    return value
                case .file(let path):
                    guard let data = FileManager.default.contents(atPath: path) else {
                        throw CommandFailure.config("\(hub.origin): hub.password_file \(path) cannot be read")
                    }
                    let text = String(decoding: data, as: UTF8.self)
                    return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
                }
            }
        }
    }
}

extension Trackee.Hub {
    struct Sync: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Push the changes made here to the hub, and pull the others' once.",
            discussion: """
                The first sync joins the hub: the device gets a number, and every client, \
                project and entry here is renumbered so that its id ends in it (ids are then the \
                same on every device) and pushed. Each batch is one transaction on both sides, so \
                a sync that is killed loses nothing and the next one goes on where it stopped. On \
                a terminal a progress line shows the counts. See "Several devices" in the README \
                for how changes merge.
                """)
        @OptionGroup var common: CommonOptions

        func run() throws {
            try Session.run(common) { session in
                let hub = try Trackee.Hub.settings(session)
                let client = try Trackee.Hub.client()
                let store = try session.openStore()
                let password = try Init.password(hub, environment: session.environment)
                let showsProgress = !session.out.json && isatty(2) == 1
                let batch = try Self.batch(session.environment)
                var reports: [HubSyncReport] = []
                let location = StoreLocation.resolve(explicit: common.store, environment: session.environment)
                do {
                    let connection = try client.connect(hub, password: password)
                    var sync = HubSync(store: store, settings: hub, session: connection)
                    sync.checkpointsAside = true
                    sync.batch = batch
                    if showsProgress {
                        sync.progress = { r in writeAll(2, "\r\u{1B}[Kpushed \(r.pushed), pulled \(r.pulled)") }
                    }
                    reports.append(try sync.run(now: session.currentTime))
                    // The timelines others share: a copy of each, kept up to
                    // date; one no longer shared is forgotten.
                    let shared = try connection.sharedWithMe()
                    for person in location.people where shared[person] == nil { location.forget(person: person) }
                    for (person, level) in shared.sorted(by: { $0.key < $1.key }) {
                        guard HubSettings.isValidDevice(person) else {
                            writeAll(2, "trackee: warning: the hub shares the timeline of \"\(person)\", a name trackee "
                                + "cannot keep a copy under; skipped\n")
                            continue
                        }
                        var copy = HubSync(
                            store: try Store(location: location.person(person)), settings: hub, session: connection,
                            person: person)
                        copy.progress = sync.progress
                        copy.checkpointsAside = true
                        copy.batch = batch
                        var report = try copy.run(now: session.currentTime)
                        report.person = person
                        report.level = level
                        reports.append(report)
                    }
                    if showsProgress { writeAll(2, "\r\u{1B}[K") }
                } catch let error as StoreError {
                    throw error
                } catch {
                    if showsProgress { writeAll(2, "\r\u{1B}[K") }
                    try? store.hubSynced(error: "\(error)", now: session.currentTime())
                    throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
                }
                try store.hubSynced(error: nil, now: session.currentTime())
                for warning in reports.flatMap(\.warnings) { writeAll(2, "trackee: warning: \(warning)\n") }
                if session.out.json {
                    var own = reports[0]
                    own.shared = Array(reports.dropFirst())
                    session.out.emit(own)
                } else {
                    for report in reports {
                        let whose = report.person.map { "\($0)'s timeline (\(report.level ?? "read")), as " } ?? ""
                        var line = "hub sync: \(whose)device \(report.device) (\(report.number)): pushed \(report.pushed), "
                            + "pulled \(report.pulled), applied \(report.applied)"
                        if report.timersStopped > 0 {
                            line += ", stopped \(report.timersStopped) timer(s) another device's followed"
                        }
                        if report.conflicts > 0 { line += ", \(report.conflicts) conflict(s)" }
                        session.out.line(line)
                    }
                }
            }
        }
    }
}

extension Trackee.Hub.Sync {
    /// Changes per statement each way: `TRACKEE_HUB_BATCH`, else 5,000.
    static func batch(_ environment: [String: String]) throws -> Int {
        guard let text = environment["TRACKEE_HUB_BATCH"], !text.isEmpty else { return 5000 }
        guard let batch = Int(text), (1...100_000).contains(batch) else {
            throw CommandFailure.usage("TRACKEE_HUB_BATCH is \"\(text)\"; give a number of changes from 1 to 100000")
        }
        return batch
    }
}

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
                    clock: state?.clock, last_sync: state?.lastSync.map { session.zone.iso8601($0) },
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

extension Trackee.Hub {
    struct Conflicts: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conflicts",
            abstract: "List the changes a merge made that discarded someone's work.",
            discussion: """
                edited-deleted: an entry edited on one device and deleted on another (the \
                delete stood). deleted-in-use: a client or project deleted on one device while \
                rows here used it (they lost it). applied-twice: a key applied on two devices \
                whose later application could not be wholly taken back. `hub resolve N --keep` \
                brings the row back; `--drop` lets the merge stand.
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

            init(_ c: HubConflict, zone: Zone) {
                id = c.id
                what = c.what
                kind = c.kind
                row = c.rowID
                device = c.device
                noticed = zone.iso8601(c.noticed)
                summary = Self.summary(c, time: zone.iso8601)
            }

            /// `entry #1001 Docs 2026-11-20 09:00 "write"`, `project #2001 "Mail"`.
            static func summary(_ c: HubConflict, time: (Instant) -> String) -> String {
                var words = ["\(c.kind) #\(c.rowID)"]
                if let name = c.name { words.append("\"\(name)\"") }
                if let project = c.project { words.append(project) }
                if let start = c.start { words.append(time(start)) }
                if let text = c.description, !text.isEmpty { words.append("\"\(text)\"") }
                return words.joined(separator: " ")
            }
        }
    }

    struct Resolve: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resolve",
            abstract: "Close a conflict: bring the row back (--keep) or let the merge stand (--drop).",
            discussion: """
                --keep makes the row again with its newest values, as a change made here that \
                the next sync pushes, so every device gets it back.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The conflict's number, from `trackee hub conflicts`.") var number: Int64
        @Flag(help: "Bring the row back.") var keep = false
        @Flag(help: "Let the merge stand.") var drop = false

        func validate() throws {
            if keep == drop { throw ValidationError("give --keep or --drop") }
        }

        func run() throws {
            try Session.run(common) { session in
                _ = try Trackee.Hub.settings(session)
                let conflict = try session.openStore().hubResolve(number, keep: keep, now: session.now)
                if session.out.json {
                    session.out.emit(Conflicts.View(conflict, zone: session.zone))
                } else {
                    session.out.line(
                        keep ? "brought back \(conflict.kind) #\(conflict.rowID); the next hub sync shares it"
                            : "conflict \(conflict.id) closed; the merge stands")
                }
            }
        }
    }
}

extension Trackee.Hub {
    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant",
            abstract: "Let another person read your timeline, or also write it.",
            discussion: """
                PERSON is their PostgreSQL role on the hub. The database enforces it with \
                row-level security: a reader's change to your timeline is refused by PostgreSQL \
                itself. They see it after their next `trackee hub sync`, with `summary --person` \
                and `export --person`. Granting again changes the level.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "Their role on the hub.") var person: String
        @Flag(help: "They may read your timeline.") var read = false
        @Flag(help: "They may also change it.") var write = false

        func validate() throws {
            if read == write { throw ValidationError("give --read or --write") }
        }

        func run() throws {
            try Session.run(common) { session in
                try Trackee.Hub.share(session, with: person, level: write ? "write" : "read")
                session.out.line("\(person) may now \(write ? "read and change" : "read") your timeline")
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Take back what hub grant gave another person.",
            discussion: "Their next `trackee hub sync` forgets their copy of your timeline.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "Their role on the hub.") var person: String

        func run() throws {
            try Session.run(common) { session in
                try Trackee.Hub.share(session, with: person, level: nil)
                session.out.line("\(person) may no longer see your timeline")
            }
        }
    }

    static func share(_ session: Session, with person: String, level: String?) throws {
        let hub = try settings(session)
        let client = try client()
        let password = try Init.password(hub, environment: session.environment)
        do {
            try client.connect(hub, password: password).share(with: person, level: level)
        } catch {
            throw CommandFailure(message: "\(hub.origin): hub: \(error)", status: 75)
        }
    }
}
