/// How long to wait before the next try at a bus or a service that was
/// not there: a quarter of a second, doubling up to half a minute, so a
/// bus that restarts is back at once and one that is gone costs nothing.
struct Backoff: Equatable {
    static let first: Duration = .milliseconds(250)
    static let longest: Duration = .seconds(30)
    private(set) var next: Duration = Backoff.first

    /// The wait before this try; the one after it is twice as long.
    mutating func take() -> Duration {
        defer { next = min(next * 2, Self.longest) }
        return next
    }

    mutating func reset() { next = Self.first }
}
