import TrackeeAPI
import TrackeeCore
import TrackeeStore

extension EntryView {
    /// The entry as the session's zone and clock show it.
    init(_ e: Entry, session: Session) {
        self.init(e, zone: session.zone, now: session.now)
    }
}

/// Human-readable pieces shared by the commands, in the session's zone,
/// clock and style.
extension Session {
    /// ``Zone/clock(_:now:)``: `11:03` for today, `Thu 11:03` within the week, else `2026-11-20 11:03`.
    func clock(_ instant: Instant) -> String { zone.clock(instant, now: now) }

    /// ``Entry/label(_:)``: `"Docs" (Acme) · writing docs · #a #b`, or `(no project)`.
    func label(_ e: Entry) -> String { e.label(out.style) }

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
