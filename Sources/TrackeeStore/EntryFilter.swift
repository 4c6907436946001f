import TrackeeCore

/// Which entries `log`, `summary`, `tags` and `report` cover: a window of
/// time, the names a user typed after `--project`, `--client` and `--tag`,
/// a piece of the description (`--description`) and the billing
/// (`--billable`, `--non-billable`).
///
/// Kinds combine with AND; several names of one kind with OR, so
/// `projects: ["Docs", "Web"], tags: ["urgent"]` is "Docs or Web, tagged
/// urgent". A project name matches that project under every client. An
/// entry is in the window when it overlaps `[from, to)`; reports that add
/// time up clip it to the window.
///
///     EntryFilter(from: monday, to: saturday, clients: ["Acme"])
public struct EntryFilter: Sendable {
    /// The window's start; nil reaches back to the first entry.
    public var from: Instant?
    /// The window's end, not included; nil reaches to now and the running
    /// timer.
    public var to: Instant?
    public var projects: [String]
    public var clients: [String]
    public var tags: [String]
    /// Text the description contains, in any case (`review` matches
    /// "Code Review"); nil for every description.
    public var description: String?
    /// True: only entries of billable projects; false: only the others,
    /// entries without a project among them; nil: both.
    public var billable: Bool?

    public init(from: Instant? = nil, to: Instant? = nil, projects: [String] = [], clients: [String] = [],
                tags: [String] = [], description: String? = nil, billable: Bool? = nil) {
        self.from = from
        self.to = to
        self.projects = projects
        self.clients = clients
        self.tags = tags
        self.description = description
        self.billable = billable
    }

    /// True when nothing but the window may narrow the entries: no name,
    /// no description, no billing.
    public var namesNothing: Bool {
        projects.isEmpty && clients.isEmpty && tags.isEmpty && description == nil && billable == nil
    }

    /// True when neither a name nor the window narrows the entries.
    public var keepsAll: Bool { namesNothing && from == nil && to == nil }
}
