import TrackeeCore

/// Warnings about what another program sent, so that a flood of bad
/// values is a few lines: at most ``perWindow`` of each kind a minute
/// (measured on the watch's `now`), and then one line counting the ones
/// left out, which starts with `prefix` (`flip:`).
struct LimitedWarnings {
    static let perWindow = 3
    static let window: Int64 = 60
    let prefix: String
    private var kinds: [String: (since: Instant, logged: Int, left: Int)] = [:]

    init(prefix: String) { self.prefix = prefix }

    /// The lines to log for a warning of `kind`: `text`, or none when its
    /// kind had its lines this minute; before it, the count of those left
    /// out in a minute that has ended.
    mutating func lines(_ kind: String, _ text: String, now: Instant) -> [String] {
        var lines = ended(now, only: kind)
        var entry = kinds[kind] ?? (now, 0, 0)
        if entry.logged < Self.perWindow {
            entry.logged += 1
            lines.append(text)
        } else {
            entry.left += 1
        }
        kinds[kind] = entry
        return lines
    }

    /// The counts of the minutes that have ended by `now`.
    mutating func flush(now: Instant) -> [String] { ended(now, only: nil) }

    private mutating func ended(_ now: Instant, only: String?) -> [String] {
        var lines: [String] = []
        for (kind, entry) in kinds.sorted(by: { $0.key < $1.key }) where only == nil || only == kind {
            guard now - entry.since >= Self.window else { continue }
            if entry.left > 0 {
                lines.append("\(prefix) left out \(entry.left) more warning\(entry.left == 1 ? "" : "s") about \(kind) "
                             + "in \(Self.window) s")
            }
            kinds[kind] = nil
        }
        return lines
    }
}
