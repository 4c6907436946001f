import Foundation
import TrackeeCore
import TrackeeStore
import TrackeePush

/// `trackee-sync push|drain|check --job JSON`: the half of `trackee sync`
/// that talks to the services. `trackee sync` checks the settings and
/// hands over the targets (``PushJobSpec``); this reads each token, pushes
/// or checks, and prints the outcome as `trackee sync` documents it.
enum PushTool {
    /// Exit statuses (sysexits.h), as trackee(1) lists them for sync.
    static let refused: Int32 = 65, unavailable: Int32 = 75, badToken: Int32 = 77, usage: Int32 = 64, config: Int32 = 78

    static func main(_ arguments: [String]) -> Int32 {
        guard arguments.count == 4, arguments[2] == "--job",
              let spec = try? JSONDecoder().decode(PushJobSpec.self, from: Data(arguments[3].utf8))
        else {
            fail("trackee-sync is run by trackee sync; use that command (see trackee(1))")
            return usage
        }
        let store: Store
        do { store = try Store(path: spec.store) } catch {
            fail("\(error)")
            return config
        }
        let clock: () -> Instant = spec.now.map { pinned in { Instant(seconds: pinned) } } ?? SystemClock.now
        switch spec.command {
        case "push", "drain": return push(spec, store: store, clock: clock, quiet: spec.command == "drain")
        case "check": return check(spec, store: store, clock: clock)
        default:
            fail("trackee-sync: unknown command \(spec.command)")
            return usage
        }
    }

