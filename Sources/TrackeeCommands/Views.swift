import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension EntryView {
    /// The entry as the session's zone and clock show it.
    init(_ e: Entry, session: Session) {
        self.init(e, zone: session.zone, now: session.now)
    }
}

/// Human-readable pieces shared by the commands.
extension Session {
    /// `11:03` for today, `Thu 11:03` within the week, else `2026-11-20 11:03`.
    func clock(_ instant: Instant) -> String {
        let local = zone.localDateTime(instant)
        let hm = pad(local.hour, 2) + ":" + pad(local.minute, 2)
        let today = zone.localDate(now)
        if local.date == today { return hm }
        let days = today.daysSinceEpoch - local.date.daysSinceEpoch
        if days > 0 && days < 7 {
            return (Weekday(rawValue: local.date.weekday)?.shortName ?? "") + " " + hm
        }
        return "\(local.date) \(hm)"
    }

    /// `"Docs" (Acme) · writing docs · #a #b`, or `no project`.
    func label(_ e: Entry) -> String {
        var parts: [String] = []
        if let project = e.project {
            parts.append(out.bold(project) + (e.client.map { " (\($0))" } ?? ""))
        } else {
            parts.append(out.dim("(no project)"))
        }
        if !e.description.isEmpty { parts.append(e.description) }
        if !e.tags.isEmpty { parts.append(e.tags.map { "#" + $0 }.joined(separator: " ")) }
        return parts.joined(separator: " · ")
    }

    func duration(_ seconds: Int64) -> String { formatDuration(seconds, .clock) }

    func printCreated(_ created: [String]) {
        for thing in created { out.line("created \(thing)") }
    }
}

/// The JSON form of a client.
struct ClientView: Encodable {
    var id: Int64
    var name: String
    var projects: Int
    var entries: Int

    init(_ c: Client) {
        id = c.id
        name = c.name
        projects = c.projects
        entries = c.entries
    }
}

/// The JSON form of a project. The rate is a whole number of cents, so a
/// script does arithmetic on it without parsing a decimal string.
struct ProjectView: Encodable {
    var id: Int64
    var name: String
    var client: String?
    var type: String?
    var billable: Bool
    var rate_cents: Int64?
    var entries: Int

    init(_ p: Project) {
        id = p.id
        name = p.name
        client = p.client
        type = p.type
        billable = p.billable
        rate_cents = p.rateCents
        entries = p.entries
    }
}

/// `1 entry`, `2 entries`.
func count(_ n: Int, _ singular: String, _ plural: String) -> String {
    "\(n) \(n == 1 ? singular : plural)"
}
