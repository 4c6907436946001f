import TrackeeCore

/// The instant of a UTC wall time written `2026-03-29 00:30` or `2026-03-29 00:30:15`.
func utc(_ text: String) -> Instant {
    let parts = text.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == ":" }).map { Int($0)! }
    precondition(parts.count == 5 || parts.count == 6, "bad test time \(text)")
    let time = LocalDateTime(
        year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
        second: parts.count == 6 ? parts[5] : 0)
    return Instant(seconds: time.secondsSinceEpoch)
}

let prague = try! Zone(identifier: "Europe/Prague")
let newYork = try! Zone(identifier: "America/New_York")
