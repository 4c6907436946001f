import Foundation
import TrackeeCore
import TrackeeSettings
import TrackeeStore

/// `trackee sync` and `sync check` hand their work to `trackee-sync`, which
/// links libcurl; this binary stays static and starts without it.
struct PushJob {
    let spec: PushJobSpec

    init(command: String, targets: [PushSetting], session: Session, store: Store) {
        let pinned = session.environment["TRACKEE_NOW"].map { !$0.isEmpty } ?? false
        spec = PushJobSpec(
            command: command, store: store.path, now: pinned ? session.now.seconds : nil, json: session.out.json,
            targets: targets.map(\.jobTarget))
    }

    /// The targets `name` picks (all when nil), or an error naming those
    /// the settings have.
    static func targets(_ session: Session, named name: String?) throws -> [PushSetting] {
        let all = session.settings.sync
        guard !all.isEmpty else {
            // A matter of configuration, not of the command line: the
            // sentence says where, with the smallest target that works.
            throw CommandFailure.config(
                "no sync targets in \(Settings.path(environment: session.environment)); add one, such as "
                    + "sync: {work: {service: clockify, workspace: My Company, token_file: ~/.config/trackee/clockify.token, "
                    + "since: 2026-11-01}} (see trackee(1), CONFIGURATION)")
        }
        guard let name else { return all }
        guard let one = all.first(where: { $0.name == name }) else {
            throw CommandFailure.usage("no sync target named \"\(name)\"; the settings name " + all.map(\.name).joined(separator: ", "))
        }
        return [one]
    }

    /// `trackee-sync COMMAND --job JSON`.
    func argv() throws -> [String] {
        let data = try JSONEncoder().encode(spec)
        return [try Self.toolPath(), spec.command, "--job", String(decoding: data, as: UTF8.self)]
    }

    /// Replaces this process with `trackee-sync` running the job.
    func exec() throws -> Never {
        try SiblingTool.exec(try argv())
    }

    /// `trackee-sync` next to this executable, or where TRACKEE_SYNC names it.
    static func toolPath() throws -> String {
        let (path, named) = SiblingTool.path("trackee-sync", variable: "TRACKEE_SYNC")
        if named { return path }
        guard access(path, X_OK) == 0 else {
            throw CommandFailure.config("trackee sync needs trackee-sync next to trackee (\(path) is missing); make install puts it there")
        }
        return path
    }

    /// `sync --dry-run`: what each target would be sent, sending nothing.
    static func dryRun(_ targets: [PushSetting], store: Store, session: Session) throws {
        var rows: [[String: String]] = []
        for t in targets {
            let due = try store.duePushes(target: t.name, now: session.now, limit: Int.max)
            for item in due {
                let action = item.plannedAction
                var row = ["target": t.name, "entry": "\(item.entryID)", "action": action]
                if let e = item.entry {
                    row["start"] = session.zone.iso8601(e.start)
                    row["end"] = e.end.map(session.zone.iso8601) ?? ""
                    row["project"] = e.project.map { t.projects[$0] ?? $0 } ?? ""
                    row["description"] = e.description
                }
                rows.append(row)
                if !session.out.json {
                    var line = "\(t.name): \(action) entry \(item.entryID)"
                    if let e = item.entry, let end = e.end {
                        line += "  \(session.zone.iso8601(e.start)) – \(session.zone.iso8601(end))"
                        if let p = row["project"], !p.isEmpty { line += "  \(p)" }
                        if !e.description.isEmpty { line += "  \(e.description)" }
                    }
                    session.out.line(line)
                }
            }
            if !session.out.json {
                session.out.line("\(t.name): would push \(due.count) change\(due.count == 1 ? "" : "s"); nothing was sent")
            }
        }
        if session.out.json { session.out.emit(rows) }
    }
}