    /// The token a target names: the file's first line, or the variable.
    static func token(_ t: PushJobSpec.Target) throws(ToolError) -> String {
        if let file = t.tokenFile {
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
                throw ToolError("\(t.origin): sync.\(t.name).token_file: cannot read \(file)")
            }
            let token = text.split(whereSeparator: \.isNewline).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !token.isEmpty else { throw ToolError("\(t.origin): sync.\(t.name).token_file: \(file) is empty") }
            return token
        }
        let name = t.tokenEnv ?? ""
        guard let value = ProcessInfo.processInfo.environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines),
              !value.isEmpty
        else { throw ToolError("\(t.origin): sync.\(t.name).token_env: \(name) is not set") }
        return value
    }

    static func service(_ t: PushJobSpec.Target, quota: RequestQuota? = nil) throws(ToolError) -> TimeService {
        try makeService(t, token: token(t), quota: quota)
    }

    /// The target's quota, with the requests the runs of the last hour
    /// sent; each request it counts is kept in the store before it goes out.
    static func quota(_ t: PushJobSpec.Target, store: Store, clock: @escaping () -> Instant) throws -> RequestQuota {
        let sent = try store.quotaRequests(target: t.name, since: clock() - RequestQuota.hour)
        let ledger = QuotaLedger(store: store, target: t.name)
        if t.service == "toggl" {
            // Toggl's /me endpoints have a quota of their own, 30 an hour on every plan.
            return RequestQuota(service: "Toggl Track", limits: [.workspace: t.requestsPerHour, .user: 30], clock: clock,
                                sent: sent, ledger: ledger)
        }
        return RequestQuota(service: "Clockify", limits: [.workspace: t.requestsPerHour], clock: clock, sent: sent,
                            ledger: ledger)
    }

    /// What kept ids are valid for: the same service, address and workspace.
    static func idsKey(_ t: PushJobSpec.Target) -> String {
        "\(t.service) \(t.url ?? "") \(t.workspace)"
    }

    // MARK: push

    static func push(_ spec: PushJobSpec, store: Store, clock: @escaping () -> Instant, quiet: Bool) -> Int32 {
        let terminal = !spec.json && !quiet && isatty(2) != 0
        var reports: [PushReport] = []
        var status: Int32 = 0
        for t in spec.targets {
            let target = PushTarget(name: t.name, projects: t.projects)
            do {
                let quota = try quota(t, store: store, clock: clock)
                let service = try service(t, quota: quota)
                if let kept = try store.serviceIDs(target: t.name, key: idsKey(t)) { service.remember(keptIDs: kept) }
                // A pinned clock (TRACKEE_NOW) never moves: waiting in the push for
                // it would never end, so a wait stops the push instead.
                let pusher = Pusher(store: store, target: target, service: service, clock: clock,
                                    longestWait: spec.now == nil ? 60 : 0, quota: quota)
                let report = try pusher.push { done, total in
                    if terminal && total > 0 { progress("\(t.name): pushed \(done)/\(total)") }
                }
                if let ids = service.keptIDs { try store.keepServiceIDs(target: t.name, key: idsKey(t), ids) }
                if terminal { progress(nil) }
                reports.append(report)
                status = max(status, exitStatus(report))
            } catch let error as ToolError {
                fail(error.message)
                return config
            } catch {
                fail("\(t.name): \(error)")
                return config
            }
        }
        if spec.json {
            print(json(reports.map(view)))
        } else if !quiet {
            for r in reports { print(summary(r)) }
        } else {
            for r in reports where r.stopped != nil { fail(summary(r)) }
        }
        return status
    }

    static func exitStatus(_ r: PushReport) -> Int32 {
        switch r.stopped {
        case .unauthorized: return badToken
        case .unavailable, .quota: return unavailable
        case nil: return r.failed + r.conflicts > 0 ? refused : 0
        }
    }

    /// `work: pushed 120, adopted 1, failed 0, conflicts 0, still queued 0`.
    static func summary(_ r: PushReport) -> String {
        var line = "\(r.target): pushed \(r.pushed), adopted \(r.adopted), failed \(r.failed), conflicts \(r.conflicts), still queued \(r.queued)"
        switch r.stopped {
        case .unauthorized(let why): line += "; stopped: \(why); fix the token and run trackee sync again"
        case .unavailable(let why, let at): line += "; stopped: \(why); next try at \(Zone.local().iso8601(at))"
        case .quota(let wait): line += "; " + quotaLine(wait)
        case nil: break
        }
        if r.failed + r.conflicts > 0 { line += "; see trackee sync status" }
        return line
    }

    static func view(_ r: PushReport) -> [String: Any] {
        var object: [String: Any] = [
            "target": r.target, "pushed": r.pushed, "adopted": r.adopted, "failed": r.failed, "conflicts": r.conflicts,
            "queued": r.queued, "stopped": NSNull(), "message": NSNull(), "retry_at": NSNull(),
        ]
        switch r.stopped {
        case .unauthorized(let why):
            object["stopped"] = "unauthorized"
            object["message"] = why
        case .unavailable(let why, let at):
            object["stopped"] = "unavailable"
            object["message"] = why
            object["retry_at"] = Zone.local().iso8601(at)
        case .quota(let wait):
            object["stopped"] = "quota"
            object["message"] = quotaLine(wait)
            object["retry_at"] = Zone.local().iso8601(wait.until)
        case nil: break
        }
        return object
    }

    /// `waiting for Toggl Track's hourly quota (30 requests) until 2026-11-23T14:32:00+01:00; the rest goes then`.
    static func quotaLine(_ wait: QuotaWait) -> String {
        "waiting for \(wait.service)'s hourly quota (\(wait.limit) requests) until \(Zone.local().iso8601(wait.until)); "
            + "the rest goes then"
    }

    // MARK: check

    static func check(_ spec: PushJobSpec, store: Store, clock: @escaping () -> Instant) -> Int32 {
        var views: [[String: Any]] = []
        var status: Int32 = 0
        for t in spec.targets {
            do {
                // Asks the service afresh (a check is about the token as it
                // is now), and keeps what it learned for the pushes.
                let quota = try quota(t, store: store, clock: clock)
                defer { try? quota.keep(in: store, target: t.name) }
                let service = try service(t, quota: quota)
                let who = try service.identity()
                let needed = try neededProjects(t, store: store, clock: clock)
                let missing = try service.missingProjects(needed)
                let names = missing.map { p in p.client.map { "\(p.name) (\($0))" } ?? p.name }
                if let ids = service.keptIDs { try store.keepServiceIDs(target: t.name, key: idsKey(t), ids) }
                views.append([
                    "target": t.name, "service": t.service, "user": who.userName, "email": who.email,
                    "workspace": who.workspaceName, "workspace_id": who.workspaceID, "missing_projects": names,
                    "create_missing": t.createMissing,
                ])
                if !spec.json {
                    print("\(t.name) (\(t.service)): authenticated as \(who.userName) <\(who.email)>, workspace \"\(who.workspaceName)\" (\(who.workspaceID))")
                    if names.isEmpty {
                        print("\(t.name): every project the queued entries need exists there")
                    } else {
                        print("\(t.name): " + (t.createMissing ? "would create" : "missing (create_missing is off)") + ": "
                              + names.joined(separator: ", "))
                    }
                }
            } catch let error as ToolError {
                fail(error.message)
                return config
            } catch let failure as ServiceFailure {
                fail("\(t.name): \(failure)")
                if case .unauthorized = failure { status = max(status, badToken) } else { status = max(status, unavailable) }
            } catch {
                fail("\(t.name): \(error)")
                status = max(status, config)
            }
        }
        if spec.json { print(json(views)) }
        return status
    }

    /// The projects the target's queued entries would be pushed with.
    static func neededProjects(_ t: PushJobSpec.Target, store: Store, clock: () -> Instant) throws -> [RemoteProjectName] {
        var seen: Set<RemoteProjectName> = []
        var result: [RemoteProjectName] = []
        for item in try store.duePushes(target: t.name, now: Instant(seconds: .max), limit: Int.max) {
            guard let e = item.entry, let p = e.project else { continue }
            let name = RemoteProjectName(name: t.projects[p] ?? p, client: e.client)
            if seen.insert(name).inserted { result.append(name) }
        }
        return result
    }

    // MARK: output

    static func json(_ value: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func fail(_ message: String) {
        FileHandle.standardError.write(Data(("trackee: " + message + "\n").utf8))
    }

    /// Rewrites the progress line on the terminal; nil clears it.
    static func progress(_ text: String?) {
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + (text ?? "")).utf8))
    }
}

/// A problem with the job or a token, said in one sentence.
struct ToolError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The service a target names, with its token.
func makeService(_ t: PushJobSpec.Target, token: String, quota: RequestQuota? = nil) throws(ToolError) -> TimeService {
    switch t.service {
    case "clockify":
        return ClockifyService(baseURL: t.url ?? ClockifyService.defaultBaseURL, token: token, workspace: t.workspace,
                               createMissing: t.createMissing, quota: quota)
    case "toggl":
        return TogglService(baseURL: t.url ?? TogglService.defaultBaseURL, token: token, workspace: t.workspace,
                            createMissing: t.createMissing, quota: quota)
    default:
        throw ToolError("\(t.origin): sync.\(t.name).service: unknown service \"\(t.service)\"")
    }
}
