/// What an API token may do over HTTP: each state-changing route and the
/// reading routes need their own scope, so a phone's token can start timers
/// without reading the timesheet, or a status-bar's read without starting.
///
/// The cases are in the order they are stored and printed.
public enum TokenScope: String, CaseIterable, Sendable {
    case start, stop, cancel, read, events, owntracks

    /// `scopes` in the canonical order, each once.
    public static func ordered(_ scopes: some Sequence<TokenScope>) -> [TokenScope] {
        let set = Set(scopes)
        return allCases.filter(set.contains)
    }
}
