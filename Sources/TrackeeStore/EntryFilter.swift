import TrackeeCore

/// Which entries `log`, `summary` and `tags` cover: a window of time and
/// the names a user typed after `--project`, `--client` and `--tag`.
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

    public init(from: Instant? = nil, to: Instant? = nil, projects: [String] = [], clients: [String] = [],
                tags: [String] = []) {
        self.from = from
        self.to = to
        self.projects = projects
        self.clients = clients
        self.tags = tags
    }

    /// True when no name narrows the entries (the window may still).
    public var namesNothing: Bool { projects.isEmpty && clients.isEmpty && tags.isEmpty }

    /// True when neither a name nor the window narrows the entries.
    public var keepsAll: Bool { namesNothing && from == nil && to == nil }
}
